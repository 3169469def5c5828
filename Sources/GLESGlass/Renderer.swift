import Foundation

/// Which backend renders.
public enum BackendChoice: String, Sendable, CaseIterable {
  /// OpenGL ES 3 through EGL; an error when no GPU context can be made.
  case gpu
  /// The CPU reference backend.
  case cpu
  /// The GPU when a context can be made, else the CPU (and `fallbackReason` says why).
  case auto
}

/// Renders effects on a backend. Holds the backend (its GL context, compiled
/// programs and pooled textures) so that later renders are warm.
public final class Renderer: @unchecked Sendable {
  private enum Backend {
    case gles(GLESBackend)
    case cpu(CPUBackend)
  }

  private let backend: Backend

  /// `gpu` or `cpu`: the backend that renders.
  public let backendName: String
  /// With `.auto`, why the GPU was not used; nil otherwise.
  public let fallbackReason: String?

  /// Starts a backend. `.gpu` throws `gpuUnavailable` when no context can be made.
  public init(backend choice: BackendChoice) throws {
    switch choice {
    case .cpu:
      backend = .cpu(CPUBackend())
      fallbackReason = nil
    case .gpu:
      backend = .gles(try GLESBackend())
      fallbackReason = nil
    case .auto:
      do {
        backend = .gles(try GLESBackend())
        fallbackReason = nil
      } catch let error as GlassError {
        backend = .cpu(CPUBackend())
        fallbackReason = error.cause ?? error.message
      }
    }
    if case .gles = backend { backendName = "gpu" } else { backendName = "cpu" }
  }

  /// Releases the GPU context now (otherwise at deinit or process exit).
  public func close() {
    gles?.close()
  }

  /// The GPU backend, when it is the one rendering.
  public var gles: GLESBackend? {
    if case .gles(let backend) = backend { backend } else { nil }
  }

  /// The CPU backend, when it is the one rendering.
  public var cpu: CPUBackend? {
    if case .cpu(let backend) = backend { backend } else { nil }
  }

  /// One full-frame pass over `image` (a bilinear tap and the sRGB encode, into
  /// an 8-bit image of its size): the unit of cost benchmarks are read against.
  public func renderCalibrationPass(on image: RGBAImage, timings: inout RenderTimings) throws -> RGBAImage {
    var graph = RenderGraph()
    let all = PixelRect(size: image.size)
    let source = graph.importSource(image, as: .linearHalf, rects: [all])
    let output = graph.makeOutput(size: image.size, format: .srgb8)
    graph.addPass(
      "calibration", .upsample(Upsample(map: PixelMap(scale: 1, offsetX: 0, offsetY: 0))), inputs: [source],
      output: output, rect: all)
    let compiled = try graph.compile()
    switch backend {
    case .gles(let backend): return try RenderExecutor.execute(compiled, on: backend, timings: &timings)
    case .cpu(let backend): return try RenderExecutor.execute(compiled, on: backend, timings: &timings)
    }
  }

  /// Renders the background extension effect on `image` and returns the canvas,
  /// at `depth`. Every check of the input happens before any GL call.
  public func render(
    _ effect: BackgroundExtensionEffect, on image: RGBAImage, depth: RGBAImage.Depth = .eight,
    maxPixels: Int = PNGCodec.defaultMaxPixels, timings: inout RenderTimings
  ) throws -> RGBAImage {
    try effect.validate()
    let canvas = effect.canvasSize(for: image.size)
    try PNGCodec.checkPixelLimit(canvas, maxPixels: maxPixels, what: "the extended canvas")
    if let gles {
      let limit = gles.info.maxTextureSize
      for (what, size) in [("the image", image.size), ("the extended canvas", canvas)]
      where size.width > limit || size.height > limit {
        throw GlassError(
          .imageTooLarge,
          "\(what) is \(size), over the GPU's largest texture of \(limit)x\(limit) pixels; use --backend cpu")
      }
    }
    let compiled = try effect.lower(image, depth: depth).compile()
    switch backend {
    case .gles(let backend): return try RenderExecutor.execute(compiled, on: backend, timings: &timings)
    case .cpu(let backend): return try RenderExecutor.execute(compiled, on: backend, timings: &timings)
    }
  }
}

extension Renderer {
  /// A renderer being started on another thread: making an EGL display and context
  /// takes tens of milliseconds, which can overlap reading the input.
  public final class Pending: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Renderer, Error>?

    fileprivate init(_ choice: BackendChoice) {
      let thread = Thread { [self] in
        result = Result { try Renderer(backend: choice) }
        done.signal()
      }
      thread.name = "glass-gpu start"
      thread.start()
    }

    /// Waits for the renderer, or throws why it could not start.
    public func value() throws -> Renderer {
      done.wait()
      done.signal()
      guard let result else { preconditionFailure("a started renderer has a result") }
      return try result.get()
    }
  }

  /// Starts a renderer on another thread; `value()` waits for it.
  public static func start(backend choice: BackendChoice) -> Pending {
    Pending(choice)
  }
}
