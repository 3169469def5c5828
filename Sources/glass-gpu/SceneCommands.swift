import ArgumentParser
import Foundation
import GLESGlass

/// Options every command that reads a scene shares.
struct SceneOptions: ParsableArguments {
  @Argument(help: "The scene file (JSON, format version 1; images are found relative to it).")
  var scene: String

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Render at this many pixels per point, instead of the scene's scale.", valueName: "1|2|3"))
  var scale: Int?

  @Option(parsing: .unconditional, help: "Refuse images and canvases over this many pixels.")
  var maxPixels: Int = PNGCodec.defaultMaxPixels

  @Option(help: "Render this state of the scene (its \"states\").")
  var state: String?

  @Option(
    parsing: .unconditional, help: ArgumentHelp("Render the transition at this time, in seconds.", valueName: "seconds")
  )
  var time: Double?

  @Option(help: "The transition's first state (default: the scene's \"transition\").")
  var from: String?

  @Option(help: "The transition's last state (default: the scene's \"transition\").")
  var to: String?

  @Option(
    help: ArgumentHelp(
      "The timing curve: smooth, snappy, bouncy, spring, easeIn, easeOut, easeInOut, linear, or a JSON object "
        + "such as '{\"type\": \"spring\", \"duration\": 0.6, \"bounce\": 0.2}' (default: the scene's, else "
        + "spring(duration: 0.5, bounce: 0)).", valueName: "curve"))
  var animation: String?

  @Option(help: environmentHelp)
  var environment: String?

  func validate() throws {
    if let scale, ![1, 2, 3].contains(scale) { throw ValidationError("--scale is \(scale); give 1, 2 or 3") }
    try checkMaxPixels(maxPixels)
    if state != nil && (time != nil || from != nil || to != nil) {
      throw ValidationError(
        "--state renders one state; --time, --from and --to render a transition: give one or the other")
    }
    if let time, !time.isFinite || time < 0 {
      throw ValidationError("--time is \(ParameterSpec.format(time)); give a time in seconds, 0 or more")
    }
    if (from == nil) != (to == nil) { throw ValidationError("give --from and --to together") }
    try checkEnvironment(environment)
  }

  /// The transition --from, --to and --animation name, else the scene's own.
  func transition(of scene: Scene) throws -> SceneTransition {
    var transition = scene.transition
    if let from, let to {
      // Named by the option the user wrote, not by the scene's "transition".
      for (option, name) in [("--from", from), ("--to", to)] where !scene.states.contains(where: { $0.name == name }) {
        let known = scene.states.map(\.name)
        let shown = name.count > 64 ? String(name.prefix(64)) + "…" : name
        throw GlassError(
          .invalidParameter,
          "\(option): no state \"\(shown)\"; "
            + (known.isEmpty ? "the scene has no states" : "its states are \(known.joined(separator: ", "))"))
      }
      transition = SceneTransition(from: from, to: to, animation: scene.transition?.animation ?? .default)
    }
    guard var transition else {
      throw GlassError(
        .invalidParameter,
        "the scene has no \"transition\"; name its states with --from and --to",
        at: GlassError.Location(jsonPath: "transition"))
    }
    if let animation {
      let value: JSONValue
      do {
        value = animation.hasPrefix("{") ? try JSONValue.parse(Array(animation.utf8)) : .string(animation)
      } catch {
        throw GlassError(.invalidParameter, "--animation: \(error.message); give a curve's name or a JSON object")
      }
      do {
        transition.animation = try TimingCurve(json: value)
        try transition.animation.validate(at: "animation")
      } catch let error as GlassError {
        throw GlassError(.invalidParameter, "--animation: \(error.jsonPath.map { "\($0): " } ?? "")\(error.message)")
      }
    }
    return transition
  }

  /// The scene at the moment --state or --time names (the scene as it is when
  /// neither is given).
  func moment(of scene: Scene) throws -> Scene {
    if let state { return try scene.state(state) }
    if let time { return try scene.frame(at: time, of: transition(of: scene)) }
    return scene
  }

  /// Runs `body`, placing its error in the scene file.
  func naming<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as GlassError {
      throw error.located(file: scene)
    }
  }

  /// The scene file with --scale applied, and its image files read (headers
  /// checked; pixels are decoded when `prepare` fits them).
  func load() throws -> (file: SceneFile, images: SceneImages) {
    var file = try SceneFile(path: scene)
    if let scale {
      file.scene.scale = scale
      do {
        try file.scene.validate()
      } catch let error as GlassError {
        throw file.locate(error.rephrased("at --scale \(scale), \(error.message)"))
      }
    }
    file.scene.environment = try applyingEnvironment(environment, to: file.scene.environment)
    // A moment between two states interpolates what their view trees lower to.
    if time != nil { file = try file.laidOut(maxPixels: maxPixels) }
    try naming { file.scene = try moment(of: file.scene) }
    try naming {
      try PNGCodec.checkPixelLimit(file.scene.pixelSize, maxPixels: maxPixels, what: "the canvas")
    }
    return (file, try file.loadImages(maxPixels: maxPixels))
  }

  /// The scene file read and everything a render does before the backend runs
  /// (`Renderer.prepare`); libpng's warnings about its images are printed.
  func prepare(depth: RGBAImage.Depth) throws -> (file: SceneFile, prepared: PreparedRender) {
    let (file, images) = try load()
    let prepared = try naming {
      try Renderer.prepare(file.scene, images: images, depth: depth, maxPixels: maxPixels)
    }
    for warning in images.warnings { report("warning: \(warning.path): \(warning.message)") }
    return (file, prepared)
  }
}

/// `environment` with the settings of `--environment` applied (nil: as it is);
/// errors name the option.
func applyingEnvironment(_ settings: String?, to environment: EnvironmentValues) throws -> EnvironmentValues {
  guard let settings else { return environment }
  do {
    return try environment.applying(settings: settings)
  } catch let error as GlassError {
    throw GlassError(.invalidParameter, "--environment: \(error.message)")
  }
}

/// Refuses, before anything is loaded, `--environment` settings that name no
/// setting or value (a usage error): applied to the default environment, as
/// any scene's would fail alike.
func checkEnvironment(_ settings: String?) throws {
  guard let settings else { return }
  do {
    _ = try EnvironmentValues().applying(settings: settings)
  } catch let error as GlassError {
    throw ValidationError("--environment: \(error.message)")
  }
}

/// The help of `--environment`.
let environmentHelp = ArgumentHelp(
  "Render in this environment, over the scene's own: comma-separated settings such as "
    + "colorScheme=dark,accessibilityIncreaseContrast=true,layoutDirection=rightToLeft,dynamicTypeSize=accessibility3 "
    + "(docs/scene-format.md, Environment).", valueName: "settings")

/// `1 layer`, `2 layers`, `3 passes`.
func count(_ n: Int, _ noun: String) -> String {
  "\(n) \(noun)\(n == 1 ? "" : noun.hasSuffix("s") ? "es" : "s")"
}

struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a scene file to a PNG, JPEG or WebP.",
    discussion: """
      The scene format is in docs/scene-format.md. Geometry is in points; the
      output is the canvas size times the scale, in pixels. The output's extension
      picks its format (.png, .jpg or .jpeg, .webp), or --format does; PNG is
      lossless at 8 or 16 bits, JPEG (4:2:0, no transparency) and WebP lossy at 8
      bits and --quality. Every format is tagged sRGB. In a scene with states,
      --state renders one of them, and --time the moment of the transition that
      many seconds in (from --from to --to, else the scene's "transition", along
      --animation, else the scene's timing curve).

      Examples:
        glass-gpu render Assets/scenes/landmarks.json -o out/landmarks.png
        glass-gpu render scene.json -o scene@3x.png --scale 3 --backend cpu --timings
        glass-gpu render Assets/scenes/landmarks.json -o out/hero.jpg --quality 85
        glass-gpu render Assets/scenes/landmarks.json -o out/hero.webp
        glass-gpu render Assets/scenes/layout-badge-column.json --state expanded -o expanded.png
        glass-gpu render Assets/scenes/morph.json --time 0.15 -o moment.png
      """)

  @OptionGroup var options: SceneOptions

  @Option(name: .shortAndLong, help: "The output image: .png, .jpg or .webp (--format).")
  var output: String

  @Option(help: "gpu (OpenGL ES; fails without one), cpu (reference), or auto (GPU, else CPU, and says so).")
  var backend: BackendChoice = .auto

  @Option(parsing: .unconditional, help: ArgumentHelp("Bits per channel of the output: 8 or 16.", valueName: "8|16"))
  var depth: Int = 8

  @Option(help: formatHelp)
  var format: ImageEncoding.Format?

  @OptionGroup var encoding: EncodingOptions

  @Flag(help: "Print one JSON line of phase timings (decode, upload, render, readback, encode, total ms) to stderr.")
  var timings = false

  func validate() throws {
    try checkDepth(depth)
    try encoding.check(output: output, format: format, depth: depth)
  }

  func run() throws {
    try renderToFile(
      output: output, backend: backend, encoding: encoding.encoding(format), printTimings: timings,
      load: { try options.prepare(depth: depth == 16 ? .sixteen : .eight) },
      inputs: { loaded in
        [loaded.file.path] + loaded.file.scene.imageReferences.map { loaded.file.resolve($0.path) }
      },
      render: { renderer, loaded, phases in
        try options.naming { try renderer.render(loaded.prepared, timings: &phases) }
      })
  }
}

struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check a scene file and the images it names, without rendering.",
    discussion: """
      Prints the canvas size in pixels and the layer count, or one error line naming
      the JSON path and exits 1. Every state of a scene with states is checked as
      render --state checks it, and its transition (or --from and --to) as animate
      checks it: a scene validate accepts renders and animates.

      Example:
        glass-gpu validate Assets/scenes/badges.json
      """)

  @OptionGroup var options: SceneOptions

  func run() throws {
    try reportingErrors {
      let (file, prepared) = try options.prepare(depth: .eight)
      let scene = file.scene
      for warning in prepared.layoutWarnings { report("warning: \(options.scene): \(warning)") }
      // What animate and render --state check: every state as its own scene, and
      // the transition (the scene's own pairs already, or --from and --to).
      var states = ""
      if options.state == nil && options.time == nil {
        var whole = try SceneFile(path: options.scene)
        if let scale = options.scale { whole.scene.scale = scale }
        for state in whole.scene.states {
          _ = try whole.prepareState(state.name, maxPixels: options.maxPixels)
        }
        if options.from != nil || options.animation != nil || (whole.scene.needsLayout && whole.scene.transition != nil)
        {
          // States pair once laid out (view trees lowered, frames sized to their
          // text), as animate lays them out.
          whole = try whole.laidOut(maxPixels: options.maxPixels)
          let transition = try options.naming { try options.transition(of: whole.scene) }
          try options.naming { try whole.scene.checkTransition(transition) }
        }
        if !whole.scene.states.isEmpty { states = ", \(count(whole.scene.states.count, "state")) checked" }
      }
      let points = "\(ParameterSpec.format(scene.size.width))x\(ParameterSpec.format(scene.size.height)) pt"
      print(
        "\(options.scene): valid, \(scene.pixelSize) pixels (\(points) at \(scene.scale)x), "
          + "\(count(scene.layers.count, "layer"))\(scene.hasViewTree ? " and a view tree" : ""), "
          + "\(count(Set(scene.imageReferences.map(\.path)).count, "image")), "
          + "\(count(prepared.passCount, "pass")), \(workingMemory(prepared.workingBytes)) of working memory\(states)")
    }
  }
}

/// Bytes as `12 MiB`, or `0.4 MiB` below one.
func workingMemory(_ bytes: Int) -> String {
  let mebibytes = Double(bytes) / Double(1 << 20)
  return mebibytes < 1 ? String(format: "%.1f MiB", mebibytes) : "\(Int(mebibytes.rounded())) MiB"
}

struct Parity: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a scene on the GPU and on the CPU and compare the two.",
    discussion: """
      Prints the largest channel difference and the share of pixels off by more
      than 1/255; exits 1 when they are over the limits (by default the project's
      parity bar: 3/255 and 0.1 %).

      Example:
        glass-gpu parity Assets/scenes/landmarks.json --diff out/landmarks-diff.png
      """)

  @OptionGroup var options: SceneOptions

  @Option(
    parsing: .unconditional, help: ArgumentHelp("Fail when any channel differs by more than N/255.", valueName: "N"))
  var maxDiff: Double = 3

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Fail when more than this percentage of pixels differ by more than 1/255.", valueName: "percent")
  )
  var maxShare: Double = 0.1

  @Option(help: "Write a picture of the differences here (\(ImageComparison.differenceImageDescription)).")
  var diff: String?

  func validate() throws {
    try checkLimits(maxDiff: maxDiff, maxShare: maxShare)
  }

  func run() throws {
    try reportingErrors {
      // The difference image's file first: a path that cannot be written fails before any render.
      let diffFile = try diff.map { try PNGCodec.OutputFile(path: $0) }
      let (file, prepared) = try options.prepare(depth: .eight)
      try diffFile?.checkDistinct(from: [file.path] + file.scene.imageReferences.map { file.resolve($0.path) })
      let gpu = try Renderer(backend: .gpu)
      defer { gpu.close() }
      let cpu = try Renderer(backend: .cpu)
      var timings = RenderTimings()
      let a = try options.naming { try gpu.render(prepared, timings: &timings) }
      let b = try options.naming { try cpu.render(prepared, timings: &timings) }
      let result = try ImageComparison(a, b)
      try diffFile?.write(ImageComparison.differenceImage(a, b))
      let share = 100 * result.fractionOverOne
      let at = result.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""
      print(
        "\(options.scene): gpu vs cpu: max difference \(String(format: "%.3g", result.maxDifference))/255\(at), "
          + "\(result.pixelsOverOne) pixels (\(String(format: "%.4f", share)) %) over 1/255")
      // Each limit it exceeds, named: the largest difference, the share over 1/255.
      let violations = ImageComparison.Limits(maxDifference: maxDiff, maxSharePercent: maxShare).exceeded(by: result)
      if !violations.isEmpty {
        throw GlassError(.imagesDiffer, "GPU and CPU differ: \(violations.map(\.commandLine).joined(separator: "; "))")
      }
    }
  }
}
