import Foundation
import GLESGlass
import GlassTestSupport
import Testing

/// A shape at a few frame sizes; a concentric rectangle sits in a container grown
/// from its frame by `padding` (leading, top, trailing, bottom) points.
struct ShapeCase: Sendable, CustomTestStringConvertible {
  let name: String
  let shape: GLESGlass.Shape
  let sizes: [(width: Double, height: Double)]
  var padding: [Double]? = nil
  var containerRadius: Double = 0

  var testDescription: String { name }

  /// True when the distance function is the Euclidean one (all but continuous corners).
  var isEuclidean: Bool {
    switch shape {
    case .roundedRect(_, let style), .unevenRoundedRect(_, let style): style == .circular
    default: true
    }
  }

  func container(for frame: PointRect) -> ContainerShape? {
    guard let p = padding else { return nil }
    return ContainerShape(
      frame: PointRect(
        x: frame.x - p[0], y: frame.y - p[1], width: frame.width + p[0] + p[2], height: frame.height + p[1] + p[3]),
      cornerRadius: containerRadius)
  }

  /// Every (frame, scale) the case is measured at: fractional origins at scales 1
  /// and 2 for every size, and at scale 3 for the first.
  var placements: [(frame: PointRect, scale: Double)] {
    let origins: [(x: Double, y: Double, scale: Double)] = [(10.3, 7.7, 1), (4.45, 2.55, 1), (10.3, 7.7, 2)]
    let all = sizes.flatMap { size in
      origins.map { (PointRect(x: $0.x, y: $0.y, width: size.width, height: size.height), $0.scale) }
    }
    return all + [(PointRect(x: 10.3, y: 7.7, width: sizes[0].width, height: sizes[0].height), 3)]
  }
}

/// One shape resolved at one placement: the code under test and its oracle.
struct ResolvedShape {
  let geometry: ShapeGeometry
  let oracle: ShapeOracle
  let label: String

  init(_ c: ShapeCase, frame: PointRect, scale: Double) {
    let container = c.container(for: frame)
    geometry = c.shape.geometry(in: frame, scale: scale, container: container)
    oracle = ShapeOracle(c.shape, in: frame, scale: scale, container: container)
    label = "\(c.name) frame (\(frame.x), \(frame.y), \(frame.width), \(frame.height)) @\(scale)x"
  }

  /// The pixels of the oracle's bounding box grown by `margin` pixels.
  func pixels(margin: Int) -> (xs: Range<Int>, ys: Range<Int>) {
    let o = oracle
    let x0 = Int((o.center.x - o.halfSize.width).rounded(.down)) - margin
    let x1 = Int((o.center.x + o.halfSize.width).rounded(.up)) + margin
    let y0 = Int((o.center.y - o.halfSize.height).rounded(.down)) - margin
    let y1 = Int((o.center.y + o.halfSize.height).rounded(.up)) + margin
    return (x0..<x1, y0..<y1)
  }

  /// The smallest distance, up to `limit` pixels, from (x, y) to a point the oracle
  /// classes as `inside`: rings every 1/32 px, 64 directions each; nil past `limit`.
  func nearest(inside: Bool, _ x: Double, _ y: Double, limit: Double = 1) -> Double? {
    if oracle.contains(x, y) == inside { return 0 }
    let rings = Int((limit * 32).rounded(.up))
    for k in 1...rings {
      let rho = min(Double(k) / 32, limit)
      for j in 0..<64 {
        let angle = Double(j) * Double.pi / 32
        if oracle.contains(x + rho * cos(angle), y + rho * sin(angle)) == inside { return rho }
      }
    }
    return nil
  }
}

@Suite("ShapeGeometry: coverage, edges, distances and concentric corners against the analytic shapes")
struct ShapeGeometryTests {
  static let cases: [ShapeCase] = [
    ShapeCase(name: "rect", shape: .rect, sizes: [(44, 30), (120.6, 61.2), (19.5, 17.25)]),
    ShapeCase(
      name: "rounded rect circular", shape: .roundedRect(cornerRadius: 8, style: .circular),
      sizes: [(44, 30), (120.6, 61.2), (19.5, 17.25)]),
    ShapeCase(
      name: "rounded rect circular, radius past half", shape: .roundedRect(cornerRadius: 40, style: .circular),
      sizes: [(44, 30), (61.2, 120.6)]),
    ShapeCase(
      name: "rounded rect continuous", shape: .roundedRect(cornerRadius: 8, style: .continuous),
      sizes: [(44, 30), (120.6, 61.2), (19.5, 17.25)]),
    ShapeCase(
      name: "uneven rounded rect circular",
      shape: .rect(
        topLeadingRadius: 2, bottomLeadingRadius: 9, bottomTrailingRadius: 13.5, topTrailingRadius: 6, style: .circular),
      sizes: [(44, 30), (120.6, 61.2)]),
    ShapeCase(
      name: "uneven rounded rect continuous",
      shape: .rect(
        topLeadingRadius: 2, bottomLeadingRadius: 9, bottomTrailingRadius: 13.5, topTrailingRadius: 6,
        style: .continuous),
      sizes: [(44, 30), (120.6, 61.2)]),
    ShapeCase(name: "capsule horizontal", shape: .capsule, sizes: [(80, 28.4), (44, 30)]),
    ShapeCase(name: "capsule vertical", shape: .capsule, sizes: [(28.4, 80), (20.5, 64)]),
    ShapeCase(name: "circle in a non-square frame", shape: .circle, sizes: [(60, 40), (25.2, 51.7)]),
    ShapeCase(name: "ellipse 3:1", shape: .ellipse, sizes: [(90, 30), (30, 90), (120.3, 40.1)]),
    ShapeCase(name: "ellipse 1.01:1", shape: .ellipse, sizes: [(60.6, 60), (40, 40.4)]),
    ShapeCase(name: "ellipse 1.6:1", shape: .ellipse, sizes: [(50, 80), (33.3, 20.8)]),
    ShapeCase(
      name: "concentric rectangle in a container", shape: .concentricRectangle, sizes: [(134, 84), (60.5, 40)],
      padding: [8, 6, 8, 10], containerRadius: 24),
    ShapeCase(
      name: "concentric rectangle with a minimum and a fixed corner",
      shape: .concentric(
        ConcentricCorners(
          topLeading: .concentric, topTrailing: .fixed(11), bottomTrailing: .concentric(minimum: 9),
          bottomLeading: .concentric),
        isUniform: false),
      sizes: [(134, 84), (60.5, 40)], padding: [3, 12, 20, 18], containerRadius: 24),
  ]

  @Test("a shape resolves to the oracle's centre, half size, corner radii and exponent", arguments: cases)
  func resolvesToOracle(_ c: ShapeCase) {
    for (frame, scale) in c.placements {
      let r = ResolvedShape(c, frame: frame, scale: scale)
      let g = r.geometry
      let o = r.oracle
      #expect((g.kind == .ellipse) == (o.kind == .ellipse), "\(r.label)")
      #expect(abs(Double(g.center.x) - o.center.x) < 1e-4 && abs(Double(g.center.y) - o.center.y) < 1e-4, "\(r.label)")
      #expect(
        abs(Double(g.halfSize.x) - o.halfSize.width) < 1e-4 && abs(Double(g.halfSize.y) - o.halfSize.height) < 1e-4,
        "\(r.label)")
      if o.kind == .roundedBox {
        let radii = [g.radii.x, g.radii.y, g.radii.z, g.radii.w].map(Double.init)
        #expect(zip(radii, o.radii).allSatisfy { abs($0 - $1) < 1e-4 }, "\(r.label): \(radii) vs \(o.radii)")
        #expect(Double(g.exponent) == o.exponent, "\(r.label)")
      }
    }
  }

  @Test("the covered area matches the analytic area within 0.5 %", arguments: cases)
  func coveredArea(_ c: ShapeCase) {
    for (frame, scale) in c.placements {
      let r = ResolvedShape(c, frame: frame, scale: scale)
      let (xs, ys) = r.pixels(margin: 2)
      let touched = r.geometry.pixelBounds()
      var sum = 0.0
      var outsidePixelBounds = 0
      for y in ys {
        for x in xs {
          let coverage = Double(r.geometry.coverage(Float(x) + 0.5, Float(y) + 0.5))
          sum += coverage
          let within =
            x >= touched.x && x < touched.x + touched.width && y >= touched.y && y < touched.y + touched.height
          if coverage > 0, !within { outsidePixelBounds += 1 }
        }
      }
      let error = abs(sum - r.oracle.area) / r.oracle.area
      #expect(error < 0.005, "\(r.label): covered \(sum) px², analytic \(r.oracle.area) px²")
      #expect(outsidePixelBounds == 0, "\(r.label): \(outsidePixelBounds) covered pixels outside pixelBounds()")
    }
  }

  @Test(
    "a pixel more than half covered has an inside point within 1 px, one less than half an outside point",
    arguments: cases)
  func edgeWithinOnePixel(_ c: ShapeCase) {
    for (frame, scale) in c.placements {
      let r = ResolvedShape(c, frame: frame, scale: scale)
      let (xs, ys) = r.pixels(margin: 2)
      var failures: [String] = []
      for y in ys {
        for x in xs {
          let cx = Double(x) + 0.5
          let cy = Double(y) + 0.5
          let coverage = r.geometry.coverage(Float(cx), Float(cy))
          guard coverage != 0.5 else { continue }
          if r.nearest(inside: coverage > 0.5, cx, cy) == nil, failures.count < 5 {
            failures.append("pixel (\(x), \(y)) coverage \(coverage)")
          }
        }
      }
      #expect(failures.isEmpty, "\(r.label): no analytic match within 1 px: \(failures)")
    }
  }

  @Test(
    "circular rounded boxes and ellipses: the distance is Euclidean within 0.05 px near the edge",
    arguments: cases.filter(\.isEuclidean))
  func euclideanDistance(_ c: ShapeCase) {
    for (frame, scale) in c.placements {
      let r = ResolvedShape(c, frame: frame, scale: scale)
      let (xs, ys) = r.pixels(margin: 3)
      var worst = (error: 0.0, x: 0.0, y: 0.0)
      var checked = 0
      // Off the pixel centres, so that no sample sits on an axis of symmetry; each
      // row from both ends inward, up to 2.5 px inside (the shapes are convex).
      func sample(_ x: Int, _ y: Int) -> Double {
        let px = Double(x) + 0.37
        let py = Double(y) + 0.61
        let d = Double(r.geometry.distance(Float(px), Float(py)))
        if abs(d) < 2.5 {
          checked += 1
          let error = abs(d - r.oracle.distance(px, py))
          if error > worst.error { worst = (error, px, py) }
        }
        return d
      }
      for y in ys {
        var left = xs.lowerBound
        while left < xs.upperBound, sample(left, y) > -2.5 { left += 1 }
        var right = xs.upperBound - 1
        while right > left, sample(right, y) > -2.5 { right -= 1 }
      }
      // The band |d| < 2.5 px is 5 px wide all along the edge: about 5 samples per
      // pixel of perimeter, 8 to 10 times the bounding box's width plus height.
      // Fewer than 2 times means the loop skipped most of the edge.
      let boxWidth = 2 * r.oracle.halfSize.width
      let boxHeight = 2 * r.oracle.halfSize.height
      #expect(
        Double(checked) >= 2 * (boxWidth + boxHeight),
        "\(r.label): only \(checked) samples near the edge of a \(boxWidth) x \(boxHeight) px shape")
      #expect(
        worst.error < 0.05,
        "\(r.label): distance off by \(worst.error) px at (\(worst.x), \(worst.y))")
    }
  }

  @Test("a 10:1 ellipse: the distance is Euclidean within 0.05 px near the ends of its long axis")
  func eccentricEllipse() {
    do {
      for (width, height) in [(200.0, 20.0), (20.0, 200.0)] {
        let frame = PointRect(x: 10.3, y: 7.7, width: width, height: height)
        let g = GLESGlass.Shape.ellipse.geometry(in: frame, scale: 3)
        let o = ShapeOracle(.ellipse, in: frame, scale: 3)
        let horizontal = width > height
        let tip = horizontal ? o.halfSize.width : o.halfSize.height
        var worst = (error: 0.0, x: 0.0, y: 0.0)
        // From 3 px inside the end to 1 px outside, 3 px either side of the axis.
        for i in 0..<32 {
          for j in 0..<46 {
            let along = tip - 3 + Double(i) * 0.1234
            let across = -3 + Double(j) * 0.1333
            let x = o.center.x + (horizontal ? along : across)
            let y = o.center.y + (horizontal ? across : along)
            let error = abs(Double(g.distance(Float(x), Float(y))) - o.distance(x, y))
            if error > worst.error { worst = (error, x, y) }
          }
        }
        #expect(
          worst.error < 0.05, "\(width)x\(height) @3x: distance off by \(worst.error) px at (\(worst.x), \(worst.y))")
      }
    }
  }

  @Test(
    "continuous corners: the distance has the exact edge and is within 12 % of the Euclidean one near it",
    arguments: cases.filter { !$0.isEuclidean })
  func continuousDistance(_ c: ShapeCase) {
    for (frame, scale) in c.placements where scale == 2 {
      let r = ResolvedShape(c, frame: frame, scale: scale)
      let o = r.oracle
      var worstLow = 1.0
      var worstHigh = 0.0
      var samples = 0
      let half = (o.halfSize.width, o.halfSize.height)
      for (i, radius) in o.radii.enumerated() where radius > 1 {
        // The corner's square, grown by 2 px, on the corner's side.
        let sx: Double = i == 0 || i == 3 ? -1 : 1
        let sy: Double = i < 2 ? -1 : 1
        let steps = Int(radius + 4)
        for a in 0..<steps {
          for b in 0..<steps {
            let px = o.center.x + sx * (half.0 - radius - 2 + Double(a) + 0.37)
            let py = o.center.y + sy * (half.1 - radius - 2 + Double(b) + 0.61)
            // |distance| <= Euclidean: no sample the first test drops is near the edge.
            let d = Double(r.geometry.distance(Float(px), Float(py)))
            guard abs(d) < 1.5 else { continue }
            let euclidean = o.distance(px, py)
            guard abs(euclidean) > 0.05, abs(euclidean) < 1.5 else { continue }
            let ratio = d / euclidean
            worstLow = min(worstLow, ratio)
            worstHigh = max(worstHigh, ratio)
            samples += 1
          }
        }
      }
      #expect(samples > 50, "\(r.label)")
      #expect(worstLow >= 0.88 && worstHigh <= 1.001, "\(r.label): distance / Euclidean in [\(worstLow), \(worstHigh)]")
    }
  }

  @Test(
    "negative at the centre, positive outside, coverage 0 far out and 1 deep in, normals point outward",
    arguments: cases)
  func sanity(_ c: ShapeCase) {
    for (frame, scale) in c.placements {
      let r = ResolvedShape(c, frame: frame, scale: scale)
      let g = r.geometry
      let o = r.oracle
      let (cx, cy) = (o.center.x, o.center.y)
      let (w, h) = (o.halfSize.width, o.halfSize.height)
      #expect(g.distance(Float(cx), Float(cy)) < 0, "\(r.label)")
      #expect(g.coverage(Float(cx), Float(cy)) == 1, "\(r.label)")
      for (fx, fy) in [(-1.0, -1.0), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)] {
        // Just outside the bounds (0.25 px), and well outside (3 px).
        let nx = cx + fx * (w + 0.25)
        let ny = cy + fy * (h + 0.25)
        #expect(g.distance(Float(nx), Float(ny)) > 0, "\(r.label): at (\(nx), \(ny))")
        let fx3 = cx + fx * (w + 3)
        let fy3 = cy + fy * (h + 3)
        #expect(g.coverage(Float(fx3), Float(fy3)) == 0, "\(r.label): at (\(fx3), \(fy3))")
      }
      // Edge points along 48 rays from the centre, found by bisection on the oracle.
      for k in 0..<48 {
        let angle = Double(k) * Double.pi / 24 + 0.01
        let (dx, dy) = (cos(angle), sin(angle))
        var lo = 0.0
        var hi = w + h + 1
        for _ in 0..<50 {
          let mid = (lo + hi) / 2
          if o.contains(cx + mid * dx, cy + mid * dy) { lo = mid } else { hi = mid }
        }
        let ex = cx + lo * dx
        let ey = cy + lo * dy
        let n = g.normal(Float(ex), Float(ey))
        let dot = Double(n.x) * (ex - cx) + Double(n.y) * (ey - cy)
        #expect(dot > 0, "\(r.label): normal \(n) at edge point (\(ex), \(ey))")
      }
    }
  }

  // MARK: Concentric corners

  /// Container (0, 0, 300, 200) with corner radius 24.
  static let container = ContainerShape(frame: PointRect(x: 0, y: 0, width: 300, height: 200), cornerRadius: 24)
  /// From (8, 8) to (292, 180): 8 points of padding at the top and sides, 20 at the bottom.
  static let inner = PointRect(x: 8, y: 8, width: 284, height: 172)

  static func radii(_ r: CornerRadii) -> [Double] { [r.topLeading, r.topTrailing, r.bottomTrailing, r.bottomLeading] }

  @Test("each concentric corner is the container radius less the Chebyshev distance between the corners")
  func concentricPerCorner() {
    let corners = ConcentricCorners(.concentric)
    #expect(Self.radii(corners.resolve(in: Self.inner, container: Self.container, isUniform: false)) == [16, 16, 4, 4])
    // Paddings leading 5, top 12, trailing 10, bottom 3: max(|dx|, |dy|) per corner.
    let uneven = PointRect(x: 5, y: 12, width: 285, height: 185)
    #expect(Self.radii(corners.resolve(in: uneven, container: Self.container, isUniform: false)) == [12, 12, 14, 19])
    // A frame poking out of its container: the distance is still |dx|, |dy|.
    let poking = PointRect(x: -4, y: 2, width: 306, height: 196)
    #expect(Self.radii(corners.resolve(in: poking, container: Self.container, isUniform: false)) == [20, 22, 22, 20])
    // The oracle's independent reading of the rule agrees.
    for frame in [Self.inner, uneven, poking] {
      #expect(
        Self.radii(corners.resolve(in: frame, container: Self.container, isUniform: false))
          == ShapeOracle.concentricRadii(corners, in: frame, container: Self.container, isUniform: false))
    }
  }

  @Test("a concentric corner never goes below its minimum, nor below 0 (square at zero)")
  func concentricMinimumAndZero() {
    let minimum = ConcentricCorners(.concentric(minimum: 10))
    #expect(
      Self.radii(minimum.resolve(in: Self.inner, container: Self.container, isUniform: false)) == [16, 16, 10, 10])
    let deep = PointRect(x: 30, y: 8, width: 240, height: 162)  // 30 points at the sides, 30 at the bottom
    #expect(
      Self.radii(ConcentricCorners(.concentric).resolve(in: deep, container: Self.container, isUniform: false))
        == [0, 0, 0, 0])
    let negative = ConcentricCorners(.concentric(minimum: -5))
    #expect(Self.radii(negative.resolve(in: deep, container: Self.container, isUniform: false)) == [0, 0, 0, 0])
    // Without a container a concentric corner is its minimum.
    #expect(Self.radii(minimum.resolve(in: Self.inner, container: nil, isUniform: false)) == [10, 10, 10, 10])
    #expect(
      Self.radii(ConcentricCorners(.concentric).resolve(in: Self.inner, container: nil, isUniform: false))
        == [0, 0, 0, 0])
  }

  @Test("a fixed corner keeps its radius; isUniform gives every corner the smallest")
  func concentricFixedAndUniform() {
    let mixed = ConcentricCorners(
      topLeading: .fixed(7), topTrailing: .concentric, bottomTrailing: .concentric(minimum: 6),
      bottomLeading: .fixed(30))
    #expect(Self.radii(mixed.resolve(in: Self.inner, container: Self.container, isUniform: false)) == [7, 16, 6, 30])
    #expect(Self.radii(mixed.resolve(in: Self.inner, container: nil, isUniform: false)) == [7, 0, 6, 30])
    #expect(Self.radii(mixed.resolve(in: Self.inner, container: Self.container, isUniform: true)) == [6, 6, 6, 6])
    let all = ConcentricCorners(.concentric)
    #expect(Self.radii(all.resolve(in: Self.inner, container: Self.container, isUniform: true)) == [4, 4, 4, 4])
    let negativeFixed = ConcentricCorners(
      topLeading: .fixed(-3), topTrailing: .concentric, bottomTrailing: .concentric, bottomLeading: .concentric)
    #expect(
      Self.radii(negativeFixed.resolve(in: Self.inner, container: Self.container, isUniform: false)) == [0, 16, 4, 4])
  }

  @Test("Shape.geometry radii are the resolved radii times the scale, circular, clamped to half the shorter side")
  func concentricGeometry() {
    for scale in [1.0, 2, 3] {
      for isUniform in [false, true] {
        let shape = GLESGlass.Shape.concentric(ConcentricCorners(.concentric), isUniform: isUniform)
        let g = shape.geometry(in: Self.inner, scale: scale, container: Self.container)
        let expected = (isUniform ? [4.0, 4, 4, 4] : [16, 16, 4, 4]).map { Float($0 * scale) }
        #expect([g.radii.x, g.radii.y, g.radii.z, g.radii.w] == expected, "scale \(scale)")
        #expect(g.kind == .roundedBox && g.exponent == ShapeGeometry.circularExponent)
        #expect(g.halfSize == SIMD2(Float(142 * scale), Float(86 * scale)))
      }
    }
    // A frame 20 points tall: the 16-point corners are clamped to 10.
    let thin = PointRect(x: 8, y: 8, width: 284, height: 20)
    let container = ContainerShape(frame: PointRect(x: 0, y: 0, width: 300, height: 36), cornerRadius: 24)
    let g = GLESGlass.Shape.concentricRectangle.geometry(in: thin, scale: 2, container: container)
    #expect([g.radii.x, g.radii.y, g.radii.z, g.radii.w] == [20, 20, 20, 20])
  }
}

@Suite("Eccentric ellipses")
struct EccentricEllipseTests {
  /// Everywhere inside and near long, thin ellipses (the bevel of glass reads the
  /// distance deep inside): within 0.05 px of the true distance, and the normal
  /// points from the closest point outward.
  @Test(
    "the distance is Euclidean inside and around 7.5:1 to 40:1 ellipses",
    arguments: [(600.0, 80.0), (80.0, 600.0), (400.0, 10.0), (129.0 * 3, 0.46 * 3 * 20)])
  func everywhere(size: (Double, Double)) {
    let frame = PointRect(x: 3.3, y: 2.7, width: size.0, height: size.1)
    let g = GLESGlass.Shape.ellipse.geometry(in: frame, scale: 1)
    let o = ShapeOracle(.ellipse, in: frame, scale: 1)
    var worst = 0.0
    let cx = frame.x + frame.width / 2
    let cy = frame.y + frame.height / 2
    for i in 0...60 {
      for j in 0...20 {
        let x = cx + (Double(i) / 60 - 0.5) * frame.width * 1.1
        let y = cy + (Double(j) / 20 - 0.5) * frame.height * 1.1
        worst = max(worst, abs(Double(g.distance(Float(x), Float(y))) - o.distance(x, y)))
      }
    }
    #expect(worst < 0.05, "worst error \(worst) px")
    // The reviewer's point: 207.5, 9 from the centre of a 600x80 ellipse.
    if size == (600, 80) {
      let d = g.distance(Float(cx + 207.5), Float(cy + 9))
      #expect(abs(Double(d) - o.distance(cx + 207.5, cy + 9)) < 0.05)
      let n = g.normal(Float(cx + 207.5), Float(cy + 9))
      #expect(n.y > 0.5, "the normal \(n) points to the nearer long side")
    }
  }
}
