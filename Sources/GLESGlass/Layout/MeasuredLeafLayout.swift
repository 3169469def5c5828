/// A view with no children whose size a function of the proposal gives: text,
/// which is measured by its layout (one line at its ideal width, wrapped at a
/// proposed width).
public struct MeasuredLeafLayout: LayoutRule {
  /// The size chosen under a proposal.
  public var measure: @Sendable (ProposedViewSize) -> PointSize

  /// Makes the rule.
  public init(measure: @escaping @Sendable (ProposedViewSize) -> PointSize) { self.measure = measure }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize { measure(proposal) }

  /// No children to place.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] { [] }
}
