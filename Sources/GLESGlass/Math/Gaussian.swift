import Foundation

/// The Gaussian of the blur contract: standard deviation sigma, taps out to
/// `ceil(4 sigma)`, weights normalised to sum to one.
public enum GaussianKernel {
  /// Tap radius of a kernel of standard deviation `sigma`: `ceil(4 sigma)`.
  public static func radius(sigma: Double) -> Int {
    sigma > 0 ? Int((4 * sigma).rounded(.up)) : 0
  }

  /// Weights of taps `0 ... radius` (the kernel is symmetric), summing to one
  /// over `-radius ... radius`.
  ///
  ///     w[i] = exp(-i^2 / (2 sigma^2)) / sum
  public static func halfWeights(sigma: Double, radius: Int) -> [Double] {
    guard sigma > 0, radius > 0 else { return [1] }
    let raw = (0...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let sum = raw[0] + 2 * raw.dropFirst().reduce(0, +)
    return raw.map { $0 / sum }
  }
}

/// How a Gaussian blur of `sigmaPixels` is carried out, shared by both backends.
///
/// Small sigmas are convolved directly at full resolution. Larger ones go down a
/// pyramid of `levels` halvings with the binomial filter [1 3 3 1]/8, are blurred
/// there by a Gaussian of `coarseSigma`, and come back up by bilinear doubling
/// (weights 3/4, 1/4). Each halving and each doubling adds 0.75 of its own pixel
/// squared to the variance, so the coarse Gaussian carries the rest:
///
///     sigma^2 = coarseSigma^2 * 4^k + 2 * (4^k - 1) / 4
///
/// A level is allowed when `sigma / 2^k` lies in [1.5, 4): below about 1.5 coarse
/// pixels the pyramid's own filters carry too much of the variance and the result
/// drifts from a Gaussian; at 4 and above the coarse kernel passes 33 taps. The
/// tests hold every output within 1/255 of the exact blur across that range. So
/// the cost stays about flat in sigma, and among the one or two allowed levels
/// the effect picks the cheaper for its canvas (`BackgroundExtensionEffect`).
public struct BlurPlan: Hashable, Sendable {
  /// The smallest sigma, in coarse pixels, the pyramid blurs at.
  public static let minimumCoarseSigma = 1.5
  /// The sigma, in pixels of its level, from which a blur must go one level down.
  public static let maximumCoarseSigma = 4.0
  /// The largest kernel radius any pass uses (the GLSL weight array has one more):
  /// `ceil(4 * maximumCoarseSigma)`.
  public static let maximumRadius = 16

  /// Standard deviation of the blur, in pixels.
  public let sigmaPixels: Double
  /// Number of 2x halvings before the blur (0: direct convolution).
  public let levels: Int
  /// Standard deviation of the Gaussian applied at the coarse level, in coarse pixels.
  public let coarseSigma: Double
  /// Tap radius of the coarse kernel, in coarse pixels.
  public let radius: Int
  /// Normalised weights of taps `0 ... radius`.
  public let weights: [Float]

  /// The levels at which a blur of `sigmaPixels` may run, fewest first.
  public static func allowedLevels(sigmaPixels: Double) -> [Int] {
    guard sigmaPixels > 0 else { return [0] }
    var levels: [Int] = sigmaPixels < maximumCoarseSigma ? [0] : []
    var k = 1
    while sigmaPixels / Double(1 << k) >= minimumCoarseSigma {
      if sigmaPixels / Double(1 << k) < maximumCoarseSigma { levels.append(k) }
      k += 1
    }
    return levels
  }

  /// Plans a blur of `sigmaPixels` (finite, non-negative) at the deepest allowed level.
  public init(sigmaPixels: Double) {
    self.init(sigmaPixels: sigmaPixels, levels: Self.allowedLevels(sigmaPixels: sigmaPixels).last ?? 0)
  }

  /// Plans a blur of `sigmaPixels` at `levels`, one of `allowedLevels`.
  public init(sigmaPixels: Double, levels: Int) {
    precondition(sigmaPixels.isFinite && sigmaPixels >= 0, "sigma is validated before planning")
    precondition(Self.allowedLevels(sigmaPixels: sigmaPixels).contains(levels), "an allowed level")
    self.sigmaPixels = sigmaPixels
    let scale = Double(1 << levels)
    let pyramidVariance = levels > 0 ? 0.5 * (scale * scale - 1) : 0
    let coarseSigma = (max(0, sigmaPixels * sigmaPixels - pyramidVariance)).squareRoot() / scale
    self.levels = levels
    self.coarseSigma = coarseSigma
    self.radius = min(GaussianKernel.radius(sigma: coarseSigma), Self.maximumRadius)
    self.weights = GaussianKernel.halfWeights(sigma: coarseSigma, radius: radius).map { Float($0) }
  }

  /// True for sigma 0: the blur returns its input.
  public var isIdentity: Bool { sigmaPixels == 0 }

  /// Size of one coarse pixel in full-resolution pixels, `2^levels`.
  public var scale: Int { 1 << levels }

  /// How far, in full-resolution pixels, an output pixel reaches into its input:
  /// the coarse kernel plus the reach of the halvings and doublings (1.5 and 1
  /// coarse pixels, rounded up to 3). The accuracy tests fail with less.
  public var marginPixels: Int { isIdentity ? 0 : (levels == 0 ? radius : (radius + 3) * scale) }
}
