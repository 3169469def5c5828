import ArgumentParser
import Foundation
import GLESGlass

struct LayoutCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout",
    abstract: "Print a scene's view tree laid out: each view's kind, frame in points and path in the file.",
    discussion: """
      Lays the scene's "body" out as render does (with --state, that state's) and
      prints one line per view, parents before children, indented by depth: its kind
      (every layout modifier is a view of its own: padding, frame, ...), its frame in
      points (x, y, width, height; edges snapped to device pixels) and its JSON path
      in the file. --json prints one JSON document instead (docs/layout.md gives its
      shape). --outline FILE also renders the scene and draws each frame over it as a
      1-pixel outline on the frame's edge pixels, coloured by depth (red, orange,
      green, cyan, blue, purple, then again), as a view debugger shows them.

      A scene (or state) with no view tree prints that it has none and lists no
      views, exit 0 (one whose body is only absolute layers says so); --outline
      then writes the plain render. A view laid out beyond the format's range is an
      error at its path, as validate says.

      Examples:
        glass-gpu layout Assets/scenes/signin.json
        glass-gpu layout scene.json --state expanded --json
        glass-gpu layout scene.json --outline out/outline.png --backend cpu --scale 3
      """)

  @Argument(help: "The scene file (JSON, format version 1; images are found relative to it).")
  var scene: String

  @Option(help: "Lay out this state of the scene (its \"states\") instead of the scene's own body.")
  var state: String?

  @Option(help: environmentHelp)
  var environment: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Lay out (and render) at this many pixels per point, instead of the scene's scale.", valueName: "1|2|3"))
  var scale: Int?

  @Flag(help: "Print one JSON document instead of text (its shape: docs/layout.md).")
  var json = false

  @Option(
    help: ArgumentHelp(
      "Also render the scene and write it here (.png, .jpg or .webp) with every frame outlined.", valueName: "image"))
  var outline: String?

  @Option(help: "The backend of --outline's render: gpu, cpu, or auto (GPU, else CPU, and says so).")
  var backend: BackendChoice = .auto

  @Option(parsing: .unconditional, help: "Refuse images and canvases over this many pixels.")
  var maxPixels: Int = PNGCodec.defaultMaxPixels

  func validate() throws {
    if let scale, ![1, 2, 3].contains(scale) { throw ValidationError("--scale is \(scale); give 1, 2 or 3") }
    try checkMaxPixels(maxPixels)
    try checkEnvironment(environment)
  }

  /// A scene read and laid out.
  struct Loaded {
    var file: SceneFile
    var images: SceneImages
    /// The states of the whole file that have a view tree (to name when the scene has none).
    var statesWithBodies: [String]
    /// Whether the scene laid out (or its state) has a view tree.
    var hasBody: Bool
    var views: [ResolvedView]
    var warnings: [LayoutWarning]
  }

  func run() throws {
    try reportingErrors {
      let loaded: Loaded
      if let outline {
        try checkNotStandardOutput(outline)
        var result: Loaded?
        try renderToFile(
          output: outline, backend: backend, encoding: ImageEncoding(), printTimings: false,
          load: {
            let loaded = try load()
            result = loaded
            let prepared = try naming {
              try Renderer.prepare(loaded.file.scene, images: loaded.images, depth: .eight, maxPixels: maxPixels)
            }
            return (loaded, prepared)
          },
          inputs: { input in
            let file = input.0.file
            return [file.path] + file.scene.imageReferences.map { file.resolve($0.path) }
          },
          render: { renderer, input, phases in
            let image = try naming { try renderer.render(input.1, timings: &phases) }
            return ViewOutline.draw(input.0.views, on: image, scale: Double(input.0.file.scene.scale))
          })
        guard let result else { return }
        loaded = result
      } else {
        loaded = try load()
      }
      for warning in loaded.images.warnings { report("warning: \(warning.path): \(warning.message)") }
      for warning in loaded.warnings { report("warning: \(scene): \(warning)") }
      print(json ? jsonDocument(loaded) : text(loaded), terminator: "")
    }
  }

  /// Runs `body`, placing its error in the scene file.
  func naming<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as GlassError {
      throw error.located(file: scene)
    }
  }

  /// The scene file (the state --state names, at --scale), its images' headers,
  /// and its view tree laid out, as `SceneOptions.load` and `Renderer.prepare` do.
  func load() throws -> Loaded {
    var file = try SceneFile(path: scene)
    file.scene.environment = try applyingEnvironment(environment, to: file.scene.environment)
    let statesWithBodies = file.scene.states.filter { $0.body != nil }.map(\.name)
    if let state { try naming { file.scene = try file.scene.state(state) } }
    if let scale {
      file.scene.scale = scale
      do {
        try file.scene.validate()
      } catch let error as GlassError {
        throw file.locate(error.rephrased("at --scale \(scale), \(error.message)"))
      }
    }
    try naming { try PNGCodec.checkPixelLimit(file.scene.pixelSize, maxPixels: maxPixels, what: "the canvas") }
    let images = try file.loadImages(maxPixels: maxPixels)
    var (views, warnings) = try naming { try file.scene.resolvedLayout(images: images) }
    if let state {
      // Laid out as a scene of its own, whose body is at "body"; in the file it is the state's.
      for index in views.indices { views[index].path = "states.\(state)." + views[index].path }
      for index in warnings.indices { warnings[index].path = "states.\(state)." + warnings[index].path }
    }
    return Loaded(
      file: file, images: images, statesWithBodies: statesWithBodies, hasBody: file.scene.body != nil, views: views,
      warnings: warnings)
  }

  /// Refuses an outline written where the tree is printed (`/dev/stdout`, or the
  /// file standard output is redirected to): the two would be mixed.
  func checkNotStandardOutput(_ path: String) throws {
    var out = stat()
    var target = stat()
    var null = stat()
    guard fstat(STDOUT_FILENO, &out) == 0, stat(path, &target) == 0 else { return }
    let isNull = stat("/dev/null", &null) == 0 && null.st_dev == target.st_dev && null.st_ino == target.st_ino
    guard out.st_dev == target.st_dev && out.st_ino == target.st_ino && !isNull else { return }
    throw GlassError(
      .outputFailure,
      "--outline \(path) is where the tree is printed (standard output); write the outline to a file of its own")
  }

  // MARK: Text

  /// The tree as aligned columns: kind (indented two spaces per level), x, y,
  /// width, height, path; or a line saying there is no view tree.
  func text(_ loaded: Loaded) -> String {
    let scene = loaded.file.scene
    let insets = scene.safeAreaInsets
    let edges = [
      ("top", insets.top), ("leading", insets.leading), ("bottom", insets.bottom), ("trailing", insets.trailing),
    ]
    .filter { $0.1 != 0 }.map { "\($0.0) \(ParameterSpec.format($0.1))" }
    let header =
      "\(self.scene)\(state.map { " state \($0)" } ?? ""): "
      + "\(ParameterSpec.format(scene.size.width))x\(ParameterSpec.format(scene.size.height)) pt at \(scene.scale)x, "
      + "safe area \(edges.isEmpty ? "none" : edges.joined(separator: ", "))"
    guard !loaded.views.isEmpty else {
      guard !loaded.hasBody else {
        // A body of absolute layers (`"type": "layers"`) takes no part in layout.
        return "\(header); the body is absolute layers (\"type\": \"layers\"), drawn at their own frames: "
          + "no view to lay out\n"
      }
      var line = "\(header); no view tree (no \"body\"), nothing to lay out"
      if state == nil && !loaded.statesWithBodies.isEmpty {
        line += "; the states \(loaded.statesWithBodies.joined(separator: ", ")) have one: give --state"
      }
      return line + "\n"
    }
    let rows =
      [["kind", "x", "y", "width", "height", "path"]]
      + loaded.views.map { view in
        [String(repeating: "  ", count: view.depth) + view.kind]
          + [view.frame.x, view.frame.y, view.frame.width, view.frame.height].map(Self.points) + [view.path]
      }
    let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
    func pad(_ s: String, _ width: Int, left: Bool) -> String {
      let fill = String(repeating: " ", count: max(0, width - s.count))
      return left ? s + fill : fill + s
    }
    var out = "\(header); \(count(loaded.views.count, "view"))\n"
    for row in rows {
      out += pad(row[0], widths[0], left: true)
      for column in 1..<5 { out += "  " + pad(row[column], widths[column], left: false) }
      out += "  " + row[5] + "\n"
    }
    return out
  }

  /// A length in points for the text table: whole, else two decimals (a third of
  /// a point at 3x is `0.33`); `inf`, `-inf` or `nan` when it is not finite.
  static func points(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
    if value == value.rounded() { return ParameterSpec.format(value) }
    var s = String(format: "%.2f", value)
    while s.hasSuffix("0") { s.removeLast() }
    return s
  }

  // MARK: JSON

  /// The JSON document: the canvas and the views, one view per line, keys in a
  /// fixed order (docs/layout.md).
  func jsonDocument(_ loaded: Loaded) -> String {
    let scene = loaded.file.scene
    // A frame edge that is not a finite number (a view at infinity) is null,
    // and layout warns of it: JSON has no infinity.
    func number(_ v: Double) -> JSONValue { v.isFinite ? .number(v) : .null }
    let members: [(String, JSONValue)] = [
      ("scene", .string(self.scene)),
      ("state", state.map { .string($0) } ?? .null),
      ("size", .object([("width", number(scene.size.width)), ("height", number(scene.size.height))])),
      ("scale", number(Double(scene.scale))),
      (
        "safeAreaInsets",
        .object([
          ("top", number(scene.safeAreaInsets.top)), ("leading", number(scene.safeAreaInsets.leading)),
          ("bottom", number(scene.safeAreaInsets.bottom)), ("trailing", number(scene.safeAreaInsets.trailing)),
        ])
      ),
    ]
    let views = loaded.views.map { view -> JSONValue in
      .object([
        ("kind", .string(view.kind)), ("path", .string(view.path)), ("depth", number(Double(view.depth))),
        (
          "frame",
          .object([
            ("x", number(view.frame.x)), ("y", number(view.frame.y)), ("width", number(view.frame.width)),
            ("height", number(view.frame.height)),
          ])
        ),
      ])
    }
    var out = "{\n"
    for (key, value) in members { out += "  \(Self.line(.string(key))): \(Self.line(value)),\n" }
    out += "  \"views\": ["
    out += views.isEmpty ? "]\n" : "\n" + views.map { "    " + Self.line($0) }.joined(separator: ",\n") + "\n  ]\n"
    return out + "}\n"
  }

  /// A JSON value on one line, with a space after each colon and comma.
  static func line(_ value: JSONValue) -> String {
    switch value {
    case .object(let members):
      return "{" + members.map { line(.string($0.key)) + ": " + line($0.value) }.joined(separator: ", ") + "}"
    case .array(let items): return "[" + items.map(line).joined(separator: ", ") + "]"
    case .null, .bool, .number, .string: return value.formatted()
    }
  }
}
