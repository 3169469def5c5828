/// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`.
/// Each axis on its own, with the bounds made consistent first: `min` at least 0,
/// `ideal` at least `min`, `max` at least `ideal` (not `min`: `minWidth: 100,
/// maxWidth: 50` stays contradictory, and takes the child's size).
///
/// - The child is offered the proposal, or `ideal` where the proposal is
///   unspecified, clamped to `min ... max` (with `min` > `max`, `max`); an
///   unspecified proposal with no ideal stays unspecified.
/// - The frame's size: with a proposal and both bounds (`min` ≤ `max`), the
///   proposal clamped to them, without asking the child; with no proposal but an
///   ideal, the ideal. Otherwise, from the child's size `c` under its offer `o`:
///   both bounds, `c` clamped; only `min`, `max(min(o ?? ∞, c), min)`; only `max`,
///   `min(max(o ?? −∞, c), max)`; neither, `c`.
/// - Placing, the child is offered the frame's size, except on an axis with no
///   ideal whose own proposal was unspecified and whose size lies strictly between
///   the bounds: there it is offered nothing (its ideal size), as SwiftUI does for
///   apps built since iOS 17. The child is aligned in the frame.
/// - It reports its child's spacing, reset on each axis with a bound given
///   (top and bottom with a height bound, leading and trailing with a width
///   bound), unless the child is a spacer, whose spacing it keeps. Its layout
///   priority is 0.
///
/// Source: OpenSwiftUI's `_FlexFrameLayout` (SwiftUI 6.4.41, as audited there), and
/// Apple's `frame(minWidth:…)` document.
public struct FlexFrameLayout: UnaryLayout, Hashable {
  /// One axis's bounds, made consistent.
  struct Bounds: Hashable {
    var min: Double?
    var ideal: Double?
    var max: Double?

    init(min: Double?, ideal: Double?, max: Double?) {
      let low = min.map { Swift.max($0, 0) }
      let preferred = ideal.map { Swift.max(low ?? 0, $0) }
      self.min = low
      self.ideal = preferred
      self.max = max.map { Swift.max(preferred ?? 0, $0) }
    }

    /// Whether any bound is given on this axis.
    var isConstrained: Bool { min != nil || ideal != nil || max != nil }

    /// What the child is offered under the frame's proposal `p`.
    func offer(_ p: Double?) -> Double? {
      guard let value = p ?? ideal else { return nil }
      return Swift.min(Swift.max(min ?? -.infinity, value), max ?? .infinity)
    }

    /// The frame's size decided without the child, when it is.
    func decided(_ p: Double?) -> Double? {
      guard let p else { return ideal }
      if let min, let max, min <= max { return Swift.min(Swift.max(min, p), max) }
      return nil
    }

    /// The frame's size from the child's `c` under the offer `o`.
    func size(child c: Double, offer o: Double?) -> Double {
      switch (min, max) {
      case (let min?, let max?) where min <= max: return Swift.min(Swift.max(min, c), max)
      case (let min?, nil): return Swift.max(Swift.min(o ?? .infinity, c), min)
      case (nil, let max?): return Swift.min(Swift.max(o ?? -.infinity, c), max)
      default: return c
      }
    }

    /// What the child is offered when placed in a frame of `size` under `p`.
    func placing(_ size: Double, proposal p: Double?) -> Double? {
      ideal == nil && p == nil && (min ?? -.infinity) < size && size < (max ?? .infinity) ? nil : size
    }
  }

  var width: Bounds
  var height: Bounds
  /// Where the child sits in the frame.
  public var alignment: Alignment

  /// Makes a flexible frame's rule (`.infinity` is a valid maximum).
  public init(
    minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil,
    idealHeight: Double? = nil, maxHeight: Double? = nil, alignment: Alignment = .center
  ) {
    width = Bounds(min: minWidth, ideal: idealWidth, max: maxWidth)
    height = Bounds(min: minHeight, ideal: idealHeight, max: maxHeight)
    self.alignment = alignment
  }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    let decidedWidth = width.decided(proposal.width)
    let decidedHeight = height.decided(proposal.height)
    if let decidedWidth, let decidedHeight { return PointSize(width: decidedWidth, height: decidedHeight) }
    let offer = ProposedViewSize(width: width.offer(proposal.width), height: height.offer(proposal.height))
    let size = child.sizeThatFits(offer)
    return PointSize(
      width: decidedWidth ?? width.size(child: size.width, offer: offer.width),
      height: decidedHeight ?? height.size(child: size.height, offer: offer.height))
  }

  /// Where the child goes in `bounds`, by the rule above.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    let offer = ProposedViewSize(
      width: width.placing(bounds.width, proposal: proposal.width),
      height: height.placing(bounds.height, proposal: proposal.height))
    return LayoutPlacement(origin: alignment.origin(of: child.sizeThatFits(offer), in: bounds), proposal: offer)
  }

  /// The child's spacing, reset on the axes with a bound unless the child is a spacer.
  public func spacing(child: LayoutSubview) -> ViewSpacing {
    guard !child.requiresSpacingProjection else { return child.spacing }
    var bounded: EdgeSet = []
    if width.isConstrained { bounded.formUnion(.horizontal) }
    if height.isConstrained { bounded.formUnion(.vertical) }
    return child.spacing.resetting(bounded)
  }
}
