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

  /// `pixelsOverOne / pixelCount`.
  public var fractionOverOne: Double { pixelCount == 0 ? 0 : Double(pixelsOverOne) / Double(pixelCount) }

  /// Compares two images of one size, at any depths.
  public init(_ a: RGBAImage, _ b: RGBAImage) throws {
    guard a.size == b.size else {
      throw GlassError(
        .invalidParameter, "the images differ in size: \(a.size) and \(b.size); compare images of one size")
    }
    let scale = 1.0 / 257.0
    var maxDifference = 0.0
    var over = 0
    var sumSquares = 0.0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a.pixel16(x: x, y: y)
        let q = b.pixel16(x: x, y: y)
        var worst = 0.0
        for c in 0..<4 {
          let d = abs(Double(p[c]) - Double(q[c])) * scale
          worst = max(worst, d)
          sumSquares += d * d
        }
        maxDifference = max(maxDifference, worst)
        if worst > 1.0 + 1e-9 { over += 1 }
      }
    }
    self.maxDifference = maxDifference
    self.pixelsOverOne = over
    self.pixelCount = a.size.pixelCount
    let mse = sumSquares / Double(max(1, 4 * a.size.pixelCount))
    self.psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }

  /// A picture of where two images differ: each channel's absolute difference
  /// times `gain`, opaque; black where they agree.
  public static func differenceImage(_ a: RGBAImage, _ b: RGBAImage, gain: Int = 16) -> RGBAImage {
    RGBAImage(width: a.width, height: a.height) { x, y in
      let p = a.pixel16(x: x, y: y)
      let q = b.pixel16(x: x, y: y)
      func channel(_ c: Int) -> UInt8 {
        let d = abs(Int(p[c]) - Int(q[c])) / 257
        return UInt8(min(255, max(d * gain, d > 0 ? 64 : 0)))
      }
      return SIMD4(channel(0), channel(1), channel(2), 255)
    }
  }
}
