import Foundation
import Testing

@testable import GLESGlass

/// Timing curves against their definitions, computed here another way: the
/// spring by integrating its differential equation, the Béziers by sampling the
/// parametric curve.
@Suite("Math: timing curves")
struct TimingCurveTests {
  /// x(t) of x'' = −k (x − 1) − c x' from rest at 0, by classical Runge–Kutta
  /// with a step of 10 µs (the error is far below 1e-9 at these stiffnesses).
  static func integratedSpring(duration: Double, bounce: Double, times: [Double]) -> [Double] {
    let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    let k = pow(2 * Double.pi / duration, 2)
    let c = 4 * Double.pi * zeta / duration
    func acceleration(_ x: Double, _ v: Double) -> Double { -k * (x - 1) - c * v }
    var (x, v, t) = (0.0, 0.0, 0.0)
    var results: [Double] = []
    for target in times.sorted() {
      // Steps of 10 µs, the last one shortened to land on the target time.
      while t < target {
        let h = min(1e-5, target - t)
        let (k1x, k1v) = (v, acceleration(x, v))
        let (k2x, k2v) = (v + h / 2 * k1v, acceleration(x + h / 2 * k1x, v + h / 2 * k1v))
        let (k3x, k3v) = (v + h / 2 * k2v, acceleration(x + h / 2 * k2x, v + h / 2 * k2v))
        let (k4x, k4v) = (v + h * k3v, acceleration(x + h * k3x, v + h * k3v))
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        t = h < 1e-5 ? target : t + h
      }
      results.append(x)
    }
    return results
  }

  static let springs: [(Double, Double)] = [
    (0.5, 0), (0.5, 0.15), (0.5, 0.3), (0.3, 0.7), (1.2, 0.05), (0.5, -0.4), (0.8, -0.9),
  ]

  @Test("a spring's closed form matches its differential equation within 1e-6", arguments: 0..<7)
  func springMatchesODE(_ index: Int) {
    let (duration, bounce) = Self.springs[index]
    let curve = TimingCurve.spring(duration: duration, bounce: bounce)
    let settle = curve.settleTime
    let times = (1...60).map { Double($0) / 60 * min(settle, 3) }
    let expected = Self.integratedSpring(duration: duration, bounce: bounce, times: times)
    for (t, x) in zip(times, expected) {
      let closed = 1 + curve.springDisplacement(at: t)
      #expect(abs(closed - x) < 1e-6, "spring(\(duration), \(bounce)) at \(t) s: \(closed), integrated \(x)")
    }
  }

  @Test("a spring's period is its duration, and bounce sets the damping ratio as SwiftUI documents")
  func springConstants() throws {
    let (k, c, zeta) = try #require(TimingCurve.spring(duration: 0.5, bounce: 0.3).springConstants)
    #expect(abs(2 * Double.pi / k.squareRoot() - 0.5) < 1e-12)
    #expect(abs(zeta - 0.7) < 1e-12 && abs(c - 2 * 0.7 * k.squareRoot()) < 1e-9)
    #expect(abs(try #require(TimingCurve.spring(duration: 1, bounce: -0.5).springConstants).dampingRatio - 2) < 1e-12)
    #expect(TimingCurve.snappy == .spring(duration: 0.5, bounce: 0.15))
    #expect(TimingCurve.bouncy == .spring(duration: 0.5, bounce: 0.3))
    #expect(TimingCurve.smooth == .spring(duration: 0.5, bounce: 0))
  }

  @Test("after its settle time a spring stays within the tolerance of 1, and not long before it is outside it")
  func springSettles() {
    for (duration, bounce) in Self.springs {
      let curve = TimingCurve.spring(duration: duration, bounce: bounce)
      let settle = curve.settleTime
      // A negative bounce overdamps: ζ = 10 at -0.9 creeps in over about 26 durations.
      #expect(
        settle > 0 && settle < (bounce < -0.5 ? 40 : 8) * duration,
        "spring(\(duration), \(bounce)) settles at \(settle)")
      for i in 0...2000 {
        let t = settle * (1 + Double(i) / 500)
        #expect(abs(curve.springDisplacement(at: t)) <= TimingCurve.settleTolerance + 1e-15)
      }
      #expect(curve.progress(at: settle) == 1 && curve.progress(at: 0) == 0)
      // The bound is not loose by more than a few periods: some time in the
      // last 40 % of the settle time the spring was still outside the tolerance.
      let late = (0..<400).map { settle * (0.6 + 0.4 * Double($0) / 400) }
      #expect(late.contains { abs(curve.springDisplacement(at: $0)) > TimingCurve.settleTolerance / 3 })
    }
    // A bouncy spring overshoots 1; one with no bounce never does.
    let bouncy = (1..<200).map { TimingCurve.bouncy.progress(at: Double($0) / 200) }
    #expect(bouncy.max() ?? 0 > 1.01)
    let smooth = (1..<200).map { TimingCurve.smooth.progress(at: Double($0) / 200) }
    #expect(smooth.allSatisfy { $0 <= 1 } && zip(smooth, smooth.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test("Béziers pass through the parametric curve, from 0 to exactly 1 at their duration")
  func beziers() {
    for curve in [TimingCurve.easeInOut(), .easeIn(duration: 0.6), .easeOut(duration: 2)] {
      guard case .bezier(let duration, let x1, let y1, let x2, let y2) = curve else { continue }
      // The parametric curve, sampled finely; progress at its x is its y.
      for i in 0...1000 {
        let s = Double(i) / 1000
        func b(_ c1: Double, _ c2: Double) -> Double {
          3 * (1 - s) * (1 - s) * s * c1 + 3 * (1 - s) * s * s * c2 + s * s * s
        }
        let (x, y) = (b(x1, x2), b(y1, y2))
        #expect(abs(curve.progress(at: x * duration) - (x < 1 ? y : 1)) < 1e-9, "\(curve) at s \(s)")
      }
      #expect(curve.progress(at: duration) == 1 && curve.progress(at: 0) == 0 && curve.settleTime == duration)
    }
    let ease = TimingCurve.easeInOut(duration: 1)
    for i in 0...100 {
      let t = Double(i) / 100
      #expect(abs(ease.progress(at: t) + ease.progress(at: 1 - t) - 1) < 1e-9, "ease-in-out is symmetric")
    }
    #expect(TimingCurve.linear(duration: 2).progress(at: 0.5) == 0.25)
  }

  @Test("a curve that cannot run is refused with its JSON path")
  func validation() {
    let cases: [(TimingCurve, String)] = [
      (.spring(duration: 0.5, bounce: 1), "animation.bounce"), (.spring(duration: 0.5, bounce: -1), "animation.bounce"),
      (.spring(duration: -1, bounce: 0), "animation.duration"), (.linear(duration: 0), "animation.duration"),
      (.bezier(duration: 1, x1: 1.5, y1: 0, x2: 0.5, y2: 1), "animation.x1"),
      (.linear(duration: .infinity), "animation.duration"),
    ]
    for (curve, path) in cases {
      let error = #expect(throws: GlassError.self) { try curve.validate(at: "animation") }
      #expect(error?.jsonPath == path, "\(curve): \(String(describing: error))")
    }
    #expect(throws: Never.self) { try TimingCurve.bouncy.validate(at: "animation") }
  }
}
