/// `layoutPriority(_:)`: lays out as its child does, and reports `priority`
/// (replacing its child's); a stack shares out space to higher priorities
/// first. It reports its child's spacing.
///
/// Source: OpenSwiftUI's `LayoutPriorityLayout` (`Layout/LayoutPriority.swift`).
public struct LayoutPriorityLayout: UnaryLayout, Hashable {
  /// The priority (0 for every view that does not set one).
  public var priority: Double

  /// Makes the rule.
  public init(_ priority: Double) { self.priority = priority }

  /// The child's size under `proposal`.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    child.sizeThatFits(proposal)
  }

  /// The child at `bounds`, under the same proposal.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    .same(bounds, proposal)
  }

  /// The priority written.
  public func layoutPriority(child: LayoutSubview) -> Double { priority }
}
