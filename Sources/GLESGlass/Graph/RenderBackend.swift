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
  /// Wall time of the whole command.
  public var totalMilliseconds = 0.0
  /// With `.auto`, why this render ran on the CPU although a GPU was there (not
  /// part of the JSON).
  public var fallbackReason: String?

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

/// What a backend implements: the primitives, and images to run them on. The
/// executor calls these only inside `perform`.
protocol RenderBackend: AnyObject {
  /// The backend's image.
  associatedtype Image

  /// False for a backend with no upload and readback (the CPU): the time of those
  /// steps, which only hand over memory, counts as rendering.
  var hasTransfers: Bool { get }
  /// Runs `body` where the backend's objects may be touched (for GLES, the GL thread).
  func perform<T>(_ body: () throws -> T) throws -> T
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
  /// Waits for every pass to complete.
  func finish() throws
  /// Copies `rects` of the output into `target` (the CPU backend hands its storage back).
  func readback(_ image: Image, rects: [PixelRect], into target: inout RGBAImage) throws
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

  /// Executes `compiled` and returns its output, with the graph's exact copies
  /// placed. Fills the upload, render and readback timings.
  static func execute<Backend: RenderBackend>(
    _ compiled: CompiledGraph, on backend: Backend, timings: inout RenderTimings
  ) throws -> RGBAImage {
    let graph = compiled.graph
    let outputDescriptor = graph[compiled.output].descriptor
    let depth: RGBAImage.Depth = outputDescriptor.format == .srgb16 ? .sixteen : .eight
    var target = RGBAImage(size: outputDescriptor.size, depth: depth)
    var phases = (upload: 0.0, render: 0.0, readback: 0.0)
    var copyTime = 0.0

    try backend.perform {
      var images = [Backend.Image?](repeating: nil, count: graph.resources.count)
      defer {
        for (index, image) in images.enumerated() {
          if let image { backend.recycle(image, graph.resources[index].descriptor) }
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
      images[compiled.output.index] = try backend.makeOutput(outputDescriptor, target: &target)
      for (position, pass) in compiled.passes.enumerated() {
        for handle in pass.inputs + [pass.output] where compiled.lifetimes[handle]?.lowerBound == position {
          if images[handle.index] == nil { images[handle.index] = try backend.acquire(graph[handle].descriptor) }
        }
        guard let output = images[pass.output.index] else { preconditionFailure("output image made") }
        let inputs = pass.inputs.map { handle -> Backend.Image in
          guard let image = images[handle.index] else { preconditionFailure("input image made") }
          return image
        }
        let passStart = trace ? milliseconds() : 0
        try backend.run(pass, inputs: inputs, output: output)
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
      // The exact copies need no GPU: a GPU backend's are made while it works.
      // (The CPU backend holds the target's storage until readback.)
      if backend.hasTransfers { copyTime = placeCopies(graph.copies, into: &target) }
      try backend.finish()
      let rendered = milliseconds()
      if let output = images[compiled.output.index] {
        try backend.readback(output, rects: compiled.writtenRects, into: &target)
      }
      if !backend.hasTransfers { copyTime = placeCopies(graph.copies, into: &target) }
      phases = (uploaded - start, rendered - uploaded, milliseconds() - rendered)
    }
    if trace {
      traceLine(
        String(
          format: "upload %.3f ms, passes and copies %.3f ms (copies %.3f ms), readback %.3f ms",
          phases.upload, phases.render, copyTime, phases.readback))
    }
    if backend.hasTransfers {
      timings.uploadMilliseconds += phases.upload
      timings.renderMilliseconds += phases.render
      timings.readbackMilliseconds += phases.readback
    } else {
      timings.renderMilliseconds += phases.upload + phases.render + phases.readback
    }
    return target
  }
}
