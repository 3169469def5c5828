import Foundation

/// What a batch does with each job; the options `glass-gpu batch` takes.
public struct BatchOptions: Sendable {
  /// Which backend renders.
  public var backend: BackendChoice = .auto
  /// Threads that encode and write PNGs, and that read and prepare jobs.
  public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
  /// Bits per channel, unless a job says otherwise.
  public var depth: RGBAImage.Depth = .eight
  /// Pixels per point instead of each scene's own, unless a job says otherwise.
  public var scale: Int?
  /// How outputs are written: the format (each output's extension decides, else
  /// `encoding.format`, else PNG), PNG's compression, JPEG's and WebP's quality.
  public var encoding = ImageEncoding()
  /// Images and canvases over this many pixels fail their job.
  public var maxPixels: Int = PNGCodec.defaultMaxPixels
  /// Skip every job whose output is already a whole file of its format
  /// (`PNGCodec.looksWhole(path:format:)`).
  public var resume = false
  /// Render only this shard's jobs.
  public var shard: BatchShard?
  /// The budgets of the caches of a renderer the batch starts (`RenderCaches`).
  public var cacheBudgets = CacheBudgets()
  /// The most bytes of decoded and fitted images kept for later jobs
  /// (`cacheBudgets.imageBytes`).
  public var imageCacheBytes: Int {
    get { cacheBudgets.imageBytes }
    set { cacheBudgets.imageBytes = newValue }
  }
  /// Worker threads of the CPU work of each job (fitting images, the CPU
  /// backend's passes); nil for one a core. The output is the same whatever the count.
  public var cpuThreads: Int?
  /// Files of the run besides each job's own (the manifest, the report): no job's
  /// output may be one of them, whatever its spelling or the links to it.
  public var protectedFiles: [String] = []
  /// A folder the batch made for itself (a goldens check's artifacts): outputs
  /// under it, and the folders they need there, never follow a link found in it.
  public var privateFolder: String?

  /// The defaults: auto backend, a thread per core, 8-bit, scenes' own scale.
  public init() {}
}

/// How a job ended.
public enum BatchStatus: String, Sendable {
  case rendered, failed, skipped
}

/// Where a job failed.
public enum BatchPhase: String, Sendable {
  /// Reading the manifest line or the scene file.
  case read
  /// Its images, sizes and graph.
  case prepare
  /// The backend.
  case render
  /// Encoding and writing the output (or reserving it, before the render).
  case write
}

/// Milliseconds a job spent in each stage. Prepare, conversion, encode and write
/// are the CPU work of a frame outside rendering, each on one core: what a host
/// whose GPU renders pays per frame (`glass-gpu-bench batch` prints them).
public struct BatchTimings: Sendable, Equatable {
  /// Reading the scene, its images (or taking them from the cache), fitting, compiling.
  public var prepareMilliseconds = 0.0
  /// Waiting, prepared, for the renderer.
  public var waitMilliseconds = 0.0
  /// Upload, render and readback, conversion included.
  public var renderMilliseconds = 0.0
  /// Of the render: copying (and, at 16 bits, converting) the GPU's readback into
  /// the image, on the CPU; 0 on the CPU backend, whose passes write the image.
  public var conversionMilliseconds = 0.0
  /// Encoding the image into the output file's bytes.
  public var encodeMilliseconds = 0.0
  /// Writing them: the temporary file written and renamed into place.
  public var writeMilliseconds = 0.0
  /// The CPU milliseconds of prepare, conversion, encode and write, each on the
  /// thread that did it: what they cost a core, whatever else ran (the wall
  /// times above count waiting for a core the renderer's threads held).
  public var cpu = StageCPU()

  /// CPU milliseconds of the stages outside rendering.
  public struct StageCPU: Sendable, Equatable {
    /// Reading and preparing the job, on its preparing thread.
    public var prepareMilliseconds = 0.0
    /// Copying the GPU's readback into the image, on the GL thread (0 on the CPU backend).
    public var conversionMilliseconds = 0.0
    /// Encoding the output file, on its writing thread.
    public var encodeMilliseconds = 0.0
    /// Writing it, on its writing thread.
    public var writeMilliseconds = 0.0

    /// Their sum: the frame's CPU outside rendering, in milliseconds of one core.
    public var totalMilliseconds: Double {
      prepareMilliseconds + conversionMilliseconds + encodeMilliseconds + writeMilliseconds
    }
  }

  /// Prepare, conversion, encode and write, wall: the frame's time outside rendering.
  public var outsideRenderMilliseconds: Double {
    prepareMilliseconds + conversionMilliseconds + encodeMilliseconds + writeMilliseconds
  }

  /// Adds `other`'s stages to these.
  mutating func add(_ other: BatchTimings) {
    prepareMilliseconds += other.prepareMilliseconds
    waitMilliseconds += other.waitMilliseconds
    renderMilliseconds += other.renderMilliseconds
    conversionMilliseconds += other.conversionMilliseconds
    encodeMilliseconds += other.encodeMilliseconds
    writeMilliseconds += other.writeMilliseconds
    cpu.prepareMilliseconds += other.cpu.prepareMilliseconds
    cpu.conversionMilliseconds += other.cpu.conversionMilliseconds
    cpu.encodeMilliseconds += other.cpu.encodeMilliseconds
    cpu.writeMilliseconds += other.cpu.writeMilliseconds
  }
}

/// One job's outcome.
public struct BatchResult: Sendable {
  /// The job's place in the job order (0-based), shards included.
  public var ordinal: Int
  /// The job's id.
  public var id: String
  /// The manifest line, for manifest jobs.
  public var line: Int?
  /// Where the job was given (the manifest and its line), when known.
  public var origin: GlassError.Location?
  /// The scene file, when the job names one.
  public var scene: String?
  /// The PNG, when known.
  public var output: String?
  /// The files the job's scene reads: its scene file (when it has one) and the
  /// images it names, resolved; nil when the scene could not be read (a bad
  /// manifest line or scene file: what it reads is unknown).
  public var inputs: [String]?
  /// Rendered, failed or skipped.
  public var status: BatchStatus
  /// Where it failed, and why (failed jobs only).
  public var phase: BatchPhase?
  /// What failed (failed jobs only).
  public var error: GlassError?
  /// The PNG's size in bytes (rendered jobs).
  public var bytes = 0
  /// `gpu` or `cpu`: the backend that rendered it.
  public var backend: String?
  /// Milliseconds in each stage.
  public var timings = BatchTimings()

  /// This result failed in `phase` with `error`, located in the job.
  func failed(in phase: BatchPhase, with error: Error) -> BatchResult {
    var result = self
    result.status = .failed
    result.phase = phase
    result.error = BatchRenderer.glassError(error, naming: self)
    return result
  }

  /// The job's line in a report (docs/batch-format.md).
  public var reportLine: String {
    var members: [(String, JSONValue)] = [("id", .string(id))]
    if let line { members.append(("line", .number(Double(line)))) }
    if let scene { members.append(("scene", .string(scene))) }
    if let output { members.append(("output", .string(output))) }
    members.append(("status", .string(status.rawValue)))
    if let phase { members.append(("phase", .string(phase.rawValue))) }
    if let error {
      members.append(("error", .string(error.description)))
      members.append(("error_code", .string(error.code.rawValue)))
      if let file = error.file { members.append(("error_file", .string(file))) }
      if let jsonPath = error.jsonPath { members.append(("error_json_path", .string(jsonPath))) }
    }
    if status == .rendered {
      members.append(("bytes", .number(Double(bytes))))
      if let backend { members.append(("backend", .string(backend))) }
      func ms(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }
      members.append(
        (
          "timings",
          .object([
            ("prepare_ms", ms(timings.prepareMilliseconds)), ("wait_ms", ms(timings.waitMilliseconds)),
            ("render_ms", ms(timings.renderMilliseconds)), ("conversion_ms", ms(timings.conversionMilliseconds)),
            ("encode_ms", ms(timings.encodeMilliseconds)), ("write_ms", ms(timings.writeMilliseconds)),
          ])
        ))
      members.append(
        (
          "cpu_ms",
          .object([
            ("prepare", ms(timings.cpu.prepareMilliseconds)), ("conversion", ms(timings.cpu.conversionMilliseconds)),
            ("encode", ms(timings.cpu.encodeMilliseconds)), ("write", ms(timings.cpu.writeMilliseconds)),
          ])
        ))
    }
    return JSONValue.object(members).compactText
  }
}

/// What a batch did, with where its time went.
public struct BatchSummary: Sendable {
  /// This shard's jobs.
  public var jobs = 0
  /// Jobs written.
  public var rendered = 0
  /// Jobs that failed.
  public var failed = 0
  /// Jobs `resume` skipped.
  public var skipped = 0
  /// From the first job taken to the last written.
  public var wallSeconds = 0.0
  /// The SIGINT or SIGTERM that stopped it early, if one did.
  public var stoppedBySignal: Int32?
  /// False when it stopped (`stop()`, a deferred SIGINT or SIGTERM) before it had
  /// taken every entry: some jobs have no result.
  public var complete = true
  /// The sums over rendered jobs of each stage's milliseconds.
  public var totals = BatchTimings()
  /// Share of the wall time the renderer was busy (0 to 1).
  public var rendererBusy = 0.0
  /// Lookups the image cache answered.
  public var cacheHits = 0
  /// Lookups it did not.
  public var cacheMisses = 0
  /// What each of the renderer's caches holds and has done at the end.
  public var caches: [CacheStats] = []

  /// Rendered jobs per second of wall time.
  public var framesPerSecond: Double { wallSeconds > 0 ? Double(rendered) / wallSeconds : 0 }
}

/// Renders many jobs with one warm renderer: jobs are read and prepared, rendered
/// (one at a time, on the renderer), and encoded and written, at the same time on
/// different jobs, with short queues between the stages so that memory does not
/// grow with the number of jobs. A job that fails, fails alone.
public final class BatchRenderer: @unchecked Sendable {
  /// The renderer every job renders on.
  public let renderer: Renderer
  /// What is done with each job.
  public let options: BatchOptions
  /// Images decoded and fitted for one job, kept for the next (the renderer's).
  public var imageCache: ImageCache { renderer.caches.images }
  private let stopLock = NSLock()
  private var stopped = false

  /// Starts the renderer for `options.backend`, with caches of
  /// `options.cacheBudgets`; throws when `.gpu` cannot start.
  public convenience init(options: BatchOptions) throws {
    try self.init(
      renderer: Renderer(
        backend: options.backend, cpuThreads: options.cpuThreads,
        caches: RenderCaches(budgets: options.cacheBudgets)),
      options: options)
  }

  /// A batch on a renderer made already, with the renderer's caches (the budgets
  /// it was made with, not `options.cacheBudgets`).
  public init(renderer: Renderer, options: BatchOptions) {
    self.renderer = renderer
    self.options = options
  }

  /// Stops taking jobs: the jobs taken already finish, `run` returns.
  public func stop() {
    stopLock.withLock { stopped = true }
  }

  private var isStopped: Bool {
    stopLock.withLock { stopped } || PNGCodec.OutputFile.stopSignal != nil
  }

  /// Renders `jobs`; results arrive as jobs end (not in job order).
  public func results(for jobs: [BatchJob]) -> AsyncStream<BatchResult> {
    AsyncStream { continuation in
      let thread = Thread { [self] in
        _ = run(jobs.map { .job($0) }) { continuation.yield($0) }
        continuation.finish()
      }
      thread.name = "glass-gpu batch"
      thread.start()
    }
  }

  /// Renders every entry of this shard, calling `onResult` (one call at a time)
  /// as each job ends, and returns when all have ended or, after `stop()` or a
  /// deferred SIGINT or SIGTERM, when the jobs taken have ended.
  public func run(_ entries: some Sequence<BatchEntry>, onResult: (BatchResult) -> Void) -> BatchSummary {
    let start = Date()
    return withoutActuallyEscaping(onResult) { onResult in
      let state = RunState(onResult: onResult)
      // Inline scenes are read on this thread: their text is measured with the
      // renderer's fonts.
      let tookAll = renderer.caches.use { runStages(entries, state) }
      // The stages' threads may outlive `group.wait()` by a moment, holding `state`.
      state.forgetOnResult()
      var summary = state.summary
      summary.complete = tookAll
      summary.wallSeconds = Date().timeIntervalSince(start)
      summary.rendererBusy = summary.wallSeconds > 0 ? min(1, state.renderBusySeconds / summary.wallSeconds) : 0
      summary.stoppedBySignal = PNGCodec.OutputFile.stopSignal
      summary.cacheHits = imageCache.hits
      summary.cacheMisses = imageCache.misses
      summary.caches = renderer.caches.stats
      return summary
    }
  }

  /// What the stages of one run share: the summary so far and the caller's
  /// `onResult`, called under the lock.
  private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var onResult: ((BatchResult) -> Void)?
    private(set) var summary = BatchSummary()
    var renderBusySeconds = 0.0

    init(onResult: @escaping (BatchResult) -> Void) { self.onResult = onResult }

    func forgetOnResult() { lock.withLock { onResult = nil } }

    func counted() { lock.withLock { summary.jobs += 1 } }

    func deliver(_ result: BatchResult) {
      lock.withLock {
        switch result.status {
        case .rendered:
          summary.rendered += 1
          summary.totals.add(result.timings)
        case .failed: summary.failed += 1
        case .skipped: summary.skipped += 1
        }
        onResult?(result)
      }
    }
  }

  /// Runs the stages over `entries`; true when every entry was taken (no stop
  /// came before the last: a stop also ends a manifest's lines early, so any stop
  /// seen by then counts).
  private func runStages(_ entries: some Sequence<BatchEntry>, _ state: RunState) -> Bool {
    let workers = max(1, options.jobs)
    let toPrepare = BoundedQueue<Taken>(capacity: 2)
    let toRender = BoundedQueue<Prepared>(capacity: 2)
    let toWrite = BoundedQueue<Rendered>(capacity: workers)
    let group = DispatchGroup()
    let preparing = Counter(workers)

    for index in 0..<workers {
      spawn("glass-gpu prepare \(index)", group) { [self] in
        while let taken = toPrepare.pop() {
          switch renderer.caches.use({ prepare(taken) }) {
          case .ready(let prepared): toRender.push(prepared)
          case .failed(let result): state.deliver(result)
          }
        }
        if preparing.decrement() == 0 { toRender.close() }
      }
    }
    spawn("glass-gpu render", group) { [self] in
      // Two jobs on the renderer at once: the next job's upload and passes are
      // submitted before the last one's readback is waited for, so the GPU is
      // not idle while this thread waits, converts or uploads.
      var inFlight: InFlight?
      while true {
        let next: Prepared?
        if let waiting = inFlight {
          switch toRender.poll() {
          case .item(let prepared): next = prepared
          case .closed: next = nil
          case .empty:
            // Nothing to overlap with: finish the job in flight first.
            complete(waiting, state, toWrite)
            inFlight = nil
            continue
          }
        } else {
          next = toRender.pop()
        }
        guard var prepared = next else { break }
        prepared.result.timings.waitMilliseconds = milliseconds(since: prepared.queued)
        let submitStart = Date()
        do {
          let submitted = try renderer.submit(prepared.render)
          let submitSeconds = Date().timeIntervalSince(submitStart)
          if let waiting = inFlight { complete(waiting, state, toWrite) }
          inFlight = InFlight(prepared: prepared, submitted: submitted, submitSeconds: submitSeconds)
        } catch {
          state.renderBusySeconds += Date().timeIntervalSince(submitStart)
          state.deliver(prepared.result.failed(in: .render, with: error))
        }
      }
      if let waiting = inFlight { complete(waiting, state, toWrite) }
      toWrite.close()
    }
    for index in 0..<workers {
      spawn("glass-gpu write \(index)", group) { [self] in
        while let rendered = toWrite.pop() {
          state.deliver(write(rendered))
        }
      }
    }

    // This thread takes the jobs: this shard's, in order, until stopped. Two jobs
    // writing one file (however spelt) would lose a render: the later one fails.
    // Every output is remembered for the whole run, as a digest of what its path
    // names and where its job was given (a manifest's path is one string shared
    // by its lines), not as text: memory hardly grows with the number of jobs.
    var outputs = OutputClaims<(origin: GlassError.Location?, id: String)>()
    var ordinal = -1
    for entry in entries {
      if isStopped { break }
      ordinal += 1
      if let shard = options.shard, !shard.contains(ordinal) { continue }
      state.counted()
      switch entry {
      case .invalid(let id, let line, let output, let error):
        state.deliver(
          BatchResult(
            ordinal: ordinal, id: id, line: line, output: output, status: .failed, phase: .read, error: error))
      case .job(let job):
        var result = BatchResult(
          ordinal: ordinal, id: job.id, line: job.line, origin: job.origin, scene: job.scenePath, output: job.output,
          status: .rendered)
        if let first = outputs.claim(job.output, by: (job.origin, job.id)) {
          let taker = first.origin.map { "the job of \($0.description)" } ?? "job \(first.id)"
          state.deliver(
            result.failed(
              in: .read,
              with: GlassError(
                .outputFailure, "\(job.output) is also the output of \(taker); give each job its own output")))
          continue
        }
        // Only a whole file of the job's format counts as done: an empty or cut
        // file, or one of another format, is rendered again.
        if options.resume, let format = try? options.encoding.format(forPath: job.output),
          PNGCodec.looksWhole(path: job.output, format: format)
        {
          result.status = .skipped
          state.deliver(result)
          continue
        }
        toPrepare.push(Taken(job: job, result: result))
      }
    }
    let tookAll = !isStopped
    toPrepare.close()
    group.wait()
    return tookAll
  }

  // MARK: The stages

  private struct Taken {
    var job: BatchJob
    var result: BatchResult
  }

  private struct Prepared {
    var result: BatchResult
    var render: PreparedRender
    var output: PNGCodec.OutputFile
    var queued: Date
  }

  private enum PrepareOutcome {
    case ready(Prepared)
    case failed(BatchResult)
  }

  private struct InFlight {
    var prepared: Prepared
    var submitted: SubmittedRender
    var submitSeconds: Double
  }

  /// Waits for a submitted job and hands it to the writers (or fails it).
  private func complete(_ job: InFlight, _ state: RunState, _ toWrite: BoundedQueue<Rendered>) {
    let waitStart = Date()
    var result = job.prepared.result
    var timings = RenderTimings()
    let waited = Result { try renderer.wait(job.submitted, timings: &timings) }
    let busy = job.submitSeconds + Date().timeIntervalSince(waitStart)
    state.renderBusySeconds += busy
    switch waited {
    case .success(let image):
      result.timings.renderMilliseconds = busy * 1000
      result.timings.conversionMilliseconds = timings.readbackMilliseconds
      result.timings.cpu.conversionMilliseconds = timings.readbackCPUMilliseconds
      result.backend = timings.fallbackReason == nil ? renderer.backendName : "cpu"
      toWrite.push(Rendered(result: result, output: job.prepared.output, image: image))
    case .failure(let error):
      state.deliver(result.failed(in: .render, with: error))
    }
  }

  private struct Rendered {
    var result: BatchResult
    var output: PNGCodec.OutputFile
    var image: RGBAImage
  }

  /// Reads the scene and its images, prepares the render and reserves the output.
  private func prepare(_ taken: Taken) -> PrepareOutcome {
    let job = taken.job
    var result = taken.result
    let start = Date()
    let cpuStart = threadCPUMilliseconds()
    var phase = BatchPhase.read
    do {
      var file: SceneFile
      switch job.scene {
      case .file(let path): file = try SceneFile(path: path)
      case .scene(let scene, let directory):
        file = SceneFile(scene: scene, directory: directory)
        if let origin = job.origin {
          file.location = GlassError.Location(file: origin.file, line: origin.line, jsonPath: "scene")
        }
      }
      // What the scene reads is known once it is read, whatever fails after.
      let inputs = (job.scenePath.map { [$0] } ?? []) + file.scene.imageReferences.map { file.resolve($0.path) }
      result.inputs = inputs
      if let scale = job.scale ?? options.scale, scale != file.scene.scale {
        file.scene.scale = scale
        do {
          try file.scene.validate()
        } catch let error as GlassError {
          throw file.locate(error.rephrased("at scale \(scale), \(error.message)"))
        }
      }
      if let variant = job.environment {
        file.scene.environment = variant.applied(to: file.scene.environment)
      }
      phase = .prepare
      let images: SceneImages
      let prepared: PreparedRender
      do {
        try PNGCodec.checkPixelLimit(file.scene.pixelSize, maxPixels: options.maxPixels, what: "the canvas")
        images = try file.loadImages(maxPixels: options.maxPixels, cache: imageCache)
        prepared = try renderer.prepare(
          file.scene, images: images, depth: job.depth ?? options.depth, maxPixels: options.maxPixels)
      } catch let error as GlassError {
        throw file.locate(error)
      }
      phase = .write
      let format = try options.encoding.format(forPath: job.output)
      try ImageEncoding.check(format, depth: job.depth ?? options.depth, path: job.output)
      let output = try Self.reserve(job.output, privateFolder: options.privateFolder)
      try output.checkDistinct(from: inputs + options.protectedFiles)
      result.timings.prepareMilliseconds = milliseconds(since: start)
      result.timings.cpu.prepareMilliseconds = threadCPUMilliseconds() - cpuStart
      return .ready(Prepared(result: result, render: prepared, output: output, queued: Date()))
    } catch {
      return .failed(result.failed(in: phase, with: error))
    }
  }

  /// Encodes and writes a rendered job.
  private func write(_ rendered: Rendered) -> BatchResult {
    var result = rendered.result
    do {
      let times = try rendered.output.write(rendered.image, encoding: options.encoding)
      result.timings.encodeMilliseconds = times.encodeMilliseconds
      result.timings.writeMilliseconds = times.writeMilliseconds
      result.timings.cpu.encodeMilliseconds = times.encodeCPUMilliseconds
      result.timings.cpu.writeMilliseconds = times.writeCPUMilliseconds
      var info = stat()
      if stat(rendered.output.target, &info) == 0 { result.bytes = Int(info.st_size) }
    } catch {
      result = result.failed(in: .write, with: error)
    }
    return result
  }

  /// Reserves an output, making its folder first; under `privateFolder`, without
  /// following any link found there.
  static func reserve(_ path: String, privateFolder: String? = nil) throws -> PNGCodec.OutputFile {
    if let root = privateFolder, let inside = FilePaths.relative(path, under: root) {
      try FilePaths.makeFolders(root)
      try FilePaths.makeFoldersWithoutLinks(FilePaths.folder(of: inside), in: root)
      return try PNGCodec.OutputFile(path: path, followingLinks: false)
    }
    // The output file makes its folder when missing.
    return try PNGCodec.OutputFile(path: path)
  }

  /// True when `path` names a file (the output of an earlier run).
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// `error` as a GlassError located in the job: where the job was given (the
  /// manifest's line), then its scene file.
  static func glassError(_ error: Error, naming result: BatchResult) -> GlassError {
    var error = error as? GlassError ?? GlassError(.renderFailure, "\(error)")
    if let scene = result.scene { error = error.located(file: scene) }
    if let origin = result.origin { error = error.located(origin) }
    return error
  }
}

/// Milliseconds since `start`.
private func milliseconds(since start: Date) -> Double {
  Date().timeIntervalSince(start) * 1000
}

/// Starts a named thread in `group`.
private func spawn(_ name: String, _ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
  group.enter()
  let thread = Thread {
    body()
    group.leave()
  }
  thread.name = name
  thread.start()
}

/// A count shared by threads.
private final class Counter: @unchecked Sendable {
  private var value: Int
  private let lock = NSLock()
  init(_ value: Int) { self.value = value }
  func decrement() -> Int {
    lock.withLock {
      value -= 1; return value
    }
  }
}

/// A first-in first-out queue of at most `capacity` items between threads: `push`
/// waits while it is full, `pop` while it is empty and open.
final class BoundedQueue<Element>: @unchecked Sendable {
  private var items: [Element?] = []
  private var head = 0
  private var closed = false
  private let capacity: Int
  private let condition = NSCondition()

  init(capacity: Int) { self.capacity = max(1, capacity) }

  func push(_ item: Element) {
    condition.lock()
    while items.count - head >= capacity { condition.wait() }
    items.append(item)
    condition.broadcast()
    condition.unlock()
  }

  /// The next item, or nil once the queue is closed and empty.
  func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while items.count == head && !closed { condition.wait() }
    return take()
  }

  /// What `pop` would give, without waiting: an item, or `empty` when none is
  /// there yet, or `closed` when none will come.
  enum Polled {
    case item(Element)
    case empty
    case closed
  }

  /// The next item if one is there now.
  func poll() -> Polled {
    condition.lock()
    defer { condition.unlock() }
    if items.count == head { return closed ? .closed : .empty }
    return take().map { .item($0) } ?? .closed
  }

  /// Takes the head item; the lock is held.
  private func take() -> Element? {
    guard items.count > head, let item = items[head] else { return nil }
    // The slot lets go of the item now: a popped job's images must not stay
    // alive in the queue until it is compacted.
    items[head] = nil
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 {
      items.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return item
  }

  /// No more pushes: pops drain what is left, then return nil.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
