import Foundation
import GLESGlass

/// The background extension effect computed straight from its definition in
/// DESIGN.md, in Double, with nothing approximated and no GLESGlass math (see
/// `Definition`): sRGB decode, premultiply, the mirrored canvas, the normalised
/// Gaussian with taps to ceil(4 sigma), mirrored at the canvas edge, unpremultiply,
/// sRGB encode, round half up. Slow; for tests on small images.
public enum ExactOracle {
  /// The exact output canvas of `effect` on `image`, at `depth`.
  public static func backgroundExtension(
    _ effect: BackgroundExtensionEffect, on image: RGBAImage, depth: RGBAImage.Depth = .eight
  ) -> RGBAImage {
    let p = effect.parameters
    let w = image.width
    let h = image.height
    let canvasWidth = p.leadingPixels + w + p.trailingPixels
    let canvasHeight = p.topPixels + h + p.bottomPixels
    let bits = depth == .eight ? 8 : 16
    let channels = Definition.unitChannels(image)
    // Premultiplied linear light of every image pixel.
    let linear = (0..<(w * h)).map { i in
      Definition.premultipliedLinear(
        SIMD4(channels[4 * i], channels[4 * i + 1], channels[4 * i + 2], channels[4 * i + 3]))
    }
    let kernel = Definition.gaussian(sigma: p.sigmaPixels)
    let columns = foldedWeights(
      kernel, canvas: canvasWidth, origin: p.leadingPixels, count: w)
    let rows = foldedWeights(kernel, canvas: canvasHeight, origin: p.topPixels, count: h)
    // Horizontal pass: one row per image row, one column per canvas column.
    var horizontal = [SIMD4<Double>](repeating: .zero, count: h * canvasWidth)
    for r in 0..<h {
      for x in 0..<canvasWidth {
        var sum = SIMD4<Double>.zero
        for (column, weight) in columns[x] { sum += weight * linear[r * w + column] }
        horizontal[r * canvasWidth + x] = sum
      }
    }
    // Vertical pass, and the output: the image copied as it is inside its frame.
    let scale = Double((1 << bits) - 1)
    var codes = [Int](repeating: 0, count: 4 * canvasWidth * canvasHeight)
    for y in 0..<canvasHeight {
      for x in 0..<canvasWidth {
        let o = 4 * (y * canvasWidth + x)
        let ix = x - p.leadingPixels
        let iy = y - p.topPixels
        if ix >= 0 && ix < w && iy >= 0 && iy < h {
          for c in 0..<4 { codes[o + c] = Int(floor(channels[4 * (iy * w + ix) + c] * scale + 0.5)) }
          continue
        }
        var sum = SIMD4<Double>.zero
        for (row, weight) in rows[y] { sum += weight * horizontal[row * canvasWidth + x] }
        let value = Definition.straightCodes(sum, bits: bits)
        for c in 0..<4 { codes[o + c] = value[c] }
      }
    }
    let size = PixelSize(width: canvasWidth, height: canvasHeight)
    return depth == .eight
      ? RGBAImage(size: size, samples: .eight(codes.map { UInt8($0) }))
      : RGBAImage(size: size, samples: .sixteen(codes.map { UInt16($0) }))
  }

  /// The exact Gaussian blur of the whole of `image` by `sigma` pixels, the image
  /// mirrored at its own edges, at 8 bits: the definition of the frost behind glass.
  public static func gaussianBlur(_ image: RGBAImage, sigma: Double) -> RGBAImage {
    let w = image.width
    let h = image.height
    let channels = Definition.unitChannels(image)
    let linear = (0..<(w * h)).map { i in
      Definition.premultipliedLinear(
        SIMD4(channels[4 * i], channels[4 * i + 1], channels[4 * i + 2], channels[4 * i + 3]))
    }
    let kernel = Definition.gaussian(sigma: sigma)
    let columns = foldedWeights(kernel, canvas: w, origin: 0, count: w)
    let rows = foldedWeights(kernel, canvas: h, origin: 0, count: h)
    var codes = [UInt8](repeating: 0, count: 4 * w * h)
    for y in 0..<h {
      for x in 0..<w {
        var sum = SIMD4<Double>.zero
        for (row, rowWeight) in rows[y] {
          for (column, weight) in columns[x] { sum += rowWeight * weight * linear[row * w + column] }
        }
        let value = Definition.straightCodes(sum, bits: 8)
        for c in 0..<4 { codes[4 * (y * w + x) + c] = UInt8(value[c]) }
      }
    }
    return RGBAImage(size: image.size, samples: .eight(codes))
  }

  /// For each canvas position along one axis, the weight of each image index: the
  /// kernel's taps around it, each sent through the mirror rule, summed where
  /// several land on one index (the mirrored canvas is periodic, so a wide kernel
  /// folds many times).
  static func foldedWeights(
    _ kernel: (radius: Int, weights: [Double]), canvas: Int, origin: Int, count: Int
  ) -> [[(index: Int, weight: Double)]] {
    (0..<canvas).map { x in
      var byIndex = [Double](repeating: 0, count: count)
      for k in -kernel.radius...kernel.radius {
        let index = Definition.imageIndex(canvasIndex: x + k, canvas: canvas, origin: origin, count: count)
        byIndex[index] += kernel.weights[k + kernel.radius]
      }
      return byIndex.enumerated().filter { $0.element != 0 }.map { ($0.offset, $0.element) }
    }
  }
}
