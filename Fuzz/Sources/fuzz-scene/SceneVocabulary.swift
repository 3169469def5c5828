// Written by Fuzz/make-dict.py from docs/scene.schema.json; do not edit.

/// The scene format's words, for the structure-aware mutator.
enum SceneVocabulary {
  /// Every field name.
  static let keys: [String] = [
    "accessibilityIncreaseContrast", "accessibilityReduceMotion", "accessibilityReduceTransparency",
    "accessibilityShowBorders", "adaptiveGlass", "alignment", "animation", "aspectRatio", "background",
    "backgroundExtensionEffect", "bevelWidth", "blue", "body", "bottom", "bottomLeading", "bottomTrailing", "bounce",
    "buttonStyle", "center", "children", "clipShape", "color", "colorScheme", "colors", "containerShape", "content",
    "contentMode", "contourOpacity", "contourWidth", "cornerRadius", "corners", "dark", "dimming", "dispersion",
    "duration", "dynamicTypeSize", "edges", "endPoint", "endRadius", "environment", "family", "file", "fill",
    "fitPadding", "fixedSize", "font", "fontWeight", "foregroundStyle", "frame", "from", "frost", "glass",
    "glassAppearance", "glassEffect", "glassEffectID", "glassEffectTransition", "glassEffectUnion", "glowOpacity",
    "glowRadius", "green", "height", "horizontal", "id", "idealHeight", "idealWidth", "ignoresSafeArea", "image",
    "in", "increasedContrastDark", "increasedContrastLight", "interactive", "isUniform", "label", "layers",
    "layoutDirection", "layoutPriority", "leading", "length", "light", "lightAngle", "lightening", "lineLimit",
    "linearGradient", "location", "material", "maxHeight", "maxWidth", "minHeight", "minLength", "minWidth",
    "minimum", "modifiers", "multilineTextAlignment", "offset", "opacity", "oppositeRimOpacity", "optics", "overlay",
    "padding", "placeholder", "pressed", "pressedScale", "radialGradient", "ratio", "red", "refraction", "relativeTo",
    "resizable", "rimOpacity", "rimWidth", "safeAreaInsets", "saturation", "scale", "scaledToFill", "scaledToFit",
    "shadowOffsetX", "shadowOffsetY", "shadowOpacity", "shadowRadius", "shape", "sigma", "size", "source", "spacing",
    "startPoint", "startRadius", "states", "stops", "style", "systemImage", "systemName", "text", "textFieldStyle",
    "tint", "tintIntensity", "title", "to", "top", "topLeading", "topTrailing", "touchPoint", "trailing",
    "transition", "type", "variant", "version", "vertical", "weight", "width", "x", "x1", "x2", "y", "y1", "y2",
  ]
  /// Every string value (a layer's type too, though it is also a field's name).
  static let values: [String] = [
    "accessibility1", "accessibility2", "accessibility3", "accessibility4", "accessibility5", "all",
    "arrow.right.square", "bar", "black", "blue", "body", "bold", "bolt.fill", "bottom", "bottomLeading",
    "bottomTrailing", "bouncy", "brown", "button", "callout", "capsule", "caption", "caption2", "center", "checkmark",
    "circle", "circular", "clear", "cloud.bolt.rain.fill", "color", "concentric", "concentricRectangle", "continuous",
    "cyan", "dark", "easeIn", "easeInOut", "easeOut", "ellipse", "envelope.fill", "eraser.fill", "fill", "fit",
    "flag.fill", "footnote", "gearshape.fill", "glass", "glassContainer", "glassEffectContainer", "glassProminent",
    "gray", "green", "group", "headline", "heart.fill", "heavy", "hexagon.fill", "horizontal", "hstack", "identity",
    "image", "indigo", "infinity", "label", "large", "largeTitle", "layers", "leading", "leftToRight", "light",
    "linear", "lock.fill", "magnifyingglass", "matchedGeometry", "material", "materialize", "medium", "mint",
    "moon.fill", "moon.stars.fill", "mountain.2.fill", "opaqueSeparator", "orange", "person.fill", "pink",
    "placeholderText", "plain", "plus", "primary", "purple", "quaternaryLabel", "quaternarySystemFill", "rect",
    "rectangle", "red", "regular", "rightToLeft", "roundedBorder", "roundedRect", "roundedRectangle",
    "scribble.variable", "secondary", "secondaryLabel", "secondarySystemBackground", "secondarySystemFill",
    "secondarySystemGroupedBackground", "secureField", "semibold", "separator", "shape", "sidebar.left", "small",
    "smooth", "snappy", "snowflake", "spacer", "spring", "square.and.arrow.up", "star.fill", "subheadline",
    "sun.max.fill", "sun.rain.fill", "systemBackground", "systemFill", "systemGray2", "systemGray3", "systemGray4",
    "systemGray5", "systemGray6", "systemGroupedBackground", "teal", "tertiaryLabel", "tertiarySystemBackground",
    "tertiarySystemFill", "tertiarySystemGroupedBackground", "text", "textField", "thick", "thin", "timingCurve",
    "tinted", "title", "title2", "title3", "top", "topLeading", "topTrailing", "trailing", "ultraLight", "ultraThick",
    "ultraThin", "unevenRoundedRect", "unevenRoundedRectangle", "vertical", "vstack", "white", "xLarge", "xSmall",
    "xmark", "xxLarge", "xxxLarge", "yellow", "zstack",
  ]
}
