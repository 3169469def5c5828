/// `ZStack(alignment:)`: children over one another, aligned by `alignment`.
///
/// - Sizing: every child is offered the stack's proposal; the stack is as wide as
///   its widest child and as tall as its tallest, counting only the children of
///   the highest layout priority (0 × 0 with no children).
/// - Placing in `bounds`: every child is offered the bounds' size. The children
///   are aligned to one another by their alignment guides: the guide's position
///   is the largest guide among the highest-priority children as sized there
///   (`size × fraction` for the default guides), and each child is placed with
///   its own guide on it:
///
///       guide.x = max over top children of width × fx
///       x(child) = bounds.x + guide.x − width(child) × fx      (the same down)
///
///   This is "aligned in the bounds" whenever the largest child takes exactly
///   the bounds' size there; it differs when a child sizes itself differently
///   under the bounds than under the stack's own proposal.
/// - What it reports: with one child, everything the child does (SwiftUI builds
///   no layout for it); with none, 0 on every edge and priority −∞; else
///   priority 0 and the spacing its children want on each edge, the larger
///   where several want one (all the children, as OpenSwiftUI does).
///
/// Source: OpenSwiftUI's `_ZStackLayout` (`Layout/Stack/ZStack.swift`).
public struct ZStackLayout: LayoutRule, Hashable {
  /// Where each child sits in the stack.
  public var alignment: Alignment

  /// Makes a ZStack's rule.
  public init(alignment: Alignment = .center) { self.alignment = alignment }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    if subviews.count == 1 { return subviews[0].sizeThatFits(proposal) }
    let top = subviews.map(\.priority).max() ?? 0
    var size = PointSize(width: 0, height: 0)
    for subview in subviews where subview.priority == top {
      let child = subview.sizeThatFits(proposal)
      size = PointSize(width: max(size.width, child.width), height: max(size.height, child.height))
    }
    return size
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] {
    if subviews.count == 1 { return [.same(bounds, proposal)] }
    let offer = ProposedViewSize(width: bounds.width, height: bounds.height)
    let fx = alignment.horizontal.fraction
    let fy = alignment.vertical.fraction
    let top = subviews.map(\.priority).max() ?? 0
    var guide = PointOffset(x: -.infinity, y: -.infinity)
    for subview in subviews where subview.priority == top {
      let size = subview.sizeThatFits(offer)
      guide = PointOffset(
        x: max(guide.x, Alignment.guide(size.width, fx)), y: max(guide.y, Alignment.guide(size.height, fy)))
    }
    return subviews.map {
      let size = $0.sizeThatFits(offer)
      return LayoutPlacement(
        origin: PointOffset(
          x: bounds.x + guide.x - Alignment.guide(size.width, fx),
          y: bounds.y + guide.y - Alignment.guide(size.height, fy)),
        proposal: offer)
    }
  }

  /// Every child's spacing, the larger on each edge; 0 all round when empty.
  public func spacing(subviews: [LayoutSubview]) -> ViewSpacing {
    guard !subviews.isEmpty else { return .zero }
    var spacing = ViewSpacing()
    for subview in subviews { spacing.incorporate(.all, of: subview.spacing) }
    return spacing
  }

  /// −∞ when empty, its child's with one child, else 0.
  public func layoutPriority(subviews: [LayoutSubview]) -> Double {
    subviews.isEmpty ? -.infinity : subviews.count == 1 ? subviews[0].priority : 0
  }

  /// With one child, whether the child is a spacer to a frame around it.
  public func requiresSpacingProjection(subviews: [LayoutSubview]) -> Bool {
    subviews.count == 1 && subviews[0].requiresSpacingProjection
  }
}
