import Foundation

/// The scene format, described once, as libvips declares each operation's
/// arguments: every view type and modifier (here), every layer type and the
/// objects a layer holds (`LayerFormat.swift`), colours, gradients, shapes and the
/// scene's own fields (`PaintFormat.swift`): their fields, what each takes, its
/// default and a line saying what it is.
///
/// The readers (`ViewJSON.swift`, `SceneJSON.swift`) take the fields an object
/// may have, the required ones and the names from here; the validator
/// (`SceneValidation.swift`, for scenes read and built in Swift) takes every
/// range; the JSON Schema (docs/scene.schema.json: every `$defs` but the
/// cross-field rules and `animation`, and the scene's properties) and the tables
/// of docs/scene-format.md are generated from it (`updatedSchema(_:)`,
/// `markdownTables`, `markdownBlocks`). `SceneFormatDocsTests` fails when the
/// checked-in files differ from what this generates;
/// `GLASS_UPDATE_DOCS=1 swift test --filter SceneFormatDocs` rewrites them.
enum SceneFormat {
  /// The view types, as the `type` field names them.
  enum TypeName: String, CaseIterable, Sendable {
    case vstack, hstack, zstack, group, glassEffectContainer, spacer, text, label, image, color, rectangle,
      roundedRectangle, unevenRoundedRectangle, capsule, circle, ellipse, concentricRectangle, button, textField,
      secureField, layers
  }

  /// The modifiers, as the one key of a modifier object names them.
  enum ModifierName: String, CaseIterable, Sendable {
    case padding, frame, fixedSize, layoutPriority, offset, aspectRatio, scaledToFit, scaledToFill, overlay, background,
      ignoresSafeArea, glassEffect, glassEffectID, glassEffectUnion, glassEffectTransition, clipShape, containerShape,
      backgroundExtensionEffect, font, fontWeight, foregroundStyle, lineLimit, multilineTextAlignment, buttonStyle,
      tint,
      textFieldStyle
  }

  /// A value defined elsewhere in the format, read by the scene reader's own
  /// function for it and named in the schema's `$defs`.
  enum Definition: String, Sendable {
    case color, fill, shape, font, glass, optics, containerShape, backgroundExtensionEffect, layer, imagePath,
      systemImage, concentricCorners, modifier, frame, fittingFrame, content, containedGlass, clipShape, fontFamily,
      fontFile, unitPoint, gradientColors, gradientStops, linearGradient, radialGradient, animation

    /// How the documentation names it.
    var markdown: String {
      switch self {
      case .color: "a [colour](#colours)"
      case .fill: "a [fill](#fills)"
      case .shape: "a [shape](#shapes)"
      case .font: "a [font](#fonts)"
      case .glass: "a variant name or a [glass object](#glass)"
      case .optics: "[optical parameters](#optical-parameters)"
      case .containerShape: "`{\"frame\", \"cornerRadius\"}` ([concentric rectangles](#concentric-rectangles))"
      case .backgroundExtensionEffect:
        "`{\"leading\", \"trailing\", \"top\", \"bottom\", \"sigma\"}` (see [`image`](#image))"
      case .layer: "a [layer](#layers)"
      case .imagePath: "an image path (PNG, JPEG or WebP)"
      case .systemImage: "an [icon](#icons) name"
      case .concentricCorners: "corners, as a [`concentricRectangle`](#concentric-rectangles)'s"
      case .modifier: "a modifier"
      case .frame: "a [frame](#frames)"
      case .fittingFrame: "a [frame](#frames), or a position alone ([sized to fit](#sized-to-fit))"
      case .content: "an image or [text content](#text-content)"
      case .containedGlass: "a glass object"
      case .clipShape: "a [shape](#shapes) without concentric corners"
      case .fontFamily: "a family name"
      case .fontFile: "a path"
      case .unitPoint: "a [unit point](#unit-points)"
      case .gradientColors: "1 to \(Paint.maximumStops) [colours](#colours)"
      case .gradientStops: "1 to \(Paint.maximumStops) `{\"color\", \"location\"}` (both required, `location` 0 … 1)"
      case .linearGradient, .radialGradient: "a gradient"
      case .animation: "an [animation](#states-and-transitions)"
      }
    }
  }

  /// A number's range: finite, at least `minimum` (above it when
  /// `aboveMinimum`) and at most `maximum`.
  struct Bounds: Sendable {
    var minimum: Double
    var maximum: Double
    var aboveMinimum = false
    /// The unit the documentation and errors give (`pt`), or empty.
    var unit = ""

    func contains(_ value: Double) -> Bool {
      value.isFinite && (aboveMinimum ? value > minimum : value >= minimum) && value <= maximum
    }
  }

  /// What a value may be.
  indirect enum Value: Sendable {
    /// A number in bounds.
    case number(Bounds)
    /// A whole number in a range.
    case integer(ClosedRange<Int>)
    /// A length in points in bounds, or `"infinity"`.
    case maximum(Bounds)
    /// A string of at most that many Unicode scalars.
    case string(maxLength: Int)
    /// A name: 1 to 256 bytes.
    case name
    /// `true` or `false`.
    case bool
    /// `true` alone (a modifier without arguments).
    case isTrue
    /// One of these names.
    case choice([String])
    /// A value the rest of the format defines.
    case definition(Definition)
    /// A view.
    case view
    /// An edge name or an array of them.
    case edges
    /// An array of values.
    case array(Value)
    /// An object with these fields (no others).
    case object([Field])
    /// `null` or the value.
    case nullable(Value)
  }

  /// One field of an object.
  struct Field: Sendable {
    var name: String
    var value: Value
    var required = false
    /// What leaving it out means, as JSON (nil: nothing, or what `doc` says).
    var defaultValue: JSONValue?
    /// One line saying what it is (may be empty).
    var doc = ""
    /// Fields that must be written with it.
    var requires: [String] = []

    init(
      _ name: String, _ value: Value, required: Bool = false, default defaultValue: JSONValue? = nil,
      requires: [String] = [], _ doc: String = ""
    ) {
      self.name = name
      self.value = value
      self.required = required
      self.defaultValue = defaultValue
      self.requires = requires
      self.doc = doc
    }
  }

  /// A view type: its SwiftUI name, what it is, its fields and which of them
  /// exclude each other.
  struct ViewType: Sendable {
    var name: TypeName
    var swift: String
    var doc: String
    var fields: [Field]
    /// Groups of fields that exclude each other: fields of two groups may not
    /// be written together.
    var alternatives: [[String]] = []
    /// At least one of these fields must be written (empty: none need be).
    var needsOneOf: [String] = []
    /// What writing two of the groups is, in an error (`a view with two bodies`).
    var conflict = ""

    /// Every key the object may have.
    var keys: [String] { ["type"] + fields.map(\.name) + ["modifiers"] }

    func field(_ name: String) -> Field {
      guard let field = fields.first(where: { $0.name == name }) else {
        preconditionFailure("SceneFormat: \(self.name.rawValue) has no field \(name)")
      }
      return field
    }
  }

  /// A modifier: its SwiftUI name, what it does and the forms its value takes.
  struct Modifier: Sendable {
    var name: ModifierName
    var swift: String
    var doc: String
    /// The values it takes; objects among them are told apart by their keys,
    /// the first form that has every key written wins.
    var forms: [Value]
  }

  // MARK: The table

  static let points = Bounds(minimum: 0, maximum: Scene.maximumFrameSidePoints, unit: "pt")
  static let signedPoints = Bounds(
    minimum: -Scene.maximumFrameSidePoints, maximum: Scene.maximumFrameSidePoints, unit: "pt")
  static let radius = Bounds(minimum: Scene.radii.lowerBound, maximum: Scene.radii.upperBound, unit: "pt")
  static let textLength = TextContent.maximumLength
  static let edgeNames = ["all", "horizontal", "vertical", "top", "leading", "bottom", "trailing"]
  static let alignmentNames = [
    "topLeading", "top", "topTrailing", "leading", "center", "trailing", "bottomLeading", "bottom", "bottomTrailing",
  ]
  static let fontWeightNames = FontWeight.allCases.map(\.rawValue)
  static let textAlignmentNames = TextAlignment.allCases.map(\.rawValue)

  /// The fields every text-like view (`text`, `label`, `image` with
  /// `systemName`) may write; those written take precedence over the
  /// environment's (`TextFields`).
  static let textFields: [Field] = [
    Field("font", .definition(.font), "default: the environment's, `body`"),
    Field("fontWeight", .choice(fontWeightNames), "default: the environment's, else the font's"),
    Field("foregroundStyle", .nullable(.definition(.fill)), "default: the environment's; `null`: the automatic colour"),
    Field(
      "lineLimit", .nullable(.integer(TextContent.lineLimits)), "`null`: no limit; default: the environment's"
    ),
    Field("multilineTextAlignment", .choice(textAlignmentNames), "default: the environment's, `leading`"),
  ]

  /// A shape view's paint: one of these, or neither (the foreground style).
  static let shapeStyleFields: [Field] = [
    Field("fill", .definition(.fill), "default: the environment's foreground style, else black"),
    Field("material", .choice(Material.allCases.map(\.rawValue))),
  ]

  static let children = Field("children", .array(.view), required: true)
  static let spacing = Field("spacing", .number(points), "default: 8 pt between views, 0 beside a spacer")

  /// Every view type, in the order the documentation lists them.
  static let types: [ViewType] = TypeName.allCases.map(viewType)

  static func viewType(_ name: TypeName) -> ViewType {
    switch name {
    case .vstack:
      return ViewType(
        name: name, swift: "VStack(alignment:spacing:)", doc: "children top to bottom",
        fields: [
          Field("alignment", .choice(HorizontalAlignment.allCases.map(\.rawValue)), default: .string("center")),
          spacing,
          children,
        ])
    case .hstack:
      return ViewType(
        name: name, swift: "HStack(alignment:spacing:)", doc: "children leading to trailing",
        fields: [
          Field("alignment", .choice(VerticalAlignment.allCases.map(\.rawValue)), default: .string("center")), spacing,
          children,
        ])
    case .zstack:
      return ViewType(
        name: name, swift: "ZStack(alignment:)", doc: "children back to front, each aligned in the stack",
        fields: [Field("alignment", .choice(alignmentNames), default: .string("center")), children])
    case .group:
      return ViewType(
        name: name, swift: "Group", doc: "its children as if written in its parent, each with the group's modifiers",
        fields: [children])
    case .glassEffectContainer:
      return ViewType(
        name: name, swift: "GlassEffectContainer(spacing:)",
        doc: "lays its children out as a `zstack`; the glass inside blends within `spacing`",
        fields: [
          Field(
            "spacing", .number(spacingPoints),
            default: .number(0)),
          children,
        ])
    case .spacer:
      return ViewType(
        name: name, swift: "Spacer(minLength:)", doc: "takes the room left along its stack's axis",
        fields: [Field("minLength", .number(points), "default: 8 pt")])
    case .text:
      return ViewType(
        name: name, swift: "Text", doc: "one line at its ideal size; wraps to a proposed width",
        fields: [Field("text", .string(maxLength: textLength), required: true)] + textFields)
    case .label:
      return ViewType(
        name: name, swift: "Label(_:systemImage:)", doc: "an icon and a title",
        fields: [
          Field("title", .string(maxLength: textLength), required: true),
          Field("systemImage", .definition(.systemImage), required: true),
        ] + textFields)
    case .image:
      return ViewType(
        name: name, swift: "Image(_:) / Image(systemName:)",
        doc: "an image (PNG, JPEG or WebP) at its pixels ÷ `scale` points (unless `resizable`), "
          + "or a symbol sized by its font",
        fields: [
          Field("image", .definition(.imagePath)),
          Field(
            "scale", .number(Bounds(minimum: 0, maximum: 100, aboveMinimum: true)), default: .number(1),
            requires: ["image"], "pixels per point"),
          Field(
            "resizable", .bool, default: .bool(false), requires: ["image"], "`resizable()`: takes the size offered"),
          Field("systemName", .definition(.systemImage)),
        ] + textFields,
        alternatives: [["image", "scale", "resizable"], ["systemName"] + textFields.map(\.name)],
        needsOneOf: ["image", "systemName"], conflict: "an image is a file or a symbol")
    case .color:
      return ViewType(
        name: name, swift: "Color", doc: "fills the space offered",
        fields: [Field("color", .definition(.color), required: true)])
    case .rectangle, .capsule, .circle, .ellipse:
      let swift = ["rectangle": "Rectangle()", "capsule": "Capsule()", "circle": "Circle()", "ellipse": "Ellipse()"]
      return ViewType(
        name: name, swift: swift[name.rawValue] ?? "", doc: "fills the space offered", fields: shapeStyleFields,
        alternatives: [["fill"], ["material"]], conflict: "a shape has one paint")
    case .roundedRectangle:
      return ViewType(
        name: name, swift: "RoundedRectangle(cornerRadius:style:)", doc: "fills the space offered",
        fields: [
          Field("cornerRadius", .number(radius), required: true),
          Field("style", .choice(RoundedCornerStyle.allCases.map(\.rawValue)), default: .string("circular")),
        ] + shapeStyleFields, alternatives: [["fill"], ["material"]], conflict: "a shape has one paint")
    case .unevenRoundedRectangle:
      return ViewType(
        name: name, swift: "UnevenRoundedRectangle(cornerRadii:style:)", doc: "fills the space offered",
        fields: ["topLeading", "topTrailing", "bottomTrailing", "bottomLeading"].map {
          Field($0, .number(radius), default: .number(0))
        } + [Field("style", .choice(RoundedCornerStyle.allCases.map(\.rawValue)), default: .string("circular"))]
          + shapeStyleFields, alternatives: [["fill"], ["material"]], conflict: "a shape has one paint")
    case .concentricRectangle:
      return ViewType(
        name: name, swift: "ConcentricRectangle(corners:isUniform:)",
        doc: "fills the space offered, concentric with the `containerShape` around it",
        fields: [
          Field("corners", .definition(.concentricCorners), default: .string("concentric")),
          Field("isUniform", .bool, default: .bool(false)),
        ] + shapeStyleFields, alternatives: [["fill"], ["material"]], conflict: "a shape has one paint")
    case .button:
      return ViewType(
        name: name, swift: "Button", doc: "its label, in a glass capsule under `buttonStyle`",
        fields: [
          Field("title", .string(maxLength: textLength), "a `text` label, a `label` with `systemImage`"),
          Field("systemImage", .definition(.systemImage)),
          Field("label", .view, "the label, any view"),
        ], alternatives: [["title", "systemImage"], ["label"]], needsOneOf: ["title", "systemImage", "label"],
        conflict: "a view with two bodies: a button has a title or a label view")
    case .textField, .secureField:
      return ViewType(
        name: name, swift: name == .textField ? "TextField" : "SecureField",
        doc: "the placeholder while the value is empty\(name == .secureField ? ", else dots" : ""); as wide as offered",
        fields: [
          Field("placeholder", .string(maxLength: textLength), required: true),
          Field("text", .string(maxLength: textLength), default: .string("")),
        ])
    case .layers:
      return ViewType(
        name: name, swift: "", doc: "layers at absolute canvas points, taking no room in layout",
        fields: [Field("layers", .array(.definition(.layer)), required: true)])
    }
  }

  /// Every modifier, in the order the documentation lists them.
  static let modifiers: [Modifier] = ModifierName.allCases.map(modifier)

  static func modifier(_ name: ModifierName) -> Modifier {
    let alignment = Field("alignment", .choice(alignmentNames), default: .string("center"))
    let flexible = Bounds(minimum: 0, maximum: Scene.maximumFrameSidePoints, unit: "pt")
    switch name {
    case .padding:
      return Modifier(
        name: name, swift: "padding(_:_:)", doc: "room around the view",
        forms: [
          .number(signedPoints),
          .object([
            Field("edges", .edges, default: .string("all")),
            Field("length", .number(signedPoints), default: .number(TextContent.defaultPadding)),
          ]),
          .object(
            ["top", "leading", "bottom", "trailing"].map { Field($0, .number(signedPoints), default: .number(0)) }),
        ])
    case .frame:
      return Modifier(
        name: name, swift: "frame(width:height:alignment:), frame(minWidth:…:alignment:), frame(x:y:width:height:)",
        doc: "a fixed frame, a flexible one, or absolute canvas points (no mixing)",
        forms: [
          .object([Field("width", .number(points)), Field("height", .number(points)), alignment]),
          .object(
            ["minWidth", "idealWidth"].map { Field($0, .nullable(.number(flexible))) }
              + [Field("maxWidth", .nullable(.maximum(flexible)))]
              + ["minHeight", "idealHeight"].map { Field($0, .nullable(.number(flexible))) }
              + [Field("maxHeight", .nullable(.maximum(flexible))), alignment]),
          .object([
            Field("x", .number(signedPoints), required: true), Field("y", .number(signedPoints), required: true),
            Field("width", .number(points), "default: its ideal width"),
            Field("height", .number(points), "default: its ideal height"),
          ]),
        ])
    case .fixedSize:
      return Modifier(
        name: name, swift: "fixedSize(horizontal:vertical:)", doc: "its ideal size along those axes",
        forms: [
          .bool,
          .object([Field("horizontal", .bool, default: .bool(false)), Field("vertical", .bool, default: .bool(false))]),
        ])
    case .layoutPriority:
      return Modifier(
        name: name, swift: "layoutPriority(_:)", doc: "higher is offered room first in a stack",
        forms: [.number(Bounds(minimum: -1_000_000, maximum: 1_000_000))])
    case .offset:
      return Modifier(
        name: name, swift: "offset(x:y:)", doc: "drawn moved; layout keeps its place",
        forms: [
          .object([
            Field("x", .number(signedPoints), default: .number(0)),
            Field("y", .number(signedPoints), default: .number(0)),
          ])
        ])
    case .aspectRatio:
      return Modifier(
        name: name, swift: "aspectRatio(_:contentMode:)", doc: "width ÷ height (default: the view's ideal one)",
        forms: [
          .object([
            Field("ratio", .number(Bounds(minimum: 0, maximum: 100_000, aboveMinimum: true))),
            Field("contentMode", .choice([ContentMode.fill, .fit].map(\.rawValue)), default: .string("fit")),
          ])
        ])
    case .scaledToFit:
      return Modifier(name: name, swift: "scaledToFit()", doc: "`aspectRatio` with `fit`", forms: [.isTrue])
    case .scaledToFill:
      return Modifier(name: name, swift: "scaledToFill()", doc: "`aspectRatio` with `fill`", forms: [.isTrue])
    case .overlay:
      return Modifier(
        name: name, swift: "overlay(alignment:content:)", doc: "a view in front, proposed the view's size",
        forms: [.object([Field("content", .view, required: true), alignment])])
    case .background:
      return Modifier(
        name: name, swift: "background(alignment:content:), background(_:in:)",
        doc: "a view behind, proposed the view's size; or a fill or material in a shape",
        forms: [
          .object([Field("content", .view, required: true), alignment]),
          .object([
            Field("fill", .definition(.fill), required: true),
            Field("in", .definition(.shape), default: .string("rect")),
          ]),
          .object([
            Field("material", .choice(Material.allCases.map(\.rawValue)), required: true),
            Field("in", .definition(.shape), default: .string("rect")),
          ]),
        ])
    case .ignoresSafeArea:
      return Modifier(
        name: name, swift: "ignoresSafeArea(edges:)", doc: "laid out into the safe area's insets on those edges",
        forms: [.bool, .object([Field("edges", .edges, default: .string("all"))])])
    case .glassEffect:
      return Modifier(
        name: name, swift: "glassEffect(_:in:)", doc: "the view's frame becomes glass (`true`: regular, capsule)",
        forms: [
          .isTrue,
          .object([
            Field("glass", .definition(.glass), default: .string("regular")),
            Field("in", .definition(.shape), default: .string("capsule")), Field("optics", .definition(.optics)),
          ]),
        ])
    case .glassEffectID:
      return Modifier(
        name: name, swift: "glassEffectID(_:in:)", doc: "pairs glass between states (`in`.`id`)",
        forms: [.name, .object([Field("id", .name, required: true), Field("in", .name, required: true)])])
    case .glassEffectUnion:
      return Modifier(name: name, swift: "glassEffectUnion(id:)", doc: "glass of one id renders as one", forms: [.name])
    case .glassEffectTransition:
      return Modifier(
        name: name, swift: "glassEffectTransition(_:)", doc: "how the glass comes and goes between states",
        forms: [.choice(GlassEffectTransition.allCases.map(\.rawValue))])
    case .clipShape:
      return Modifier(name: name, swift: "clipShape(_:)", doc: "an image clipped", forms: [.definition(.shape)])
    case .containerShape:
      return Modifier(
        name: name, swift: "containerShape(_:)", doc: "what concentric rectangles inside resolve against",
        forms: [.definition(.containerShape)])
    case .backgroundExtensionEffect:
      return Modifier(
        name: name, swift: "backgroundExtensionEffect()", doc: "an image mirrored and blurred into the room around it",
        forms: [.isTrue, .definition(.backgroundExtensionEffect)])
    case .font:
      return Modifier(name: name, swift: "font(_:)", doc: "the font of text inside", forms: [.definition(.font)])
    case .fontWeight:
      return Modifier(
        name: name, swift: "fontWeight(_:)", doc: "the weight of text inside", forms: [.choice(fontWeightNames)])
    case .foregroundStyle:
      return Modifier(
        name: name, swift: "foregroundStyle(_:)", doc: "the paint of text and unpainted shapes inside",
        forms: [.definition(.fill)])
    case .lineLimit:
      return Modifier(
        name: name, swift: "lineLimit(_:)", doc: "the most lines of text inside (`null`: none)",
        forms: [.nullable(.integer(TextContent.lineLimits))])
    case .multilineTextAlignment:
      return Modifier(
        name: name, swift: "multilineTextAlignment(_:)", doc: "how lines of text inside align",
        forms: [.choice(textAlignmentNames)])
    case .buttonStyle:
      return Modifier(
        name: name, swift: "buttonStyle(_:)", doc: "buttons inside become glass capsules",
        forms: [.choice(ButtonStyle.allCases.map(\.rawValue))])
    case .tint:
      return Modifier(
        name: name, swift: "tint(_:)", doc: "the accent colour of buttons inside", forms: [.definition(.color)])
    case .textFieldStyle:
      return Modifier(
        name: name, swift: "textFieldStyle(_:)", doc: "text fields inside",
        forms: [.choice(TextFieldStyle.allCases.map(\.rawValue))])
    }
  }

  /// The scene's safe area: `{"top", "leading", "bottom", "trailing"}`.
  static let safeAreaFields: [Field] = ["top", "leading", "bottom", "trailing"].map {
    Field($0, .number(Bounds(minimum: 0, maximum: Scene.maximumSidePoints, unit: "pt")), default: .number(0))
  }
}

// MARK: - The JSON Schema and the documentation, from the table

extension SceneFormat {
  /// `schema` (docs/scene.schema.json, parsed) with the parts this table
  /// describes replaced: `$defs.view`, `$defs.modifier`, `$defs.edges`,
  /// `$defs.systemImage`, and the scene's `body`, `safeAreaInsets` and `states`.
  static func updatedSchema(_ schema: JSONValue) -> JSONValue {
    var root = schema
    var properties = root.member("properties") ?? .object([])
    for (name, value) in sceneProperties { properties.set(name, after: nil, value) }
    properties.set("body", after: "layers", bodySchema)
    properties.set("safeAreaInsets", after: "body", safeAreaSchema)
    properties.set("states", after: "safeAreaInsets", statesSchema)
    root.set("properties", after: nil, properties)
    var defs = root.member("$defs") ?? .object([])
    for (name, value) in definitions + layerDefinitions + paintDefinitions { defs.set(name, after: nil, value) }
    root.set("$defs", after: nil, defs)
    root.set("allOf", after: nil, scaleRules)
    return root
  }

  /// The scene's `body`.
  static var bodySchema: JSONValue {
    .object([
      ("description", .string("A view tree laid out on the canvas (docs/layout.md) and drawn after layers.")),
      ("$ref", .string("#/$defs/view")),
    ])
  }

  /// The scene's `safeAreaInsets`.
  static var safeAreaSchema: JSONValue {
    var schema = objectSchema(safeAreaFields)
    schema.set(
      "description", after: nil,
      .string(
        "Insets of the canvas (a status bar, a home indicator) the body is laid out within, each at most the canvas's side."
      ))
    return schema
  }

  /// The scene's `states`.
  static var statesSchema: JSONValue {
    .object([
      ("type", .string("object")), ("minProperties", .number(1)),
      (
        "description",
        .string(
          "Named states, each the scene's layers and view tree in that state; without top-level layers or body the scene renders its first state."
        )
      ),
      (
        "additionalProperties",
        .object([
          ("type", .string("object")),
          (
            "properties",
            .object([
              ("layers", .object([("type", .string("array")), ("items", ref("layer"))])), ("body", ref("view")),
            ])
          ),
          ("anyOf", .array([required(["layers"]), required(["body"])])),
          ("additionalProperties", .bool(false)),
        ])
      ),
    ])
  }

  /// The `$defs` the table owns.
  static var definitions: [(String, JSONValue)] {
    [
      ("view", viewSchema), ("modifier", modifierSchema),
      (
        "edges",
        .object([
          ("description", .string("An edge or a set of edges: a name, or an array of names.")),
          (
            "anyOf",
            .array([
              choiceSchema(edgeNames), .object([("type", .string("array")), ("items", choiceSchema(edgeNames))]),
            ])
          ),
        ])
      ),
      (
        "systemImage",
        .object([
          ("description", .string("An SF Symbols name glass-gpu draws (docs/scene-format.md, Icons).")),
          ("type", .string("string")), ("enum", .array(SystemImage.systemNames.map { .string($0.systemName) })),
        ])
      ),
    ]
  }

  static var viewSchema: JSONValue {
    let names = TypeName.allCases.map { JSONValue.string($0.rawValue) }
    return .object([
      (
        "description",
        .string(
          "A view: its type, that type's fields and its modifiers, innermost first (docs/scene-format.md, Views)."
        )
      ),
      ("type", .string("object")), ("required", .array([.string("type")])),
      ("properties", .object([("type", .object([("type", .string("string")), ("enum", .array(names))]))])),
      (
        "allOf",
        .array(
          types.map { type in
            .object([
              ("if", .object([("properties", .object([("type", .object([("const", .string(type.name.rawValue))]))]))])),
              ("then", schema(type)),
            ])
          })
      ),
    ])
  }

  static func schema(_ type: ViewType) -> JSONValue {
    var schema = objectSchema(
      [Field("type", .choice([type.name.rawValue]), required: true)] + type.fields
        + [Field("modifiers", .array(.definition(.modifier)), "innermost first")])
    schema.set("description", after: nil, .string("\(type.swift): \(type.doc)"))
    if !type.needsOneOf.isEmpty { schema.set("anyOf", after: nil, .array(type.needsOneOf.map { required([$0]) })) }
    if !type.alternatives.isEmpty {
      // A field of a later group forbids the fields of the earlier ones.
      var dependent: [(key: String, value: JSONValue)] = []
      for (index, group) in type.alternatives.enumerated() where index > 0 {
        let earlier = type.alternatives[..<index].flatMap { $0 }
        for key in group {
          dependent.append(
            (key, .object([("properties", .object(earlier.map { ($0, JSONValue.bool(false)) }))])))
        }
      }
      schema.set("dependentSchemas", after: nil, .object(dependent))
    }
    return schema
  }

  static var modifierSchema: JSONValue {
    .object([
      (
        "description",
        .string("A modifier: an object with one key, the modifier's name (docs/scene-format.md, Views).")
      ),
      ("type", .string("object")), ("minProperties", .number(1)), ("maxProperties", .number(1)),
      (
        "properties",
        .object(
          modifiers.map { modifier in
            var schema =
              modifier.forms.count == 1
              ? modifier.forms[0].schema : .object([("anyOf", .array(modifier.forms.map(\.schema)))])
            schema.set("description", after: nil, .string("\(modifier.swift): \(modifier.doc)"))
            return (modifier.name.rawValue, schema)
          })
      ),
      ("additionalProperties", .bool(false)),
    ])
  }

  static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/\(name)"))]) }

  static func required(_ names: [String]) -> JSONValue { .object([("required", .array(names.map { .string($0) }))]) }

  static func choiceSchema(_ names: [String]) -> JSONValue {
    .object([("type", .string("string")), ("enum", .array(names.map { .string($0) }))])
  }

  static func objectSchema(_ fields: [Field]) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("type", .string("object")), ("properties", .object(fields.map { ($0.name, $0.schema) })),
    ]
    let required = fields.filter(\.required).map(\.name)
    if !required.isEmpty { members.append(("required", .array(required.map { .string($0) }))) }
    let dependent = fields.filter { !$0.requires.isEmpty }
    if !dependent.isEmpty {
      members.append(
        ("dependentRequired", .object(dependent.map { ($0.name, .array($0.requires.map { .string($0) })) })))
    }
    members.append(("additionalProperties", .bool(false)))
    return .object(members)
  }

  // MARK: Markdown

  /// The documentation's tables of view types and modifiers (docs/scene-format.md),
  /// the fields several views share listed once below them.
  static var markdownTables: String {
    let textNames = textFields.map(\.name)
    let paintNames = shapeStyleFields.map(\.name)
    var lines = ["| `type` | SwiftUI | fields |", "|---|---|---|"]
    for type in types {
      let own = type.fields.filter { !textNames.contains($0.name) && !paintNames.contains($0.name) }
      var parts = own.isEmpty ? [] : [describe(own)]
      if type.fields.contains(where: { $0.name == textNames[0] }) { parts.append("the text fields") }
      if type.fields.contains(where: { $0.name == paintNames[0] }) { parts.append("the paint") }
      let exclusive = type.alternatives.filter { !paintNames.contains($0[0]) }
      if exclusive.count > 1 { parts.append("\(exclusive.map { "`\($0[0])`" }.joined(separator: " or ")), not both") }
      let swift = type.swift.isEmpty ? "" : "`\(type.swift)`: "
      lines.append("| `\(type.name.rawValue)` | \(swift)\(type.doc) | \(parts.joined(separator: "; ")) |")
    }
    lines += [
      "",
      "**Text fields** (of `text`, `label`, `image` with `systemName`; each written overrides the environment's): "
        + describe(textFields) + ".",
      "",
      "**Paint** (of the shapes): " + describe(shapeStyleFields) + "; not both.",
      "",
      "**Alignments**: \(alignmentNames.map { "`\($0)`" }.joined(separator: ", ")). **Edges**: "
        + "\(edgeNames.map { "`\($0)`" }.joined(separator: ", ")), or an array of them.",
      "",
      "| modifier | SwiftUI | value |", "|---|---|---|",
    ]
    for modifier in modifiers {
      let value = modifier.forms.map(\.markdown).joined(separator: "; or ")
      lines.append("| `\(modifier.name.rawValue)` | `\(modifier.swift)`: \(modifier.doc) | \(value) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Fields as the documentation lists them: neighbours alike share one entry
  /// (`top`, `leading`: 0 … 16384 pt (default `0`)).
  static func describe(_ fields: [Field]) -> String {
    var entries: [(names: [String], text: String)] = []
    for field in fields {
      var notes: [String] = []
      if field.required { notes.append("required") }
      if case .string(let text)? = field.defaultValue, !text.isEmpty {
        notes.append("default `\(text)`")
      } else if let value = field.defaultValue {
        notes.append("default `\(value.compactText)`")
      }
      if !field.doc.isEmpty { notes.append(field.doc) }
      let text = field.value.markdown + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
      if let last = entries.last, last.text == text {
        entries[entries.count - 1].names.append(field.name)
      } else {
        entries.append(([field.name], text))
      }
    }
    return entries.map { "\($0.names.map { "`\($0)`" }.joined(separator: ", ")): \($0.text)" }.joined(
      separator: "; ")
  }
}

extension SceneFormat.Bounds {
  /// The bounds as the documentation writes them (`0 … 65536 pt`, `> 0 … 100`).
  var markdown: String {
    (aboveMinimum ? "> \(ParameterSpec.format(minimum))" : ParameterSpec.format(minimum)) + " … "
      + ParameterSpec.format(maximum) + (unit.isEmpty ? "" : " \(unit)")
  }

  /// The bounds as a JSON Schema number.
  var schema: [(key: String, value: JSONValue)] {
    [
      ("type", .string("number")), (aboveMinimum ? "exclusiveMinimum" : "minimum", .number(minimum)),
      ("maximum", .number(maximum)),
    ]
      + (unit.isEmpty ? [] : [("description", .string(unit))])
  }
}

extension SceneFormat.Definition {
  /// The value's schema: its `$defs` entry (a concentric rectangle's corners
  /// are written out, as the shape's schema has them inline).
  var schema: JSONValue {
    switch self {
    case .concentricCorners:
      let corner = SceneFormat.ref("concentricCorner")
      return .object([
        (
          "anyOf",
          .array([
            corner,
            .object([
              ("type", .string("object")),
              (
                "properties",
                .object(["topLeading", "topTrailing", "bottomTrailing", "bottomLeading"].map { ($0, corner) })
              ),
              ("additionalProperties", .bool(false)), ("minProperties", .number(1)),
            ]),
          ])
        )
      ])
    case .clipShape:
      return .object([
        ("allOf", .array([SceneFormat.ref("shape"), .object([("not", SceneFormat.ref("shapeNeedingContainer"))])]))
      ])
    case .fontFamily, .fontFile:
      return .object([("type", .string("string")), ("minLength", .number(1))])
    case .color, .fill, .shape, .font, .glass, .optics, .containerShape, .backgroundExtensionEffect, .layer, .imagePath,
      .systemImage, .modifier, .frame, .fittingFrame, .content, .containedGlass, .unitPoint, .gradientColors,
      .gradientStops, .linearGradient, .radialGradient, .animation:
      return SceneFormat.ref(rawValue)
    }
  }
}

extension SceneFormat.Value {
  /// The value's JSON Schema.
  var schema: JSONValue {
    switch self {
    case .number(let bounds): return .object(bounds.schema)
    case .integer(let range):
      return .object([
        ("type", .string("integer")), ("minimum", .number(Double(range.lowerBound))),
        ("maximum", .number(Double(range.upperBound))),
      ])
    case .maximum(let bounds):
      return .object([("anyOf", .array([.object(bounds.schema), .object([("const", .string("infinity"))])]))])
    case .string(let maxLength):
      return .object([("type", .string("string")), ("maxLength", .number(Double(maxLength)))])
    case .name:
      return .object([("type", .string("string")), ("minLength", .number(1)), ("maxLength", .number(256))])
    case .bool: return .object([("type", .string("boolean"))])
    case .isTrue: return .object([("const", .bool(true))])
    case .choice(let names): return SceneFormat.choiceSchema(names)
    case .definition(let definition): return definition.schema
    case .view: return SceneFormat.ref("view")
    case .edges: return SceneFormat.ref("edges")
    case .array(let items): return .object([("type", .string("array")), ("items", items.schema)])
    case .object(let fields): return SceneFormat.objectSchema(fields)
    case .nullable(let inner):
      return .object([("anyOf", .array([.object([("type", .string("null"))]), inner.schema]))])
    }
  }

  /// The value as the documentation writes it.
  var markdown: String {
    switch self {
    case .number(let bounds): return bounds.markdown
    case .integer(let range): return "a whole number \(range.lowerBound) … \(range.upperBound)"
    case .maximum(let bounds): return "\(bounds.markdown) or `\"infinity\"`"
    case .string(let maxLength): return "a string (at most \(maxLength) characters)"
    case .name: return "a name (1 to 256 bytes)"
    case .bool: return "`true` or `false`"
    case .isTrue: return "`true`"
    case .choice(let names):
      return names == SceneFormat.alignmentNames ? "an alignment" : names.map { "`\($0)`" }.joined(separator: ", ")
    case .definition(let definition): return definition.markdown
    case .view: return "a view"
    case .edges: return "edges"
    case .array(.view): return "views"
    case .array(.definition(.layer)): return "[layers](#layers)"
    case .array(.definition(.containedGlass)): return "an array of objects"
    case .array(let items): return "an array of \(items.markdown)"
    case .object(let fields): return "{\(SceneFormat.describe(fields))}"
    case .nullable(let inner): return "\(inner.markdown), or `null`"
    }
  }
}

extension SceneFormat.Field {
  /// The field's schema: its value's, with its default and what it is.
  var schema: JSONValue {
    var schema = value.schema
    if let defaultValue { schema.set("default", after: nil, defaultValue) }
    if !doc.isEmpty {
      let unit: String
      if case .string(let text)? = schema.member("description") { unit = " (\(text))" } else { unit = "" }
      schema.set("description", after: nil, .string(doc + unit))
    }
    return schema
  }
}

extension JSONValue {
  /// An object's member (nil: none, or not an object).
  func member(_ key: String) -> JSONValue? {
    if case .object(let members) = self { return members.first { $0.key == key }?.value }
    return nil
  }

  /// Sets an object's member: in its place when there is one, else after the
  /// member `after` (at the end when nil or absent).
  mutating func set(_ key: String, after: String?, _ value: JSONValue) {
    guard case .object(var members) = self else { return }
    if let index = members.firstIndex(where: { $0.key == key }) {
      members[index].value = value
    } else if let after, let index = members.firstIndex(where: { $0.key == after }) {
      members.insert((key, value), at: index + 1)
    } else {
      members.append((key, value))
    }
    self = .object(members)
  }

  /// The JSON text as Python's `json.dumps(value, indent=2, ensure_ascii=False)`
  /// writes it, the form of docs/scene.schema.json: every array and object
  /// opened onto lines, two spaces a level.
  func indentedText(_ indent: String = "") -> String {
    let inner = indent + "  "
    switch self {
    case .null, .bool, .number, .string: return formatted()
    case .array(let items):
      if items.isEmpty { return "[]" }
      return "[\n" + items.map { inner + $0.indentedText(inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      return "{\n"
        + members.map { inner + Self.quote($0.key) + ": " + $0.value.indentedText(inner) }.joined(separator: ",\n")
        + "\n\(indent)}"
    }
  }
}
