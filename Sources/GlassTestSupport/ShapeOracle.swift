import Foundation
import GLESGlass

/// A shape's exact boundary in pixels, in Double, built from the definition of each
/// SwiftUI shape rather than from `ShapeGeometry`: the area in closed form, the
/// inside test, and the true Euclidean signed distance. Slow; for tests.
///
/// A rounded box is four straight edges joined by four corner curves; the corner of
/// extent e and exponent p around its centre c is `|u/e|^p + |v/e|^p = 1`, (u, v)
/// measured outward from c. An ellipse of semi-axes (a, b) is `(x/a)^2 + (y/b)^2 = 1`.
public struct ShapeOracle: Sendable {
  /// The boundary's kind.
  public enum Kind: Sendable, Equatable {
    /// A box with a corner curve of one exponent at every corner.
    case roundedBox
    /// An axis-aligned ellipse.
    case ellipse
  }

  /// The boundary's kind.
  public let kind: Kind
  /// Centre, in pixels.
  public let center: (x: Double, y: Double)
  /// Half width and half height, in pixels.
  public let halfSize: (width: Double, height: Double)
  /// Corner extents in pixels, top-leading, top-trailing, bottom-trailing,
  /// bottom-leading; each within `[0, min(halfSize)]`. Zero for an ellipse.
  public let radii: [Double]
  /// The corner exponent: 2 circular, 3 continuous.
  public let exponent: Double

  /// A box with corners; radii are clamped to `[0, min(halfSize)]`.
  public init(
    roundedBoxCenter center: (x: Double, y: Double), halfSize: (width: Double, height: Double), radii: [Double],
    exponent: Double = 2
  ) {
    precondition(radii.count == 4, "four radii")
    kind = .roundedBox
    self.center = center
    self.halfSize = (max(halfSize.width, 0), max(halfSize.height, 0))
    let limit = min(self.halfSize.width, self.halfSize.height)
    self.radii = radii.map { min(max($0, 0), limit) }
    self.exponent = exponent
  }

  /// The ellipse filling a box.
  public init(ellipseCenter center: (x: Double, y: Double), halfSize: (width: Double, height: Double)) {
    kind = .ellipse
    self.center = center
    self.halfSize = (max(halfSize.width, 0), max(halfSize.height, 0))
    radii = [0, 0, 0, 0]
    exponent = 2
  }

  /// `shape` in `frame` (points) at `scale`, from SwiftUI's definitions: a
  /// continuous corner of radius r is the exponent-3 curve of extent 1.5 r; a capsule
  /// has corners of half its shorter side; a circle is the largest one centred in
  /// the frame; a concentric rectangle follows `concentricRadii`.
  public init(_ shape: GLESGlass.Shape, in frame: PointRect, scale: Double, container: ContainerShape? = nil) {
    let center = ((frame.x + frame.width / 2) * scale, (frame.y + frame.height / 2) * scale)
    let half = (frame.width * scale / 2, frame.height * scale / 2)
    func box(_ radiiPoints: [Double], _ style: RoundedCornerStyle) -> ShapeOracle {
      let continuous = style == .continuous
      return ShapeOracle(
        roundedBoxCenter: center, halfSize: half, radii: radiiPoints.map { $0 * scale * (continuous ? 1.5 : 1) },
        exponent: continuous ? 3 : 2)
    }
    switch shape {
    case .rect:
      self = box([0, 0, 0, 0], .circular)
    case .roundedRect(let radius, let style):
      self = box([radius, radius, radius, radius], style)
    case .unevenRoundedRect(let r, let style):
      self = box([r.topLeading, r.topTrailing, r.bottomTrailing, r.bottomLeading], style)
    case .capsule:
      let r = min(frame.width, frame.height) / 2
      self = box([r, r, r, r], .circular)
    case .circle:
      let r = min(frame.width, frame.height) * scale / 2
      self = ShapeOracle(roundedBoxCenter: center, halfSize: (r, r), radii: [r, r, r, r])
    case .ellipse:
      self = ShapeOracle(ellipseCenter: center, halfSize: half)
    case .concentric(let corners, let isUniform):
      self = box(
        Self.concentricRadii(corners, in: frame, container: container, isUniform: isUniform), .circular)
    }
  }

  /// The corner radii, in points, of a concentric rectangle: per corner, the
  /// container's radius less the Chebyshev distance between the frame's corner and
  /// the container's same corner, at least the corner's minimum and at least 0; a
  /// fixed corner keeps its radius; with `isUniform` all take the smallest.
  public static func concentricRadii(
    _ corners: ConcentricCorners, in frame: PointRect, container: ContainerShape?, isUniform: Bool
  ) -> [Double] {
    let inner = [(frame.x, frame.y), (frame.maxX, frame.y), (frame.maxX, frame.maxY), (frame.x, frame.maxY)]
    let outer = container.map {
      [
        ($0.frame.x, $0.frame.y), ($0.frame.maxX, $0.frame.y), ($0.frame.maxX, $0.frame.maxY),
        ($0.frame.x, $0.frame.maxY),
      ]
    }
    var radii: [Double] = []
    for (i, rule) in corners.all.enumerated() {
      switch rule {
      case .fixed(let radius):
        radii.append(max(radius, 0))
      case .concentric(let minimum):
        guard let container, let outer else {
          radii.append(max(minimum, 0))
          continue
        }
        let chebyshev = max(abs(inner[i].0 - outer[i].0), abs(inner[i].1 - outer[i].1))
        radii.append(max(container.cornerRadius - chebyshev, minimum, 0))
      }
    }
    if isUniform, let smallest = radii.min() { radii = [smallest, smallest, smallest, smallest] }
    return radii
  }

  /// The area inside a quarter superellipse `|u|^p + |v|^p <= e^p`, u, v >= 0:
  /// `e^2 Gamma(1 + 1/p)^2 / Gamma(1 + 2/p)` (pi e^2 / 4 for p = 2).
  public static func quarterSuperellipseArea(extent e: Double, exponent p: Double) -> Double {
    e * e * pow(tgamma(1 + 1 / p), 2) / tgamma(1 + 2 / p)
  }

  /// The exact area, in square pixels: `4 w h` less what each corner cuts off
  /// (`e^2` minus its quarter superellipse), or `pi a b` for an ellipse.
  public var area: Double {
    let w = halfSize.width
    let h = halfSize.height
    switch kind {
    case .ellipse:
      return Double.pi * w * h
    case .roundedBox:
      let cut = radii.reduce(0) { $0 + $1 * $1 - Self.quarterSuperellipseArea(extent: $1, exponent: exponent) }
      return 4 * w * h - cut
    }
  }

  /// The corner extent that governs (x, y): the corner of its quadrant about the
  /// centre (y down).
  private func radius(dx: Double, dy: Double) -> Double {
    dx < 0 ? (dy < 0 ? radii[0] : radii[3]) : (dy < 0 ? radii[1] : radii[2])
  }

  /// True when (x, y), in pixels, lies inside or on the boundary.
  public func contains(_ x: Double, _ y: Double) -> Bool {
    let dx = x - center.x
    let dy = y - center.y
    let w = halfSize.width
    let h = halfSize.height
    switch kind {
    case .ellipse:
      guard w > 0, h > 0 else { return false }
      return (dx / w) * (dx / w) + (dy / h) * (dy / h) <= 1
    case .roundedBox:
      guard abs(dx) <= w, abs(dy) <= h else { return false }
      let r = radius(dx: dx, dy: dy)
      let u = abs(dx) - (w - r)
      let v = abs(dy) - (h - r)
      guard u > 0, v > 0 else { return true }
      let (su, sv) = (u / r, v / r)
      switch exponent {
      case 2: return su * su + sv * sv <= 1
      case 3: return su * su * su + sv * sv * sv <= 1
      default: return pow(su, exponent) + pow(sv, exponent) <= 1
      }
    }
  }

  /// The signed Euclidean distance from (x, y) to the boundary, in pixels, negative
  /// inside: the nearest of the eight pieces of a rounded box (corner curves of
  /// exponent other than 2 by a dense search refined by golden sections), or the
  /// nearest point of an ellipse by Eberly's bisection.
  public func distance(_ x: Double, _ y: Double) -> Double {
    let unsigned: Double
    switch kind {
    case .ellipse:
      unsigned = Self.ellipseDistance(abs(x - center.x), abs(y - center.y), halfSize.width, halfSize.height)
    case .roundedBox:
      unsigned = boxDistance(x - center.x, y - center.y)
    }
    return contains(x, y) ? -unsigned : unsigned
  }

  /// The unsigned distance from (px, py), relative to the centre, to a rounded box.
  private func boxDistance(_ px: Double, _ py: Double) -> Double {
    let w = halfSize.width
    let h = halfSize.height
    let (tl, tr, br, bl) = (radii[0], radii[1], radii[2], radii[3])
    // Edges: top, right, bottom, left, each between its corners' tangent points.
    var best = Self.segmentDistance(px, py, -w + tl, -h, w - tr, -h)
    best = min(best, Self.segmentDistance(px, py, w, -h + tr, w, h - br))
    best = min(best, Self.segmentDistance(px, py, w - br, h, -w + bl, h))
    best = min(best, Self.segmentDistance(px, py, -w, h - bl, -w, -h + tl))
    // Corners: centre and outward signs.
    let corners = [
      (-w + tl, -h + tl, -1.0, -1.0, tl), (w - tr, -h + tr, 1, -1, tr), (w - br, h - br, 1, 1, br),
      (-w + bl, h - bl, -1, 1, bl),
    ]
    for (cx, cy, sx, sy, r) in corners where r > 0 {
      let u = (px - cx) * sx
      let v = (py - cy) * sy
      // The corner curve lies in the square [0, r]^2 of (u, v): skip it when that
      // square is no nearer than the best so far.
      let gu = max(-u, 0, u - r)
      let gv = max(-v, 0, v - r)
      if (gu * gu + gv * gv).squareRoot() >= best { continue }
      best = min(best, cornerDistance(u, v, r))
    }
    return best
  }

  /// The distance from (u, v) to the corner curve `|s|^p + |t|^p = r^p`, s, t >= 0.
  private func cornerDistance(_ u: Double, _ v: Double, _ r: Double) -> Double {
    if exponent == 2 {
      if u >= 0, v >= 0 { return abs((u * u + v * v).squareRoot() - r) }
      return min(((u - r) * (u - r) + v * v).squareRoot(), (u * u + (v - r) * (v - r)).squareRoot())
    }
    // (r cos(t)^(2/p), r sin(t)^(2/p)), t in [0, pi/2], covers the curve.
    let q = 2 / exponent
    func squared(_ t: Double) -> Double {
      let s = r * pow(max(cos(t), 0), q) - u
      let z = r * pow(max(sin(t), 0), q) - v
      return s * s + z * z
    }
    let samples = 48
    let step = Double.pi / 2 / Double(samples)
    var bestIndex = 0
    var bestValue = Double.infinity
    for i in 0...samples {
      let value = squared(Double(i) * step)
      if value < bestValue {
        bestValue = value
        bestIndex = i
      }
    }
    var lo = max(Double(bestIndex - 1) * step, 0)
    var hi = min(Double(bestIndex + 1) * step, Double.pi / 2)
    let ratio = (5.0.squareRoot() - 1) / 2
    for _ in 0..<48 {
      let a = hi - ratio * (hi - lo)
      let b = lo + ratio * (hi - lo)
      if squared(a) < squared(b) { hi = b } else { lo = a }
    }
    return min(bestValue, squared((lo + hi) / 2)).squareRoot()
  }

  /// The distance from (px, py) to the segment from (ax, ay) to (bx, by).
  private static func segmentDistance(
    _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
  ) -> Double {
    let ex = bx - ax
    let ey = by - ay
    let length2 = ex * ex + ey * ey
    let t = length2 > 0 ? min(max(((px - ax) * ex + (py - ay) * ey) / length2, 0), 1) : 0
    let dx = px - (ax + t * ex)
    let dy = py - (ay + t * ey)
    return (dx * dx + dy * dy).squareRoot()
  }

  /// The distance from (px, py), px, py >= 0, to the ellipse of semi-axes (a, b):
  /// D. Eberly, "Distance from a point to an ellipse, an ellipsoid, or a
  /// hyperellipsoid" (2013), the root of its monotone function found by bisection
  /// to the last bit.
  public static func ellipseDistance(_ px: Double, _ py: Double, _ a: Double, _ b: Double) -> Double {
    // Eberly's method wants the longer axis first.
    if a < b { return ellipseDistance(py, px, b, a) }
    let (e0, e1, y0, y1) = (a, b, px, py)
    if y1 > 0 {
      if y0 > 0 {
        let z0 = y0 / e0
        let z1 = y1 / e1
        var g = z0 * z0 + z1 * z1 - 1
        if g == 0 { return 0 }
        let r0 = (e0 / e1) * (e0 / e1)
        let n0 = r0 * z0
        var s0 = z1 - 1
        var s1 = g < 0 ? 0 : (n0 * n0 + z1 * z1).squareRoot() - 1
        var s = 0.0
        for _ in 0..<1100 {
          s = (s0 + s1) / 2
          if s == s0 || s == s1 { break }
          let ratio0 = n0 / (s + r0)
          let ratio1 = z1 / (s + 1)
          g = ratio0 * ratio0 + ratio1 * ratio1 - 1
          if g > 0 { s0 = s } else if g < 0 { s1 = s } else { break }
        }
        let x0 = r0 * y0 / (s + r0)
        let x1 = y1 / (s + 1)
        return ((x0 - y0) * (x0 - y0) + (x1 - y1) * (x1 - y1)).squareRoot()
      }
      return abs(y1 - e1)
    }
    let numer0 = e0 * y0
    let denom0 = e0 * e0 - e1 * e1
    if numer0 < denom0 {
      let xde0 = numer0 / denom0
      let x0 = e0 * xde0
      let x1 = e1 * max(1 - xde0 * xde0, 0).squareRoot()
      return ((x0 - y0) * (x0 - y0) + x1 * x1).squareRoot()
    }
    return abs(y0 - e0)
  }
}
