/// `padding(_:_:)`: the child is offered the proposal less the insets (an
/// unspecified dimension stays unspecified; never below 0) and placed inside
/// them; the view is the child's size plus the insets, never below 0 (a
/// negative inset larger than the child leaves a view of no size, as
/// SwiftUI's `CGSize.outset(by:)` clamps it).
public struct PaddingLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
  /// SwiftUI's padding when no length is given, in points.
  public static let defaultPadding = 16.0

  /// The insets, in points.
  public var insets: EdgeInsets

  /// Makes a padding's rule.
  public init(_ insets: EdgeInsets) { self.insets = insets }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    let size = subviews.first?.sizeThatFits(inner(proposal)) ?? PointSize(width: 0, height: 0)
    return PointSize(
      width: max(0, size.width + insets.total(.horizontal)), height: max(0, size.height + insets.total(.vertical)))
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    subviews.map { _ in
      LayoutPlacement(
        origin: PointOffset(x: bounds.x + insets.leading, y: bounds.y + insets.top), proposal: inner(proposal))
    }
  }

  private func inner(_ proposal: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(
      width: proposal.width.map { max(0, $0 - insets.total(.horizontal)) },
      height: proposal.height.map { max(0, $0 - insets.total(.vertical)) })
  }
}

/// `frame(width:height:alignment:)`: a given dimension is both what the child is
/// offered and the view's size; a dimension not given passes the proposal through
/// and takes the child's size. The child is aligned in the frame (it may be
/// larger than the frame and overflow it).
public struct FrameLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
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
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    if let width, let height { return PointSize(width: width, height: height) }
    let child = subviews.first?.sizeThatFits(childProposal(proposal)) ?? PointSize(width: 0, height: 0)
    return PointSize(width: width ?? child.width, height: height ?? child.height)
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    let offer = childProposal(proposal)
    return subviews.map {
      LayoutPlacement(origin: alignment.origin(of: $0.sizeThatFits(offer), in: bounds), proposal: offer)
    }
  }

  private func childProposal(_ proposal: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(width: width ?? proposal.width, height: height ?? proposal.height)
  }
}

/// `fixedSize(horizontal:vertical:)`: on each fixed axis the child is offered
/// nothing (nil: its ideal size), whatever the proposal; the view is the child's size.
public struct FixedSizeLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
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
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    subviews.first?.sizeThatFits(childProposal(proposal)) ?? PointSize(width: 0, height: 0)
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    let offer = childProposal(proposal)
    return subviews.map {
      LayoutPlacement(origin: Alignment.center.origin(of: $0.sizeThatFits(offer), in: bounds), proposal: offer)
    }
  }

  private func childProposal(_ proposal: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height)
  }
}

/// `offset(x:y:)`: the view lays out as its child does and is then drawn moved by
/// (x, y) points; nothing around it moves.
public struct OffsetLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
  /// The move, in points.
  public var offset: PointOffset

  /// Makes the rule.
  public init(x: Double, y: Double) { offset = PointOffset(x: x, y: y) }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    subviews.first?.sizeThatFits(proposal) ?? PointSize(width: 0, height: 0)
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    subviews.map { _ in
      LayoutPlacement(origin: PointOffset(x: bounds.x + offset.x, y: bounds.y + offset.y), proposal: proposal)
    }
  }
}

/// `layoutPriority(_:)`: lays out as its child does; a stack shares out space to
/// higher priorities first.
public struct LayoutPriorityLayout: LayoutRule, Hashable {
  /// The priority (0 for every view that does not set one).
  public var priority: Double

  /// Makes the rule.
  public init(_ priority: Double) { self.priority = priority }

  /// The priority stacks share out space by.
  public var layoutPriority: Double { priority }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    subviews.first?.sizeThatFits(proposal) ?? PointSize(width: 0, height: 0)
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    subviews.map { _ in LayoutPlacement(origin: PointOffset(x: bounds.x, y: bounds.y), proposal: proposal) }
  }
}

/// `overlay(alignment:content:)` and `background(alignment:content:)`: the first
/// child is the view, the second the secondary content. The view lays out as its
/// first child; the second is offered exactly the first's size and aligned on it
/// (the order decides only which is drawn in front).
public struct SecondaryLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
  /// Where the secondary content sits on the view.
  public var alignment: Alignment

  /// Makes the rule.
  public init(alignment: Alignment = .center) { self.alignment = alignment }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    subviews.first?.sizeThatFits(proposal) ?? PointSize(width: 0, height: 0)
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    let primary = PointSize(width: bounds.width, height: bounds.height)
    return subviews.enumerated().map { index, subview in
      guard index > 0 else { return LayoutPlacement(origin: PointOffset(x: bounds.x, y: bounds.y), proposal: proposal) }
      let offer = ProposedViewSize(primary)
      return LayoutPlacement(origin: alignment.origin(of: subview.sizeThatFits(offer), in: bounds), proposal: offer)
    }
  }
}

/// A view with no children that takes whatever it is offered, its ideal size
/// (an unspecified proposal) being `ideal`: a `Color`, a shape, a resizable image
/// without an aspect ratio.
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

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  { [] }
}

/// A view with no children and one size whatever it is offered: an image that is
/// not resizable (its pixels over its scale), an icon.
public struct FixedLeafLayout: LayoutRule, Hashable {
  /// Its size, in points.
  public var size: PointSize

  /// Makes the rule.
  public init(_ size: PointSize) { self.size = size }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize { size }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  { [] }
}

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

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  { [] }
}

/// `aspectRatio(_:contentMode:)`, `scaledToFit()` and `scaledToFill()`: the
/// child is offered the ratio's shape scaled to fit in the proposal (`.fit`, the
/// smaller of proposal / shape along each axis) or to cover it (`.fill`, the
/// larger), the shape being `ratio` × 1 or, when nil, the child's ideal size (a
/// square when that is square). With one dimension unspecified the other decides,
/// in both modes; a wholly unspecified proposal passes through, giving the child's
/// ideal size. The view is the child's size,
/// with the child centred in it.
///
/// Source: OpenSwiftUI's `AspectRatioLayout`; the objc.io worked examples (16:9
/// fit in 100 × 100 offers 100 × 56.25, fill 177.8 × 100).
public struct AspectRatioLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
  /// Width over height; nil for the child's ideal size's.
  public var ratio: Double?
  /// Fit inside the proposal, or fill it.
  public var contentMode: ContentMode

  /// Makes the rule.
  public init(_ ratio: Double?, contentMode: ContentMode) {
    self.ratio = ratio
    self.contentMode = contentMode
  }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    guard let child = subviews.first else { return PointSize(width: 0, height: 0) }
    return child.sizeThatFits(childProposal(proposal, child))
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    subviews.map {
      let offer = childProposal(proposal, $0)
      return LayoutPlacement(origin: Alignment.center.origin(of: $0.sizeThatFits(offer), in: bounds), proposal: offer)
    }
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
///
/// Source: OpenSwiftUI's `_FlexFrameLayout` (SwiftUI 6.4.41, as audited there), and
/// Apple's `frame(minWidth:…)` document.
public struct FlexFrameLayout: LayoutRule, Hashable {
  /// A modifier: the view keeps the priority written on what it wraps.
  public var keepsPriority: Bool { true }
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
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    let decidedWidth = width.decided(proposal.width)
    let decidedHeight = height.decided(proposal.height)
    if let decidedWidth, let decidedHeight { return PointSize(width: decidedWidth, height: decidedHeight) }
    let offer = ProposedViewSize(width: width.offer(proposal.width), height: height.offer(proposal.height))
    let child = subviews.first?.sizeThatFits(offer) ?? PointSize(width: 0, height: 0)
    return PointSize(
      width: decidedWidth ?? width.size(child: child.width, offer: offer.width),
      height: decidedHeight ?? height.size(child: child.height, offer: offer.height))
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    let offer = ProposedViewSize(
      width: width.placing(bounds.width, proposal: proposal.width),
      height: height.placing(bounds.height, proposal: proposal.height))
    return subviews.map {
      LayoutPlacement(origin: alignment.origin(of: $0.sizeThatFits(offer), in: bounds), proposal: offer)
    }
  }
}
