import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

/// Runs the CLI on the hostile inputs of issue 7 and prints each run's exit
/// status, wall time, peak memory and first line of stderr.
struct HostileBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hostile",
    abstract:
      "Time and measure the peak memory of glass-gpu on hostile inputs (tiny files claiming huge images, a huge image shown small, one image in 5000 layers).",
    discussion: """
      The inputs are made in a temporary folder, so it runs from any folder. Each
      case runs glass-gpu as its own process on the CPU backend: the one --glass-gpu
      names, else the one beside this benchmark's executable, else the first on
      PATH. Its peak resident memory is what it reports with
      GLASS_GPU_PEAK_MEMORY_FILE.

      Examples:
        glass-gpu-bench hostile
        glass-gpu-bench hostile --glass-gpu .build/release/glass-gpu --side 2000
      """)

  @Option(help: "Side of the large valid image, in pixels.")
  var side = 10_000

  @Option(help: "Image layers naming one image in the repeated-work case.")
  var layers = 5_000

  @Option(
    name: .customLong("glass-gpu"),
    help: ArgumentHelp(
      "The glass-gpu to run (default: the one beside this benchmark, else glass-gpu on PATH).", valueName: "path"))
  var glassGPU: String?

  func validate() throws {
    guard side > 0 else { throw ValidationError("--side is \(side); give 1 or more pixels") }
    guard layers > 0 else { throw ValidationError("--layers is \(layers); give 1 or more") }
  }

  func run() throws {
    let binary = try Self.glassGPUExecutable(named: glassGPU)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glass-gpu-hostile-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    func write(_ text: String, _ name: String) throws -> String {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
      return path(name)
    }

    // Tiny files whose headers claim 100 megapixels.
    for depth: UInt8 in [8, 16] {
      let png = HandMadePNG.bytes(
        width: 1, height: 100_000_000, bitDepth: depth, colorType: 6, chunks: [("IDAT", HandMadePNG.tinyZlib)])
      try Data(png).write(to: URL(fileURLWithPath: path("tall\(depth).png")))
    }
    try Data(HandMadePNG.lyingChunk("sPLT")).write(to: URL(fileURLWithPath: path("splt.png")))
    let tallScene = try write(
      #"{"version": 1, "size": {"width": 100, "height": 100}, "background": {"image": "tall8.png"}}"#, "tall.json")
    // A valid large image that compresses to a few hundred KB.
    let big = RGBAImage(size: PixelSize(width: side, height: side), samples: .eight(bigSamples()))
    try PNGCodec.write(big, to: path("big.png"), compression: 12)
    let bigScene = try write(
      #"{"version": 1, "size": {"width": 100, "height": 100}, "background": {"image": "big.png"}}"#, "big.json")
    // One 2.4-megapixel photo in many layers of the same frame.
    try PNGCodec.write(ProceduralImages.landscape(width: 1920, height: 1250), to: path("photo.png"))
    let layer = #"{"type": "image", "source": "photo.png", "frame": {"x": 20, "y": 20, "width": 400, "height": 260}}"#
    let repeated = try write(
      #"{"version": 1, "size": {"width": 480, "height": 320}, "scale": 2, "layers": [\#(Array(repeating: layer, count: layers).joined(separator: ","))]}"#,
      "repeated.json")

    let out = path("out.png")
    let bigSize = try FileManager.default.attributesOfItem(atPath: path("big.png"))[.size] as? Int ?? 0
    print("glass-gpu-bench hostile: each case is its own glass-gpu process, --backend cpu where it renders")
    let cases: [(String, [String])] = [
      (
        "68-byte PNG claiming 1x100000000, extend",
        ["extend", path("tall8.png"), "-o", out, "--leading", "8", "--trailing", "8"]
      ),
      ("same, 16-bit, extend", ["extend", path("tall16.png"), "-o", out, "--leading", "8", "--trailing", "8"]),
      ("same as a scene's background, render", ["render", tallScene, "-o", out]),
      ("same, validate", ["validate", tallScene]),
      (
        "81-byte PNG with an sPLT chunk claiming 1.7 GB, extend",
        ["extend", path("splt.png"), "-o", out, "--leading", "8", "--trailing", "8"]
      ),
      (
        "\(side)x\(side) PNG (\(bigSize / 1000) KB), extend over the canvas limit",
        ["extend", path("big.png"), "-o", out, "--leading", "10", "--trailing", "0"]
      ),
      ("same as the background of a 100x100 pt canvas, render", ["render", bigScene, "-o", out]),
      ("\(layers) image layers naming one 2.4-megapixel PNG, validate", ["validate", repeated]),
      ("same, render", ["render", repeated, "-o", out]),
    ]
    print("status   wall s   peak MB   case / first line of stderr")
    for (name, arguments) in cases {
      let withBackend = arguments[0] == "validate" ? arguments : arguments + ["--backend", "cpu"]
      let run = try measure(binary, withBackend, report: path("peak"))
      print(String(format: "%6d %8.2f %9.1f   %@", run.status, run.seconds, Double(run.peakKilobytes) / 1000, name))
      if let line = run.stderr.split(separator: "\n").first {
        print("                            \(line.replacingOccurrences(of: folder.path + "/", with: ""))")
      }
    }
  }

  /// Stripes with a little variety, so the file is small but not trivially so.
  func bigSamples() -> [UInt8] {
    var values = [UInt8](repeating: 255, count: 4 * side * side)
    for y in 0..<side {
      let shade = UInt8(truncatingIfNeeded: (y / 100) * 25)
      for x in stride(from: 0, to: side, by: 1) where (x / 50) % 2 == 0 {
        let i = 4 * (y * side + x)
        values[i] = shade
        values[i + 1] = 128
      }
    }
    return values
  }

  struct Run {
    var status: Int32
    var seconds: Double
    var peakKilobytes: Int
    var stderr: String
  }

  /// The glass-gpu to run: `path` when given, else the one beside this
  /// benchmark's own executable (found from /proc/self/exe, not from the
  /// working folder or how it was started), else the first on PATH.
  static func glassGPUExecutable(named path: String?) throws -> String {
    let files = FileManager.default
    if let path {
      guard files.isExecutableFile(atPath: path) else {
        throw ValidationError("--glass-gpu \(path) is not an executable file; give the path of the built glass-gpu")
      }
      return path
    }
    let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let beside = folder.appendingPathComponent("glass-gpu").path
    if files.isExecutableFile(atPath: beside) { return beside }
    let searched = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for directory in searched where !directory.isEmpty {
      let candidate = URL(fileURLWithPath: directory).appendingPathComponent("glass-gpu").path
      if files.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw ValidationError(
      "no glass-gpu beside this benchmark (\(folder.path)) or on PATH; build it (swift build -c release) "
        + "and give its path with --glass-gpu PATH")
  }

  func measure(_ binary: String, _ arguments: [String], report: String) throws -> Run {
    try? FileManager.default.removeItem(atPath: report)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["GLASS_GPU_PEAK_MEMORY_FILE": report]) { $1 }
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    let start = Date()
    do {
      try process.run()
    } catch {
      throw BenchFailure("cannot run \(binary): \(error.localizedDescription)")
    }
    let data = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    let peak =
      Int(
        ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "0").trimmingCharacters(in: .whitespacesAndNewlines))
      ?? 0
    return Run(
      status: process.terminationStatus, seconds: seconds, peakKilobytes: peak,
      stderr: String(decoding: data, as: UTF8.self))
  }
}
