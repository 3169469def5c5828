/// `fixedSize(horizontal:vertical:)`: on each fixed axis the child is offered
/// nothing (nil: its ideal size), whatever the proposal; the view is the child's
/// size, with the child centred in it. It reports its child's spacing and its
/// child's layout priority.
///
/// Source: OpenSwiftUI's `_FixedSizeLayout` (`Layout/FixedSizeLayout.swift`).
public struct FixedSizeLayout: UnaryLayout, Hashable {
  /// Whether the width is the child's ideal width.
  public var horizontal: Bool
  /// Whether the height is the child's ideal height.
  public var vertical: Bool

  /// Makes the rule.
  public init(horizontal: Bool = true, vertical: Bool = true) {
    self.horizontal = horizontal
    self.vertical = vertical
  }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    child.sizeThatFits(childProposal(proposal))
  }

  /// Where the child goes in `bounds`, by the rule above.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    let offer = childProposal(proposal)
    return LayoutPlacement(origin: Alignment.center.origin(of: child.sizeThatFits(offer), in: bounds), proposal: offer)
  }

  /// The child's priority.
  public func layoutPriority(child: LayoutSubview) -> Double { child.priority }

  private func childProposal(_ proposal: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height)
  }
}
