import ArgumentParser
import Foundation
import GLESGlass

@main
struct GlassGPU: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "glass-gpu",
    abstract: "Render Liquid Glass effects headlessly: OpenGL ES 3 on EGL, or the CPU reference.",
    discussion: """
      Input images are PNG (any colour type libpng reads, 8 or 16 bits), JPEG or
      WebP, told apart by their content, upright by their EXIF orientation, and
      taken as sRGB (an embedded colour profile is not converted). Output is an
      RGBA PNG (8 or 16 bits), a JPEG or a WebP (8 bits), by the output's extension
      or --format, written to a temporary name and renamed, so a failed or
      interrupted command leaves no file behind; an output that is one of the
      inputs is refused; an output's missing folders are made.
      Errors go to stderr with a non-zero exit status.
      """,
    version: "0.1.0",
    subcommands: [
      Render.self, Animate.self, Batch.self, Goldens.self, Validate.self, LayoutCommand.self, Parity.self, Extend.self,
      Compare.self, Audit.self, Info.self,
    ]
  )

  /// Installs the signal handlers that remove temporary outputs, then runs the command.
  static func main() {
    StandardOutput.writeLineByLine()
    StandardInput.guardIfClosed()
    PNGCodec.OutputFile.installSignalCleanup()
    PeakMemory.reportAtExitIfAsked()
    main(nil)
  }
}

extension BackendChoice: ExpressibleByArgument {}

/// Standard input as the process found it.
enum StandardInput {
  /// True when the process started with standard input closed (`<&-`).
  nonisolated(unsafe) static var wasClosed = false

  /// Notes a closed standard input and puts `/dev/null` in its place, before
  /// anything is opened: otherwise the first file opened would become descriptor
  /// 0 and `--manifest -` would read it.
  static func guardIfClosed() {
    guard fcntl(STDIN_FILENO, F_GETFD) == -1 else { return }
    wasClosed = true
    let null = open("/dev/null", O_RDONLY)
    if null > STDIN_FILENO {
      _ = dup2(null, STDIN_FILENO)
      close(null)
    }
  }
}

/// `--depth`: 8 or 16 bits per channel.
func checkDepth(_ depth: Int) throws {
  guard depth == 8 || depth == 16 else { throw ValidationError("--depth is \(depth); give 8 or 16") }
}

/// `--compression`: 0 (stored), 1 (the fast encoder), 2 to 12 (libdeflate).
func checkCompression(_ compression: Int) throws {
  guard (0...12).contains(compression) else { throw ValidationError("--compression is \(compression); give 0 to 12") }
}

extension ImageEncoding.Format: ExpressibleByArgument {}

/// How the output is encoded: `--compression` for PNG, `--quality` for JPEG and
/// WebP. The format is each command's `--format`, else the output's extension.
struct EncodingOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "PNG compression: 0 (stored), 1 (glass-gpu's fast encoder, the default), 2 to 12 (libdeflate's levels, "
        + "smaller and slower).", valueName: "0-12"))
  var compression: Int = PNGCodec.defaultCompression

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("JPEG and WebP quality: 1 (smallest) to 100 (best).", valueName: "1-100"))
  var quality: Int = ImageEncoding.defaultQuality

  func validate() throws {
    try checkCompression(compression)
    guard (1...100).contains(quality) else {
      throw ValidationError("--quality is \(quality); give 1 (smallest) to 100 (best)")
    }
  }

  /// The encoding, in `format` when given (else each output's extension decides).
  func encoding(_ format: ImageEncoding.Format?) -> ImageEncoding {
    ImageEncoding(format: format, compression: compression, quality: quality)
  }

  /// Refuses, before any work, an output whose extension contradicts `format`
  /// and a 16-bit output in a format of 8 bits.
  func check(output: String, format: ImageEncoding.Format?, depth: Int) throws {
    do {
      let resolved = try encoding(format).format(forPath: output)
      try ImageEncoding.check(resolved, depth: depth == 16 ? .sixteen : .eight, path: output)
    } catch let error as GlassError {
      throw ValidationError(error.commandLineMessage)
    }
  }
}

/// `--format` of the commands that write one image.
let formatHelp = ArgumentHelp(
  "png, jpeg or webp (default: the output's extension, .png, .jpg or .webp; else png).", valueName: "png|jpeg|webp")

/// `--max-pixels`: 1 to `PNGCodec.maximumMaxPixels`.
func checkMaxPixels(_ maxPixels: Int) throws {
  guard maxPixels > 0 && maxPixels <= PNGCodec.maximumMaxPixels else {
    throw ValidationError("--max-pixels is \(maxPixels); give 1 to \(PNGCodec.maximumMaxPixels)")
  }
}

/// `--max-diff` (0 or more) and `--max-share` (a percentage).
func checkLimits(maxDiff: Double?, maxShare: Double?) throws {
  if let maxDiff, !(maxDiff >= 0) || !maxDiff.isFinite {
    throw ValidationError("--max-diff is \(ParameterSpec.format(maxDiff)); give 0 or more (in 1/255 steps)")
  }
  if let maxShare, !(0...100).contains(maxShare) {
    throw ValidationError("--max-share is \(ParameterSpec.format(maxShare)); give a percentage from 0 to 100")
  }
}

/// Prints `glass-gpu: message` to stderr.
func report(_ message: String) {
  FileHandle.standardError.write(Data("glass-gpu: \(message)\n".utf8))
}

/// Runs `body`, turning a GlassError into a one-line message and exit status 1.
func reportingErrors(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as GlassError {
    report(error.commandLineDescription)
    throw ExitCode(1)
  }
}

/// The shape of every command that renders to a PNG: reserve the output, start
/// the GL context on another thread while `load` reads the input (the decode
/// phase), refuse an output that is one of the files `inputs` names, render, write,
/// and print the timings when asked. The start is waited for and the context closed
/// before the process ends, whatever happens.
func renderToFile<Input>(
  output: String, backend: BackendChoice, encoding: ImageEncoding, printTimings: Bool, load: () throws -> Input,
  inputs: (Input) -> [String], render: (Renderer, Input, inout RenderTimings) throws -> RGBAImage
) throws {
  try reportingErrors {
    let start = Date()
    var phases = RenderTimings()
    let file = try PNGCodec.OutputFile(path: output)
    // The renderer's caches, made first: reading the input lays out its text with them.
    let caches = RenderCaches()
    let pending = Renderer.start(backend: backend, caches: caches)
    defer { pending.close() }
    let decodeStart = Date()
    let input = try caches.use { try load() }
    try file.checkDistinct(from: inputs(input))
    phases.decodeMilliseconds = Date().timeIntervalSince(decodeStart) * 1000
    let renderer = try pending.value()
    if let reason = renderer.fallbackReason { report("no GPU, rendering on the CPU (\(reason))") }
    let image = try render(renderer, input, &phases)
    if let reason = phases.fallbackReason { report("rendering on the CPU: \(reason)") }
    let encodeStart = Date()
    try file.write(image, encoding: encoding)
    phases.encodeMilliseconds = Date().timeIntervalSince(encodeStart) * 1000
    phases.totalMilliseconds = Date().timeIntervalSince(start) * 1000
    if printTimings {
      // The phases, then what each of the renderer's caches holds and has done.
      let line = phases.json.dropLast() + ",\"caches\":\(CacheStats.json(renderer.caches.stats))}\n"
      FileHandle.standardError.write(Data(line.utf8))
    }
  }
}

struct Extend: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Extend an image under a sidebar and an inspector with blurred mirrored copies of its edges.",
    discussion: """
      SwiftUI's backgroundExtensionEffect(): the canvas is the image plus the insets;
      the insets are filled with mirrored copies of the image's edges, blurred by a
      Gaussian of --sigma pixels in linear light; the image itself is copied
      unchanged. All values are in pixels.

      Examples:
        glass-gpu extend photo.png -o extended.png --leading 320 --trailing 320
        glass-gpu extend photo.png -o out.png --leading 200 --trailing 0 --top 80 --sigma 40
      """)

  @Argument(help: "The input image: PNG, JPEG or WebP (told by its content, upright by its EXIF orientation).")
  var input: String

  @Option(name: .shortAndLong, help: "The output image: .png, .jpg or .webp (--format).")
  var output: String

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(BackgroundExtensionEffect.spec("leading").help, valueName: "px"))
  var leading: Int

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(BackgroundExtensionEffect.spec("trailing").help, valueName: "px"))
  var trailing: Int

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(BackgroundExtensionEffect.spec("top").help, valueName: "px"))
  var top: Int = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(BackgroundExtensionEffect.spec("bottom").help, valueName: "px"))
  var bottom: Int = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(BackgroundExtensionEffect.spec("sigma").help, valueName: "px"))
  var sigma: Double = BackgroundExtensionEffect.defaultSigmaPixels

  @Option(help: "gpu (OpenGL ES; fails without one), cpu (reference), or auto (GPU, else CPU, and says so).")
  var backend: BackendChoice = .auto

  @Option(parsing: .unconditional, help: ArgumentHelp("Bits per channel of the output: 8 or 16.", valueName: "8|16"))
  var depth: Int = 8

  @Option(
    parsing: .unconditional, help: "Refuse images and canvases over this many pixels (checked from the image header).")
  var maxPixels: Int = PNGCodec.defaultMaxPixels

  @Option(help: formatHelp)
  var format: ImageEncoding.Format?

  @OptionGroup var encoding: EncodingOptions

  @Flag(help: "Print one JSON line of phase timings (decode, upload, render, readback, encode, total ms) to stderr.")
  var timings = false

  var effect: BackgroundExtensionEffect {
    BackgroundExtensionEffect(
      .init(leadingPixels: leading, trailingPixels: trailing, topPixels: top, bottomPixels: bottom, sigmaPixels: sigma))
  }

  func validate() throws {
    // Each parameter's option is named as its spec is (`--sigma`).
    let values =
      [("leading", Double(leading)), ("trailing", Double(trailing)), ("top", Double(top))]
      + [("bottom", Double(bottom)), ("sigma", sigma)]
    for (name, value) in values {
      if let problem = BackgroundExtensionEffect.spec(name).problem(with: value) {
        throw ValidationError("--\(name) \(problem)")
      }
    }
    try checkDepth(depth)
    try checkMaxPixels(maxPixels)
    try encoding.check(output: output, format: format, depth: depth)
  }

  func run() throws {
    try renderToFile(
      output: output, backend: backend, encoding: encoding.encoding(format), printTimings: timings,
      load: {
        // The extended canvas is checked from the header, before decoding.
        let decoded = try ImageDecoding.read(path: input, maxPixels: maxPixels) { header in
          do {
            try Renderer.check(effect, imageSize: header.size, maxPixels: maxPixels)
          } catch let error as GlassError {
            throw error.located(file: input)
          }
        }
        for warning in decoded.warnings { report("warning: \(input): \(warning)") }
        return decoded
      },
      inputs: { _ in [input] },
      render: { renderer, decoded, phases in
        try renderer.render(
          effect, on: decoded.image, depth: depth == 16 ? .sixteen : .eight, maxPixels: maxPixels, timings: &phases)
      })
  }
}

struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two images (PNG, JPEG or WebP) channel by channel.",
    discussion: """
      Prints the largest channel difference (in 1/255 steps; 16-bit images are
      compared on the same scale), the share of pixels with a channel off by more
      than 1/255, and the PSNR. Exits 1 when a given limit is exceeded.

      Example:
        glass-gpu compare out/gpu.png out/cpu.png --diff out/diff.png --max-diff 2 --max-share 0.1
      """)

  @Argument(help: "The first image.")
  var first: String

  @Argument(help: "The second image.")
  var second: String

  @Option(help: "Write a picture of the differences here (\(ImageComparison.differenceImageDescription)).")
  var diff: String?

  @Option(
    parsing: .unconditional, help: ArgumentHelp("Fail when any channel differs by more than N/255.", valueName: "N"))
  var maxDiff: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Fail when more than this percentage of pixels differ by more than 1/255.", valueName: "percent")
  )
  var maxShare: Double?

  @Flag(help: "Print one JSON object instead of text.")
  var json = false

  @Option(parsing: .unconditional, help: "Refuse images over this many pixels (checked from the image header).")
  var maxPixels: Int = PNGCodec.defaultMaxPixels

  func validate() throws {
    try checkMaxPixels(maxPixels)
    try checkLimits(maxDiff: maxDiff, maxShare: maxShare)
  }

  func run() throws {
    try reportingErrors {
      let a = try ImageDecoding.read(path: first, maxPixels: maxPixels).image
      let b = try ImageDecoding.read(path: second, maxPixels: maxPixels).image
      let result = try ImageComparison(a, b)
      if let diff {
        let file = try PNGCodec.OutputFile(path: diff)
        try file.checkDistinct(from: [first, second])
        try file.write(ImageComparison.differenceImage(a, b))
      }
      let share = 100 * result.fractionOverOne
      let psnr = result.psnr.isInfinite ? "inf" : String(format: "%.2f", result.psnr)
      if json {
        print(
          "{\"max_diff\":\(String(format: "%.3f", result.maxDifference)),\"pixels_over_1\":\(result.pixelsOverOne),"
            + "\"share_over_1_percent\":\(String(format: "%.4f", share)),\"psnr_db\":\(result.psnr.isInfinite ? "null" : psnr)}"
        )
      } else {
        let at = result.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""
        print(
          "max difference \(String(format: "%.3g", result.maxDifference))/255\(at), "
            + "\(result.pixelsOverOne) pixels (\(String(format: "%.4f", share)) %) over 1/255, PSNR \(psnr) dB")
      }
      let violations = ImageComparison.Limits(maxDifference: maxDiff, maxSharePercent: maxShare).exceeded(by: result)
      if !violations.isEmpty {
        throw GlassError(.imagesDiffer, violations.map(\.commandLine).joined(separator: "; "))
      }
    }
  }
}

struct Info: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Say which EGL platform and GL driver the GPU backend uses, and why not the others.",
    discussion: "Exits 1 when no GPU context can be made (the CPU backend still works).")

  @Flag(help: "Print one JSON object instead of text.")
  var json = false

  func run() throws {
    let info: GPUInfo
    do {
      let backend = try GLESBackend()
      info = backend.info
      backend.close()
    } catch let error as GlassError {
      if json {
        let payload = ["available": false, "error": error.commandLineDescription] as [String: Any]
        let data = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
      } else {
        print("GPU backend: unavailable")
        print("  \(error.commandLineDescription)")
        print("The CPU backend (--backend cpu) works without one.")
      }
      throw ExitCode(1)
    }
    let tried = Set(info.attempts.map(\.platform))
    var attempts = info.attempts
    for platform in EGLPlatformKind.allCases where !tried.contains(platform.rawValue) {
      attempts.append(
        PlatformAttempt(
          platform: platform.rawValue, target: "-", used: false, detail: "not tried: an earlier platform worked"))
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      var report = info
      report.attempts = attempts
      print(String(decoding: try encoder.encode(report), as: UTF8.self))
      return
    }
    print("platform:        \(info.platform)")
    for attempt in attempts {
      print("  \(attempt.used ? "used" : "not used"): \(attempt.platform) \(attempt.target) - \(attempt.detail)")
    }
    print("EGL vendor:      \(info.eglVendor)")
    print("EGL version:     \(info.eglVersion)")
    print("context:         OpenGL ES \(info.contextVersion)")
    print("GL renderer:     \(info.glRenderer)")
    print("GL version:      \(info.glVersion)")
    print("GLSL version:    \(info.glslVersion)")
    print("max texture:     \(info.maxTextureSize) px")
    print("extensions:")
    for (name, present) in info.extensions.sorted(by: { $0.key < $1.key }) {
      print("  \(present ? "yes" : "no ") \(name)")
    }
  }
}
