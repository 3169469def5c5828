/// A view with no children and one size whatever it is offered: an image that is
/// not resizable (its pixels over its scale), an icon.
public struct FixedLeafLayout: LayoutRule, Hashable {
  /// Its size, in points.
  public var size: PointSize

  /// Makes the rule.
  public init(_ size: PointSize) { self.size = size }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize { size }

  /// No children to place.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] { [] }
}
