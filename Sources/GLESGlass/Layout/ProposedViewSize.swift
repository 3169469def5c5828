/// A size a parent offers a child, as SwiftUI's `ProposedViewSize`: each dimension
/// is nil (unspecified: "your ideal size"), 0 ("your smallest"), a length in
/// points, or infinity ("your largest").
public struct ProposedViewSize: Hashable, Sendable, CustomStringConvertible {
  /// The proposed width, in points; nil for the ideal width.
  public var width: Double?
  /// The proposed height, in points; nil for the ideal height.
  public var height: Double?

  /// Proposes `width` by `height` points (nil: the ideal size in that dimension).
  public init(width: Double?, height: Double?) {
    self.width = width
    self.height = height
  }

  /// Proposes a whole size.
  public init(_ size: PointSize) {
    self.init(width: size.width, height: size.height)
  }

  /// 0 × 0: the child's smallest size.
  public static let zero = ProposedViewSize(width: 0, height: 0)
  /// ∞ × ∞: the child's largest size.
  public static let infinity = ProposedViewSize(width: .infinity, height: .infinity)
  /// nil × nil: the child's ideal size.
  public static let unspecified = ProposedViewSize(width: nil, height: nil)

  /// The proposal along `axis`.
  public subscript(axis: Axis) -> Double? {
    get { axis == .horizontal ? width : height }
    set {
      if axis == .horizontal { width = newValue } else { height = newValue }
    }
  }

  /// This proposal with nil dimensions replaced by `size`'s (SwiftUI's
  /// `replacingUnspecifiedDimensions(by:)`; 10 × 10 points by default, what a
  /// shape or a colour takes when asked for its ideal size).
  public func replacingUnspecifiedDimensions(by size: PointSize = PointSize(width: 10, height: 10)) -> PointSize {
    PointSize(width: width ?? size.width, height: height ?? size.height)
  }

  /// The proposal as `width x height` (`nil`, `inf` or points).
  public var description: String {
    func text(_ value: Double?) -> String {
      guard let value else { return "nil" }
      return value == .infinity ? "inf" : "\(value)"
    }
    return "\(text(width)) x \(text(height))"
  }
}

/// The horizontal or the vertical axis.
public enum Axis: String, Hashable, Sendable, CaseIterable {
  case horizontal, vertical

  /// The other axis.
  public var cross: Axis { self == .horizontal ? .vertical : .horizontal }
}

extension PointSize {
  /// The size along `axis`.
  subscript(axis: Axis) -> Double {
    get { axis == .horizontal ? width : height }
    set {
      if axis == .horizontal { width = newValue } else { height = newValue }
    }
  }
}

extension PointOffset {
  /// The coordinate along `axis`.
  subscript(axis: Axis) -> Double {
    get { axis == .horizontal ? x : y }
    set {
      if axis == .horizontal { x = newValue } else { y = newValue }
    }
  }
}

/// Insets on each edge, in points (SwiftUI's `EdgeInsets`; leading is the left
/// edge in a left-to-right layout).
public struct EdgeInsets: Hashable, Sendable {
  /// Top inset, in points.
  public var top: Double
  /// Leading inset, in points.
  public var leading: Double
  /// Bottom inset, in points.
  public var bottom: Double
  /// Trailing inset, in points.
  public var trailing: Double

  /// Makes insets (all 0 by default).
  public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// The same inset on every edge.
  public init(all points: Double) {
    self.init(top: points, leading: points, bottom: points, trailing: points)
  }

  /// The insets along `axis`: leading + trailing, or top + bottom.
  func total(_ axis: Axis) -> Double { axis == .horizontal ? leading + trailing : top + bottom }
}

/// The edges of a rectangle, as a set (SwiftUI's `Edge.Set`).
public struct EdgeSet: OptionSet, Hashable, Sendable {
  /// The edges as bits.
  public let rawValue: Int
  /// Edges from their bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The top edge.
  public static let top = EdgeSet(rawValue: 1)
  /// The leading edge.
  public static let leading = EdgeSet(rawValue: 2)
  /// The bottom edge.
  public static let bottom = EdgeSet(rawValue: 4)
  /// The trailing edge.
  public static let trailing = EdgeSet(rawValue: 8)
  /// The leading and trailing edges.
  public static let horizontal: EdgeSet = [.leading, .trailing]
  /// The top and bottom edges.
  public static let vertical: EdgeSet = [.top, .bottom]
  /// Every edge.
  public static let all: EdgeSet = [.top, .leading, .bottom, .trailing]
}

/// Where a child sits along the horizontal axis of its parent.
public enum HorizontalAlignment: String, Hashable, Sendable, CaseIterable {
  case leading, center, trailing

  /// 0 for leading, 1/2 for centre, 1 for trailing.
  var fraction: Double {
    switch self {
    case .leading: 0
    case .center: 0.5
    case .trailing: 1
    }
  }
}

/// Where a child sits along the vertical axis of its parent.
public enum VerticalAlignment: String, Hashable, Sendable, CaseIterable {
  case top, center, bottom

  /// 0 for top, 1/2 for centre, 1 for bottom.
  var fraction: Double {
    switch self {
    case .top: 0
    case .center: 0.5
    case .bottom: 1
    }
  }
}

/// An alignment in both axes (SwiftUI's `Alignment`: `.topLeading` … `.bottomTrailing`).
public struct Alignment: Hashable, Sendable {
  /// The horizontal part.
  public var horizontal: HorizontalAlignment
  /// The vertical part.
  public var vertical: VerticalAlignment

  /// Makes an alignment.
  public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
    self.horizontal = horizontal
    self.vertical = vertical
  }

  /// Aligned topLeading.
  public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
  /// Aligned top.
  public static let top = Alignment(horizontal: .center, vertical: .top)
  /// Aligned topTrailing.
  public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
  /// Aligned leading.
  public static let leading = Alignment(horizontal: .leading, vertical: .center)
  /// Aligned center.
  public static let center = Alignment(horizontal: .center, vertical: .center)
  /// Aligned trailing.
  public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
  /// Aligned bottomLeading.
  public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
  /// Aligned bottom.
  public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
  /// Aligned bottomTrailing.
  public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

  /// The nine alignments by their SwiftUI names (`topLeading`, `center`, …).
  public static let named: [String: Alignment] = [
    "topLeading": .topLeading, "top": .top, "topTrailing": .topTrailing, "leading": .leading, "center": .center,
    "trailing": .trailing, "bottomLeading": .bottomLeading, "bottom": .bottom, "bottomTrailing": .bottomTrailing,
  ]

  /// The fraction along `axis` (0 leading or top, 1/2 centre, 1 trailing or bottom).
  func fraction(_ axis: Axis) -> Double { axis == .horizontal ? horizontal.fraction : vertical.fraction }

  /// The origin of a child of `size` aligned in `bounds` (the child may be
  /// larger): its guide on the bounds' guide.
  func origin(of size: PointSize, in bounds: PointRect) -> PointOffset {
    PointOffset(
      x: bounds.x + Self.guide(bounds.width, horizontal.fraction) - Self.guide(size.width, horizontal.fraction),
      y: bounds.y + Self.guide(bounds.height, vertical.fraction) - Self.guide(size.height, vertical.fraction))
  }

  /// An alignment guide's value in a view `length` long, for the alignment at
  /// `fraction`: 0 for leading and top, the length for trailing and bottom, half
  /// of it for centre (SwiftUI's default guides: leading is 0 even in a view of
  /// infinite width, where `length × 0` would not be a number).
  static func guide(_ length: Double, _ fraction: Double) -> Double {
    fraction == 0 ? 0 : fraction == 1 ? length : length * fraction
  }
}
