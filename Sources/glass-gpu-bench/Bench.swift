import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

@main
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "glass-gpu-bench",
    abstract: "Benchmarks of glass-gpu, and the procedural images they use.",
    subcommands: [
      ExtendBench.self, ProcessBench.self, SceneBench.self, GlassScalingBench.self, HostileBench.self, BatchBench.self,
      EncodeBench.self, FluidBench.self, TextBench.self, LayoutBench.self, GroupingBench.self,
      FolderBench.self, OptionsBench.self, ContactSheet.self,
      Generate.self, GenerateIcons.self,
    ],
    defaultSubcommand: ExtendBench.self)
}

/// The benchmark image: a 1920x1080 photo-like landscape, cached as a PNG.
func benchmarkImage(width: Int, height: Int) throws -> (image: RGBAImage, path: String) {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "glass-gpu-bench-landscape-\(width)x\(height).png"
  ).path
  if let decoded = try? PNGCodec.read(path: path), decoded.image.size == PixelSize(width: width, height: height) {
    return (decoded.image, path)
  }
  let image = ProceduralImages.landscape(width: width, height: height)
  try PNGCodec.write(image, to: path, compression: 6)
  return (image, path)
}

/// Statistics of a list of milliseconds.
struct Stats {
  var median: Double
  var minimum: Double

  init(_ values: [Double]) {
    let sorted = values.sorted()
    median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    minimum = sorted.first ?? 0
  }
}

struct ExtendBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extend",
    abstract: "Time the background extension in a warm process: upload + render + readback per backend and sigma.",
    discussion: """
      The image is a procedural 1920x1080 photo-like landscape; the canvas adds
      --inset pixels on each side (leading and trailing). Each configuration is
      rendered --warmup times, then timed --runs times; medians are printed.

      Then, when python3 is found, scripts/peers.py times libvips and OpenCV on the
      same image, insets and sigmas (each row says what it does), where their
      Python modules are installed: pip install "pyvips[binary]"
      opencv-python-headless numpy. They are never needed by glass-gpu.
      """)

  @Option(help: "Sigmas to time, in pixels.")
  var sigma: [Double] = [8, 24, 64]

  @Option(help: "Leading and trailing inset, in pixels.")
  var inset = 320

  @Option var width = 1920
  @Option var height = 1080
  @Option var warmup = 3
  @Option var runs = 15

  @Option(help: "Backends: gpu, cpu.")
  var backend: [String] = ["gpu", "cpu"]

  @Flag(help: "Print JSON lines instead of a table.")
  var json = false

  @Flag(inversion: .prefixedNo, help: "Time libvips and OpenCV too (scripts/peers.py), where python3 has them.")
  var peers = true

  func run() throws {
    let (image, imagePath) = try benchmarkImage(width: width, height: height)
    if !json {
      print(
        "glass-gpu-bench extend: \(width)x\(height) landscape, \(inset) px each side, median of \(runs) runs after \(warmup) warm-up"
      )
      print("backend    sigma     upload       render     readback          sum      min sum")
    }
    for name in backend {
      guard let choice = BackendChoice(rawValue: name), choice != .auto else {
        throw ValidationError("--backend takes gpu or cpu")
      }
      let renderer: Renderer
      do {
        renderer = try Renderer(backend: choice)
      } catch let error as GlassError {
        print("\(name): skipped, \(error)")
        continue
      }
      defer { renderer.close() }
      if !json, let info = renderer.gles?.info { print("gpu = \(info.glRenderer), EGL platform \(info.platform)") }
      if !json {
        let pass = try calibrationPass(renderer, image: image)
        print(
          String(
            format: "%@ calibration: one full-frame %dx%d pass (1 bilinear tap, sRGB encode) = %.2f ms",
            pad(name, 8), width, height, pass))
      }
      for s in sigma {
        let effect = BackgroundExtensionEffect(.init(leadingPixels: inset, trailingPixels: inset, sigmaPixels: s))
        var samples: [RenderTimings] = []
        for i in 0..<(warmup + runs) {
          var t = RenderTimings()
          _ = try renderer.render(effect, on: image, timings: &t)
          if i >= warmup { samples.append(t) }
        }
        let upload = Stats(samples.map(\.uploadMilliseconds))
        let render = Stats(samples.map(\.renderMilliseconds))
        let readback = Stats(samples.map(\.readbackMilliseconds))
        let sum = Stats(samples.map { $0.uploadMilliseconds + $0.renderMilliseconds + $0.readbackMilliseconds })
        if json {
          print(
            "{\"backend\":\"\(name)\",\"sigma\":\(s),\"upload_ms\":\(f(upload.median)),\"render_ms\":\(f(render.median)),"
              + "\"readback_ms\":\(f(readback.median)),\"total_ms\":\(f(sum.median)),\"min_total_ms\":\(f(sum.minimum))}"
          )
        } else {
          print(
            String(
              format: "%@ %7.1f %8.2f ms %8.2f ms %10.2f ms %8.2f ms %8.2f ms", pad(name, 8), s, upload.median,
              render.median, readback.median, sum.median, sum.minimum))
        }
      }
    }
    if peers { runPeers(image: imagePath) }
  }

  func f(_ v: Double) -> String { String(format: "%.3f", v) }

  /// Runs scripts/peers.py on the same image, insets, sigmas and run counts; its
  /// rows (or rows saying which module is missing) follow ours.
  func runPeers(image: String) {
    func skip(_ reason: String) {
      let record = JSONValue.object([("peers", .string("skipped")), ("reason", .string(reason))])
      print(json ? record.compactText : "peers: skipped, \(reason)")
    }
    guard let script = peersScript() else { return skip("scripts/peers.py not found") }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let python = path.split(separator: ":").map({ "\($0)/python3" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return skip("python3 not found") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments =
      [script, "--image", image, "--inset", "\(inset)", "--warmup", "\(warmup)", "--runs", "\(runs)", "--sigma"]
      + sigma.map { "\($0)" } + (json ? ["--json"] : [])
    fflush(nil)  // our rows before the script's
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      return skip("python3 did not start (\(error))")
    }
    if process.terminationStatus != 0 { skip("scripts/peers.py exited \(process.terminationStatus)") }
  }

  /// scripts/peers.py in the current folder or in a folder above this binary.
  func peersScript() -> String? {
    var folders = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
    var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<6 {
      folders.append(folder)
      folder = folder.deletingLastPathComponent()
    }
    return folders.map { $0.appendingPathComponent("scripts/peers.py").path }.first {
      FileManager.default.fileExists(atPath: $0)
    }
  }

  /// The median time of one pass over the whole frame, for scale: the machine's
  /// speed varies from run to run, and this pass is the unit DESIGN.md counts in.
  func calibrationPass(_ renderer: Renderer, image: RGBAImage) throws -> Double {
    var times: [Double] = []
    for _ in 0..<(warmup + runs) {
      var timings = RenderTimings()
      _ = try renderer.renderCalibrationPass(on: image, timings: &timings)
      times.append(timings.renderMilliseconds)
    }
    return Stats(Array(times.dropFirst(warmup))).median
  }
}

struct ProcessBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "process",
    abstract: "Time whole `glass-gpu extend` processes (decode to encode), with a new and then a warm shader cache.",
    discussion: """
      Runs the glass-gpu binary beside this one. The first run gets an empty Mesa
      shader cache (MESA_SHADER_CACHE_DIR in a new folder), so llvmpipe compiles its
      shaders; the later runs find them in that cache.
      """)

  @Option var width = 1920
  @Option var height = 1080
  @Option var inset = 320
  @Option var sigma = 24.0
  @Option var runs = 3
  @Option(help: "gpu or cpu") var backend = "gpu"

  func run() throws {
    let (_, input) = try benchmarkImage(width: width, height: height)
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("glass-gpu").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw ValidationError("glass-gpu is not built beside this binary (\(binary)); run swift build -c release")
    }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "glass-gpu-bench-cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: cache) }
    let output = cache.appendingPathComponent("out.png").path
    print(
      "glass-gpu-bench process: glass-gpu extend \(width)x\(height), \(inset) px each side, sigma \(sigma), --backend \(backend)"
    )
    for run in 1...max(1, runs) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "extend", input, "-o", output, "--leading", "\(inset)", "--trailing", "\(inset)", "--sigma", "\(sigma)",
        "--backend", backend, "--timings",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["MESA_SHADER_CACHE_DIR"] = cache.path
      process.environment = environment
      let errors = Pipe()
      process.standardError = errors
      let start = Date()
      try process.run()
      let data = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let wall = Date().timeIntervalSince(start) * 1000
      let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
      let label = backend == "cpu" ? "cpu" : run == 1 ? "new shader cache " : "warm shader cache"
      print(String(format: "run %d (%@): wall %7.1f ms  %@", run, label as NSString, wall, line as NSString))
      guard process.terminationStatus == 0 else { throw ExitCode(process.terminationStatus) }
    }
  }
}

struct Generate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a procedural photo as a PNG: the landscape, or the flowers.")

  /// Which picture to draw.
  enum Kind: String, ExpressibleByArgument, CaseIterable {
    case landscape
    case flowers
  }

  @Argument(help: "Output PNG.")
  var output: String

  @Option(help: "The picture: landscape or flowers.")
  var kind = Kind.landscape

  @Option var width = 1920
  @Option var height = 1080

  func run() throws {
    let image =
      switch kind {
      case .landscape: ProceduralImages.landscape(width: width, height: height)
      case .flowers: ProceduralPhotos.flowers(width: width, height: height)
      }
    try PNGCodec.write(image, to: output, compression: 9)
  }
}

struct GenerateIcons: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "icons",
    abstract: "Write every procedural icon as DIR/NAME.png: a white glyph on transparency, 8-bit RGBA.")

  @Argument(help: "Output folder, created if missing.")
  var directory: String

  @Option(help: "Width and height of each icon, in pixels.")
  var size = 96

  func validate() throws {
    guard size > 0 else { throw ValidationError("--size takes a positive number of pixels") }
  }

  func run() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let folder = URL(fileURLWithPath: directory)
    for icon in ProceduralIcons.all {
      let path = folder.appendingPathComponent("\(icon.name).png").path
      try PNGCodec.write(icon.draw(size), to: path, compression: 9)
    }
  }
}
