/// `HStack` and `VStack`: children in a row or a column, aligned across the stack
/// by `alignment`, `spacing` points apart; with no spacing given, 8 points between
/// two views and none beside a `Spacer` (SwiftUI's default spacing; its extra space
/// next to text, which depends on the font's metrics, is not modelled).
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
/// edge, each aligned across the stack.
///
/// Sources: OpenSwiftUI's `StackLayout`, `Spacer` and `Spacing` (SwiftUI 6.5.4, as
/// audited there); Apple's `layoutPriority(_:)` and `Spacer.minLength` documents.
/// docs/layout.md works examples.
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
    let boundsSize = PointSize(width: bounds.width, height: bounds.height)
    var placing = proposal
    if placing[axis.cross] == nil { placing[axis.cross] = boundsSize[axis.cross] }
    let proposals = childProposals(placing, subviews)
    var position = PointOffset(x: bounds.x, y: bounds.y)[axis]
    let crossStart = PointOffset(x: bounds.x, y: bounds.y)[axis.cross]
    return subviews.indices.map { index in
      let size = subviews[index].sizeThatFits(proposals[index])
      if index > 0 { position += gap(subviews[index - 1], subviews[index]) }
      var origin = PointOffset(x: 0, y: 0)
      origin[axis] = position
      origin[axis.cross] = crossStart + (boundsSize[axis.cross] - size[axis.cross]) * crossAlignment
      position += size[axis]
      return LayoutPlacement(origin: origin, proposal: proposals[index])
    }
  }

  /// The space between two neighbours: `spacing`, or by default 8 points, 0
  /// beside a spacer.
  func gap(_ a: LayoutSubview, _ b: LayoutSubview) -> Double {
    spacing ?? (a.isSpacer || b.isSpacer ? 0 : Self.defaultSpacing)
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
        groupLeft -= taken
        left -= taken
        unsized -= 1
      }
    }
    return proposals
  }
}

/// `ZStack(alignment:)`: every child is offered the stack's proposal; the stack is
/// as wide as its widest child and as tall as its tallest, counting only the
/// children of the highest layout priority. Placing, every child is offered the
/// stack's size and aligned in it.
public struct ZStackLayout: LayoutRule, Hashable {
  /// Where each child sits in the stack.
  public var alignment: Alignment

  /// Makes a ZStack's rule.
  public init(alignment: Alignment = .center) { self.alignment = alignment }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    let top = subviews.map(\.priority).max() ?? 0
    return subviews.filter { $0.priority == top }.map { $0.sizeThatFits(proposal) }
      .reduce(PointSize(width: 0, height: 0)) {
        PointSize(width: max($0.width, $1.width), height: max($0.height, $1.height))
      }
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  {
    let offer = ProposedViewSize(width: bounds.width, height: bounds.height)
    return subviews.map {
      LayoutPlacement(origin: alignment.origin(of: $0.sizeThatFits(offer), in: bounds), proposal: offer)
    }
  }
}

/// `Spacer(minLength:)`: along the stack it is in, as long as it is offered but
/// no shorter than `minLength` (8 points by default; a negative one is 0); across
/// it, nothing. Its ideal length is `minLength`. Outside a stack (the axis unknown) it takes the
/// proposal in both directions, with `minLength` as its least.
public struct SpacerLayout: LayoutRule, Hashable {
  /// The least length, in points.
  public var minLength: Double
  /// The axis of the stack it is in; nil outside any stack.
  public var axis: Axis?

  /// Makes a spacer's rule.
  public init(minLength: Double? = nil, axis: Axis?) {
    self.minLength = max(0, minLength ?? StackLayout.defaultSpacing)
    self.axis = axis
  }

  /// Whether stacks treat this view as a spacer.
  public var isSpacer: Bool { true }

  /// −∞: stacks share out space to spacers after every other view, and a ZStack
  /// is not sized by them.
  public var layoutPriority: Double { -.infinity }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    func along(_ value: Double?) -> Double { max(minLength, value ?? minLength) }
    switch axis {
    case .horizontal: return PointSize(width: along(proposal.width), height: 0)
    case .vertical: return PointSize(width: 0, height: along(proposal.height))
    case nil: return PointSize(width: along(proposal.width), height: along(proposal.height))
    }
  }

  /// Where each child goes in `bounds`, by the rule above.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  )
    -> [LayoutPlacement]
  { [] }
}
