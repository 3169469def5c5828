import Foundation

/// Colour difference as people see it: CIELAB (D65 white) and the CIE94 Delta E
/// (graphic arts weights), the measure swift-snapshot-testing's
/// `perceptualPrecision` reads through Core Image's `CILabDeltaE`.
public enum ColorDifference {
  /// An sRGB colour (straight, 0...1 each) in CIELAB: L in 0...100.
  ///
  ///     linear = SRGB.decode(c); XYZ = M * linear (sRGB primaries, D65)
  ///     f(t) = t > (6/29)^3 ? cbrt(t) : t / (3 (6/29)^2) + 4/29
  ///     L = 116 f(Y/Yn) - 16; a = 500 (f(X/Xn) - f(Y/Yn)); b = 200 (f(Y/Yn) - f(Z/Zn))
  public static func lab(red: Double, green: Double, blue: Double) -> SIMD3<Double> {
    let r = SRGB.decode(red)
    let g = SRGB.decode(green)
    let b = SRGB.decode(blue)
    let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
    func f(_ t: Double) -> Double {
      let delta = 6.0 / 29
      return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29
    }
    return SIMD3(116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
  }

  /// CIE94 Delta E of two CIELAB colours (kL = kC = kH = 1, K1 = 0.045, K2 = 0.015):
  ///
  ///     dE = sqrt((dL)^2 + (dC / (1 + K1 C1))^2 + (dH / (1 + K2 C1))^2)
  ///     C = sqrt(a^2 + b^2), dH^2 = da^2 + db^2 - dC^2
  public static func deltaE94(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
    let c1 = (lab1.y * lab1.y + lab1.z * lab1.z).squareRoot()
    let c2 = (lab2.y * lab2.y + lab2.z * lab2.z).squareRoot()
    let dL = lab1.x - lab2.x
    let dC = c1 - c2
    let da = lab1.y - lab2.y
    let db = lab1.z - lab2.z
    let dH2 = max(0, da * da + db * db - dC * dC)
    let sC = 1 + 0.045 * c1
    let sH = 1 + 0.015 * c1
    return (dL * dL + (dC / sC) * (dC / sC) + dH2 / (sH * sH)).squareRoot()
  }

  /// CIE94 Delta E of two 16-bit sRGB pixels' colours (alpha not counted).
  public static func deltaE94(_ p: SIMD4<UInt16>, _ q: SIMD4<UInt16>) -> Double {
    func lab16(_ v: SIMD4<UInt16>) -> SIMD3<Double> {
      lab(red: Double(v[0]) / 65535, green: Double(v[1]) / 65535, blue: Double(v[2]) / 65535)
    }
    return deltaE94(lab16(p), lab16(q))
  }
}
