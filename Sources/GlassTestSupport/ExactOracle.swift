import Foundation
import GLESGlass

/// The background extension effect computed straight from its definition, in
/// Double, with nothing approximated: sRGB decode, premultiply, mirror canvas,
/// Gaussian with taps to ceil(4 sigma) normalised, unpremultiply, sRGB encode,
/// round. Slow; for tests on small images.
public enum ExactOracle {
  /// The exact output canvas of `effect` on `image`, at `depth`.
  public static func backgroundExtension(
    _ effect: BackgroundExtensionEffect, on image: RGBAImage, depth: RGBAImage.Depth = .eight
  ) -> RGBAImage {
    let p = effect.parameters
    let canvasSize = effect.canvasSize(for: image.size)
    let mapping = MirrorCanvas(
      canvasSize: canvasSize, imageOrigin: PixelPoint(x: p.leadingPixels, y: p.topPixels), imageSize: image.size)
    let w = image.width
    let h = image.height
    // Premultiplied linear light of every image pixel.
    var linear = [SIMD4<Double>](repeating: .zero, count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        let v = image.pixel16(x: x, y: y)
        let a = Double(v[3]) / 65535
        linear[y * w + x] = SIMD4(
          SRGB.decode(Double(v[0]) / 65535) * a, SRGB.decode(Double(v[1]) / 65535) * a,
          SRGB.decode(Double(v[2]) / 65535) * a, a)
      }
    }
    let radius = GaussianKernel.radius(sigma: p.sigmaPixels)
    let weights = GaussianKernel.halfWeights(sigma: p.sigmaPixels, radius: radius)
    // Horizontal pass: one row per image row, one column per canvas column.
    var rows = [SIMD4<Double>](repeating: .zero, count: h * canvasSize.width)
    for r in 0..<h {
      for x in 0..<canvasSize.width {
        var sum = SIMD4<Double>.zero
        for k in -radius...radius {
          sum += weights[abs(k)] * linear[r * w + mapping.imageColumn(x + k)]
        }
        rows[r * canvasSize.width + x] = sum
      }
    }
    var output = RGBAImage(size: canvasSize, depth: depth)
    let frame = PixelRect(x: p.leadingPixels, y: p.topPixels, width: w, height: h)
    for y in 0..<canvasSize.height {
      for x in 0..<canvasSize.width {
        let value: SIMD4<UInt16>
        if frame.contains(PixelRect(x: x, y: y, width: 1, height: 1)) {
          value = image.pixel16(x: x - frame.x, y: y - frame.y)
          output.set(x: x, y: y, value16: value)
          continue
        }
        var sum = SIMD4<Double>.zero
        for k in -radius...radius {
          sum += weights[abs(k)] * rows[mapping.imageRow(y + k) * canvasSize.width + x]
        }
        output.set(x: x, y: y, linear: sum)
      }
    }
    return output
  }
}

extension RGBAImage {
  /// Stores a premultiplied linear colour, exactly encoded at this image's depth.
  mutating func set(x: Int, y: Int, linear p: SIMD4<Double>) {
    let a = min(max(p.w, 0), 1)
    let c = a > 0 ? SIMD3(p.x / a, p.y / a, p.z / a) : .zero
    let scale = depth == .eight ? 255.0 : 65535.0
    let encoded = SIMD4(SRGB.encode(c.x), SRGB.encode(c.y), SRGB.encode(c.z), a)
    let i = 4 * (y * width + x)
    switch samples {
    case .eight(var v):
      samples = .eight([])
      for k in 0..<4 { v[i + k] = UInt8((encoded[k] * scale + 0.5).rounded(.down)) }
      samples = .eight(v)
    case .sixteen(var v):
      samples = .eight([])
      for k in 0..<4 { v[i + k] = UInt16((encoded[k] * scale + 0.5).rounded(.down)) }
      samples = .sixteen(v)
    }
  }

  /// Stores 16-bit channel values, converted to this image's depth.
  mutating func set(x: Int, y: Int, value16 value: SIMD4<UInt16>) {
    let i = 4 * (y * width + x)
    switch samples {
    case .eight(var v):
      samples = .eight([])
      for k in 0..<4 { v[i + k] = RGBAImage.eightBit(value[k]) }
      samples = .eight(v)
    case .sixteen(var v):
      samples = .eight([])
      for k in 0..<4 { v[i + k] = value[k] }
      samples = .sixteen(v)
    }
  }
}
