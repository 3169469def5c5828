/// `padding(_:_:)`: the child is offered the proposal less the insets (an
/// unspecified dimension stays unspecified; never below 0) and placed inside
/// them; the view is the child's size plus the insets, never below 0 (a
/// negative inset larger than the child leaves a view of no size, as
/// SwiftUI's `CGSize.outset(by:)` clamps it).
///
/// It reports its child's spacing except on the edges it pads (an inset other
/// than 0, negative ones too), where it spaces as a leaf does: padding ends a
/// spacer's 0 there. Its layout priority is 0, whatever its child's.
///
/// Source: OpenSwiftUI's `_PaddingLayout` (`Layout/Modifier/PaddingLayout.swift`,
/// SwiftUI 6.4.41 as audited there) and `UnaryLayout`'s default priority
/// (`Layout/LayoutView.swift`).
public struct PaddingLayout: UnaryLayout, Hashable {
  /// SwiftUI's padding when no length is given, in points.
  public static let defaultPadding = 16.0

  /// The insets, in points.
  public var insets: EdgeInsets

  /// Makes a padding's rule.
  public init(_ insets: EdgeInsets) { self.insets = insets }

  /// The size chosen under `proposal`, by the rule above.
  public func sizeThatFits(_ proposal: ProposedViewSize, child: LayoutSubview) -> PointSize {
    let size = child.sizeThatFits(inner(proposal))
    return PointSize(
      width: max(0, size.width + insets.total(.horizontal)), height: max(0, size.height + insets.total(.vertical)))
  }

  /// Where the child goes in `bounds`, by the rule above.
  public func placement(of child: LayoutSubview, in bounds: PointRect, proposal: ProposedViewSize) -> LayoutPlacement {
    LayoutPlacement(
      origin: PointOffset(x: bounds.x + insets.leading, y: bounds.y + insets.top), proposal: inner(proposal))
  }

  /// The child's spacing, reset on the padded edges.
  public func spacing(child: LayoutSubview) -> ViewSpacing {
    var padded: EdgeSet = []
    if insets.top != 0 { padded.insert(.top) }
    if insets.leading != 0 { padded.insert(.leading) }
    if insets.bottom != 0 { padded.insert(.bottom) }
    if insets.trailing != 0 { padded.insert(.trailing) }
    return child.spacing.resetting(padded)
  }

  private func inner(_ proposal: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(
      width: proposal.width.map { max(0, $0 - insets.total(.horizontal)) },
      height: proposal.height.map { max(0, $0 - insets.total(.vertical)) })
  }
}
