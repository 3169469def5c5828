/// A view with no children that takes whatever it is offered, its ideal size
/// (an unspecified proposal) being `ideal`: a `Color`, a shape, a resizable image
/// (its ideal size its size in points).
public struct FlexibleLeafLayout: LayoutRule, Hashable {
  /// The size taken in an unspecified dimension, in points (10 × 10 for colours and
  /// shapes, as SwiftUI's).
  public var ideal: PointSize

  /// Makes the rule.
  public init(ideal: PointSize = PointSize(width: 10, height: 10)) { self.ideal = ideal }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    proposal.replacingUnspecifiedDimensions(by: ideal)
  }

  /// No children to place.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] { [] }
}
