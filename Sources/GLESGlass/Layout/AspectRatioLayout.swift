/// `aspectRatio(_:contentMode:)`, `scaledToFit()` and `scaledToFill()`: the
/// child is offered the ratio's shape scaled to fit in the proposal (`.fit`, the
/// smaller of proposal / shape along each axis) or to cover it (`.fill`, the
/// larger), the shape being `ratio` × 1 or, when nil, the child's ideal size (a
/// square when that is square). With one dimension unspecified the other decides,
/// in both modes; a wholly unspecified proposal passes through, giving the child's
/// ideal size. The view is the child's size,
/// with the child centred in it. It reports its child's spacing; its layout
/// priority is 0.
///
/// Source: OpenSwiftUI's `AspectRatioLayout`; the objc.io worked examples (16:9
/// fit in 100 × 100 offers 100 × 56.25, fill 177.8 × 100).
public struct AspectRatioLayout: UnaryLayout, Hashable {
  /// Width over height; nil for the child's ideal size's.
  public var ratio: Double?
  /// Fit inside the proposal, or fill it (`stretch`, an image layer's mode, lays
  /// out as `fill`; a view tree refuses it).
  public var contentMode: ContentMode

  /// Makes the rule.
  public init(_ ratio: Double?, contentMode: ContentMode) {
    self.ratio = ratio
    self.contentMode = contentMode
  }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    child.sizeThatFits(childProposal(proposal, child))
  }

  /// Where the child goes in `bounds`, by the rule above.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    let offer = childProposal(proposal, child)
    return LayoutPlacement(origin: Alignment.center.origin(of: child.sizeThatFits(offer), in: bounds), proposal: offer)
  }

  func childProposal(_ proposal: ProposedViewSize, _ child: LayoutSubview) -> ProposedViewSize {
    if proposal.width == nil && proposal.height == nil { return proposal }
    var shape = ratio.map { PointSize(width: $0, height: 1) } ?? child.sizeThatFits(.unspecified)
    if shape.width == shape.height { shape = PointSize(width: 1, height: 1) }
    func scale(_ p: Double?, _ r: Double) -> Double {
      guard let p, !(p == 0 && r == 0) else { return .infinity }
      return p / r
    }
    let x = scale(proposal.width, shape.width)
    let y = scale(proposal.height, shape.height)
    // With one dimension unspecified, the other decides in both modes. (Read
    // literally, OpenSwiftUI's formula fills such a proposal at an infinite scale,
    // which no frame can be drawn at; this is the one departure from it.)
    let s = contentMode == .fit || x == .infinity || y == .infinity ? min(x, y) : max(x, y)
    // 0 × ∞ is 0 here: a shape of no width stays of no width at any scale.
    return ProposedViewSize(
      width: shape.width == 0 ? 0 : shape.width * s, height: shape.height == 0 ? 0 : shape.height * s)
  }
}
