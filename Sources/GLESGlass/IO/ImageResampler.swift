import Foundation

/// Fits an image to a frame of whole pixels on the CPU, before any backend sees it,
/// so both backends start from the same pixels. Filtering is done on premultiplied
/// linear light with a tent filter as wide as the scale step (area-like when
/// shrinking, bilinear when enlarging); the result is a 16-bit image.
///
/// The source is read once, top to bottom, in bands of rows, so it can be a PNG
/// being decoded (`PNGRows`): a large image fitted to a small frame then never
/// lies in memory whole. Memory is the band, plus one row of the result per
/// source row the result needs.
public enum ImageResampler {
  /// `image` fitted to `size` by `mode`, centred: `fill` covers the frame and crops,
  /// `fit` fits inside and leaves the rest clear, `stretch` scales each axis to the
  /// frame's. An image that needs no scaling is
  /// cropped or padded exactly, at its own depth. With `window`, only that part of
  /// the fitted frame is made (the part of a frame a canvas shows).
  public static func fit(
    _ image: RGBAImage, to frameSize: PixelSize, mode: ContentMode, window: PixelRect? = nil
  )
    -> RGBAImage
  {
    var rows = InMemoryRows(image: image)
    do {
      return try fit(rows: &rows, to: frameSize, mode: mode, window: window)
    } catch {
      preconditionFailure("an image in memory reads without error: \(error)")
    }
  }

  /// The same fit, reading the source from `rows`, in order, once.
  static func fit<Rows: ImageRowSource>(
    rows source: inout Rows, to frameSize: PixelSize, mode: ContentMode, window: PixelRect? = nil
  ) throws -> RGBAImage {
    let window = window ?? PixelRect(size: frameSize)
    let size = window.size
    let imageSize = source.size
    let sx = Double(frameSize.width) / Double(imageSize.width)
    let sy = Double(frameSize.height) / Double(imageSize.height)
    let scaleX: Double
    let scaleY: Double
    switch mode {
    case .fill: (scaleX, scaleY) = (max(sx, sy), max(sx, sy))
    case .fit: (scaleX, scaleY) = (min(sx, sy), min(sx, sy))
    case .stretch: (scaleX, scaleY) = (sx, sy)
    }
    // The image's top-left corner in window pixels.
    let offsetX = (Double(frameSize.width) - Double(imageSize.width) * scaleX) / 2 - Double(window.x)
    let offsetY = (Double(frameSize.height) - Double(imageSize.height) * scaleY) / 2 - Double(window.y)
    if scaleX == 1 && scaleY == 1 && offsetX == offsetX.rounded() && offsetY == offsetY.rounded() {
      return try crop(&source, size: size, offset: PixelPoint(x: Int(offsetX), y: Int(offsetY)))
    }
    let columns = taps(count: size.width, sourceCount: imageSize.width, scale: scaleX, offset: offsetX)
    let rows = taps(count: size.height, sourceCount: imageSize.height, scale: scaleY, offset: offsetY)
    // The source rows the result reads: only these are filtered across.
    let used = rows.flatMap(\.indices)
    let first = used.min() ?? 0
    let needed = used.isEmpty ? 0..<0 : first..<(used.max() ?? 0) + 1
    // Horizontal pass into a buffer of the needed source rows, band by band as
    // they are decoded, then vertical.
    var across = [SIMD4<Float>](repeating: .zero, count: needed.count * size.width)
    let depth = source.depth
    try across.withUnsafeMutableBufferPointer { out in
      let out = UncheckedSendable(out.baseAddress.unsafelyUnwrapped)
      try source.readBands { band, samples in
        let rowsHere = band.clamped(to: needed)
        guard !rowsHere.isEmpty else { return }
        let samples = UncheckedSendable(samples)
        CPUKernels.parallelRows(rowsHere, cost: rowsHere.count * imageSize.width * 4) { range in
          var linear = [SIMD4<Float>](repeating: .zero, count: imageSize.width)
          for y in range {
            premultipliedLinear(
              samples.value, depth: depth, row: y - band.lowerBound, width: imageSize.width, into: &linear)
            let target = out.value + (y - needed.lowerBound) * size.width
            for (x, tap) in columns.enumerated() {
              var sum = SIMD4<Float>.zero
              for (i, w) in zip(tap.indices, tap.weights) { sum += linear[i] * w }
              target[x] = sum
            }
          }
        }
      }
    }
    var values = [UInt16](repeating: 0, count: 4 * size.pixelCount)
    values.withUnsafeMutableBufferPointer { out in
      let out = UncheckedSendable(out.baseAddress.unsafelyUnwrapped)
      CPUKernels.parallelRows(0..<size.height, cost: size.pixelCount * 4) { range in
        for y in range {
          let tap = rows[y]
          for x in 0..<size.width {
            var sum = SIMD4<Float>.zero
            for (i, w) in zip(tap.indices, tap.weights) { sum += across[(i - needed.lowerBound) * size.width + x] * w }
            let c = OutputEncoding.straight(sum)
            let p = out.value + 4 * (y * size.width + x)
            p[0] = SRGB.encode16(c.x)
            p[1] = SRGB.encode16(c.y)
            p[2] = SRGB.encode16(c.z)
            p[3] = UInt16((c.w * 65535 + 0.5).rounded(.down))
          }
        }
      }
    }
    return RGBAImage(size: size, samples: .sixteen(values))
  }

  /// The source placed unscaled with its top-left corner at `offset` of a clear
  /// image of `size`, at the source's depth.
  static func crop<Rows: ImageRowSource>(
    _ source: inout Rows, size: PixelSize, offset: PixelPoint
  ) throws
    -> RGBAImage
  {
    var result = RGBAImage(size: size, depth: source.depth)
    let visible = PixelRect(x: -offset.x, y: -offset.y, width: size.width, height: size.height)
      .intersection(PixelRect(size: source.size))
    let width = source.size.width
    let bytesPerSample = source.depth == .sixteen ? 2 : 1
    try source.readBands { band, samples in
      let rows = band.clamped(to: visible.y..<visible.maxY)
      guard !visible.isEmpty, !rows.isEmpty else { return }
      let rowBytes = 4 * bytesPerSample * visible.width
      func place<T>(_ dst: inout [T]) {
        dst.withUnsafeMutableBytes { out in
          for y in rows {
            let from =
              samples.baseAddress.unsafelyUnwrapped
              + 4 * bytesPerSample * ((y - band.lowerBound) * width + visible.x)
            let to =
              out.baseAddress.unsafelyUnwrapped
              + 4 * bytesPerSample * ((y + offset.y) * size.width + visible.x + offset.x)
            to.copyMemory(from: from, byteCount: rowBytes)
          }
        }
      }
      switch result.samples {
      case .eight(var values):
        result.samples = .eight([])
        place(&values)
        result.samples = .eight(values)
      case .sixteen(var values):
        result.samples = .eight([])
        place(&values)
        result.samples = .sixteen(values)
      }
    }
    return result
  }

  /// The source pixels and weights of each output pixel along one axis; none
  /// outside the scaled image (`fit` leaves it clear).
  struct Tap {
    var indices: [Int] = []
    var weights: [Float] = []
  }

  static func taps(count: Int, sourceCount: Int, scale: Double, offset: Double) -> [Tap] {
    let support = max(1, 1 / scale)
    return (0..<count).map { x in
      let u = (Double(x) + 0.5 - offset) / scale
      guard u >= 0 && u <= Double(sourceCount) else { return Tap() }
      var tap = Tap()
      let lo = Int((u - support - 0.5).rounded(.down))
      let hi = Int((u + support - 0.5).rounded(.up))
      var total = 0.0
      var weights: [(Int, Double)] = []
      for i in lo...hi {
        let w = max(0, 1 - abs(Double(i) + 0.5 - u) / support)
        guard w > 0 else { continue }
        weights.append((min(max(i, 0), sourceCount - 1), w))
        total += w
      }
      for (i, w) in weights {
        tap.indices.append(i)
        tap.weights.append(Float(w / total))
      }
      return tap
    }
  }

  /// One row of a band of 8- or 16-bit sRGB samples as premultiplied linear Float.
  static func premultipliedLinear(
    _ samples: UnsafeRawBufferPointer, depth: RGBAImage.Depth, row: Int, width: Int,
    into linear: inout [SIMD4<Float>]
  ) {
    let decode = SRGB.decode16
    linear.withUnsafeMutableBufferPointer { out in
      switch depth {
      case .eight:
        let p = samples.bindMemory(to: UInt8.self).baseAddress.unsafelyUnwrapped + 4 * row * width
        for x in 0..<width {
          let q = p + 4 * x
          let a = Float(UInt16(q[3]) &* 257) / 65535
          out[x] = SIMD4(
            decode[Int(UInt16(q[0]) &* 257)] * a, decode[Int(UInt16(q[1]) &* 257)] * a,
            decode[Int(UInt16(q[2]) &* 257)] * a, a)
        }
      case .sixteen:
        let p = samples.bindMemory(to: UInt16.self).baseAddress.unsafelyUnwrapped + 4 * row * width
        for x in 0..<width {
          let q = p + 4 * x
          let a = Float(q[3]) / 65535
          out[x] = SIMD4(decode[Int(q[0])] * a, decode[Int(q[1])] * a, decode[Int(q[2])] * a, a)
        }
      }
    }
  }
}

/// A source of image rows, read top to bottom in bands.
protocol ImageRowSource {
  /// Size in pixels.
  var size: PixelSize { get }
  /// Bits per channel of the samples it gives.
  var depth: RGBAImage.Depth { get }
  /// Calls `body` with consecutive bands of rows, from the first row to the last:
  /// the rows of the band and their samples (RGBA, `depth` bits, rows packed).
  mutating func readBands(_ body: (Range<Int>, UnsafeRawBufferPointer) throws -> Void) throws
}

/// The rows of an image in memory: one band, the whole image.
struct InMemoryRows: ImageRowSource {
  var image: RGBAImage
  var size: PixelSize { image.size }
  var depth: RGBAImage.Depth { image.depth }

  mutating func readBands(_ body: (Range<Int>, UnsafeRawBufferPointer) throws -> Void) throws {
    switch image.samples {
    case .eight(let values): try values.withUnsafeBytes { try body(0..<size.height, $0) }
    case .sixteen(let values): try values.withUnsafeBytes { try body(0..<size.height, $0) }
    }
  }
}
