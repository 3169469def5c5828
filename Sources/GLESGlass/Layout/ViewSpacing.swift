/// The spacing a view wants between itself and its neighbours in a stack, edge
/// by edge (SwiftUI's `ViewSpacing`; OpenSwiftUI's `Spacing`,
/// `Layout/Geometry/Spacing.swift`).
///
/// SwiftUI keeps a dictionary of minima keyed by edge and category: the default
/// category, which any neighbour honours, and text categories, which only text
/// and views beside text read. This engine does not model text's spacing (text
/// spaces as any leaf does), and without it the text categories never meet one
/// another, so only the default category decides a distance: an edge holds the
/// least distance the view wants there, or nil where it has no preference (a
/// leaf: a colour, a shape, an image, text).
///
/// Between a view `a` and the view `b` after it along a stack's axis
/// (`distance(to:along:)`):
///
///     a's trailing (bottom) wish or b's leading (top) wish given?  → the larger of those given
///     neither?                                                     → 8 points, the default
///
/// So two leaves are 8 points apart, and a view beside a `Spacer` (which wants
/// 0 on the edges along its stack) or an empty stack (0 on every edge) is 0
/// points from it.
public struct ViewSpacing: Hashable, Sendable {
  /// The least distance wanted above, in points; nil: no preference.
  public var top: Double?
  /// On the leading edge.
  public var leading: Double?
  /// Below.
  public var bottom: Double?
  /// On the trailing edge.
  public var trailing: Double?

  /// Makes a spacing (no preference on any edge by default).
  public init(top: Double? = nil, leading: Double? = nil, bottom: Double? = nil, trailing: Double? = nil) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// No preference on any edge: a leaf's (SwiftUI's `Spacing()`).
  public static let `default` = ViewSpacing()
  /// 0 on every edge: an empty stack's, a spacer's outside any stack (SwiftUI's `.zero`).
  public static let zero = ViewSpacing(top: 0, leading: 0, bottom: 0, trailing: 0)

  /// 0 on the two edges along `axis`, no preference across it: a spacer's in a
  /// stack of that axis (SwiftUI's `.horizontal(0)`, `.vertical(0)`).
  public static func zero(along axis: Axis) -> ViewSpacing {
    axis == .horizontal ? ViewSpacing(leading: 0, trailing: 0) : ViewSpacing(top: 0, bottom: 0)
  }

  /// The four edges, each with its wish.
  static let edges: [(EdgeSet, WritableKeyPath<ViewSpacing, Double?> & Sendable)] = [
    (.top, \.top), (.leading, \.leading), (.bottom, \.bottom), (.trailing, \.trailing),
  ]

  /// Takes `other`'s wishes on `edges`, the larger where both have one
  /// (SwiftUI's `incorporate(_:of:)`).
  public mutating func incorporate(_ edges: EdgeSet, of other: ViewSpacing) {
    for (edge, wish) in Self.edges where edges.contains(edge) {
      guard let value = other[keyPath: wish] else { continue }
      self[keyPath: wish] = Swift.max(self[keyPath: wish] ?? value, value)
    }
  }

  /// Forgets the wishes on `edges`: there the view spaces as a leaf does
  /// (SwiftUI's `reset(_:)`, what padding and a frame do on the edges they set).
  public mutating func reset(_ edges: EdgeSet) {
    for (edge, wish) in Self.edges where edges.contains(edge) { self[keyPath: wish] = nil }
  }

  /// This spacing with `edges` reset.
  func resetting(_ edges: EdgeSet) -> ViewSpacing {
    var copy = self
    copy.reset(edges)
    return copy
  }

  /// The distance between this view and `next`, the view after it along `axis`
  /// (the rule above).
  public func distance(to next: ViewSpacing, along axis: Axis) -> Double {
    let mine = axis == .horizontal ? trailing : bottom
    let theirs = axis == .horizontal ? next.leading : next.top
    guard mine != nil || theirs != nil else { return StackLayout.defaultSpacing }
    return Swift.max(mine ?? -.infinity, theirs ?? -.infinity)
  }
}
