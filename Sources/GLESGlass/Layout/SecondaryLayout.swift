/// `overlay(alignment:content:)` and `background(alignment:content:)`: the first
/// child is the view, the second the secondary content. The view lays out
/// exactly as its first child does; the second is offered exactly the first's
/// size and aligned on it (the order decides only which is drawn in front).
///
/// SwiftUI makes no layout of its own for the modified view: its layout is its
/// primary's, so everything the first child reports (its spacing, its
/// priority, that it is a spacer) passes through: `Spacer().overlay(Circle())`
/// in a stack is still a spacer there.
///
/// Source: OpenSwiftUI's `_OverlayModifier` and `_BackgroundModifier`
/// (`Modifier/ViewModifier/OverlayModifier.swift`, whose secondary view is
/// given the primary's layout computer).
public struct SecondaryLayout: LayoutRule, Hashable {
  /// Where the secondary content sits on the view.
  public var alignment: Alignment

  /// Makes the rule.
  public init(alignment: Alignment = .center) { self.alignment = alignment }

  /// The first child's size under `proposal`.
  public func sizeThatFits(_ proposal: ProposedViewSize, subviews: [LayoutSubview]) -> PointSize {
    subviews.first?.sizeThatFits(proposal) ?? PointSize(width: 0, height: 0)
  }

  /// The first child where the view is, under the same proposal; the second
  /// offered the view's size and aligned on it.
  public func placeSubviews(
    in bounds: PointRect, proposal: ProposedViewSize, subviews: [LayoutSubview]
  ) -> [LayoutPlacement] {
    let primary = PointSize(width: bounds.width, height: bounds.height)
    return subviews.enumerated().map { index, subview in
      guard index > 0 else { return .same(bounds, proposal) }
      let offer = ProposedViewSize(primary)
      return LayoutPlacement(origin: alignment.origin(of: subview.sizeThatFits(offer), in: bounds), proposal: offer)
    }
  }

  /// The first child's spacing.
  public func spacing(subviews: [LayoutSubview]) -> ViewSpacing { subviews.first?.spacing ?? .default }

  /// The first child's priority.
  public func layoutPriority(subviews: [LayoutSubview]) -> Double { subviews.first?.priority ?? 0 }

  /// Whether the first child is a spacer to a frame around it.
  public func requiresSpacingProjection(subviews: [LayoutSubview]) -> Bool {
    subviews.first?.requiresSpacingProjection ?? false
  }
}
