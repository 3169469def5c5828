import Foundation

/// The icons `systemImage` names: glyphs in the manner of SF Symbols, drawn by code
/// from signed distance functions at whatever size they are shown, so they are
/// crisp at every scale: a white glyph on a transparent background, straight
/// alpha = coverage, 8-bit, square. `SystemImage.systemNames` lists the SF Symbols
/// names they answer to.
///
/// Each glyph is laid out in unit coordinates (0...1 across, y down): strokes
/// 0.08 wide, ink kept about 0.15 from the edges. A pixel's coverage is the
/// mean of 4x4 samples, each `clamp(0.5 - d, 0, 1)` with `d` in sample units.
public enum SystemImage {
  /// The SF Symbols names `systemImage` takes, each with its icon's short name
  /// (the file name of its picture in `Assets/icons`).
  public static let systemNames: [(systemName: String, icon: String)] = [
    ("star.fill", "star"), ("heart.fill", "heart"), ("mountain.2.fill", "mountain"), ("sidebar.left", "sidebar"),
    ("square.and.arrow.up", "share"), ("plus", "plus"), ("gearshape.fill", "gear"), ("bolt.fill", "bolt"),
    ("magnifyingglass", "magnifier"), ("checkmark", "checkmark"), ("person.fill", "person"),
    ("envelope.fill", "envelope"), ("lock.fill", "lock"), ("scribble.variable", "scribble"),
    ("eraser.fill", "eraser"), ("cloud.bolt.rain.fill", "cloud.bolt.rain"), ("sun.rain.fill", "sun.rain"),
    ("moon.stars.fill", "moon.stars"), ("moon.fill", "moon"), ("flag.fill", "flag"), ("hexagon.fill", "hexagon"),
    ("xmark", "xmark"), ("arrow.right.square", "arrow.right.square"), ("sun.max.fill", "sun.max"),
    ("snowflake", "snowflake"),
  ]

  /// The drawing of an SF Symbols name `systemNames` lists, at a size in pixels.
  public static func named(_ systemName: String) -> (@Sendable (Int) -> RGBAImage)? {
    guard let icon = systemNames.first(where: { $0.systemName == systemName })?.icon else { return nil }
    return all.first { $0.name == icon }?.draw
  }

  /// The names `systemImage` takes, for error messages.
  static var nameList: String { systemNames.map(\.systemName).joined(separator: ", ") }

  /// Every icon, by its short name, for writing them all out.
  public static let all: [(name: String, draw: @Sendable (Int) -> RGBAImage)] = [
    ("star", star), ("heart", heart), ("mountain", mountain), ("sidebar", sidebar), ("share", share),
    ("plus", plus), ("gear", gear), ("bolt", bolt), ("magnifier", magnifier), ("checkmark", checkmark),
    ("person", person), ("envelope", envelope), ("lock", lock), ("scribble", scribble), ("eraser", eraser),
    ("cloud.bolt.rain", cloudBoltRain), ("sun.rain", sunRain), ("moon.stars", moonStars), ("moon", moon),
    ("flag", flag), ("hexagon", hexagon), ("xmark", xmark), ("arrow.right.square", arrowRightSquare),
    ("sun.max", sunMax), ("snowflake", snowflake),
  ]

  /// A filled hexagon standing on a corner, as hexagon.fill: six corners on a
  /// circle of radius 0.4, rounded by 0.04.
  public static func hexagon(size: Int) -> RGBAImage {
    let corners = (0..<6).map { i -> P in
      let angle = -Double.pi / 2 + Double(i) * .pi / 3
      return P(0.5, 0.5) + 0.36 * P(cos(angle), sin(angle))
    }
    return draw(size) { p in SDF.polygon(p, corners) - 0.04 }
  }

  /// A cross of two round-capped strokes, as xmark.
  public static func xmark(size: Int) -> RGBAImage {
    draw(size) { p in
      min(
        SDF.segment(p, P(0.26, 0.26), P(0.74, 0.74), width: 0.08),
        SDF.segment(p, P(0.74, 0.26), P(0.26, 0.74), width: 0.08))
    }
  }

  /// A rounded square outline with an arrow pointing right inside, as arrow.right.square.
  public static func arrowRightSquare(size: Int) -> RGBAImage {
    let w = 0.07
    return draw(size) { p in
      let frame = abs(SDF.roundedRect(p, center: P(0.5, 0.5), half: P(0.33, 0.33), radius: 0.1)) - w / 2
      let shaft = SDF.segment(p, P(0.32, 0.5), P(0.67, 0.5), width: w)
      let head = min(
        SDF.segment(p, P(0.53, 0.36), P(0.67, 0.5), width: w), SDF.segment(p, P(0.67, 0.5), P(0.53, 0.64), width: w))
      return min(frame, min(shaft, head))
    }
  }

  /// A sun, as sun.max.fill: a disc and eight round-capped rays.
  public static func sunMax(size: Int) -> RGBAImage {
    let center = P(0.5, 0.5)
    let rays = (0..<8).map { i -> (P, P) in
      let u = P(cos(Double(i) * .pi / 4), sin(Double(i) * .pi / 4))
      return (center + 0.25 * u, center + 0.335 * u)
    }
    return draw(size) { p in
      var sun = SDF.circle(p, center, 0.165)
      for (a, b) in rays { sun = min(sun, SDF.segment(p, a, b, width: 0.07)) }
      return sun
    }
  }

  /// A snowflake: three strokes through the centre, each end with a V of two
  /// short branches.
  public static func snowflake(size: Int) -> RGBAImage {
    let center = P(0.5, 0.5)
    var strokes: [(P, P)] = []
    for i in 0..<6 {
      let angle = -Double.pi / 2 + Double(i) * .pi / 3
      let u = P(cos(angle), sin(angle))
      let tip = center + 0.35 * u
      let fork = center + 0.22 * u
      strokes.append((center, tip))
      for turn in [-Double.pi / 4, Double.pi / 4] {
        let v = P(cos(angle + turn), sin(angle + turn))
        strokes.append((fork, fork + 0.1 * v))
      }
    }
    return draw(size) { p in
      var d = Double.infinity
      for (a, b) in strokes { d = min(d, SDF.segment(p, a, b, width: 0.06)) }
      return d
    }
  }

  /// A storm, as cloud.bolt.rain.fill: a cloud, a bolt cut through its foot, a rain streak either side.
  public static func cloudBoltRain(size: Int) -> RGBAImage {
    let points = [
      P(0.56, 0.40), P(0.385, 0.655), P(0.49, 0.655), P(0.445, 0.87), P(0.625, 0.595), P(0.52, 0.595), P(0.585, 0.40),
    ]
    return draw(size) { p in
      let bolt = SDF.polygon(p, points) - 0.014
      let sky = max(cloud(p, base: P(0.5, 0.37), scale: 1), -(bolt - 0.035))
      let rain = min(
        SDF.segment(p, P(0.30, 0.64), P(0.25, 0.81), width: 0.075),
        SDF.segment(p, P(0.72, 0.64), P(0.67, 0.81), width: 0.075))
      return min(sky, min(bolt, rain))
    }
  }

  /// Sun and showers, as sun.rain.fill: a rayed sun behind a cloud, with a gap around
  /// the cloud, and three rain streaks under it.
  public static func sunRain(size: Int) -> RGBAImage {
    let center = P(0.375, 0.345)
    let rays = (0..<8).map { i -> (P, P) in
      let u = P(cos(Double(i) * .pi / 4), sin(Double(i) * .pi / 4))
      return (center + 0.17 * u, center + 0.205 * u)
    }
    return draw(size) { p in
      let front = cloud(p, base: P(0.58, 0.53), scale: 0.8)
      var sun = SDF.circle(p, center, 0.115)
      for (a, b) in rays { sun = min(sun, SDF.segment(p, a, b, width: 0.06)) }
      var rain = Double.infinity
      for x in [0.435, 0.58, 0.725] { rain = min(rain, SDF.segment(p, P(x, 0.735), P(x - 0.04, 0.845), width: 0.07)) }
      return min(front, min(max(sun, -(front - 0.04)), rain))
    }
  }

  /// A night sky, as moon.stars.fill: a crescent moon and two four-pointed stars above it.
  public static func moonStars(size: Int) -> RGBAImage {
    let big = sparkle(center: P(0.67, 0.27), radius: 0.13)
    let small = sparkle(center: P(0.80, 0.47), radius: 0.075)
    return draw(size) { p in
      let moon = SDF.crescent(p, center: P(0.43, 0.57), radius: 0.265, biteRadius: 0.215, biteOffset: 0.215) - 0.015
      return min(moon, min(SDF.polygon(p, big) - 0.008, SDF.polygon(p, small) - 0.006))
    }
  }

  /// A crescent moon, as moon.fill: a disc with a bite taken from its upper right, round tips.
  public static func moon(size: Int) -> RGBAImage {
    draw(size) { p in
      SDF.crescent(p, center: P(0.48, 0.52), radius: 0.31, biteRadius: 0.25, biteOffset: 0.25) - 0.02
    }
  }

  /// A flag, as flag.fill: a pole on the left and a cloth that waves, its top and
  /// bottom edges one sine wave, filled between them.
  public static func flag(size: Int) -> RGBAImage {
    draw(size) { p in
      let pole = SDF.segment(p, P(0.24, 0.17), P(0.24, 0.84), width: 0.07)
      // The cloth: x in 0.24 ... 0.8, between a waving top and bottom edge.
      let wave = 0.035 * sin((p.x - 0.24) / 0.56 * 2 * .pi)
      let top = 0.19 + wave
      let bottom = 0.56 + wave
      let vertical = max(top - p.y, p.y - bottom)
      let horizontal = max(0.24 - p.x, p.x - 0.8)
      let cloth = max(vertical, horizontal) - 0.02
      return min(pole, cloth)
    }
  }

  /// The filled cloud of the weather glyphs: a capsule foot, a big bump right of
  /// centre and a small one on the left, joined by smooth unions. It spans
  /// `base.x ± 0.35 s` across and `base.y - 0.26 s ... base.y + 0.15 s` down.
  private static func cloud(_ p: P, base: P, scale s: Double) -> Double {
    let foot = SDF.roundedRect(p, center: base + s * P(0, 0.045), half: s * P(0.35, 0.105), radius: 0.105 * s)
    let big = SDF.circle(p, base + s * P(0.06, -0.075), 0.185 * s)
    let small = SDF.circle(p, base + s * P(-0.17, -0.02), 0.125 * s)
    return SDF.smoothMin(SDF.smoothMin(foot, big, 0.04 * s), small, 0.04 * s)
  }

  /// A four-pointed star with concave sides, as a polygon: the astroid
  /// (x, y) = radius (cos³ t, sin³ t) around `center`.
  private static func sparkle(center: P, radius: Double) -> [P] {
    (0..<48).map { i in
      let t = 2 * Double.pi * Double(i) / 48
      return center + radius * P(pow(cos(t), 3), pow(sin(t), 3))
    }
  }

  /// A pencil's scribble, as scribble.variable: a wave that thickens as it goes.
  public static func scribble(size: Int) -> RGBAImage {
    let count = 48
    let points = (0...count).map { i -> P in
      let t = Double(i) / Double(count)
      return P(0.17 + 0.66 * t, 0.52 - 0.17 * sin(t * 2.6 * .pi) * (0.6 + 0.4 * t))
    }
    return draw(size) { p in
      var d = Double.infinity
      for i in 0..<count {
        let t = (Double(i) + 0.5) / Double(count)
        d = min(d, SDF.segment(p, points[i], points[i + 1], width: 0.05 + 0.05 * t))
      }
      return d
    }
  }

  /// An eraser, as eraser.fill: a tilted block with a band across it, over a line.
  public static func eraser(size: Int) -> RGBAImage {
    let angle = -Double.pi / 4
    let c = P(0.5, 0.45)
    return draw(size) { p in
      let v = p - c
      let q = P(v.x * cos(angle) + v.y * sin(angle), -v.x * sin(angle) + v.y * cos(angle))
      let body = SDF.roundedRect(q, center: P(0, 0), half: P(0.27, 0.13), radius: 0.05)
      let band = abs(q.x + 0.07) - 0.022
      let line = SDF.segment(p, P(0.36, 0.8), P(0.82, 0.8), width: 0.06)
      return min(max(body, -band), line)
    }
  }

  /// A filled five-pointed star with softened points.
  public static func star(size: Int) -> RGBAImage {
    // Outer radius from the width (the star is wider than tall); centred on its box.
    let outer = 0.36
    let inner = outer * 0.42
    let height = outer * (1 + cos(.pi / 5))
    let center = P(0.5, 0.5 - height / 2 + outer)
    let points = (0..<10).map { i -> P in
      let angle = -Double.pi / 2 + Double(i) * .pi / 5
      let r = i % 2 == 0 ? outer : inner
      return center + r * P(cos(angle), sin(angle))
    }
    return draw(size) { p in SDF.polygon(p, points) - 0.012 }
  }

  /// A filled heart.
  public static func heart(size: Int) -> RGBAImage {
    // The exact heart (Inigo Quilez): tip at the origin, y up, 1.207 wide, 1.104 tall.
    let round = 0.015
    let scale = (0.70 - 2 * round) / 1.207
    let bottom = 0.5 + 1.104 * scale / 2 + 0.01
    return draw(size) { p in
      let q = P(abs(p.x - 0.5), bottom - p.y) / scale
      let d: Double
      if q.x + q.y > 1 {
        d = SDF.length(q - P(0.25, 0.75)) - 2.0.squareRoot() / 4
      } else {
        let nearest = min(SDF.dot2(q - P(0, 1)), SDF.dot2(q - 0.5 * max(q.x + q.y, 0)))
        d = nearest.squareRoot() * (q.x > q.y ? 1 : -1)
      }
      return d * scale - round
    }
  }

  /// Two filled peaks, the nearer one in front with a gap around it, and a sun.
  public static func mountain(size: Int) -> RGBAImage {
    let back = [P(0.44, 0.795), P(0.665, 0.41), P(0.865, 0.795)]
    let front = [P(0.145, 0.795), P(0.40, 0.30), P(0.645, 0.795)]
    return draw(size) { p in
      let frontD = SDF.polygon(p, front) - 0.02
      let backD = max(SDF.polygon(p, back) - 0.02, -(frontD - 0.045))
      let sun = SDF.circle(p, P(0.715, 0.225), 0.07)
      return min(frontD, min(backD, sun))
    }
  }

  /// A window outline with a sidebar on the left: a divider and three list lines.
  public static func sidebar(size: Int) -> RGBAImage {
    let w = 0.08
    return draw(size) { p in
      let frame = abs(SDF.roundedRect(p, center: P(0.5, 0.5), half: P(0.33, 0.27), radius: 0.09)) - w / 2
      let divider = SDF.segment(p, P(0.39, 0.25), P(0.39, 0.75), width: w)
      var lines = Double.infinity
      for y in [0.35, 0.43, 0.51] {
        lines = min(lines, SDF.segment(p, P(0.25, y), P(0.305, y), width: 0.045))
      }
      return min(frame, min(divider, lines))
    }
  }

  /// A box open at the top with an arrow leaving it, as square.and.arrow.up.
  public static func share(size: Int) -> RGBAImage {
    let w = 0.08
    let gap = 0.13
    let top = 0.41
    return draw(size) { p in
      let ring = abs(SDF.roundedRect(p, center: P(0.5, 0.615), half: P(0.28, 0.205), radius: 0.09)) - w / 2
      // The box's top is cut where the arrow passes; round caps close the cut ends.
      let cut = SDF.box(p, center: P(0.5, top - 0.1), half: P(gap, 0.15))
      var box = max(ring, -cut)
      box = min(box, SDF.circle(p, P(0.5 - gap, top), w / 2))
      box = min(box, SDF.circle(p, P(0.5 + gap, top), w / 2))
      let shaft = SDF.segment(p, P(0.5, 0.17), P(0.5, 0.61), width: w)
      let left = SDF.segment(p, P(0.5, 0.17), P(0.375, 0.295), width: w)
      let right = SDF.segment(p, P(0.5, 0.17), P(0.625, 0.295), width: w)
      return min(box, min(shaft, min(left, right)))
    }
  }

  /// A plus sign of two round-capped strokes.
  public static func plus(size: Int) -> RGBAImage {
    draw(size) { p in
      min(
        SDF.segment(p, P(0.5, 0.2), P(0.5, 0.8), width: 0.09),
        SDF.segment(p, P(0.2, 0.5), P(0.8, 0.5), width: 0.09))
    }
  }

  /// A filled cog: eight rounded teeth around a body with a round hole.
  public static func gear(size: Int) -> RGBAImage {
    let teeth = 8
    let sector = 2 * Double.pi / Double(teeth)
    let tooth = [P(0.20, -0.075), P(0.325, -0.05), P(0.325, 0.05), P(0.20, 0.075)]
    return draw(size) { p in
      let q = p - P(0.5, 0.5)
      let r = SDF.length(q)
      // Fold the angle onto the nearest tooth, which then lies along +x.
      let angle = atan2(q.y, q.x)
      let local = angle - sector * (angle / sector).rounded()
      let folded = r * P(cos(local), sin(local))
      let body = r - 0.265
      let cog = min(body, SDF.polygon(folded, tooth) - 0.022)
      return max(cog, -(r - 0.105))
    }
  }

  /// A filled lightning bolt.
  public static func bolt(size: Int) -> RGBAImage {
    let points = [
      P(0.585, 0.13), P(0.255, 0.565), P(0.475, 0.565), P(0.415, 0.87), P(0.745, 0.435), P(0.525, 0.435),
    ]
    return draw(size) { p in SDF.polygon(p, points) - 0.016 }
  }

  /// A magnifying glass: a ring and a thicker handle.
  public static func magnifier(size: Int) -> RGBAImage {
    let center = P(0.44, 0.44)
    let radius = 0.22
    return draw(size) { p in
      let ring = abs(SDF.length(p - center) - radius) - 0.04
      let start = center + (radius + 0.02) * P(0.7071, 0.7071)
      return min(ring, SDF.segment(p, start, P(0.79, 0.79), width: 0.1))
    }
  }

  /// A checkmark of two strokes joined round.
  public static func checkmark(size: Int) -> RGBAImage {
    draw(size) { p in
      min(
        SDF.segment(p, P(0.22, 0.52), P(0.41, 0.71), width: 0.095),
        SDF.segment(p, P(0.41, 0.71), P(0.79, 0.27), width: 0.095))
    }
  }

  /// A filled person: a round head over rounded shoulders.
  public static func person(size: Int) -> RGBAImage {
    draw(size) { p in
      let head = SDF.circle(p, P(0.5, 0.305), 0.15)
      // Shoulders: the top of an ellipse, its foot cut flat with rounded corners.
      let dome = SDF.ellipse(p, center: P(0.5, 0.84), radii: P(0.32, 0.305))
      let foot = SDF.roundedRect(p, center: P(0.5, 0.69), half: P(0.30, 0.15), radius: 0.07)
      return min(head, max(dome, foot))
    }
  }

  /// An envelope outline with its flap.
  public static func envelope(size: Int) -> RGBAImage {
    let w = 0.08
    return draw(size) { p in
      let frame = abs(SDF.roundedRect(p, center: P(0.5, 0.5), half: P(0.33, 0.245), radius: 0.08)) - w / 2
      let flap = min(
        SDF.segment(p, P(0.24, 0.34), P(0.5, 0.54), width: 0.07),
        SDF.segment(p, P(0.5, 0.54), P(0.76, 0.34), width: 0.07))
      return min(frame, flap)
    }
  }

  /// A padlock: a filled body with a keyhole under a round shackle.
  public static func lock(size: Int) -> RGBAImage {
    let w = 0.08
    let arc = P(0.5, 0.36)
    let radius = 0.16
    return draw(size) { p in
      let body = SDF.roundedRect(p, center: P(0.5, 0.655), half: P(0.27, 0.195), radius: 0.07)
      // The shackle: the upper half of a ring, then straight legs into the body.
      let q = p - arc
      let bow = q.y < 0 ? abs(SDF.length(q) - radius) - w / 2 : Double.infinity
      let legs = min(
        SDF.segment(p, P(0.5 - radius, 0.36), P(0.5 - radius, 0.5), width: w),
        SDF.segment(p, P(0.5 + radius, 0.36), P(0.5 + radius, 0.5), width: w))
      let keyhole = min(SDF.circle(p, P(0.5, 0.625), 0.045), SDF.segment(p, P(0.5, 0.64), P(0.5, 0.72), width: 0.04))
      return min(max(body, -keyhole), min(bow, legs))
    }
  }

  /// Draws the glyph whose signed distance (unit coordinates, negative inside) is `sdf`.
  static func draw(_ size: Int, _ sdf: (SIMD2<Double>) -> Double) -> RGBAImage {
    precondition(size > 0, "icon size in pixels")
    let n = size
    let samples = 4
    let unit = 1 / Double(n)
    let step = unit / Double(samples)
    let samplesPerUnit = Double(n * samples)
    return RGBAImage(width: n, height: n) { x, y in
      var coverage = 0.0
      for j in 0..<samples {
        for i in 0..<samples {
          let p = P(Double(x) * unit + (Double(i) + 0.5) * step, Double(y) * unit + (Double(j) + 0.5) * step)
          coverage += min(1, max(0, 0.5 - sdf(p) * samplesPerUnit))
        }
      }
      let alpha = UInt8((coverage / Double(samples * samples) * 255).rounded())
      return SIMD4(255, 255, 255, alpha)
    }
  }
}

private typealias P = SIMD2<Double>

/// Signed distances in the plane, negative inside (Inigo Quilez's formulas).
private enum SDF {
  @inline(__always) static func dot2(_ v: P) -> Double { (v * v).sum() }
  @inline(__always) static func length(_ v: P) -> Double { dot2(v).squareRoot() }

  static func circle(_ p: P, _ center: P, _ radius: Double) -> Double { length(p - center) - radius }

  /// A segment from `a` to `b` stroked `width` wide, round caps.
  static func segment(_ p: P, _ a: P, _ b: P, width: Double) -> Double {
    let pa = p - a
    let ba = b - a
    let h = min(1, max(0, (pa * ba).sum() / dot2(ba)))
    return length(pa - ba * h) - width / 2
  }

  /// An ellipse; the distance is approximate (exact on the axes), fine for coverage.
  static func ellipse(_ p: P, center: P, radii: P) -> Double {
    let q = (p - center) / radii
    let k = length(q)
    // First-order: (|q| - 1) over the gradient's length.
    let gradient = length(q / radii) / max(k, 1e-9)
    return (k - 1) / max(gradient, 1e-9)
  }

  /// An axis-aligned box, sharp corners.
  static func box(_ p: P, center: P, half: P) -> Double {
    let o = p - center
    let q = P(abs(o.x), abs(o.y)) - half
    return length(pointwiseMax(q, .zero)) + min(max(q.x, q.y), 0)
  }

  /// The smooth union of two distances, blended over `k` (polynomial smooth minimum).
  static func smoothMin(_ a: Double, _ b: Double, _ k: Double) -> Double {
    let h = min(1, max(0, 0.5 + 0.5 * (b - a) / k))
    return b * (1 - h) + a * h - k * h * (1 - h)
  }

  /// A crescent, exact: the disc of `radius` at `center` less the disc of
  /// `biteRadius` whose centre is `biteOffset` towards the upper right (y down).
  static func crescent(_ p: P, center: P, radius: Double, biteRadius: Double, biteOffset d: Double) -> Double {
    // Local frame: x towards the bite, folded about that axis.
    let v = p - center
    let q = P((v.x - v.y) / 2.0.squareRoot(), abs(v.x + v.y) / 2.0.squareRoot())
    // The tips lie at (a, ±b), where the two circles meet.
    let a = (radius * radius - biteRadius * biteRadius + d * d) / (2 * d)
    let b = max(radius * radius - a * a, 0).squareRoot()
    if d * (q.x * b - q.y * a) > d * d * max(b - q.y, 0) { return length(q - P(a, b)) }
    return max(length(q) - radius, -(length(q - P(d, 0)) - biteRadius))
  }

  /// A box with all corners rounded by `radius`.
  static func roundedRect(_ p: P, center: P, half: P, radius: Double) -> Double {
    box(p, center: center, half: half - radius) - radius
  }

  /// A simple polygon, convex or not: distance to the nearest edge, signed by the winding rule.
  static func polygon(_ p: P, _ v: [P]) -> Double {
    var d = dot2(p - v[0])
    var s = 1.0
    var j = v.count - 1
    for i in 0..<v.count {
      let e = v[j] - v[i]
      let w = p - v[i]
      let b = w - e * min(1, max(0, (w * e).sum() / dot2(e)))
      d = min(d, dot2(b))
      let c0 = p.y >= v[i].y
      let c1 = p.y < v[j].y
      let c2 = e.x * w.y > e.y * w.x
      if (c0 && c1 && c2) || (!c0 && !c1 && !c2) { s = -s }
      j = i
    }
    return s * d.squareRoot()
  }
}
