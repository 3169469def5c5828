/// `offset(x:y:)`: the view lays out exactly as its child does, which is then
/// drawn moved by (x, y) points; nothing around it moves. SwiftUI's offset is a
/// geometry effect with no layout of its own, so everything the child reports
/// (its spacing, its priority, that it is a spacer) passes through it.
///
/// Source: OpenSwiftUI's `_OffsetEffect` (`Render/GeometryEffect/OffsetEffect.swift`).
public struct OffsetLayout: UnaryLayout, Hashable {
  /// The move, in points.
  public var offset: PointOffset

  /// Makes the rule.
  public init(x: Double, y: Double) { offset = PointOffset(x: x, y: y) }

  /// The child's size under `proposal`.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    child.sizeThatFits(proposal)
  }

  /// The child at `bounds` moved by the offset, under the same proposal.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    LayoutPlacement(origin: PointOffset(x: bounds.x + offset.x, y: bounds.y + offset.y), proposal: proposal)
  }

  /// The child's priority.
  public func layoutPriority(child: LayoutSubview) -> Double { child.priority }

  /// Whether the child is a spacer to a frame around it.
  public func requiresSpacingProjection(child: LayoutSubview) -> Bool { child.requiresSpacingProjection }
}
