/// The shapes of SwiftUI that glass, materials, fills and clips take. Sizes are in
/// points; `geometry(in:scale:container:)` resolves a shape in a frame to pixels.
public enum Shape: Hashable, Sendable {
  /// The shape's kind without its parameters (`roundedRect` whatever its radius):
  /// what `glassEffectUnion` members must share.
  public var kind: String {
    switch self {
    case .rect: "rect"
    case .roundedRect: "roundedRect"
    case .unevenRoundedRect: "unevenRoundedRect"
    case .capsule: "capsule"
    case .circle: "circle"
    case .ellipse: "ellipse"
    case .concentric: "concentricRectangle"
    }
  }

  /// `Rectangle`.
  case rect
  /// `RoundedRectangle(cornerRadius:style:)`.
  case roundedRect(cornerRadius: Double, style: RoundedCornerStyle = .circular)
  /// `UnevenRoundedRectangle`: a radius per corner.
  case unevenRoundedRect(CornerRadii, style: RoundedCornerStyle = .circular)
  /// `Capsule`: corners of half the shorter side.
  case capsule
  /// `Circle`: the largest circle centred in the frame.
  case circle
  /// `Ellipse`: the ellipse filling the frame.
  case ellipse
  /// `ConcentricRectangle(corners:isUniform:)`: corners resolved against the
  /// container shape.
  case concentric(ConcentricCorners, isUniform: Bool = false)

  /// `.rect(cornerRadius:style:)`.
  public static func rect(cornerRadius: Double, style: RoundedCornerStyle = .circular) -> Shape {
    .roundedRect(cornerRadius: cornerRadius, style: style)
  }

  /// `.rect(topLeadingRadius:bottomLeadingRadius:bottomTrailingRadius:topTrailingRadius:style:)`.
  public static func rect(
    topLeadingRadius: Double = 0, bottomLeadingRadius: Double = 0, bottomTrailingRadius: Double = 0,
    topTrailingRadius: Double = 0, style: RoundedCornerStyle = .circular
  ) -> Shape {
    .unevenRoundedRect(
      CornerRadii(
        topLeading: topLeadingRadius, topTrailing: topTrailingRadius, bottomTrailing: bottomTrailingRadius,
        bottomLeading: bottomLeadingRadius), style: style)
  }

  /// `ConcentricRectangle()`: every corner concentric with the container.
  public static var concentricRectangle: Shape { .concentric(ConcentricCorners(.concentric)) }

  /// True for a concentric rectangle, which needs a container shape.
  public var needsContainer: Bool {
    if case .concentric(let corners, _) = self { corners.needsContainer } else { false }
  }

  /// The shape in `frame` (points) at `scale`, in pixels. A concentric rectangle
  /// is resolved against `container`; without one its concentric corners are square.
  public func geometry(in frame: PointRect, scale: Double, container: ContainerShape? = nil) -> ShapeGeometry {
    let center = SIMD2(Float((frame.x + frame.width / 2) * scale), Float((frame.y + frame.height / 2) * scale))
    let half = SIMD2(Float(frame.width * scale / 2), Float(frame.height * scale / 2))
    func box(_ radii: CornerRadii, _ style: RoundedCornerStyle) -> ShapeGeometry {
      var r = SIMD4(radii.topLeading, radii.topTrailing, radii.bottomTrailing, radii.bottomLeading) * scale
      var exponent = ShapeGeometry.circularExponent
      if style == .continuous {
        r *= ShapeGeometry.continuousExtent
        exponent = ShapeGeometry.continuousExponent
      }
      return ShapeGeometry(
        roundedBoxCenter: center, halfSize: half, radii: SIMD4<Float>(r), exponent: exponent)
    }
    switch self {
    case .rect:
      return box(CornerRadii(0), .circular)
    case .roundedRect(let radius, let style):
      return box(CornerRadii(radius), style)
    case .unevenRoundedRect(let radii, let style):
      return box(radii, style)
    case .capsule:
      return box(CornerRadii(min(frame.width, frame.height) / 2), .circular)
    case .circle:
      let side = Float(min(frame.width, frame.height) * scale)
      return ShapeGeometry(
        roundedBoxCenter: center, halfSize: SIMD2(side / 2, side / 2), radii: SIMD4(repeating: side / 2))
    case .ellipse:
      return ShapeGeometry(ellipseCenter: center, halfSize: half)
    case .concentric(let corners, let isUniform):
      return box(corners.resolve(in: frame, container: container, isUniform: isUniform), .circular)
    }
  }
}

/// How a rounded corner curves.
public enum RoundedCornerStyle: String, Hashable, Sendable, CaseIterable {
  /// A quarter circle.
  case circular
  /// Apple's continuous corner: a longer curve that meets the edges with no jump
  /// in curvature (a superellipse of exponent 3 spanning 1.5 times the radius).
  case continuous
}

/// A radius per corner, in points.
public struct CornerRadii: Hashable, Sendable {
  /// Top-leading radius.
  public var topLeading: Double
  /// Top-trailing radius.
  public var topTrailing: Double
  /// Bottom-trailing radius.
  public var bottomTrailing: Double
  /// Bottom-leading radius.
  public var bottomLeading: Double

  /// Makes radii.
  public init(topLeading: Double, topTrailing: Double, bottomTrailing: Double, bottomLeading: Double) {
    self.topLeading = topLeading
    self.topTrailing = topTrailing
    self.bottomTrailing = bottomTrailing
    self.bottomLeading = bottomLeading
  }

  /// The same radius at every corner.
  public init(_ radius: Double) {
    self.init(topLeading: radius, topTrailing: radius, bottomTrailing: radius, bottomLeading: radius)
  }
}

/// One corner of a `ConcentricRectangle`.
public enum ConcentricCorner: Hashable, Sendable {
  /// A fixed radius, in points.
  case fixed(Double)
  /// The container's radius less the distance between the two corners, never
  /// below `minimum` points (`.concentric` is a minimum of 0: square at zero).
  case concentric(minimum: Double)

  /// `.concentric`: no minimum.
  public static let concentric = ConcentricCorner.concentric(minimum: 0)
}

/// The four corners of a `ConcentricRectangle`.
public struct ConcentricCorners: Hashable, Sendable {
  /// Top-leading.
  public var topLeading: ConcentricCorner
  /// Top-trailing.
  public var topTrailing: ConcentricCorner
  /// Bottom-trailing.
  public var bottomTrailing: ConcentricCorner
  /// Bottom-leading.
  public var bottomLeading: ConcentricCorner

  /// The same rule at every corner.
  public init(_ corner: ConcentricCorner) {
    self.init(topLeading: corner, topTrailing: corner, bottomTrailing: corner, bottomLeading: corner)
  }

  /// A rule per corner.
  public init(
    topLeading: ConcentricCorner, topTrailing: ConcentricCorner, bottomTrailing: ConcentricCorner,
    bottomLeading: ConcentricCorner
  ) {
    self.topLeading = topLeading
    self.topTrailing = topTrailing
    self.bottomTrailing = bottomTrailing
    self.bottomLeading = bottomLeading
  }

  /// The corners in order top-leading, top-trailing, bottom-trailing, bottom-leading.
  public var all: [ConcentricCorner] { [topLeading, topTrailing, bottomTrailing, bottomLeading] }

  /// True when some corner is concentric.
  public var needsContainer: Bool {
    all.contains { if case .concentric = $0 { true } else { false } }
  }

  /// The radii, in points, of a concentric rectangle in `frame` inside `container`:
  ///
  ///     r = max(R - distance, minimum),  distance = max(|dx|, |dy|)
  ///
  /// where R is the container's corner radius and (dx, dy) is the offset between
  /// the container's corner and this corner. For an even padding p that is R - p,
  /// the radius whose arc shares the container arc's centre. With `isUniform`
  /// every corner takes the smallest of the four.
  public func resolve(in frame: PointRect, container: ContainerShape?, isUniform: Bool) -> CornerRadii {
    let corners = [
      (frame.x, frame.y, container.map { ($0.frame.x, $0.frame.y) }),
      (frame.maxX, frame.y, container.map { ($0.frame.maxX, $0.frame.y) }),
      (frame.maxX, frame.maxY, container.map { ($0.frame.maxX, $0.frame.maxY) }),
      (frame.x, frame.maxY, container.map { ($0.frame.x, $0.frame.maxY) }),
    ]
    var radii = zip(all, corners).map { rule, corner -> Double in
      switch rule {
      case .fixed(let radius):
        return max(radius, 0)
      case .concentric(let minimum):
        guard let container, let outer = corner.2 else { return max(minimum, 0) }
        let distance = max(abs(corner.0 - outer.0), abs(corner.1 - outer.1))
        return max(container.cornerRadius - distance, minimum, 0)
      }
    }
    if isUniform, let smallest = radii.min() { radii = [Double](repeating: smallest, count: 4) }
    return CornerRadii(topLeading: radii[0], topTrailing: radii[1], bottomTrailing: radii[2], bottomLeading: radii[3])
  }
}
