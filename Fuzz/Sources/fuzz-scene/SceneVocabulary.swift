// Written by Fuzz/make-dict.py from docs/scene.schema.json; do not edit.

/// The scene format's words, for the structure-aware mutator.
enum SceneVocabulary {
  /// Every field name.
  static let keys: [String] = [
    "animation", "background", "backgroundExtensionEffect", "bevelWidth", "blue", "bottom", "bottomLeading",
    "bottomTrailing", "bounce", "center", "clipShape", "color", "colors", "containerShape", "content", "contentMode",
    "cornerRadius", "corners", "dimming", "dispersion", "duration", "endPoint", "endRadius", "fill", "frame", "from",
    "frost", "glass", "glassEffectID", "glassEffectTransition", "glassEffectUnion", "glowOpacity", "glowRadius",
    "green", "height", "image", "interactive", "isUniform", "layers", "leading", "lightAngle", "lightening",
    "linearGradient", "location", "material", "minimum", "opacity", "oppositeRimOpacity", "optics", "padding",
    "pressed", "pressedScale", "radialGradient", "red", "refraction", "rimOpacity", "rimWidth", "saturation", "scale",
    "shadowOffsetX", "shadowOffsetY", "shadowOpacity", "shadowRadius", "shape", "sigma", "size", "source", "spacing",
    "startPoint", "startRadius", "states", "stops", "style", "tint", "tintIntensity", "to", "top", "topLeading",
    "topTrailing", "touchPoint", "trailing", "transition", "type", "variant", "version", "width", "x", "x1", "x2",
    "y", "y1", "y2",
  ]
  /// Every string value that is not also a field name.
  static let values: [String] = [
    "bar", "black", "bouncy", "brown", "capsule", "circle", "circular", "clear", "concentric", "concentricRectangle",
    "continuous", "cyan", "easeIn", "easeInOut", "easeOut", "ellipse", "fit", "glassContainer", "gray", "identity",
    "indigo", "linear", "matchedGeometry", "materialize", "mint", "orange", "pink", "purple", "rect", "regular",
    "roundedRect", "smooth", "snappy", "spring", "teal", "thick", "thin", "timingCurve", "ultraThick", "ultraThin",
    "unevenRoundedRect", "white", "yellow",
  ]
}
