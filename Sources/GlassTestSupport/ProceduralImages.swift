import Foundation
import GLESGlass

/// Deterministic test and demo images, drawn by code: the project's own pixels.
public enum ProceduralImages {
  /// Vertical stripes of `period` pixels, two colours.
  public static func stripes(width: Int, height: Int, period: Int = 3) -> RGBAImage {
    RGBAImage(width: width, height: height) { x, _ in
      (x / max(1, period / 2 + period % 2)) % 2 == 0 ? SIMD4(250, 40, 10, 255) : SIMD4(5, 20, 200, 255)
    }
  }

  /// A checkerboard of `cell`-pixel squares, black and white.
  public static func checker(width: Int, height: Int, cell: Int = 2) -> RGBAImage {
    RGBAImage(width: width, height: height) { x, y in
      (x / cell + y / cell) % 2 == 0 ? SIMD4(255, 255, 255, 255) : SIMD4(0, 0, 0, 255)
    }
  }

  /// Smooth gradients in every channel with a few hard edges.
  public static func gradient(width: Int, height: Int) -> RGBAImage {
    RGBAImage(width: width, height: height) { x, y in
      let r = UInt8(255 * x / max(1, width - 1))
      let g = UInt8(255 * y / max(1, height - 1))
      let b: UInt8 = (x + 2 * y) % 11 < 3 ? 255 : 30
      return SIMD4(r, g, b, 255)
    }
  }

  /// Seeded noise in every channel, alpha too when `alpha` (never fully opaque then).
  public static func noise(width: Int, height: Int, seed: UInt64 = 1, alpha: Bool = false) -> RGBAImage {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func next() -> UInt8 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return UInt8(truncatingIfNeeded: state >> 24)
    }
    return RGBAImage(width: width, height: height) { _, _ in
      SIMD4(next(), next(), next(), alpha ? next() : 255)
    }
  }

  /// A photo-like landscape: sky, sun, layered ridges of fractal noise, a lake
  /// that reflects them with ripples, and a grassy shore. Deterministic.
  public static func landscape(width: Int, height: Int) -> RGBAImage {
    let noise = ValueNoise(seed: 7)
    let horizon = 0.62
    func sky(_ u: Double, _ v: Double) -> SIMD3<Double> {
      let top = SIMD3(0.10, 0.28, 0.62)
      let low = SIMD3(0.98, 0.72, 0.48)
      let t = pow(min(1, v / horizon), 1.6)
      var c = top + (low - top) * t
      let sun = SIMD2(0.68, 0.40)
      let du = u - sun.x
      let dv = v - sun.y
      let d = (3 * du * du + 3 * dv * dv).squareRoot()
      let glow: Double = exp(-d * d * 900) * 1.2 + exp(-d * 9) * 0.35
      c += SIMD3(1.0, 0.85, 0.55) * glow
      let cloud = noise.fractal(u * 6, v * 18, octaves: 5)
      c += SIMD3(1, 0.9, 0.85) * max(0, cloud - 0.55) * 1.4 * (1 - t)
      return c
    }
    func ridge(_ u: Double, _ layer: Int) -> Double {
      let base = [0.42, 0.50, 0.57][layer]
      let amp = [0.16, 0.10, 0.06][layer]
      return base - amp * noise.fractal(u * Double(3 + 2 * layer) + Double(layer) * 17, Double(layer) * 5.3, octaves: 6)
    }
    let ridgeColors = [SIMD3(0.36, 0.40, 0.56), SIMD3(0.20, 0.30, 0.34), SIMD3(0.10, 0.20, 0.14)]
    func scene(_ u: Double, _ v: Double) -> SIMD3<Double> {
      var c = sky(u, v)
      for layer in 0..<3 where v > ridge(u, layer) {
        let shade = 0.75 + 0.5 * noise.fractal(u * 40, v * 40 + Double(layer), octaves: 4)
        let haze = Double(2 - layer) * 0.18
        c = ridgeColors[layer] * shade * (1 - haze) + SIMD3(0.85, 0.75, 0.70) * haze
      }
      return c
    }
    return RGBAImage(width: width, height: height) { x, y in
      let u = (Double(x) + 0.5) / Double(width)
      let v = (Double(y) + 0.5) / Double(height)
      var c: SIMD3<Double>
      if v < horizon {
        c = scene(u, v)
      } else if v < 0.84 + 0.04 * noise.fractal(u * 8, 3, octaves: 3) {
        // The lake mirrors the scene above the horizon, rippled and darkened.
        let ripple = 0.004 * sin(v * 900 + noise.fractal(u * 30, v * 60, octaves: 3) * 6)
        c = scene(u + ripple, 2 * horizon - v) * SIMD3(0.62, 0.72, 0.80)
        c += SIMD3(repeating: 0.05 * noise.fractal(u * 200, v * 800, octaves: 2))
      } else {
        let grass = noise.fractal(u * 120, v * 30, octaves: 5)
        c = SIMD3(0.16, 0.34, 0.10) * (0.6 + 0.8 * grass) + SIMD3(0.25, 0.20, 0.05) * (v - 0.84) * 2
      }
      func byte(_ l: Double) -> UInt8 { UInt8((SRGB.encode(max(0, min(1, l))) * 255 + 0.5).rounded(.down)) }
      return SIMD4(byte(c.x * c.x), byte(c.y * c.y), byte(c.z * c.z), 255)
    }
  }
}

/// Smooth value noise on a lattice, summed over octaves into [0, 1].
struct ValueNoise {
  let seed: UInt64

  func lattice(_ x: Int, _ y: Int) -> Double {
    var h =
      UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= seed &* 0x1656_67B1_9E37_79F9
    h ^= h >> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    h ^= h >> 32
    return Double(h & 0xFFFF) / 65535
  }

  func value(_ x: Double, _ y: Double) -> Double {
    let xi = Int(x.rounded(.down))
    let yi = Int(y.rounded(.down))
    let fx = x - Double(xi)
    let fy = y - Double(yi)
    let sx = fx * fx * (3 - 2 * fx)
    let sy = fy * fy * (3 - 2 * fy)
    let a = lattice(xi, yi) + (lattice(xi + 1, yi) - lattice(xi, yi)) * sx
    let b = lattice(xi, yi + 1) + (lattice(xi + 1, yi + 1) - lattice(xi, yi + 1)) * sx
    return a + (b - a) * sy
  }

  func fractal(_ x: Double, _ y: Double, octaves: Int) -> Double {
    var sum = 0.0
    var amplitude = 0.5
    var frequency = 1.0
    var total = 0.0
    for _ in 0..<octaves {
      sum += amplitude * value(x * frequency, y * frequency)
      total += amplitude
      amplitude *= 0.5
      frequency *= 2
    }
    return sum / total
  }
}
