import Foundation
import GLESGlass

/// Photo-like pictures drawn by code, for demos: colourful detail that shows
/// blur and refraction through glass.
public enum ProceduralPhotos {
  /// A meadow of flowers with a shallow depth of field: a hazy sky and a
  /// defocused treeline with bokeh discs over a green field; far flowers as soft
  /// dots of colour, sharp poppies, cosmos and daisies on curved stems nearer,
  /// in saturated reds, oranges, yellows, pinks, purples, blues and whites.
  /// Opaque, deterministic; drawn in parallel bands of rows.
  public static func flowers(width: Int, height: Int) -> RGBAImage {
    let pixels = MeadowRenderer(width: width, height: height).render()
    return RGBAImage(width: width, height: height) { x, y in pixels[y * width + x] }
  }
}

// MARK: - Meadow

private typealias V = SIMD3<Double>

@inline(__always)
private func mix(_ a: V, _ b: V, _ t: Double) -> V { a + (b - a) * t }

@inline(__always)
private func clamp01(_ x: Double) -> Double { min(1, max(0, x)) }

@inline(__always)
private func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
  let t = clamp01((x - e0) / (e1 - e0))
  return t * t * (3 - 2 * t)
}

/// SplitMix64: a small seeded generator, the same sequence for the same seed on
/// every machine (the procedural pictures, the benchmarks' per-job choices).
public struct SplitMix {
  /// The generator's state; the seed.
  public var state: UInt64

  /// A generator seeded with `state`.
  public init(state: UInt64) { self.state = state }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in `a..<b`.
  public mutating func uniform(_ a: Double, _ b: Double) -> Double {
    a + (b - a) * Double(next() >> 11) / Double(1 << 53)
  }
}

/// One flower: a head of petals around a disc, on a curved stem with a leaf.
private struct Flower {
  var center: SIMD2<Double>
  /// Head radius and its vertical squash (the head seen from a little above).
  var radius: Double
  var tilt: Double
  var rotation: Double
  var petals: Double
  /// Petal outline: `base + (1 - base) * |cos(n θ / 2)|^sharpness`.
  var base: Double
  var sharpness: Double
  var color: V
  var discRadius: Double
  var discColor: V
  /// Edge width: one pixel when in focus, more when defocused.
  var soft: Double
  var stem: Double
  var sway: Double
  var leaf: Double
}

/// A disc of defocused light, added to what lies behind.
private struct Bokeh {
  var center: SIMD2<Double>
  var radius: Double
  var color: V
}

/// The meadow, drawn in linear light in scene coordinates: `Y` from 0 at the
/// top to 1 at the bottom, `X` in the same units, so the composition keeps at
/// any size.
private struct MeadowRenderer {
  let width: Int
  let height: Int
  let aspect: Double
  let px: Double
  let noise = GradientNoise(seed: 11)
  let sun: SIMD2<Double>
  var bokeh: [Bokeh] = []
  var flowers: [Flower] = []

  static let palette: [V] = [
    V(0.92, 0.03, 0.03),  // poppy red
    V(1.00, 0.28, 0.01),  // orange
    V(1.00, 0.72, 0.02),  // yellow
    V(0.85, 0.03, 0.38),  // magenta
    V(1.00, 0.30, 0.55),  // pink
    V(0.42, 0.08, 0.80),  // purple
    V(0.10, 0.25, 1.00),  // blue
    V(0.92, 0.92, 0.88),  // white
  ]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    aspect = Double(width) / Double(max(1, height))
    px = 1 / Double(max(1, height))
    sun = SIMD2(aspect * 0.78, 0.08)
    var random = SplitMix(state: 2024)
    placeBokeh(&random)
    placeFlowers(&random)
  }

  mutating func placeBokeh(_ random: inout SplitMix) {
    let colors: [V] = [
      V(1.0, 0.85, 0.55), V(1.0, 0.70, 0.30), V(0.70, 1.0, 0.35), V(1.0, 0.55, 0.65), V(1.0, 0.95, 0.85),
    ]
    // Sunlight through the distant leaves and off the far field: discs along the treeline.
    let count = Int(30 * aspect)
    for _ in 0..<count {
      let x = random.uniform(-0.05, aspect + 0.05)
      let y = 0.33 + 0.09 * (random.uniform(0, 1) + random.uniform(0, 1) - 1)
      let near = exp(-pow((x - sun.x) / 0.7, 2)) * 0.7 + 0.3
      let color = colors[Int(random.next() % UInt64(colors.count))] * random.uniform(0.05, 0.3) * near
      bokeh.append(Bokeh(center: SIMD2(x, y), radius: random.uniform(0.012, 0.05), color: color))
    }
  }

  mutating func placeFlowers(_ random: inout SplitMix) {
    // Depth 0 (far) to 1 (near): far ones small, high and soft; the middle in focus.
    let counts = [(Int(260 * aspect), 0.0, 0.3), (Int(55 * aspect), 0.3, 0.75), (Int(9 * aspect), 0.75, 1.0)]
    var all: [(depth: Double, flower: Flower)] = []
    for (count, from, to) in counts {
      for _ in 0..<count {
        let z = random.uniform(from, to)
        let y = 0.40 + 0.5 * z + random.uniform(-0.04, 0.06) + (z > 0.75 ? random.uniform(0, 0.1) : 0)
        let x = random.uniform(-0.05, aspect + 0.05)
        let radius = 0.006 + 0.11 * pow(z, 2.2) * random.uniform(0.7, 1.2)
        let kind = random.next() % 3
        let color = Self.palette[Int(random.next() % UInt64(Self.palette.count))] * random.uniform(0.8, 1.05)
        var flower = Flower(
          center: SIMD2(x, y), radius: radius, tilt: random.uniform(0.55, 0.95), rotation: random.uniform(0, 7),
          petals: 5, base: 0.55, sharpness: 0.5, color: color, discRadius: 0.22,
          discColor: V(1.0, 0.62, 0.02), soft: px, stem: 0, sway: random.uniform(-0.12, 0.12),
          leaf: random.uniform(0, 1))
        switch kind {
        case 0:  // Poppy: five broad petals, a dark disc.
          flower.petals = [4, 5][Int(random.next() % 2)]
          flower.base = 0.7
          flower.sharpness = 0.4
          flower.discRadius = 0.2
          flower.discColor = V(0.02, 0.015, 0.02)
        case 1:  // Cosmos: eight petals with notched tips.
          flower.petals = 8
          flower.base = 0.45
          flower.sharpness = 0.7
          flower.discRadius = 0.2
        default:  // Daisy: many slender petals.
          flower.petals = Double(12 + Int(random.next() % 8))
          flower.base = 0.25
          flower.sharpness = 1.6
          flower.discRadius = 0.27
        }
        // Focus is on the middle distance.
        let defocus = z < 0.3 ? 0.004 * (1 - z / 0.3) + 0.0015 : max(0, z - 0.88) * 0.03
        flower.soft = px + defocus
        flower.stem = max(0.7 * px, radius * 0.07)
        all.append((z, flower))
      }
    }
    flowers = all.sorted { $0.depth < $1.depth }.map(\.flower)
  }

  // MARK: Background

  func background(_ X: Double, _ Y: Double) -> V {
    // Sky: deep blue overhead, pale haze low down, a warm glow toward the sun.
    let t = clamp01(Y / 0.34)
    var c = mix(V(0.03, 0.16, 0.62), V(0.42, 0.64, 0.92), pow(t, 1.5))
    let ds = ((X - sun.x) * (X - sun.x) + (Y - sun.y) * (Y - sun.y)).squareRoot()
    let glow: Double = 0.5 * exp(-ds * 4) + 1.0 * exp(-ds * 16)
    c += V(1.0, 0.72, 0.35) * glow
    let cloud = noise.fbm(X * 1.4 + 3.1, Y * 4.5, octaves: 3)
    c = mix(c, V(0.92, 0.90, 0.92), 0.45 * smoothstep(0.02, 0.3, cloud) * (1 - 0.7 * t))
    // The treeline far off, out of focus: dark soft crowns, sun glinting through them.
    let crown = 0.27 + 0.05 * noise.fbm(X * 2.8 + 7.7, 1.3, octaves: 3) + 0.015 * noise.gradient(X * 9, 4.2)
    let tree = smoothstep(crown - 0.02, crown + 0.02, Y)
    let leaves = noise.fbm(X * 6 + 2.5, Y * 6, octaves: 3)
    let shine: Double = 0.5 * exp(-ds * 2.2) * smoothstep(0.08, 0.3, leaves)
    let foliage = mix(V(0.012, 0.04, 0.015), V(0.10, 0.20, 0.03), clamp01(0.5 + 2.5 * leaves))
    c = mix(c, foliage + V(1.0, 0.75, 0.3) * shine, tree)
    // The field: hazy yellow-green far, deep green near, in patches.
    let fieldTop = 0.40 + 0.02 * noise.fbm(X * 2.1 + 1.1, 9.5, octaves: 3)
    let field = smoothstep(fieldTop - 0.015, fieldTop + 0.015, Y)
    if field > 0 {
      let depth = clamp01((Y - fieldTop) / (1 - fieldTop))
      let patches = noise.fbm(X * 2.5 / (0.3 + depth) + 5, Y * 8 / (0.3 + depth), octaves: 4)
      var g = mix(V(0.15, 0.28, 0.035), V(0.016, 0.075, 0.01), pow(depth, 0.6))
      g = mix(g, V(0.30, 0.36, 0.03), clamp01(0.5 + 2.5 * patches) * (0.45 - 0.3 * depth))
      g *= 0.7 + 0.6 * clamp01(0.5 - 2 * patches)
      // Blades come into focus toward the bottom: two sets of thin leaning streaks.
      let f = 60 + 240 * depth * depth
      let lean = Y - fieldTop
      let n1 = noise.gradient((X + 0.25 * lean) * f, Y * f / 9)
      let n2 = noise.gradient((X - 0.2 * lean) * f * 1.3 + 17, Y * f / 7)
      let blades = pow(1 - abs(n1), 8) + pow(1 - abs(n2), 8)
      let lit: Double = 0.8 + (0.06 + 1.3 * depth * depth) * blades
      g *= lit
      g += V(0.55, 0.45, 0.12) * (0.3 * exp(-ds * 2) * (1 - depth))
      c = mix(c, g, field)
    }
    return c
  }

  // MARK: Drawing

  /// Adds the bokeh discs that cover (X, Y).
  func addBokeh(_ c: inout V, _ X: Double, _ Y: Double, _ discs: [Bokeh]) {
    for b in discs {
      let d = ((X - b.center.x) * (X - b.center.x) + (Y - b.center.y) * (Y - b.center.y)).squareRoot()
      guard d < b.radius + 2 * px else { continue }
      let edge = clamp01((b.radius - d) / (1.5 * px + 0.08 * b.radius) + 0.5)
      let rim = 0.85 + 0.3 * pow(d / b.radius, 6)
      c += b.color * (edge * rim)
    }
  }

  /// Draws the stem and leaf of `f` in rows `rows`, columns clipped to the picture.
  func drawStem(_ f: Flower, rows: Range<Int>, into out: UnsafeMutablePointer<V>) {
    let bottom = 1.05
    let length = bottom - f.center.y
    guard length > 0 else { return }
    let firstRow = max(rows.lowerBound, Int(f.center.y / px))
    guard firstRow < rows.upperBound else { return }
    let halfWidth = f.stem / 2
    let light = V(0.16, 0.36, 0.05)
    let dark = V(0.015, 0.06, 0.01)
    // The leaf: a pointed blade leaving the stem partway down, to one side.
    let leafAt = f.center.y + length * (0.35 + 0.3 * f.leaf)
    let side: Double = f.leaf > 0.5 ? 1 : -1
    let leafLength = f.radius * 2.6
    let leafAngle = side * (0.6 + 0.6 * f.leaf)
    let leafDir = SIMD2(sin(leafAngle), -cos(leafAngle))
    let leafOrigin = SIMD2(stemX(f, leafAt, length), leafAt)
    let leafWidth = f.radius * 0.26
    for y in firstRow..<rows.upperBound {
      let Y = (Double(y) + 0.5) * px
      let t = (Y - f.center.y) / length
      let cx = stemX(f, Y, length)
      // The leaf's reach beyond the stem on this row.
      let reach = Y < leafOrigin.y + px && Y > leafOrigin.y - leafLength ? leafLength : 0
      let x0 = max(0, Int((cx - halfWidth - f.soft - reach) / px) - 1)
      let x1 = min(width - 1, Int((cx + halfWidth + f.soft + reach) / px) + 1)
      guard x0 <= x1 else { continue }
      for x in x0...x1 {
        let X = (Double(x) + 0.5) * px
        let i = y * width + x
        if reach > 0 {
          let q = SIMD2(X, Y) - leafOrigin
          let u = (q * leafDir).sum() / leafLength
          let v = q.x * leafDir.y - q.y * leafDir.x
          if u > 0, u < 1 {
            let half = leafWidth * sin(.pi * pow(u, 0.8))
            let a = clamp01((half - abs(v)) / f.soft + 0.5)
            if a > 0 {
              let vein = clamp01(abs(v) / max(px, half))
              let col = mix(dark, light, 0.35 + 0.45 * vein * (v * side > 0 ? 1 : 0.5)) * (0.8 + 0.4 * u)
              out[i] = mix(out[i], col, a)
            }
          }
        }
        let off = X - cx
        let a = clamp01((halfWidth - abs(off)) / f.soft + 0.5)
        guard a > 0 else { continue }
        let across = clamp01(0.5 + off / max(px, 2 * halfWidth))
        let col = mix(light, dark, across) * (1 - 0.4 * t)
        out[i] = mix(out[i], col, a)
      }
    }
  }

  @inline(__always)
  func stemX(_ f: Flower, _ Y: Double, _ length: Double) -> Double {
    let t = (Y - f.center.y) / length
    return f.center.x + f.sway * t * t
  }

  /// Draws the head of `f` in rows `rows`.
  func drawHead(_ f: Flower, rows: Range<Int>, into out: UnsafeMutablePointer<V>) {
    let ry = f.radius * f.tilt
    let y0 = max(rows.lowerBound, Int((f.center.y - ry - f.soft) / px) - 1)
    let y1 = min(rows.upperBound - 1, Int((f.center.y + ry + f.soft) / px) + 1)
    let x0 = max(0, Int((f.center.x - f.radius - f.soft) / px) - 1)
    let x1 = min(width - 1, Int((f.center.x + f.radius + f.soft) / px) + 1)
    guard y0 <= y1, x0 <= x1 else { return }
    let toSun = SIMD2(sun.x - f.center.x, sun.y - f.center.y)
    let light = toSun / max(1e-6, (toSun * toSun).sum().squareRoot())
    let tint = mix(f.color, V(1, 1, 1), 0.25)
    let deep = f.color * f.color * 0.55
    for y in y0...y1 {
      let Y = (Double(y) + 0.5) * px
      for x in x0...x1 {
        let X = (Double(x) + 0.5) * px
        // Into the flower's own plane: unsquash, then measure in head radii.
        let q = SIMD2((X - f.center.x) / f.radius, (Y - f.center.y) / ry)
        let rho = (q * q).sum().squareRoot()
        let theta = atan2(q.y, q.x) + f.rotation
        let s = abs(cos(f.petals * theta / 2))
        let edge = f.base + (1 - f.base) * pow(s, f.sharpness)
        // A notch at each petal's tip, a little ruffle.
        let notch = 0.06 * pow(s, 40)
        let outline = edge - notch + 0.02 * sin(theta * 23 + f.rotation * 5)
        let d = (rho - outline) * f.radius * (0.55 + 0.45 * f.tilt)
        let a = clamp01(0.5 - d / f.soft)
        guard a > 0 else { continue }
        let i = y * width + x
        // Petals: deep at the heart, pale at the tips, darker in the folds between,
        // fine veins, lit from the sun's side.
        var col = mix(deep, f.color, smoothstep(0.1, 0.65, rho / outline))
        col = mix(col, tint, smoothstep(0.7, 1.0, rho / outline) * 0.6)
        col *= 0.55 + 0.45 * smoothstep(0.0, 0.35, s)
        col *= 0.9 + 0.1 * sin(theta * f.petals * 7)
        col *= 0.85 + 0.3 * clamp01(0.5 + 0.5 * (q * light).sum())
        // The disc: domed, speckled with stamens, bright on the lit side.
        let disc = f.discRadius
        let da = clamp01(0.5 - (rho - disc) * f.radius / f.soft)
        if da > 0 {
          let dome = clamp01(0.55 + 0.6 * (q * light).sum() / disc)
          let speck = noise.gradient(q.x * 28 + f.rotation * 13, q.y * 28)
          var dc = f.discColor * (0.45 + 0.9 * dome) * (0.85 + 0.3 * speck)
          // Poppies: a ring of yellow stamens round the dark disc.
          if f.discColor.x < 0.1 {
            let ring = exp(-pow((rho - disc * 0.85) / (disc * 0.15), 2)) * max(0, speck + 0.3)
            dc = mix(dc, V(0.9, 0.7, 0.05), clamp01(ring * 1.5))
          }
          col = mix(col, dc, da)
        }
        out[i] = mix(out[i], col, a)
      }
    }
  }

  // MARK: Rendering

  func render() -> [SIMD4<UInt8>] {
    guard width > 0, height > 0 else { return [] }
    var linear = [V](repeating: .zero, count: width * height)
    let bands = max(1, min(height, 4 * ProcessInfo.processInfo.activeProcessorCount))
    linear.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let target = BandPointer(base: base)
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        let rows = (height * band / bands)..<(height * (band + 1) / bands)
        let top = (Double(rows.lowerBound) - 2) * px
        let bottom = (Double(rows.upperBound) + 2) * px
        let discs = bokeh.filter { $0.center.y + $0.radius > top && $0.center.y - $0.radius < bottom }
        for y in rows {
          let Y = (Double(y) + 0.5) * px
          for x in 0..<width {
            let X = (Double(x) + 0.5) * px
            var c = background(X, Y)
            addBokeh(&c, X, Y, discs)
            target.base[y * width + x] = c
          }
        }
        for f in flowers {
          if f.radius > 0.012 { drawStem(f, rows: rows, into: target.base) }
          drawHead(f, rows: rows, into: target.base)
        }
        for y in rows {
          for x in 0..<width { target.base[y * width + x] = finish(target.base[y * width + x], x: x, y: y) }
        }
      }
    }
    return linear.map { c in SIMD4(UInt8(c.x), UInt8(c.y), UInt8(c.z), 255) }
  }

  /// Vignette, a touch more colour, a filmic curve and grain; returns 0...255 codes.
  func finish(_ color: V, x: Int, y: Int) -> V {
    let X = (Double(x) + 0.5) * px
    let Y = (Double(y) + 0.5) * px
    let vx = (X - aspect / 2) / (aspect / 2)
    let vy = Y * 2 - 1
    var c = color * (1 - 0.12 * (vx * vx + vy * vy))
    let luma = (c * V(0.2126, 0.7152, 0.0722)).sum()
    c = V(repeating: luma) + (c - V(repeating: luma)) * 1.1
    let grain = (Double(noise.hash(x, y &+ 31) & 0xFFFF) / 65535 - 0.5) * 0.012
    func code(_ l: Double) -> Double {
      let m = max(0, l * 1.1)
      let t = (m * (2.51 * m + 0.03)) / (m * (2.43 * m + 0.59) + 0.14)
      return (max(0, min(255, (SRGB.encode(t) + grain) * 255 + 0.5))).rounded(.down)
    }
    return V(code(c.x), code(c.y), code(c.z))
  }
}

/// A buffer that bands of rows fill in parallel, each its own rows.
private struct BandPointer: @unchecked Sendable {
  let base: UnsafeMutablePointer<V>
}
