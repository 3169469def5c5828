/// `frame(width:height:alignment:)`: a given dimension is both what the child is
/// offered and the view's size; a dimension not given passes the proposal through
/// and takes the child's size. The child is aligned in the frame (it may be
/// larger than the frame and overflow it).
///
/// It reports its child's spacing, reset on the axes it fixes (top and bottom
/// with a height, leading and trailing with a width), unless its child is a
/// spacer (or passes a spacer's answers on: an offset, an overlay), whose
/// spacing it keeps on every edge. Its layout priority is 0.
///
/// Source: OpenSwiftUI's `_FrameLayout` (`Layout/Modifier/FrameLayout.swift`).
public struct FrameLayout: UnaryLayout, Hashable {
  /// The width, in points; nil to take the child's.
  public var width: Double?
  /// The height, in points; nil to take the child's.
  public var height: Double?
  /// Where the child sits in the frame.
  public var alignment: Alignment

  /// Makes a fixed frame's rule.
  public init(width: Double?, height: Double?, alignment: Alignment = .center) {
    self.width = width
    self.height = height
    self.alignment = alignment
  }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    if let width, let height { return PointSize(width: width, height: height) }
    let size = child.sizeThatFits(childProposal(proposal))
    return PointSize(width: width ?? size.width, height: height ?? size.height)
  }

  /// Where the child goes in `bounds`, by the rule above.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    let offer = childProposal(proposal)
    return LayoutPlacement(origin: alignment.origin(of: child.sizeThatFits(offer), in: bounds), proposal: offer)
  }

  /// The child's spacing, reset on the fixed axes unless the child is a spacer.
  public func spacing(child: LayoutSubview) -> ViewSpacing {
    guard !child.requiresSpacingProjection else { return child.spacing }
    var fixed: EdgeSet = []
    if width != nil { fixed.formUnion(.horizontal) }
    if height != nil { fixed.formUnion(.vertical) }
    return child.spacing.resetting(fixed)
  }

  private func childProposal(_ proposal: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(width: width ?? proposal.width, height: height ?? proposal.height)
  }
}
