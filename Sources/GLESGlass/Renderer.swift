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

/// A render made ready on the CPU by `Renderer.prepare`: checked, its images
/// fitted, lowered into a graph and compiled. It holds no GL object and can be
/// rendered on any renderer, any number of times.
public struct PreparedRender: Sendable {
  let compiled: CompiledGraph

  /// Size of the output image in pixels.
  public var size: PixelSize { compiled.graph[compiled.output].descriptor.size }
  /// Bytes the backend holds for it: intermediate images and imported sources, as
  /// binary16 (checked against `Renderer.maxWorkingBytes`).
  public var workingBytes: Int { compiled.transientBytes + compiled.sourceBytes }
  /// How many passes the backend runs.
  public var passCount: Int { compiled.order.count }
  /// What looks like a mistake in the layout of the scene's view trees
  /// (`LayoutWarning`); empty without one.
  public var layoutWarnings: [LayoutWarning] = []
}

/// Renders effects on a backend. Holds the backend (its GL context, compiled
/// programs and pooled textures) and its caches (`RenderCaches`: fonts, glyphs,
/// text masks, icons, images, kept textures) so that later renders are warm.
public final class Renderer: @unchecked Sendable {
  private enum Backend {
    case gles(GLESBackend)
    case cpu(CPUBackend)
  }

  private let backend: Backend
  /// With `.auto` on a GPU: the backend for renders the GPU cannot take.
  private let cpuFallback: CPUBackend?

  /// `gpu` or `cpu`: the backend that renders.
  public let backendName: String
  /// With `.auto`, why the GPU was not used; nil otherwise.
  public let fallbackReason: String?
  /// Worker threads of the CPU work: the CPU backend's passes and, in `render`
  /// and the batch renderer, fitting images; nil for one a core (at most 8).
  public let cpuThreads: Int?
  /// The caches its renders keep for later ones, each within its budget.
  public let caches: RenderCaches

  /// Starts a backend. `.gpu` throws `gpuUnavailable` when no context can be made.
  /// `cpuThreads` sets the worker threads of the CPU work (nil: one a core, at
  /// most 8); the CPU backend's output is byte-identical whatever the count.
  /// `caches` are the renderer's (new ones with the default budgets unless given).
  public init(backend choice: BackendChoice, cpuThreads: Int? = nil, caches: RenderCaches = RenderCaches()) throws {
    if let cpuThreads, cpuThreads < 1 {
      throw GlassError(.invalidParameter, "cpuThreads is \(cpuThreads); give 1 or more, or nil for one a core")
    }
    self.cpuThreads = cpuThreads
    self.caches = caches
    let textureBytes = caches.budgets.textureBytes
    switch choice {
    case .cpu:
      backend = .cpu(CPUBackend(threads: cpuThreads, keptSourceBytes: textureBytes))
      fallbackReason = nil
    case .gpu:
      backend = .gles(try GLESBackend(keptTextureBytes: textureBytes))
      fallbackReason = nil
    case .auto:
      do {
        backend = .gles(try GLESBackend(keptTextureBytes: textureBytes))
        fallbackReason = nil
      } catch let error as GlassError {
        backend = .cpu(CPUBackend(threads: cpuThreads, keptSourceBytes: textureBytes))
        fallbackReason = error.cause ?? error.message
      }
    }
    if case .gles = backend { backendName = "gpu" } else { backendName = "cpu" }
    // The fallback keeps no sources: it renders only what the GPU cannot.
    cpuFallback = choice == .auto && backendName == "gpu" ? CPUBackend(threads: cpuThreads, keptSourceBytes: 0) : nil
    switch backend {
    case .gles(let gles): caches.attach(gles.keptTextureStats)
    case .cpu(let cpu): caches.attach(cpu.keptSourceStats)
    }
  }

  /// Runs `body` with this renderer's `cpuThreads` as the worker count of the CPU
  /// work it does (fitting images in `prepare`, say).
  public func withCPUThreads<T>(_ body: () throws -> T) rethrows -> T {
    try CPUKernels.$threads.withValue(cpuThreads ?? CPUKernels.threads) { try body() }
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
    try timed(&timings) {
      try wait(submit(Self.prepare(effect, on: image, depth: depth, maxPixels: maxPixels)), timings: &$0)
    }
  }

  /// Renders a scene at `depth`: `prepare`, then the backend. The scene is
  /// validated, and every size checked, before any GL call.
  public func render(
    _ scene: Scene, images: SceneImages, depth: RGBAImage.Depth = .eight,
    maxPixels: Int = PNGCodec.defaultMaxPixels, timings: inout RenderTimings
  ) throws -> RGBAImage {
    try timed(&timings) {
      try wait(submit(prepare(scene, images: images, depth: depth, maxPixels: maxPixels)), timings: &$0)
    }
  }

  /// Renders a scene whose images are decoded already, by their path in the scene.
  public func render(
    _ scene: Scene, images: [String: RGBAImage], depth: RGBAImage.Depth = .eight,
    maxPixels: Int = PNGCodec.defaultMaxPixels, timings: inout RenderTimings
  ) throws -> RGBAImage {
    try render(scene, images: SceneImages(images), depth: depth, maxPixels: maxPixels, timings: &timings)
  }

  /// Renders a scene made in Swift, its image files (if it names any) read
  /// relative to the working directory, as `SceneFile(scene: scene, directory:
  /// ".")` reads them.
  public func render(
    _ scene: Scene, depth: RGBAImage.Depth = .eight, maxPixels: Int = PNGCodec.defaultMaxPixels,
    timings: inout RenderTimings
  ) throws -> RGBAImage {
    try render(SceneFile(scene: scene, directory: "."), depth: depth, maxPixels: maxPixels, timings: &timings)
  }

  /// `render(_:depth:maxPixels:timings:)` without the timings.
  public func render(
    _ scene: Scene, depth: RGBAImage.Depth = .eight, maxPixels: Int = PNGCodec.defaultMaxPixels
  ) throws -> RGBAImage {
    var timings = RenderTimings()
    return try render(scene, depth: depth, maxPixels: maxPixels, timings: &timings)
  }

  /// Renders a scene file: its images read relative to its folder
  /// (`SceneFile.loadImages`, with this renderer's image cache), then `render`.
  /// Errors name the file.
  public func render(
    _ file: SceneFile, depth: RGBAImage.Depth = .eight, maxPixels: Int = PNGCodec.defaultMaxPixels,
    timings: inout RenderTimings
  ) throws -> RGBAImage {
    try timed(&timings) { timings in
      let images = try file.loadImages(maxPixels: maxPixels, cache: caches.images)
      do {
        return try wait(
          submit(prepare(file.scene, images: images, depth: depth, maxPixels: maxPixels)), timings: &timings)
      } catch let error as GlassError {
        throw file.locate(error)
      }
    }
  }

  /// `render(_:depth:maxPixels:timings:)` of a scene file without the timings.
  public func render(
    _ file: SceneFile, depth: RGBAImage.Depth = .eight, maxPixels: Int = PNGCodec.defaultMaxPixels
  ) throws -> RGBAImage {
    var timings = RenderTimings()
    return try render(file, depth: depth, maxPixels: maxPixels, timings: &timings)
  }

  /// Runs a prepared render on the backend: `submit`, then `wait`.
  public func render(_ prepared: PreparedRender, timings: inout RenderTimings) throws -> RGBAImage {
    try timed(&timings) { try wait(submit(prepared), timings: &$0) }
  }

  /// `body`, its wall time added to `timings.totalMilliseconds`.
  private func timed(
    _ timings: inout RenderTimings, _ body: (inout RenderTimings) throws -> RGBAImage
  ) rethrows -> RGBAImage {
    let start = DispatchTime.now().uptimeNanoseconds
    defer { timings.totalMilliseconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
    return try body(&timings)
  }

  /// Uploads a prepared render's images, submits its passes and starts reading
  /// its output back, and returns without waiting for the GPU: the caller can
  /// submit the next render, or encode the last one, while this one runs. `wait`
  /// gives the image. On the CPU backend the render is done when this returns.
  public func submit(_ prepared: PreparedRender) throws -> SubmittedRender {
    let compiled = prepared.compiled
    switch backend {
    case .gles(let gles):
      if let problem = Self.textureLimitProblem(compiled, limit: gles.info.maxTextureSize) {
        guard let cpuFallback else {
          throw GlassError(.imageTooLarge, "\(problem); render on the CPU backend", hint: .useCPUBackend)
        }
        return try SubmittedRender(compiled, on: cpuFallback, fallbackReason: problem)
      }
      return try SubmittedRender(compiled, on: gles, fallbackReason: nil)
    case .cpu(let cpu):
      return try SubmittedRender(compiled, on: cpu, fallbackReason: nil)
    }
  }

  /// Waits for a submitted render and returns its image, adding its upload,
  /// render and readback times to `timings`. Throws when the driver failed, or
  /// when this render was waited for already.
  public func wait(_ submitted: SubmittedRender, timings: inout RenderTimings) throws -> RGBAImage {
    try submitted.wait(timings: &timings)
  }

  /// Checks an extension of an image of `imageSize` without the image: the
  /// parameters and the canvas against `maxPixels`. `prepare` does it again, with
  /// the working memory; this lets a caller refuse before decoding a large file.
  public static func check(
    _ effect: BackgroundExtensionEffect, imageSize: PixelSize, maxPixels: Int = PNGCodec.defaultMaxPixels
  ) throws {
    guard imageSize.width > 0 && imageSize.height > 0 else {
      throw GlassError(.invalidParameter, "the image is empty (\(imageSize)); give an image of at least 1x1 pixels")
    }
    try effect.validate()
    try PNGCodec.checkPixelLimit(effect.canvasSize(for: imageSize), maxPixels: maxPixels, what: "the extended canvas")
  }

  /// Everything a render of the extension effect does before the backend runs:
  /// the checks, the lowering and the compile, and the working-memory limit.
  public static func prepare(
    _ effect: BackgroundExtensionEffect, on image: RGBAImage, depth: RGBAImage.Depth = .eight,
    maxPixels: Int = PNGCodec.defaultMaxPixels
  ) throws -> PreparedRender {
    try check(effect, imageSize: image.size, maxPixels: maxPixels)
    let compiled = try effect.lower(image, depth: depth).compile()
    try checkWorkingMemory(compiled, effect, effect.canvasSize(for: image.size))
    return PreparedRender(compiled: compiled)
  }

  /// Everything a render of a scene does before the backend runs, on the CPU: the
  /// scene validated, every image it names there, the canvas and every extended
  /// image within `maxPixels`, the images fitted to their frames, the graph lowered
  /// and compiled, and its working memory within `maxWorkingBytes`. What passes
  /// here is refused later only by the backend itself (a GPU's largest texture,
  /// with `--backend gpu`) or a driver failure. `glass-gpu validate` runs this.
  /// Text is laid out and drawn with `caches` (nil: those bound by
  /// `RenderCaches.use`, else new ones for this call).
  public static func prepare(
    _ scene: Scene, images: SceneImages, depth: RGBAImage.Depth = .eight,
    maxPixels: Int = PNGCodec.defaultMaxPixels, caches: RenderCaches? = nil
  ) throws -> PreparedRender {
    let caches = RenderCaches.given(caches)
    return try caches.use { try prepare(scene, images: images, depth: depth, maxPixels: maxPixels, with: caches) }
  }

  /// `prepare` with this renderer's caches and CPU threads.
  public func prepare(
    _ scene: Scene, images: SceneImages, depth: RGBAImage.Depth = .eight,
    maxPixels: Int = PNGCodec.defaultMaxPixels
  ) throws -> PreparedRender {
    try withCPUThreads { try Self.prepare(scene, images: images, depth: depth, maxPixels: maxPixels, caches: caches) }
  }

  private static func prepare(
    _ scene: Scene, images: SceneImages, depth: RGBAImage.Depth, maxPixels: Int, with caches: RenderCaches
  ) throws -> PreparedRender {
    try scene.validate()
    for (jsonPath, path) in scene.imageReferences where !images.contains(path) {
      throw GlassError(
        .fileUnreadable, "the image \(path) was not loaded; load it with SceneFile.loadImages",
        at: GlassError.Location(jsonPath: jsonPath))
    }
    try PNGCodec.checkPixelLimit(scene.pixelSize, maxPixels: maxPixels, what: "the scene canvas")
    // The view trees laid out, once, here: what they lower to is checked as any
    // layers are.
    let hadViews = scene.hasViewTree
    let (scene, bodySources, warnings) = try scene.laidOutWithSources(images: images, caches: caches)
    // An error at a layer the body made names the view that made it.
    let compiled = try scene.namingViews(bodySources) {
      if hadViews { try scene.validate() }
      let lowering = SceneLowering(scene: scene, images: images, depth: depth, caches: caches)
      try lowering.checkImageSizes(maxPixels: maxPixels)
      return try lowering.lower().compile()
    }
    // Intermediates and the images fitted to their frames, as binary16.
    let bytes = compiled.transientBytes + compiled.sourceBytes
    guard bytes <= maxWorkingBytes else {
      throw GlassError(
        .imageTooLarge,
        "the scene needs \(bytes >> 20) MiB of intermediate images, over \(maxWorkingBytes >> 20) MiB; "
          + "lower its size, scale or blurs")
    }
    return PreparedRender(compiled: compiled, layoutWarnings: warnings)
  }

  /// The largest working set of intermediate images a render may have, in bytes of
  /// binary16 pixels (the CPU backend holds them as Float, twice this).
  public static let maxWorkingBytes = 2 << 30

  /// Throws `imageTooLarge` when the blur's intermediate images would be larger
  /// than `maxWorkingBytes`: a sigma far beyond the canvas, say.
  static func checkWorkingMemory(
    _ compiled: CompiledGraph, _ effect: BackgroundExtensionEffect, _ canvas: PixelSize
  )
    throws
  {
    let bytes = compiled.transientBytes
    guard bytes > maxWorkingBytes else { return }
    throw GlassError(
      .imageTooLarge,
      "a blur of sigma \(ParameterSpec.format(effect.parameters.sigmaPixels)) px around a \(canvas) canvas needs "
        + "\(bytes >> 20) MiB of intermediate images, over \(maxWorkingBytes >> 20) MiB; lower the sigma",
      hint: .lowerSigma)
  }

  /// Why a compiled graph does not fit the GPU's largest texture, or nil.
  static func textureLimitProblem(_ compiled: CompiledGraph, limit: Int) -> String? {
    for resource in compiled.graph.resources {
      let size = resource.descriptor.size
      guard size.width > limit || size.height > limit else { continue }
      let what: String
      switch resource.role {
      case .source: what = "the image"
      case .output: what = "the extended canvas"
      case .transient: what = "an intermediate image (\(resource.name))"
      }
      return "\(what) is \(size), over the GPU's largest texture of \(limit)x\(limit) pixels"
    }
    return nil
  }
}

/// A render submitted to its backend and not yet waited for: its passes run
/// (on a GPU) while the caller does other work. `Renderer.wait` gives its image;
/// one dropped without a wait lets go of what it holds.
public final class SubmittedRender: @unchecked Sendable {
  /// Size of the output image in pixels.
  public let size: PixelSize
  /// Why it runs on the CPU although the renderer has a GPU, if it does.
  public let fallbackReason: String?
  private let lock = NSLock()
  private var finish: ((inout RenderTimings) throws -> RGBAImage)?
  private let abandon: () -> Void

  fileprivate init<Backend: RenderBackend>(
    _ compiled: CompiledGraph, on backend: Backend, fallbackReason: String?
  ) throws {
    let submission = try RenderExecutor.submit(compiled, on: backend)
    size = compiled.graph[compiled.output].descriptor.size
    self.fallbackReason = fallbackReason
    finish = { timings in try RenderExecutor.wait(submission, on: backend, timings: &timings) }
    abandon = { RenderExecutor.abandon(submission, on: backend) }
  }

  fileprivate func wait(timings: inout RenderTimings) throws -> RGBAImage {
    let finish = lock.withLock {
      defer { self.finish = nil }
      return self.finish
    }
    guard let finish else {
      throw GlassError(.renderFailure, "this render was waited for already; submit it again for another image")
    }
    if let fallbackReason { timings.fallbackReason = fallbackReason }
    return try finish(&timings)
  }

  deinit {
    // Nothing to do after a wait; otherwise the output and its readback go back.
    abandon()
  }
}

extension Renderer {
  /// A renderer being started on another thread: making an EGL display and context
  /// takes tens of milliseconds, which can overlap reading the input.
  public final class Pending: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Renderer, Error>?

    fileprivate init(_ choice: BackendChoice, caches: RenderCaches) {
      // Process exit waits for starts in flight: leaving while another thread is
      // inside EGL or Mesa set-up can crash their teardown.
      LiveBackends.starting.enter()
      let thread = Thread { [self] in
        result = Result { try Renderer(backend: choice, caches: caches) }
        done.signal()
        LiveBackends.starting.leave()
      }
      thread.name = "glass-gpu start"
      thread.start()
    }

    /// Waits for the start to end and closes the renderer it made, if any. Call
    /// it however the work that overlapped the start ended.
    public func close() {
      done.wait()
      done.signal()
      if case .success(let renderer) = result { renderer.close() }
    }

    /// Waits for the renderer, or throws why it could not start.
    public func value() throws -> Renderer {
      done.wait()
      done.signal()
      guard let result else { preconditionFailure("a started renderer has a result") }
      return try result.get()
    }
  }

  /// Starts a renderer with `caches` on another thread; `value()` waits for it.
  public static func start(backend choice: BackendChoice, caches: RenderCaches = RenderCaches()) -> Pending {
    Pending(choice, caches: caches)
  }
}
