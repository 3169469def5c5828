import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

// The batch API of the library (the CLI's batch tests are in BatchTests.swift):
// the manifest reader, shards, the image cache, and a batch run through
// `BatchRenderer` against renders of the same scenes one by one.

/// A small scene showing `image` in two frames, with glass over it.
private func sceneShowing(_ image: String, glassX: Double) -> Scene {
  var scene = Scene(size: PointSize(width: 90, height: 60))
  scene.scale = 1
  scene.layers = [
    .image(ImageLayer(source: image, frame: PointRect(x: 0, y: 0, width: 90, height: 60))),
    .image(ImageLayer(source: image, frame: PointRect(x: 10, y: 30, width: 30, height: 20))),
    .glass(GlassLayer(frame: PointRect(x: glassX, y: 10, width: 40, height: 24))),
  ]
  return scene
}

@Suite("Batch: the manifest")
struct BatchManifestTests {
  static let lines = [
    #"{"scene": "a.json", "output": "a.png"}"#,
    "",
    #"{"scene": "/abs/b.json", "output": "/abs/out/b.png", "id": 42, "scale": 3, "depth": 16}"#,
    #"{"scene": "c.json", "output": "c.png", "id": "named", "sceen": 1}"#,
    #"{"scene": "c.json"}"#,
    #"{"scene": {"version": 1, "size": {"width": 10, "height": -1}}, "output": "d.png"}"#,
    #"{"scene": "e.json", "output": "e.png", "scale": 4}"#,
    "[1, 2]",
    #"{"scene": {"version": 1, "size": {"width": 10, "height": 10}}, "output": "f.png", "depth": 8}"#,
    #"{"scene": "g.json", "output": "g.json"}"#,
  ]

  @Test("each line is a job or fails alone, naming its line and field; paths resolve against their folders")
  func lines() throws {
    let manifest = BatchManifest(
      text: Self.lines.joined(separator: "\n"), name: "jobs.jsonl", directory: "/m", outputDirectory: "/o")
    let entries = Array(manifest)
    #expect(entries.count == 9, "the blank line is skipped")
    guard case .job(let a) = entries[0], case .job(let b) = entries[1] else {
      Issue.record("lines 1 and 3 are jobs: \(entries)")
      return
    }
    #expect(a.id == "1" && a.line == 1 && a.scenePath == "/m/a.json" && a.output == "/o/a.png")
    #expect(a.scale == nil && a.depth == nil)
    #expect(b.id == "42" && b.line == 3 && b.scenePath == "/abs/b.json" && b.output == "/abs/out/b.png")
    #expect(b.scale == 3 && b.depth == .sixteen)
    let failures: [(Int, String)] = [
      (4, "sceen: unknown field"), (5, "the line: missing the field \"output\""), (6, "scene.size.height"),
      (7, "scale: 4 is not 1, 2 or 3"),
      (8, "expected an object"),
    ]
    if case .invalid(_, 10, _, let error) = entries[8] {
      #expect(
        error.description
          == #"jobs.jsonl:10: output: "g.json" does not end in .png, .jpg, .jpeg or .webp; name an image file"#)
      #expect(error.locations == [GlassError.Location(file: "jobs.jsonl", line: 10, jsonPath: "output")])
      #expect(error.message == #""g.json" does not end in .png, .jpg, .jpeg or .webp; name an image file"#)
    } else {
      Issue.record("an output that is not an image file fails its line: \(entries[8])")
    }
    for (index, (line, says)) in failures.enumerated() {
      guard case .invalid(let id, let number, _, let error) = entries[index + 2] else {
        Issue.record("line \(line) is not a job: \(entries[index + 2])")
        continue
      }
      #expect(number == line)
      #expect(id == (line == 4 ? "named" : String(line)))
      #expect(error.description.hasPrefix("jobs.jsonl:\(line): "), "\(error)")
      #expect(error.description.contains(says), "line \(line): \(error)")
      #expect(error.locations.first?.file == "jobs.jsonl" && error.locations.first?.line == line, "\(error.locations)")
    }
    guard case .job(let f) = entries[7], case .scene(let scene, let directory) = f.scene else {
      Issue.record("line 9 is an inline scene job: \(entries[7])")
      return
    }
    #expect(scene.size == PointSize(width: 10, height: 10) && directory == "/m" && f.depth == .eight)
  }

  @Test("a manifest file is read line by line; a missing one is refused naming it")
  func file() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("jobs.jsonl").path
    try Data((Self.lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    #expect(BatchManifest.countJobs(path: path) == 9)
    let entries = Array(try BatchManifest(path: path, outputDirectory: "out"))
    #expect(entries.count == 9)
    if case .job(let a) = entries[0] { #expect(a.scenePath == folder.appendingPathComponent("a.json").path) }
    let error = #expect(throws: GlassError.self) {
      try BatchManifest(path: folder.appendingPathComponent("nope.jsonl").path, outputDirectory: "out")
    }
    #expect(error?.message.contains("nope.jsonl") == true)
  }
}

@Suite("Batch: shards")
struct BatchShardTests {
  @Test("N shards take every job exactly once; impossible shards are refused")
  func shards() throws {
    for count in 1...5 {
      let shards = try (0..<count).map { try BatchShard(index: $0, count: count) }
      for job in 0..<50 { #expect(shards.filter { $0.contains(job) }.count == 1) }
    }
    #expect(try BatchShard(parsing: "2/3") == BatchShard(index: 2, count: 3))
    for bad in ["3/3", "1/0", "-1/2", "a/b", "1", "1/2/3"] {
      #expect(throws: GlassError.self, "\(bad)") { try BatchShard(parsing: bad) }
    }
  }
}

@Suite("Batch: the image cache")
struct ImageCacheTests {
  @Test("an image shown by many jobs is decoded and fitted once; the cache stays within its bytes")
  func sharedAcrossScenes() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try PNGCodec.write(
      ProceduralImages.landscape(width: 120, height: 80), to: folder.appendingPathComponent("p.png").path)
    // The decoded image (8-bit: 4 bytes a pixel) and two fitted sizes (16-bit: 8),
    // and each entry's bookkeeping.
    let needed = 4 * 120 * 80 + 8 * (90 * 60 + 30 * 20) + 3 * LRUCache<Int, Int>.entryOverhead
    // Four times that: what a job uses first waits on probation, a quarter of the
    // budget, which then holds all three (CacheAdmission).
    let cache = ImageCache(capacityBytes: 4 * needed)
    var renders: [RGBAImage] = []
    let renderer = try Renderer(backend: .cpu)
    for job in 0..<4 {
      let file = SceneFile(scene: sceneShowing("p.png", glassX: Double(10 * job)), directory: folder.path)
      let images = try file.loadImages(cache: cache)
      var timings = RenderTimings()
      renders.append(try renderer.render(file.scene, images: images, timings: &timings))
      // The same render without the cache.
      let alone = try renderer.render(file.scene, images: try file.loadImages(), timings: &timings)
      #expect(renders[job] == alone, "job \(job): the cache changes no pixel")
    }
    #expect(cache.bytes <= needed)
    // The first job misses the decoded image and both fits; later jobs hit both fits.
    #expect(cache.misses == 3, "misses \(cache.misses)")
    #expect(cache.hits == 3 * 3, "hits \(cache.hits)")

    // Room for one fit only: the least recently used goes, and the bound holds.
    let small = ImageCache(capacityBytes: 8 * 90 * 60 + LRUCache<Int, Int>.entryOverhead)
    let file = SceneFile(scene: sceneShowing("p.png", glassX: 0), directory: folder.path)
    var timings = RenderTimings()
    _ = try renderer.render(file.scene, images: try file.loadImages(cache: small), timings: &timings)
    #expect(small.bytes <= 8 * 90 * 60 + LRUCache<Int, Int>.entryOverhead)
    #expect(small.bytes > 0)
  }

  @Test("a file changed between jobs is read again")
  func changedFile() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("p.png").path
    let cache = ImageCache(capacityBytes: 1 << 20)
    let file = SceneFile(scene: sceneShowing("p.png", glassX: 0), directory: folder.path)
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    try PNGCodec.write(ProceduralImages.landscape(width: 120, height: 80), to: path)
    let first = try renderer.render(file.scene, images: try file.loadImages(cache: cache), timings: &timings)
    try PNGCodec.write(ProceduralImages.gradient(width: 100, height: 90), to: path)
    let second = try renderer.render(file.scene, images: try file.loadImages(cache: cache), timings: &timings)
    let fresh = try renderer.render(file.scene, images: try file.loadImages(), timings: &timings)
    #expect(second == fresh)
    #expect(second != first)
  }
}

@Suite("Batch: the Swift API")
struct BatchAPITests {
  /// Jobs of small scenes sharing one image, some inline, one failing.
  static func jobs(in folder: URL) throws -> [BatchJob] {
    try PNGCodec.write(
      ProceduralImages.landscape(width: 120, height: 80), to: folder.appendingPathComponent("p.png").path)
    let out = folder.appendingPathComponent("out")
    var jobs = (0..<6).map { i in
      BatchJob(
        id: "job\(i)", scene: .scene(sceneShowing("p.png", glassX: Double(8 * i)), directory: folder.path),
        output: out.appendingPathComponent("\(i).png").path, depth: i == 5 ? .sixteen : nil)
    }
    jobs.append(
      BatchJob(
        id: "missing", scene: .scene(sceneShowing("nope.png", glassX: 0), directory: folder.path),
        output: out.appendingPathComponent("missing.png").path))
    return jobs
  }

  @Test("results arrive as an AsyncStream; each output is the pixels of a render of its job alone")
  func asyncResults() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let jobs = try Self.jobs(in: folder)
    var options = BatchOptions()
    options.backend = .cpu
    options.jobs = 2
    let batch = try BatchRenderer(options: options)
    var results: [String: BatchResult] = [:]
    for await result in batch.results(for: jobs) { results[result.id] = result }
    #expect(results.count == jobs.count)
    #expect(results["missing"]?.status == .failed && results["missing"]?.phase == .prepare)
    #expect(results["missing"]?.error?.file?.hasSuffix("/nope.png") == true)
    #expect(results["missing"]?.error?.jsonPath?.hasSuffix(".source") == true)
    let renderer = try Renderer(backend: .cpu)
    for job in jobs where job.id != "missing" {
      #expect(results[job.id]?.status == .rendered, "\(job.id): \(String(describing: results[job.id]?.error))")
      guard case .scene(let scene, let directory) = job.scene else { continue }
      let file = SceneFile(scene: scene, directory: directory)
      var timings = RenderTimings()
      let alone = try renderer.render(
        scene, images: try file.loadImages(), depth: job.depth ?? .eight, timings: &timings)
      #expect(try PNGCodec.read(path: job.output).image == alone, "\(job.id)")
      #expect(results[job.id]?.bytes == (try FileManager.default.attributesOfItem(atPath: job.output)[.size] as? Int))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/missing.png").path))
  }

  @Test("a job whose output another job writes already fails, naming that job; the first renders")
  func duplicateOutputs() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manifest = BatchManifest(
      text: [0, 40, 0].map { x in
        let scene = SceneJSON.scene(
          width: 80, height: 40, layers: #"{"type": "glass", "frame": {"x": \#(x), "y": 0, "width": 40, "height": 40}}"#
        )
        return #"{"scene": \#(scene), "output": "\#(x).png"}"#
      }.joined(separator: "\n"), name: "jobs.jsonl", directory: folder.path,
      outputDirectory: folder.path)
    var options = BatchOptions()
    options.backend = .cpu
    var results: [BatchResult] = []
    let summary = try BatchRenderer(options: options).run(manifest) { results.append($0) }
    #expect(summary.rendered == 2 && summary.failed == 1)
    let failed = results.first { $0.status == .failed }
    #expect(failed?.line == 3)
    #expect(
      failed?.error?.description
        == "jobs.jsonl:3: \(folder.path)/0.png is also the output of the job of jobs.jsonl:1; give each job its own output"
    )
  }

  @Test(
    "each job counts its CPU outside rendering: prepare, conversion (GPU readback only), encode and write, in the report"
  )
  func frameCounters() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = SceneJSON.scene(
      width: 400, height: 300, layers: #"{"type": "glass", "frame": {"x": 20, "y": 20, "width": 200, "height": 80}}"#)
    let manifest = BatchManifest(
      text: [#"{"scene": \#(scene), "output": "a.png"}"#, #"{"scene": \#(scene), "output": "b.jpg"}"#].joined(
        separator: "\n"), name: "jobs.jsonl", directory: folder.path, outputDirectory: folder.path)
    for backend in [BackendChoice.cpu] + (TestGPU.hasGPU ? [.gpu] : []) {
      var options = BatchOptions()
      options.backend = backend
      var results: [BatchResult] = []
      let summary = try BatchRenderer(options: options).run(manifest) { results.append($0) }
      #expect(summary.rendered == 2, "\(backend): \(results.compactMap(\.error))")
      for result in results {
        let t = result.timings
        #expect(t.prepareMilliseconds > 0 && t.encodeMilliseconds > 0 && t.writeMilliseconds > 0, "\(backend) \(t)")
        #expect(backend == .gpu ? t.conversionMilliseconds > 0 : t.conversionMilliseconds == 0, "\(backend) \(t)")
        // CPU time of each stage: some, and never more than its wall time (one thread each).
        let pairs = [
          (t.cpu.prepareMilliseconds, t.prepareMilliseconds), (t.cpu.encodeMilliseconds, t.encodeMilliseconds),
          (t.cpu.writeMilliseconds, t.writeMilliseconds), (t.cpu.conversionMilliseconds, t.conversionMilliseconds),
        ]
        for (cpu, wall) in pairs { #expect(cpu >= 0 && cpu <= wall + 0.05, "\(backend) \(t)") }
        #expect(t.cpu.encodeMilliseconds > 0 && t.cpu.totalMilliseconds > 0, "\(backend) \(t)")
        #expect(result.reportLine.contains(#""cpu_ms":{"prepare":"#), "\(result.reportLine)")
        #expect(t.conversionMilliseconds <= t.renderMilliseconds, "\(backend): conversion is part of the render")
        #expect(
          abs(
            t.outsideRenderMilliseconds
              - (t.prepareMilliseconds + t.conversionMilliseconds + t.encodeMilliseconds + t.writeMilliseconds)) < 1e-9)
        for key in ["prepare_ms", "wait_ms", "render_ms", "conversion_ms", "encode_ms", "write_ms"] {
          #expect(result.reportLine.contains("\"\(key)\":"), "\(key) in \(result.reportLine)")
        }
      }
      #expect(summary.totals.encodeMilliseconds == results.reduce(0) { $0 + $1.timings.encodeMilliseconds })
      #expect(summary.totals.writeMilliseconds == results.reduce(0) { $0 + $1.timings.writeMilliseconds })
    }
    let jpeg = try [UInt8](Data(contentsOf: folder.appendingPathComponent("b.jpg")))
    #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
  }

  @Test(
    "on the GPU a source uploaded for one render serves the next render of the same image, never another image's",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func keptSources() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let renderer = try Renderer(backend: .gpu)
    defer { renderer.close() }
    let gles = try #require(renderer.gles)
    let scene = sceneShowing("p.png", glassX: 20)
    var timings = RenderTimings()
    let a = SceneImages(["p.png": ProceduralImages.landscape(width: 120, height: 80)])
    let first = try renderer.render(scene, images: a, timings: &timings)
    let kept = try gles.objectCounts()
    #expect(kept.keptSources == 2, "both fitted copies are kept: \(kept)")
    // The same images again: nothing new is made, and the pixels are the same.
    let again = try renderer.render(scene, images: a, timings: &timings) == first
    #expect(again)
    #expect(try gles.objectCounts() == kept)
    // Another image of the same size, many times (its storage comes and goes):
    // each render is that image's, as a fresh renderer draws it.
    let fresh = try Renderer(backend: .gpu)
    defer { fresh.close() }
    for seed in 0..<6 {
      let other = SceneImages(["p.png": ProceduralImages.gradient(width: 120, height: 80 + seed % 2)])
      let image = try renderer.render(scene, images: other, timings: &timings)
      try fresh.gles?.trimPool(toBytes: 0)  // nothing kept: this render uploads everything
      let expected = try fresh.render(scene, images: other, timings: &timings)
      // Compared outside #expect, which would print every sample.
      let same = image == expected
      let differs = image != first
      #expect(same, "render \(seed) is the fresh renderer's")
      #expect(differs, "render \(seed) is not the first image's")
    }
    try gles.trimPool(toBytes: 0)
    #expect(try gles.objectCounts().keptSources == 0)
  }

  @Test(
    "on the GPU a long batch returns every GL object, pooled texture and file descriptor it took",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func resourcesReturn() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let jobs = try Self.jobs(in: folder)
    var options = BatchOptions()
    options.backend = .gpu
    options.jobs = 2
    let batch = try BatchRenderer(options: options)
    defer { batch.renderer.close() }
    guard let gles = batch.renderer.gles else {
      Issue.record("a GPU batch renders on the GPU")
      return
    }
    // Other suites open files meanwhile (tests run in parallel): count the
    // descriptors that lead into this test's folder, which only the batch opens.
    func descriptors() throws -> Int {
      try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        return target?.hasPrefix(folder.path) == true
      }.count
    }
    // One warm-up run makes the programs and fills the pool.
    _ = batch.run(jobs.map { .job($0) }) { _ in }
    let counts = try gles.objectCounts()
    let open = try descriptors()
    for _ in 0..<5 {
      let summary = batch.run(jobs.map { .job($0) }) { _ in }
      #expect(summary.rendered == 6 && summary.failed == 1)
    }
    #expect(try gles.objectCounts() == counts)
    #expect(try descriptors() == open)
    #expect(open == 0, "no file of the batch stays open between runs")
    #expect(counts.poolInUse == 0)
  }
}

@Suite("Batch: memory stays flat")
struct BatchMemoryTests {
  final class Payload: Sendable {}

  @Test("a queue lets go of each item when it is popped, not when it is compacted")
  func queueReleases() {
    let queue = BoundedQueue<Payload>(capacity: 4)
    weak var first: Payload?
    do {
      let payload = Payload()
      first = payload
      queue.push(payload)
      queue.push(Payload())
    }
    let popped = queue.pop()
    #expect(popped != nil)
    _ = consume popped
    #expect(first == nil, "the popped item is gone once its taker lets go")
    queue.close()
    #expect(queue.pop() != nil)
    #expect(queue.pop() == nil)
  }

  @Test("a pool keeps only the sizes recent renders used")
  func poolAges() {
    var pool = ImagePool<Int>()
    func render(_ width: Int) {
      let descriptor = ImageDescriptor(size: PixelSize(width: width, height: 10), format: .linearHalf)
      let image = pool.acquire(descriptor) { width }
      pool.recycle(image, descriptor)
      _ = pool.endRender()
    }
    for width in 1...50 { render(width) }
    #expect(pool.idleCount <= 3, "idle \(pool.idleCount) after 50 renders of 50 sizes")
    render(50)
    render(50)
    #expect(pool.idleCount >= 1, "the size every render uses stays")
  }

  @Test(
    "on the GPU renders of varying sizes leave only recent sizes pooled",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func gpuPoolAges() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let renderer = try Renderer(backend: .gpu)
    defer { renderer.close() }
    let gles = try #require(renderer.gles)
    var timings = RenderTimings()
    var idle: [Int] = []
    for width in stride(from: 40, to: 200, by: 8) {
      let effect = BackgroundExtensionEffect(.init(leadingPixels: width / 4, trailingPixels: 10, sigmaPixels: 6))
      _ = try renderer.render(effect, on: ProceduralImages.gradient(width: width, height: 30), timings: &timings)
      idle.append(try gles.objectCounts().poolIdle)
    }
    #expect(idle.last ?? 0 <= 2 * (idle.first ?? 0) + 2, "idle textures by render: \(idle)")
  }
}
