/// `HStack` and `VStack`: children in a row or a column, aligned across the stack
/// by `alignment`, `spacing` points apart; with no spacing given, the distance
/// the two neighbours' spacings ask for (`ViewSpacing`): 8 points between two
/// views, none beside a `Spacer` or an empty stack, whatever modifiers pass
/// their spacing on (SwiftUI's default spacing; its extra space next to text,
/// which depends on the font's metrics, is not modelled).
///
/// A stack of one child is that child: it sizes, places, spaces and ranks as
/// the child does (SwiftUI builds no layout for it, OpenSwiftUI's
/// `isIdentityUnaryLayout`); it only sets the axis of a `Spacer` inside it.
/// A stack of none is 0 × 0, wants 0 on every edge and has priority −∞.
///
/// Sizing under a proposal `p` (along the stack's axis, "main"; the other, "cross"):
/// 1. The spacing between each pair of neighbours is taken off `p.main`.
/// 2. With `p.main` unspecified, each child is asked for its ideal size (nil on the
///    main axis, `p.cross` across) and the stack is their sum plus the spacing.
/// 3. Otherwise each child's flexibility is measured: its main size under a main
///    proposal of ∞ less that under 0 (`p.cross` across both times).
/// 4. Children are grouped by layout priority, highest first; a `Spacer` has the
///    lowest priority of all (−∞), so spacers share out what is left last. A group
///    is offered what is left less the smallest main sizes of every lower-priority
///    group. Within a group the children are offered space from the least flexible
///    up (between two infinitely flexible ones, the larger minimum first; the order
///    of the stack among equals): each is offered an equal share of what its group
///    has left, `left / (children not yet sized)`, never below 0, chooses its size,
///    and what it took is subtracted.
/// 5. The stack's main size is the sum of its children's plus the spacing; its cross
///    size the largest child's.
///
/// Placing: the same shares are offered again, with an unspecified cross proposal
/// replaced by the stack's cross size (so a colour in a `VStack` sized to its ideal
/// width takes the width of the widest child). The children follow one another in
/// their order, not the order they were sized in, from the stack's leading (top)
/// edge. Across, they are aligned to one another by their guides, from the
/// stack's leading (top) edge: the guide lies at the largest `size × fraction`
/// of the children as sized there, and each child's own guide on it. This is
/// "aligned in the stack" unless the children size themselves differently when
/// placed than when the stack was sized (a frame with an ideal width alone is
/// its ideal under a nil proposal, its child's width under the stack's width).
///
/// What the stack reports: priority 0; the spacing its children want across
/// the stack (the larger of theirs), its first child's on its leading (top)
/// edge and its last child's on its trailing (bottom) edge.
///
/// Sources: OpenSwiftUI's `StackLayout` (`Layout/Stack/StackLayout.swift`, its
/// `spacing()` too), `HVStack` (`isIdentityUnaryLayout`), `ViewLayoutEngine`
/// (priority −∞ when empty, `Layout/Layout.swift`), `Spacer` and `Spacing`
/// (SwiftUI 6.5.4, as audited there); Apple's `layoutPriority(_:)` and
/// `Spacer.minLength` documents. docs/layout.md works examples.
public struct StackLayout: LayoutRule, Hashable {
  /// SwiftUI's spacing between neighbours when none is given, in points.
  public static let defaultSpacing = 8.0

  /// The axis the children follow one another along.
  public var axis: Axis
  /// Where children sit across the stack: 0 leading (top), 1/2 centre, 1 trailing (bottom).
  public var crossAlignment: Double
  /// The spacing between neighbours, in points; nil for SwiftUI's default.
  public var spacing: Double?

  /// Makes a stack's rule.
  public init(axis: Axis, crossAlignment: Double, spacing: Double?) {
    self.axis = axis
    self.crossAlignment = crossAlignment
    self.spacing = spacing
  }

  /// A `VStack(alignment:spacing:)`.
  public static func vertical(alignment: HorizontalAlignment = .center, spacing: Double? = nil) -> StackLayout {
    StackLayout(axis: .vertical, crossAlignment: alignment.fraction, spacing: spacing)
  }

  /// An `HStack(alignment:spacing:)`.
  public static func horizontal(alignment: VerticalAlignment = .center, spacing: Double? = nil) -> StackLayout {
    StackLayout(axis: .horizontal, crossAlignment: alignment.fraction, spacing: spacing)
  }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    if subviews.count == 1 { return subviews[0].sizeThatFits(proposal) }
    let proposals = childProposals(proposal, subviews)
    var size = PointSize(width: 0, height: 0)
    size[axis] = totalSpacing(subviews)
    for index in subviews.indices {
      let child = subviews[index].sizeThatFits(proposals[index])
      size[axis] += child[axis]
      size[axis.cross] = max(size[axis.cross], child[axis.cross])
    }
    return size
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    if subviews.count == 1 { return [.same(bounds, proposal)] }
    let boundsSize = PointSize(width: bounds.width, height: bounds.height)
    var placing = proposal
    if placing[axis.cross] == nil { placing[axis.cross] = boundsSize[axis.cross] }
    let proposals = childProposals(placing, subviews)
    var position = PointOffset(x: bounds.x, y: bounds.y)[axis]
    let crossStart = PointOffset(x: bounds.x, y: bounds.y)[axis.cross]
    let sizes = subviews.indices.map { subviews[$0].sizeThatFits(proposals[$0]) }
    let guide = sizes.reduce(0) { max($0, Alignment.guide($1[axis.cross], crossAlignment)) }
    return subviews.indices.map { index in
      let size = sizes[index]
      if index > 0 { position += gap(subviews[index - 1], subviews[index]) }
      var origin = PointOffset(x: 0, y: 0)
      origin[axis] = position
      origin[axis.cross] = crossStart + guide - Alignment.guide(size[axis.cross], crossAlignment)
      position += size[axis]
      return LayoutPlacement(origin: origin, proposal: proposals[index])
    }
  }

  /// The space between two neighbours: `spacing`, or the distance their
  /// spacings ask for.
  func gap(_ a: LayoutSubview, _ b: LayoutSubview) -> Double {
    spacing ?? a.spacing.distance(to: b.spacing, along: axis)
  }

  /// Its children's spacing across the stack, its first child's before it and
  /// its last child's after it; 0 all round when it is empty.
  public func spacing(subviews: [LayoutSubview]) -> ViewSpacing {
    guard let first = subviews.first, let last = subviews.last else { return .zero }
    if subviews.count == 1 { return first.spacing }
    let across: EdgeSet = axis == .horizontal ? .vertical : .horizontal
    var spacing = ViewSpacing()
    for subview in subviews { spacing.incorporate(across, of: subview.spacing) }
    spacing.incorporate(axis == .horizontal ? .leading : .top, of: first.spacing)
    spacing.incorporate(axis == .horizontal ? .trailing : .bottom, of: last.spacing)
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

  /// The space between all the neighbours.
  func totalSpacing(_ subviews: [LayoutSubview]) -> Double {
    var total = 0.0
    for index in subviews.indices.dropFirst() { total += gap(subviews[index - 1], subviews[index]) }
    return total
  }

  /// The proposal each child is sized under (steps 1 to 4 above).
  func childProposals(_ proposal: ProposedViewSize, _ subviews: [LayoutSubview]) -> [ProposedViewSize] {
    var childProposal = ProposedViewSize.unspecified
    childProposal[axis.cross] = proposal[axis.cross]
    guard let main = proposal[axis] else {
      return Array(repeating: childProposal, count: subviews.count)
    }
    func proposing(_ length: Double) -> ProposedViewSize {
      var offer = childProposal
      offer[axis] = length
      return offer
    }
    let smallest = subviews.map { $0.sizeThatFits(proposing(0))[axis] }
    let largest = subviews.map { $0.sizeThatFits(proposing(.infinity))[axis] }
    func priority(_ index: Int) -> Double { subviews[index].priority }
    /// Less flexible first; between two infinitely flexible views, the larger minimum first.
    func lessFlexible(_ a: Int, _ b: Int) -> Bool {
      let flexA = largest[a] - smallest[a]
      let flexB = largest[b] - smallest[b]
      if flexA != flexB { return flexA < flexB }
      let keyA = flexA == .infinity ? -smallest[a] : 0
      let keyB = flexB == .infinity ? -smallest[b] : 0
      return keyA != keyB ? keyA < keyB : a < b
    }
    var proposals = Array(repeating: childProposal, count: subviews.count)
    var left = main - totalSpacing(subviews)
    let priorities = subviews.indices.map(priority)
    var levels = priorities
    levels.sort(by: >)
    var previous: Double?
    for level in levels where level != previous {
      previous = level
      var group =
        levels.first == levels.last ? Array(subviews.indices) : subviews.indices.filter { priorities[$0] == level }
      group.sort(by: lessFlexible)
      var reserved = 0.0
      for index in subviews.indices where priorities[index] < level { reserved += smallest[index] }
      var groupLeft = left - reserved
      var unsized = Double(group.count)
      for index in group {
        proposals[index] = proposing(max(0, groupLeft / unsized))
        let taken = subviews[index].sizeThatFits(proposals[index])[axis]
        // ∞ taken from ∞ leaves ∞, as SwiftUI maps the NaN back (`mappingNaN`).
        if !(groupLeft - taken).isNaN { groupLeft -= taken }
        if !(left - taken).isNaN { left -= taken }
        unsized -= 1
      }
    }
    return proposals
  }
}
