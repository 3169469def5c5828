import Foundation

/// How a transition moves from one state (progress 0) to the other (progress 1)
/// over time, with SwiftUI's names and defaults. Time is in seconds.
///
/// Springs are the damped harmonic oscillator SwiftUI documents, of unit mass,
/// starting at rest at 0 and pulled towards 1:
///
///     x'' = −k (x − 1) − c x',   x(0) = 0, x'(0) = 0
///     k = (2π / duration)²,   c = 4π ζ / duration
///     ζ = 1 − bounce (bounce ≥ 0),   ζ = 1 / (1 + bounce) (bounce < 0)
///
/// `duration` is SwiftUI's "perceptual duration" (the response: the period of
/// the undamped spring). The other curves are cubic Béziers from (0, 0) to
/// (1, 1) over `duration`, or a straight line.
public enum TimingCurve: Sendable, Hashable {
  /// A spring of perceptual duration `duration` and `bounce` in (−1, 1).
  case spring(duration: Double, bounce: Double)
  /// A cubic Bézier with control points (x1, y1), (x2, y2), over `duration`.
  case bezier(duration: Double, x1: Double, y1: Double, x2: Double, y2: Double)
  /// Constant speed over `duration`.
  case linear(duration: Double)

  /// SwiftUI's default animation: `.spring(duration: 0.5, bounce: 0)`.
  public static let `default` = TimingCurve.spring(duration: 0.5, bounce: 0)
  /// `.smooth`: a spring with no bounce, 0.5 s.
  public static let smooth = TimingCurve.spring(duration: 0.5, bounce: 0)
  /// `.snappy`: a spring with a little bounce (0.15), 0.5 s.
  public static let snappy = TimingCurve.spring(duration: 0.5, bounce: 0.15)
  /// `.bouncy`: a spring with more bounce (0.3), 0.5 s.
  public static let bouncy = TimingCurve.spring(duration: 0.5, bounce: 0.3)

  /// `.easeInOut(duration:)`: CSS's ease-in-out, (0.42, 0) (0.58, 1). SwiftUI's default duration is 0.35 s.
  public static func easeInOut(duration: Double = 0.35) -> TimingCurve {
    .bezier(duration: duration, x1: 0.42, y1: 0, x2: 0.58, y2: 1)
  }
  /// `.easeIn(duration:)`: (0.42, 0) (1, 1).
  public static func easeIn(duration: Double = 0.35) -> TimingCurve {
    .bezier(duration: duration, x1: 0.42, y1: 0, x2: 1, y2: 1)
  }
  /// `.easeOut(duration:)`: (0, 0) (0.58, 1).
  public static func easeOut(duration: Double = 0.35) -> TimingCurve {
    .bezier(duration: duration, x1: 0, y1: 0, x2: 0.58, y2: 1)
  }

  /// A spring's stiffness k, damping c and damping ratio ζ (unit mass).
  public var springConstants: (stiffness: Double, damping: Double, dampingRatio: Double)? {
    guard case .spring(let duration, let bounce) = self else { return nil }
    let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    let omega = 2 * Double.pi / duration
    return (omega * omega, 2 * zeta * omega, zeta)
  }

  /// Progress at `time` seconds: 0 at time 0 and before; for a Bézier or a line,
  /// exactly 1 from `duration` on; for a spring, 1 from `settleTime` on (before,
  /// the oscillator, which may overshoot 1).
  public func progress(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    switch self {
    case .linear(let duration):
      return time >= duration ? 1 : time / duration
    case .bezier(let duration, let x1, let y1, let x2, let y2):
      guard time < duration else { return 1 }
      let s = Self.bezierParameter(forX: time / duration, x1, x2)
      return Self.bezierCoordinate(s, y1, y2)
    case .spring:
      guard time < settleTime else { return 1 }
      return 1 + springDisplacement(at: time)
    }
  }

  /// x(t) − 1 of the spring, in closed form (−1 at time 0).
  func springDisplacement(at t: Double) -> Double {
    guard let (k, _, zeta) = springConstants else { return 0 }
    let omega = k.squareRoot()
    if zeta < 1 {
      // Underdamped: a decaying oscillation at ωd.
      let omegaD = omega * (1 - zeta * zeta).squareRoot()
      let decay = exp(-zeta * omega * t)
      return -decay * (cos(omegaD * t) + zeta * omega / omegaD * sin(omegaD * t))
    } else if zeta == 1 {
      return -(1 + omega * t) * exp(-omega * t)
    } else {
      // Overdamped: two decaying exponentials, r1 the slower.
      let root = (zeta * zeta - 1).squareRoot()
      let r1 = -omega * (zeta - root)
      let r2 = -omega * (zeta + root)
      let a = -r2 / (r2 - r1)
      let b = r1 / (r2 - r1)
      return a * exp(r1 * t) + b * exp(r2 * t)
    }
  }

  /// How far from 1 a settled spring may still be, as a share of the whole move:
  /// 1/4096, a tenth of a pixel over a 400-pixel move.
  public static let settleTolerance = 1.0 / 4096

  /// When the transition is over, in seconds: `duration` for a Bézier or a line;
  /// for a spring, the time after which its displacement stays within
  /// `settleTolerance` of 1 (from a bound on its envelope, so never early).
  public var settleTime: Double {
    switch self {
    case .linear(let duration), .bezier(let duration, _, _, _, _): return duration
    case .spring:
      guard let (k, _, zeta) = springConstants else { return 0 }
      let omega = k.squareRoot()
      let envelope: (Double) -> Double
      if zeta < 1 {
        // |u| ≤ e^(−ζωt) · √(1 + (ζω/ωd)²) = e^(−ζωt) / √(1 − ζ²).
        let scale = 1 / (1 - zeta * zeta).squareRoot()
        envelope = { t in scale * exp(-zeta * omega * t) }
      } else {
        // Critical and overdamped springs approach 1 without crossing: |u| itself.
        envelope = { t in abs(springDisplacement(at: t)) }
      }
      // The envelope decreases: double, then bisect, to where it meets the tolerance.
      var high = max(1e-3, 1 / omega)
      while envelope(high) > Self.settleTolerance && high < 1e6 { high *= 2 }
      var low = 0.0
      for _ in 0..<80 {
        let mid = (low + high) / 2
        if envelope(mid) > Self.settleTolerance { low = mid } else { high = mid }
      }
      return high
    }
  }

  /// One coordinate of a Bézier from 0 to 1 with control values c1, c2 at s.
  static func bezierCoordinate(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * c1 + 3 * u * s * s * c2 + s * s * s
  }

  /// The parameter s where the Bézier's x is `x` (x1, x2 in 0…1, so x(s) is
  /// monotonic): Newton's method, with bisection where it strays.
  static func bezierParameter(forX x: Double, _ x1: Double, _ x2: Double) -> Double {
    var low = 0.0
    var high = 1.0
    var s = x
    for _ in 0..<64 {
      let value = bezierCoordinate(s, x1, x2) - x
      if abs(value) < 1e-13 { return s }
      if value > 0 { high = s } else { low = s }
      let u = 1 - s
      let slope = 3 * u * u * x1 + 6 * u * s * (x2 - x1) + 3 * s * s * (1 - x2)
      let next = s - value / slope
      s = slope > 1e-9 && next > low && next < high ? next : (low + high) / 2
    }
    return s
  }

  /// Throws `invalidParameter` naming `jsonPath` unless the curve can run: a
  /// duration above 0 and finite, a bounce in (−1, 1), Bézier x controls in 0…1.
  public func validate(at jsonPath: String? = nil) throws {
    func fail(_ message: String, _ field: String) -> GlassError {
      GlassError(
        .invalidParameter, message,
        at: jsonPath.map { GlassError.Location(jsonPath: $0 + "." + field) })
    }
    let duration: Double
    switch self {
    case .linear(let d): duration = d
    case .bezier(let d, let x1, _, let x2, _):
      duration = d
      for (name, x) in [("x1", x1), ("x2", x2)] where !(x >= 0 && x <= 1) {
        throw fail("\(ParameterSpec.format(x)) is out of range; give a value from 0 to 1", name)
      }
    case .spring(let d, let bounce):
      duration = d
      guard bounce > -1 && bounce < 1 else {
        throw fail(
          "\(ParameterSpec.format(bounce)) is out of range; give a value greater than -1 and less than 1 "
            + "(0 is no bounce, 0.3 is .bouncy)", "bounce")
      }
    }
    guard duration.isFinite && duration > 0 && duration <= 60 else {
      throw fail(
        "\(ParameterSpec.format(duration)) s is \(duration <= 0 ? "not positive" : "too long"); "
          + "give a duration above 0 and at most 60 s", "duration")
    }
  }
}
