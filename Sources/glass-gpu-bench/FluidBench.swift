import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 9's two costs: eight glass shapes blending into one body against the
/// same eight apart, and a 1080p transition against the batch rate.
struct FluidBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fluid",
    abstract: "Blend cost (8 capsules in one body against 8 apart) and a 120-frame 1080p transition's frames/s.",
    discussion: """
      blend: a 1280x720 px photo (the procedural landscape) with 8 regular capsules
      of 100x60 pt (scale 2) in two rows of four. Blended: 10 pt gaps in a container
      of spacing 20, one glass pass of 8 members. Apart, two ways: the same positions
      in a container of spacing 0 (the same shapes and backdrop, only the blend
      differs), and 40 pt gaps in a container of spacing 20 (a larger backdrop).
      The lowering is checked: the prepared graphs' pass counts, and the glass
      passes' labels from GLASS_GPU_TRACE=1 glass-gpu render --backend cpu (the
      glass-gpu beside this binary). Each scene is rendered --warmup times, then
      timed --runs times, the scenes taking turns; medians of upload + render +
      readback, the glass alone (minus the photo alone), and blended / apart
      against issue 9's bar of 1.5x.

      transition: a 960x540 pt scene at scale 2 (1920x1080 px) like
      Assets/scenes/morph.json: the photo, and in a container of spacing 40 a
      pencil that an eraser grows out of (matched geometry), collapsed to expanded
      over a 2 s ease-in-out (longer when --frames / --fps is). Its first --frames
      frames at --fps go through a BatchRenderer as jobs (PNGs encoded off the
      render thread, into a temporary folder; glass-gpu animate renders them in
      order with AnimationRenderer instead), against as
      many jobs of one static frame (the expanded state, the last frame) through
      the same BatchRenderer: the batch rate. Each run has a new BatchRenderer (image cache)
      on one warm renderer; the runs alternate, --repeats times each. Then what
      bounds the rate: scene interpolation, prepare on one thread, render alone,
      and encode + write alone on --jobs threads.

      Example:
        glass-gpu-bench fluid
        glass-gpu-bench fluid --part blend --backend gpu --runs 31
        glass-gpu-bench fluid --part transition --repeats 5
      """)

  /// Which half to run.
  enum Part: String, ExpressibleByArgument, CaseIterable {
    case both, blend, transition
  }

  @Option(help: "blend, transition or both.")
  var part = Part.both

  @Option(help: "Backends to time: gpu, cpu or both.")
  var backend: String = "both"

  @Option(help: "Untimed renders of each blend scene first.")
  var warmup = 3

  @Option(help: "Timed renders of each blend scene.")
  var runs = 15

  @Option(help: "Frames of the transition (and static jobs of the batch rate).")
  var frames = 120

  @Option(help: "Frames per second of the transition.")
  var fps = 60.0

  @Option(help: "Batch runs of each kind (static, transition), alternating.")
  var repeats = 3

  @Option(help: "Encoder threads of the batch.")
  var jobs = ProcessInfo.processInfo.activeProcessorCount

  func validate() throws {
    guard ["gpu", "cpu", "both"].contains(backend) else { throw ValidationError("--backend takes gpu, cpu or both") }
    guard warmup >= 0, runs >= 1 else { throw ValidationError("--warmup takes 0 or more and --runs 1 or more") }
    guard frames >= 2 else { throw ValidationError("--frames takes 2 or more") }
    guard fps.isFinite, fps > 0, fps <= 1000 else { throw ValidationError("--fps takes above 0, at most 1000") }
    guard repeats >= 1 else { throw ValidationError("--repeats takes 1 or more") }
    guard (1...64).contains(jobs) else { throw ValidationError("--jobs takes 1 to 64") }
  }

  var backends: [BackendChoice] { backend == "both" ? [.gpu, .cpu] : [BackendChoice(rawValue: backend) ?? .gpu] }

  func run() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glass-gpu-bench-fluid-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    if part != .transition { try runBlend(folder: folder) }
    if part == .both { print("") }
    if part != .blend { try runTransition(folder: folder) }
  }

  // MARK: Blend cost

  /// One scene of the blend comparison.
  struct BlendCase {
    var label: String
    var scene: Scene
    /// Glass passes the lowering should make, and members in each.
    var expected: [Int]
  }

  func runBlend(folder: URL) throws {
    let (photo, photoPath) = try benchmarkImage(width: 1280, height: 720)
    let images = SceneImages([photoPath: photo])
    func scene(_ layers: [Layer]) -> Scene {
      Scene(
        size: PointSize(width: 640, height: 360), scale: 2, background: .image(photoPath, contentMode: .fill),
        layers: layers)
    }
    /// 8 capsules of 100x60 pt in two rows of four, `gap` points apart, centred.
    func capsules(gap: Double) -> [GlassLayer] {
      let x0 = (640 - (4 * 100 + 3 * gap)) / 2
      let y0 = (360 - (2 * 60 + gap)) / 2
      return (0..<8).map { i in
        GlassLayer(
          glass: .regular, shape: .capsule,
          frame: PointRect(
            x: x0 + Double(i % 4) * (100 + gap), y: y0 + Double(i / 4) * (60 + gap), width: 100, height: 60))
      }
    }
    let photoAlone = BlendCase(label: "photo alone (no glass)", scene: scene([]), expected: [])
    let one = scene([.container(GlassContainer(spacing: 20, glass: [capsules(gap: 10)[0]]))])
    let cases = [
      photoAlone,
      BlendCase(
        label: "blended: 10 pt gaps, spacing 20",
        scene: scene([.container(GlassContainer(spacing: 20, glass: capsules(gap: 10)))]), expected: [8]),
      BlendCase(
        label: "apart: same positions, spacing 0",
        scene: scene([.container(GlassContainer(spacing: 0, glass: capsules(gap: 10)))]),
        expected: Array(repeating: 1, count: 8)),
      BlendCase(
        label: "apart: 40 pt gaps, spacing 20",
        scene: scene([.container(GlassContainer(spacing: 20, glass: capsules(gap: 40)))]),
        expected: Array(repeating: 1, count: 8)),
    ]
    print(
      "glass-gpu-bench fluid blend: 1280x720 px photo, 8 regular capsules of 100x60 pt (200x120 px) in 2 rows of 4, "
        + "median of \(runs) runs after \(warmup) warm-up, the scenes taking turns")

    // The lowering: pass counts of the prepared graphs. A container of one capsule
    // has the backdrop copy, the frost passes and one glass pass; each scene here
    // differs from it only in its glass passes.
    let prepared = try cases.map { try Renderer.prepare($0.scene, images: images) }
    let onePasses = try Renderer.prepare(one, images: images).passCount
    print(
      "lowering: passes of each prepared graph; glass passes = passes - (a container of one capsule's) + 1 "
        + "(a blended body's pass is cut into cells, each drawing the members that can change it)")
    for (c, p) in zip(cases, prepared) where !c.expected.isEmpty {
      let glass = p.passCount - onePasses + 1
      print("  \(pad(c.label, 34)) \(p.passCount) passes, \(glass) glass pass\(glass == 1 ? "" : "es")")
      guard glass >= c.expected.count else {
        throw BenchFailure("\(c.label): \(glass) glass passes, expected at least \(c.expected.count)")
      }
    }
    try traceGlassPasses(cases.filter { !$0.expected.isEmpty }, folder: folder)

    print("backend  scene                               median ms    min ms    glass ms (minus the photo alone)")
    for choice in backends {
      let renderer: Renderer
      do { renderer = try Renderer(backend: choice) } catch {
        print("\(pad(choice.rawValue, 8)) unavailable (\(error))")
        continue
      }
      defer { renderer.close() }
      var samples = Array(repeating: [Double](), count: cases.count)
      for round in 0..<(warmup + runs) {
        for (index, p) in prepared.enumerated() {
          var t = RenderTimings()
          _ = try renderer.render(p, timings: &t)
          if round >= warmup {
            samples[index].append(t.uploadMilliseconds + t.renderMilliseconds + t.readbackMilliseconds)
          }
        }
      }
      let stats = samples.map(Stats.init)
      let base = stats[0].median
      for (c, s) in zip(cases, stats) {
        let glass = c.expected.isEmpty ? "" : String(format: "%8.2f", s.median - base)
        print(
          String(
            format: "%@ %@ %9.2f %9.2f    %@", pad(choice.rawValue, 8), pad(c.label, 34), s.median, s.minimum,
            glass as NSString))
      }
      let blended = stats[1].median
      for (index, what) in [(2, "same positions"), (3, "40 pt gaps")] {
        let apart = stats[index].median
        let whole = blended / apart
        let glass = apart > base ? (blended - base) / (apart - base) : .infinity
        print(
          String(
            format: "%@ blended / apart (%@): whole frame %.2fx %@, glass alone %.2fx %@   (bar: 1.5x)",
            pad(choice.rawValue, 8), what as NSString, whole, verdict(whole) as NSString, glass,
            verdict(glass) as NSString))
      }
    }
  }

  func verdict(_ ratio: Double) -> String { ratio <= 1.5 ? "PASS" : "OVER BUDGET" }

  /// Renders each case once with `GLASS_GPU_TRACE=1 glass-gpu render --backend cpu`
  /// and prints its glass passes' labels (`layer 0 glass 0+1+...`): the lowering's
  /// own names, which the library does not otherwise make public. Checks each
  /// against the case's expected members.
  func traceGlassPasses(_ cases: [BlendCase], folder: URL) throws {
    guard let binary = try? siblingBinary("glass-gpu") else {
      print("trace: skipped, glass-gpu is not built beside this binary (swift build -c release --product glass-gpu)")
      return
    }
    print("trace: the glass bodies of GLASS_GPU_TRACE=1 glass-gpu render --backend cpu (name: members)")
    for (index, c) in cases.enumerated() {
      let scenePath = folder.appendingPathComponent("blend-\(index).json").path
      try Data(c.scene.json.utf8).write(to: URL(fileURLWithPath: scenePath))
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "render", scenePath, "-o", folder.appendingPathComponent("blend-\(index).png").path, "--backend", "cpu",
      ]
      process.environment = ProcessInfo.processInfo.environment.merging(["GLASS_GPU_TRACE": "1"]) { $1 }
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw BenchFailure("glass-gpu render of \(c.label) exited \(process.terminationStatus): \(text)")
      }
      // "glass-gpu trace: pass NAME PRIMITIVE AREA px MS ms"
      let glassPasses = text.split(separator: "\n").compactMap { line -> String? in
        guard let at = line.range(of: "trace: pass ") else { return nil }
        let tokens = line[at.upperBound...].split(separator: " ")
        guard tokens.count > 5, tokens[tokens.count - 5] == "glass" else { return nil }
        return tokens[0..<(tokens.count - 5)].joined(separator: " ")
      }
      // A cell of a body is "BODY [MEMBERS]"; the body's name ends in its members.
      // A part that only the shadow reaches adds " shadow".
      var bodies: [String] = []
      var cellMembers: [Int] = []
      var shadowParts = 0
      for var name in glassPasses {
        if name.hasSuffix(" shadow") {
          name.removeLast(" shadow".count)
          shadowParts += 1
        }
        var body = name
        if let open = name.range(of: " [") {
          body = String(name[..<open.lowerBound])
          cellMembers.append(name[open.upperBound...].split(separator: ",").count)
        }
        if !bodies.contains(body) { bodies.append(body) }
      }
      let members = bodies.map { ($0.split(separator: " ").last ?? "").split(separator: "+").count }
      var listed = zip(bodies, members).map { "\($0): \($1)" }.joined(separator: ", ")
      if !cellMembers.isEmpty {
        let counts = Dictionary(grouping: cellMembers, by: { $0 }).sorted { $0.key < $1.key }
        listed +=
          "; in \(cellMembers.count) cells drawing "
          + counts.map { "\($0.key) member\($0.key == 1 ? "" : "s") (\($0.value.count))" }.joined(separator: ", ")
      }
      if shadowParts > 0 { listed += "; \(shadowParts) of the passes draw only the shadow" }
      print("  \(pad(c.label, 34)) \(listed)")
      guard members == c.expected else {
        throw BenchFailure("\(c.label): glass passes with \(members) members, expected \(c.expected)")
      }
    }
  }

  // MARK: Transition throughput

  func runTransition(folder: URL) throws {
    let (_, photoPath) = try benchmarkImage(width: 1280, height: 720)
    for icon in ["scribble", "eraser"] {
      guard let draw = ProceduralIcons.all.first(where: { $0.name == icon })?.draw else {
        throw BenchFailure("no procedural icon \(icon)")
      }
      try PNGCodec.write(draw(96), to: folder.appendingPathComponent("\(icon).png").path, compression: 9)
    }
    let directory = folder.path
    let duration = max(2, Double(frames) / fps)
    let scene = Self.morphScene(photo: photoPath, duration: duration)
    guard let transition = scene.transition else { throw BenchFailure("the scene has no transition") }
    let count = Scene.frameCount(of: transition, fps: fps)
    print(
      "glass-gpu-bench fluid transition: 960x540 pt at scale 2 (\(scene.pixelSize) px), a pencil and an eraser that "
        + "grows out of it (container spacing 40) over the photo, collapsed -> expanded, "
        + "\(ParameterSpec.format(duration)) s ease-in-out at \(ParameterSpec.format(fps)) fps: "
        + "frames 0 to \(frames - 1) of \(count) (the last is the expanded state)")

    // The frames, made up front (glass-gpu animate makes each when it renders it).
    let interpolateStart = DispatchTime.now().uptimeNanoseconds
    let transitionFrames = try (0..<frames).map { try scene.frame(at: Double($0) / fps, of: transition) }
    let interpolateMs = Double(DispatchTime.now().uptimeNanoseconds - interpolateStart) / 1e6
    let staticFrame = try scene.state(transition.to)
    let staticFrames = Array(repeating: staticFrame, count: frames)
    print(
      String(
        format: "scene interpolation (frame(at:of:)), before the batch: %.2f ms for %d frames, "
          + "%.3f ms each", interpolateMs, frames, interpolateMs / Double(frames)))

    // Prepare on one thread, each kind with its own image cache warmed by one
    // static frame: what a prepare thread does per job.
    func prepareMs(_ scenes: [Scene]) throws -> (ms: Double, misses: Int) {
      let cache = ImageCache(capacityBytes: 256 << 20)
      _ = try Renderer.prepare(
        staticFrame, images: SceneFile(scene: staticFrame, directory: directory).loadImages(cache: cache))
      let missesBefore = cache.misses
      let start = DispatchTime.now().uptimeNanoseconds
      for s in scenes {
        let file = SceneFile(scene: s, directory: directory)
        _ = try Renderer.prepare(s, images: file.loadImages(cache: cache))
      }
      return (
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(scenes.count), cache.misses - missesBefore
      )
    }
    let prepareStatic = try prepareMs(staticFrames)
    let prepareTransition = try prepareMs(transitionFrames)
    print(
      String(
        format: "prepare alone, one thread (images from a warm cache, fitting, lowering, compile): static frame "
          + "%.2f ms, transition frames %.2f ms mean; images fitted anew (cache misses) over the %d transition "
          + "frames: %d", prepareStatic.ms, prepareTransition.ms, frames, prepareTransition.misses))

    print(
      "stage means per frame in ms (prepare, wait for the renderer, render, encode + write); render busy: share of "
        + "the wall the render thread worked; cpu: this process's user + system time per frame, and over the wall")
    print(
      "backend  run                          frames   wall s  frames/s  prepare    wait  render  encode  "
        + "render busy  cpu ms/frame  cores busy")
    for choice in backends {
      let renderer: Renderer
      do { renderer = try Renderer(backend: choice) } catch {
        print("\(pad(choice.rawValue, 8)) unavailable (\(error))")
        continue
      }
      defer { renderer.close() }
      var options = BatchOptions()
      options.backend = choice
      options.jobs = jobs

      var runNumber = 0
      func batchRun(_ scenes: [Scene], label: String, quiet: Bool = false) throws -> Double {
        runNumber += 1
        let out = folder.appendingPathComponent("run-\(choice.rawValue)-\(runNumber)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let batch = BatchRenderer(renderer: renderer, options: options)
        let entries = scenes.enumerated().map { index, s in
          BatchEntry.job(
            BatchJob(
              id: "\(label) \(index)", scene: .scene(s, directory: directory),
              output: (out as NSString).appendingPathComponent(String(format: "frame-%04d.png", index))))
        }
        var firstError: GlassError?
        let cpuBefore = Self.processCPUSeconds()
        let summary = batch.run(entries) { result in
          if result.status == .failed, firstError == nil { firstError = result.error }
        }
        let cpu = Self.processCPUSeconds() - cpuBefore
        if let firstError { throw BenchFailure("\(label): \(firstError.description)") }
        if !quiet {
          let n = Double(max(1, summary.rendered))
          let t = summary.totals
          print(
            String(
              format: "%@ %@ %6d %8.2f %9.2f %8.1f %7.1f %7.1f %7.1f %12.2f %13.1f %7.2f of %d",
              pad(choice.rawValue, 8), pad(label, 28), summary.rendered, summary.wallSeconds,
              summary.framesPerSecond, t.prepareMilliseconds / n, t.waitMilliseconds / n,
              t.renderMilliseconds / n, t.encodeMilliseconds / n, summary.rendererBusy, cpu * 1000 / n,
              cpu / max(summary.wallSeconds, 1e-9), ProcessInfo.processInfo.activeProcessorCount))
        }
        return summary.framesPerSecond
      }

      // Warm: shaders of both kinds of frame, the file cache.
      let middle = transitionFrames.count / 2
      _ = try batchRun(
        Array(staticFrames.prefix(4)) + transitionFrames[middle..<min(middle + 4, transitionFrames.count)],
        label: "warm-up", quiet: true)
      var staticRates: [Double] = []
      var transitionRates: [Double] = []
      for _ in 0..<repeats {
        staticRates.append(try batchRun(staticFrames, label: "static frame (batch rate)"))
        transitionRates.append(try batchRun(transitionFrames, label: "transition"))
      }
      let batchRate = Stats(staticRates).median
      let transitionRate = Stats(transitionRates).median
      let ratio = transitionRate / batchRate
      print(
        String(
          format: "%@ transition / batch rate: %.2f / %.2f frames/s = %.2fx (medians of %d runs each; bar: 0.90x) %@",
          pad(choice.rawValue, 8), transitionRate, batchRate, ratio, repeats,
          (ratio >= 0.9 ? "PASS: at the batch rate or above" : "BELOW the batch rate") as NSString))

      // What bounds it: each stage alone.
      let renderStatic = try renderAlone(renderer, staticFrames, directory: directory)
      let renderTransition = try renderAlone(renderer, transitionFrames, directory: directory)
      var t = RenderTimings()
      let image = try renderer.render(
        Renderer.prepare(staticFrame, images: SceneFile(scene: staticFrame, directory: directory).loadImages()),
        timings: &t)
      let encode = try encodeAlone(image, folder: folder)
      print(
        String(
          format: "%@ alone: render (upload to readback, one thread) static %.1f ms = %.1f frames/s, transition "
            + "%.1f ms = %.1f frames/s; encode + write on %d threads %.1f frames/s (%.1f ms each)",
          pad(choice.rawValue, 8), renderStatic, 1000 / renderStatic, renderTransition, 1000 / renderTransition, jobs,
          encode.rate, encode.ms))
    }
  }

  /// The morph scene (Assets/scenes/morph.json) on a 1080p canvas: a pencil
  /// button, and an eraser that grows out of it, 80 pt each, 40 pt apart.
  static func morphScene(photo: String, duration: Double) -> Scene {
    func button(_ icon: String, x: Double, id: String) -> GlassEffectElement {
      Image("\(icon).png").padding(22).frame(x: x, y: 230, width: 80, height: 80).glassEffect().glassEffectID(id)
    }
    return Scene(width: 960, height: 540, background: .image(photo, contentMode: .fill)) {}
      .state("collapsed") {
        GlassEffectContainer(spacing: 40) { button("scribble", x: 440, id: "pencil") }
      }
      .state("expanded") {
        GlassEffectContainer(spacing: 40) {
          button("scribble", x: 380, id: "pencil")
          button("eraser", x: 500, id: "eraser")
        }
      }
      .transition(from: "collapsed", to: "expanded", animation: .easeInOut(duration: duration))
  }

  /// User + system seconds of this process so far, every thread (llvmpipe's too).
  static func processCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
      _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
      _ = getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// Mean milliseconds of upload + render + readback per scene, each prepared
  /// first (not timed), rendered one after another on this thread.
  func renderAlone(_ renderer: Renderer, _ scenes: [Scene], directory: String) throws -> Double {
    let cache = ImageCache(capacityBytes: 256 << 20)
    let prepared = try scenes.map { s in
      try Renderer.prepare(s, images: SceneFile(scene: s, directory: directory).loadImages(cache: cache))
    }
    var total = 0.0
    for p in prepared {
      var t = RenderTimings()
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try renderer.render(p, timings: &t)
      total += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
    return total / Double(prepared.count)
  }

  /// Frames/s of encoding and writing `image` as a PNG --frames times on --jobs
  /// threads, and the mean milliseconds of one.
  func encodeAlone(_ image: RGBAImage, folder: URL) throws -> (rate: Double, ms: Double) {
    let each = (frames + jobs - 1) / jobs
    let results = Locked([Double]())
    let failure = Locked<Error?>(nil)
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: jobs) { thread in
      let path = folder.appendingPathComponent("encode-\(thread).png").path
      for _ in 0..<each {
        let begin = DispatchTime.now().uptimeNanoseconds
        do { try PNGCodec.write(image, to: path) } catch { failure.update { $0 = error } }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
        results.update { $0.append(ms) }
      }
      try? FileManager.default.removeItem(atPath: path)
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if let error = failure.value { throw error }
    let times = results.value
    return (Double(times.count) / wall, times.reduce(0, +) / Double(max(1, times.count)))
  }
}

/// A value shared by threads, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private var stored: Value
  private let lock = NSLock()

  init(_ value: Value) { stored = value }

  var value: Value { lock.withLock { stored } }

  func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A benchmark whose setup is not what it should measure.
struct BenchFailure: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }
}
