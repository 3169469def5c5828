/// IEEE binary16 rounding, the storage of `RGBA16F` intermediates. The CPU backend
/// rounds every stored value with `Half.round` so that both backends round alike.
public enum Half {
  /// The nearest binary16 value to `x` (ties to even), as a Float. Values beyond
  /// the binary16 range become infinity; NaN stays NaN. Inlined: every value the
  /// CPU backend stores goes through it, and the call cost 3 % of a render.
  @inlinable @inline(__always)
  public static func round(_ x: Float) -> Float {
    let bits = x.bitPattern
    let magnitude = bits & 0x7FFF_FFFF
    if magnitude >= 0x3880_0000 {  // normal binary16 range and above
      if magnitude >= 0x477F_F000 {  // rounds past 65504
        return magnitude > 0x7F80_0000 ? x : (x < 0 ? -.infinity : .infinity)
      }
      let rounded = (magnitude &+ 0x0FFF &+ ((magnitude >> 13) & 1)) & 0xFFFF_E000
      return Float(bitPattern: (bits & 0x8000_0000) | rounded)
    }
    // Subnormal binary16: multiples of 2^-24.
    return (x * 16_777_216).rounded(.toNearestOrEven) * (1 / 16_777_216)
  }

  /// The binary16 bit pattern nearest to `x` (ties to even).
  @inlinable
  public static func bits(_ x: Float) -> UInt16 {
    let bits = x.bitPattern
    let sign = UInt16((bits >> 16) & 0x8000)
    let magnitude = bits & 0x7FFF_FFFF
    if magnitude > 0x7F80_0000 { return sign | 0x7E00 }
    if magnitude >= 0x3880_0000 {
      if magnitude >= 0x477F_F000 { return sign | 0x7C00 }
      let rounded = magnitude &+ 0x0FFF &+ ((magnitude >> 13) & 1)
      return sign | UInt16((rounded &- 0x3800_0000) >> 13)
    }
    let scaled = (Float(bitPattern: magnitude) * 16_777_216).rounded(.toNearestOrEven)
    return sign | UInt16(scaled)
  }

  /// The Float value of a binary16 bit pattern.
  @inlinable
  public static func float(bits h: UInt16) -> Float {
    let sign = UInt32(h & 0x8000) << 16
    let exponent = UInt32(h >> 10) & 0x1F
    let mantissa = UInt32(h & 0x3FF)
    if exponent == 0 {
      let value = Float(mantissa) * (1 / 16_777_216)
      return sign != 0 ? -value : value
    }
    if exponent == 31 {
      return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
    }
    return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
  }
}
