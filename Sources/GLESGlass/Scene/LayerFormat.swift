import Foundation

/// The layers' part of the scene format, in the same table as the view tree's
/// (`SceneFormat`): every layer type and every object a layer holds (frames,
/// content, fonts, glass, container shapes, the background extension, optical
/// parameters), its fields, the range of each number and a line saying what it is.
///
/// The reader (`SceneJSON.swift`) takes each object's keys, its required fields
/// and its names from here; the validator (`SceneValidation.swift`) takes every
/// range it checks from here, for scenes read and built in Swift alike; the JSON
/// Schema's layer definitions and the layer tables of docs/scene-format.md are
/// generated from it (`SceneFormatDocsTests` fails when they drift).
extension SceneFormat {
  /// The layer types, as the `type` field names them.
  enum LayerTypeName: String, CaseIterable, Sendable {
    case image, shape, material, glass, glassContainer, text, button

    /// The schema's `$defs` name (`imageLayer`).
    var definition: String { rawValue + "Layer" }
  }

  /// A layer type: what it is in SwiftUI, its fields, and the rules that span
  /// several of them.
  struct LayerType: Sendable {
    var name: LayerTypeName
    var swift: String
    var doc: String
    var fields: [Field]
    /// At least one of these fields must be written (empty: none need be).
    var needsOneOf: [String] = []
    /// What the error says when none of `needsOneOf` is written.
    var needsOneOfMessage = ""
    /// `$defs` of cross-field rules the schema applies to the layer.
    var rules: [String] = []

    /// Every key the object may have.
    var keys: [String] { ["type"] + fields.map(\.name) }
  }

  // MARK: Ranges

  /// Padding and a container's spacing.
  static let spacingPoints = Bounds(minimum: Scene.spacings.lowerBound, maximum: Scene.spacings.upperBound, unit: "pt")
  /// An opacity or a colour component.
  static let unitInterval = Bounds(minimum: 0, maximum: 1)
  /// An inset of the background extension at scale 1 (divide by the scale).
  static let extensionInset = Bounds(
    minimum: 0, maximum: BackgroundExtensionEffect.maximumInsetPixels, unit: "pt")
  /// The background extension's blur at scale 1 (divide by the scale).
  static let extensionSigma = Bounds(
    minimum: 0, maximum: BackgroundExtensionEffect.maximumSigmaPixels, unit: "pt")

  // MARK: Objects

  /// `{"x", "y", "width", "height"}`: a position anywhere within four canvases'
  /// sides of the origin (`signedPoints`), sides up to that length (`points`).
  static let frameFields: [Field] = [
    Field("x", .number(signedPoints), default: .number(0)),
    Field("y", .number(signedPoints), default: .number(0)),
    Field("width", .number(points), required: true),
    Field("height", .number(points), required: true),
  ]

  /// The padding kept around text on the sides sized to fit.
  static let fitPaddingFields: [Field] = [
    Field("horizontal", .number(spacingPoints), required: true),
    Field("vertical", .number(spacingPoints), required: true),
  ]

  /// A frame around text: its width and height may be left out.
  static let fittingFrameFields: [Field] =
    frameFields.map { field in
      var field = field
      if field.required {
        field.required = false
        field.doc = "left out: the text's size plus the padding"
      }
      return field
    } + [
      Field(
        "fitPadding", .object(fitPaddingFields),
        "the padding on the sides sized to fit, instead of the content's (a button's: 14, 7); only where one is left out"
      )
    ]

  /// `{"size", "weight", "family" | "file"}`, or a text style's name.
  static let fontFields: [Field] = [
    Field("size", .number(Bounds(minimum: 1, maximum: Font.maximumSize, unit: "pt")), default: .number(Font.body.size)),
    Field("weight", .choice(fontWeightNames)),
    Field("family", .name, "a family fontconfig knows (`fc-list : family`)"),
    Field("file", .definition(.fontFile), "a TrueType or OpenType file, relative to the scene file"),
    Field(
      "relativeTo", .choice(Font.TextStyle.allCases.map(\.rawValue)),
      "the text style whose [Dynamic Type](#environment) size it follows, in proportion; left out: a fixed size"),
  ]

  /// The text of a layer: a text layer's, a layer's text content.
  static let layerTextFields: [Field] = [
    Field(
      "text", .string(maxLength: textLength),
      "`text` or `systemImage` required; `\\n` starts a new paragraph; empty draws nothing and measures 0 × 0"),
    Field("systemImage", .definition(.systemImage), "drawn before the text at 1.2 times the font size"),
    Field("font", .definition(.font), default: .string("body"), "a text style's name, or an object (below)"),
    Field("fontWeight", .choice(fontWeightNames), "replaces the font's weight"),
    Field(
      "foregroundStyle", .definition(.fill),
      "gradients span the content's box; left out: [automatic](#the-automatic-colour), black over a light backdrop, white over a dark one"
    ),
    Field(
      "lineLimit", .integer(TextContent.lineLimits),
      "the most lines; the last one shown ends in … within the width when there are more"),
    Field(
      "multilineTextAlignment", .choice(textAlignmentNames), default: .string("leading"),
      "mirrored for right-to-left text"),
  ]

  /// An image drawn on a layer.
  static let imageContentFields: [Field] = [
    Field("image", .definition(.imagePath), required: true, "scaled to fit inside the frame less the padding, centred"),
    Field("padding", .number(spacingPoints), default: .number(0)),
    Field("opacity", .number(unitInterval), default: .number(1)),
  ]

  /// Text drawn on a layer.
  static let textContentFields: [Field] =
    layerTextFields + [
      Field(
        "padding", .number(spacingPoints), default: .number(TextContent.defaultPadding),
        "content only: space between the frame and the text (SwiftUI's `.padding()`)"),
      Field("opacity", .number(unitInterval), default: .number(1), "content only"),
    ]

  /// The glass object: a variant with a tint and interaction.
  static let glassFields: [Field] = [
    Field("variant", .choice(Glass.Variant.allCases.map(\.rawValue)), default: .string("regular")),
    Field("tint", .definition(.color), "its opacity scales the tint's intensity"),
    Field("interactive", .bool, default: .bool(false), "`.interactive()`"),
    Field("pressed", .bool, default: .bool(false), "the pressed state; only with `interactive`"),
    Field(
      "touchPoint",
      .object([
        Field("x", .number(Bounds(minimum: -100_000, maximum: 100_000, unit: "pt")), required: true),
        Field("y", .number(Bounds(minimum: -100_000, maximum: 100_000, unit: "pt")), required: true),
      ]), "from the frame's top-leading corner; default: its centre"),
  ]

  /// The rounded rectangle concentric rectangles resolve against.
  static let containerShapeFields: [Field] = [
    Field("frame", .definition(.frame), required: true),
    Field("cornerRadius", .number(radius), required: true),
  ]

  /// `backgroundExtensionEffect()`: insets and blur, in points at scale 1.
  static let backgroundExtensionFields: [Field] =
    ["leading", "trailing", "top", "bottom"].map { Field($0, .number(extensionInset), default: .number(0)) } + [
      Field("sigma", .number(extensionSigma), default: .number(BackgroundExtension.defaultSigma))
    ]

  /// A glass layer's fields (a glass of a container has the same, without `type`).
  static let glassLayerFields: [Field] = [
    Field("glass", .definition(.glass), default: .string("regular")),
    Field("shape", .definition(.shape), default: .string("capsule")),
    Field("frame", .definition(.fittingFrame), required: true),
    Field("content", .definition(.content)),
    Field("optics", .definition(.optics), "by name, each replacing the variant's default"),
    Field("containerShape", .definition(.containerShape), "for a concentric rectangle"),
    Field("glassEffectUnion", .name, "`glassEffectUnion(id:)`: a union id (in a container; alone, a union of one)"),
    Field("glassEffectID", .name, "`glassEffectID(_:in:)`: pairs this glass between states"),
    Field(
      "glassEffectTransition", .choice(GlassEffectTransition.allCases.map(\.rawValue)),
      default: .string("matchedGeometry"), "how glass without a partner in the other state comes and goes"),
  ]

  // MARK: Layer types

  /// Every layer type, in the order the documentation lists them.
  static let layerTypes: [LayerType] = LayerTypeName.allCases.map(layerType)

  /// A layer type from `layerTypes`, built once (the reader and the validator
  /// look one up for every layer they meet).
  static func spec(_ name: LayerTypeName) -> LayerType {
    guard let index = LayerTypeName.allCases.firstIndex(of: name) else { preconditionFailure("no layer type") }
    return layerTypes[index]
  }

  static func layerType(_ name: LayerTypeName) -> LayerType {
    let content = Field(
      "content", .definition(.content), "drawn on the layer; with text, `frame` may give a position alone")
    let containerShape = Field("containerShape", .definition(.containerShape), "for a concentric rectangle")
    switch name {
    case .image:
      return LayerType(
        name: name, swift: "Image", doc: "an image (PNG, JPEG or WebP) in a frame",
        fields: [
          Field("source", .definition(.imagePath), required: true),
          Field("frame", .definition(.frame), required: true, "snapped to whole pixels"),
          Field(
            "contentMode", .choice(ContentMode.allCases.map(\.rawValue)), default: .string("fill"),
            "`fill`: covers the frame, cropped centred; `fit`: inside it, centred; `stretch`: scaled on each axis to "
              + "the frame (a resizable image's drawing)"),
          Field("clipShape", .definition(.clipShape), default: .string("rect")),
          Field(
            "backgroundExtensionEffect", .definition(.backgroundExtensionEffect),
            "mirrored, blurred copies of the edges around the frame"),
        ])
    case .shape:
      return LayerType(
        name: name, swift: "Shape.fill(_:)", doc: "a shape filled",
        fields: [
          Field("shape", .definition(.shape), default: .string("rect")),
          Field("frame", .definition(.fittingFrame), required: true),
          Field("fill", .definition(.fill), required: true, "gradients span the frame"),
          containerShape, content,
        ], rules: ["hasContainerWhereNeeded", "sizedByContent"])
    case .material:
      return LayerType(
        name: name, swift: "background(_:in:) with a Material",
        doc: "a blurred, saturated, tinted copy of what lies behind, in a shape",
        fields: [
          Field("material", .choice(Material.allCases.map(\.rawValue)), required: true),
          Field("shape", .definition(.shape), default: .string("rect")),
          Field("frame", .definition(.fittingFrame), required: true),
          containerShape, content,
        ], rules: ["hasContainerWhereNeeded", "sizedByContent"])
    case .glass:
      return LayerType(
        name: name, swift: "glassEffect(_:in:)", doc: "a shape that bends, frosts and lights the backdrop",
        fields: glassLayerFields, rules: ["hasContainerWhereNeeded", "sizedByContent"])
    case .glassContainer:
      return LayerType(
        name: name, swift: "GlassEffectContainer(spacing:)", doc: "glass that samples the backdrop once and blends",
        fields: [
          Field("spacing", .number(spacingPoints), default: .number(0)),
          Field(
            "glass", .array(.definition(.containedGlass)), required: true,
            "each with the fields of a `glass` layer, without `type`"),
          Field(
            "containerShape", .definition(.containerShape),
            "for the concentric rectangles inside; an item's own takes precedence"),
        ])
    case .text:
      return LayerType(
        name: name, swift: "Text, Label", doc: "text, a label or an icon on its own",
        fields: [
          Field(
            "frame", .definition(.fittingFrame), required: true,
            "a `width` wraps the lines within it; what is left out is the text's size"),
          Field("opacity", .number(unitInterval), default: .number(1)),
        ] + layerTextFields, needsOneOf: ["text", "systemImage"],
        needsOneOfMessage: "give \"text\", \"systemImage\" or both")
    case .button:
      return LayerType(
        name: name, swift: "Button(_:).buttonStyle(.glass)",
        doc: "a capsule of interactive glass around its label; read as a `glass` layer",
        fields: [
          Field("title", .string(maxLength: textLength), "the label's text"),
          Field("systemImage", .definition(.systemImage), "an icon before the title"),
          Field("font", .definition(.font), default: .string("body")),
          Field("fontWeight", .choice(fontWeightNames), "replaces the font's weight"),
          Field("foregroundStyle", .definition(.fill), "left out: automatic, white on `glassProminent`"),
          Field(
            "buttonStyle", .choice(ButtonStyle.allCases.map(\.rawValue)), default: .string("glass"),
            "`glassProminent`: tinted with the accent colour (`blue`, or `tint`), a white label"),
          Field("tint", .definition(.color), "the glass's colour"),
          Field(
            "frame", .definition(.fittingFrame), required: true,
            "left out, `width` and `height` are the label's size plus 14 pt on each side across and 7 pt down"),
        ], needsOneOf: ["title", "systemImage"],
        needsOneOfMessage: "give the button a \"title\", a \"systemImage\" or both")
    }
  }

  /// A field's range (the table's bounds of a number field).
  static func bounds(_ fields: [Field], _ name: String) -> Bounds {
    guard let field = fields.first(where: { $0.name == name }) else {
      preconditionFailure("SceneFormat: no field \(name) here")
    }
    switch field.value {
    case .number(let bounds), .maximum(let bounds), .nullable(.number(let bounds)): return bounds
    default: preconditionFailure("SceneFormat: \(name) is not a number")
    }
  }

  /// The fields of an object field (`touchPoint`, `fitPadding`).
  static func objectFields(_ fields: [Field], _ name: String) -> [Field] {
    guard case .object(let inner)? = fields.first(where: { $0.name == name })?.value else {
      preconditionFailure("SceneFormat: \(name) is not an object")
    }
    return inner
  }

  /// A choice field's names.
  static func names(_ fields: [Field], _ name: String) -> [String] {
    guard case .choice(let names)? = fields.first(where: { $0.name == name })?.value else {
      preconditionFailure("SceneFormat: \(name) is not a choice")
    }
    return names
  }
}

extension SceneFormat.Bounds {
  /// These bounds with the maximum divided by `scale` (points from pixels).
  func dividingMaximum(by scale: Double) -> Self {
    var bounds = self
    bounds.maximum /= scale
    return bounds
  }
}

// MARK: - The JSON Schema and the documentation, from the table

extension SceneFormat {
  /// The `$defs` the layers' part of the table owns.
  static var layerDefinitions: [(String, JSONValue)] {
    var defs: [(String, JSONValue)] = [
      ("frame", described(objectSchema(frameFields), "A rectangle in points, x right, y down.")),
      (
        "fittingFrame",
        described(
          objectSchema(fittingFrameFields),
          "A frame around text content: a position in points, and a width and height that, left out, are the content's size plus its padding (a width given wraps the text within it, less the padding), measured where the scene is laid out (Renderer.prepare), not when it is read."
        )
      ),
      (
        "imageContent",
        described(
          objectSchema(imageContentFields),
          "An image drawn on a layer, fitted and centred in its frame less the padding.")
      ),
      ("textContent", textContentSchema),
      (
        "content",
        .object([
          ("description", .string("What a glass, material or shape layer draws on itself: an image, or text.")),
          ("oneOf", .array([ref("imageContent"), ref("textContent")])),
        ])
      ),
      ("font", fontSchema),
      (
        "glass",
        .object([
          ("description", .string("A variant name, or the variant with a tint and interaction.")),
          ("anyOf", .array([choiceSchema(names(glassFields, "variant")), objectSchema(glassFields)])),
        ])
      ),
      (
        "containerShape",
        described(objectSchema(containerShapeFields), "The rounded rectangle a concentricRectangle is concentric with.")
      ),
      (
        "backgroundExtensionEffect",
        described(
          objectSchema(backgroundExtensionFields),
          "Insets at most \(ParameterSpec.format(extensionInset.maximum)) px and sigma at most \(ParameterSpec.format(extensionSigma.maximum)) px: divide by the scale for points."
        )
      ),
      ("optics", opticsSchema),
      ("containedGlass", containedGlassSchema),
    ]
    defs += layerTypes.map { ($0.name.definition, schema($0)) }
    defs.append(("layer", layerSchema))
    return defs
  }

  static func described(_ schema: JSONValue, _ description: String) -> JSONValue {
    var schema = schema
    schema.set("description", after: "type", .string(description))
    return schema
  }

  static var textContentSchema: JSONValue {
    var schema = described(
      objectSchema(textContentFields),
      "Text, a label (text and systemImage) or an icon (systemImage) drawn on a layer, centred in its frame less the padding."
    )
    let needs = layerType(.text).needsOneOf
    schema.set("anyOf", after: "properties", .array(needs.map { required([$0]) }))
    return schema
  }

  static var fontSchema: JSONValue {
    var object = objectSchema(fontFields)
    object.set("not", after: "properties", required(["family", "file"]))
    return .object([
      (
        "description",
        .string(
          "SwiftUI's Font: a text style at Apple's size (\(Font.styles.map { "\($0.name) \(ParameterSpec.format($0.font.size))\($0.font.weight == .regular ? "" : " \($0.font.weight.rawValue)")" }.joined(separator: ", ")) pt), or a size with a weight and a family (fontconfig) or a file (relative to the scene file). The system font is Inter, Inter Display from 20 pt."
        )
      ),
      ("oneOf", .array([choiceSchema(Font.styles.map(\.name)), object])),
    ])
  }

  static var opticsSchema: JSONValue {
    .object([
      ("type", .string("object")), ("description", .string("Values that replace the variant's defaults.")),
      (
        "properties",
        .object(
          GlassOptics.parameterTable.map { spec in
            let defaults = GlassOptics.defaults(spec.name).map {
              "; regular \(ParameterSpec.format($0.regular)), clear \(ParameterSpec.format($0.clear))"
            }
            return (
              spec.name,
              .object([
                ("type", .string("number")), ("minimum", .number(spec.minimum)), ("maximum", .number(spec.maximum)),
                ("description", .string("\(spec.summary) (\(spec.unit)\(defaults ?? ""))")),
              ])
            )
          })
      ),
      ("additionalProperties", .bool(false)),
    ])
  }

  static var containedGlassSchema: JSONValue {
    var schema = described(objectSchema(glassLayerFields), "A glass shape inside a glassContainer (no \"type\").")
    schema.set("allOf", after: nil, .array([ref("sizedByContent")]))
    return schema
  }

  static func schema(_ type: LayerType) -> JSONValue {
    var schema = described(
      objectSchema([Field("type", .choice([type.name.rawValue]), required: true)] + type.fields),
      "\(type.swift): \(type.doc).")
    if !type.needsOneOf.isEmpty { schema.set("anyOf", after: nil, .array(type.needsOneOf.map { required([$0]) })) }
    if !type.rules.isEmpty { schema.set("allOf", after: nil, .array(type.rules.map(ref))) }
    if type.name == .glassContainer {
      // Without a container shape of its own, each glass needs one where its shape does.
      schema.set("if", after: nil, .object([("not", required(["containerShape"]))]))
      schema.set(
        "then", after: nil,
        .object([
          ("properties", .object([("glass", .object([("items", ref("hasContainerWhereNeeded"))]))]))
        ]))
    }
    return schema
  }

  static var layerSchema: JSONValue {
    .object([
      ("description", .string("A layer: its type and that type's fields (docs/scene-format.md, Layers).")),
      ("type", .string("object")), ("required", .array([.string("type")])),
      ("properties", .object([("type", choiceSchema(LayerTypeName.allCases.map(\.rawValue)))])),
      (
        "allOf",
        .array(
          LayerTypeName.allCases.map { name in
            .object([
              ("if", .object([("properties", .object([("type", .object([("const", .string(name.rawValue))]))]))])),
              ("then", ref(name.definition)),
            ])
          })
      ),
    ])
  }

  /// The scene's `allOf`: at scales 2 and 3, the background extension's limits
  /// in points are its limits in pixels divided by the scale.
  static var scaleRules: JSONValue {
    .array(
      [2.0, 3].map { scale in
        let limits = backgroundExtensionFields.map { field in
          (
            field.name,
            JSONValue.object([("maximum", .number(bounds(backgroundExtensionFields, field.name).maximum / scale))])
          )
        }
        let image = JSONValue.object([
          (
            "if",
            .object([
              ("required", .array([.string("type")])),
              ("properties", .object([("type", .object([("const", .string("image"))]))])),
            ])
          ),
          (
            "then",
            .object([
              ("properties", .object([("backgroundExtensionEffect", .object([("properties", .object(limits))]))]))
            ])
          ),
        ])
        return .object([
          (
            "if",
            .object([
              ("required", .array([.string("scale")])),
              ("properties", .object([("scale", .object([("const", .number(scale))]))])),
            ])
          ),
          ("then", .object([("properties", .object([("layers", .object([("items", image)]))]))])),
        ])
      })
  }

  // MARK: Markdown

  /// The documentation's table of an object's fields: name, default and value.
  static func markdownTable(_ fields: [Field]) -> String {
    var lines = ["| Field | Default | Value |", "|---|---|---|"]
    for field in fields {
      let defaultText: String
      if field.required {
        defaultText = "required"
      } else if let value = field.defaultValue {
        defaultText = "`\(value.compactText)`"
      } else {
        defaultText = "none"
      }
      let value = field.value.markdown + (field.doc.isEmpty ? "" : "; \(field.doc)")
      lines.append("| `\(field.name)` | \(defaultText) | \(value) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The generated tables of docs/scene-format.md, by the name their markers give.
  static var markdownBlocks: [(name: String, text: String)] {
    layerTypes.map { ("\($0.name.rawValue) layer", "\n" + markdownTable($0.fields)) } + [
      ("glass object", "\n" + markdownTable(glassFields)),
      ("frame", "\n" + markdownTable(frameFields)),
      ("text content", "\n" + markdownTable(textContentFields)),
      ("image content", "\n" + markdownTable(imageContentFields)),
      ("font", "\n" + markdownTable(fontFields)),
      ("environment", "\n" + markdownTable(environmentFields)),
      ("named colours", "\n" + colorTable),
      ("text styles", "\n" + dynamicTypeTable),
      ("backgroundExtensionEffect", "\n" + markdownTable(backgroundExtensionFields)),
      ("shapes", "\n" + shapeTable),
      ("linearGradient", "\n" + markdownTable(linearGradientFields)),
      ("radialGradient", "\n" + markdownTable(radialGradientFields)),
    ]
  }
}
