import Foundation

/// Milliseconds spent in each phase of one render; the keys of `--timings`.
public struct RenderTimings: Codable, Sendable, Equatable {
  /// Reading and decoding the input PNG.
  public var decodeMilliseconds = 0.0
  /// Converting and uploading source pixels to the GPU (0 on the CPU backend).
  public var uploadMilliseconds = 0.0
  /// Running the passes to completion, and placing exact copies.
  public var renderMilliseconds = 0.0
  /// Reading the result back from the GPU (0 on the CPU backend).
  public var readbackMilliseconds = 0.0
  /// Encoding and writing the output PNG.
  public var encodeMilliseconds = 0.0
  /// Wall time: of the whole command (the CLI), or added by each `Renderer.render` call.
  public var totalMilliseconds = 0.0
  /// With `.auto`, why this render ran on the CPU although a GPU was there (not
  /// part of the JSON).
  public var fallbackReason: String?
  /// CPU milliseconds of the readback on the thread that did it: copying (and at
  /// 16 bits converting) the GPU's pixels into the image, the fence's wait
  /// excluded (not part of the JSON; 0 on the CPU backend).
  public var readbackCPUMilliseconds = 0.0

  /// All zero.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case decodeMilliseconds = "decode_ms"
    case uploadMilliseconds = "upload_ms"
    case renderMilliseconds = "render_ms"
    case readbackMilliseconds = "readback_ms"
    case encodeMilliseconds = "encode_ms"
    case totalMilliseconds = "total_ms"
  }

  /// One line of JSON with the six keys, milliseconds to 0.001.
  public var json: String {
    func f(_ v: Double) -> String { String(format: "%.3f", v) }
    return "{\"decode_ms\":\(f(decodeMilliseconds)),\"upload_ms\":\(f(uploadMilliseconds)),"
      + "\"render_ms\":\(f(renderMilliseconds)),\"readback_ms\":\(f(readbackMilliseconds)),"
      + "\"encode_ms\":\(f(encodeMilliseconds)),\"total_ms\":\(f(totalMilliseconds))}"
  }
}

/// Milliseconds since an arbitrary start, monotonic.
func milliseconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
}

/// CPU milliseconds this thread has run: what a stage costs a core, whatever
/// else shares the machine (wall time counts the time the thread waited for one).
func threadCPUMilliseconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
}

/// How a readback's time went: waiting for the GPU to finish, then the CPU
/// milliseconds of the copy into the image (the wait, which may spin, excluded).
struct ReadbackTimes {
  var waited = 0.0
  var copyCPU = 0.0
}

/// What a backend implements: the primitives, and images to run them on. The
/// executor calls these only inside `perform`.
protocol RenderBackend: AnyObject {
  /// The backend's image.
  associatedtype Image
  /// A readback started and not yet waited for.
  associatedtype Readback

  /// False for a backend with no upload and readback (the CPU): the time of those
  /// steps, which only hand over memory, counts as rendering.
  var hasTransfers: Bool { get }
  /// Runs `body` where the backend's objects may be touched (for GLES, the GL thread).
  func perform<T>(_ body: () throws -> T) throws -> T
  /// A render's submit begins (sources it uploads are its own until it ends).
  func beginFrame()
  /// A render's submit has ended: pooled images recent renders did not use go.
  func endFrame()
  /// Makes an image holding `rects` of a source in the descriptor's format.
  func upload(_ source: RenderGraph.SourceImport, as descriptor: ImageDescriptor) throws -> Image
  /// Makes the output image; the CPU backend takes `target`'s storage to write into.
  func makeOutput(_ descriptor: ImageDescriptor, target: inout RGBAImage) throws -> Image
  /// A transient image, from the pool.
  func acquire(_ descriptor: ImageDescriptor) throws -> Image
  /// Returns any image this backend made to its pool.
  func recycle(_ image: Image, _ descriptor: ImageDescriptor)
  /// Runs one pass.
  func run(_ pass: RenderGraph.Pass, inputs: [Image], output: Image) throws
  /// Waits for every pass to complete (`GLASS_GPU_TRACE` only).
  func finish() throws
  /// Starts copying `rects` of the output towards `target` once the passes before
  /// it complete, without waiting for them (GLES: into a pixel buffer, behind a
  /// fence). The CPU backend hands its storage back to `target` here.
  func startReadback(_ image: Image, rects: [PixelRect], target: inout RGBAImage) throws -> Readback
  /// Waits for a readback and places its pixels in `target`; returns the
  /// milliseconds spent waiting for the passes to complete, and the CPU
  /// milliseconds of the copy.
  func finishReadback(_ readback: Readback, into target: inout RGBAImage) throws -> ReadbackTimes
  /// Lets go of a readback no one will wait for.
  func abandonReadback(_ readback: Readback)
}

/// `GLASS_GPU_TRACE=1` prints the time of every pass to stderr (each pass then
/// waits for the one before, so the total is a little slower).
let trace = ProcessInfo.processInfo.environment["GLASS_GPU_TRACE"].map { $0 != "0" && !$0.isEmpty } ?? false

func traceLine(_ line: String) {
  FileHandle.standardError.write(Data("glass-gpu trace: \(line)\n".utf8))
}

/// Runs a compiled graph on a backend.
enum RenderExecutor {
  /// Places exact source pixels into the output; returns the milliseconds taken.
  static func placeCopies(_ copies: [RenderGraph.Copy], into target: inout RGBAImage) -> Double {
    let start = milliseconds()
    for copy in copies { target.copy(copy.rect, from: copy.image, to: copy.origin) }
    return milliseconds() - start
  }

  /// A render whose passes and readback are submitted, and what `wait` needs.
  final class Submission<Backend: RenderBackend> {
    var target: RGBAImage
    let output: Backend.Image
    let outputDescriptor: ImageDescriptor
    var readback: Backend.Readback?
    /// Milliseconds uploading, and submitting the passes (and placing copies).
    var upload = 0.0
    var submit = 0.0

    init(target: RGBAImage, output: Backend.Image, outputDescriptor: ImageDescriptor, readback: Backend.Readback) {
      self.target = target
      self.output = output
      self.outputDescriptor = outputDescriptor
      self.readback = readback
    }
  }

  /// Executes `compiled` and returns its output, with the graph's exact copies
  /// placed: `submit`, then `wait`. Fills the upload, render and readback timings.
  static func execute<Backend: RenderBackend>(
    _ compiled: CompiledGraph, on backend: Backend, timings: inout RenderTimings
  ) throws -> RGBAImage {
    try wait(submit(compiled, on: backend), on: backend, timings: &timings)
  }

  /// Uploads the sources, submits every pass and starts the readback of the
  /// output, then places the exact copies (on a GPU, while it works). Returns
  /// without waiting for the GPU. Every image but the output is back in the pool.
  static func submit<Backend: RenderBackend>(
    _ compiled: CompiledGraph, on backend: Backend
  ) throws -> Submission<
    Backend
  > {
    let graph = compiled.graph
    let outputDescriptor = graph[compiled.output].descriptor
    let depth: RGBAImage.Depth = outputDescriptor.format == .srgb16 ? .sixteen : .eight
    var target = RGBAImage(size: outputDescriptor.size, depth: depth)
    var copyTime = 0.0

    let submission = try backend.perform { () throws -> Submission<Backend> in
      backend.beginFrame()
      defer { backend.endFrame() }
      var images = [Backend.Image?](repeating: nil, count: graph.resources.count)
      var keepOutput = false
      defer {
        for (index, image) in images.enumerated() {
          guard let image, !(keepOutput && index == compiled.output.index) else { continue }
          backend.recycle(image, graph.resources[index].descriptor)
        }
      }
      let start = milliseconds()
      let used = Set(compiled.passes.flatMap(\.inputs))
      for handle in used {
        if case .source(let source) = graph[handle].role {
          images[handle.index] = try backend.upload(source, as: graph[handle].descriptor)
        }
      }
      let uploaded = milliseconds()
      let output = try backend.makeOutput(outputDescriptor, target: &target)
      images[compiled.output.index] = output
      for (position, pass) in compiled.passes.enumerated() {
        for handle in pass.inputs + [pass.output] where compiled.lifetimes[handle]?.lowerBound == position {
          if images[handle.index] == nil { images[handle.index] = try backend.acquire(graph[handle].descriptor) }
        }
        guard let passOutput = images[pass.output.index] else { preconditionFailure("output image made") }
        let inputs = pass.inputs.map { handle -> Backend.Image in
          guard let image = images[handle.index] else { preconditionFailure("input image made") }
          return image
        }
        let passStart = trace ? milliseconds() : 0
        try backend.run(pass, inputs: inputs, output: passOutput)
        if trace {
          try backend.finish()
          let area = pass.rect.pixelCount
          traceLine(
            String(
              format: "pass %-22@ %-14@ %9d px %8.3f ms", pass.name as NSString,
              pass.primitive.name as NSString, area, milliseconds() - passStart))
        }
        for handle in pass.inputs + [pass.output] where compiled.lifetimes[handle]?.upperBound == position {
          if let image = images[handle.index] {
            backend.recycle(image, graph[handle].descriptor)
            images[handle.index] = nil
          }
        }
      }
      let readback = try backend.startReadback(output, rects: compiled.writtenRects, target: &target)
      // The exact copies need no GPU: a GPU backend's are placed while it works.
      // (The CPU backend held the target's storage until the readback.)
      copyTime = placeCopies(graph.copies, into: &target)
      keepOutput = true
      let submission = Submission<Backend>(
        target: target, output: output, outputDescriptor: outputDescriptor, readback: readback)
      target = RGBAImage(size: PixelSize(width: 0, height: 0), depth: depth)
      submission.upload = uploaded - start
      submission.submit = milliseconds() - uploaded
      return submission
    }
    if trace {
      traceLine(
        String(
          format: "upload %.3f ms, passes submitted and copies placed %.3f ms (copies %.3f ms)", submission.upload,
          submission.submit, copyTime))
    }
    return submission
  }

  /// Waits for a submitted render's readback and returns its output; the output
  /// image goes back to the pool. Fills the upload, render and readback timings.
  static func wait<Backend: RenderBackend>(
    _ submission: Submission<Backend>, on backend: Backend, timings: inout RenderTimings
  ) throws -> RGBAImage {
    guard let readback = submission.readback else { preconditionFailure("a submission is waited for once") }
    submission.readback = nil
    var waited = 0.0
    var readTime = 0.0
    var readCPU = 0.0
    try backend.perform {
      defer { backend.recycle(submission.output, submission.outputDescriptor) }
      let start = milliseconds()
      let times = try backend.finishReadback(readback, into: &submission.target)
      waited = times.waited
      readTime = milliseconds() - start - waited
      readCPU = times.copyCPU
    }
    if trace { traceLine(String(format: "waited for the passes %.3f ms, readback %.3f ms", waited, readTime)) }
    if backend.hasTransfers {
      timings.uploadMilliseconds += submission.upload
      timings.renderMilliseconds += submission.submit + waited
      timings.readbackMilliseconds += readTime
      timings.readbackCPUMilliseconds += readCPU
    } else {
      timings.renderMilliseconds += submission.upload + submission.submit + waited + readTime
    }
    let image = submission.target
    submission.target = RGBAImage(size: PixelSize(width: 0, height: 0), depth: image.depth)
    return image
  }

  /// Lets go of a submitted render no one will wait for.
  static func abandon<Backend: RenderBackend>(_ submission: Submission<Backend>, on backend: Backend) {
    guard let readback = submission.readback else { return }
    submission.readback = nil
    _ = try? backend.perform {
      backend.abandonReadback(readback)
      backend.recycle(submission.output, submission.outputDescriptor)
    }
  }
}
