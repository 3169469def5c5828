import Foundation

/// How two images differ, channel by channel, on the 8-bit scale (a 16-bit
/// difference of 257 is 1.0).
public struct ImageComparison: Sendable, Equatable {
  /// The largest difference of any channel of any pixel, in 1/255 steps.
  public var maxDifference: Double
  /// Pixels with some channel off by more than 1/255.
  public var pixelsOverOne: Int
  /// All pixels.
  public var pixelCount: Int
  /// Peak signal-to-noise ratio over all four channels, in dB; infinity when equal.
  public var psnr: Double
  /// A pixel with the largest difference; nil when the images are equal.
  public var worstPixel: PixelPoint?
  /// The signed mean difference `a - b` of each channel (R, G, B, A) over the
  /// compared samples, in 1/255 steps: a bias that rounding noise does not show
  /// (noise averages out; an encode that is off by half a step does not).
  public var meanDifference: SIMD4<Double>

  /// The largest `|meanDifference|` of any channel, in 1/255 steps.
  public var largestMeanBias: Double {
    max(max(abs(meanDifference[0]), abs(meanDifference[1])), max(abs(meanDifference[2]), abs(meanDifference[3])))
  }

  /// `pixelsOverOne / pixelCount`.
  public var fractionOverOne: Double { pixelCount == 0 ? 0 : Double(pixelsOverOne) / Double(pixelCount) }

  /// Compares two images of one size, at any depths, over the pixels `include`
  /// accepts (all by default). With `ignoringColorOfTransparentPixels`, a pixel
  /// that is fully transparent in both images is compared by its alpha alone: it
  /// has no visible colour.
  public init(
    _ a: RGBAImage, _ b: RGBAImage, including include: ((Int, Int) -> Bool)? = nil,
    ignoringColorOfTransparentPixels: Bool = false
  ) throws {
    guard a.size == b.size else {
      throw GlassError(
        .invalidParameter, "the images differ in size: \(a.size) and \(b.size); compare images of one size")
    }
    let scale = 1.0 / 257.0
    var maxDifference = 0.0
    var worstPixel: PixelPoint?
    var over = 0
    var count = 0
    var sumSquares = 0.0
    var sums = SIMD4<Double>.zero
    var samples = SIMD4<Double>.zero
    for y in 0..<a.height {
      for x in 0..<a.width where include?(x, y) ?? true {
        let p = a.pixel16(x: x, y: y)
        let q = b.pixel16(x: x, y: y)
        let channels = ignoringColorOfTransparentPixels && p[3] == 0 && q[3] == 0 ? 3..<4 : 0..<4
        var worst = 0.0
        for c in channels {
          let signed = (Double(p[c]) - Double(q[c])) * scale
          let d = abs(signed)
          worst = max(worst, d)
          sumSquares += d * d
          sums[c] += signed
          samples[c] += 1
        }
        if worst > maxDifference {
          maxDifference = worst
          worstPixel = PixelPoint(x: x, y: y)
        }
        if worst > 1.0 + 1e-9 { over += 1 }
        count += 1
      }
    }
    self.maxDifference = maxDifference
    self.worstPixel = worstPixel
    self.pixelsOverOne = over
    self.pixelCount = count
    self.meanDifference = sums / SIMD4(repeating: 1).replacing(with: samples, where: samples .> 0)
    let mse = sumSquares / Double(max(1, 4 * count))
    self.psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }

  /// What `differenceImage` draws, in the words of the help texts.
  public static let differenceImageDescription =
    "each channel's difference x16, at least 64 where there is any (so 1/255 shows), black where equal"

  /// A picture of where two images differ: each colour channel's absolute
  /// difference (or alpha's, where larger), in 1/255 steps, times `gain`, at least
  /// 64 where there is any difference at all, opaque; black where they agree:
  /// `d = max(|a - b|, |alpha_a - alpha_b|)` on the 16-bit scale, drawn as
  /// `0` for `d = 0`, else `min(255, max(64, d * gain / 257))`.
  public static func differenceImage(_ a: RGBAImage, _ b: RGBAImage, gain: Int = 16) -> RGBAImage {
    RGBAImage(width: a.width, height: a.height) { x, y in
      let p = a.pixel16(x: x, y: y)
      let q = b.pixel16(x: x, y: y)
      let alpha = abs(Int(p[3]) - Int(q[3]))
      func channel(_ c: Int) -> UInt8 {
        let d = max(abs(Int(p[c]) - Int(q[c])), alpha)
        return d == 0 ? 0 : UInt8(min(255, max(64, d * gain / 257)))
      }
      return SIMD4(channel(0), channel(1), channel(2), 255)
    }
  }
}

extension ImageComparison {
  /// How far two images may differ: the limits of `glass-gpu compare` and
  /// `glass-gpu goldens`. A nil limit is not checked.
  public struct Limits: Sendable, Equatable {
    /// The largest channel difference allowed, in 1/255 steps.
    public var maxDifference: Double?
    /// The largest percentage of pixels allowed to differ by more than 1/255.
    public var maxSharePercent: Double?

    /// Limits; nil ones are not checked.
    public init(maxDifference: Double? = nil, maxSharePercent: Double? = nil) {
      self.maxDifference = maxDifference
      self.maxSharePercent = maxSharePercent
    }

    /// No difference at all.
    public static let exact = Limits(maxDifference: 0)

    /// A limit a comparison exceeds: which, what was measured, and the limit.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
      /// Which of the limits.
      public enum Limit: Sendable, Equatable {
        /// `maxDifference`, in 1/255 steps.
        case maxDifference
        /// `maxSharePercent`, a percentage of the pixels.
        case maxSharePercent
      }

      /// The limit exceeded.
      public var limit: Limit
      /// What was measured: `the images differ by 12/255 at (3, 4)`.
      public var measured: String
      /// The limit's value.
      public var allowed: Double

      /// `the images differ by 12/255 at (3, 4), over the limit of 2/255`.
      public var description: String {
        switch limit {
        case .maxDifference: "\(measured), over the limit of \(ParameterSpec.format(allowed))/255"
        case .maxSharePercent: "\(measured), over the limit of \(ParameterSpec.format(allowed)) %"
        }
      }
    }

    /// Each limit `comparison` exceeds; empty when it meets them.
    public func exceeded(by comparison: ImageComparison) -> [Violation] {
      var found: [Violation] = []
      if let maxDifference, comparison.maxDifference > maxDifference + 1e-9 {
        let at = comparison.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""
        found.append(
          Violation(
            limit: .maxDifference,
            measured: "the images differ by \(String(format: "%.3g", comparison.maxDifference))/255\(at)",
            allowed: maxDifference))
      }
      let share = 100 * comparison.fractionOverOne
      if let maxSharePercent, share > maxSharePercent {
        found.append(
          Violation(
            limit: .maxSharePercent,
            measured: "\(String(format: "%.4f", share)) % of pixels differ by more than 1/255",
            allowed: maxSharePercent))
      }
      return found
    }

    /// One sentence for each limit `comparison` exceeds; empty when it meets them.
    public func violations(_ comparison: ImageComparison) -> [String] {
      exceeded(by: comparison).map(\.description)
    }
  }

  /// How two images compare in swift-snapshot-testing's terms: the share of
  /// pixels that match, where a pixel matches when its colour difference is at
  /// most `deltaEThreshold` (CIE94 Delta E of the sRGB colours, 0 to 100, as
  /// Core Image's `CILabDeltaE`), or exactly when the threshold is 0. Alpha counts
  /// as a difference of `|a1 - a2| * 100`; a pixel transparent in both matches.
  public struct Perceptual: Sendable, Equatable {
    /// Pixels that match, over all pixels (1 when the images are equal).
    public var matchingShare: Double
    /// The largest colour difference of any pixel, 0 to 100.
    public var maxDeltaE: Double
  }

  /// `Perceptual` of two images of one size; throws when the sizes differ.
  public static func perceptual(_ a: RGBAImage, _ b: RGBAImage, deltaEThreshold: Double) throws -> Perceptual {
    guard a.size == b.size else {
      throw GlassError(
        .invalidParameter, "the images differ in size: \(a.size) and \(b.size); compare images of one size")
    }
    var matching = 0
    var maxDeltaE = 0.0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a.pixel16(x: x, y: y)
        let q = b.pixel16(x: x, y: y)
        if p == q {
          matching += 1
          continue
        }
        let alpha = abs(Double(p[3]) - Double(q[3])) / 65535 * 100
        let colour = p[3] == 0 && q[3] == 0 ? 0 : ColorDifference.deltaE94(p, q)
        let d = max(alpha, colour)
        maxDeltaE = max(maxDeltaE, d)
        if deltaEThreshold > 0 && d <= deltaEThreshold { matching += 1 }
      }
    }
    let count = a.width * a.height
    return Perceptual(matchingShare: count == 0 ? 1 : Double(matching) / Double(count), maxDeltaE: maxDeltaE)
  }
}
