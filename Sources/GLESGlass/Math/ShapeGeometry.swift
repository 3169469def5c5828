import Foundation

/// A shape resolved to pixels: the signed distance function every primitive that
/// draws a shape evaluates. `common.glsl` `shapeDistance` is the same code, line by
/// line, in GLSL; both run in `Float`.
///
/// Two kinds cover every SwiftUI shape: a box with a radius per corner (rect,
/// rounded rect, uneven rounded rect, capsule, circle, concentric rectangle) and an
/// ellipse. Distances are in pixels, negative inside.
public struct ShapeGeometry: Hashable, Codable, Sendable {
  /// Which distance function.
  public enum Kind: Int32, Hashable, Codable, Sendable {
    /// A box with a corner curve per corner.
    case roundedBox = 0
    /// An axis-aligned ellipse.
    case ellipse = 1
  }

  /// Which distance function.
  public var kind: Kind
  /// Centre, in pixels (x right, y down).
  public var center: SIMD2<Float>
  /// Half width and half height, in pixels.
  public var halfSize: SIMD2<Float>
  /// Corner extents in pixels, in the order top-leading, top-trailing,
  /// bottom-trailing, bottom-leading; each at most `min(halfSize)`.
  public var radii: SIMD4<Float>
  /// The corner curve: 2 is a circular arc, 3 the superellipse of a continuous corner.
  public var exponent: Float

  /// The exponent of a circular corner.
  public static let circularExponent: Float = 2
  /// The exponent of a continuous corner: `|x|^3 + |y|^3 = r^3` meets the straight
  /// edge with zero curvature, as Apple's continuous corners do.
  public static let continuousExponent: Float = 3
  /// A continuous corner of radius r spans `1.5 r` along each edge, so that its
  /// diagonal lies close to that of a circular corner of radius r (0.44 r from the
  /// corner point against 0.41 r) while it starts more gently.
  public static let continuousExtent = 1.5

  /// A box with corners; radii are clamped to `[0, min(halfSize)]`; `exponent` is
  /// 2 (circular) or 3 (continuous).
  public init(
    roundedBoxCenter center: SIMD2<Float>, halfSize: SIMD2<Float>, radii: SIMD4<Float>,
    exponent: Float = ShapeGeometry.circularExponent
  ) {
    kind = .roundedBox
    self.center = center
    self.halfSize = SIMD2(max(halfSize.x, 0), max(halfSize.y, 0))
    let limit = min(self.halfSize.x, self.halfSize.y)
    self.radii = radii.replacing(with: 0, where: radii .< 0).replacing(with: limit, where: radii .> limit)
    precondition(exponent == Self.circularExponent || exponent == Self.continuousExponent, "exponent 2 or 3")
    self.exponent = exponent
  }

  /// An ellipse filling a box.
  public init(ellipseCenter center: SIMD2<Float>, halfSize: SIMD2<Float>) {
    kind = .ellipse
    self.center = center
    self.halfSize = SIMD2(max(halfSize.x, 0), max(halfSize.y, 0))
    radii = .zero
    exponent = Self.circularExponent
  }

  /// The signed distance from pixel position (x, y) to the edge, in pixels:
  /// negative inside. Euclidean for circular corners and ellipses; for continuous
  /// corners it is the 3-norm distance, whose zero set is the exact edge and which
  /// is within 12 % of the Euclidean distance near the corner.
  @inlinable
  public func distance(_ x: Float, _ y: Float) -> Float {
    switch kind {
    case .roundedBox: return ShapeSDF.roundedBox(x - center.x, y - center.y, halfSize, radii, exponent)
    case .ellipse: return ShapeSDF.ellipse(abs(x - center.x), abs(y - center.y), halfSize.x, halfSize.y)
    }
  }

  /// The unit outward normal at (x, y), analytic: the direction of the distance's
  /// gradient (toward the nearer edge inside the shape; the corner curve's normal in
  /// a corner; the ellipse's normal at the closest point).
  @inlinable
  public func normal(_ x: Float, _ y: Float) -> SIMD2<Float> {
    let px = x - center.x
    let py = y - center.y
    let n: SIMD2<Float>
    switch kind {
    case .roundedBox:
      let radius = px < 0 ? (py < 0 ? radii.x : radii.w) : (py < 0 ? radii.y : radii.z)
      n = ShapeSDF.roundedBoxNormal(abs(px), abs(py), halfSize, radius, exponent)
    case .ellipse:
      n = ShapeSDF.ellipseNormal(abs(px), abs(py), halfSize.x, halfSize.y)
    }
    return SIMD2(px < 0 ? -n.x : n.x, py < 0 ? -n.y : n.y)
  }

  /// Anti-aliased coverage of the pixel centred at (x, y): `clamp(0.5 - d, 0, 1)`.
  @inlinable
  public func coverage(_ x: Float, _ y: Float) -> Float {
    min(max(0.5 - distance(x, y), 0), 1)
  }

  /// The bounding box, in pixels (possibly fractional).
  public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    (
      Double(center.x - halfSize.x), Double(center.y - halfSize.y), Double(center.x + halfSize.x),
      Double(center.y + halfSize.y)
    )
  }

  /// The whole pixels the shape touches, grown by `margin` pixels on every side.
  public func pixelBounds(margin: Double = 0) -> PixelRect {
    let b = bounds
    let x0 = Int((b.minX - margin - 1).rounded(.down))
    let y0 = Int((b.minY - margin - 1).rounded(.down))
    let x1 = Int((b.maxX + margin + 1).rounded(.up))
    let y1 = Int((b.maxY + margin + 1).rounded(.up))
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// True when the shape covers every pixel of `rect` fully (coverage 1): a
  /// rectangle with square corners whose edges lie on or outside the rect's.
  public func coversFully(_ rect: PixelRect) -> Bool {
    guard kind == .roundedBox, radii == .zero else { return false }
    let b = bounds
    return b.minX <= Double(rect.x) && b.minY <= Double(rect.y) && b.maxX >= Double(rect.maxX)
      && b.maxY >= Double(rect.maxY)
  }

  /// The same shape scaled about its centre by `factor`.
  public func scaled(by factor: Float) -> ShapeGeometry {
    var copy = self
    copy.halfSize *= factor
    copy.radii *= factor
    return copy
  }

  /// How far apart two shapes are, in pixels, measured with their own distance
  /// functions: the least value of `d_self(p) + d_other(p)` over the plane, which
  /// for two convex shapes (every shape here is) is the gap between their edges,
  /// and minus the depth of their overlap when they overlap. Found by a compass
  /// search, which converges on a convex function, to within 1/100 pixel.
  public func separation(from other: ShapeGeometry) -> Double {
    func f(_ x: Double, _ y: Double) -> Double {
      Double(distance(Float(x), Float(y))) + Double(other.distance(Float(x), Float(y)))
    }
    var x = Double(center.x + other.center.x) / 2
    var y = Double(center.y + other.center.y) / 2
    var best = f(x, y)
    var step = Double(max(halfSize.x, halfSize.y, other.halfSize.x, other.halfSize.y, 1))
    let directions: [(Double, Double)] = [
      (1, 0), (-1, 0), (0, 1), (0, -1), (0.7071, 0.7071), (-0.7071, 0.7071), (0.7071, -0.7071), (-0.7071, -0.7071),
    ]
    var evaluations = 0
    while step > 0.01 && evaluations < 20_000 {
      var moved = false
      for (dx, dy) in directions {
        let value = f(x + dx * step, y + dy * step)
        evaluations += 1
        if value < best {
          best = value
          x += dx * step
          y += dy * step
          moved = true
          break
        }
      }
      if !moved { step /= 2 }
    }
    return best
  }

  /// The same shape moved by (dx, dy) pixels.
  public func offsetBy(_ dx: Float, _ dy: Float) -> ShapeGeometry {
    var copy = self
    copy.center += SIMD2(dx, dy)
    return copy
  }
}

/// The distance functions, written once for the CPU; `common.glsl` mirrors them.
public enum ShapeSDF {
  /// A box of half size `b` centred at the origin with corner extents `r` (top-leading,
  /// top-trailing, bottom-trailing, bottom-leading) and corner exponent `n`; (px, py)
  /// relative to the centre, y down.
  ///
  ///     q = |p| - b + r;   d = min(max(q.x, q.y), 0) + |max(q, 0)|_n - r
  @inlinable
  public static func roundedBox(_ px: Float, _ py: Float, _ b: SIMD2<Float>, _ r: SIMD4<Float>, _ n: Float) -> Float {
    let radius = px < 0 ? (py < 0 ? r.x : r.w) : (py < 0 ? r.y : r.z)
    let qx = abs(px) - b.x + radius
    let qy = abs(py) - b.y + radius
    let vx = max(qx, 0)
    let vy = max(qy, 0)
    var outside: Float
    if n == 2 {
      outside = (vx * vx + vy * vy).squareRoot()
    } else {
      let m = max(vx, vy)
      outside = 0
      if m > 0 {
        let sx = vx / m
        let sy = vy / m
        outside = m * powf(sx * sx * sx + sy * sy * sy, 1 / n)
      }
    }
    return min(max(qx, qy), 0) + outside - radius
  }

  /// The outward normal of `roundedBox` at (ax, ay) >= 0 in the quadrant whose corner
  /// has `radius`: the corner curve's normal, else the axis of the nearer edge.
  @inlinable
  public static func roundedBoxNormal(
    _ ax: Float, _ ay: Float, _ b: SIMD2<Float>, _ radius: Float, _ n: Float
  )
    -> SIMD2<Float>
  {
    let qx = ax - b.x + radius
    let qy = ay - b.y + radius
    if qx > 0 && qy > 0 {
      let gx = n == 2 ? qx : qx * qx
      let gy = n == 2 ? qy : qy * qy
      let length = (gx * gx + gy * gy).squareRoot()
      return SIMD2(gx / length, gy / length)
    }
    return qx > qy ? SIMD2(1, 0) : SIMD2(0, 1)
  }

  /// The outward normal of `ellipse` at its closest point (x, y) to (px, py) >= 0:
  /// `normalize(x / a^2, y / b^2)`.
  @inlinable
  public static func ellipseNormal(_ px: Float, _ py: Float, _ a: Float, _ b: Float) -> SIMD2<Float> {
    if a == b || a <= 0 || b <= 0 {
      let length = (px * px + py * py).squareRoot()
      return length > 1e-6 ? SIMD2(px / length, py / length) : SIMD2(0, 1)
    }
    let c = ellipseClosest(px, py, a, b)
    let nx = c.x / (a * a)
    let ny = c.y / (b * b)
    let length = (nx * nx + ny * ny).squareRoot()
    return SIMD2(nx / length, ny / length)
  }

  /// The signed distance from (px, py) >= 0 to the ellipse of semi-axes (a, b) at
  /// the origin, through its closest point.
  @inlinable
  public static func ellipse(_ px: Float, _ py: Float, _ a: Float, _ b: Float) -> Float {
    if a == b { return (px * px + py * py).squareRoot() - a }
    if a <= 0 || b <= 0 { return max(px - a, py - b) }
    let c = ellipseClosest(px, py, a, b)
    let dx = px - c.x
    let dy = py - c.y
    let d = (dx * dx + dy * dy).squareRoot()
    let inside = (px / a) * (px / a) + (py / b) * (py / b) < 1
    return inside ? -d : d
  }

  /// The closest point of the ellipse of semi-axes (a, b), a != b, to (px, py) >= 0,
  /// by Eberly's method: the root of
  ///
  ///     g(s) = (r z0 / (s + r))^2 + (z1 / (s + 1))^2 - 1,   z = p / axes, r = (major / minor)^2
  ///
  /// found by bisection (robust for any eccentricity, inside or outside).
  @inlinable
  public static func ellipseClosest(_ px: Float, _ py: Float, _ a: Float, _ b: Float) -> SIMD2<Float> {
    // Work with the major axis first.
    let swap = a < b
    let e0 = swap ? b : a
    let e1 = swap ? a : b
    let y0 = swap ? py : px
    let y1 = swap ? px : py
    var x0: Float
    var x1: Float
    if y1 > 0 {
      if y0 > 0 {
        let z0 = y0 / e0
        let z1 = y1 / e1
        let g = z0 * z0 + z1 * z1 - 1
        if g != 0 {
          let r0 = (e0 / e1) * (e0 / e1)
          let n0 = r0 * z0
          var s0 = z1 - 1
          var s1: Float = g < 0 ? 0 : (n0 * n0 + z1 * z1).squareRoot() - 1
          var s: Float = 0
          for _ in 0..<48 {
            s = (s0 + s1) * 0.5
            if s == s0 || s == s1 { break }
            let q0 = n0 / (s + r0)
            let q1 = z1 / (s + 1)
            let h = q0 * q0 + q1 * q1 - 1
            if h > 0 {
              s0 = s
            } else if h < 0 {
              s1 = s
            } else {
              break
            }
          }
          x0 = r0 * y0 / (s + r0)
          x1 = y1 / (s + 1)
        } else {
          x0 = y0
          x1 = y1
        }
      } else {
        x0 = 0
        x1 = e1
      }
    } else {
      let numer = e0 * y0
      let denom = e0 * e0 - e1 * e1
      if numer < denom {
        let t = numer / denom
        x0 = e0 * t
        x1 = e1 * max(1 - t * t, 0).squareRoot()
      } else {
        x0 = e0
        x1 = 0
      }
    }
    return swap ? SIMD2(x1, x0) : SIMD2(x0, x1)
  }
}
