import ArgumentParser
import Foundation
import GLESGlass

struct Animate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a transition between two states of a scene as frames.",
    discussion: """
      Frame i is the scene at time i / fps seconds, from the first state (frame 0,
      exactly its static render) until the timing curve has settled (the last frame,
      exactly the second state's); --hold and --round-trip make a loop for a preview.
      The frame count is printed first; above 100000 frames (a spring whose bounce
      is near -1 or 1 settles after hours) animate refuses: lower --fps, --hold or
      the curve's duration or bounce. Both states are checked before the first frame.
      PNG frames go into DIR/frame-0000.png, DIR/frame-0001.png, ...; frame files
      of an earlier animation in DIR (frame-NNNN.png, never other files) are removed
      first. --format apng writes one animated PNG file (-o FILE.png) that browsers
      play and other viewers show as frame 0; --format rgba writes raw 8-bit RGBA
      frames, one after another, to standard output for ffmpeg. Frames are rendered
      one at a time, so memory does not grow with their number. The first frame that
      cannot be written, or a SIGINT or SIGTERM, stops the run and leaves no frames
      and no file. The scene format's "states" and "transition" are in
      docs/scene-format.md.

      Examples:
        glass-gpu animate Assets/scenes/morph.json -o out/morph
        glass-gpu animate Assets/scenes/morph.json --format apng --scale 1 --fps 30 --round-trip --hold 0.5 -o morph.png
        glass-gpu animate scene.json --from collapsed --to expanded --animation bouncy --fps 30 -o frames
        glass-gpu animate Assets/scenes/morph.json --format webp --quality 80 -o out/morph-webp
        glass-gpu animate scene.json --format rgba | \\
          ffmpeg -f rawvideo -pix_fmt rgba -s 960x540 -r 60 -i - -pix_fmt yuv420p morph.mp4
      """)

  @OptionGroup var options: SceneOptions

  @Option(
    name: .shortAndLong,
    help: "The folder of frames (--format png, jpeg or webp) or the animated PNG file (apng).")
  var output: String?

  @Option(parsing: .unconditional, help: "Frames per second.")
  var fps: Double = 60

  @Option(
    help: ArgumentHelp(
      "png, jpeg or webp (numbered files in --output), apng (one animated PNG, --output) or rgba (raw frames on "
        + "stdout).", valueName: "png|jpeg|webp|apng|rgba"))
  var format: String = "png"

  @Option(help: "gpu (OpenGL ES; fails without one), cpu (reference), or auto (GPU, else CPU, and says so).")
  var backend: BackendChoice = .auto

  @Option(parsing: .unconditional, help: "Worker threads for encoding frames.")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @OptionGroup var encoding: EncodingOptions

  @Flag(help: "Play the transition back again to the first state: a loop for a preview.")
  var roundTrip = false

  @Option(
    parsing: .unconditional,
    help: "Seconds to hold each end state (the first state, the second, and the first again with --round-trip).")
  var hold: Double = 0

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  func validate() throws {
    guard fps.isFinite && fps > 0 && fps <= AnimationRenderer.maximumFPS else {
      throw ValidationError(
        "--fps is \(ParameterSpec.format(fps)); give frames per second above 0, at most "
          + ParameterSpec.format(AnimationRenderer.maximumFPS))
    }
    guard ["png", "jpeg", "webp", "apng", "rgba"].contains(format) else {
      throw ValidationError("--format is \(format); give png, jpeg, webp, apng or rgba")
    }
    if frameFormat != nil && output == nil {
      throw ValidationError("give the frames' folder with -o DIR (or --format rgba)")
    }
    if format == "apng" && output == nil {
      throw ValidationError("give the animated PNG's file with -o FILE.png")
    }
    if options.state != nil || options.time != nil {
      throw ValidationError("animate renders every frame of a transition; --state and --time are for render")
    }
    guard hold.isFinite && hold >= 0 && hold <= AnimationRenderer.maximumHoldSeconds else {
      throw ValidationError(
        "--hold is \(ParameterSpec.format(hold)) s; give 0 to "
          + "\(ParameterSpec.format(AnimationRenderer.maximumHoldSeconds)) seconds")
    }
    guard jobs >= 1 && jobs <= 64 else { throw ValidationError("--jobs is \(jobs); give 1 to 64") }
  }

  /// The format of numbered frame files, or nil for apng and rgba.
  var frameFormat: ImageEncoding.Format? {
    ["apng", "rgba"].contains(format) ? nil : ImageEncoding.Format(rawValue: format)
  }

  func run() throws {
    // Before anything is opened: with standard output closed, the next file opened
    // would take its place and the frames would go into it.
    if format == "rgba" {
      try reportingErrors {
        if fcntl(STDOUT_FILENO, F_GETFL) < 0 {
          throw GlassError(
            .outputFailure, "cannot write standard output: it is closed; pipe it into a program such as ffmpeg")
        }
        if isatty(STDOUT_FILENO) == 1 {
          throw GlassError(
            .invalidParameter, "--format rgba writes binary frames; pipe them into a program such as ffmpeg")
        }
      }
    }
    var animation: AnimationRenderer?
    do {
      try reportingErrors {
        var file = try SceneFile(path: options.scene)
        file.scene.environment = try applyingEnvironment(options.environment, to: file.scene.environment)
        if let scale = options.scale {
          file.scene.scale = scale
          do {
            try file.scene.validate()
          } catch let error as GlassError {
            throw file.locate(error.rephrased("at --scale \(scale), \(error.message)"))
          }
        }
        let transition = try options.naming { try options.transition(of: file.scene) }
        let made = try AnimationRenderer(
          file: file, transition: transition,
          options: AnimationRenderer.Options(
            fps: fps, holdSeconds: hold, roundTrip: roundTrip, maxPixels: options.maxPixels))
        animation = made
        try render(made)
      }
    } catch {
      if let signal = PNGCodec.OutputFile.stopSignal { stopped(by: signal, animation) }
      throw error
    }
    if let signal = PNGCodec.OutputFile.stopSignal { stopped(by: signal, animation) }
  }

  /// Renders the frames in the format asked for, with a line before and after.
  private func render(_ animation: AnimationRenderer) throws {
    let size = animation.pixelSize
    let rate = "\(ParameterSpec.format(fps)) fps"
    // Both states before the count: a scene that fails prints its error alone.
    try animation.check()
    if !quiet {
      report("\(count(animation.frameCount, "frame")) of \(size.width)x\(size.height) at \(rate)")
    }
    // Until here a SIGINT or SIGTERM ends the process at once. From the first
    // frame on, the first one stops at the next frame, what was written is removed
    // and the process ends by the signal (a second one ends it at once).
    PNGCodec.OutputFile.deferStops(true)
    let renderer = try Renderer(backend: backend)
    defer { renderer.close() }
    if let reason = renderer.fallbackReason { report("no GPU, rendering on the CPU (\(reason))") }
    let place: String
    let summary: AnimationRenderer.Summary
    switch format {
    case "rgba":
      summary = try animation.writeRawFrames(on: renderer)
      place =
        "raw RGBA on standard output; read them with ffmpeg -f rawvideo -pix_fmt rgba "
        + "-s \(size.width)x\(size.height) -r \(ParameterSpec.format(fps)) -i -"
    case "apng":
      guard let output else { return }
      summary = try animation.writeAnimatedPNG(to: output, on: renderer, compression: encoding.compression)
      place = "in \(output), \(summary.bytes >> 10) KiB"
    default:
      guard let output else { return }
      summary = try animation.writeFrames(
        into: output, on: renderer, jobs: jobs, encoding: encoding.encoding(frameFormat ?? .png))
      place = "in \(output)"
    }
    if !quiet {
      let perSecond = summary.seconds > 0 ? Double(summary.rendered) / summary.seconds : 0
      report(
        "\(count(summary.frames, "frame")) (\(summary.rendered) distinct) \(place), "
          + String(
            format: "%.2f s, %.2f frames/s on the %@ backend", summary.seconds, perSecond, renderer.backendName))
    }
  }

  /// Ends the process by `signal`, with no frame left behind: the folder's frames
  /// removed (an animated PNG's temporary goes with the signal).
  private func stopped(by signal: Int32, _ animation: AnimationRenderer?) -> Never {
    if format == "png", let output, let animation { try? animation.removeFrames(in: output, refusingInputs: false) }
    PNGCodec.OutputFile.end(bySignal: signal)
  }
}
