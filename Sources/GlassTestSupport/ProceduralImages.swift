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

  /// A photo-like mountain lake at golden hour: a low sun in a warm sky with
  /// soft clouds; two ranges of ridged multifractal peaks (the far one hazier
  /// and bluer, snow on the heights, slopes lit from the sun's side, mist in
  /// the valleys) behind forested hills; a lake that mirrors it all about the
  /// far shore, with ripples and a glitter path under the sun; a grassy near
  /// bank with boulders, and spruces at both edges. Deterministic; drawn in
  /// parallel bands of rows.
  public static func landscape(width: Int, height: Int) -> RGBAImage {
    let pixels = LandscapeRenderer(width: width, height: height).render()
    return RGBAImage(width: width, height: height) { x, y in pixels[y * width + x] }
  }
}

// MARK: - Landscape

/// Linear interpolation of colours.
@inline(__always)
private func mix(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ t: Double) -> SIMD3<Double> { a + (b - a) * t }

@inline(__always)
private func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
  let t = min(1, max(0, (x - e0) / (e1 - e0)))
  return t * t * (3 - 2 * t)
}

@inline(__always)
private func clamp01(_ x: Double) -> Double { min(1, max(0, x)) }

/// The landscape, drawn in linear light in scene coordinates: `Y` runs from 0
/// at the top to 1 at the bottom, `X` in the same units from 0 to the aspect
/// ratio, so the picture keeps its composition at any size.
private struct LandscapeRenderer {
  let width: Int
  let height: Int
  let aspect: Double
  /// One pixel in scene units.
  let px: Double
  let noise = GradientNoise(seed: 7)
  /// The lake's far shore: the mirror line.
  let horizon = 0.6
  let sun: SIMD2<Double>
  let sunColor = SIMD3(1.0, 0.60, 0.30)
  let ambient = SIMD3(0.085, 0.12, 0.22)
  /// Spruces at the edges: trunk position, foot, height and half-width.
  let treeSpecs: [(x: Double, base: Double, height: Double, width: Double)]

  /// The far range (its treeline below the picture: bare rock) and the main one.
  var far = MountainRange(
    ribs: 10, seed: 70, sunlight: 1.8, snowline: 0.315, treeline: 2, haze: 0.42, mist: 0.45, mistFrom: 0.36,
    mistTo: 0.5, tint: SIMD3(0.80, 0.92, 1.15), rock: SIMD3(0.10, 0.10, 0.11))
  var main = MountainRange(
    ribs: 14, seed: 40, sunlight: 2.6, snowline: 0.37, treeline: 0.475, haze: 0.12, mist: 0.5, mistFrom: 0.44,
    mistTo: 0.57, tint: SIMD3(1, 1, 1), rock: SIMD3(0.11, 0.09, 0.08))
  // Per column, in scene units: the forested hills' ground and treetops, the
  // near bank's waterline, and the colour of the haze.
  var hillBase: [Double] = []
  var hillCrest: [Double] = []
  var bank: [Double] = []
  var haze: [SIMD3<Double>] = []

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    aspect = Double(width) / Double(height)
    px = 1 / Double(height)
    sun = SIMD2(aspect * 0.72, 0.315)
    treeSpecs = [
      (0.045, 0.735, 0.52, 0.07), (0.15, 0.745, 0.34, 0.05), (0.215, 0.77, 0.19, 0.034),
      (aspect - 0.05, 0.80, 0.45, 0.066), (aspect - 0.135, 0.815, 0.25, 0.042),
    ]
    precomputeColumns()
  }

  @inline(__always) func sceneX(_ x: Int) -> Double { (Double(x) + 0.5) * px }
  @inline(__always) func sceneY(_ y: Int) -> Double { (Double(y) + 0.5) * px }

  mutating func precomputeColumns() {
    let n = width
    far.crest = .init(repeating: 0, count: n)
    main.crest = .init(repeating: 0, count: n)
    hillBase = .init(repeating: 0, count: n)
    hillCrest = .init(repeating: 0, count: n)
    bank = .init(repeating: 0, count: n)
    haze = .init(repeating: .zero, count: n)
    let fine = octaves(forFrequency: 2)
    for x in 0..<n {
      let X = sceneX(x)
      // The far range: tall, sharp, pale.
      far.crest[x] = 0.49 - 0.25 * noise.ridged(X * 1.9 + 31.7, 3.1, octaves: fine)
      // The main range dips into a saddle where the sun sets.
      let saddle = 1 - 0.5 * exp(-pow((X - sun.x) / 0.22, 2))
      let lift = 0.85 + 0.3 * noise.fbm(X * 0.7 + 4.4, 8.8, octaves: 2)
      main.crest[x] = 0.545 - 0.33 * saddle * lift * noise.ridged(X * 1.45 + 5.3, 11.2, octaves: fine)
      let left = exp(-pow(X / 0.30, 2))
      let right = exp(-pow((aspect - X) / 0.22, 2))
      let hills: Double = 0.045 * (noise.fbm(X * 1.7 + 2.2, 19.5, octaves: 5) + 0.5)
      hillBase[x] = 0.574 - hills - 0.03 * left - 0.02 * right
      let shore: Double = 0.03 * noise.fbm(X * 2.2 + 1.7, 23.1, octaves: 6)
      let bay: Double = 0.15 * smoothstep(0.5, 0.0, X + 0.05 * noise.gradient(X * 6, 2.5))
      bank[x] = 0.875 + shore - bay - 0.07 * right
      haze[x] = mix(sky(X, horizon - 0.09, clouds: false) * 0.5, SIMD3(0.16, 0.22, 0.38), 0.35)
    }
    // Tree tops along the forested hills: narrow spruce triangles.
    for x in 0..<n {
      let X = sceneX(x)
      var top = hillBase[x] + 0.004
      let cell = 0.0042
      let k = Int((X / cell).rounded(.down))
      for c in (k - 2)...(k + 2) {
        let h = noise.hash(c, 977)
        let cx = (Double(c) + 0.25 + 0.5 * unit(h)) * cell
        let tall = 0.006 + 0.011 * unit(h >> 17)
        let baseAt = hillBase[min(n - 1, max(0, Int(cx / px)))]
        top = min(top, baseAt - tall + abs(X - cx) * 3.4)
      }
      hillCrest[x] = top
    }
    for i in 0..<2 {
      var prefix = [Double](repeating: 0, count: n + 1)
      let crest = i == 0 ? far.crest : main.crest
      for x in 0..<n { prefix[x + 1] = prefix[x] + crest[x] }
      if i == 0 { far.prefix = prefix } else { main.prefix = prefix }
    }
  }

  /// Octaves of a noise of base `frequency` (per scene unit) worth drawing.
  func octaves(forFrequency frequency: Double, limit: Int = 9) -> Int {
    let pixels = Double(height) / frequency
    return max(1, min(limit, Int(log2(max(2, pixels / 1.5)))))
  }

  @inline(__always) func unit(_ h: UInt64) -> Double { Double(h & 0xFFFF) / 65535 }

  // MARK: Sky

  func sky(_ X: Double, _ Y: Double, clouds: Bool = true) -> SIMD3<Double> {
    let t = clamp01(Y / 0.46)
    let dx = X - sun.x
    let dy = Y - sun.y
    let warmth = exp(-abs(dx) * 1.4)
    let zenith = SIMD3(0.022, 0.060, 0.20)
    let middle = SIMD3(0.20, 0.32, 0.56)
    let horizonColor = mix(SIMD3(0.85, 0.45, 0.28), SIMD3(1.7, 0.80, 0.26), warmth)
    var c = mix(zenith, middle, smoothstep(0, 0.55, t))
    c = mix(c, horizonColor, pow(smoothstep(0.25, 1.05, t), 1.3))
    let d = (dx * dx + dy * dy).squareRoot()
    let halo: Double = 0.8 * exp(-d * 4.5) + 1.2 * exp(-d * 20)
    let bloom: Double = 5 * exp(-d * d * 9000)
    c += sunColor * (halo + bloom)
    if clouds {
      c = cloud(X, Y, over: c, warmth: warmth, sunDistance: d)
      // The disc, over the thin clouds.
      let r = 0.016
      let disc = clamp01((r - d) / px + 0.5)
      c += SIMD3(40, 30, 18) * disc
    }
    return c
  }

  func cloud(_ X: Double, _ Y: Double, over c: SIMD3<Double>, warmth: Double, sunDistance d: Double) -> SIMD3<Double> {
    let band = 0.42 * exp(-pow((Y - 0.15) / 0.10, 2)) + 0.30 * exp(-pow((Y - 0.37) / 0.05, 2)) - 0.30
    guard band > -0.55 else { return c }
    let oct = octaves(forFrequency: 1.4, limit: 7)
    let wx = X * 1.3 + 0.25 * noise.fbm(X * 2.1, Y * 6, octaves: 3)
    let wy = Y * 5.2
    let f = noise.fbm(wx, wy, octaves: oct)
    let density = smoothstep(0.02, 0.25, f + band)
    guard density > 0 else { return c }
    // Light arriving from the sun's side: brighter where the cloud thins toward it.
    let toSun = SIMD2(sun.x - X, sun.y - Y)
    let len = max(1e-6, (toSun * toSun).sum().squareRoot())
    let step = 0.025 / len
    let g = noise.fbm(wx + toSun.x * step * 1.3, wy + toSun.y * step * 5.2, octaves: min(oct, 5))
    let lit = clamp01(0.55 + (f - g) * 3.5)
    let litColor = mix(SIMD3(0.95, 0.46, 0.42), SIMD3(2.2, 1.2, 0.55), warmth) * (0.6 + 2.5 * exp(-d * 5))
    let shade = mix(SIMD3(0.10, 0.09, 0.16), SIMD3(0.35, 0.22, 0.20), warmth)
    let col = mix(shade, litColor, lit * (0.6 + 0.4 * (1 - density)))
    return mix(c, col, density * 0.92)
  }

  // MARK: Mountains

  /// A mountain range: its skyline, and how its faces are drawn.
  struct MountainRange {
    var crest: [Double] = []
    /// Running sums of `crest`, for its mean over any span of columns.
    var prefix: [Double] = []
    /// Frequency of the ribs and gullies down its faces.
    var ribs: Double
    var seed: Double
    var sunlight: Double
    var snowline: Double
    var treeline: Double
    var haze: Double
    var mist: Double
    var mistFrom: Double
    var mistTo: Double
    var tint: SIMD3<Double>
    var rock: SIMD3<Double>
  }

  /// Mean of a range's crest over columns [a, b).
  @inline(__always) func crestMean(_ range: MountainRange, _ a: Int, _ b: Int) -> Double {
    let lo = max(0, min(width - 1, a))
    let hi = max(lo + 1, min(width, b))
    return (range.prefix[hi] - range.prefix[lo]) / Double(hi - lo)
  }

  func mountain(_ m: MountainRange, x: Int, X: Double, Y: Double) -> SIMD3<Double> {
    let crest = m.crest[x]
    let depth = Y - crest
    // Broad facets: the slope of the crest, smoothed wider further down.
    let w = max(1, Int((0.004 + 0.55 * depth) / px))
    let slope = (crestMean(m, x + 1, x + 1 + w) - crestMean(m, x - w, x)) / (Double(w + 1) * px)
    // Ribs and gullies running down the faces.
    let warp = 0.05 * noise.gradient(X * 5 + m.seed, Y * 4)
    let oct = octaves(forFrequency: m.ribs, limit: 6)
    let rx = (X + warp) * m.ribs
    let ry = (Y - 0.6 * crest) * m.ribs * 0.32 + m.seed
    let r = noise.ridged(rx, ry, octaves: oct)
    let e = 1.5 * px
    let r2 = noise.ridged(rx + e * m.ribs, ry, octaves: oct)
    let dr = (r2 - r) / (e * m.ribs) * 0.35
    let facing = 1.1 * slope + dr
    let detail = noise.fbm(X * 90, Y * 60, octaves: octaves(forFrequency: 90, limit: 4))
    let mid = noise.fbm(X * 28 + m.seed, Y * 18, octaves: 3)
    let light = smoothstep(-0.05, 0.6, facing + 0.15 * detail + 0.5 * mid)
    let strata = noise.fbm(X * 3, Y * 40 + 2 * noise.gradient(X * 2, Y * 3), octaves: 3)
    var albedo = m.rock * (0.55 + clamp01(0.5 + strata + 0.5 * detail + mid))
    // Dark conifers on the lower slopes.
    let treeline = m.treeline + 0.025 * noise.fbm(X * 6, 3.3 + m.seed, octaves: 3)
    let forest = smoothstep(treeline - 0.01, treeline + 0.02, Y + 0.02 * detail) * (1 - 0.5 * clamp01(abs(slope) - 0.8))
    albedo = mix(albedo, SIMD3(0.03, 0.042, 0.036) * (0.8 + detail), forest)
    // Snow on the heights, lying in gullies, sliding off the steepest rock.
    let snowline = m.snowline + 0.04 * noise.fbm(X * 2.5, 7.7 + m.seed, octaves: 3)
    let snowHeight = (snowline - Y) / 0.05 + 1.6 * (0.45 - r) + 0.8 * detail - 0.55 * max(0, abs(slope) - 0.6)
    let snow = smoothstep(0.0, 0.5, snowHeight)
    albedo = mix(albedo, SIMD3(0.80, 0.84, 0.92), snow)
    let sky = ambient * (0.8 + 0.4 * snow) * (0.55 + 1.1 * r + 0.5 * detail)
    var c = albedo * (sunColor * (m.sunlight * light) + sky)
    // Aerial perspective, and mist lying in the valley.
    let mist = m.haze + m.mist * smoothstep(m.mistFrom, m.mistTo, Y)
    c = mix(c, haze[x] * m.tint, mist)
    return c
  }

  /// Rows of spruces on the hills by the far shore.
  func forest(x: Int, X: Double, Y: Double) -> SIMD3<Double> {
    let base = hillBase[x]
    let rowH = 0.0055
    let q = (Y - base) / rowH
    let j0 = Int(q.rounded(.down))
    let cell = 0.0042
    var shade = 0.08
    var lit = 0.0
    var found = false
    for j in stride(from: j0 + 2, through: max(-1, j0 - 1), by: -1) where !found {
      let rowTop = base + Double(j) * rowH
      let k = Int((X / cell + 0.5 * Double(j)).rounded(.down))
      for c in (k - 1)...(k + 1) {
        let h = noise.hash(c, 1201 + j)
        let cx = (Double(c) - 0.5 * Double(j) + 0.25 + 0.5 * unit(h)) * cell
        let tall = 0.007 + 0.010 * unit(h >> 17)
        let top = rowTop - tall
        let off = X - cx
        let inside = (Y - top) - abs(off) * 3.4
        if inside > 0 {
          found = true
          let t = clamp01((Y - top) / tall)
          shade = 0.55 + 0.45 * unit(h >> 33) - 0.35 * t
          lit = off > 0 ? clamp01(1 - inside / (2.5 * px)) : 0
          break
        }
      }
    }
    let detail = noise.fbm(X * 220, Y * 90, octaves: 2)
    let albedo = SIMD3(0.035, 0.055, 0.035) * shade * (0.85 + 0.4 * detail)
    var c = albedo * (sunColor * 1.2 + ambient * 1.5) + sunColor * (0.035 * lit * shade)
    c = mix(c, haze[x], 0.14 + 0.2 * smoothstep(horizon - 0.012, horizon, Y))
    return c
  }

  /// Everything above the lake's far shore.
  func upper(x: Int, y: Int) -> SIMD3<Double> {
    let X = sceneX(x)
    let Y = sceneY(y)
    var c = sky(X, Y)
    func cover(_ crest: Double, _ slope: Double) -> Double {
      clamp01((Y - crest) / (px * (1 + slope * slope).squareRoot()) + 0.5)
    }
    let l = max(0, x - 1)
    let r = min(width - 1, x + 1)
    if Y > far.crest[x] - px {
      let a = cover(far.crest[x], (far.crest[r] - far.crest[l]) / (Double(r - l) * px))
      if a > 0 { c = mix(c, mountain(far, x: x, X: X, Y: Y), a) }
    }
    if Y > main.crest[x] - px {
      let a = cover(main.crest[x], (main.crest[r] - main.crest[l]) / (Double(r - l) * px))
      if a > 0 { c = mix(c, mountain(main, x: x, X: X, Y: Y), a) }
    }
    let hill = hillCrest[x]
    if Y > hill - px {
      let a = cover(hill, (hillCrest[r] - hillCrest[l]) / (Double(r - l) * px))
      if a > 0 { c = mix(c, forest(x: x, X: X, Y: Y), a) }
    }
    return c
  }

  // MARK: Lake and shore

  func water(x: Int, X: Double, Y: Double, upper: [SIMD3<Double>], rows: Int) -> SIMD3<Double> {
    let dy = max(Y - horizon, px * 0.5)
    // Waves on the water plane, seen in perspective.
    let wz = 1 / dy
    let wx = (X - aspect / 2) / dy
    let footprint = px / (dy * dy)
    let oct = max(1, min(5, Int(log2(max(1, 0.35 / (footprint * 1.2))))))
    let ax = wx * 0.75
    let az = wz * 1.3
    let w0 = noise.fbm(ax, az, octaves: oct)
    let e = 0.05
    let gz = (noise.fbm(ax, az + e, octaves: oct) - w0) / e
    let gx = (noise.fbm(ax + e, az, octaves: oct) - w0) / e
    // Mirror about the far shore, displaced by the wave slopes.
    let sy = horizon - dy - 0.03 * gz * dy * min(1, dy * 12) * (1 + 2 * dy)
    let sx = X + 0.003 * gx * dy + 0.0012 * sin(az * 2.3 + 3 * w0) * min(1, dy * 10)
    let fy = max(0, min(Double(rows) - 1, min(horizon - 0.5 * px, sy) / px - 0.5))
    let fx = max(0, min(Double(width) - 1, sx / px - 0.5))
    let iy = Int(fy)
    let ix = Int(fx)
    let ty = fy - Double(iy)
    let tx = fx - Double(ix)
    let i = iy * width + ix
    let right = ix + 1 < width ? 1 : 0
    let top = mix(upper[i], upper[i + right], tx)
    let bottom = mix(upper[i + width], upper[i + width + right], tx)
    let reflected = mix(top, bottom, ty)
    // Fresnel: a mirror at grazing angles, darker and clearer up close.
    let angle = min(1.2, dy * 0.9 + 0.04 * gz)
    let cosine = sin(max(0.01, angle))
    let fresnel = 0.04 + 0.96 * pow(1 - cosine, 5)
    let reflectance = 0.12 + 0.74 * fresnel
    let body = SIMD3(0.010, 0.022, 0.026) * (1 + 0.5 * w0)
    var c = body * (1 - reflectance) + reflected * reflectance
    // Sparkles of the sun on wave crests, thickest under the sun.
    let spread = 0.012 + 0.30 * dy
    let path = exp(-pow((X - sun.x) / spread, 2))
    if path > 0.01 {
      let s = noise.gradient(wx * 3.1 + 9, wz * 9.5)
      let sparkle = pow(max(0, s - 0.5) * 2, 3) * path * (0.25 + 3 * dy)
      let glitter: Double = sparkle * 30 + 0.25 * path * path * (0.6 + w0)
      c += sunColor * glitter
    }
    return c
  }

  /// The near bank: rows of grass blades, nearer rows taller, their tips
  /// backlit gold by the low sun. Returns the colour and its coverage.
  func grass(x: Int, X: Double, Y: Double) -> (SIMD3<Double>, Double) {
    let b = bank[x]
    let spacing = 0.009
    let q = (Y - b) / spacing
    let j0 = Int(q.rounded(.down))
    let bladeF = Double(height) / 6
    let patches = noise.fbm(X * 4 + 7, Y * 7, octaves: 4)
    var acc = SIMD3<Double>(repeating: 0)
    var remaining = 1.0
    for j in stride(from: j0 + 5, through: max(0, j0 - 1), by: -1) {
      let base = b + (Double(j) + 0.8 * noise.gradient(X * 6 + Double(j) * 2.9, Double(j) * 0.7)) * spacing
      let grow = 1 + 4 * max(0, base - 0.86)
      let h = noise.hash(j, 6007)
      let lean = (unit(h) - 0.5) * 0.5 + 0.25 * noise.gradient(X * 9, Double(j))
      let bx = X + lean * (base - Y)
      let n = noise.gradient(bx * bladeF / grow + Double(j) * 17.3, Double(j) * 3.7 + 0.5)
      let blade = max(0, 1 - abs(n) * 3.5)
      let clump = clamp01(0.55 + 0.9 * noise.gradient(X * 22 + Double(j) * 5.1, Double(j) * 1.3))
      let tall = spacing * grow * (1.2 + 3.6 * blade * blade * clump)
      let tip = base - tall
      let a = clamp01((Y - tip) / px + 0.5)
      guard a > 0 else { continue }
      let t = (Y - tip) / tall
      let dry = clamp01(0.45 + 1.6 * patches + 0.25 * (unit(h >> 20) - 0.5))
      var albedo = mix(SIMD3(0.028, 0.048, 0.012), SIMD3(0.15, 0.10, 0.035), dry)
      if j == 0 {
        let pebbles = noise.fbm(X * 300, Y * 200, octaves: 2)
        albedo = mix(albedo, SIMD3(0.07, 0.055, 0.04) * (0.6 + 1.5 * max(0, pebbles)), 0.7)
      }
      let shade = 0.45 + 0.55 * exp(-t * 0.8)
      let rim = exp(-t * 4) * blade * blade * (0.4 + dry)
      let col = albedo * (sunColor * 0.4 + ambient * 1.5) * shade + sunColor * (0.10 * rim)
      acc += remaining * a * col
      remaining *= 1 - a
      if remaining < 0.004 { break }
    }
    let fade = 1 - 0.7 * smoothstep(0.8, 1.0, Y)
    return (acc * fade, 1 - remaining)
  }

  /// Boulders half in the water along the near bank.
  func boulder(x: Int, X: Double, Y: Double) -> (SIMD3<Double>, Double)? {
    let cell = 0.12
    let k = Int((X / cell).rounded(.down))
    for c in (k - 1)...(k + 1) {
      let h = noise.hash(c, 4243)
      guard unit(h) < 0.7 else { continue }
      let cx = (Double(c) + 0.2 + 0.6 * unit(h >> 16)) * cell
      let rx = 0.022 + 0.045 * unit(h >> 32)
      let ry = rx * (0.5 + 0.3 * unit(h >> 48))
      let ix = min(width - 1, max(0, Int(cx / px)))
      let cy = bank[ix] - ry * 0.1
      guard abs(X - cx) < rx * 1.5, abs(Y - cy) < ry * 1.5 else { continue }
      let nx = (X - cx) / rx
      let ny = (Y - cy) / ry
      let bump = 0.18 * noise.fbm(X * 35 + Double(c) * 3, Y * 35, octaves: 4)
      let dist = (nx * nx + ny * ny * (ny > 0 ? 0.5 : 1)).squareRoot() - 1 - bump
      let a = clamp01(-dist * rx / px + 0.5)
      guard a > 0 else { continue }
      let facet = noise.fbm(X * 70 + 5, Y * 70, octaves: 3)
      let light = clamp01(0.2 + 0.8 * nx - 0.6 * ny + 4 * facet)
      let tex = noise.fbm(X * 240, Y * 240, octaves: 2)
      let albedo = SIMD3(0.12, 0.11, 0.10) * (0.75 + 1.2 * tex)
      let rim = pow(clamp01(1 + dist * 6), 6) * clamp01(nx + 0.3)
      let col = albedo * (sunColor * (1.2 * light * light + 2.5 * rim) + ambient * (0.6 - 0.4 * ny))
      return (col, a)
    }
    return nil
  }

  /// Spruces framing the picture at both edges, dark against the light.
  func trees(X: Double, Y: Double, over c: SIMD3<Double>) -> SIMD3<Double> {
    var out = c
    for (i, t) in treeSpecs.enumerated() {
      let top = t.base - t.height
      guard Y > top - px, Y < t.base + 0.03, abs(X - t.x) < t.width * 1.6 else { continue }
      let s = clamp01((Y - top) / t.height)
      let lean = 0.004 * noise.gradient(Y * 8, Double(i) * 5)
      let off = X - t.x - lean * s
      let side = off > 0 ? 1 : 0
      let phase = pow(s, 0.75) * (10.0 + Double(i)) + 0.5 * noise.gradient(Y * 25, Double(i) * 3 + Double(side) * 11)
      let tier = Int(phase.rounded(.down))
      let f = phase - Double(tier)
      let reach = 0.6 + 0.55 * unit(noise.hash(tier * 2 + side, 313 + i))
      let ragged = noise.fbm(Y * 260 + Double(side) * 3, Double(i) * 7 + X * 40, octaves: 4)
      let clumps = noise.fbm(Y * 900 + Double(i), X * 900, octaves: 2)
      var half = t.width * pow(s, 0.85) * (0.5 + 0.5 * pow(f, 1.5)) * reach * (0.8 + 0.8 * ragged + 0.9 * clumps)
      if s < 0.04 { half = max(half, 0.0012) }
      half = max(half, s > 0.86 ? 0.004 : 0.0015)
      let d = abs(off)
      let a = clamp01((half - d) / px + 0.5) * clamp01((Y - top) / px + 0.5)
      if a > 0 {
        let rim = off > 0 ? clamp01(1 - (half - d) / (2.5 * px)) * clamp01(1.2 - s) : 0
        let needles = noise.fbm(X * 400, Y * 400, octaves: 2)
        let col = SIMD3(0.008, 0.013, 0.008) * (0.7 + 2 * max(0, needles)) + sunColor * (0.18 * rim)
        out = mix(out, col, a)
      }
    }
    return out
  }

  // MARK: Rendering

  func render() -> [SIMD4<UInt8>] {
    guard width > 0, height > 0 else { return [] }
    // The part above the far shore, kept for the reflection.
    let rows = min(height, Int((horizon / px).rounded(.up)) + 1)
    var upperRows = [SIMD3<Double>](repeating: .zero, count: (rows + 1) * width)
    fill(&upperRows, rows: rows) { x, y in upper(x: x, y: y) }
    for x in 0..<width { upperRows[rows * width + x] = upperRows[(rows - 1) * width + x] }
    let reflected = upperRows
    var out = [SIMD4<UInt8>](repeating: SIMD4(0, 0, 0, 255), count: width * height)
    fill(&out, rows: height) { x, y in pixel(x: x, y: y, upper: reflected, rows: rows) }
    return out
  }

  /// Sets the first `rows` rows of `values` to `value(x, y)`, bands of rows in parallel.
  func fill<Element>(_ values: inout [Element], rows: Int, _ value: @Sendable (Int, Int) -> Element) {
    let width = width
    values.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let target = SharedPointer(base: base)
      let bands = max(1, min(rows, 4 * ProcessInfo.processInfo.activeProcessorCount))
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        for y in (rows * band / bands)..<(rows * (band + 1) / bands) {
          for x in 0..<width { target.base[y * width + x] = value(x, y) }
        }
      }
    }
  }

  func pixel(x: Int, y: Int, upper upperRows: [SIMD3<Double>], rows: Int) -> SIMD4<UInt8> {
    let X = sceneX(x)
    let Y = sceneY(y)
    var c: SIMD3<Double>
    if Y < horizon {
      c = upperRows[y * width + x]
    } else {
      let b = bank[x]
      c = Y < b + px ? water(x: x, X: X, Y: Y, upper: upperRows, rows: rows) : .zero
      if Y > b - 0.06, Y < b + 0.01, let (rock, a) = boulder(x: x, X: X, Y: Y) { c = mix(c, rock, a) }
      if Y > b - 0.05 {
        let (g, a) = grass(x: x, X: X, Y: Y)
        c = g + c * (1 - a)
      }
    }
    c = trees(X: X, Y: Y, over: c)
    // A lens's vignette, a filmic curve, a touch more colour, and a little grain.
    let vx = (X - aspect / 2) / (aspect / 2)
    let vy = Y * 2 - 1
    c *= 1 - 0.11 * (vx * vx + vy * vy)
    let luma = (c * SIMD3(0.2126, 0.7152, 0.0722)).sum()
    c = SIMD3(repeating: luma) + (c - SIMD3(repeating: luma)) * 1.15
    let grain = (unit(noise.hash(x, y &+ 7919)) - 0.5) * 0.012
    func byte(_ l: Double) -> UInt8 {
      let m = max(0, l * 0.95)
      let t = (m * (2.51 * m + 0.03)) / (m * (2.43 * m + 0.59) + 0.14)
      return UInt8(max(0, min(255, (SRGB.encode(t) + grain) * 255 + 0.5)))
    }
    return SIMD4(byte(c.x), byte(c.y), byte(c.z), 255)
  }
}

/// A buffer that bands of rows fill in parallel, each its own rows.
private struct SharedPointer<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>
}

// MARK: - Noise

/// Seeded gradient noise on a lattice, its fractal sums, and ridged multifractals.
struct GradientNoise {
  let seed: UInt64

  @inline(__always)
  func hash(_ x: Int, _ y: Int) -> UInt64 {
    var h =
      UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= seed &* 0x1656_67B1_9E37_79F9
    h ^= h >> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    h ^= h >> 32
    return h
  }

  /// Gradient (Perlin) noise in about [-1, 1].
  @inline(__always)
  func gradient(_ x: Double, _ y: Double) -> Double {
    let x0 = x.rounded(.down)
    let y0 = y.rounded(.down)
    let xi = Int(x0)
    let yi = Int(y0)
    let fx = x - x0
    let fy = y - y0
    @inline(__always) func corner(_ i: Int, _ j: Int, _ dx: Double, _ dy: Double) -> Double {
      let h = hash(i, j) >> 40
      // Sixteen directions around the circle.
      let gx = cosTable[Int(h & 15)]
      let gy = sinTable[Int(h & 15)]
      return gx * dx + gy * dy
    }
    let ux = fx * fx * fx * (fx * (fx * 6 - 15) + 10)
    let uy = fy * fy * fy * (fy * (fy * 6 - 15) + 10)
    let n00 = corner(xi, yi, fx, fy)
    let n10 = corner(xi + 1, yi, fx - 1, fy)
    let n01 = corner(xi, yi + 1, fx, fy - 1)
    let n11 = corner(xi + 1, yi + 1, fx - 1, fy - 1)
    let a = n00 + (n10 - n00) * ux
    let b = n01 + (n11 - n01) * ux
    return (a + (b - a) * uy) * 1.4
  }

  /// Gradient noise summed over rotated octaves, in about [-0.5, 0.5].
  func fbm(_ x: Double, _ y: Double, octaves: Int) -> Double {
    var sum = 0.0
    var amplitude = 0.5
    var px = x
    var py = y
    for _ in 0..<octaves {
      sum += amplitude * gradient(px, py)
      amplitude *= 0.5
      (px, py) = (1.6 * px - 1.2 * py + 17.3, 1.2 * px + 1.6 * py + 9.1)
    }
    return sum * 0.5 / (1 - amplitude * 2)
  }

  /// Musgrave's ridged multifractal: sharp crests, smooth valleys; about [0, 1].
  func ridged(_ x: Double, _ y: Double, octaves: Int) -> Double {
    var sum = 0.0
    var amplitude = 1.0
    var total = 0.0
    var weight = 1.0
    var px = x
    var py = y
    for _ in 0..<octaves {
      var s = 1 - abs(gradient(px, py))
      s *= s
      s *= weight
      weight = min(1, max(0, s * 2))
      sum += s * amplitude
      total += amplitude
      amplitude *= 0.5
      (px, py) = (1.6 * px - 1.2 * py + 17.3, 1.2 * px + 1.6 * py + 9.1)
    }
    return sum / total
  }
}

private let cosTable: [Double] = (0..<16).map { cos(Double($0) * .pi / 8 + 0.2) }
private let sinTable: [Double] = (0..<16).map { sin(Double($0) * .pi / 8 + 0.2) }
