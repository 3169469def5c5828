import Foundation

/// The CPU reference backend: the same primitives and the same storage formats
/// as the GLES backend, in Swift, on every core.
public final class CPUBackend: @unchecked Sendable {
  private var pool = ImagePool<CPUImage>()
  /// Renders through one backend take turns (the pool is not shared safely).
  private let lock = NSLock()
  /// Worker threads a render splits its rows across; nil for one a core (at most 8).
  public let threads: Int?
  /// Linear sources kept from one render to the next, as the GPU backend keeps
  /// source textures: an image a later render imports again (the same pixel
  /// storage, as a batch's image cache hands out) is not converted again. The
  /// conversion (sRGB to premultiplied binary16 linear, widened to Float) was a
  /// quarter of a warm Landmarks render. An entry holds its image, so the storage
  /// it is known by cannot be freed and reused by another image while it is kept.
  /// A source is kept on probation until a later render imports it again
  /// (`CacheAdmission.sources`): a batch whose every job has an image of its own
  /// cycles through the probation's quarter of the budget and no more.
  private let kept: LRUCache<SourceIdentity, KeptSource>

  /// An image's pixel storage and the descriptor it is converted to.
  struct SourceIdentity: Hashable {
    var storage: UInt
    var descriptor: ImageDescriptor
  }

  struct KeptSource {
    var image: RGBAImage
    var linear: CPUImage
  }

  /// A CPU backend on `threads` worker threads (nil: one a core, at most 8) that
  /// keeps at most `keptSourceBytes` of converted sources for later renders. The
  /// output is the same, byte for byte, whatever the count: rows are split into
  /// bands and every pixel is computed from its inputs alone.
  public init(threads: Int? = nil, keptSourceBytes: Int = CacheBudgets().textureBytes) {
    precondition(threads.map { $0 >= 1 } ?? true, "a CPU backend needs at least one thread")
    self.threads = threads
    kept = LRUCache("textures", budgetBytes: keptSourceBytes, admission: .sources(budgetBytes: keptSourceBytes))
  }

  /// A reader of the kept sources' stats (`RenderCaches.stats`, as "textures").
  var keptSourceStats: @Sendable () -> CacheStats {
    let kept = kept
    return { kept.stats }
  }

  /// Images handed out by the pool and not yet returned (0 between renders).
  public var poolInUse: Int {
    lock.lock()
    defer { lock.unlock() }
    return pool.inUse
  }
}

/// An image of the CPU backend.
final class CPUImage {
  let descriptor: ImageDescriptor
  /// Premultiplied linear pixels (`linearHalf`).
  var linear: [SIMD4<Float>] = []
  /// Encoded pixels (`srgb8`, `srgb16`).
  var encoded: RGBAImage
  /// A source not yet converted; converted at first read, inside the render phase.
  var pending: RenderGraph.SourceImport?
  /// The rectangles of a source converted so far (a kept source's, for later renders).
  var converted: [PixelRect] = []
  /// The output wraps the caller's buffer; it and encoded sources are not pooled.
  var isPooled = true

  /// An image that wraps `encoded` pixels it does not own: the output, a raw source.
  init(wrapping encoded: RGBAImage, descriptor: ImageDescriptor) {
    self.descriptor = descriptor
    self.encoded = encoded
    self.isPooled = false
  }

  init(_ descriptor: ImageDescriptor, allocate: Bool = true) {
    self.descriptor = descriptor
    switch descriptor.format {
    case .linearHalf:
      if allocate { linear = [SIMD4<Float>](repeating: .zero, count: descriptor.size.pixelCount) }
      encoded = RGBAImage(size: PixelSize(width: 0, height: 0), depth: .eight)
    case .srgb8:
      encoded = RGBAImage(size: descriptor.size, depth: .eight)
    case .srgb16:
      encoded = RGBAImage(size: descriptor.size, depth: .sixteen)
    }
  }

  /// Converts a pending source: binary16 premultiplied linear, widened to Float.
  /// Only the source's rectangles are converted; the rest of the storage is never
  /// read, so it is left uninitialised.
  func materialize() {
    guard let source = pending else { return }
    pending = nil
    converted += source.rects
    encoded = RGBAImage(size: PixelSize(width: 0, height: 0), depth: .eight)
    let count = descriptor.size.pixelCount
    if linear.count != count {
      linear = [SIMD4<Float>](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
    let width = descriptor.size.width
    linear.withUnsafeMutableBufferPointer { buffer in
      let base = UncheckedSendable(buffer.baseAddress.unsafelyUnwrapped)
      for rect in source.rects where !rect.isEmpty {
        CPUKernels.parallelRows(0..<rect.height, cost: rect.pixelCount) { rows in
          var bits = [UInt16](repeating: 0, count: 4 * rect.width)
          for row in rows {
            bits.withUnsafeMutableBufferPointer { b in
              let line = PixelRect(x: rect.x, y: rect.y + row, width: rect.width, height: 1)
              PremultipliedLinear.convert(source.image, rect: line, into: b.baseAddress.unsafelyUnwrapped)
            }
            let out = base.value + (rect.y + row) * width + rect.x
            for column in 0..<rect.width {
              let s = 4 * column
              out[column] = SIMD4(
                Half.float(bits: bits[s]), Half.float(bits: bits[s + 1]), Half.float(bits: bits[s + 2]),
                Half.float(bits: bits[s + 3]))
            }
          }
        }
      }
    }
  }
}

extension CPUBackend: RenderBackend {
  typealias Image = CPUImage

  var hasTransfers: Bool { false }

  func perform<T>(_ body: () throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try CPUKernels.$threads.withValue(threads ?? CPUKernels.threads) { try body() }
  }

  func beginFrame() {}

  func endFrame() { _ = pool.endRender() }

  func upload(_ source: RenderGraph.SourceImport, as descriptor: ImageDescriptor) throws -> CPUImage {
    // Nothing is converted here: the CPU backend has no upload. A linear source
    // is converted at its first read, inside the render phase: the rects a kept
    // source has not converted yet, or all of a new one, into storage kept for
    // later renders when it fits the probation (a quarter of the budget), else
    // pooled storage (a new 30 MB buffer costs more in page faults than the
    // conversion itself).
    guard descriptor.format == .linearHalf else { return CPUImage(wrapping: source.image, descriptor: descriptor) }
    guard source.image.size.pixelCount > 0 else {
      let image = pool.acquire(descriptor) { CPUImage(descriptor, allocate: false) }
      image.pending = source
      return image
    }
    let identity = SourceIdentity(storage: source.image.storageAddress, descriptor: descriptor)
    if let entry = kept.value(forKey: identity) {
      let image = entry.linear
      let known = image.converted + (image.pending?.rects ?? [])
      let missing = source.rects.filter { rect in !rect.isEmpty && !known.contains { $0.contains(rect) } }
      if !missing.isEmpty {
        image.pending = RenderGraph.SourceImport(image: source.image, rects: (image.pending?.rects ?? []) + missing)
      }
      return image
    }
    // Charged the linear pixels and the image it holds (by which it is known).
    let bytes =
      descriptor.size.pixelCount * MemoryLayout<SIMD4<Float>>.stride
      + source.image.size.pixelCount * 4 * source.image.depth.rawValue / 8
    guard bytes + LRUCache<SourceIdentity, KeptSource>.entryOverhead <= kept.firstUseBytes else {
      let image = pool.acquire(descriptor) { CPUImage(descriptor, allocate: false) }
      image.pending = source
      return image
    }
    let image = CPUImage(descriptor, allocate: false)
    image.isPooled = false
    image.pending = source
    kept.insert(KeptSource(image: source.image, linear: image), forKey: identity, bytes: bytes)
    return image
  }

  func makeOutput(_ descriptor: ImageDescriptor, target: inout RGBAImage) throws -> CPUImage {
    let image = CPUImage(wrapping: target, descriptor: descriptor)
    target = RGBAImage(size: PixelSize(width: 0, height: 0), depth: target.depth)
    return image
  }

  func acquire(_ descriptor: ImageDescriptor) throws -> CPUImage {
    pool.acquire(descriptor) { CPUImage(descriptor) }
  }

  func recycle(_ image: CPUImage, _ descriptor: ImageDescriptor) {
    guard image.isPooled else { return }
    image.pending = nil
    image.converted = []
    pool.recycle(image, descriptor)
    _ = pool.trim(toBytes: 256 << 20)
  }

  func run(_ pass: RenderGraph.Pass, inputs: [CPUImage], output: CPUImage) throws {
    precondition(
      inputs.count <= 1 || (pass.primitive.name == "glass" && inputs.count <= GlassComposite.maximumSources),
      "only glass reads several images")
    for input in inputs { input.materialize() }
    try withTarget(output) { target in
      var target = target
      target.blend = pass.blend
      if case .fill(let p) = pass.primitive {
        if let mask = inputs.first {
          withSource(mask) { CPUKernels.fill(p, mask: $0, rect: pass.rect, target: target) }
        } else {
          CPUKernels.fill(p, mask: nil, rect: pass.rect, target: target)
        }
        return
      }
      let input = inputs[0]
      switch pass.primitive {
      case .fill: break
      case .copy(let p):
        withSource(input) { CPUKernels.copy(p, source: $0, rect: pass.rect, target: target) }
      case .drawImage(let p):
        withSource(input) { CPUKernels.drawImage(p, source: $0, rect: pass.rect, target: target) }
      case .glass(let p):
        withSources(inputs[...]) { CPUKernels.glass(p, sources: $0, rect: pass.rect, target: target) }
      case .mirrorExtend(let p):
        CPUKernels.mirrorExtend(p, source: input.encoded, rect: pass.rect, target: target)
      case .downsample(let p):
        withSource(input) { CPUKernels.downsample(p, source: $0, rect: pass.rect, target: target) }
      case .convolve(let p):
        withSource(input) { CPUKernels.convolve(p, source: $0, rect: pass.rect, target: target) }
      case .upsample(let p):
        withSource(input) { CPUKernels.upsample(p, source: $0, rect: pass.rect, target: target) }
      }
    }
  }

  private func withSource(_ image: CPUImage, _ body: (CPUKernels.Source) -> Void) {
    precondition(image.descriptor.format == .linearHalf, "filters read linear images")
    image.linear.withUnsafeBufferPointer { buffer in
      body(
        CPUKernels.Source(
          pixels: buffer.baseAddress.unsafelyUnwrapped, width: image.descriptor.size.width,
          height: image.descriptor.size.height))
    }
  }

  /// Every input as a source, for as long as `body` runs.
  private func withSources(_ images: ArraySlice<CPUImage>, _ body: ([CPUKernels.Source]) -> Void) {
    guard let first = images.first else { return body([]) }
    withSource(first) { source in
      withSources(images.dropFirst()) { rest in body([source] + rest) }
    }
  }

  private func withTarget(_ image: CPUImage, _ body: (CPUKernels.Target) throws -> Void) throws {
    let width = image.descriptor.size.width
    if image.descriptor.format == .linearHalf {
      try image.linear.withUnsafeMutableBufferPointer { buffer in
        try body(
          CPUKernels.Target(
            format: .linearHalf, width: width, linear: buffer.baseAddress, bytes: nil, words: nil))
      }
      return
    }
    switch image.encoded.samples {
    case .eight(var values):
      image.encoded.samples = .eight([])
      defer { image.encoded.samples = .eight(values) }
      try values.withUnsafeMutableBufferPointer { buffer in
        try body(
          CPUKernels.Target(
            format: image.descriptor.format, width: width, linear: nil, bytes: buffer.baseAddress, words: nil))
      }
    case .sixteen(var values):
      image.encoded.samples = .eight([])
      defer { image.encoded.samples = .sixteen(values) }
      try values.withUnsafeMutableBufferPointer { buffer in
        try body(
          CPUKernels.Target(
            format: .srgb16, width: width, linear: nil, bytes: nil, words: buffer.baseAddress))
      }
    }
  }

  func finish() throws {}

  /// The render is done when its passes return: the readback hands the output's
  /// storage back.
  func startReadback(_ image: CPUImage, rects: [PixelRect], target: inout RGBAImage) throws {
    target = image.encoded
    image.encoded = RGBAImage(size: PixelSize(width: 0, height: 0), depth: .eight)
  }

  func finishReadback(_ readback: Void, into target: inout RGBAImage) throws -> ReadbackTimes { ReadbackTimes() }

  func abandonReadback(_ readback: Void) {}
}
