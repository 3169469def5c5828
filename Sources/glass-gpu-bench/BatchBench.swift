import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

#if canImport(Glibc)
  import Glibc
#endif

extension ImageEncoding.Format: ExpressibleByArgument {}

/// Times `glass-gpu batch` against a loop of `glass-gpu render` processes on the
/// same jobs (issue 8's throughput bar), and with `--memory` compares the batch's
/// peak memory at two job counts.
struct BatchBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract:
      "Frames/s of glass-gpu batch against a loop of glass-gpu render processes, with peak RSS and stage times.",
    discussion: """
      The jobs are made in a temporary folder: the base scene (Landmarks, 960x540 pt
      at scale 2: 1920x1080 px) with every glass shape moved and tinted per job, from
      a seeded generator, as scene files and a JSON Lines manifest. Job k is the same
      whatever --count is.

      For each backend (gpu when `glass-gpu info` finds one, and cpu) one untimed
      `glass-gpu render` warms the Mesa shader cache and the file cache; then one
      `glass-gpu batch --manifest` process renders every job, and a loop of one
      `glass-gpu render` process per job (no shell) renders the first --loop-jobs of
      them. Peak RSS is each process's VmHWM (GLASS_GPU_PEAK_MEMORY_FILE); for the
      loop, the largest. CPU seconds are user + system of the child processes. The
      stage times come from the batch's --report.

      --memory instead runs the batch alone at --memory-counts jobs (the first
      jobs of one list) and compares peak RSS (bar: the largest count within
      10 % of the smallest) and resident memory over the second half of the
      largest run (RSS at its half and at its end, each the median of the 5
      samples around it; bar: under 3 % growth), and prints the caches' sizes
      from the report. Its jobs (--memory-scenes) are distinct small scenes by
      default: each a 64x48 pt canvas at scale 1 whose background is a 32x24 px
      PNG of its own (a seeded gradient and disc, written beside the scenes),
      with a text "Frame k" and a glass label (an icon and "k") at positions of
      its own (fractional points): nothing one job draws is drawn by
      another, so a cache that keeps what it sees once grows with the job
      count. `--memory-scenes base` runs the base scene instead, with such a
      text and label per job (every job shares its image).

      Examples:
        glass-gpu-bench batch
        glass-gpu-bench batch --count 50 --loop-jobs 20 --backend cpu
        glass-gpu-bench batch --memory
      """)

  @Option(help: "Jobs in the batch run.")
  var count = 200

  @Option(help: "Jobs in the loop of glass-gpu render processes: the first N of the batch's (default: all).")
  var loopJobs: Int?

  @Option(parsing: .upToNextOption, help: "Backends: gpu, cpu. gpu is skipped when `glass-gpu info` finds no GPU.")
  var backend: [String] = ["gpu", "cpu"]

  @Option(help: "The base scene; every glass shape in it is moved and tinted per job.")
  var scene = "Assets/scenes/landmarks.json"

  @Option(help: "Seed of the per-job positions and tints.")
  var seed: UInt64 = 8

  @Option(name: .customLong("jobs"), help: "Encoder threads: glass-gpu batch --jobs (default: its own, the cores).")
  var encoders: Int?

  @Flag(help: "Put the scenes inline in the manifest (the loop still reads the scene files).")
  var inline = false

  @Option(help: ArgumentHelp("The outputs' format: png, jpeg or webp (quality 90).", valueName: "png|jpeg|webp"))
  var format: ImageEncoding.Format = .png

  @Option(help: "Decode this many of the loop's outputs and the batch's and compare their pixels.")
  var compare = 10

  @Flag(help: "Compare peak RSS at --memory-counts jobs instead of timing against the loop.")
  var memory = false

  @Option(parsing: .upToNextOption, help: "Job counts of the --memory runs.")
  var memoryCounts: [Int] = [2000, 20000]

  @Option(help: "Pixels per point of the --memory runs (default: the scenes' own, 1 for distinct, 2 for base).")
  var memoryScale: Int?

  @Option(
    help: ArgumentHelp(
      "The --memory runs' jobs: distinct small scenes, each with a background of its own, or the base scene labelled.",
      valueName: "distinct|base"))
  var memoryScenes: MemoryScenes = .distinct

  /// What the --memory runs render.
  enum MemoryScenes: String, ExpressibleByArgument {
    /// `DistinctScenes`: a small canvas, a background image, a text and a label of each job's own.
    case distinct
    /// The base scene, every glass shape moved and tinted, with a text and a label of each job's own.
    case base
  }

  @Flag(help: "Keep the temporary folder and print its path.")
  var keep = false

  func validate() throws {
    guard count > 0 else { throw ValidationError("--count takes 1 or more jobs") }
    if let loopJobs, !(0...count).contains(loopJobs) {
      throw ValidationError("--loop-jobs is \(loopJobs); give 0 to --count (\(count))")
    }
    if let encoders, encoders < 1 { throw ValidationError("--jobs takes 1 or more threads") }
    guard compare >= 0 else { throw ValidationError("--compare takes 0 or more") }
    guard !memoryCounts.isEmpty, memoryCounts.allSatisfy({ $0 > 0 }) else {
      throw ValidationError("--memory-counts takes job counts of 1 or more")
    }
    if let memoryScale, !(1...3).contains(memoryScale) { throw ValidationError("--memory-scale takes 1, 2 or 3") }
    for name in backend where name != "gpu" && name != "cpu" {
      throw ValidationError("--backend takes gpu or cpu, not \(name)")
    }
  }

  func run() throws {
    let binary = try siblingBinary("glass-gpu")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glass-gpu-bench-batch-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer {
      if keep { print("kept \(folder.path)") } else { try? FileManager.default.removeItem(at: folder) }
    }
    let scenes = try BatchScenes(path: scene, seed: seed)
    let total = memory ? memoryCounts.max() ?? count : count
    let distinct = memory && memoryScenes == .distinct
    let jobs =
      distinct
      ? try DistinctScenes(seed: seed).write(count: total, to: folder, inline: inline, format: format)
      : try scenes.write(count: total, to: folder, inline: inline, labelled: memory, format: format)
    let runner = ChildRunner(binary: binary, folder: folder)

    var backends: [String] = []
    var gpuName = ""
    for name in backend {
      if name == "gpu" {
        let info = try runner.run(["info", "--json"], captureStdout: true)
        guard info.status == 0 else {
          print("gpu: skipped, glass-gpu info exits \(info.status) (no GPU context)")
          continue
        }
        gpuName = Self.glRenderer(info.stdout) ?? "unknown"
      }
      backends.append(name)
    }
    var load = [0.0, 0.0, 0.0]
    _ = getloadavg(&load, 3)
    let pixels =
      distinct
      ? DistinctScenes.pixelSize(scale: memoryScale) : scenes.pixelSize(scale: memory ? memoryScale : nil)
    let counts = memory ? memoryCounts.map(String.init).joined(separator: " and ") : "\(count)"
    let what =
      distinct
      ? "distinct small scenes (\(pixels.width)x\(pixels.height) px), each with a background image, a text and "
        + "a glass label of its own at positions of its own (seed \(seed))"
      : "\(scene) (\(pixels.width)x\(pixels.height) px), every glass shape moved and tinted per job (seed \(seed))"
        + (memory ? ", a label and a text of its own at a position of its own per job" : "")
    print(
      "glass-gpu-bench batch\(memory ? " --memory" : ""): \(counts) jobs of \(what), "
        + (inline ? "inline in the manifest" : "scene files named by a manifest"))
    print(
      String(
        format: "machine: %d cores, load average %.2f at the start%@", ProcessInfo.processInfo.activeProcessorCount,
        load[0], gpuName.isEmpty ? "" : ", gpu = \(gpuName)"))
    if memory {
      try runMemory(runner, jobs: jobs, backends: backends)
    } else {
      try runThroughput(runner, jobs: jobs, backends: backends)
    }
  }

  // MARK: Throughput

  func runThroughput(_ runner: ChildRunner, jobs: BatchJobs, backends: [String]) throws {
    let loopCount = loopJobs ?? count
    let threads = encoders ?? ProcessInfo.processInfo.activeProcessorCount
    print(
      "each backend: one untimed glass-gpu render first (Mesa shader cache and file cache warm), then the batch, "
        + "then the loop of \(loopCount) glass-gpu render processes")
    print("backend  run                           jobs    wall s  frames/s   peak MB    cpu s  cores busy")
    for name in backends {
      _ = try runner.run(["render", jobs.scenePaths[0], "-o", runner.path("warm.png"), "--backend", name])
      let alone = try renderAlone(jobs.scenePaths[0], backend: name)

      let out = runner.path("batch-\(name)")
      let report = runner.path("report-\(name).jsonl")
      var arguments = ["batch", "--manifest", jobs.manifest(count), "-o", out, "--backend", name, "--report", report]
      if let encoders { arguments += ["--jobs", "\(encoders)"] }
      let batch = try runner.run(arguments)
      printRow(name, "glass-gpu batch", jobs: count, batch)
      let summary = batch.stderr.split(separator: "\n").last(where: { $0.hasPrefix("batch:") }).map(String.init)
      if batch.status != 0 {
        print("         glass-gpu batch exited \(batch.status): \(batch.firstLines(3))")
      }

      var loop = ChildRun()
      let loopFolder = runner.path("loop-\(name)")
      try FileManager.default.createDirectory(atPath: loopFolder, withIntermediateDirectories: true)
      var loopFailures: [String] = []
      for k in 0..<loopCount {
        let one = try runner.run([
          "render", jobs.scenePaths[k], "-o", "\(loopFolder)/\(jobs.outputs[k])", "--backend", name,
        ])
        loop.add(one)
        if one.status != 0 { loopFailures.append("job \(k): exit \(one.status): \(one.firstLines(1))") }
      }
      if loopCount > 0 {
        printRow(name, "loop of glass-gpu render", jobs: loopCount, loop)
        let ratio = (Double(count) / batch.seconds) / (Double(loopCount) / loop.seconds)
        let label = "batch / loop"
        print(
          String(
            format: "%@ %@ %9.2fx   (bar: 2.5x; goal: 15 frames/s)", pad(name, 8), pad(label, 46), ratio))
      }
      for failure in loopFailures.prefix(3) { print("         loop \(failure)") }
      if let summary { print("         \(summary)") }

      let stats = try ReportStats(path: report)
      print(
        "         report: \(stats.rendered) rendered, \(stats.failed) failed, \(stats.skipped) skipped"
          + (stats.firstError.map { "; first error: \($0)" } ?? ""))
      print("         \(stats.stageLine(wall: batch.seconds))")
      print("         \(limitsLine(stats, batch: batch, threads: threads, alone: alone))")
      print("         \(budgetLine(stats))")
      if loopCount > 0 {
        print("         \(compareLine(jobs: jobs, batchFolder: out, loopFolder: loopFolder))")
      }
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(atPath: loopFolder)
    }
  }

  func printRow(_ backend: String, _ label: String, jobs: Int, _ run: ChildRun) {
    print(
      String(
        format: "%@ %@ %5d %9.2f %9.2f %9.1f %8.1f %6.2f of %d", pad(backend, 8), pad(label, 28), jobs,
        run.seconds, Double(jobs) / run.seconds, Double(run.peakKilobytes) / 1000, run.cpuSeconds,
        run.cpuSeconds / run.seconds, ProcessInfo.processInfo.activeProcessorCount))
  }

  /// What could limit the rate: the renderer's one thread, the encoders, the cores;
  /// and the render of job 0 alone, for how much the other stages slow it.
  func limitsLine(_ stats: ReportStats, batch: ChildRun, threads: Int, alone: Double) -> String {
    let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
    let cpuPerFrame = batch.cpuSeconds / Double(max(1, stats.rendered))
    let render = stats.mean("render_ms")
    let encode = stats.mean("encode_ms")
    return String(
      format:
        "rate limits: render thread %.1f frames/s, %d encoders %.1f frames/s, CPU %.0f ms per frame on %.0f cores "
        + "%.1f frames/s; job 0 rendered alone in this process, warm: %.1f ms (median of 10), %.1fx faster",
      render > 0 ? 1000 / render : 0, threads, encode > 0 ? Double(threads) * 1000 / encode : 0, cpuPerFrame * 1000,
      cores, cpuPerFrame > 0 ? cores / cpuPerFrame : 0, alone, alone > 0 ? render / alone : 0)
  }

  /// The CPU a frame costs outside rendering, each stage on one core: what a
  /// host whose GPU renders pays per frame (the batch's own counters).
  func budgetLine(_ stats: ReportStats) -> String {
    let names = ["prepare", "conversion", "encode", "write"]
    let cpu = names.map { ($0, stats.mean("cpu_ms.\($0)")) }
    let wall = names.map { stats.mean("\($0)_ms") }
    let total = cpu.reduce(0) { $0 + $1.1 }
    return "frame CPU outside rendering (CPU ms of one core per frame, the batch's own counters): "
      + cpu.map { String(format: "%@ %.1f", $0.0 as NSString, $0.1) }.joined(separator: " + ")
      + String(format: " = %.1f ms (goal: under 10; ", total)
      + String(format: "wall in the batch, waiting for a core included: %.1f ms); ", wall.reduce(0, +))
      + String(format: "%@ mean %.0f bytes", format.displayName as NSString, stats.mean("bytes"))
  }

  /// The median milliseconds (upload + render + readback) of the scene rendered
  /// alone, warm, in this process: what a render costs when nothing else runs.
  func renderAlone(_ path: String, backend name: String) throws -> Double {
    guard let choice = BackendChoice(rawValue: name) else { return 0 }
    let file = try SceneFile(path: path)
    let images = try file.loadImages()
    let renderer = try Renderer(backend: choice)
    defer { renderer.close() }
    var samples: [Double] = []
    for i in 0..<13 {
      var t = RenderTimings()
      _ = try renderer.render(file.scene, images: images, timings: &t)
      if i >= 3 { samples.append(t.uploadMilliseconds + t.renderMilliseconds + t.readbackMilliseconds) }
    }
    return Stats(samples).median
  }

  /// An output's pixels, in its format.
  func decode(_ data: Data?) -> RGBAImage? {
    guard let data else { return nil }
    if format == .png { return try? PNGCodec.decode([UInt8](data), name: "output").image }
    return try? LossyDecoder.decode([UInt8](data), format: format)
  }

  /// Compares the loop's outputs with the batch's: sizes over every loop job,
  /// bytes and decoded pixels over the first --compare.
  func compareLine(jobs: BatchJobs, batchFolder: String, loopFolder: String) -> String {
    let loopCount = loopJobs ?? count
    let checked = min(compare, loopCount)
    var sizes = (batch: 0, loop: 0)
    var sameBytes = 0
    var samePixels = 0
    var differing: [String] = []
    for k in 0..<loopCount {
      let a = FileManager.default.contents(atPath: "\(batchFolder)/\(jobs.outputs[k])")
      let b = FileManager.default.contents(atPath: "\(loopFolder)/\(jobs.outputs[k])")
      sizes.batch += a?.count ?? 0
      sizes.loop += b?.count ?? 0
      guard k < checked else { continue }
      if let a, a == b { sameBytes += 1 }
      let pixelsA = decode(a)
      let pixelsB = decode(b)
      if let pixelsA, pixelsA == pixelsB { samePixels += 1 } else { differing.append(jobs.outputs[k]) }
    }
    let n = Double(max(1, loopCount))
    return String(
      format: "loop's jobs: %@ mean %.0f bytes (batch), %.0f (loop); of %d compared, %d same pixels, %d same bytes%@",
      format.displayName as NSString, Double(sizes.batch) / n, Double(sizes.loop) / n, checked, samePixels, sameBytes,
      differing.isEmpty ? "" : " (pixels differ: \(differing.prefix(5).joined(separator: ", ")))")
  }

  // MARK: Memory

  func runMemory(_ runner: ChildRunner, jobs: BatchJobs, backends: [String]) throws {
    let counts = memoryCounts.sorted()
    print(
      "one glass-gpu batch process per count, the counts running the first jobs of one list; peak RSS (VmHWM); "
        + "RSS sampled every 0.25 s: at the run's half and at its end (each the median of the 5 samples around it)")
    if let memoryScale {
      print("--memory-scale \(memoryScale): the same scenes on a smaller canvas, asked for to make the runs shorter")
    }
    print("backend   jobs    wall s  frames/s   peak MB  half MB   end MB  2nd half   failed")
    for name in backends {
      _ = try runner.run(["render", jobs.scenePaths[0], "-o", runner.path("warm.png"), "--backend", name])
      var peaks: [Int] = []
      var last: (run: ChildRun, stats: ReportStats)?
      for n in counts {
        let out = runner.path("memory-\(name)-\(n)")
        let report = runner.path("memory-\(name)-\(n).jsonl")
        var arguments = ["batch", "--manifest", jobs.manifest(n), "-o", out, "--backend", name, "--report", report]
        if let memoryScale { arguments += ["--scale", "\(memoryScale)"] }
        if let encoders { arguments += ["--jobs", "\(encoders)"] }
        let run = try runner.run(arguments)
        let stats = try ReportStats(path: report)
        let (half, end) = run.halfAndEndKilobytes
        print(
          String(
            format: "%@ %5d %9.2f %9.2f %9.1f %8.1f %8.1f %8@ %8d", pad(name, 8), n, run.seconds,
            Double(n) / run.seconds, Double(run.peakKilobytes) / 1000, Double(half) / 1000, Double(end) / 1000,
            (half > 0 ? String(format: "%+.2f %%", 100 * Double(end - half) / Double(half)) : "n/a") as NSString,
            stats.failed))
        if run.status != 0 { print("         glass-gpu batch exited \(run.status): \(run.firstLines(3))") }
        peaks.append(run.peakKilobytes)
        last = (run, stats)
        try? FileManager.default.removeItem(atPath: out)
      }
      if let first = peaks.first, let largest = peaks.last, first > 0, counts.count > 1 {
        let ratio = Double(largest) / Double(first)
        print(
          String(
            format: "%@ peak RSS at %d jobs / at %d jobs: %.3f (bar: at most 1.10) %@", pad(name, 8),
            counts[counts.count - 1], counts[0], ratio, (ratio <= 1.10 ? "PASS" : "FAIL") as NSString))
      }
      if let (run, stats) = last {
        let (half, end) = run.halfAndEndKilobytes
        if half > 0 {
          let growth = Double(end - half) / Double(half)
          print(
            String(
              format: "%@ RSS growth over the second half of the %d-job run: %+.2f %% (bar: under 3 %%) %@",
              pad(name, 8), counts[counts.count - 1], 100 * growth, (growth < 0.03 ? "PASS" : "FAIL") as NSString))
        }
        print("         caches at the end of the \(counts[counts.count - 1])-job run (from the report's last line):")
        for line in stats.cacheLines { print("           \(line)") }
      }
    }
  }

  static func glRenderer(_ json: String) -> String? {
    guard case .object(let members) = try? JSONValue.parse(Array(json.utf8)),
      case .string(let name) = members.first(where: { $0.key == "glRenderer" })?.value
    else { return nil }
    return name
  }
}

/// `text` padded with spaces to `width` characters, for `%@` (whose width
/// corelibs Foundation ignores).
func pad(_ text: String, _ width: Int) -> NSString {
  text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) as NSString
}

/// The glass-gpu binary beside this one.
func siblingBinary(_ name: String) throws -> String {
  let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent(name).path
  guard FileManager.default.isExecutableFile(atPath: path) else {
    throw ValidationError("\(name) is not built beside this binary (\(path)); run swift build -c release")
  }
  return path
}

// MARK: Jobs

/// The base scene, with its image paths made absolute, and its per-job variants.
struct BatchScenes {
  let base: JSONValue
  let seed: UInt64
  let widthPoints: Double
  let heightPoints: Double
  let scale: Double

  init(path: String, seed: UInt64) throws {
    let url = URL(fileURLWithPath: path)
    let bytes = try [UInt8](Data(contentsOf: url))
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(bytes) } catch { throw ValidationError("\(path): \(error.message)") }
    base = Self.absolutePaths(parsed, directory: url.deletingLastPathComponent())
    self.seed = seed
    let size = base["size"]
    guard let width = size?["width"]?.number, let height = size?["height"]?.number else {
      throw ValidationError("\(path): no size")
    }
    widthPoints = width
    heightPoints = height
    scale = base["scale"]?.number ?? 2
  }

  /// The output's size at `scale` (default: the scene's).
  func pixelSize(scale: Int?) -> PixelSize {
    let s = scale.map(Double.init) ?? self.scale
    return PixelSize(width: Int((widthPoints * s).rounded()), height: Int((heightPoints * s).rounded()))
  }

  /// Image paths (`source`, `image`) resolved against the scene's folder.
  static func absolutePaths(_ value: JSONValue, directory: URL) -> JSONValue {
    switch value {
    case .object(let members):
      return .object(
        members.map { member in
          if member.key == "source" || member.key == "image", case .string(let path) = member.value,
            !path.hasPrefix("/")
          {
            return (member.key, .string(directory.appendingPathComponent(path).standardized.path))
          }
          return (member.key, absolutePaths(member.value, directory: directory))
        })
    case .array(let items): return .array(items.map { absolutePaths($0, directory: directory) })
    default: return value
    }
  }

  /// Job `index`: every glass shape moved (up to 120 pt sideways, 0 to 120 pt down,
  /// kept on the canvas) and tinted, from a generator seeded by the seed and index;
  /// `labelled`, with a text "Frame k" and a label "Job k" (an icon and the text,
  /// on glass) of its own at a position of its own, fractional points.
  func scene(_ index: Int, labelled: Bool = false) -> JSONValue {
    var random = SplitMix(state: seed &* 0x1000_0000_01B3 &+ UInt64(index))
    guard case .object(var members) = base, let at = members.firstIndex(where: { $0.key == "layers" }),
      case .array(let layers) = members[at].value
    else { return base }
    var varied = layers.map { layer in
      switch layer["type"]?.string {
      case "glass": return vary(layer, &random)
      case "glassContainer":
        return layer.replacing("glass") { glass in
          guard case .array(let items) = glass else { return glass }
          return .array(items.map { vary($0, &random) })
        }
      default: return layer
      }
    }
    if labelled {
      let x = 20 + random.uniform(0, widthPoints / 2)
      let y = 20 + random.uniform(0, heightPoints / 2)
      varied += [
        .object([
          ("type", .string("text")), ("text", .string("Frame \(index)")), ("font", .string("title")),
          ("frame", .object([("x", .number(x)), ("y", .number(y))])),
        ]),
        .object([
          ("type", .string("glass")), ("frame", .object([("x", .number(x + 7.3)), ("y", .number(y + 50.6))])),
          ("content", .object([("text", .string("Job \(index)")), ("systemImage", .string("star.fill"))])),
        ]),
      ]
    }
    members[at].value = .array(varied)
    return .object(members)
  }

  private func vary(_ glass: JSONValue, _ random: inout SplitMix) -> JSONValue {
    var moved = glass.replacing("frame") { frame in
      let width = frame["width"]?.number ?? 0
      let height = frame["height"]?.number ?? 0
      let x = (frame["x"]?.number ?? 0) + random.uniform(-120, 120)
      let y = (frame["y"]?.number ?? 0) + random.uniform(0, 120)
      return frame.setting("x", .number(min(max(0, x), max(0, widthPoints - width)).rounded()))
        .setting("y", .number(min(max(0, y), max(0, heightPoints - height)).rounded()))
    }
    let rgba = (0..<3).map { _ in Int(random.uniform(0, 256)) } + [Int(random.uniform(0x30, 0x90))]
    let tint = JSONValue.string("#" + rgba.map { String(format: "%02x", $0) }.joined())
    switch moved["glass"] {
    case .object: moved = moved.replacing("glass") { $0.setting("tint", tint) }
    case .string(let variant):
      moved = moved.setting("glass", .object([("variant", .string(variant)), ("tint", tint)]))
    default: moved = moved.setting("glass", .object([("variant", .string("regular")), ("tint", tint)]))
    }
    return moved
  }

  /// Writes `count` jobs' scene files (scenes/NNNNN.json), and `manifest(n)` for
  /// the first n; `labelled`: each with its own label (`scene(_:labelled:)`).
  func write(
    count: Int, to folder: URL, inline: Bool, labelled: Bool = false, format: ImageEncoding.Format = .png
  ) throws -> BatchJobs {
    let scenes = folder.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    var jobs = BatchJobs(folder: folder)
    var lines: [String] = []
    for index in 0..<count {
      let name = String(format: "%05d", index)
      let variant = scene(index, labelled: labelled)
      let path = scenes.appendingPathComponent("\(name).json").path
      try Data((variant.formatted() + "\n").utf8).write(to: URL(fileURLWithPath: path))
      jobs.scenePaths.append(path)
      let output = "\(name).\(format.fileExtension)"
      jobs.outputs.append(output)
      let source: JSONValue = inline ? variant : .string("scenes/\(name).json")
      lines.append(JSONValue.object([("scene", source), ("output", .string(output))]).compactText)
    }
    jobs.lines = lines
    return jobs
  }
}

/// Distinct small scenes for the --memory runs: job k is a 64x48 pt canvas at
/// scale 1 whose background is a 32x24 px PNG of its own (a gradient between two
/// seeded colours and a seeded disc, images/NNNNN.png), with a text "Frame k" and
/// a glass label (an icon and "k") at positions of its own, in fractional points.
/// No two jobs share an image, a text mask or a text layout; they share fonts,
/// glyphs and the icon.
struct DistinctScenes {
  let seed: UInt64
  static let widthPoints = 64.0
  static let heightPoints = 48.0
  static let imageSize = PixelSize(width: 32, height: 24)

  /// The output's size at `scale` (default 1).
  static func pixelSize(scale: Int?) -> PixelSize {
    let s = Double(scale ?? 1)
    return PixelSize(width: Int((widthPoints * s).rounded()), height: Int((heightPoints * s).rounded()))
  }

  /// Job `index`'s background: a horizontal gradient between two colours and a
  /// disc of a third, all from a generator seeded by the seed and index.
  func background(_ index: Int) -> RGBAImage {
    var random = SplitMix(state: seed &* 0x9E37_79B9 &+ UInt64(index) &* 0x1_0000_0001)
    func colour() -> SIMD3<Double> { SIMD3(random.uniform(0, 255), random.uniform(0, 255), random.uniform(0, 255)) }
    let (a, b, disc) = (colour(), colour(), colour())
    let size = Self.imageSize
    let centre = SIMD2(random.uniform(0, Double(size.width)), random.uniform(0, Double(size.height)))
    let radius = random.uniform(3, 10)
    return RGBAImage(width: size.width, height: size.height) { x, y in
      let t = Double(x) / Double(size.width - 1)
      let dx = Double(x) + 0.5 - centre.x
      let dy = Double(y) + 0.5 - centre.y
      let c = dx * dx + dy * dy < radius * radius ? disc : a + (b - a) * t
      return SIMD4(UInt8(c.x), UInt8(c.y), UInt8(c.z), 255)
    }
  }

  /// Job `index`'s scene; its background is `image` (a path).
  func scene(_ index: Int, image: String) -> JSONValue {
    var random = SplitMix(state: seed &* 0x1000_0000_01B3 &+ UInt64(index))
    let x = random.uniform(1, 5)
    let y = random.uniform(1, 6)
    let labelX = random.uniform(0, 6)
    let labelY = random.uniform(18, 23)
    return .object([
      ("version", .number(1)),
      ("size", .object([("width", .number(Self.widthPoints)), ("height", .number(Self.heightPoints))])),
      ("scale", .number(1)),
      ("background", .object([("image", .string(image))])),
      (
        "layers",
        .array([
          .object([
            ("type", .string("text")), ("text", .string("Frame \(index)")), ("font", .string("caption2")),
            ("frame", .object([("x", .number(x)), ("y", .number(y))])),
          ]),
          .object([
            ("type", .string("glass")), ("frame", .object([("x", .number(labelX)), ("y", .number(labelY))])),
            (
              "content",
              .object([
                ("text", .string("\(index)")), ("systemImage", .string("star.fill")),
                ("font", .string("caption2")),
              ])
            ),
          ]),
        ])
      ),
    ])
  }

  /// Writes `count` jobs' backgrounds (images/NNNNN.png), scene files
  /// (scenes/NNNNN.json), and `manifest(n)` for the first n.
  func write(count: Int, to folder: URL, inline: Bool, format: ImageEncoding.Format) throws -> BatchJobs {
    let scenes = folder.appendingPathComponent("scenes")
    let images = folder.appendingPathComponent("images")
    for made in [scenes, images] {
      try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
    }
    var jobs = BatchJobs(folder: folder)
    for index in 0..<count {
      let name = String(format: "%05d", index)
      let image = images.appendingPathComponent("\(name).png").path
      try PNGCodec.write(background(index), to: image)
      let variant = scene(index, image: image)
      let path = scenes.appendingPathComponent("\(name).json").path
      try Data((variant.formatted() + "\n").utf8).write(to: URL(fileURLWithPath: path))
      jobs.scenePaths.append(path)
      let output = "\(name).\(format.fileExtension)"
      jobs.outputs.append(output)
      let source: JSONValue = inline ? variant : .string("scenes/\(name).json")
      jobs.lines.append(JSONValue.object([("scene", source), ("output", .string(output))]).compactText)
    }
    return jobs
  }
}

/// The jobs on disk: scene files, output names, and manifests of their first n.
struct BatchJobs {
  let folder: URL
  var scenePaths: [String] = []
  var outputs: [String] = []
  var lines: [String] = []

  init(folder: URL) { self.folder = folder }

  /// A manifest of the first `n` jobs, written once.
  func manifest(_ n: Int) -> String {
    let path = folder.appendingPathComponent("manifest-\(n).jsonl").path
    if !FileManager.default.fileExists(atPath: path) {
      try? Data((lines.prefix(n).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
    return path
  }
}

extension JSONValue {
  /// The member `key` of an object.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first(where: { $0.key == key })?.value
  }

  var number: Double? { if case .number(let v) = self { v } else { nil } }
  var string: String? { if case .string(let v) = self { v } else { nil } }

  /// The object with member `key` set (in place, or appended).
  func setting(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(var members) = self else { return self }
    if let at = members.firstIndex(where: { $0.key == key }) {
      members[at].value = value
    } else {
      members.append((key, value))
    }
    return .object(members)
  }

  /// The object with member `key` replaced by `change(old)`, when it has one.
  func replacing(_ key: String, _ change: (JSONValue) -> JSONValue) -> JSONValue {
    guard let old = self[key] else { return self }
    return setting(key, change(old))
  }
}

// MARK: Processes

/// One or more child processes' wall time, peak RSS and CPU time.
struct ChildRun {
  var status: Int32 = 0
  var seconds = 0.0
  var peakKilobytes = 0
  var cpuSeconds = 0.0
  /// VmRSS in kilobytes, sampled every quarter second while it ran.
  var rssSamples: [Int] = []
  var stdout = ""
  var stderr = ""

  /// The median of the second half of the RSS samples: the steady state, which,
  /// unlike the peak, a moment when more jobs than usual are in flight does not move;
  /// 0 for a run of under 8 samples (2 s).
  var steadyKilobytes: Int {
    guard rssSamples.count >= 8 else { return 0 }
    let half = rssSamples.suffix(max(1, rssSamples.count / 2)).sorted()
    return half.isEmpty ? 0 : half[half.count / 2]
  }

  /// RSS at the run's half and at its end, in kilobytes: each the median of the
  /// 5 samples around that time (0 and 0 for a run of under 20 samples, 5 s).
  var halfAndEndKilobytes: (half: Int, end: Int) {
    guard rssSamples.count >= 20 else { return (0, 0) }
    func median(_ slice: ArraySlice<Int>) -> Int { slice.sorted()[slice.count / 2] }
    let middle = rssSamples.count / 2
    return (median(rssSamples[(middle - 2)...(middle + 2)]), median(rssSamples.suffix(5)))
  }

  /// Adds a later run: times add up, the peak is the larger.
  mutating func add(_ other: ChildRun) {
    seconds += other.seconds
    cpuSeconds += other.cpuSeconds
    peakKilobytes = max(peakKilobytes, other.peakKilobytes)
    if status == 0 { status = other.status }
  }

  func firstLines(_ n: Int) -> String {
    stderr.split(separator: "\n").prefix(n).joined(separator: " | ")
  }
}

/// Runs glass-gpu as a child process, no shell, with GLASS_GPU_PEAK_MEMORY_FILE set.
struct ChildRunner {
  let binary: String
  let folder: URL

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  func run(_ arguments: [String], captureStdout: Bool = false) throws -> ChildRun {
    let peakFile = path("peak-kb")
    try? FileManager.default.removeItem(atPath: peakFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["GLASS_GPU_PEAK_MEMORY_FILE": peakFile]) {
      $1
    }
    let errors = Pipe()
    let output = Pipe()
    process.standardError = errors
    process.standardOutput = captureStdout ? output : FileHandle.nullDevice
    let before = Self.childCPUSeconds()
    let start = ContinuousClock.now
    try process.run()
    let sampler = RSSSampler(pid: process.processIdentifier)
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    let outputData = captureStdout ? output.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    let elapsed = (ContinuousClock.now - start).components
    let samples = sampler.stop()
    let peak = (try? String(contentsOfFile: peakFile, encoding: .utf8)).flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return ChildRun(
      status: process.terminationStatus,
      seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18, peakKilobytes: peak ?? 0,
      cpuSeconds: Self.childCPUSeconds() - before, rssSamples: samples,
      stdout: String(decoding: outputData, as: UTF8.self), stderr: String(decoding: errorData, as: UTF8.self))
  }

  /// User + system seconds of every child process waited for so far.
  static func childCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
      _ = getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    #else
      _ = getrusage(RUSAGE_CHILDREN, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }
}

/// Reads a process's VmRSS every quarter second, on its own thread, until stopped.
final class RSSSampler: @unchecked Sendable {
  private let lock = NSLock()
  private var samples: [Int] = []
  private var running = true
  private let done = DispatchSemaphore(value: 0)

  init(pid: Int32) {
    let thread = Thread { [self] in
      while lock.withLock({ running }) {
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({
            Int($0)
          })
        {
          lock.withLock { samples.append(kilobytes) }
        }
        Thread.sleep(forTimeInterval: 0.25)
      }
      done.signal()
    }
    thread.start()
  }

  /// Stops sampling and returns the samples.
  func stop() -> [Int] {
    lock.withLock { running = false }
    done.wait()
    return lock.withLock { samples }
  }
}

// MARK: The report

/// Counts and per-stage means of a batch report (docs/batch-format.md).
struct ReportStats {
  var rendered = 0
  var failed = 0
  var skipped = 0
  var firstError: String?
  /// Stage names in the order the report gives them, and each stage's sum over rendered jobs.
  var stages: [String] = []
  var sums: [String: Double] = [:]
  /// The caches line at the report's end, one line per cache.
  var cacheLines: [String] = []

  init(path: String) throws {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      guard let record = try? JSONValue.parse(Array(line.utf8)) else { continue }
      if case .object(let caches) = record["caches"] {
        cacheLines = caches.map { name, value in
          func n(_ key: String) -> Double { value[key]?.number ?? 0 }
          return String(
            format: "%@ %6.0f entries %9.2f MB of %8.2f MB, %7.0f evictions, %8.0f hits, %7.0f misses",
            pad(name, 13), n("entries"), n("bytes") / 1e6, n("budget_bytes") / 1e6, n("evictions"), n("hits"),
            n("misses"))
        }
      }
      switch record["status"]?.string {
      case "rendered":
        rendered += 1
        sums["bytes", default: 0] += record["bytes"]?.number ?? 0
        if case .object(let timings) = record["timings"] {
          for (key, value) in timings {
            guard let ms = value.number else { continue }
            if sums[key] == nil { stages.append(key) }
            sums[key, default: 0] += ms
          }
        }
        // CPU milliseconds per stage, as "cpu_ms.encode" (not stages of the stage line).
        if case .object(let cpu) = record["cpu_ms"] {
          for (key, value) in cpu { sums["cpu_ms.\(key)", default: 0] += value.number ?? 0 }
        }
      case "failed":
        failed += 1
        if firstError == nil { firstError = record["error"]?.string }
      case "skipped": skipped += 1
      default: continue
      }
    }
  }

  /// The mean of `key` over rendered jobs.
  func mean(_ key: String) -> Double { rendered > 0 ? (sums[key] ?? 0) / Double(rendered) : 0 }

  /// `prepare 21.4 ms (0.30 busy), ...`: each stage's mean, and its sum over the
  /// wall time (how many threads it kept busy on average).
  func stageLine(wall: Double) -> String {
    let parts = stages.map { key -> String in
      let name = key.hasSuffix("_ms") ? String(key.dropLast(3)) : key
      let busy = (sums[key] ?? 0) / 1000 / wall
      let what = key == "wait_ms" ? "waiting" : "busy"
      return String(format: "%@ %.1f ms (%.2f %@)", name as NSString, mean(key), busy, what as NSString)
    }
    return "stage means per job (in brackets, sum / wall: jobs in the stage on average): "
      + parts.joined(separator: ", ")
  }
}
