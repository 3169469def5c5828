/// One rule of SwiftUI's layout, the same three steps everywhere: the parent
/// proposes a size, the child chooses its own, the parent places it. Each rule is
/// one small type in a file of its own (`StackLayout`, `FrameLayout`, …) with its
/// algorithm in its doc comment. A rule sees its children only through
/// `LayoutSubview`, which asks them for their size under a proposal; it never
/// stores sizes of its own.
///
/// Besides sizing and placing, a view tells its parent three things, which each
/// rule works out from its children as SwiftUI does (OpenSwiftUI's
/// `LayoutComputer`, `Layout/LayoutComputer/LayoutComputer.swift`): the spacing
/// it wants on each edge, its layout priority, and whether it is a spacer whose
/// spacing a frame must not reset (`requiresSpacingProjection`). A leaf wants the
/// default spacing, has priority 0 and is no spacer.
public protocol LayoutRule: Sendable {
  /// The size this view chooses under `proposal`, given its children.
  func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize

  /// Where each child goes when this view has the frame `bounds` (the size it
  /// chose under `proposal`): one placement per child, in their order.
  func placeSubviews(in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]) -> [LayoutPlacement]

  /// The spacing this view wants between itself and its neighbours in a stack,
  /// on each edge.
  func spacing(subviews: [LayoutSubview]) -> ViewSpacing

  /// The priority a stack gives this view when it shares out space.
  func layoutPriority(subviews: [LayoutSubview]) -> Double

  /// Whether a frame around this view keeps its spacing on the axes the frame
  /// fixes (a `Spacer`, and what passes a spacer's answers on unchanged).
  func requiresSpacingProjection(subviews: [LayoutSubview]) -> Bool
}

extension LayoutRule {
  /// A leaf's spacing: no preference on any edge (SwiftUI's `Spacing()`).
  public func spacing(subviews: [LayoutSubview]) -> ViewSpacing { .default }
  /// A leaf's priority: 0.
  public func layoutPriority(subviews: [LayoutSubview]) -> Double { 0 }
  /// A leaf is no spacer.
  public func requiresSpacingProjection(subviews: [LayoutSubview]) -> Bool { false }
}

/// A layout modifier of one view (OpenSwiftUI's `UnaryLayout`,
/// `Layout/LayoutView.swift`): how it sizes itself around its child, where it
/// places the child and under which proposal, the spacing it reports (by
/// default its child's) and its layout priority (by default 0: a modifier hides
/// the priority of the view it wraps unless it says otherwise, as `padding` and
/// `frame` do in SwiftUI). It never passes on that its child is a spacer.
public protocol UnaryLayout: LayoutRule {
  /// The size this view chooses under `proposal`, asking `child` what it needs.
  func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize

  /// Where `child` goes, and under which proposal, when this view has the frame
  /// `bounds`, the size it chose under `proposal`.
  func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement

  /// The spacing this view wants on each edge.
  func spacing(child: LayoutSubview) -> ViewSpacing

  /// The priority a stack gives this view.
  func layoutPriority(child: LayoutSubview) -> Double

  /// Whether a frame around this view keeps its spacing (false but for views
  /// that are transparent to layout, `offset`).
  func requiresSpacingProjection(child: LayoutSubview) -> Bool
}

extension UnaryLayout {
  /// The child's spacing, passed on.
  public func spacing(child: LayoutSubview) -> ViewSpacing { child.spacing }
  /// 0, whatever the child's.
  public func layoutPriority(child: LayoutSubview) -> Double { 0 }
  /// False, whatever the child's.
  public func requiresSpacingProjection(child: LayoutSubview) -> Bool { false }

  /// The size under `proposal`, from the child (nothing without one).
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    subviews.first.map { sizeThatFits(proposal, child: $0) } ?? PointSize(width: 0, height: 0)
  }

  /// The child's placement.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] {
    subviews.map { placement(of: $0, in: bounds, proposal: proposal) }
  }

  /// The spacing, from the child (a leaf's without one).
  public func spacing(subviews: [LayoutSubview]) -> ViewSpacing { subviews.first.map(spacing(child:)) ?? .default }

  /// The priority, from the child (0 without one).
  public func layoutPriority(subviews: [LayoutSubview]) -> Double { subviews.first.map(layoutPriority(child:)) ?? 0 }

  /// Whether it is a spacer to a frame around it.
  public func requiresSpacingProjection(subviews: [LayoutSubview]) -> Bool {
    subviews.first.map(requiresSpacingProjection(child:)) ?? false
  }
}

/// Where a parent puts a child: the child's top-leading corner, in the canvas's
/// points, and the proposal the child is sized under there.
public struct LayoutPlacement: Hashable, Sendable {
  /// The child's top-leading corner, in points.
  public var origin: PointOffset
  /// The proposal the child's size is taken under.
  public var proposal: ProposedViewSize

  /// Makes a placement.
  public init(origin: PointOffset, proposal: ProposedViewSize) {
    self.origin = origin
    self.proposal = proposal
  }

  /// The child placed at `bounds`' origin under `proposal`: a child laid out
  /// exactly as its parent is (a view transparent to layout).
  static func same(_ bounds: PointRect, _ proposal: ProposedViewSize) -> LayoutPlacement {
    LayoutPlacement(origin: PointOffset(x: bounds.x, y: bounds.y), proposal: proposal)
  }
}

/// A child as its parent's rule sees it: it can be asked its size under any
/// proposal (answers are kept per proposal, so asking twice costs nothing), and
/// what it reports to its parent.
public struct LayoutSubview: Sendable {
  let node: LayoutNode

  /// The size the child chooses under `proposal`.
  public func sizeThatFits(_ proposal: ProposedViewSize) -> PointSize { node.sizeThatFits(proposal) }

  /// The child's layout priority (its rule's answer: `layoutPriority(_:)`'s
  /// value, passed on through the modifiers that keep it; −∞ for a spacer or an
  /// empty stack; else 0).
  public var priority: Double { node.priority }

  /// The spacing the child wants on each edge.
  public var spacing: ViewSpacing { node.spacing }

  /// Whether the child is a spacer to a frame around it.
  public var requiresSpacingProjection: Bool { node.requiresSpacingProjection }
}
