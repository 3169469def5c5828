/// An RGBA image in memory: sRGB-encoded, straight (not premultiplied) alpha,
/// rows top to bottom, 8 or 16 bits per channel.
public struct RGBAImage: Sendable, Equatable {
  /// Bits per channel.
  public enum Depth: Int, Sendable, CaseIterable {
    /// 8 bits per channel.
    case eight = 8
    /// 16 bits per channel.
    case sixteen = 16
  }

  /// The channel values, four per pixel, row by row.
  public enum Samples: Sendable, Equatable {
    /// 8-bit channels.
    case eight([UInt8])
    /// 16-bit channels, native endianness.
    case sixteen([UInt16])
  }

  /// Size in pixels.
  public let size: PixelSize
  /// The channel values.
  public var samples: Samples

  /// An image from its channel values; `samples` holds `4 * width * height` values.
  public init(size: PixelSize, samples: Samples) {
    switch samples {
    case .eight(let values): precondition(values.count == 4 * size.pixelCount, "sample count")
    case .sixteen(let values): precondition(values.count == 4 * size.pixelCount, "sample count")
    }
    self.size = size
    self.samples = samples
  }

  /// A transparent black image.
  public init(size: PixelSize, depth: Depth) {
    let count = 4 * size.pixelCount
    switch depth {
    case .eight: self.init(size: size, samples: .eight([UInt8](repeating: 0, count: count)))
    case .sixteen: self.init(size: size, samples: .sixteen([UInt16](repeating: 0, count: count)))
    }
  }

  /// An 8-bit image whose pixels come from `pixel(x, y)`.
  public init(width: Int, height: Int, pixel: (Int, Int) -> SIMD4<UInt8>) {
    var values = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for x in 0..<width {
        let p = pixel(x, y)
        let i = 4 * (y * width + x)
        values[i] = p.x
        values[i + 1] = p.y
        values[i + 2] = p.z
        values[i + 3] = p.w
      }
    }
    self.init(size: PixelSize(width: width, height: height), samples: .eight(values))
  }

  /// Bits per channel.
  public var depth: Depth {
    switch samples {
    case .eight: .eight
    case .sixteen: .sixteen
    }
  }

  /// Width in pixels.
  public var width: Int { size.width }
  /// Height in pixels.
  public var height: Int { size.height }

  /// Channel values of pixel (x, y) scaled to 16 bits (8-bit values times 257).
  public func pixel16(x: Int, y: Int) -> SIMD4<UInt16> {
    let i = 4 * (y * width + x)
    switch samples {
    case .eight(let v):
      return SIMD4(UInt16(v[i]), UInt16(v[i + 1]), UInt16(v[i + 2]), UInt16(v[i + 3])) &* 257
    case .sixteen(let v):
      return SIMD4(v[i], v[i + 1], v[i + 2], v[i + 3])
    }
  }

  /// This image at another depth: 8 -> 16 multiplies by 257; 16 -> 8 rounds
  /// `(v * 255 + 32895) >> 16`, as libpng's `png_set_scale_16`.
  public func converted(to depth: Depth) -> RGBAImage {
    switch (samples, depth) {
    case (.eight, .eight), (.sixteen, .sixteen):
      return self
    case (.eight(let v), .sixteen):
      return RGBAImage(size: size, samples: .sixteen(v.map { UInt16($0) &* 257 }))
    case (.sixteen(let v), .eight):
      return RGBAImage(size: size, samples: .eight(v.map { Self.eightBit($0) }))
    }
  }

  /// 16-bit channel value -> 8-bit, `(v * 255 + 32895) >> 16`.
  @inlinable
  public static func eightBit(_ v: UInt16) -> UInt8 {
    UInt8(truncatingIfNeeded: (UInt32(v) &* 255 &+ 32895) >> 16)
  }

  /// Copies `rect` of `source` to `origin` in this image, converting the depth.
  public mutating func copy(_ rect: PixelRect, from source: RGBAImage, to origin: PixelPoint) {
    precondition(PixelRect(size: source.size).contains(rect), "copy source inside the image")
    precondition(
      PixelRect(size: size).contains(PixelRect(x: origin.x, y: origin.y, width: rect.width, height: rect.height)),
      "copy destination inside the image")
    let rowCount = 4 * rect.width
    let dstWidth = width
    let srcWidth = source.width
    func rows<S, D>(_ src: UnsafeBufferPointer<S>, _ dst: UnsafeMutableBufferPointer<D>, _ convert: (S) -> D) {
      for row in 0..<rect.height {
        let s = 4 * ((rect.y + row) * srcWidth + rect.x)
        let d = 4 * ((origin.y + row) * dstWidth + origin.x)
        for i in 0..<rowCount { dst[d + i] = convert(src[s + i]) }
      }
    }
    func rows<T>(_ src: UnsafeBufferPointer<T>, _ dst: UnsafeMutableBufferPointer<T>) {
      guard let source = src.baseAddress, let target = dst.baseAddress else { return }
      for row in 0..<rect.height {
        let s = 4 * ((rect.y + row) * srcWidth + rect.x)
        let d = 4 * ((origin.y + row) * dstWidth + origin.x)
        (target + d).update(from: source + s, count: rowCount)
      }
    }
    switch (samples, source.samples) {
    case (.eight(var dst), .eight(let src)):
      samples = .eight([])
      src.withUnsafeBufferPointer { s in dst.withUnsafeMutableBufferPointer { d in rows(s, d) } }
      samples = .eight(dst)
    case (.sixteen(var dst), .sixteen(let src)):
      samples = .eight([])
      src.withUnsafeBufferPointer { s in dst.withUnsafeMutableBufferPointer { d in rows(s, d) } }
      samples = .sixteen(dst)
    case (.eight(var dst), .sixteen(let src)):
      samples = .eight([])
      src.withUnsafeBufferPointer { s in dst.withUnsafeMutableBufferPointer { d in rows(s, d, Self.eightBit) } }
      samples = .eight(dst)
    case (.sixteen(var dst), .eight(let src)):
      samples = .eight([])
      src.withUnsafeBufferPointer { s in
        dst.withUnsafeMutableBufferPointer { d in rows(s, d) { UInt16($0) &* 257 } }
      }
      samples = .sixteen(dst)
    }
  }

  /// The address of the pixel storage, shared by the copies of this value that
  /// share it (the GPU backend keeps source textures by it).
  var storageAddress: UInt {
    switch samples {
    case .eight(let values): values.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    case .sixteen(let values): values.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
  }
}

extension RGBAImage {
  /// True when every pixel's alpha is the largest value.
  public var isOpaque: Bool {
    switch samples {
    case .eight(let v): return stride(from: 3, to: v.count, by: 4).allSatisfy { v[$0] == 255 }
    case .sixteen(let v): return stride(from: 3, to: v.count, by: 4).allSatisfy { v[$0] == 65535 }
    }
  }
}
