// Written by Fuzz/make-dict.py from docs/scene.schema.json; do not edit.

/// The scene format's words, for the structure-aware mutator.
enum SceneVocabulary {
  /// Every field name.
  static let keys: [String] = [
    "background", "backgroundExtensionEffect", "bevelWidth", "blue", "bottom", "bottomLeading", "bottomTrailing",
    "center", "clipShape", "color", "colors", "containerShape", "content", "contentMode", "cornerRadius", "corners",
    "dimming", "dispersion", "endPoint", "endRadius", "fill", "frame", "frost", "glass", "glowOpacity", "glowRadius",
    "green", "height", "image", "interactive", "isUniform", "layers", "leading", "lightAngle", "lightening",
    "linearGradient", "location", "material", "minimum", "opacity", "oppositeRimOpacity", "optics", "padding",
    "pressed", "pressedScale", "radialGradient", "red", "refraction", "rimOpacity", "rimWidth", "saturation", "scale",
    "shadowOffsetX", "shadowOffsetY", "shadowOpacity", "shadowRadius", "shape", "sigma", "size", "source", "spacing",
    "startPoint", "startRadius", "stops", "style", "tint", "tintIntensity", "top", "topLeading", "topTrailing",
    "touchPoint", "trailing", "type", "variant", "version", "width", "x", "y",
  ]
  /// Every string value that is not also a field name.
  static let values: [String] = [
    "bar", "black", "brown", "capsule", "circle", "circular", "clear", "concentric", "concentricRectangle",
    "continuous", "cyan", "ellipse", "fit", "glassContainer", "gray", "identity", "indigo", "mint", "orange", "pink",
    "purple", "rect", "regular", "roundedRect", "teal", "thick", "thin", "ultraThick", "ultraThin",
    "unevenRoundedRect", "white", "yellow",
  ]
}
