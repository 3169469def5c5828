import Foundation
import GLESGlass

/// The definitions of DESIGN.md, written from its text for the oracles and
/// nothing else: no call into GLESGlass's math (`reflectIndex`, `MirrorCanvas`,
/// `GaussianKernel`, `SRGB`, `Half`, `PremultipliedLinear`), so that a bug planted
/// there cannot also move the expectation it is checked against.
public enum Definition {
  /// The mirror rule `…cba|abc|cba…`: index `-i-1` below 0 and `2n-1-i` above
  /// `n-1`, and so on periodically (period `2n`), for an axis of `n` samples.
  public static func mirror(_ i: Int, count n: Int) -> Int {
    precondition(n > 0, "an axis of at least one sample")
    // Into one period [0, 2n): the first n samples as they are, the next n reversed.
    let phase = ((i % (2 * n)) + 2 * n) % (2 * n)
    return phase < n ? phase : 2 * n - 1 - phase
  }

  /// The column (or row) of the image that canvas position `x` shows: the canvas
  /// (of `canvas` samples, the image's first sample at `origin`) mirrored at its own
  /// edges, then the image (of `count` samples) mirrored around itself.
  public static func imageIndex(canvasIndex x: Int, canvas: Int, origin: Int, count: Int) -> Int {
    mirror(mirror(x, count: canvas) - origin, count: count)
  }

  /// The sampled Gaussian of standard deviation `sigma`, `exp(-k^2 / (2 sigma^2))`
  /// for `k` in `-radius ... radius` (`radius = ceil(4 sigma)`), normalised to sum
  /// to one; index `k + radius`. Sigma 0 is the identity, one tap of weight 1.
  public static func gaussian(sigma: Double) -> (radius: Int, weights: [Double]) {
    guard sigma > 0 else { return (0, [1]) }
    let radius = Int(ceil(4 * sigma))
    var weights: [Double] = []
    for k in -radius...radius {
      let x = Double(k) / sigma
      weights.append(exp(-0.5 * x * x))
    }
    let total = weights.reduce(0, +)
    return (radius, weights.map { $0 / total })
  }

  /// sRGB-encoded value -> linear light (IEC 61966-2-1).
  public static func srgbToLinear(_ s: Double) -> Double {
    if s <= 0.04045 { return s / 12.92 }
    return pow((s + 0.055) / 1.055, 2.4)
  }

  /// Linear light -> sRGB-encoded value (IEC 61966-2-1), clamped to [0, 1].
  public static func linearToSRGB(_ l: Double) -> Double {
    let v = max(0, min(1, l))
    if v <= 0.0031308 { return v * 12.92 }
    return 1.055 * pow(v, 1 / 2.4) - 0.055
  }

  /// A value in [0, 1] as a code of `bits` bits, rounding half up: `floor(v * max + 0.5)`.
  public static func code(_ v: Double, bits: Int) -> Int {
    let top = Double((1 << bits) - 1)
    return Int(floor(max(0, min(1, v)) * top + 0.5))
  }

  /// The channels of every pixel of `image`, each in [0, 1] (code / (2^bits - 1)),
  /// four per pixel, rows top to bottom: the stored samples, read directly.
  public static func unitChannels(_ image: RGBAImage) -> [Double] {
    switch image.samples {
    case .eight(let values): values.map { Double($0) / 255 }
    case .sixteen(let values): values.map { Double($0) / 65535 }
    }
  }

  /// A straight sRGB pixel (four values in [0, 1]) as premultiplied linear light:
  /// `(decode(r) a, decode(g) a, decode(b) a, a)`.
  public static func premultipliedLinear(_ p: SIMD4<Double>) -> SIMD4<Double> {
    let a = p[3]
    return SIMD4(srgbToLinear(p[0]) * a, srgbToLinear(p[1]) * a, srgbToLinear(p[2]) * a, a)
  }

  /// Premultiplied linear light as straight sRGB codes of `bits` bits; a pixel of
  /// alpha 0 has no colour, and is all 0.
  public static func straightCodes(_ p: SIMD4<Double>, bits: Int) -> SIMD4<Int> {
    let a = max(0, min(1, p[3]))
    guard a > 0 else { return .zero }
    return SIMD4(
      code(linearToSRGB(p[0] / a), bits: bits), code(linearToSRGB(p[1] / a), bits: bits),
      code(linearToSRGB(p[2] / a), bits: bits), code(a, bits: bits))
  }
}
