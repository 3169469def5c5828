import Foundation

/// Colours, unit points, gradients, fills, shapes and the scene's own fields,
/// in the format's one table (`SceneFormat`): the reader takes their keys and
/// names from here, the validator their ranges, and the schema's definitions
/// (`color`, `unitPoint`, `gradientColors`, `gradientStops`, `linearGradient`,
/// `radialGradient`, `fill`, `shape`, `concentricCorner`, and the scene's
/// `size`, `scale`, `background` and `transition`) are generated from it.
extension SceneFormat {
  // MARK: Colours and gradients

  /// `{"red", "green", "blue", "opacity"}`: sRGB components, straight alpha.
  static let colorFields: [Field] =
    ["red", "green", "blue"].map { Field($0, .number(unitInterval), required: true) } + [
      Field("opacity", .number(unitInterval), default: .number(1))
    ]

  /// `{"light", "dark", "increasedContrastLight", "increasedContrastDark"}`: a
  /// colour per appearance (`Color(light:dark:)`).
  static let adaptiveColorFields: [Field] = [
    Field("light", .definition(.color), required: true, "its value in the light appearance"),
    Field("dark", .definition(.color), required: true, "its value in the dark appearance"),
    Field(
      "increasedContrastLight", .definition(.color),
      "with Increase Contrast, light; left out: `light`'s increased-contrast value"),
    Field(
      "increasedContrastDark", .definition(.color),
      "with Increase Contrast, dark; left out: `dark`'s increased-contrast value"),
  ]

  /// A unit point's `x` and `y`: 0 and 1 are the frame's edges.
  static let unitPointFields: [Field] = ["x", "y"].map {
    Field(
      $0, .number(Bounds(minimum: Scene.unitPoints.lowerBound, maximum: Scene.unitPoints.upperBound)), required: true)
  }

  /// A gradient's colours: 1 to this many.
  static let gradientColorCounts = 1...Paint.maximumStops

  /// One stop of a gradient.
  static let gradientStopFields: [Field] = [
    Field("color", .definition(.color), required: true),
    Field("location", .number(unitInterval), required: true),
  ]

  /// The two ways a gradient gives its colours (one of them, not both).
  static let gradientColorFields: [Field] = [
    Field("colors", .definition(.gradientColors), "spread evenly from location 0 to 1"),
    Field("stops", .definition(.gradientStops), "sorted by location"),
  ]

  static let linearGradientFields: [Field] =
    gradientColorFields + [
      Field("startPoint", .definition(.unitPoint), default: .string("top"), "where location 0 lies"),
      Field(
        "endPoint", .definition(.unitPoint), default: .string("bottom"),
        "where location 1 lies; a location is the projection on the line from start to end"),
    ]

  static let radialGradientFields: [Field] =
    gradientColorFields + [
      Field("center", .definition(.unitPoint), default: .string("center")),
      Field("startRadius", .number(radius), default: .number(0), "location 0"),
      Field("endRadius", .number(radius), required: true, "location 1; at least `startRadius`"),
    ]

  // MARK: Shapes

  /// The shape types, as a shape's name or `type` gives them.
  enum ShapeTypeName: String, CaseIterable, Sendable {
    case rect, capsule, circle, ellipse, roundedRect, unevenRoundedRect, concentricRectangle

    /// Whether the shape takes no parameters (and may be written as a name).
    var isSimple: Bool { [.rect, .capsule, .circle, .ellipse].contains(self) }
  }

  static let cornerNames = ["topLeading", "topTrailing", "bottomTrailing", "bottomLeading"]
  static let cornerStyle = Field(
    "style", .choice(RoundedCornerStyle.allCases.map(\.rawValue)), default: .string("circular"),
    "`continuous`: Apple's continuous corner")

  /// A shape type's fields (besides `type`).
  static func shapeFields(_ name: ShapeTypeName) -> [Field] {
    switch name {
    case .rect, .capsule, .circle, .ellipse: []
    case .roundedRect: [Field("cornerRadius", .number(radius), required: true), cornerStyle]
    case .unevenRoundedRect: cornerNames.map { Field($0, .number(radius), default: .number(0)) } + [cornerStyle]
    case .concentricRectangle:
      [
        Field("corners", .definition(.concentricCorners), default: .string("concentric")),
        Field("isUniform", .bool, default: .bool(false), "every corner the smallest of the four"),
      ]
    }
  }

  /// A concentric corner's `{"minimum"}`.
  static let concentricMinimumFields: [Field] = [Field("minimum", .number(radius), required: true)]

  // MARK: The scene

  /// The canvas's `size`, in points.
  static let sizeFields: [Field] = ["width", "height"].map {
    Field($0, .number(Bounds(minimum: 1, maximum: Scene.maximumSidePoints, unit: "pt")), required: true)
  }

  /// The scales a scene renders at.
  static let scales = [1.0, 2, 3]

  /// A background image: `{"image", "contentMode"}`.
  static let backgroundImageFields: [Field] = [
    Field("image", .definition(.imagePath), required: true),
    Field("contentMode", .choice(ContentMode.allCases.map(\.rawValue)), default: .string("fill")),
  ]

  /// The scene's `transition`.
  static let transitionFields: [Field] = [
    Field("from", .name, required: true, "a state's name"),
    Field("to", .name, required: true, "a state's name"),
    Field("animation", .definition(.animation), default: .string("spring")),
  ]

  // MARK: Schema

  /// The `$defs` this part of the table owns.
  static var paintDefinitions: [(String, JSONValue)] {
    let gradient = { (fields: [Field]) -> JSONValue in
      var schema = objectSchema(fields)
      schema.set("oneOf", after: nil, .array([required(["colors"]), required(["stops"])]))
      return schema
    }
    let simple = ShapeTypeName.allCases.filter(\.isSimple).map(\.rawValue)
    var shapes: [JSONValue] = [
      choiceSchema(simple),
      objectSchema([Field("type", .choice(simple), required: true)]),
    ]
    shapes += ShapeTypeName.allCases.filter { !$0.isSimple }.map {
      objectSchema([Field("type", .choice([$0.rawValue]), required: true)] + shapeFields($0))
    }
    return [
      (
        "color",
        .object([
          (
            "description",
            .string(
              "An sRGB colour: \"#RRGGBB\", \"#RRGGBBAA\", a name (the system and semantic ones adapt to the environment), components from 0 to 1, or a colour per appearance."
            )
          ),
          (
            "anyOf",
            .array([
              choiceSchema(Color.namedColors.map(\.name)),
              .object([("type", .string("string")), ("pattern", .string("^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"))]),
              objectSchema(colorFields),
              objectSchema(adaptiveColorFields),
            ])
          ),
        ])
      ),
      (
        "unitPoint",
        .object([
          ("description", .string("A point relative to the frame: (0, 0) top-leading, (1, 1) bottom-trailing.")),
          ("anyOf", .array([choiceSchema(unitPointNames), objectSchema(unitPointFields)])),
        ])
      ),
      (
        "gradientColors",
        .object([
          ("type", .string("array")), ("minItems", .number(Double(gradientColorCounts.lowerBound))),
          ("maxItems", .number(Double(gradientColorCounts.upperBound))), ("items", ref("color")),
          ("description", .string("Colours spread evenly from location 0 to 1.")),
        ])
      ),
      (
        "gradientStops",
        .object([
          ("type", .string("array")), ("minItems", .number(Double(gradientColorCounts.lowerBound))),
          ("maxItems", .number(Double(gradientColorCounts.upperBound))), ("items", objectSchema(gradientStopFields)),
        ])
      ),
      ("linearGradient", gradient(linearGradientFields)),
      ("radialGradient", gradient(radialGradientFields)),
      (
        "fill",
        .object([
          ("description", .string("A colour or a gradient spanning the frame.")),
          (
            "anyOf",
            .array(
              [ref("color")]
                + ["linearGradient", "radialGradient"].map {
                  objectSchema([
                    Field($0, .definition($0 == "linearGradient" ? .linearGradient : .radialGradient), required: true)
                  ])
                })
          ),
        ])
      ),
      (
        "shape",
        .object([("description", .string("A shape name, or an object with \"type\".")), ("anyOf", .array(shapes))])
      ),
      (
        "concentricCorner",
        .object([
          (
            "description",
            .string("A fixed radius in points, \"concentric\", or concentric with a minimum radius.")
          ),
          (
            "anyOf",
            .array([
              .object(radius.schema), .object([("const", .string("concentric"))]),
              objectSchema(concentricMinimumFields),
            ])
          ),
        ])
      ),
    ]
  }

  /// The scene's `environment`: the settings it is rendered in
  /// (`EnvironmentValues`), each left out at its default.
  static let environmentFields: [Field] = [
    Field(
      "colorScheme", .choice(ColorScheme.allCases.map(\.rawValue)), default: .string("light"),
      "the appearance: adaptive colours take its value, glass and materials their dark look"),
    Field(
      "accessibilityIncreaseContrast", .bool, default: .bool(false),
      "Increase Contrast: adaptive colours take their increased-contrast value; glass is mostly white (light) or black (dark) with a border that stands 3:1 from the backdrop"
    ),
    Field(
      "layoutDirection", .choice(LayoutDirection.allCases.map(\.rawValue)), default: .string("leftToRight"),
      "`rightToLeft` mirrors the view tree's layout and aligns text's leading edge to the right"),
    Field(
      "dynamicTypeSize", .choice(DynamicTypeSize.allCases.map(\.rawValue)), default: .string("large"),
      "the text size: every font with a text style takes Apple's size for it"),
    Field(
      "accessibilityReduceMotion", .bool, default: .bool(false),
      "Reduce Motion: transitions run without overshoot (a spring's bounce is taken out)"),
    Field(
      "accessibilityReduceTransparency", .bool, default: .bool(false),
      "Reduce Transparency: glass is frostier (at least 21 pt) and materials nearly opaque, so less of the backdrop's detail shows through"
    ),
    Field(
      "accessibilityShowBorders", .bool, default: .bool(false),
      "Show Borders: interactive glass, such as buttons, gets a border that stands 3:1 from the backdrop"),
    Field(
      "glassAppearance", .choice(GlassAppearance.allCases.map(\.rawValue)), default: .string("clear"),
      "iOS 26.1's Liquid Glass setting: `tinted` makes regular glass more opaque, with a stronger contour"),
    Field(
      "adaptiveGlass", .bool, default: .bool(true),
      "small glass (shorter side up to 88 pt) flips between its light and dark look with what is behind it, and its content's automatic colour with it; `false`: all glass takes the colour scheme's look, its content the scheme's label colour"
    ),
  ]

  /// The unit points' names, in reading order: the alignments'.
  static var unitPointNames: [String] { alignmentNames }

  /// The scene's own properties the table owns.
  static var sceneProperties: [(String, JSONValue)] {
    [
      ("size", objectSchema(sizeFields)),
      (
        "scale",
        .object([("type", .string("number")), ("enum", .array(scales.map { .number($0) })), ("default", .number(2))])
      ),
      (
        "background",
        .object([
          ("default", .string("systemBackground")),
          ("anyOf", .array([ref("fill"), objectSchema(backgroundImageFields)])),
        ])
      ),
      (
        "environment",
        described(
          objectSchema(environmentFields),
          "The appearance, accessibility settings, layout direction and text size the scene is rendered in.")
      ),
      (
        "transition",
        described(
          objectSchema(transitionFields),
          "The transition glass-gpu animate renders: from one state to another along a timing curve.")
      ),
    ]
  }

  // MARK: Markdown

  /// The documentation's table of named colours: each one's value, as
  /// `#RRGGBB` or `#RRGGBBAA`, light, dark, and with Increase Contrast.
  static var colorTable: String {
    func hex(_ c: Color) -> String {
      let bytes = [c.red, c.green, c.blue, c.opacity].map { Int(($0 * 255).rounded()) }
      let digits = bytes.prefix(bytes[3] == 255 ? 3 : 4).map { String(format: "%02X", $0) }.joined()
      return "`#\(digits)`"
    }
    var lines = [
      "| Name | Light | Dark | Increased contrast, light | Increased contrast, dark |", "|---|---|---|---|---|",
    ]
    for (name, color) in Color.namedColors {
      let values = [(ColorScheme.light, false), (.dark, false), (.light, true), (.dark, true)].map {
        hex(color.resolved(colorScheme: $0.0, increasedContrast: $0.1))
      }
      lines.append(
        "| `\(name)` | "
          + (color.isAdaptive ? values.joined(separator: " | ") : "\(values[0]) in every appearance | | |")
          + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The documentation's table of text styles: Apple's size at each Dynamic Type size.
  static var dynamicTypeTable: String {
    let sizes = DynamicTypeSize.allCases
    var lines = [
      "| Style | Weight | " + sizes.map { "`\($0.rawValue)`" }.joined(separator: " | ") + " |",
      "|---|---|" + String(repeating: "---|", count: sizes.count),
    ]
    for style in Font.TextStyle.allCases {
      lines.append(
        "| `\(style.rawValue)` | \(style.weight.rawValue) | "
          + sizes.map { ParameterSpec.format(style.size(at: $0)) }.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The documentation's table of shapes: type, fields and SwiftUI's shape.
  static var shapeTable: String {
    let swift: [ShapeTypeName: String] = [
      .rect: "`Rectangle`", .capsule: "`Capsule`: corners of half the shorter side",
      .circle: "`Circle`: the largest circle centred in the frame", .ellipse: "`Ellipse`: it fills the frame",
      .roundedRect: "`RoundedRectangle`", .unevenRoundedRect: "`UnevenRoundedRectangle`",
      .concentricRectangle: "`ConcentricRectangle`",
    ]
    var lines = ["| `type` | Fields | Shape |", "|---|---|---|"]
    for name in ShapeTypeName.allCases {
      lines.append("| `\(name.rawValue)` | \(describe(shapeFields(name))) | \(swift[name] ?? "") |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
