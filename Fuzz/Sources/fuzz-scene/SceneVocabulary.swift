// Written by Fuzz/make-dict.py from docs/scene.schema.json; do not edit.

/// The scene format's words, for the structure-aware mutator.
enum SceneVocabulary {
  /// Every field name.
  static let keys: [String] = [
    "animation", "background", "backgroundExtensionEffect", "bevelWidth", "blue", "bottom", "bottomLeading",
    "bottomTrailing", "bounce", "buttonStyle", "center", "clipShape", "color", "colors", "containerShape", "content",
    "contentMode", "contourOpacity", "contourWidth", "cornerRadius", "corners", "dimming", "dispersion", "duration",
    "endPoint", "endRadius", "family", "file", "fill", "font", "fontWeight", "foregroundStyle", "frame", "from",
    "frost", "glass", "glassEffectID", "glassEffectTransition", "glassEffectUnion", "glowOpacity", "glowRadius",
    "green", "height", "image", "interactive", "isUniform", "layers", "leading", "lightAngle", "lightening",
    "lineLimit", "linearGradient", "location", "material", "minimum", "multilineTextAlignment", "opacity",
    "oppositeRimOpacity", "optics", "padding", "pressed", "pressedScale", "radialGradient", "red", "refraction",
    "rimOpacity", "rimWidth", "saturation", "scale", "shadowOffsetX", "shadowOffsetY", "shadowOpacity",
    "shadowRadius", "shape", "sigma", "size", "source", "spacing", "startPoint", "startRadius", "states", "stops",
    "style", "systemImage", "text", "tint", "tintIntensity", "title", "to", "top", "topLeading", "topTrailing",
    "touchPoint", "trailing", "transition", "type", "variant", "version", "weight", "width", "x", "x1", "x2", "y",
    "y1", "y2",
  ]
  /// Every string value (a layer's type too, though it is also a field's name).
  static let values: [String] = [
    "bar", "black", "blue", "body", "bold", "bolt.fill", "bottom", "bottomLeading", "bottomTrailing", "bouncy",
    "brown", "button", "callout", "capsule", "caption", "caption2", "center", "checkmark", "circle", "circular",
    "clear", "cloud.bolt.rain.fill", "concentric", "concentricRectangle", "continuous", "cyan", "easeIn", "easeInOut",
    "easeOut", "ellipse", "envelope.fill", "eraser.fill", "fill", "fit", "flag.fill", "footnote", "gearshape.fill",
    "glass", "glassContainer", "glassProminent", "gray", "green", "headline", "heart.fill", "heavy", "identity",
    "image", "indigo", "largeTitle", "leading", "light", "linear", "lock.fill", "magnifyingglass", "matchedGeometry",
    "material", "materialize", "medium", "mint", "moon.fill", "moon.stars.fill", "mountain.2.fill", "orange",
    "person.fill", "pink", "plus", "purple", "rect", "red", "regular", "roundedRect", "scribble.variable", "semibold",
    "shape", "sidebar.left", "smooth", "snappy", "spring", "square.and.arrow.up", "star.fill", "subheadline",
    "sun.rain.fill", "teal", "text", "thick", "thin", "timingCurve", "title", "title2", "title3", "top", "topLeading",
    "topTrailing", "trailing", "ultraLight", "ultraThick", "ultraThin", "unevenRoundedRect", "white", "yellow",
  ]
}
