import Foundation

/// Fits an image to a frame of whole pixels on the CPU, before any backend sees it,
/// so both backends start from the same pixels. Filtering is done on premultiplied
/// linear light with a tent filter as wide as the scale step (area-like when
/// shrinking, bilinear when enlarging); the result is a 16-bit image.
public enum ImageResampler {
  /// `image` fitted to `size` by `mode`, centred: `fill` covers the frame and crops,
  /// `fit` fits inside and leaves the rest clear. An image that needs no scaling is
  /// cropped or padded exactly, at its own depth. With `window`, only that part of
  /// the fitted frame is made (the part of a frame a canvas shows).
  public static func fit(
    _ image: RGBAImage, to frameSize: PixelSize, mode: ContentMode, window: PixelRect? = nil
  )
    -> RGBAImage
  {
    let window = window ?? PixelRect(size: frameSize)
    let size = window.size
    let sx = Double(frameSize.width) / Double(image.width)
    let sy = Double(frameSize.height) / Double(image.height)
    let scale = mode == .fill ? max(sx, sy) : min(sx, sy)
    // The image's top-left corner in window pixels.
    let offsetX = (Double(frameSize.width) - Double(image.width) * scale) / 2 - Double(window.x)
    let offsetY = (Double(frameSize.height) - Double(image.height) * scale) / 2 - Double(window.y)
    if scale == 1 && offsetX == offsetX.rounded() && offsetY == offsetY.rounded() {
      var result = RGBAImage(size: size, depth: image.depth)
      let ox = Int(offsetX)
      let oy = Int(offsetY)
      let source = PixelRect(x: -ox, y: -oy, width: size.width, height: size.height)
        .intersection(PixelRect(size: image.size))
      if !source.isEmpty { result.copy(source, from: image, to: PixelPoint(x: source.x + ox, y: source.y + oy)) }
      return result
    }
    let linear = premultipliedLinear(image)
    let columns = taps(count: size.width, sourceCount: image.width, scale: scale, offset: offsetX)
    let rows = taps(count: size.height, sourceCount: image.height, scale: scale, offset: offsetY)
    // Horizontal pass into a buffer of source rows, then vertical.
    var across = [SIMD4<Float>](repeating: .zero, count: image.height * size.width)
    across.withUnsafeMutableBufferPointer { out in
      let out = UncheckedSendable(out.baseAddress.unsafelyUnwrapped)
      CPUKernels.parallelRows(0..<image.height, cost: image.height * size.width * 4) { range in
        for y in range {
          let row = y * image.width
          for (x, tap) in columns.enumerated() {
            var sum = SIMD4<Float>.zero
            for (i, w) in zip(tap.indices, tap.weights) { sum += linear[row + i] * w }
            out.value[y * size.width + x] = sum
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
            for (i, w) in zip(tap.indices, tap.weights) { sum += across[i * size.width + x] * w }
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

  /// Every pixel as premultiplied linear Float.
  static func premultipliedLinear(_ image: RGBAImage) -> [SIMD4<Float>] {
    (0..<image.size.pixelCount).map { i in
      let p = image.pixel16(x: i % image.width, y: i / image.width)
      let a = Float(p.w) / 65535
      return SIMD4(
        SRGB.decode16[Int(p.x)] * a, SRGB.decode16[Int(p.y)] * a, SRGB.decode16[Int(p.z)] * a, a)
    }
  }
}
