import CEGL
import Foundation

/// What the GPU backend runs on: the answers of `glass-gpu info`.
public struct GPUInfo: Sendable, Codable, Equatable {
  /// The EGL platform used: `gbm`, `device` or `surfaceless`.
  public var platform: String
  /// Every platform tried, in order, and why each unused one was not used.
  public var attempts: [PlatformAttempt]
  /// EGL vendor string.
  public var eglVendor: String
  /// EGL version string.
  public var eglVersion: String
  /// The OpenGL ES version the context was created for, such as `3.2`.
  public var contextVersion: String
  /// GL_RENDERER.
  public var glRenderer: String
  /// GL_VERSION.
  public var glVersion: String
  /// GL_SHADING_LANGUAGE_VERSION.
  public var glslVersion: String
  /// GL_MAX_TEXTURE_SIZE, in pixels.
  public var maxTextureSize: Int
  /// The EGL and GL extensions glass-gpu uses or reports, and whether each is present.
  public var extensions: [String: Bool]
}

/// Counts of live GL objects and pooled images of a GLES backend.
public struct GLObjectCounts: Sendable, Equatable, CustomStringConvertible {
  /// Live textures.
  public var textures: Int
  /// Live framebuffers.
  public var framebuffers: Int
  /// Live pixel buffers (readbacks in flight, and two idle for the next ones).
  public var buffers: Int
  /// Live programs.
  public var programs: Int
  /// Pooled images handed out and not returned.
  public var poolInUse: Int
  /// Pooled images idle.
  public var poolIdle: Int
  /// Source textures kept for later renders of the same images.
  public var keptSources: Int = 0

  /// One line.
  public var description: String {
    "textures \(textures), framebuffers \(framebuffers), buffers \(buffers), programs \(programs), pool in use \(poolInUse), idle \(poolIdle), "
      + "kept sources \(keptSources)"
  }
}

/// The OpenGL ES 3 backend: a headless EGL context on its own GL thread, the
/// primitives as GLSL programs, transient textures pooled by size and format.
public final class GLESBackend: @unchecked Sendable {
  /// What the backend runs on.
  public let info: GPUInfo
  private let worker: GLWorker
  private let state: GLESState
  private let closeLock = NSLock()
  private var closed = false
  /// The kept source textures (only the GL thread adds or drops them; their
  /// stats can be read from any thread).
  private let keptSources: LRUCache<GLESState.SourceIdentity, GLESState.KeptSource>

  /// A reader of the kept source textures' stats (`RenderCaches.stats`).
  var keptTextureStats: @Sendable () -> CacheStats {
    let kept = keptSources
    return { kept.stats }
  }

  /// Opens the shared EGL display and makes a context on a new GL thread, which
  /// keeps at most `keptTextureBytes` of source textures for later renders.
  public convenience init(keptTextureBytes: Int = CacheBudgets().textureBytes) throws {
    try self.init(keptTextureBytes: keptTextureBytes, poisoningNewTextures: false)
  }

  /// With `poisoningNewTextures`, every new binary16 texture starts as NaN, as
  /// memory no one wrote may (softpipe's does), so that a test finds a pass that
  /// reads a texel no pass wrote and no upload filled, even with weight 0: 0
  /// times NaN is NaN.
  init(keptTextureBytes: Int = CacheBudgets().textureBytes, poisoningNewTextures: Bool) throws {
    let connection = try EGLDisplayConnection.acquire()
    let worker = GLWorker(name: "glass-gpu GL")
    let kept = LRUCache<GLESState.SourceIdentity, GLESState.KeptSource>(
      "textures", budgetBytes: keptTextureBytes, admission: .sources(budgetBytes: keptTextureBytes))
    keptSources = kept
    do {
      let state = try worker.sync { try GLESState(connection: connection, kept: kept) }
      state.poisonsNewTextures = poisoningNewTextures
      self.state = state
      self.info = try worker.sync { state.info() }
      self.worker = worker
    } catch {
      worker.stop()
      EGLDisplayConnection.release(connection)
      throw error
    }
    LiveBackends.add(self)
  }

  /// Deletes every GL object and the context on the GL thread, ends the thread and
  /// lets go of the EGL display. Later renders fail; calling it again does nothing.
  /// Runs by itself at process exit for backends still open.
  public func close() {
    closeLock.lock()
    defer { closeLock.unlock() }
    guard !closed else { return }
    closed = true
    try? worker.sync { state.teardown() }
    worker.stop()
  }

  deinit {
    // The GL thread deletes its objects and context, then ends; nothing here calls GL.
    if !closed {
      let state = UncheckedSendable(state)
      worker.stop { state.value.teardown() }
    }
  }

  /// Counts of live GL objects and pooled images.
  public func objectCounts() throws -> GLObjectCounts {
    try onGLThread { state.counts() }
  }

  /// Deletes idle pooled textures beyond `maxIdleBytes`.
  public func trimPool(toBytes maxIdleBytes: Int = 0) throws {
    try onGLThread {
      if maxIdleBytes == 0 { state.forgetKeptSources() }
      state.trim(toBytes: maxIdleBytes)
    }
  }

  /// Runs `body` on the GL thread, or throws when the backend has been closed.
  private func onGLThread<T>(_ body: () throws -> T) throws -> T {
    try worker.sync {
      guard !state.isTornDown else {
        throw GlassError(.renderFailure, "the GPU backend was closed; make a new Renderer")
      }
      return try body()
    }
  }
}

extension GLESBackend: RenderBackend {
  typealias Image = GLTexture

  var hasTransfers: Bool { true }

  func perform<T>(_ body: () throws -> T) throws -> T {
    try onGLThread(body)
  }

  func beginFrame() { state.renderCount += 1 }

  func endFrame() { state.endRender() }

  func upload(_ source: RenderGraph.SourceImport, as descriptor: ImageDescriptor) throws -> GLTexture {
    try state.uploadKept(source, as: descriptor)
  }

  func makeOutput(_ descriptor: ImageDescriptor, target: inout RGBAImage) throws -> GLTexture {
    try state.acquire(descriptor)
  }

  func acquire(_ descriptor: ImageDescriptor) throws -> GLTexture {
    try state.acquire(descriptor)
  }

  func recycle(_ image: GLTexture, _ descriptor: ImageDescriptor) {
    guard !state.isKept(image) else { return }
    state.pool.recycle(image, descriptor)
  }

  func run(_ pass: RenderGraph.Pass, inputs: [GLTexture], output: GLTexture) throws {
    try state.run(pass, inputs: inputs, output: output)
  }

  func finish() throws {
    glFinish()
    try checkGLError("rendering")
  }

  func startReadback(_ image: GLTexture, rects: [PixelRect], target: inout RGBAImage) throws -> GLReadback {
    try state.startReadback(image, rects: rects, depth: target.depth)
  }

  func finishReadback(_ readback: GLReadback, into target: inout RGBAImage) throws -> ReadbackTimes {
    try state.finishReadback(readback, into: &target)
  }

  func abandonReadback(_ readback: GLReadback) {
    state.abandon(readback)
  }
}

extension GLESBackend: PassInspectable {
  func pixels(of image: GLTexture, rect: PixelRect) throws -> [SIMD4<Float>] {
    try state.pixels(of: image, rect: rect)
  }

  func clear(_ image: GLTexture) throws {
    try state.clear(image)
  }
}

/// Everything of the GLES backend that lives on the GL thread.
final class GLESState {
  /// Idle pooled textures kept between renders, in bytes.
  static let maxIdleBytes = 512 << 20

  let connection: EGLDisplayConnection
  let context: EGLContext
  let contextVersion: String
  var pool = ImagePool<GLTexture>()
  private var programs: [ProgramKey: GLProgram] = [:]
  private var vertexArray: GLuint = 0
  /// Sampler objects: bilinear and nearest, both mirrored at the edges.
  private var linearSampler: GLuint = 0
  private var nearestSampler: GLuint = 0
  private var liveTextures = 0
  private var liveFramebuffers = 0
  private var liveBuffers = 0
  /// Pack buffers of finished readbacks, for the next ones.
  private var idleBuffers: [GLPackBuffer] = []
  private var staging: [UInt16] = []
  private(set) var isTornDown = false
  /// Whether new binary16 textures start as NaN (`GLESBackend.init(poisoningNewTextures:)`).
  var poisonsNewTextures = false

  /// Source textures kept from one render to the next: an image a later render
  /// imports again (the same pixel storage, as a batch's image cache hands out) is
  /// not converted and uploaded again. An entry holds its image, so the storage
  /// it is known by cannot be freed and reused by another image while it is kept.
  struct KeptSource {
    var image: RGBAImage
    var texture: GLTexture
    var rects: [PixelRect]
    var bytes: Int
    var lastRender: Int
  }

  /// An image's pixel storage and the texture format it is uploaded as.
  struct SourceIdentity: Hashable {
    var storage: UInt
    var descriptor: ImageDescriptor
  }

  /// The kept source textures, within their budget, the least recently used
  /// going first (`RenderCaches`' textures).
  private let kept: LRUCache<SourceIdentity, KeptSource>
  private var keptNames: Set<GLuint> = []
  /// Renders begun, so that a source the current render uses is never evicted.
  var renderCount = 0

  init(connection: EGLDisplayConnection, kept: LRUCache<SourceIdentity, KeptSource>) throws {
    self.connection = connection
    self.kept = kept
    guard let config = EGLDisplayConnection.chooseConfig(connection.display) else {
      throw GlassError(
        .gpuUnavailable, "no EGL config renders OpenGL ES 3; render on the CPU backend", cause: eglErrorName(),
        hint: .useCPUBackend)
    }
    let context: EGLContext
    switch EGLDisplayConnection.createContext(connection.display, config) {
    case .success(let made):
      (context, contextVersion) = made
    case .failure(let error):
      throw GlassError(
        .gpuUnavailable, "no OpenGL ES 3.x context could be created; render on the CPU backend",
        cause: error.description, hint: .useCPUBackend)
    }
    guard eglMakeCurrent(connection.display, cegl_no_surface(), cegl_no_surface(), context) == EGL_TRUE else {
      let error = eglErrorName()
      eglDestroyContext(connection.display, context)
      throw GlassError(.gpuUnavailable, "the OpenGL ES context cannot be made current", cause: error)
    }
    self.context = context
    glGenVertexArrays(1, &vertexArray)
    glBindVertexArray(vertexArray)
    for (sampler, filter) in [(\GLESState.linearSampler, GL_LINEAR), (\GLESState.nearestSampler, GL_NEAREST)] {
      var name: GLuint = 0
      glGenSamplers(1, &name)
      glSamplerParameteri(name, glEnum(GL_TEXTURE_MIN_FILTER), filter)
      glSamplerParameteri(name, glEnum(GL_TEXTURE_MAG_FILTER), filter)
      glSamplerParameteri(name, glEnum(GL_TEXTURE_WRAP_S), GL_MIRRORED_REPEAT)
      glSamplerParameteri(name, glEnum(GL_TEXTURE_WRAP_T), GL_MIRRORED_REPEAT)
      self[keyPath: sampler] = name
    }
    glDisable(glEnum(GL_DITHER))
    glDisable(glEnum(GL_BLEND))
    glEnable(glEnum(GL_SCISSOR_TEST))
    glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 1)
    glPixelStorei(glEnum(GL_UNPACK_ALIGNMENT), 1)
    do {
      try checkGLError("setting up the context")
      try checkRenderable()
    } catch {
      // Nothing outlives a failed start: the objects and the context go here, on
      // the GL thread; the caller ends its use of the display.
      destroyContext()
      throw error
    }
  }

  /// Every intermediate is RGBA16F, which OpenGL ES 3.2 can render to and 3.0 and
  /// 3.1 only with EXT_color_buffer_(half_)float: find out now, so that `auto`
  /// falls back to the CPU rather than failing mid-render.
  private func checkRenderable() throws {
    for format in [ImageFormat.linearHalf, .srgb8, .srgb16] {
      let descriptor = ImageDescriptor(size: PixelSize(width: 1, height: 1), format: format)
      let texture = try makeTexture(descriptor)
      defer { delete(texture) }
      do {
        try bindTarget(texture)
      } catch let error as GlassError {
        throw GlassError(
          .gpuUnavailable,
          "this OpenGL ES \(contextVersion) driver cannot render to \(format) textures; render on the CPU backend",
          cause: error.cause, hint: .useCPUBackend)
      }
    }
    glBindFramebuffer(glEnum(GL_FRAMEBUFFER), 0)
  }

  func info() -> GPUInfo {
    var maxSize: GLint = 0
    glGetIntegerv(glEnum(GL_MAX_TEXTURE_SIZE), &maxSize)
    let glExtensions = Set(glString(GL_EXTENSIONS).split(separator: " ").map(String.init))
    var extensions: [String: Bool] = [:]
    let client = EGLDisplayConnection.clientExtensions
    for name in ["EGL_EXT_platform_device", "EGL_MESA_platform_surfaceless", "EGL_KHR_platform_gbm"] {
      extensions[name] = client.contains(name)
    }
    for name in ["EGL_KHR_surfaceless_context", "EGL_KHR_create_context", "EGL_KHR_no_config_context"] {
      extensions[name] = connection.extensions.contains(name)
    }
    for name in [
      "GL_EXT_color_buffer_float", "GL_EXT_color_buffer_half_float", "GL_OES_texture_float_linear",
      "GL_EXT_texture_norm16", "GL_KHR_debug", "GL_EXT_disjoint_timer_query",
    ] {
      extensions[name] = glExtensions.contains(name)
    }
    return GPUInfo(
      platform: connection.platform.rawValue, attempts: connection.attempts,
      eglVendor: connection.string(EGL_VENDOR), eglVersion: connection.string(EGL_VERSION),
      contextVersion: contextVersion, glRenderer: glString(GL_RENDERER), glVersion: glString(GL_VERSION),
      glslVersion: glString(GL_SHADING_LANGUAGE_VERSION), maxTextureSize: Int(maxSize), extensions: extensions)
  }

  func counts() -> GLObjectCounts {
    GLObjectCounts(
      textures: liveTextures, framebuffers: liveFramebuffers, buffers: liveBuffers, programs: programs.count,
      poolInUse: pool.inUse, poolIdle: pool.idleCount, keptSources: kept.count)
  }

  // MARK: Images

  func acquire(_ descriptor: ImageDescriptor) throws -> GLTexture {
    try pool.acquire(descriptor) { try makeTexture(descriptor) }
  }

  private func makeTexture(_ descriptor: ImageDescriptor) throws -> GLTexture {
    let format = GLFormat(descriptor.format)
    var name: GLuint = 0
    glGenTextures(1, &name)
    glBindTexture(glEnum(GL_TEXTURE_2D), name)
    glTexStorage2D(
      glEnum(GL_TEXTURE_2D), 1, format.internalFormat, GLsizei(descriptor.size.width),
      GLsizei(descriptor.size.height))
    // Filtering and wrapping come from the sampler objects bound with each pass.
    if poisonsNewTextures && descriptor.format == .linearHalf {
      let nan = [UInt16](repeating: 0x7E00, count: 4 * descriptor.size.pixelCount)
      glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), 0)
      nan.withUnsafeBufferPointer { values in
        glTexSubImage2D(
          glEnum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(descriptor.size.width), GLsizei(descriptor.size.height),
          format.format, format.type, values.baseAddress)
      }
    }
    liveTextures += 1
    let texture = GLTexture(name: name, descriptor: descriptor)
    do {
      try checkGLError("allocating a \(descriptor) texture")
    } catch {
      delete(texture)
      throw error
    }
    return texture
  }

  private func delete(_ texture: GLTexture) {
    if texture.framebuffer != 0 {
      glDeleteFramebuffers(1, &texture.framebuffer)
      liveFramebuffers -= 1
    }
    var name = texture.name
    glDeleteTextures(1, &name)
    liveTextures -= 1
  }

  func trim(toBytes maxIdleBytes: Int) {
    for texture in pool.trim(toBytes: maxIdleBytes) { delete(texture) }
    if maxIdleBytes == 0 {
      for buffer in idleBuffers { deleteBuffer(buffer) }
      idleBuffers.removeAll()
    }
  }

  /// After each render: textures of sizes recent renders did not use are
  /// deleted, then the idle ones beyond `maxIdleBytes`.
  func endRender() {
    for texture in pool.endRender() { delete(texture) }
    trim(toBytes: Self.maxIdleBytes)
  }

  /// Deletes every kept source texture.
  func forgetKeptSources() {
    for entry in kept.removeAll() { delete(entry.texture) }
    keptNames.removeAll()
  }

  func isKept(_ texture: GLTexture) -> Bool { keptNames.contains(texture.name) }

  /// A source's texture: the kept one when this image was uploaded before (its
  /// rects not uploaded yet are added), else a new upload, kept when it fits: room
  /// is made from the least recently used sources of earlier renders (never one
  /// this render uses: those are the most recently used).
  func uploadKept(_ source: RenderGraph.SourceImport, as descriptor: ImageDescriptor) throws -> GLTexture {
    let identity = SourceIdentity(storage: source.image.storageAddress, descriptor: descriptor)
    if var entry = kept.value(forKey: identity) {
      let missing = source.rects.filter { rect in !entry.rects.contains { $0.contains(rect) } }
      if !missing.isEmpty {
        try upload(RenderGraph.SourceImport(image: source.image, rects: missing), into: entry.texture)
        entry.rects += missing
      }
      entry.lastRender = renderCount
      kept.insert(entry, forKey: identity, bytes: entry.bytes)
      return entry.texture
    }
    // Charged the texture and the image it holds (by which it is known).
    let bytes = descriptor.byteCount + source.image.size.pixelCount * 4 * source.image.depth.rawValue / 8
    guard bytes <= kept.budgetBytes / 4 else {
      let texture = try acquire(descriptor)
      try upload(source, into: texture)
      return texture
    }
    let texture = try makeTexture(descriptor)
    do {
      try upload(source, into: texture)
    } catch {
      delete(texture)
      throw error
    }
    let current = renderCount
    let (stored, evicted) = kept.insert(
      KeptSource(image: source.image, texture: texture, rects: source.rects, bytes: bytes, lastRender: current),
      forKey: identity, bytes: bytes, canEvict: { $0.lastRender != current })
    for entry in evicted {
      delete(entry.texture)
      keptNames.remove(entry.texture.name)
    }
    guard stored else {
      // Every kept source is in use by this render: this one goes back to the pool.
      pool.adopt(texture, descriptor)
      return texture
    }
    keptNames.insert(texture.name)
    return texture
  }

  private func bindTarget(_ texture: GLTexture) throws {
    if texture.framebuffer == 0 {
      glGenFramebuffers(1, &texture.framebuffer)
      liveFramebuffers += 1
      glBindFramebuffer(glEnum(GL_FRAMEBUFFER), texture.framebuffer)
      glFramebufferTexture2D(
        glEnum(GL_FRAMEBUFFER), glEnum(GL_COLOR_ATTACHMENT0), glEnum(GL_TEXTURE_2D), texture.name, 0)
      let status = glCheckFramebufferStatus(glEnum(GL_FRAMEBUFFER))
      guard status == glEnum(GL_FRAMEBUFFER_COMPLETE) else {
        throw GlassError(
          .renderFailure, "the GL driver cannot render to a \(texture.descriptor) texture",
          cause: "framebuffer status 0x" + String(status, radix: 16))
      }
    } else {
      glBindFramebuffer(glEnum(GL_FRAMEBUFFER), texture.framebuffer)
    }
  }

  // MARK: Upload and readback

  /// Converts and uploads `source`'s rects into `texture`.
  func upload(_ source: RenderGraph.SourceImport, into texture: GLTexture) throws {
    let descriptor = texture.descriptor
    let format = GLFormat(descriptor.format)
    glBindTexture(glEnum(GL_TEXTURE_2D), texture.name)
    let image = source.image
    for rect in source.rects where !rect.isEmpty {
      switch image.samples {
      case _ where descriptor.format == .linearHalf:
        let count = 4 * rect.pixelCount
        if staging.count < count { staging = [UInt16](repeating: 0, count: count) }
        staging.withUnsafeMutableBufferPointer { buffer in
          guard let base = buffer.baseAddress else { return }
          PremultipliedLinear.convert(image, rect: rect, into: base)
          glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), 0)
          glTexSubImage2D(
            glEnum(GL_TEXTURE_2D), 0, GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height),
            format.format, format.type, base)
        }
      case .eight(let values):
        uploadRaw(values, rect: rect, imageWidth: image.width, format: format)
      case .sixteen(let values):
        uploadRaw(values, rect: rect, imageWidth: image.width, format: format)
      }
    }
    glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), 0)
    try checkGLError("uploading a \(descriptor) source")
  }

  private func uploadRaw<T>(_ values: [T], rect: PixelRect, imageWidth: Int, format: GLFormat) {
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), GLint(imageWidth))
      glTexSubImage2D(
        glEnum(GL_TEXTURE_2D), 0, GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height),
        format.format, format.type, base + 4 * (rect.y * imageWidth + rect.x))
    }
  }

  /// Starts reading `rects` of `texture` into a pixel pack buffer, rect after
  /// rect, and sets a fence behind the reads: the GPU copies when the passes are
  /// done, and the GL thread is free to submit the next render meanwhile.
  func startReadback(_ texture: GLTexture, rects: [PixelRect], depth: RGBAImage.Depth) throws -> GLReadback {
    try bindTarget(texture)
    let rects = rects.filter { !$0.isEmpty }
    // RGBA_INTEGER / UNSIGNED_INT is the read format every ES 3 driver takes for RGBA16UI.
    let pixelBytes = depth == .eight ? 4 : 16
    let bytes = max(1, rects.reduce(0) { $0 + $1.pixelCount * pixelBytes })
    let buffer = packBuffer(bytes: bytes)
    glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), buffer.name)
    defer { glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), 0) }
    var offset = 0
    for rect in rects {
      glReadPixels(
        GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height),
        glEnum(depth == .eight ? GL_RGBA : GL_RGBA_INTEGER),
        glEnum(depth == .eight ? GL_UNSIGNED_BYTE : GL_UNSIGNED_INT),
        UnsafeMutableRawPointer(bitPattern: offset))
      offset += rect.pixelCount * pixelBytes
    }
    let readback = GLReadback(buffer: buffer, bytes: bytes, rects: rects, depth: depth)
    readback.fence = glFenceSync(glEnum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
    glFlush()
    do {
      try checkGLError("starting the readback")
    } catch {
      abandon(readback)
      throw error
    }
    return readback
  }

  /// `rect` of `texture` read now, as `PassOutput.pixels` holds it (tests only):
  /// binary16 values as Float, or codes. Waits for the passes that write it.
  func pixels(of texture: GLTexture, rect: PixelRect) throws -> [SIMD4<Float>] {
    try bindTarget(texture)
    let count = rect.pixelCount
    var pixels: [SIMD4<Float>]
    switch texture.descriptor.format {
    case .linearHalf:
      pixels = [SIMD4<Float>](repeating: .zero, count: count)
      pixels.withUnsafeMutableBytes { buffer in
        glReadPixels(
          GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height), glEnum(GL_RGBA),
          glEnum(GL_FLOAT), buffer.baseAddress)
      }
    case .srgb8:
      var codes = [UInt8](repeating: 0, count: 4 * count)
      codes.withUnsafeMutableBytes { buffer in
        glReadPixels(
          GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height), glEnum(GL_RGBA),
          glEnum(GL_UNSIGNED_BYTE), buffer.baseAddress)
      }
      pixels = Self.widened(codes)
    case .srgb16:
      var codes = [UInt32](repeating: 0, count: 4 * count)
      codes.withUnsafeMutableBytes { buffer in
        glReadPixels(
          GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height), glEnum(GL_RGBA_INTEGER),
          glEnum(GL_UNSIGNED_INT), buffer.baseAddress)
      }
      pixels = Self.widened(codes)
    }
    try checkGLError("reading back a \(texture.descriptor) image")
    return pixels
  }

  /// Sets every pixel of `texture` to zero (tests only), by an upload as the
  /// NaN of `poisonsNewTextures` is (after a glClear, softpipe's later passes read
  /// wrong texels).
  func clear(_ texture: GLTexture) throws {
    let descriptor = texture.descriptor
    let format = GLFormat(descriptor.format)
    let bytesPerPixel = descriptor.format == .srgb8 ? 4 : 8
    let zeros = [UInt8](repeating: 0, count: bytesPerPixel * descriptor.size.pixelCount)
    glBindTexture(glEnum(GL_TEXTURE_2D), texture.name)
    glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), 0)
    zeros.withUnsafeBufferPointer { values in
      glTexSubImage2D(
        glEnum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(descriptor.size.width), GLsizei(descriptor.size.height),
        format.format, format.type, values.baseAddress)
    }
    try checkGLError("clearing a \(descriptor) image")
  }

  /// Codes, four a pixel, as Float.
  private static func widened<T: BinaryInteger>(_ codes: [T]) -> [SIMD4<Float>] {
    stride(from: 0, to: codes.count, by: 4).map { i -> SIMD4<Float> in
      SIMD4<Float>(Float(codes[i]), Float(codes[i + 1]), Float(codes[i + 2]), Float(codes[i + 3]))
    }
  }

  /// Waits for a readback's fence, then copies its rects out of the mapped
  /// buffer into `target`; returns the milliseconds spent waiting.
  func finishReadback(_ readback: GLReadback, into target: inout RGBAImage) throws -> ReadbackTimes {
    defer { abandon(readback) }
    let start = milliseconds()
    if let fence = readback.fence {
      var status = GLenum(GL_TIMEOUT_EXPIRED)
      // A second at a time, for at most a minute: a hung driver fails the render.
      for _ in 0..<60 where status == GLenum(GL_TIMEOUT_EXPIRED) {
        status = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 1_000_000_000)
      }
      guard status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) else {
        throw GlassError(
          .renderFailure, "the GPU did not finish the render",
          cause: status == GLenum(GL_TIMEOUT_EXPIRED) ? "no answer in 60 s" : glErrorName(glGetError()))
      }
    }
    let waited = milliseconds() - start
    let copyStart = threadCPUMilliseconds()
    glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), readback.buffer.name)
    defer { glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), 0) }
    guard
      let mapped = glMapBufferRange(
        glEnum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(readback.bytes), GLbitfield(GL_MAP_READ_BIT))
    else {
      throw GlassError(.renderFailure, "the result cannot be read back", cause: glErrorName(glGetError()))
    }
    defer { glUnmapBuffer(glEnum(GL_PIXEL_PACK_BUFFER)) }
    let width = target.width
    var offset = 0
    switch target.samples {
    case .eight(var values):
      target.samples = .eight([])
      values.withUnsafeMutableBytes { destination in
        guard let base = destination.baseAddress else { return }
        for rect in readback.rects {
          let rowBytes = 4 * rect.width
          for row in 0..<rect.height {
            let d = 4 * ((rect.y + row) * width + rect.x)
            (base + d).copyMemory(from: mapped + offset + row * rowBytes, byteCount: rowBytes)
          }
          offset += rowBytes * rect.height
        }
      }
      target.samples = .eight(values)
    case .sixteen(var values):
      target.samples = .eight([])
      // Narrowed through raw pointers: element by element through the array
      // (bounds and uniqueness checks) cost several times the copy itself.
      values.withUnsafeMutableBufferPointer { destination in
        guard let base = destination.baseAddress else { return }
        for rect in readback.rects {
          let wide = (mapped + offset).assumingMemoryBound(to: UInt32.self)
          for row in 0..<rect.height {
            let d = base + 4 * ((rect.y + row) * width + rect.x)
            let s = wide + 4 * row * rect.width
            for i in 0..<(4 * rect.width) { d[i] = UInt16(truncatingIfNeeded: s[i]) }
          }
          offset += 16 * rect.pixelCount
        }
      }
      target.samples = .sixteen(values)
    }
    try checkGLError("reading back the result")
    return ReadbackTimes(waited: waited, copyCPU: threadCPUMilliseconds() - copyStart)
  }

  /// Deletes a readback's fence and returns its buffer (for the next readback);
  /// safe to call more than once.
  func abandon(_ readback: GLReadback) {
    if let fence = readback.fence { glDeleteSync(fence) }
    readback.fence = nil
    guard !readback.released else { return }
    readback.released = true
    idleBuffers.append(readback.buffer)
    // Two renders are in flight at most: more idle buffers are not kept.
    while idleBuffers.count > 2 { deleteBuffer(idleBuffers.removeFirst()) }
  }

  /// An idle pack buffer of at least `bytes`, or one made (or grown) for them.
  private func packBuffer(bytes: Int) -> GLPackBuffer {
    if let index = idleBuffers.firstIndex(where: { $0.capacity >= bytes }) {
      return idleBuffers.remove(at: index)
    }
    var name: GLuint = 0
    if let reused = idleBuffers.popLast() {
      name = reused.name
    } else {
      glGenBuffers(1, &name)
      liveBuffers += 1
    }
    glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), name)
    glBufferData(glEnum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(bytes), nil, glEnum(GL_STREAM_READ))
    glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), 0)
    return GLPackBuffer(name: name, capacity: bytes)
  }

  private func deleteBuffer(_ buffer: GLPackBuffer) {
    var name = buffer.name
    glDeleteBuffers(1, &name)
    liveBuffers -= 1
  }

  // MARK: Passes

  private func program(_ key: ProgramKey) throws -> GLProgram {
    if let program = programs[key] { return program }
    let program = try GLProgram(key: key)
    programs[key] = program
    return program
  }

  func run(_ pass: RenderGraph.Pass, inputs: [GLTexture], output: GLTexture) throws {
    precondition(
      inputs.count <= 1 || (pass.primitive.name == "glass" && inputs.count <= GlassComposite.maximumSources),
      "only glass reads several images")
    precondition(!pass.blend || output.descriptor.format == .linearHalf, "a pass composites over a linear image")
    let input = inputs.first
    let outputDefine: String =
      switch output.descriptor.format {
      case .linearHalf: "OUTPUT_LINEAR_HALF"
      case .srgb8: "OUTPUT_SRGB8"
      case .srgb16: "OUTPUT_SRGB16"
      }
    // A pass that composites over its target does it in the shader, from a copy of
    // what the target holds in the pass's rect, and rounds the sum once, as the CPU
    // does (common.glsl BLEND_OVER): GL blending rounds its sum as the driver rounds
    // its stores (llvmpipe: toward zero), up to a binary16 step a pass.
    let blendCopy = pass.blend ? try copyForBlending(output, rect: pass.rect) : nil
    defer { if let blendCopy { pool.recycle(blendCopy, blendCopy.descriptor) } }
    let blendDefines = pass.blend ? ["BLEND_OVER"] : []
    let destination = blendCopy.map { _ in inputs.count }
    func programKey(_ primitive: Primitive, _ addressing: SourceAddressing) -> ProgramKey {
      let key = self.key(primitive, addressing, outputDefine)
      return ProgramKey(primitive: key.primitive, defines: key.defines + blendDefines)
    }
    let program: GLProgram
    switch pass.primitive {
    case .mirrorExtend(let parameters):
      precondition(!pass.blend, "the mirror extension replaces its target")
      let integer = input?.descriptor.format == .srgb16
      var defines = ["SOURCE_CANVAS", "RAW_OUTPUT"]
      if integer { defines.append("SOURCE_UINT") }
      if output.descriptor.format == .srgb16 { defines.append("RAW_OUTPUT_SRGB16") }
      program = try self.program(ProgramKey(primitive: pass.primitive.name, defines: defines))
      glUseProgram(program.name)
      try program.apply(MirrorExtendUniforms(parameters: parameters, integerSource: integer))
    case .downsample(let parameters):
      var key = programKey(pass.primitive, parameters.addressing)
      if case .canvas(let canvas) = parameters.addressing, Self.tapsInsideCanvas(pass.rect, parameters.map, canvas) {
        key = ProgramKey(primitive: key.primitive, defines: ["CANVAS_INSIDE"] + key.defines)
      }
      program = try self.program(key)
      glUseProgram(program.name)
      try program.apply(
        BlendOverUniforms(primitive: DownsampleUniforms(parameters: parameters), destination: destination))
    case .convolve(let parameters):
      program = try self.program(programKey(pass.primitive, parameters.addressing))
      glUseProgram(program.name)
      try program.apply(
        BlendOverUniforms(primitive: ConvolveUniforms(parameters: parameters), destination: destination))
    case .upsample(let parameters):
      program = try self.program(programKey(pass.primitive, .image))
      glUseProgram(program.name)
      try program.apply(
        BlendOverUniforms(primitive: UpsampleUniforms(parameters: parameters), destination: destination))
    case .fill(let parameters):
      let full = parameters.shape.coversFully(pass.rect)
      var defines = [full ? "FULL_COVERAGE" : "SHAPE", outputDefine]
      if parameters.mask != nil { defines.append("MASK") }
      program = try self.program(ProgramKey(primitive: pass.primitive.name, defines: defines + blendDefines))
      glUseProgram(program.name)
      try program.apply(
        BlendOverUniforms(
          primitive: FillUniforms(parameters: parameters, fullCoverage: full), destination: destination))
    case .drawImage(let parameters):
      let full = parameters.clip.coversFully(pass.rect)
      program = try self.program(
        ProgramKey(
          primitive: pass.primitive.name, defines: [full ? "FULL_COVERAGE" : "SHAPE", outputDefine] + blendDefines))
      glUseProgram(program.name)
      try program.apply(
        BlendOverUniforms(
          primitive: DrawImageUniforms(parameters: parameters, fullCoverage: full), destination: destination))
    case .glass(let parameters):
      let shadowOnly = parameters.showsShadowOnly(in: pass.rect)
      var defines = [GlassUniforms.define(parameters), outputDefine]
      if shadowOnly { defines.append("SHADOW_ONLY") }
      program = try self.program(ProgramKey(primitive: pass.primitive.name, defines: defines + blendDefines))
      glUseProgram(program.name)
      try program.apply(
        BlendOverUniforms(
          primitive: GlassUniforms(parameters: parameters, inputs: inputs.count, shadowOnly: shadowOnly),
          destination: destination))
    case .copy(let parameters):
      var defines = [outputDefine]
      if let input,
        PixelRect(size: input.descriptor.size).contains(pass.rect.offsetBy(parameters.offset.x, parameters.offset.y))
      {
        defines.append("COPY_INSIDE")
      }
      program = try self.program(ProgramKey(primitive: pass.primitive.name, defines: defines + blendDefines))
      glUseProgram(program.name)
      try program.apply(BlendOverUniforms(primitive: CopyUniforms(parameters: parameters), destination: destination))
    }
    try bindTarget(output)
    let size = output.descriptor.size
    glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
    glScissor(GLint(pass.rect.x), GLint(pass.rect.y), GLsizei(pass.rect.width), GLsizei(pass.rect.height))
    for (unit, input) in inputs.enumerated() {
      glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(unit))
      glBindTexture(glEnum(GL_TEXTURE_2D), input.name)
      // Integer textures cannot be filtered; convolution taps are whole pixels, and
      // the scene primitives read texels.
      let nearest: Bool
      switch pass.primitive {
      case .convolve, .mirrorExtend, .fill, .drawImage, .glass, .copy: nearest = true
      case .downsample, .upsample: nearest = GLFormat(input.descriptor.format).isInteger
      }
      glBindSampler(GLuint(unit), nearest ? nearestSampler : linearSampler)
    }
    if let blendCopy {
      glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(inputs.count))
      glBindTexture(glEnum(GL_TEXTURE_2D), blendCopy.name)
      glBindSampler(GLuint(inputs.count), nearestSampler)
    }
    if inputs.count > 1 || blendCopy != nil { glActiveTexture(glEnum(GL_TEXTURE0)) }
    glDrawArrays(glEnum(GL_TRIANGLES), 0, 3)
    try checkGLError("running \(pass.name) (\(program.key))")
  }

  /// An image of `target`'s size holding a copy of `rect` of `target`, where the
  /// target has it: what a pass that composites over `target` reads as what lies
  /// below it (BLEND_OVER). From the pool: every blended pass into one target
  /// reuses the same image.
  private func copyForBlending(_ target: GLTexture, rect: PixelRect) throws -> GLTexture {
    let copy = try acquire(target.descriptor)
    do {
      try bindTarget(target)
      try bindTarget(copy)
      glBindFramebuffer(glEnum(GL_READ_FRAMEBUFFER), target.framebuffer)
      // A blit is clipped by the scissor box.
      glDisable(glEnum(GL_SCISSOR_TEST))
      glBlitFramebuffer(
        GLint(rect.x), GLint(rect.y), GLint(rect.maxX), GLint(rect.maxY), GLint(rect.x), GLint(rect.y),
        GLint(rect.maxX), GLint(rect.maxY), GLbitfield(GL_COLOR_BUFFER_BIT), glEnum(GL_NEAREST))
      glEnable(glEnum(GL_SCISSOR_TEST))
      try checkGLError("copying \(rect) of a \(target.descriptor) image to composite over it")
    } catch {
      pool.recycle(copy, copy.descriptor)
      throw error
    }
    return copy
  }

  /// True when every downsample tap of `rect` lands within half a pixel of the
  /// canvas, where clamping alone mirrors the canvas edge exactly.
  static func tapsInsideCanvas(_ rect: PixelRect, _ map: PixelMap, _ canvas: MirrorCanvas) -> Bool {
    let x0 = (Double(rect.x) + 0.5) * map.scale + map.offsetX - 0.75
    let x1 = (Double(rect.maxX) - 0.5) * map.scale + map.offsetX + 0.75
    let y0 = (Double(rect.y) + 0.5) * map.scale + map.offsetY - 0.75
    let y1 = (Double(rect.maxY) - 0.5) * map.scale + map.offsetY + 0.75
    return x0 >= -0.5 && y0 >= -0.5 && x1 <= Double(canvas.canvasSize.width) + 0.5
      && y1 <= Double(canvas.canvasSize.height) + 0.5
  }

  private func key(_ primitive: Primitive, _ addressing: SourceAddressing, _ output: String) -> ProgramKey {
    var defines: [String] = []
    if case .canvas = addressing { defines.append("SOURCE_CANVAS") }
    defines.append(output)
    return ProgramKey(primitive: primitive.name, defines: defines)
  }

  /// Deletes every GL object and the context, and lets go of the display.
  func teardown() {
    guard !isTornDown else { return }
    destroyContext()
    EGLDisplayConnection.release(connection)
  }

  /// Deletes every GL object and the context.
  private func destroyContext() {
    guard !isTornDown else { return }
    isTornDown = true
    forgetKeptSources()
    trim(toBytes: 0)
    for program in programs.values { program.delete() }
    programs.removeAll()
    glDeleteVertexArrays(1, &vertexArray)
    glDeleteSamplers(1, &linearSampler)
    glDeleteSamplers(1, &nearestSampler)
    eglMakeCurrent(connection.display, cegl_no_surface(), cegl_no_surface(), cegl_no_context())
    eglDestroyContext(connection.display, context)
    eglReleaseThread()
  }

}

/// Open GLES backends, closed at process exit before the EGL and GL libraries'
/// own destructors run: a context still current on the GL thread at that point
/// can crash glvnd's teardown.
enum LiveBackends {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var backends: [WeakBackend] = []
  nonisolated(unsafe) private static var registered = false

  private struct WeakBackend {
    weak var backend: GLESBackend?
  }

  static func add(_ backend: GLESBackend) {
    lock.lock()
    defer { lock.unlock() }
    backends.removeAll { $0.backend == nil }
    backends.append(WeakBackend(backend: backend))
    if !registered {
      registered = true
      atexit { LiveBackends.closeAll() }
    }
  }

  /// Renderers being started on other threads (`Renderer.start`).
  static let starting = DispatchGroup()

  static func closeAll() {
    _ = starting.wait(timeout: .now() + 30)
    lock.lock()
    let open = backends.compactMap(\.backend)
    backends.removeAll()
    lock.unlock()
    for backend in open { backend.close() }
  }
}
