import ArgumentParser
import Foundation
import GLESGlass

struct Animate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a transition between two states of a scene as frames.",
    discussion: """
      Frame i is the scene at time i / fps seconds, from the first state (frame 0,
      exactly its static render) until the timing curve has settled (the last frame,
      exactly the second state's); --hold and --round-trip make a loop for a preview. PNG frames go through the batch pipeline into
      DIR/frame-0000.png, DIR/frame-0001.png, ...; --format apng writes one animated
      PNG file (-o FILE.png) that browsers play and other viewers show as frame 0;
      --format rgba writes raw 8-bit RGBA frames, one after another, to standard
      output for ffmpeg. The scene format's "states" and "transition" are in
      docs/scene-format.md.

      Examples:
        glass-gpu animate Assets/scenes/morph.json -o out/morph
        glass-gpu animate Assets/scenes/morph.json --format apng --scale 1 --fps 30 --round-trip --hold 0.5 -o morph.png
        glass-gpu animate scene.json --from collapsed --to expanded --animation bouncy --fps 30 -o frames
        glass-gpu animate scene.json --format rgba | \\
          ffmpeg -f rawvideo -pix_fmt rgba -s 960x540 -r 60 -i - -pix_fmt yuv420p morph.mp4
      """)

  @OptionGroup var options: SceneOptions

  @Option(name: .shortAndLong, help: "The folder of PNG frames (--format png) or the animated PNG file (apng).")
  var output: String?

  @Option(help: "Frames per second.")
  var fps: Double = 60

  @Option(
    help: ArgumentHelp(
      "png (numbered files in --output), apng (one animated PNG, --output) or rgba (raw frames on stdout).",
      valueName: "png|apng|rgba"))
  var format: String = "png"

  @Option(help: "gpu (OpenGL ES; fails without one), cpu (reference), or auto (GPU, else CPU, and says so).")
  var backend: BackendChoice = .auto

  @Option(help: "Worker threads for encoding PNG frames.")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(
    help: ArgumentHelp("Compression level of the PNG frames: 0 (stored, fastest) to 12 (smallest).", valueName: "0-12"))
  var compression: Int = PNGCodec.defaultCompression

  @Flag(help: "Play the transition back again to the first state: a loop for a preview.")
  var roundTrip = false

  @Option(help: "Seconds to hold each end state (the first state, the second, and the first again with --round-trip).")
  var hold: Double = 0

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  func validate() throws {
    guard fps.isFinite && fps > 0 && fps <= 1000 else {
      throw ValidationError("--fps is \(ParameterSpec.format(fps)); give frames per second above 0, at most 1000")
    }
    guard ["png", "apng", "rgba"].contains(format) else {
      throw ValidationError("--format is \(format); give png, apng or rgba")
    }
    if format == "png" && output == nil {
      throw ValidationError("give the frames' folder with -o DIR (or --format rgba)")
    }
    if format == "apng" && output == nil {
      throw ValidationError("give the animated PNG's file with -o FILE.png")
    }
    if options.state != nil || options.time != nil {
      throw ValidationError("animate renders every frame of a transition; --state and --time are for render")
    }
    guard hold.isFinite && hold >= 0 && hold <= 60 else {
      throw ValidationError("--hold is \(ParameterSpec.format(hold)) s; give 0 to 60 seconds")
    }
    guard jobs >= 1 && jobs <= 64 else { throw ValidationError("--jobs is \(jobs); give 1 to 64") }
    try checkCompression(compression)
  }

  func run() throws {
    var frames: [Scene] = []
    var directory = ""
    try reportingErrors {
      var file = try SceneFile(path: options.scene)
      if let scale = options.scale { file.scene.scale = scale }
      directory = file.directory
      let transition = try options.naming { try options.transition(of: file.scene) }
      frames = try options.naming { try self.frames(of: file.scene, transition) }
      try options.naming {
        try PNGCodec.checkPixelLimit(file.scene.pixelSize, maxPixels: options.maxPixels, what: "the canvas")
      }
    }
    if format == "rgba" {
      try writeRawFrames(frames, directory: directory)
    } else if format == "apng" {
      try writeAnimatedPNG(frames, directory: directory)
    } else {
      try writePNGFrames(frames, directory: directory)
    }
  }

  /// The frames: the first state held, the transition, the second state held,
  /// and with --round-trip the way back and the first state held again.
  private func frames(of scene: Scene, _ transition: SceneTransition) throws -> [Scene] {
    func run(_ transition: SceneTransition) throws -> [Scene] {
      try (0..<Scene.frameCount(of: transition, fps: fps)).map { try scene.frame(at: Double($0) / fps, of: transition) }
    }
    let held = Int((hold * fps).rounded())
    let there = try run(transition)
    var frames = Array(repeating: there[0], count: held) + there
    frames += Array(repeating: there[there.count - 1], count: held)
    if roundTrip {
      var back = transition
      (back.from, back.to) = (transition.to, transition.from)
      let returning = try run(back)
      // The way back starts on the frame the way there ended with.
      frames += returning.dropFirst() + Array(repeating: returning[returning.count - 1], count: held)
    }
    return frames
  }

  /// PNG frames through the batch pipeline.
  private func writePNGFrames(_ frames: [Scene], directory: String) throws {
    guard let output else { return }
    var batchOptions = BatchOptions()
    batchOptions.backend = backend
    batchOptions.jobs = jobs
    batchOptions.compression = compression
    batchOptions.maxPixels = options.maxPixels
    PNGCodec.OutputFile.deferStops(true)
    var started: BatchRenderer?
    try reportingErrors {
      try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      started = try BatchRenderer(options: batchOptions)
    }
    guard let batch = started else { return }
    defer { batch.renderer.close() }
    if let reason = batch.renderer.fallbackReason { report("no GPU, rendering on the CPU (\(reason))") }
    let jobs = frames.enumerated().map { index, scene in
      let name = String(format: "frame-%04d.png", index)
      return BatchEntry.job(
        BatchJob(
          id: "\(options.scene) frame \(index)", scene: .scene(scene, directory: directory),
          output: (output as NSString).appendingPathComponent(name)))
    }
    let summary = batch.run(jobs) { result in
      if result.status == .failed, let error = result.error { report(error.description) }
    }
    if let signal = summary.stoppedBySignal { PNGCodec.OutputFile.end(bySignal: signal) }
    if !quiet {
      let size = frames.first?.pixelSize ?? PixelSize(width: 0, height: 0)
      let rate = summary.wallSeconds > 0 ? Double(summary.rendered) / summary.wallSeconds : 0
      report(
        "\(summary.rendered) of \(frames.count) frames (\(size.width)x\(size.height), "
          + "\(ParameterSpec.format(fps)) fps) in \(output), "
          + String(
            format: "%.2f s, %.2f frames/s on the %@ backend", summary.wallSeconds, rate, batch.renderer.backendName)
      )
    }
    if summary.failed > 0 { throw ExitCode(1) }
  }

  /// Raw RGBA frames on standard output.
  private func writeRawFrames(_ frames: [Scene], directory: String) throws {
    try reportingErrors {
      if isatty(STDOUT_FILENO) == 1 {
        throw GlassError(
          .invalidParameter, "--format rgba writes binary frames; pipe them into a program such as ffmpeg")
      }
      try renderInOrder(frames, directory: directory) { _, image in
        guard case .eight(let bytes) = image.samples else { return }
        bytes.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) }
      }
      if !quiet {
        let size = frames[0].pixelSize
        report(
          "\(frames.count) raw RGBA frames of \(size.width)x\(size.height) at \(ParameterSpec.format(fps)) fps; "
            + "read them with ffmpeg -f rawvideo -pix_fmt rgba -s \(size.width)x\(size.height) "
            + "-r \(ParameterSpec.format(fps)) -i -")
      }
    }
  }

  /// One animated PNG, written whole once every frame is in (nothing on failure).
  private func writeAnimatedPNG(_ frames: [Scene], directory: String) throws {
    guard let output else { return }
    try reportingErrors {
      let file = try PNGCodec.OutputFile(path: output)
      try file.checkDistinct(from: [options.scene])
      var animation = try AnimatedPNG(size: frames[0].pixelSize, frameCount: frames.count, fps: fps)
      let start = Date()
      try renderInOrder(frames, directory: directory) { _, image in
        try animation.append(image, compression: compression)
      }
      let bytes = animation.finished()
      try file.write(encoded: bytes)
      if !quiet {
        let size = frames[0].pixelSize
        report(
          "\(frames.count) frames (\(size.width)x\(size.height), \(ParameterSpec.format(fps)) fps) in \(output), "
            + "\(bytes.count >> 10) KiB, "
            + String(format: "%.2f s", Date().timeIntervalSince(start)))
      }
    }
  }

  /// Renders the frames in order, each prepared while the one before renders,
  /// and hands each image to `body`, once per frame.
  private func renderInOrder(
    _ frames: [Scene], directory: String, _ body: (Int, RGBAImage) throws -> Void
  ) throws {
    let renderer = try Renderer(backend: backend)
    defer { renderer.close() }
    if let reason = renderer.fallbackReason { report("no GPU, rendering on the CPU (\(reason))") }
    func prepare(_ scene: Scene) throws -> PreparedRender {
      let file = SceneFile(scene: scene, directory: directory)
      let images = try file.loadImages(maxPixels: options.maxPixels, cache: renderer.caches.images)
      return try renderer.prepare(scene, images: images, maxPixels: options.maxPixels)
    }
    // A frame equal to the one before it (a held end) reuses its image.
    var distinct: [(scene: Scene, count: Int)] = []
    for frame in frames {
      if let last = distinct.last, last.scene == frame {
        distinct[distinct.count - 1].count += 1
      } else {
        distinct.append((frame, 1))
      }
    }
    var index = 0
    var pending = try options.naming { try renderer.submit(prepare(distinct[0].scene)) }
    for (k, run) in distinct.enumerated() {
      let next = k + 1 < distinct.count ? try options.naming { try prepare(distinct[k + 1].scene) } : nil
      var timings = RenderTimings()
      let image = try options.naming { try renderer.wait(pending, timings: &timings) }
      if let next { pending = try renderer.submit(next) }
      for _ in 0..<run.count {
        try body(index, image)
        index += 1
      }
    }
  }
}
