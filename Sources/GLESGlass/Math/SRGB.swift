import Foundation

/// The sRGB transfer function (IEC 61966-2-1), exact in `Double`, with the tables
/// both backends use. `common.glsl` has the same encode as `encodeSRGB`.
public enum SRGB {
  /// sRGB-encoded value in [0, 1] -> linear light in [0, 1].
  ///
  ///     s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055)^2.4
  @inlinable
  public static func decode(_ s: Double) -> Double {
    s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
  }

  /// Linear light in [0, 1] -> sRGB-encoded value in [0, 1] (clamped).
  ///
  ///     l <= 0.0031308 ? 12.92 l : 1.055 l^(1/2.4) - 0.055
  @inlinable
  public static func encode(_ l: Double) -> Double {
    let l = min(max(l, 0), 1)
    return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
  }

  /// Linear value of every 8-bit code.
  public static let decode8: [Float] = (0..<256).map { Float(decode(Double($0) / 255)) }

  /// Linear value of every 16-bit code.
  public static let decode16: [Float] = (0..<65536).map { Float(decode(Double($0) / 65535)) }

  /// `encode8Threshold[i]`: the smallest Float whose 8-bit code is at least `i`
  /// (index 256 is past every value). Codes round half up, as `floor(x * 255 + 0.5)`.
  static let encode8Threshold: [Float] = {
    var table = [Float](repeating: .infinity, count: 257)
    table[0] = -.infinity
    for code in 1..<256 {
      let t = decode((Double(code) - 0.5) / 255)
      var f = Float(t)
      if Double(f) < t { f = f.nextUp }
      while Double(f.nextDown) >= t { f = f.nextDown }
      table[code] = f
    }
    return table
  }()

  /// `encode8Start[b]`: the code of the first value of bucket `b` of 4096 equal
  /// linear buckets; a search from there takes at most a few steps.
  static let encode8Start: [UInt8] = {
    let thresholds = encode8Threshold
    var table = [UInt8](repeating: 0, count: 4097)
    var code = 0
    for bucket in 0...4096 {
      let value = Float(bucket) / 4096
      while code < 255 && value >= thresholds[code + 1] { code += 1 }
      table[bucket] = UInt8(code)
    }
    return table
  }()

  /// Linear light -> 8-bit sRGB code, correctly rounded (clamped to [0, 1]).
  @inlinable
  public static func encode8(_ linear: Float) -> UInt8 {
    encode8Tables.encode(linear)
  }

  /// Linear light -> 16-bit sRGB code, `floor(encode(l) * 65535 + 0.5)`.
  @inlinable
  public static func encode16(_ linear: Float) -> UInt16 {
    UInt16((encode(Double(linear)) * 65535 + 0.5).rounded(.down))
  }

  /// The two tables of `encode8`, copied once into memory that lives as long as
  /// the process, so that lookups touch no reference counts.
  public static let encode8Tables = Encode8Tables(start: encode8Start, threshold: encode8Threshold)

  /// Tables for a correctly rounded 8-bit encode without `pow`.
  public struct Encode8Tables: @unchecked Sendable {
    @usableFromInline let start: UnsafePointer<UInt8>
    @usableFromInline let threshold: UnsafePointer<Float>

    init(start: [UInt8], threshold: [Float]) {
      let startCopy = UnsafeMutablePointer<UInt8>.allocate(capacity: start.count)
      startCopy.initialize(from: start, count: start.count)
      let thresholdCopy = UnsafeMutablePointer<Float>.allocate(capacity: threshold.count)
      thresholdCopy.initialize(from: threshold, count: threshold.count)
      self.start = UnsafePointer(startCopy)
      self.threshold = UnsafePointer(thresholdCopy)
    }

    /// Linear light -> 8-bit code.
    @inlinable
    public func encode(_ linear: Float) -> UInt8 {
      guard linear > 0 else { return 0 }
      guard linear < 1 else { return 255 }
      var code = Int(start[Int(linear * 4096)])
      while linear >= threshold[code + 1] { code += 1 }
      return UInt8(code)
    }
  }
}
