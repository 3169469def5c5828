/// `Spacer(minLength:)`: along the stack it is in, as long as it is offered but
/// no shorter than `minLength` (8 points by default; a negative one is 0); across
/// it, nothing. Its ideal length is `minLength`. Outside a stack (the axis
/// unknown: in a ZStack, at the root) it takes the proposal in both directions,
/// with `minLength` as its least. The axis is the nearest enclosing stack's,
/// through every modifier, an overlay's or a background's view included.
///
/// It wants 0 on the two edges along its stack (on every edge outside one), its
/// layout priority is −∞ (stacks offer it space after every other view, and a
/// ZStack is not sized by it), and a frame around it keeps its spacing.
///
/// Source: OpenSwiftUI's `Spacer` (`Layout/Separator/Spacer.swift`).
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

  /// 0 along its stack, or all round outside one.
  public func spacing(subviews: [LayoutSubview]) -> ViewSpacing { axis.map(ViewSpacing.zero(along:)) ?? .zero }

  /// −∞: stacks share out space to spacers after every other view, and a ZStack
  /// is not sized by them.
  public func layoutPriority(subviews: [LayoutSubview]) -> Double { -.infinity }

  /// A spacer: a frame around it keeps its spacing.
  public func requiresSpacingProjection(subviews: [LayoutSubview]) -> Bool { true }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    func along(_ value: Double?) -> Double { max(minLength, value ?? minLength) }
    switch axis {
    case .horizontal: return PointSize(width: along(proposal.width), height: 0)
    case .vertical: return PointSize(width: 0, height: along(proposal.height))
    case nil: return PointSize(width: along(proposal.width), height: along(proposal.height))
    }
  }

  /// No children to place.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] { [] }
}
