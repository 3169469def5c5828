import Foundation

// The scene file format, version 1 (docs/scene-format.md, docs/scene.schema.json):
// reading with every error naming its JSON path, and writing the same value back.

/// A JSON value and where it sits in the file, for error messages.
struct JSONNode {
  let value: JSONValue
  let path: String
  /// What the document is called in an error about its root.
  var root = "the scene"

  func fail(_ message: String) -> GlassError {
    path.isEmpty
      ? GlassError(.invalidScene, "\(root): \(message)")
      : GlassError(.invalidScene, message, at: GlassError.Location(jsonPath: path))
  }

  func number() throws -> Double {
    guard case .number(let v) = value else { throw fail("expected a number, found \(value.kind)") }
    return v
  }

  func string() throws -> String {
    guard case .string(let v) = value else { throw fail("expected a string, found \(value.kind)") }
    return v
  }

  /// A file's path: a string that can name a file (`FilePaths.problem`).
  func filePath() throws -> String {
    let text = try string()
    if let problem = FilePaths.problem(with: text) { throw fail(problem) }
    return text
  }

  func bool() throws -> Bool {
    guard case .bool(let v) = value else { throw fail("expected true or false, found \(value.kind)") }
    return v
  }

  func array() throws -> [JSONNode] {
    guard case .array(let items) = value else { throw fail("expected an array, found \(value.kind)") }
    return items.enumerated().map { JSONNode(value: $0.element, path: "\(path)[\($0.offset)]") }
  }

  /// The object's members; a key not in `allowed` is an error that lists them.
  func object(_ allowed: [String]) throws -> JSONObject {
    guard case .object(let members) = value else { throw fail("expected an object, found \(value.kind)") }
    for (key, _) in members where !allowed.contains(key) {
      throw JSONNode(value: .null, path: child(key)).fail(
        "unknown field; the fields here are \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    return JSONObject(
      members: Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }), node: self)
  }

  /// One of `choices`, by name.
  func choice<T>(_ choices: [String: T], what: String) throws -> T {
    let name = try string()
    guard let value = choices[name] else {
      throw fail(
        "unknown \(what) \"\(Self.shortened(name))\"; use one of \(choices.keys.sorted().joined(separator: ", "))")
    }
    return value
  }

  func child(_ key: String) -> String {
    let key = Self.shortened(key)
    return path.isEmpty ? key : "\(path).\(key)"
  }

  /// Text from the file as an error message shows it (`UserText.shortened`).
  static func shortened(_ text: String) -> String { UserText.shortened(text) }
}

/// Text a user wrote, as a message or a report line quotes it.
public enum UserText {
  /// `text` made safe to print on one short line: control characters (C0, DEL,
  /// C1), line and paragraph separators and bidirectional controls (which can
  /// reorder what a terminal shows after them) escaped as `\n` or `\u{202E}`;
  /// at most `maxCharacters` characters and four times as many Unicode scalars (a
  /// long value is cut, with an ellipsis). Every message that quotes a value
  /// from a file goes through here.
  public static func shortened(_ text: String, maxCharacters: Int = 40) -> String {
    var result = ""
    var scalars = 0
    for (count, character) in text.enumerated() {
      scalars += character.unicodeScalars.count
      guard count < maxCharacters && scalars <= 4 * maxCharacters else { return result + "…" }
      guard character.unicodeScalars.contains(where: needsEscape) else {
        result.append(character)
        continue
      }
      for scalar in character.unicodeScalars {
        result += needsEscape(scalar) ? scalar.escaped(asASCII: true) : String(scalar)
      }
    }
    return result
  }

  /// Whether a scalar is escaped: it moves the cursor, ends the line or
  /// reorders the text around it when printed.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: return true
    default: return scalar.properties.isBidiControl
    }
  }
}

/// An object's members, read by key.
struct JSONObject {
  let members: [String: JSONValue]
  let node: JSONNode

  subscript(key: String) -> JSONNode? {
    members[key].map { JSONNode(value: $0, path: node.child(key)) }
  }

  func required(_ key: String) throws -> JSONNode {
    guard let child = self[key] else { throw node.fail("missing the field \"\(key)\"") }
    return child
  }
}

extension Scene {
  /// Reads a scene file's bytes; every error names the JSON path and how to fix it.
  /// The values are validated (`validate()`); images are not read here, and
  /// nothing is measured: frames sized to their text (`ContentFit`) and view
  /// trees are laid out in `Renderer.prepare` (`Scene.laidOut`), with the
  /// renderer's fonts, so reading needs none.
  public init(json bytes: [UInt8]) throws {
    let root: JSONValue
    do {
      root = try JSONValue.parse(bytes)
    } catch {
      throw GlassError(
        .invalidScene, "\(error.message); the file must be JSON",
        at: GlassError.Location(line: error.line, column: error.column))
    }
    self = try Scene(node: JSONNode(value: root, path: ""))
    try validate()
  }

  init(node: JSONNode) throws {
    let o = try node.object([
      "version", "size", "scale", "background", "layers", "body", "safeAreaInsets", "states", "transition",
      "environment",
    ])
    let version = try o.required("version")
    guard try version.number() == Double(Scene.formatVersion) else {
      throw version.fail(
        "this glass-gpu reads scene format version \(Scene.formatVersion) only; write \"version\": \(Scene.formatVersion)"
      )
    }
    let size = try o.required("size")
    let s = try size.fields(SceneFormat.sizeFields)
    self.init(
      size: PointSize(width: try s.required("width").number(), height: try s.required("height").number()))
    if let scale = o["scale"] {
      let value = try scale.number()
      guard SceneFormat.scales.contains(value) else {
        throw scale.fail("\(ParameterSpec.format(value)) is not 1, 2 or 3")
      }
      self.scale = Int(value)
    }
    if let background = o["background"] { self.background = try Self.background(background) }
    if let environment = o["environment"] { self.environment = try Self.environment(environment) }
    let layer = { (node: JSONNode) in try Self.layer(node) }
    if let layers = o["layers"] { self.layers = try layers.array().map(layer) }
    let views = ViewReader(scale: scale)
    if let body = o["body"] { self.body = try views.view(body) }
    if let insets = o["safeAreaInsets"] { self.safeAreaInsets = try views.safeAreaInsets(insets, canvas: self.size) }
    if let states = o["states"] {
      guard case .object(let members) = states.value, !members.isEmpty else {
        throw states.fail(
          "expected an object of named states, such as {\"collapsed\": {\"layers\": [...]}, \"expanded\": ...}")
      }
      for (name, _) in members {
        guard !name.isEmpty else { throw states.fail("a state needs a name") }
        let state = try JSONNode(value: members.first { $0.key == name }?.value ?? .null, path: states.child(name))
          .object(["layers", "body"])
        guard state["layers"] != nil || state["body"] != nil else {
          throw state.node.fail("a state needs \"layers\", a \"body\" or both")
        }
        self.states.append(
          SceneState(
            name, layers: try state["layers"]?.array().map(layer) ?? [],
            body: try state["body"].map { try views.view($0) }
          ))
      }
      // Neither layers nor a body: the scene is its first state.
      if o["layers"] == nil && o["body"] == nil {
        self.layers = self.states[0].layers
        self.body = self.states[0].body
      }
    }
    if let transition = o["transition"] {
      let t = try transition.fields(SceneFormat.transitionFields)
      self.transition = SceneTransition(
        from: try t.required("from").string(), to: try t.required("to").string(),
        animation: try t["animation"].map(Self.timingCurve) ?? .default)
    }
  }

  /// The SwiftUI animation names: see `TimingCurve(json:)`., or `{"type": "spring", "duration":
  /// 0.5, "bounce": 0.2}`, or `{"type": "easeInOut", "duration": 0.3}`.
  static func timingCurve(_ node: JSONNode) throws -> TimingCurve {
    let types = ["spring", "smooth", "snappy", "bouncy", "easeIn", "easeOut", "easeInOut", "linear", "timingCurve"]
    var type: String
    var o: JSONObject?
    if case .string(let name) = node.value {
      type = name
    } else {
      let object = try node.object(["type", "duration", "bounce", "x1", "y1", "x2", "y2"])
      type = try object.required("type").string()
      o = object
    }
    guard types.contains(type) else {
      let at = o == nil ? node : JSONNode(value: .string(type), path: node.child("type"))
      throw at.fail(
        "unknown animation \"\(JSONNode.shortened(type))\"; use one of \(types.joined(separator: ", "))")
    }
    func number(_ key: String, _ fallback: Double) throws -> Double { try o?[key]?.number() ?? fallback }
    let springDuration = try number("duration", 0.5)
    let easeDuration = try number("duration", 0.35)
    switch type {
    case "spring": return .spring(duration: springDuration, bounce: try number("bounce", 0))
    case "smooth": return .spring(duration: springDuration, bounce: 0)
    case "snappy": return .spring(duration: springDuration, bounce: 0.15)
    case "bouncy": return .spring(duration: springDuration, bounce: 0.3)
    case "easeIn": return .easeIn(duration: easeDuration)
    case "easeOut": return .easeOut(duration: easeDuration)
    case "easeInOut": return .easeInOut(duration: easeDuration)
    case "linear": return .linear(duration: easeDuration)
    default:
      return .bezier(
        duration: easeDuration, x1: try number("x1", 0), y1: try number("y1", 0), x2: try number("x2", 1),
        y2: try number("y2", 1))
    }
  }

  static func background(_ node: JSONNode) throws -> Background {
    if case .object(let members) = node.value, members.contains(where: { $0.key == "image" }) {
      let o = try node.fields(SceneFormat.backgroundImageFields)
      return .image(
        try o.required("image").filePath(),
        contentMode: try o.choice("contentMode", in: SceneFormat.backgroundImageFields, what: "content mode") ?? .fill)
    }
    return .fill(try fill(node))
  }

  static func color(_ node: JSONNode) throws -> Color {
    if case .object(let members) = node.value, members.contains(where: { $0.key == "light" || $0.key == "dark" }) {
      let o = try node.fields(SceneFormat.adaptiveColorFields)
      return Color(
        light: try color(o.required("light")), dark: try color(o.required("dark")),
        increasedContrastLight: try o["increasedContrastLight"].map(color),
        increasedContrastDark: try o["increasedContrastDark"].map(color))
    }
    if case .object = node.value {
      let o = try node.fields(SceneFormat.colorFields)
      return Color(
        red: try o.required("red").number(), green: try o.required("green").number(),
        blue: try o.required("blue").number(), opacity: try o["opacity"]?.number() ?? 1)
    }
    let text = try node.string()
    if let named = Color.named[text] { return named }
    let digits = text.hasPrefix("#") ? String(text.dropFirst()) : ""
    guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit), let value = UInt64(digits, radix: 16)
    else {
      throw node.fail(
        "\"\(JSONNode.shortened(text))\" is not a colour; write \"#RRGGBB\", \"#RRGGBBAA\", a name such as red, label or systemBackground (docs/scene-format.md, Colours) or {\"red\", \"green\", \"blue\", \"opacity\"} or {\"light\", \"dark\"}"
      )
    }
    let rgba = digits.count == 6 ? value << 8 | 0xFF : value
    return Color(
      red: Double((rgba >> 24) & 0xFF) / 255, green: Double((rgba >> 16) & 0xFF) / 255,
      blue: Double((rgba >> 8) & 0xFF) / 255, opacity: Double(rgba & 0xFF) / 255)
  }

  static func unitPoint(_ node: JSONNode) throws -> UnitPoint {
    if case .string = node.value {
      let named = Dictionary(
        uniqueKeysWithValues: SceneFormat.unitPointNames.compactMap { name in
          UnitPoint.named[name].map { (name, $0) }
        })
      return try node.choice(named, what: "unit point")
    }
    let o = try node.fields(SceneFormat.unitPointFields)
    return UnitPoint(x: try o.required("x").number(), y: try o.required("y").number())
  }

  static func gradient(_ o: JSONObject) throws -> Gradient {
    if let colors = o["colors"] {
      guard o["stops"] == nil else { throw o.node.fail("give either \"colors\" or \"stops\", not both") }
      return Gradient(colors: try colors.array().map(color))
    }
    let stops = try o.required("stops").array().map { node -> Gradient.Stop in
      let s = try node.fields(SceneFormat.gradientStopFields)
      return Gradient.Stop(color: try color(s.required("color")), location: try s.required("location").number())
    }
    return Gradient(stops: stops)
  }

  static func fill(_ node: JSONNode) throws -> Fill {
    guard case .object(let members) = node.value, let kind = members.first?.key,
      kind == "linearGradient" || kind == "radialGradient"
    else { return .color(try color(node)) }
    let outer = try node.object(["linearGradient", "radialGradient"])
    guard members.count == 1 else { throw node.fail("give one of \"linearGradient\" or \"radialGradient\"") }
    let inner = try outer.required(kind)
    if kind == "linearGradient" {
      let o = try inner.fields(SceneFormat.linearGradientFields)
      return .linearGradient(
        try gradient(o), startPoint: try o["startPoint"].map(unitPoint) ?? .top,
        endPoint: try o["endPoint"].map(unitPoint) ?? .bottom)
    }
    let o = try inner.fields(SceneFormat.radialGradientFields)
    return .radialGradient(
      try gradient(o), center: try o["center"].map(unitPoint) ?? .center,
      startRadius: try o["startRadius"]?.number() ?? 0, endRadius: try o.required("endRadius").number())
  }

  /// A frame; with text content, `width` and `height` may be left out, and are
  /// then sized to the text plus its padding (`ContentFit`) where the scene is
  /// laid out, not here: reading measures nothing. `fitPadding` (`{"horizontal",
  /// "vertical"}`, points) replaces the content's padding for that sizing, as a
  /// button's style does; the writer writes it only then.
  static func frame(_ node: JSONNode, fitting content: GlassContent?) throws -> (PointRect, ContentFit?) {
    guard content?.text != nil, let padding = content?.padding else { return (try rect(node), nil) }
    return try frame(node, fittingWith: padding, padding)
  }

  /// A frame sized to fit text with `horizontal` and `vertical` padding unless
  /// it says otherwise (`fitPadding`).
  static func frame(
    _ node: JSONNode, fittingWith horizontal: Double, _ vertical: Double
  ) throws -> (PointRect, ContentFit?) {
    let o = try node.object(SceneFormat.fittingFrameFields.map(\.name))
    let width = try o["width"]?.number()
    let height = try o["height"]?.number()
    let frame = PointRect(
      x: try o["x"]?.number() ?? 0, y: try o["y"]?.number() ?? 0, width: width ?? 0, height: height ?? 0)
    var horizontal = horizontal
    var vertical = vertical
    if let fitPadding = o["fitPadding"] {
      guard width == nil || height == nil else {
        throw fitPadding.fail("fitPadding sizes a side not given, and this frame gives both; leave it out")
      }
      let f = try fitPadding.fields(SceneFormat.fitPaddingFields)
      // Their ranges are checked with the rest of the frame (`Scene.validate`).
      horizontal = try f.required("horizontal").number()
      vertical = try f.required("vertical").number()
    }
    return (
      frame, ContentFit(width: width, height: height, horizontalPadding: horizontal, verticalPadding: vertical)
    )
  }

  /// The scene's `environment` (`SceneFormat.environmentFields`).
  static func environment(_ node: JSONNode) throws -> EnvironmentValues {
    let o = try node.fields(SceneFormat.environmentFields)
    var env = EnvironmentValues()
    for field in SceneFormat.environmentFields {
      guard let value = o[field.name] else { continue }
      let text: String
      if case .bool = field.value { text = String(try value.bool()) } else { text = try value.string() }
      do {
        try env.set(field.name, to: text)
      } catch let error as GlassError {
        throw value.fail(error.message)
      }
    }
    return env
  }

  static let textStyles = Dictionary(uniqueKeysWithValues: Font.styles.map { ($0.name, $0.font) })

  /// A font: a text style's name (`"title"`), or `{"size", "weight", "family" | "file"}`.
  static func font(_ node: JSONNode) throws -> Font {
    if case .string = node.value { return try node.choice(textStyles, what: "text style") }
    let o = try node.fields(SceneFormat.fontFields)
    var font = Font(size: try o["size"]?.number() ?? Font.body.size)
    if let weight: FontWeight = try o.choice("weight", in: SceneFormat.fontFields, what: "font weight") {
      font.weight = weight
    }
    font.relativeTo = try o.choice("relativeTo", in: SceneFormat.fontFields, what: "text style")
    if o["family"] != nil && o["file"] != nil {
      throw node.fail("give a font's \"family\" or its \"file\", not both")
    }
    if let family = o["family"] {
      let name = try family.string()
      guard !name.isEmpty else { throw family.fail("the family is empty; name one, as `fc-list : family` lists them") }
      font.source = .family(name)
    }
    if let file = o["file"] {
      let path = try file.filePath()
      guard !path.isEmpty else {
        throw file.fail("the font file path is empty; give a path relative to the scene file")
      }
      font.source = .file(path)
    }
    return font
  }

  /// Text content from the text fields (`SceneFormat.layerTextFields`) of `o`.
  static func text(_ o: JSONObject) throws -> TextContent {
    let fields = SceneFormat.layerTextFields
    let needs = SceneFormat.spec(.text)
    try o.check(needsOneOf: needs.needsOneOf, needs.needsOneOfMessage)
    var text = TextContent(try o["text"]?.string() ?? "")
    text.systemImage = try o["systemImage"]?.string()
    if let font = o["font"] { text.font = try Self.font(font) }
    if let weight: FontWeight = try o.choice("fontWeight", in: fields, what: "font weight") {
      text.font.weight = weight
    }
    if let style = o["foregroundStyle"] { text.foregroundStyle = try fill(style) }
    if let limit = o["lineLimit"] {
      let value = try limit.number()
      guard case .integer(let range) = fields.first(where: { $0.name == "lineLimit" })?.value else {
        preconditionFailure("SceneFormat: lineLimit is a whole number")
      }
      guard value >= Double(range.lowerBound), value <= Double(range.upperBound), value == value.rounded() else {
        throw limit.fail(
          "\(ParameterSpec.format(value)) is not a number of lines from \(range.lowerBound) to \(range.upperBound); "
            + "give a whole number in that range, or leave lineLimit out for no limit")
      }
      text.lineLimit = Int(value)
    }
    if let alignment: TextAlignment = try o.choice("multilineTextAlignment", in: fields, what: "text alignment") {
      text.alignment = alignment
    }
    return text
  }

  /// A layer's content: `{"image", "padding", "opacity"}` or text fields with
  /// `padding` (16 by default) and `opacity`.
  static func content(_ node: JSONNode) throws -> GlassContent {
    let imageFields = SceneFormat.imageContentFields.map(\.name)
    let textFields = SceneFormat.textContentFields.map(\.name)
    let o = try node.object(imageFields + textFields.filter { !imageFields.contains($0) })
    let opacity = try o["opacity"]?.number() ?? 1
    if let image = o["image"] {
      if let field = textFields.first(where: { !imageFields.contains($0) && o[$0] != nil }) {
        throw JSONNode(value: .null, path: node.child(field)).fail(
          "content is an image or text, not both; put the text in a layer of its own")
      }
      return GlassContent(source: try image.filePath(), padding: try o["padding"]?.number() ?? 0, opacity: opacity)
    }
    return GlassContent(
      try text(o), padding: try o["padding"]?.number() ?? TextContent.defaultPadding, opacity: opacity)
  }

  static func rect(_ node: JSONNode) throws -> PointRect {
    let o = try node.fields(SceneFormat.frameFields)
    return PointRect(
      x: try o["x"]?.number() ?? 0, y: try o["y"]?.number() ?? 0, width: try o.required("width").number(),
      height: try o.required("height").number())
  }

  /// A shape: a name (`SceneFormat.ShapeTypeName`, those without parameters), or
  /// an object with a `type` and that type's fields (`SceneFormat.shapeFields`).
  static func shape(_ node: JSONNode) throws -> Shape {
    let names = SceneFormat.ShapeTypeName.allCases.map(\.rawValue)
    let simple: [String: Shape] = ["rect": .rect, "capsule": .capsule, "circle": .circle, "ellipse": .ellipse]
    if case .string(let name) = node.value, let type = SceneFormat.ShapeTypeName(rawValue: name), !type.isSimple {
      throw node.fail("a \(name) has parameters; write it as an object: {\"type\": \"\(name)\", ...}")
    }
    if case .string = node.value { return try node.choice(simple, what: "shape") }
    guard case .object(let members) = node.value else {
      throw node.fail("expected a shape name or object, found \(node.value.kind)")
    }
    let typeNode = JSONNode(value: members.first { $0.key == "type" }?.value ?? .null, path: node.child("type"))
    guard case .string(let typeName) = typeNode.value else { throw node.fail("missing the field \"type\"") }
    guard let type = SceneFormat.ShapeTypeName(rawValue: typeName) else {
      throw typeNode.fail(
        "unknown shape \"\(JSONNode.shortened(typeName))\"; use one of \(names.joined(separator: ", "))")
    }
    let fields = SceneFormat.shapeFields(type)
    let o = try node.fields([SceneFormat.Field("type", .choice(names), required: true)] + fields)
    let style = { try o.choice("style", in: fields, what: "corner style") ?? RoundedCornerStyle.circular }
    switch type {
    case .rect, .capsule, .circle, .ellipse:
      return simple[typeName] ?? .rect
    case .roundedRect:
      return .roundedRect(cornerRadius: try o.required("cornerRadius").number(), style: try style())
    case .unevenRoundedRect:
      let r = { (key: String) in try o[key]?.number() ?? 0 }
      return .unevenRoundedRect(
        CornerRadii(
          topLeading: try r("topLeading"), topTrailing: try r("topTrailing"), bottomTrailing: try r("bottomTrailing"),
          bottomLeading: try r("bottomLeading")), style: try style())
    case .concentricRectangle:
      var corners = ConcentricCorners(.concentric)
      if let c = o["corners"] { corners = try concentricCorners(c) }
      return .concentric(corners, isUniform: try o["isUniform"]?.bool() ?? false)
    }
  }

  /// A concentric rectangle's `corners`: one corner for all four, or
  /// `{"topLeading", "topTrailing", "bottomTrailing", "bottomLeading"}`.
  static func concentricCorners(_ c: JSONNode) throws -> ConcentricCorners {
    let names = SceneFormat.cornerNames
    if case .object(let m) = c.value, m.contains(where: { names.contains($0.key) }) {
      let per = try c.object(names)
      let corner = { (key: String) in try per[key].map(concentricCorner) ?? .concentric }
      return ConcentricCorners(
        topLeading: try corner("topLeading"), topTrailing: try corner("topTrailing"),
        bottomTrailing: try corner("bottomTrailing"), bottomLeading: try corner("bottomLeading"))
    }
    return ConcentricCorners(try concentricCorner(c))
  }

  static func concentricCorner(_ node: JSONNode) throws -> ConcentricCorner {
    switch node.value {
    case .number(let v): return .fixed(v)
    case .string: return try node.choice(["concentric": .concentric], what: "corner")
    default:
      let o = try node.fields(SceneFormat.concentricMinimumFields)
      return .concentric(minimum: try o.required("minimum").number())
    }
  }

  static func containerShape(_ node: JSONNode) throws -> ContainerShape {
    let o = try node.fields(SceneFormat.containerShapeFields)
    return ContainerShape(frame: try rect(o.required("frame")), cornerRadius: try o.required("cornerRadius").number())
  }

  static func layer(_ node: JSONNode) throws -> Layer {
    guard case .object(let members) = node.value else {
      throw node.fail("expected an object, found \(node.value.kind)")
    }
    let typeNames = SceneFormat.LayerTypeName.allCases.map(\.rawValue)
    guard let typeValue = members.first(where: { $0.key == "type" })?.value else {
      throw node.fail("missing the field \"type\" (\(typeNames.joined(separator: ", ")))")
    }
    let typeNode = JSONNode(value: typeValue, path: node.child("type"))
    let typeName = try typeNode.string()
    guard let name = SceneFormat.LayerTypeName(rawValue: typeName) else {
      throw typeNode.fail(
        "unknown layer type \"\(JSONNode.shortened(typeName))\"; use one of \(typeNames.joined(separator: ", "))")
    }
    let spec = SceneFormat.spec(name)
    let o = try node.object(spec.keys)
    for field in spec.fields where field.required { _ = try o.required(field.name) }
    try o.check(needsOneOf: spec.needsOneOf, spec.needsOneOfMessage)
    switch name {
    case .image:
      var layer = ImageLayer(source: try o.required("source").filePath(), frame: try rect(o.required("frame")))
      if let mode: ContentMode = try o.choice("contentMode", in: spec.fields, what: "content mode") {
        layer.contentMode = mode
      }
      if let clip = o["clipShape"] { layer.clipShape = try shape(clip) }
      if let e = o["backgroundExtensionEffect"] { layer.backgroundExtension = try backgroundExtension(e) }
      return .image(layer)
    case .shape:
      let content = try o["content"].map(Self.content)
      let (frame, fit) = try frame(o.required("frame"), fitting: content)
      var layer = ShapeLayer(
        shape: try o["shape"].map(shape) ?? .rect, frame: frame, fill: try fill(o.required("fill")),
        containerShape: try o["containerShape"].map(containerShape), content: content)
      layer.fit = fit
      return .shape(layer)
    case .material:
      let content = try o["content"].map(Self.content)
      let (frame, fit) = try frame(o.required("frame"), fitting: content)
      let material: Material? = try o.choice("material", in: spec.fields, what: "material")
      var layer = MaterialLayer(
        material: material ?? .regular, shape: try o["shape"].map(shape) ?? .rect, frame: frame,
        containerShape: try o["containerShape"].map(containerShape), content: content)
      layer.fit = fit
      return .material(layer)
    case .glass:
      return .glass(try glassLayer(o))
    case .text:
      let text = try text(o)
      let (frame, fit) = try frame(o.required("frame"), fitting: GlassContent(text, padding: 0))
      var layer = TextLayer(text, frame: frame, opacity: try o["opacity"]?.number() ?? 1)
      layer.fit = fit
      return .text(layer)
    case .button:
      var label = TextContent(try o["title"]?.string() ?? "")
      label.systemImage = try o["systemImage"]?.string()
      if let font = o["font"] { label.font = try Self.font(font) }
      if let weight: FontWeight = try o.choice("fontWeight", in: spec.fields, what: "font weight") {
        label.font.weight = weight
      }
      if let style = o["foregroundStyle"] { label.foregroundStyle = try fill(style) }
      let style: ButtonStyle = try o.choice("buttonStyle", in: spec.fields, what: "button style") ?? .glass
      // The label's fields sit on the button, its text as the title.
      do {
        try SceneValidator().text("", label)
      } catch let error as GlassError {
        let field = error.jsonPath == ".text" ? "title" : String((error.jsonPath ?? "").dropFirst())
        throw GlassError(
          error.code, error.message, cause: error.cause, at: GlassError.Location(jsonPath: node.child(field)),
          hint: error.hint)
      }
      let (frame, fit) = try frame(
        o.required("frame"), fittingWith: ButtonStyle.horizontalPadding, ButtonStyle.verticalPadding)
      var layer = style.glassLayer(
        label, x: frame.x, y: frame.y, width: fit?.width == true ? nil : frame.width,
        height: fit?.height == true ? nil : frame.height, tint: try o["tint"].map(color))
      layer.fit = fit
      layer.fit?.fieldsPath = ""
      return .glass(layer)
    case .glassContainer:
      return .container(
        GlassContainer(
          spacing: try o["spacing"]?.number() ?? 0,
          glass: try o.required("glass").array().map { try glassLayer($0.fields(SceneFormat.glassLayerFields)) },
          containerShape: try o["containerShape"].map(containerShape)))
    }
  }

  /// A glass layer's fields (`SceneFormat.glassLayerFields`), read from `o`
  /// whose keys are checked.
  static func glassLayer(_ o: JSONObject) throws -> GlassLayer {
    let content = try o["content"].map(Self.content)
    let (frame, fit) = try frame(o.required("frame"), fitting: content)
    var layer = GlassLayer(frame: frame, content: content)
    layer.fit = fit
    if let g = o["glass"] { layer.glass = try glass(g) }
    if let s = o["shape"] { layer.shape = try shape(s) }
    if let optics = o["optics"] { layer.optics = try Self.optics(optics) }
    layer.containerShape = try o["containerShape"].map(containerShape)
    layer.unionID = try o["glassEffectUnion"]?.string()
    layer.effectID = try o["glassEffectID"]?.string()
    layer.effectTransition = try o.choice(
      "glassEffectTransition", in: SceneFormat.glassLayerFields, what: "glass effect transition")
    return layer
  }

  /// `{"leading", "trailing", "top", "bottom", "sigma"}`, in points.
  static func backgroundExtension(_ node: JSONNode) throws -> BackgroundExtension {
    let x = try node.fields(SceneFormat.backgroundExtensionFields)
    return BackgroundExtension(
      leading: try x["leading"]?.number() ?? 0, trailing: try x["trailing"]?.number() ?? 0,
      top: try x["top"]?.number() ?? 0, bottom: try x["bottom"]?.number() ?? 0,
      sigma: try x["sigma"]?.number() ?? BackgroundExtension.defaultSigma)
  }

  /// Optical parameters by name (`GlassOptics.parameterTable`).
  static func optics(_ node: JSONNode) throws -> GlassOptics.Overrides {
    let names = GlassOptics.parameterTable.map(\.name)
    let values = try node.object(names)
    var optics = GlassOptics.Overrides()
    for name in names {
      if let value = values[name] { optics[name] = try value.number() }
    }
    return optics
  }

  static func glass(_ node: JSONNode) throws -> Glass {
    let fields = SceneFormat.glassFields
    if case .string = node.value {
      return Glass(try node.choice(named(SceneFormat.names(fields, "variant")), what: "glass variant"))
    }
    let o = try node.fields(fields)
    var glass = Glass(try o.choice("variant", in: fields, what: "glass variant") ?? .regular)
    glass.tint = try o["tint"].map(color)
    glass.isInteractive = try o["interactive"]?.bool() ?? false
    glass.isPressed = try o["pressed"]?.bool() ?? false
    if let t = o["touchPoint"] {
      let p = try t.fields(SceneFormat.objectFields(fields, "touchPoint"))
      glass.touchPoint = PointOffset(x: try p.required("x").number(), y: try p.required("y").number())
    }
    return glass
  }

  /// The model's values of `names` (the table's), by name.
  static func named<T: RawRepresentable>(_ names: [String]) -> [String: T] where T.RawValue == String {
    Dictionary(
      uniqueKeysWithValues: names.map { name in
        guard let value = T(rawValue: name) else {
          preconditionFailure("SceneFormat lists \(name), which the model lacks")
        }
        return (name, value)
      })
  }
}

extension JSONNode {
  /// The object's members, its keys those of `fields` and its required fields present.
  func fields(_ fields: [SceneFormat.Field]) throws -> JSONObject {
    let o = try object(fields.map(\.name))
    for field in fields where field.required { _ = try o.required(field.name) }
    return o
  }
}

extension JSONObject {
  /// A field whose value is one of the names `fields` gives it, as the model's
  /// value (nil: left out); `what` names it in an error.
  func choice<T: RawRepresentable>(_ name: String, in fields: [SceneFormat.Field], what: String) throws -> T?
  where T.RawValue == String {
    guard let node = self[name] else { return nil }
    let values: [String: T] = Scene.named(SceneFormat.names(fields, name))
    return try node.choice(values, what: what)
  }

  /// At least one of `names` written, else `message` at the object.
  func check(needsOneOf names: [String], _ message: String) throws {
    guard !names.isEmpty, !names.contains(where: { self[$0] != nil }) else { return }
    throw node.fail(message)
  }
}

// MARK: - Writing

extension Scene {
  /// The scene as JSON text in format version 1; reading it back gives this value.
  public var json: String { jsonValue.formatted() + "\n" }

  /// The scene as a JSON value.
  public var jsonValue: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("version", .number(Double(Scene.formatVersion))),
      ("size", .object([("width", .number(size.width)), ("height", .number(size.height))])),
      ("scale", .number(Double(scale))),
    ]
    switch background {
    case .fill(let fill): members.append(("background", Self.encode(fill)))
    case .image(let path, let mode):
      members.append(("background", .object([("image", .string(path)), ("contentMode", .string(mode.rawValue))])))
    }
    members.append(("layers", .array(layers.map(Self.encode))))
    if let body { members.append(("body", Self.encode(body))) }
    if safeAreaInsets != EdgeInsets() { members.append(("safeAreaInsets", Self.encode(safeAreaInsets))) }
    if !environment.isDefault {
      let base = EnvironmentValues()
      var settings: [(key: String, value: JSONValue)] = []
      for field in SceneFormat.environmentFields {
        guard let value = environment.value(of: field.name), value != base.value(of: field.name) else { continue }
        settings.append((field.name, value == "true" || value == "false" ? .bool(value == "true") : .string(value)))
      }
      members.append(("environment", .object(settings)))
    }
    if !states.isEmpty {
      members.append(
        (
          "states",
          .object(
            states.map { state in
              (
                state.name,
                .object(
                  [("layers", .array(state.layers.map(Self.encode)))]
                    + (state.body.map { [("body", Self.encode($0))] } ?? [])
                )
              )
            })
        ))
    }
    if let transition {
      members.append(
        (
          "transition",
          .object([
            ("from", .string(transition.from)), ("to", .string(transition.to)),
            ("animation", Self.encode(transition.animation)),
          ])
        ))
    }
    return .object(members)
  }

  static func encode(_ curve: TimingCurve) -> JSONValue {
    switch curve {
    case .spring(let duration, let bounce):
      return .object([("type", .string("spring")), ("duration", .number(duration)), ("bounce", .number(bounce))])
    case .linear(let duration):
      return .object([("type", .string("linear")), ("duration", .number(duration))])
    case .bezier(let duration, let x1, let y1, let x2, let y2):
      return .object([
        ("type", .string("timingCurve")), ("duration", .number(duration)), ("x1", .number(x1)), ("y1", .number(y1)),
        ("x2", .number(x2)), ("y2", .number(y2)),
      ])
    }
  }

  static func encode(_ color: Color) -> JSONValue {
    if let appearances = color.appearances {
      var members: [(key: String, value: JSONValue)] = [("light", encode(color.plain))]
      members.append(("dark", encode(appearances.dark?.color ?? color.plain)))
      if let c = appearances.increasedContrast { members.append(("increasedContrastLight", encode(c.color))) }
      if let c = appearances.darkIncreasedContrast { members.append(("increasedContrastDark", encode(c.color))) }
      return .object(members)
    }
    return .object([
      ("red", .number(color.red)), ("green", .number(color.green)), ("blue", .number(color.blue)),
      ("opacity", .number(color.opacity)),
    ])
  }

  static func encode(_ point: UnitPoint) -> JSONValue {
    .object([("x", .number(point.x)), ("y", .number(point.y))])
  }

  static func encode(_ gradient: Gradient) -> (key: String, value: JSONValue) {
    (
      "stops",
      .array(
        gradient.stops.map { .object([("color", encode($0.color)), ("location", .number($0.location))]) })
    )
  }

  static func encode(_ fill: Fill) -> JSONValue {
    switch fill {
    case .color(let color): return encode(color)
    case .linearGradient(let gradient, let start, let end):
      return .object([
        ("linearGradient", .object([encode(gradient), ("startPoint", encode(start)), ("endPoint", encode(end))]))
      ])
    case .radialGradient(let gradient, let center, let r0, let r1):
      return .object([
        (
          "radialGradient",
          .object([
            encode(gradient), ("center", encode(center)), ("startRadius", .number(r0)), ("endRadius", .number(r1)),
          ])
        )
      ])
    }
  }

  static func encode(_ rect: PointRect) -> JSONValue {
    .object([
      ("x", .number(rect.x)), ("y", .number(rect.y)), ("width", .number(rect.width)), ("height", .number(rect.height)),
    ])
  }

  /// A frame whose sides `fit` sizes to the content are left out, as they were
  /// written; `fitPadding` when its padding is not the content's (`padding`).
  static func encode(_ rect: PointRect, fit: ContentFit?, padding: Double) -> JSONValue {
    guard let fit else { return encode(rect) }
    var members: [(key: String, value: JSONValue)] = [("x", .number(rect.x)), ("y", .number(rect.y))]
    if !fit.width { members.append(("width", .number(rect.width))) }
    if !fit.height { members.append(("height", .number(rect.height))) }
    if fit.horizontalPadding != padding || fit.verticalPadding != padding {
      members.append(
        (
          "fitPadding",
          .object([("horizontal", .number(fit.horizontalPadding)), ("vertical", .number(fit.verticalPadding))])
        ))
    }
    return .object(members)
  }

  static func encode(_ corner: ConcentricCorner) -> JSONValue {
    switch corner {
    case .fixed(let r): return .number(r)
    case .concentric(let minimum): return .object([("minimum", .number(minimum))])
    }
  }

  static func encode(_ shape: Shape) -> JSONValue {
    switch shape {
    case .rect: return .string("rect")
    case .capsule: return .string("capsule")
    case .circle: return .string("circle")
    case .ellipse: return .string("ellipse")
    case .roundedRect(let r, let style):
      return .object([
        ("type", .string("roundedRect")), ("cornerRadius", .number(r)), ("style", .string(style.rawValue)),
      ])
    case .unevenRoundedRect(let r, let style):
      return .object([
        ("type", .string("unevenRoundedRect")), ("topLeading", .number(r.topLeading)),
        ("topTrailing", .number(r.topTrailing)), ("bottomTrailing", .number(r.bottomTrailing)),
        ("bottomLeading", .number(r.bottomLeading)), ("style", .string(style.rawValue)),
      ])
    case .concentric(let corners, let isUniform):
      return .object([
        ("type", .string("concentricRectangle")),
        (
          "corners",
          .object([
            ("topLeading", encode(corners.topLeading)), ("topTrailing", encode(corners.topTrailing)),
            ("bottomTrailing", encode(corners.bottomTrailing)), ("bottomLeading", encode(corners.bottomLeading)),
          ])
        ),
        ("isUniform", .bool(isUniform)),
      ])
    }
  }

  static func encode(_ container: ContainerShape?) -> [(key: String, value: JSONValue)] {
    guard let container else { return [] }
    return [
      (
        "containerShape",
        .object([("frame", encode(container.frame)), ("cornerRadius", .number(container.cornerRadius))])
      )
    ]
  }

  static func encode(_ glass: Glass) -> JSONValue {
    var g: [(key: String, value: JSONValue)] = [("variant", .string(glass.variant.rawValue))]
    if let tint = glass.tint { g.append(("tint", encode(tint))) }
    g.append(("interactive", .bool(glass.isInteractive)))
    g.append(("pressed", .bool(glass.isPressed)))
    if let t = glass.touchPoint { g.append(("touchPoint", .object([("x", .number(t.x)), ("y", .number(t.y))]))) }
    return .object(g)
  }

  static func encode(_ optics: GlassOptics.Overrides) -> JSONValue {
    let names = GlassOptics.parameterTable.map(\.name).filter { optics[$0] != nil }
    return .object(names.map { ($0, .number(optics[$0] ?? 0)) })
  }

  static func encode(_ e: BackgroundExtension) -> JSONValue {
    .object([
      ("leading", .number(e.leading)), ("trailing", .number(e.trailing)), ("top", .number(e.top)),
      ("bottom", .number(e.bottom)), ("sigma", .number(e.sigma)),
    ])
  }

  static func encode(_ font: Font) -> JSONValue {
    if let style = font.relativeTo, font == .system(style) { return .string(style.rawValue) }
    var members: [(key: String, value: JSONValue)] = [
      ("size", .number(font.size)), ("weight", .string(font.weight.rawValue)),
    ]
    switch font.source {
    case .system: break
    case .family(let family): members.append(("family", .string(family)))
    case .file(let path): members.append(("file", .string(path)))
    }
    if let style = font.relativeTo { members.append(("relativeTo", .string(style.rawValue))) }
    return .object(members)
  }

  static func encode(_ glass: GlassLayer, typed: Bool) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = typed ? [("type", .string("glass"))] : []
    members += [
      ("glass", encode(glass.glass)), ("shape", encode(glass.shape)),
      ("frame", encode(glass.frame, fit: glass.fit, padding: glass.content?.padding ?? 0)),
    ]
    members += encode(glass.content)
    if !glass.optics.isEmpty { members.append(("optics", encode(glass.optics))) }
    members += encode(glass.containerShape)
    if let id = glass.unionID { members.append(("glassEffectUnion", .string(id))) }
    if let id = glass.effectID { members.append(("glassEffectID", .string(id))) }
    if let t = glass.effectTransition { members.append(("glassEffectTransition", .string(t.rawValue))) }
    return .object(members)
  }

  /// Text content's fields.
  static func encode(_ text: TextContent) -> [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = [("text", .string(text.string))]
    if let icon = text.systemImage { members.append(("systemImage", .string(icon))) }
    members.append(("font", encode(text.font)))
    if let style = text.foregroundStyle { members.append(("foregroundStyle", encode(style))) }
    if let limit = text.lineLimit { members.append(("lineLimit", .number(Double(limit)))) }
    members.append(("multilineTextAlignment", .string(text.alignment.rawValue)))
    return members
  }

  static func encode(_ content: GlassContent?) -> [(key: String, value: JSONValue)] {
    guard let content else { return [] }
    var members: [(key: String, value: JSONValue)]
    switch content.kind {
    case .image(let path): members = [("image", .string(path))]
    case .text(let text): members = encode(text)
    }
    members.append(("padding", .number(content.padding)))
    if content.opacity != 1 { members.append(("opacity", .number(content.opacity))) }
    return [("content", .object(members))]
  }

  static func encode(_ layer: Layer) -> JSONValue {
    switch layer {
    case .image(let l):
      var members: [(key: String, value: JSONValue)] = [
        ("type", .string("image")), ("source", .string(l.source)), ("frame", encode(l.frame)),
        ("contentMode", .string(l.contentMode.rawValue)), ("clipShape", encode(l.clipShape)),
      ]
      if let e = l.backgroundExtension { members.append(("backgroundExtensionEffect", encode(e))) }
      return .object(members)
    case .shape(let l):
      return .object(
        [
          ("type", .string("shape")), ("shape", encode(l.shape)),
          ("frame", encode(l.frame, fit: l.fit, padding: l.content?.padding ?? 0)), ("fill", encode(l.fill)),
        ]
          + encode(l.containerShape) + encode(l.content))
    case .material(let l):
      return .object(
        [
          ("type", .string("material")), ("material", .string(l.material.rawValue)), ("shape", encode(l.shape)),
          ("frame", encode(l.frame, fit: l.fit, padding: l.content?.padding ?? 0)),
        ] + encode(l.containerShape) + encode(l.content))
    case .text(let l):
      var members: [(key: String, value: JSONValue)] = [
        ("type", .string("text")), ("frame", encode(l.frame, fit: l.fit, padding: 0)),
      ]
      if l.opacity != 1 { members.append(("opacity", .number(l.opacity))) }
      return .object(members + encode(l.text))
    case .glass(let l):
      return encode(l, typed: true)
    case .container(let c):
      return .object(
        [
          ("type", .string("glassContainer")), ("spacing", .number(c.spacing)),
          ("glass", .array(c.glass.map { encode($0, typed: false) })),
        ] + encode(c.containerShape))
    }
  }
}

extension TimingCurve {
  /// A curve as the scene format writes it: a name (`"smooth"`, `"snappy"`,
  /// `"bouncy"`, `"spring"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`, `"linear"`) or
  /// an object with a `type` and its `duration`, `bounce` or control points
  /// (`{"type": "spring", "duration": 0.5, "bounce": 0.2}`). Not validated.
  public init(json value: JSONValue) throws {
    self = try Scene.timingCurve(JSONNode(value: value, path: ""))
  }
}
