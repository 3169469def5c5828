import Foundation

// The view tree in the scene file (docs/scene-format.md, "Views"): reading VIEW
// and MODIFIER objects into `ViewNode`s, every error one line naming its JSON
// path and the fix, and writing them back. Which fields an object may have and
// each number's range come from `SceneFormat`.

// MARK: - Reading

/// What reading a view needs besides the JSON: the scene's scale (for the limits
/// of a background extension). Values are checked as they are read, each at its
/// JSON path, as `Scene.validate` checks a layer's.
struct ViewReader {
  /// The scene's pixels per point.
  let scale: Int
  /// Checks values as `Scene.validate` checks a layer's.
  let v = SceneValidator()

  /// A view (`VIEW`) written at `node`, `depth` containers and overlays deep
  /// and `level` levels of layout below the root (`ViewNode.maximumLayoutDepth`),
  /// inside a container shape when `inContainer`.
  func view(_ node: JSONNode, depth: Int = 0, level: Int = 0, inContainer: Bool = false) throws -> ViewNode {
    guard depth < ViewNode.maximumDepth else {
      throw node.fail("the view tree is deeper than \(ViewNode.maximumDepth) views here; flatten it")
    }
    let names = SceneFormat.TypeName.allCases.map(\.rawValue)
    guard case .object(let members) = node.value else {
      throw node.fail("expected a view, an object such as {\"type\": \"vstack\", ...}, found \(node.value.kind)")
    }
    guard let typeValue = members.first(where: { $0.key == "type" })?.value else {
      throw node.fail("missing the field \"type\" (\(names.joined(separator: ", ")))")
    }
    let typeNode = JSONNode(value: typeValue, path: node.child("type"))
    let typeName = try typeNode.string()
    guard let type = SceneFormat.TypeName(rawValue: typeName) else {
      throw typeNode.fail(
        "unknown view type \"\(JSONNode.shortened(typeName))\"; use one of \(names.joined(separator: ", "))")
    }
    let spec = SceneFormat.viewType(type)
    let f = try FieldReader(node.object(spec.keys), spec.fields, type: spec)
    // The modifiers' environment reaches the content: a containerShape among
    // them is a container for it.
    let modifierNodes = try f["modifiers"]?.array() ?? []
    // Every modifier is a level of layout above the content; what the view
    // contains (children, a label) lies below the content, and a modifier's view
    // (an overlay's) below that modifier.
    let below = level + modifierNodes.count + (type == .textField || type == .secureField ? 3 : 1)
    guard below <= ViewNode.maximumLayoutDepth else { throw node.fail(ViewNode.layoutDepthProblem(below)) }
    let keys = modifierNodes.map { node -> String? in
      if case .object(let m) = node.value, m.count == 1 { return m[0].key }
      return nil
    }
    let containerAt = keys.indices.filter { keys[$0] == SceneFormat.ModifierName.containerShape.rawValue }
    let content = try self.content(
      type, f, at: node, depth: depth, level: below, inContainer: inContainer || !containerAt.isEmpty)
    var modifiers: [ViewModifierNode] = []
    for (index, modifierNode) in modifierNodes.enumerated() {
      modifiers.append(
        try modifier(
          modifierNode, depth: depth, level: level + modifierNodes.count - index,
          inContainer: inContainer || containerAt.contains { $0 > index },
          contentInContainer: inContainer || !containerAt.isEmpty))
    }
    return ViewNode(content, modifiers: modifiers)
  }

  func children(_ f: FieldReader, depth: Int, level: Int, inContainer: Bool) throws -> [ViewNode] {
    try f.required("children").array().map {
      try view($0, depth: depth + 1, level: level, inContainer: inContainer)
    }
  }

  func content(
    _ type: SceneFormat.TypeName, _ f: FieldReader, at node: JSONNode, depth: Int, level: Int, inContainer: Bool
  ) throws -> ViewContent {
    switch type {
    case .vstack:
      return .vstack(
        alignment: try f.choice("alignment", HorizontalAlignment.init) ?? .center, spacing: try f.number("spacing"),
        try children(f, depth: depth, level: level, inContainer: inContainer))
    case .hstack:
      return .hstack(
        alignment: try f.choice("alignment", VerticalAlignment.init) ?? .center, spacing: try f.number("spacing"),
        try children(f, depth: depth, level: level, inContainer: inContainer))
    case .zstack:
      return .zstack(
        alignment: try f.choice("alignment") { Alignment.named[$0] } ?? .center,
        try children(f, depth: depth, level: level, inContainer: inContainer))
    case .group:
      return .group(try children(f, depth: depth, level: level, inContainer: inContainer))
    case .glassEffectContainer:
      return .glassEffectContainer(
        spacing: try f.number("spacing") ?? 0, try children(f, depth: depth, level: level, inContainer: inContainer))
    case .spacer:
      return .spacer(minLength: try f.number("minLength"))
    case .text:
      var text = TextContent(try f.string("text") ?? "")
      let explicit = try textFields(f, into: &text)
      return .text(text, explicit: explicit)
    case .label:
      var text = TextContent(try f.string("title") ?? "", systemImage: try f.string("systemImage"))
      let explicit = try textFields(f, into: &text)
      return .text(text, explicit: explicit)
    case .image:
      if let name = try f.string("systemName") {
        var text = TextContent("", systemImage: name)
        let explicit = try textFields(f, into: &text)
        return .text(text, explicit: explicit)
      }
      let path = try f.spec("image").string(f.required("image"), what: "image")
      return .image(
        ImageSource(path: path, scale: try f.number("scale") ?? 1, isResizable: try f.bool("resizable") ?? false))
    case .color:
      let node = try f.required("color")
      let color = try Scene.color(node)
      try v.color(node.path, color)
      return .shape(.rect, style: .fill(.color(color)))
    case .rectangle:
      return .shape(.rect, style: try shapeStyle(f))
    case .capsule:
      return .shape(.capsule, style: try shapeStyle(f))
    case .circle:
      return .shape(.circle, style: try shapeStyle(f))
    case .ellipse:
      return .shape(.ellipse, style: try shapeStyle(f))
    case .roundedRectangle:
      return .shape(
        .roundedRect(
          cornerRadius: try f.number("cornerRadius") ?? 0,
          style: try f.choice("style", RoundedCornerStyle.init) ?? .circular), style: try shapeStyle(f))
    case .unevenRoundedRectangle:
      let radii = CornerRadii(
        topLeading: try f.number("topLeading") ?? 0, topTrailing: try f.number("topTrailing") ?? 0,
        bottomTrailing: try f.number("bottomTrailing") ?? 0, bottomLeading: try f.number("bottomLeading") ?? 0)
      return .shape(
        .unevenRoundedRect(radii, style: try f.choice("style", RoundedCornerStyle.init) ?? .circular),
        style: try shapeStyle(f))
    case .concentricRectangle:
      let corners = try f["corners"].map(Scene.concentricCorners) ?? ConcentricCorners(.concentric)
      let shape = Shape.concentric(corners, isUniform: try f.bool("isUniform") ?? false)
      try checkContainer(shape, at: node, inContainer: inContainer)
      try v.shape(node.path, shape, container: Self.someContainer)
      return .shape(shape, style: try shapeStyle(f))
    case .button:
      if let label = f["label"] {
        return .button(label: try view(label, depth: depth + 1, level: level, inContainer: inContainer))
      }
      let title = TextContent(try f.string("title") ?? "", systemImage: try f.string("systemImage"))
      return .button(label: ViewNode(.text(title, explicit: [])))
    case .textField, .secureField:
      return .textField(
        TextFieldContent(
          placeholder: try f.string("placeholder") ?? "", text: try f.string("text") ?? "",
          isSecure: type == .secureField))
    case .layers:
      let layers = try f.required("layers").array().map { try Scene.layer($0) }
      var scene = Scene(size: PointSize(width: 1, height: 1), scale: scale)
      scene.layers = layers
      try scene.validate(layers, at: "\(node.path).", v)
      return .layers(layers)
    }
  }

  /// Any container shape: concentric corners need one to be valid, and the
  /// one in the environment is what lowering gives them.
  static let someContainer = ContainerShape(frame: PointRect(x: 0, y: 0, width: 1, height: 1), cornerRadius: 0)

  /// A shape view's paint: `fill`, `material` or neither (nil: the foreground style).
  func shapeStyle(_ f: FieldReader) throws -> ShapeStyle? {
    if let node = f["fill"] {
      let fill = try Scene.fill(node)
      try v.fill(node.path, fill)
      return .fill(fill)
    }
    return try f.choice("material", Material.init).map(ShapeStyle.material)
  }

  /// The text fields written on a text, a label or a symbol, into `text`; the
  /// set of those written.
  func textFields(_ f: FieldReader, into text: inout TextContent) throws -> TextFields {
    var explicit: TextFields = []
    if let node = f["font"] {
      text.font = try font(node)
      explicit.insert(.font)
    }
    if let weight = try f.choice("fontWeight", FontWeight.init) {
      text.font.weight = weight
      explicit.insert(.weight)
    }
    if let node = f["foregroundStyle"] {
      text.foregroundStyle = try nullableFill(node)
      explicit.insert(.foregroundStyle)
    }
    if f["lineLimit"] != nil {
      text.lineLimit = try f.number("lineLimit").map { Int($0) }
      explicit.insert(.lineLimit)
    }
    if let alignment = try f.choice("multilineTextAlignment", TextAlignment.init) {
      text.alignment = alignment
      explicit.insert(.alignment)
    }
    return explicit
  }

  func font(_ node: JSONNode) throws -> Font {
    let font = try Scene.font(node)
    try v.check(node.child("size"), font.size, 1...Font.maximumSize, "pt")
    return font
  }

  func nullableFill(_ node: JSONNode) throws -> Fill? {
    if case .null = node.value { return nil }
    let fill = try Scene.fill(node)
    try v.fill(node.path, fill)
    return fill
  }

  func shape(_ node: JSONNode, inContainer: Bool) throws -> Shape {
    let shape = try Scene.shape(node)
    try checkContainer(shape, at: node, inContainer: inContainer)
    try v.shape(node.path, shape, container: Self.someContainer)
    return shape
  }

  /// Concentric corners resolve against a container shape: one must be in the environment.
  func checkContainer(_ shape: Shape, at node: JSONNode, inContainer: Bool) throws {
    guard shape.needsContainer && !inContainer else { return }
    throw node.fail(
      "a concentricRectangle needs a container shape; add a {\"containerShape\": {\"frame\": ..., "
        + "\"cornerRadius\": ...}} modifier to this view or one around it")
  }

  /// A modifier (`MODIFIER`): an object with one key, the modifier's name, whose
  /// value takes one of the modifier's forms; a view it holds lies at `level`. `inContainer`: a container shape
  /// is in the environment the modifier's drawing sees; `contentInContainer`:
  /// in its content's (what `glassEffect` resolves against).
  func modifier(
    _ node: JSONNode, depth: Int, level: Int, inContainer: Bool, contentInContainer: Bool
  ) throws
    -> ViewModifierNode
  {
    let names = SceneFormat.ModifierName.allCases.map(\.rawValue)
    guard case .object(let members) = node.value else {
      throw node.fail("expected a modifier, an object with one key such as {\"padding\": 16}, found \(node.value.kind)")
    }
    guard members.count == 1, let member = members.first else {
      throw node.fail(
        members.isEmpty
          ? "an empty modifier; write one, such as {\"padding\": 16}, or remove it"
          : "a modifier has one key, its name; write {\"\(JSONNode.shortened(members[0].key))\": …} and "
            + "{\"\(JSONNode.shortened(members[1].key))\": …} as two modifiers, in the order they apply")
    }
    let key = member.key
    guard let name = SceneFormat.ModifierName(rawValue: key) else {
      throw JSONNode(value: .null, path: node.child(key)).fail(
        "unknown modifier; use one of \(names.joined(separator: ", "))")
    }
    let at = JSONNode(value: member.value, path: node.child(key))
    let spec = SceneFormat.modifier(name)
    let (form, f) = try spec.form(of: at)
    func number() throws -> Double { try spec.forms[form].number(at, what: key) ?? 0 }
    func string() throws -> String { try spec.forms[form].string(at, what: key) }
    switch name {
    case .padding:
      guard let f else { return .padding(EdgeInsets(all: try number())) }
      if form == 1 {
        let edges = try f["edges"].map(Self.edges) ?? .all
        let length = try f.number("length") ?? TextContent.defaultPadding
        let side = { (edge: EdgeSet) in edges.contains(edge) ? length : 0 }
        return .padding(
          EdgeInsets(top: side(.top), leading: side(.leading), bottom: side(.bottom), trailing: side(.trailing)))
      }
      return .padding(
        EdgeInsets(
          top: try f.number("top") ?? 0, leading: try f.number("leading") ?? 0, bottom: try f.number("bottom") ?? 0,
          trailing: try f.number("trailing") ?? 0))
    case .frame:
      guard let f else { preconditionFailure("SceneFormat: frame takes objects only") }
      let alignment = try f.choice("alignment") { Alignment.named[$0] } ?? .center
      switch form {
      case 0: return .frame(width: try f.number("width"), height: try f.number("height"), alignment: alignment)
      case 1:
        let frame = FlexibleFrame(
          minWidth: try f.number("minWidth"), idealWidth: try f.number("idealWidth"),
          maxWidth: try f.number("maxWidth"), minHeight: try f.number("minHeight"),
          idealHeight: try f.number("idealHeight"), maxHeight: try f.number("maxHeight"), alignment: alignment)
        return .flexibleFrame(frame)
      default:
        return .position(
          x: try f.number("x") ?? 0, y: try f.number("y") ?? 0, width: try f.number("width"),
          height: try f.number("height"))
      }
    case .fixedSize:
      guard let f else {
        let both = try at.bool()
        return .fixedSize(horizontal: both, vertical: both)
      }
      return .fixedSize(horizontal: try f.bool("horizontal") ?? false, vertical: try f.bool("vertical") ?? false)
    case .layoutPriority:
      return .layoutPriority(try number())
    case .offset:
      guard let f else { preconditionFailure("SceneFormat: offset takes an object") }
      return .offset(x: try f.number("x") ?? 0, y: try f.number("y") ?? 0)
    case .aspectRatio:
      guard let f else { preconditionFailure("SceneFormat: aspectRatio takes an object") }
      return .aspectRatio(try f.number("ratio"), contentMode: try f.choice("contentMode", ContentMode.init) ?? .fit)
    case .scaledToFit:
      try spec.forms[form].check(true: at, what: key)
      return .aspectRatio(nil, contentMode: .fit)
    case .scaledToFill:
      try spec.forms[form].check(true: at, what: key)
      return .aspectRatio(nil, contentMode: .fill)
    case .overlay, .background:
      guard let f else { preconditionFailure("SceneFormat: \(key) takes an object") }
      if form == 0 {
        let content = try view(f.required("content"), depth: depth + 1, level: level, inContainer: inContainer)
        let alignment = try f.choice("alignment") { Alignment.named[$0] } ?? .center
        return name == .overlay ? .overlay(content, alignment: alignment) : .background(content, alignment: alignment)
      }
      let shape = try f["in"].map { try self.shape($0, inContainer: inContainer) } ?? .rect
      let style: ShapeStyle
      if let node = f["fill"] {
        let fill = try Scene.fill(node)
        try v.fill(node.path, fill)
        style = .fill(fill)
      } else {
        style = .material(try f.choice("material", Material.init) ?? .regular)
      }
      return .background(ViewNode(.shape(shape, style: style)), alignment: .center)
    case .ignoresSafeArea:
      guard let f else { return .ignoresSafeArea(try at.bool() ? .all : []) }
      return .ignoresSafeArea(try f["edges"].map(Self.edges) ?? .all)
    case .glassEffect:
      guard let f else {
        try spec.forms[form].check(true: at, what: key)
        return .glassEffect(.regular, shape: .capsule, optics: GlassOptics.Overrides())
      }
      let glass = try f["glass"].map(Scene.glass) ?? .regular
      let shape = try f["in"].map { try self.shape($0, inContainer: contentInContainer) } ?? .capsule
      let optics = try f["optics"].map(Scene.optics) ?? GlassOptics.Overrides()
      try v.glass(
        at.path, GlassLayer(glass: glass, frame: PointRect(x: 0, y: 0, width: 0, height: 0), optics: optics),
        container: Self.someContainer)
      return .glassEffect(glass, shape: shape, optics: optics)
    case .glassEffectID:
      guard let f else { return .glassEffectID(try string()) }
      let id = "\(try f.string("in") ?? "").\(try f.string("id") ?? "")"
      guard id.utf8.count <= 256 else {
        throw at.fail("the namespace and id together are over 256 bytes; shorten them")
      }
      return .glassEffectID(id)
    case .glassEffectUnion:
      return .glassEffectUnion(try string())
    case .glassEffectTransition:
      return .glassEffectTransition(try Self.named(try string(), GlassEffectTransition.init))
    case .clipShape:
      return .clipShape(try shape(at, inContainer: inContainer))
    case .containerShape:
      let shape = try Scene.containerShape(at)
      try v.container(at.path, shape)
      return .containerShape(shape)
    case .backgroundExtensionEffect:
      guard case .object = at.value else {
        try spec.forms[form].check(true: at, what: key)
        return .backgroundExtensionEffect(BackgroundExtension())
      }
      let e = try Scene.backgroundExtension(at)
      let limit = BackgroundExtensionEffect.maximumInsetPixels / Double(scale)
      for (field, value) in [("leading", e.leading), ("trailing", e.trailing), ("top", e.top), ("bottom", e.bottom)] {
        try v.check(at.child(field), value, 0...limit, "pt")
      }
      try v.check(at.child("sigma"), e.sigma, 0...(BackgroundExtensionEffect.maximumSigmaPixels / Double(scale)), "pt")
      return .backgroundExtensionEffect(e)
    case .font:
      return .font(try font(at))
    case .fontWeight:
      return .fontWeight(try Self.named(try string(), FontWeight.init))
    case .foregroundStyle:
      let fill = try Scene.fill(at)
      try v.fill(at.path, fill)
      return .foregroundStyle(fill)
    case .lineLimit:
      return .lineLimit(try spec.forms[form].number(at, what: key).map { Int($0) })
    case .multilineTextAlignment:
      return .multilineTextAlignment(try Self.named(try string(), TextAlignment.init))
    case .buttonStyle:
      return .buttonStyle(try Self.named(try string(), ButtonStyle.init))
    case .tint:
      let color = try Scene.color(at)
      try v.color(at.path, color)
      return .tint(color)
    case .textFieldStyle:
      return .textFieldStyle(try Self.named(try string(), TextFieldStyle.init))
    }
  }

  /// A name the table lists, as its value (the table's names are the enum's).
  static func named<T>(_ name: String, _ make: (String) -> T?) throws -> T {
    guard let value = make(name) else { preconditionFailure("SceneFormat lists \(name), which the model lacks") }
    return value
  }

  /// Edges: a name (`all`, `horizontal`, `vertical`, `top`, …) or an array of them.
  static func edges(_ node: JSONNode) throws -> EdgeSet {
    let sets: [String: EdgeSet] = [
      "all": .all, "horizontal": .horizontal, "vertical": .vertical, "top": .top, "leading": .leading,
      "bottom": .bottom, "trailing": .trailing,
    ]
    if case .array = node.value {
      return try node.array().reduce(into: EdgeSet()) { $0.formUnion(try $1.choice(sets, what: "edge")) }
    }
    return try node.choice(sets, what: "edge")
  }

  /// The scene's `safeAreaInsets`, each from 0 to the canvas's side.
  func safeAreaInsets(_ node: JSONNode, canvas: PointSize) throws -> EdgeInsets {
    let f = try FieldReader(node.object(SceneFormat.safeAreaFields.map(\.name)), SceneFormat.safeAreaFields)
    let insets = EdgeInsets(
      top: try f.number("top") ?? 0, leading: try f.number("leading") ?? 0, bottom: try f.number("bottom") ?? 0,
      trailing: try f.number("trailing") ?? 0)
    for (name, value, side) in [
      ("top", insets.top, canvas.height), ("leading", insets.leading, canvas.width),
      ("bottom", insets.bottom, canvas.height), ("trailing", insets.trailing, canvas.width),
    ] where value > side {
      throw JSONNode(value: .null, path: node.child(name)).fail(
        "\(ParameterSpec.format(value)) pt is more than the canvas's \(ParameterSpec.format(side)) pt; "
          + "give at most the canvas's side")
    }
    return insets
  }
}

/// An object's fields, read as the table declares them: each number in its
/// range, each name one of its choices.
struct FieldReader {
  let object: JSONObject
  let fields: [SceneFormat.Field]

  /// Reads `object` (whose keys are already checked) against `fields`; a
  /// required field left out is an error.
  init(_ object: JSONObject, _ fields: [SceneFormat.Field], type: SceneFormat.ViewType? = nil) throws {
    self.object = object
    self.fields = fields
    if let type { try checkAlternatives(type) }
    for field in fields where field.required { _ = try object.required(field.name) }
    for field in fields where object[field.name] != nil {
      for other in field.requires where object[other] == nil {
        throw object.node.fail("missing the field \"\(other)\" (\"\(field.name)\" goes with it)")
      }
    }
  }

  subscript(_ name: String) -> JSONNode? { object[name] }

  func required(_ name: String) throws -> JSONNode { try object.required(name) }

  func spec(_ name: String) -> SceneFormat.Value {
    guard let field = fields.first(where: { $0.name == name }) else {
      preconditionFailure("SceneFormat: no field \(name) here")
    }
    return field.value
  }

  /// A number field (nil: left out, or `null` where it may be).
  func number(_ name: String) throws -> Double? {
    guard let node = object[name] else { return nil }
    return try spec(name).number(node, what: name)
  }

  func string(_ name: String) throws -> String? {
    guard let node = object[name] else { return nil }
    return try spec(name).string(node, what: name)
  }

  func bool(_ name: String) throws -> Bool? {
    try object[name]?.bool()
  }

  /// A field whose value is one of the table's names, as the model's value.
  func choice<T>(_ name: String, _ make: (String) -> T?) throws -> T? {
    guard let text = try string(name) else { return nil }
    return try ViewReader.named(text, make)
  }

  /// Fields of at most one of the view's groups of alternatives, and one of
  /// those it needs.
  func checkAlternatives(_ type: SceneFormat.ViewType) throws {
    if !type.needsOneOf.isEmpty && !type.needsOneOf.contains(where: { object[$0] != nil }) {
      throw object.node.fail(
        "missing the field \(type.needsOneOf.map { "\"\($0)\"" }.joined(separator: " or "))")
    }
    var first: (key: String, group: Int)?
    for member in memberOrder {
      guard let group = type.alternatives.firstIndex(where: { $0.contains(member) }) else { continue }
      guard let seen = first else {
        first = (member, group)
        continue
      }
      guard seen.group != group else { continue }
      let a = type.alternatives[seen.group][0]
      let b = type.alternatives[group][0]
      // Name the fields written: a field that goes with another group's main
      // one ("scale" with "image") is the one to remove.
      let message: String
      let at: String
      if seen.key == a && member == b {
        message = "give \"\(a)\" or \"\(b)\", not both; remove one"
        at = member
      } else if member != b {
        message = "\"\(member)\" goes with \"\(b)\", not with \"\(seen.key)\"; remove \"\(member)\""
        at = member
      } else {
        message = "\"\(seen.key)\" goes with \"\(a)\", not with \"\(member)\"; remove \"\(seen.key)\""
        at = seen.key
      }
      throw JSONNode(value: .null, path: object.node.child(at)).fail("\(type.conflict): \(message)")
    }
  }

  /// The object's keys in the order they were written.
  var memberOrder: [String] {
    if case .object(let members) = object.node.value { return members.map(\.key) }
    return []
  }
}

extension SceneFormat.Bounds {
  /// `value` if it lies in the bounds; else an error at `node` that gives them.
  func checked(_ value: Double, at node: JSONNode) throws -> Double {
    if let problem = problem(with: value) { throw node.fail(problem) }
    return value
  }

  /// What is wrong with `value` and the fix (nil: it lies in the bounds), the
  /// message the reader and the validator give.
  func problem(with value: Double) -> String? {
    guard !contains(value) else { return nil }
    // Negative only where no negative value is allowed: -1e308 on -100 … 100 is out of range.
    let what = value < 0 && minimum >= 0 ? "is negative" : "is out of range"
    let low =
      aboveMinimum ? "above \(ParameterSpec.format(minimum)) and at most" : "from \(ParameterSpec.format(minimum)) to"
    return "\(ParameterSpec.format(value)) \(what); give a value \(low) \(ParameterSpec.format(maximum))"
      + (unit.isEmpty ? "" : " \(unit)")
  }
}

extension SceneFormat.Value {
  /// Whether a JSON value of this kind can be this form (forms are tried in order).
  func admits(_ value: JSONValue) -> Bool {
    switch (self, value) {
    case (.number, .number), (.integer, .number), (.maximum, .number), (.maximum, .string): true
    case (.string, .string), (.name, .string), (.choice, .string): true
    case (.bool, .bool), (.isTrue, .bool): true
    case (.definition, _): true
    case (.view, .object), (.object, .object): true
    case (.edges, .string), (.edges, .array), (.array, .array): true
    case (.nullable, .null): true
    case (.nullable(let inner), _): inner.admits(value)
    default: false
    }
  }

  /// What the value is, for an error that found something else.
  var expected: String {
    switch self {
    case .number, .integer: "a number"
    case .maximum: "a number or \"infinity\""
    case .string, .name, .choice: "a string"
    case .bool: "true or false"
    case .isTrue: "true"
    case .definition(let d): d.rawValue
    case .view: "a view object"
    case .edges: "an edge name or an array of them"
    case .array: "an array"
    case .object(let fields): "{\(fields.map { "\"\($0.name)\"" }.joined(separator: ", "))}"
    case .nullable(let inner): "\(inner.expected) or null"
    }
  }

  /// A number as this value takes it (nil: `null`).
  func number(_ node: JSONNode, what: String) throws -> Double? {
    switch self {
    case .number(let bounds):
      if case .string("infinity") = node.value {
        throw node.fail("a finite number of points goes here; \"infinity\" is for maxWidth and maxHeight only")
      }
      return try bounds.checked(node.number(), at: node)
    case .maximum(let bounds):
      if case .string(let text) = node.value {
        guard text == "infinity" else {
          throw node.fail("\"\(JSONNode.shortened(text))\" is not a length; give a number of points or \"infinity\"")
        }
        return .infinity
      }
      return try bounds.checked(node.number(), at: node)
    case .integer(let range):
      let value = try node.number()
      guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
        throw node.fail(
          "\(ParameterSpec.format(value)) is not a whole number from \(range.lowerBound) to \(range.upperBound); give one"
            + (what == "lineLimit" ? ", or null for no limit" : ""))
      }
      return value
    case .nullable(let inner):
      if case .null = node.value { return nil }
      return try inner.number(node, what: what)
    case .string, .name, .bool, .isTrue, .choice, .definition, .view, .edges, .array, .object:
      preconditionFailure("SceneFormat: \(what) is not a number")
    }
  }

  /// A string as this value takes it: within its length, one of its names, a
  /// file path, an icon's name.
  func string(_ node: JSONNode, what: String) throws -> String {
    let text = try node.string()
    switch self {
    case .string(let maxLength):
      let count = text.unicodeScalars.count
      guard count <= maxLength else {
        throw node.fail(
          "the text has \(count) characters (Unicode scalars); at most \(maxLength) are laid out, so split it")
      }
    case .name:
      guard !text.isEmpty, text.utf8.count <= 256 else {
        throw node.fail("the \(what) is \(text.isEmpty ? "empty" : "over 256 bytes"); give a name of 1 to 256 bytes")
      }
    case .choice(let names):
      guard names.contains(text) else {
        throw node.fail(
          "unknown \(what) \"\(JSONNode.shortened(text))\"; use one of \(names.joined(separator: ", "))")
      }
    case .definition(.imagePath):
      _ = try node.filePath()
      guard !text.isEmpty else {
        throw node.fail("the image path is empty; give a PNG path relative to the scene file")
      }
    case .definition(.systemImage):
      guard SystemImage.named(text) != nil else {
        throw node.fail("unknown systemImage \"\(JSONNode.shortened(text))\"; the icons are \(SystemImage.nameList)")
      }
    case .number, .integer, .maximum, .bool, .isTrue, .definition, .view, .edges, .array, .object, .nullable:
      preconditionFailure("SceneFormat: \(what) is not a string")
    }
    return text
  }

  /// `true`, the one value of a modifier without arguments.
  func check(true node: JSONNode, what: String) throws {
    guard try node.bool() else {
      throw node.fail("write {\"\(what)\": true}, or leave the modifier out")
    }
  }
}

extension SceneFormat.Modifier {
  /// Which of the forms `node` takes, with its fields when it is an object form:
  /// the first form of the JSON value's kind, and among objects the first whose
  /// fields include every key written. An object that fits none names its
  /// first key that does not go with the others.
  func form(of node: JSONNode) throws -> (Int, FieldReader?) {
    let candidates = forms.indices.filter { forms[$0].admits(node.value) }
    guard let firstCandidate = candidates.first else {
      throw node.fail(
        "expected \(forms.map(\.expected).joined(separator: ", or ")), found \(node.value.kind)")
    }
    guard case .object(let members) = node.value else { return (firstCandidate, nil) }
    let objectForms: [(Int, [SceneFormat.Field])] = candidates.compactMap {
      if case .object(let fields) = forms[$0] { return ($0, fields) }
      return nil
    }
    guard !objectForms.isEmpty else { return (firstCandidate, nil) }
    let keys = members.map(\.key)
    if let match = objectForms.first(where: { form in keys.allSatisfy { key in form.1.contains { $0.name == key } } }) {
      return (match.0, try FieldReader(node.object(match.1.map(\.name)), match.1))
    }
    var all: [String] = []
    for (_, fields) in objectForms { all += fields.map(\.name).filter { !all.contains($0) } }
    _ = try node.object(all)  // a key no form has: unknown, listing them all
    let best = objectForms.max { a, b in
      keys.filter { k in a.1.contains { $0.name == k } }.count
        < keys.filter { k in b.1.contains { $0.name == k } }.count
    }
    let fits = best?.1.map(\.name) ?? []
    let stray = keys.first { !fits.contains($0) } ?? keys[0]
    let with = keys.first { fits.contains($0) } ?? ""
    let shapes = objectForms.map { "{\($0.1.map(\.name).joined(separator: ", "))}" }.joined(separator: ", ")
    throw JSONNode(value: .null, path: node.child(stray)).fail(
      "\"\(stray)\" does not go with \"\(with)\"; \(name.rawValue) takes one of \(shapes)")
  }
}

// MARK: - Writing

extension Scene {
  /// A view as the scene format writes it: its type and every field that has
  /// a value, then its modifiers. A text's fields that `explicit` does not name
  /// are not written: layout takes them from the environment.
  static func encode(_ view: ViewNode) -> JSONValue {
    var members = encode(view.content)
    if !view.modifiers.isEmpty { members.append(("modifiers", .array(view.modifiers.map(encode)))) }
    return .object(members)
  }

  static func typed(_ type: SceneFormat.TypeName) -> (key: String, value: JSONValue) {
    ("type", .string(type.rawValue))
  }

  static func encode(_ content: ViewContent) -> [(key: String, value: JSONValue)] {
    let children = { (views: [ViewNode]) in ("children", JSONValue.array(views.map(encode))) }
    switch content {
    case .vstack(let alignment, let spacing, let views):
      return [typed(.vstack), ("alignment", .string(alignment.rawValue))] + optional("spacing", spacing)
        + [children(views)]
    case .hstack(let alignment, let spacing, let views):
      return [typed(.hstack), ("alignment", .string(alignment.rawValue))] + optional("spacing", spacing)
        + [children(views)]
    case .zstack(let alignment, let views):
      return [typed(.zstack), ("alignment", encode(alignment)), children(views)]
    case .group(let views):
      return [typed(.group), children(views)]
    case .glassEffectContainer(let spacing, let views):
      return [typed(.glassEffectContainer), ("spacing", .number(spacing)), children(views)]
    case .spacer(let minLength):
      return [typed(.spacer)] + optional("minLength", minLength)
    case .text(let text, let explicit):
      var members: [(key: String, value: JSONValue)]
      if let icon = text.systemImage {
        members =
          text.string.isEmpty
          ? [typed(.image), ("systemName", .string(icon))]
          : [typed(.label), ("title", .string(text.string)), ("systemImage", .string(icon))]
      } else {
        members = [typed(.text), ("text", .string(text.string))]
      }
      if explicit.contains(.font) { members.append(("font", encode(text.font))) }
      if explicit.contains(.weight) { members.append(("fontWeight", .string(text.font.weight.rawValue))) }
      if explicit.contains(.foregroundStyle) {
        members.append(("foregroundStyle", text.foregroundStyle.map(encode) ?? .null))
      }
      if explicit.contains(.lineLimit) {
        members.append(("lineLimit", text.lineLimit.map { .number(Double($0)) } ?? .null))
      }
      if explicit.contains(.alignment) { members.append(("multilineTextAlignment", .string(text.alignment.rawValue))) }
      return members
    case .image(let source):
      return [
        typed(.image), ("image", .string(source.path)), ("scale", .number(source.scale)),
        ("resizable", .bool(source.isResizable)),
      ]
    case .shape(.rect, .fill(.color(let color))?):
      return [typed(.color), ("color", encode(color))]
    case .shape(let shape, let style):
      var members: [(key: String, value: JSONValue)]
      switch shape {
      case .rect: members = [typed(.rectangle)]
      case .capsule: members = [typed(.capsule)]
      case .circle: members = [typed(.circle)]
      case .ellipse: members = [typed(.ellipse)]
      case .roundedRect(let r, let style):
        members = [typed(.roundedRectangle), ("cornerRadius", .number(r)), ("style", .string(style.rawValue))]
      case .unevenRoundedRect(let r, let style):
        members = [
          typed(.unevenRoundedRectangle), ("topLeading", .number(r.topLeading)),
          ("topTrailing", .number(r.topTrailing)),
          ("bottomTrailing", .number(r.bottomTrailing)), ("bottomLeading", .number(r.bottomLeading)),
          ("style", .string(style.rawValue)),
        ]
      case .concentric:
        guard case .object(let fields) = encode(shape) else { preconditionFailure("a concentric shape is an object") }
        members = [typed(.concentricRectangle)] + fields.filter { $0.key != "type" }
      }
      switch style {
      case nil: break
      case .fill(let fill)?: members.append(("fill", encode(fill)))
      case .material(let material)?: members.append(("material", .string(material.rawValue)))
      }
      return members
    case .button(let label):
      if label.modifiers.isEmpty, case .text(let text, let explicit) = label.content, explicit.isEmpty,
        text == TextContent(text.string, systemImage: text.systemImage)
      {
        var members = [typed(.button), ("title", JSONValue.string(text.string))]
        if let icon = text.systemImage { members.append(("systemImage", .string(icon))) }
        return members
      }
      return [typed(.button), ("label", encode(label))]
    case .textField(let field):
      return [
        typed(field.isSecure ? .secureField : .textField), ("placeholder", .string(field.placeholder)),
        ("text", .string(field.text)),
      ]
    case .layers(let layers):
      return [typed(.layers), ("layers", .array(layers.map(encode)))]
    }
  }

  /// A number's member, or none when it has no value.
  static func optional(_ key: String, _ value: Double?) -> [(key: String, value: JSONValue)] {
    value.map { [(key, .number($0))] } ?? []
  }

  static func encode(_ alignment: Alignment) -> JSONValue {
    .string(Alignment.named.first { $0.value == alignment }?.key ?? "center")
  }

  static func encode(_ edges: EdgeSet) -> JSONValue {
    if edges == .all { return .string("all") }
    let names: [(String, EdgeSet)] = [
      ("top", .top), ("leading", .leading), ("bottom", .bottom), ("trailing", .trailing),
    ]
    return .array(names.filter { edges.contains($0.1) }.map { .string($0.0) })
  }

  static func encode(_ modifier: ViewModifierNode) -> JSONValue {
    let one = { (name: SceneFormat.ModifierName, value: JSONValue) in JSONValue.object([(name.rawValue, value)]) }
    let number = { (value: Double?) in value.map { JSONValue.number($0) } }
    switch modifier {
    case .padding(let e):
      if e.top == e.leading && e.top == e.bottom && e.top == e.trailing { return one(.padding, .number(e.top)) }
      return one(
        .padding,
        .object([
          ("top", .number(e.top)), ("leading", .number(e.leading)), ("bottom", .number(e.bottom)),
          ("trailing", .number(e.trailing)),
        ]))
    case .frame(let width, let height, let alignment):
      let sizes = [("width", number(width)), ("height", number(height))].compactMap { k, v in v.map { (k, $0) } }
      return one(.frame, .object(sizes + [("alignment", encode(alignment))]))
    case .flexibleFrame(let f):
      let bound = { (value: Double?) in value.map { $0 == .infinity ? JSONValue.string("infinity") : .number($0) } }
      var members = [
        ("minWidth", bound(f.minWidth)), ("idealWidth", bound(f.idealWidth)), ("maxWidth", bound(f.maxWidth)),
        ("minHeight", bound(f.minHeight)), ("idealHeight", bound(f.idealHeight)), ("maxHeight", bound(f.maxHeight)),
      ].compactMap { k, v in v.map { (key: k, value: $0) } }
      // A frame with no bound is still a flexible one: `null` says which family.
      if members.isEmpty { members = [("minWidth", .null)] }
      return one(.frame, .object(members + [("alignment", encode(f.alignment))]))
    case .position(let x, let y, let width, let height):
      let sizes = [("width", number(width)), ("height", number(height))].compactMap { k, v in v.map { (k, $0) } }
      return one(.frame, .object([("x", .number(x)), ("y", .number(y))] + sizes))
    case .fixedSize(let horizontal, let vertical):
      if horizontal && vertical { return one(.fixedSize, .bool(true)) }
      return one(.fixedSize, .object([("horizontal", .bool(horizontal)), ("vertical", .bool(vertical))]))
    case .layoutPriority(let priority):
      return one(.layoutPriority, .number(priority))
    case .offset(let x, let y):
      return one(.offset, .object([("x", .number(x)), ("y", .number(y))]))
    case .aspectRatio(nil, .fit):
      return one(.scaledToFit, .bool(true))
    case .aspectRatio(nil, .fill):
      return one(.scaledToFill, .bool(true))
    case .aspectRatio(let ratio, let mode):
      return one(
        .aspectRatio,
        .object((ratio.map { [("ratio", JSONValue.number($0))] } ?? []) + [("contentMode", .string(mode.rawValue))]))
    case .overlay(let view, let alignment):
      return one(.overlay, .object([("content", encode(view)), ("alignment", encode(alignment))]))
    case .background(let view, let alignment):
      if view.modifiers.isEmpty, alignment == .center, case .shape(let shape, let style?) = view.content {
        switch style {
        case .fill(let fill): return one(.background, .object([("fill", encode(fill)), ("in", encode(shape))]))
        case .material(let m):
          return one(.background, .object([("material", .string(m.rawValue)), ("in", encode(shape))]))
        }
      }
      return one(.background, .object([("content", encode(view)), ("alignment", encode(alignment))]))
    case .ignoresSafeArea(let edges):
      if edges == .all { return one(.ignoresSafeArea, .bool(true)) }
      return one(.ignoresSafeArea, .object([("edges", encode(edges))]))
    case .glassEffect(let glass, let shape, let optics):
      var members: [(key: String, value: JSONValue)] = [("glass", encode(glass)), ("in", encode(shape))]
      if !optics.isEmpty { members.append(("optics", encode(optics))) }
      return one(.glassEffect, .object(members))
    case .glassEffectID(let id):
      return one(.glassEffectID, .string(id))
    case .glassEffectUnion(let id):
      return one(.glassEffectUnion, .string(id))
    case .glassEffectTransition(let transition):
      return one(.glassEffectTransition, .string(transition.rawValue))
    case .clipShape(let shape):
      return one(.clipShape, encode(shape))
    case .containerShape(let shape):
      return one(.containerShape, encode(Optional(shape))[0].value)
    case .backgroundExtensionEffect(let e):
      return one(.backgroundExtensionEffect, encode(e))
    case .font(let font):
      return one(.font, encode(font))
    case .fontWeight(let weight):
      return one(.fontWeight, .string(weight.rawValue))
    case .foregroundStyle(let fill):
      return one(.foregroundStyle, encode(fill))
    case .lineLimit(let limit):
      return one(.lineLimit, limit.map { .number(Double($0)) } ?? .null)
    case .multilineTextAlignment(let alignment):
      return one(.multilineTextAlignment, .string(alignment.rawValue))
    case .buttonStyle(let style):
      return one(.buttonStyle, .string(style.rawValue))
    case .tint(let color):
      return one(.tint, encode(color))
    case .textFieldStyle(let style):
      return one(.textFieldStyle, .string(style.rawValue))
    }
  }

  /// The safe area's insets.
  static func encode(_ insets: EdgeInsets) -> JSONValue {
    .object([
      ("top", .number(insets.top)), ("leading", .number(insets.leading)), ("bottom", .number(insets.bottom)),
      ("trailing", .number(insets.trailing)),
    ])
  }
}
