import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Properties every layout must have, checked on hundreds of random trees of
/// stacks, spacers, paddings, frames, priorities, overlays and leaves of every
/// kind (seeded, so a failure names a tree that can be laid out again).
@Suite("Layout properties")
struct LayoutPropertyTests {
  /// A random tree, and how it was made (to print when a property fails).
  struct Tree {
    var node: LayoutNode
    var text: String
  }

  /// Makes random trees from one seed.
  struct Maker {
    var random: SplitMix
    var allowNegativeSpacing = false

    mutating func chance(_ p: Double) -> Bool { random.uniform(0, 1) < p }
    mutating func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    mutating func length(_ a: Double, _ b: Double) -> Double { (random.uniform(a, b) * 2).rounded() / 2 }

    mutating func tree(depth: Int, stackAxis: Axis? = nil) -> Tree {
      let leafOnly = depth >= 4
      let choice = leafOnly ? 10 + pick(5) : pick(15)
      switch choice {
      case 0, 1:
        let axis: Axis = chance(0.5) ? .horizontal : .vertical
        let spacing: Double? = chance(0.3) ? nil : length(allowNegativeSpacing ? -10 : 0, 20)
        let alignment = random.uniform(0, 1) < 1 / 3 ? 0.0 : (chance(0.5) ? 0.5 : 1.0)
        let count = 1 + pick(5)
        let children = (0..<count).map { _ in chance(0.2) ? spacer(axis) : tree(depth: depth + 1, stackAxis: axis) }
        let rule = StackLayout(axis: axis, crossAlignment: alignment, spacing: spacing)
        return Tree(
          node: LayoutNode(
            rule, kind: axis == .horizontal ? "hstack" : "vstack", path: spacing.map { "\($0)" } ?? "default",
            children: children.map(\.node)),
          text: "\(axis == .horizontal ? "H" : "V")(\(alignment), \(spacing.map { "\($0)" } ?? "nil"))["
            + children.map(\.text).joined(separator: ", ") + "]")
      case 2:
        let children = (0..<(1 + pick(3))).map { _ in tree(depth: depth + 1) }
        let alignment = Array(Alignment.named.values)[pick(9)]
        return Tree(
          node: LayoutNode(ZStackLayout(alignment: alignment), kind: "zstack", children: children.map(\.node)),
          text: "Z[" + children.map(\.text).joined(separator: ", ") + "]")
      case 3:
        let insets = EdgeInsets(
          top: length(0, 20), leading: length(0, 20), bottom: length(0, 20), trailing: length(0, 20))
        return modifier(PaddingLayout(insets), "padding", "\(insets)", depth)
      case 4:
        let width: Double? = chance(0.5) ? length(0, 200) : nil
        let height: Double? = chance(0.5) ? length(0, 200) : nil
        let alignment = Array(Alignment.named.values)[pick(9)]
        return modifier(
          FrameLayout(width: width, height: height, alignment: alignment), "frame", "\(width as Any) \(height as Any)",
          depth)
      case 5:
        let minimum: Double? = chance(0.4) ? length(0, 100) : nil
        let maximum: Double? = chance(0.5) ? (chance(0.5) ? .infinity : length(minimum ?? 0, 300)) : nil
        let ideal: Double? = chance(0.3) ? length(minimum ?? 0, maximum.map { min($0, 300) } ?? 300) : nil
        let rule = FlexFrameLayout(
          minWidth: minimum, idealWidth: ideal, maxWidth: maximum, minHeight: chance(0.3) ? length(0, 50) : nil,
          idealHeight: nil, maxHeight: chance(0.3) ? .infinity : nil, alignment: .center)
        return modifier(rule, "flexFrame", "\(rule)", depth)
      case 6:
        let rule = FixedSizeLayout(horizontal: chance(0.7), vertical: chance(0.7))
        return modifier(rule, "fixedSize", "\(rule.horizontal) \(rule.vertical)", depth)
      case 7:
        let priority = Double(pick(3))
        return modifier(LayoutPriorityLayout(priority), "layoutPriority", "\(priority)", depth)
      case 8:
        let content = tree(depth: depth + 1)
        let secondary = tree(depth: depth + 1)
        let alignment = Array(Alignment.named.values)[pick(9)]
        return Tree(
          node: LayoutNode(
            SecondaryLayout(alignment: alignment), kind: "overlay", children: [content.node, secondary.node]),
          text: "overlay(\(content.text), \(secondary.text))")
      case 9:
        let ratio: Double? = chance(0.5) ? length(0.5, 3) : nil
        let mode: ContentMode = chance(0.5) ? .fit : .fill
        return modifier(AspectRatioLayout(ratio, contentMode: mode), "aspectRatio", "\(ratio as Any) \(mode)", depth)
      case 10, 11:
        return Tree(node: LayoutNode(FlexibleLeafLayout(), kind: "color"), text: "color")
      case 12:
        let size = PointSize(width: length(0, 120), height: length(0, 80))
        return Tree(node: LayoutNode(FixedLeafLayout(size), kind: "image"), text: "image(\(size.width)x\(size.height))")
      default:
        // Text-like: one line of `ideal` points at its ideal width, wrapping into
        // lines of 20 points at a narrower proposed width, never narrower than a
        // word of 30 points.
        let ideal = length(30, 300)
        let leaf = MeasuredLeafLayout { proposal in
          let width = min(ideal, max(30, proposal.width ?? ideal))
          return PointSize(width: width, height: 20 * (ideal / width).rounded(.up))
        }
        return Tree(node: LayoutNode(leaf, kind: "text"), text: "text(\(ideal))")
      }
    }

    mutating func spacer(_ axis: Axis) -> Tree {
      let minLength: Double? = chance(0.5) ? nil : length(0, 40)
      return Tree(
        node: LayoutNode(SpacerLayout(minLength: minLength, axis: axis), kind: "spacer"),
        text: "spacer(\(minLength.map { "\($0)" } ?? "nil"))")
    }

    mutating func modifier(_ rule: any LayoutRule, _ kind: String, _ detail: String, _ depth: Int) -> Tree {
      let child = tree(depth: depth + 1)
      return Tree(node: LayoutNode(rule, kind: kind, children: [child.node]), text: "\(kind)(\(detail)){\(child.text)}")
    }
  }

  /// Each view's parent in a pre-order list with depths.
  static func parents(_ views: [ResolvedView]) -> [Int?] {
    var stack: [Int] = []
    return views.enumerated().map { index, view in
      while let last = stack.last, views[last].depth >= view.depth { stack.removeLast() }
      defer { stack.append(index) }
      return stack.last
    }
  }

  /// Whether view `index` lies under a `fixedSize`: there proposals can be
  /// unspecified, and a stack sized to its children's ideal sizes is placed with
  /// its cross size proposed instead (as SwiftUI does, so that a colour in a
  /// fixed-size `VStack` takes the stack's width), which can make children larger
  /// than the stack allowed for.
  static func underFixedSize(_ index: Int, _ views: [ResolvedView], _ parents: [Int?]) -> Bool {
    var current = parents[index]
    while let at = current {
      if views[at].kind == "fixedSize" { return true }
      current = parents[at]
    }
    return false
  }

  static let canvases = [
    PointRect(x: 0, y: 0, width: 390, height: 844), PointRect(x: 0, y: 0, width: 120, height: 90),
    PointRect(x: 20, y: 47, width: 350, height: 300),
  ]

  /// Lays out 500 random trees made from `seed`, each on one of the canvases, and
  /// hands each to `check` with its index, its views and each view's parent.
  static func forEachTree(
    seed: UInt64, negativeSpacing: Bool = false, _ check: (Int, Tree, [ResolvedView], [Int?]) -> Void
  ) {
    var maker = Maker(random: SplitMix(state: seed))
    maker.allowNegativeSpacing = negativeSpacing
    for index in 0..<500 {
      let tree = maker.tree(depth: 0)
      let views = tree.node.layout(in: canvases[index % 3])
      check(index, tree, views, parents(views))
    }
  }

  @Test("children of a stack follow one another without overlapping when the spacing is not negative (500 trees)")
  func stacksDoNotOverlap() {
    Self.forEachTree(seed: 22) { index, tree, views, parents in
      for (parentIndex, parent) in views.enumerated() where parent.kind == "hstack" || parent.kind == "vstack" {
        let axis: Axis = parent.kind == "hstack" ? .horizontal : .vertical
        let children = views.indices.filter { parents[$0] == parentIndex }.map { views[$0].frame }
        for (a, b) in zip(children, children.dropFirst()) {
          let end = axis == .horizontal ? a.maxX : a.maxY
          let start = axis == .horizontal ? b.x : b.y
          #expect(start >= end - 1e-9, "tree \(index): \(tree.text): \(a) then \(b)")
        }
      }
    }
  }

  /// Stacks and ZStacks align their children to one another by their guides, as
  /// SwiftUI does (`StackLayout`, `ZStackLayout`): where one child is larger than
  /// the parent, the others are aligned on it and can lie outside the parent too.
  @Test(
    "a child's frame lies inside its parent's unless it or a sibling is larger than its parent, outside fixedSize (500 trees)"
  )
  func childrenInsideParents() {
    Self.forEachTree(seed: 7) { index, tree, views, parents in
      for (child, parent) in zip(views, parents) {
        guard let parent, views[parent].kind != "offset", !Self.underFixedSize(parent, views, parents) else { continue }
        let outer = views[parent].frame
        let siblingLarger = zip(views, parents).contains { sibling, p in
          p == parent && (sibling.frame.width > outer.width + 1e-9 || sibling.frame.height > outer.height + 1e-9)
        }
        guard !siblingLarger else { continue }
        let inner = child.frame
        guard inner.width <= outer.width + 1e-9, inner.height <= outer.height + 1e-9 else { continue }
        let inside =
          inner.x >= outer.x - 1e-9 && inner.y >= outer.y - 1e-9 && inner.maxX <= outer.maxX + 1e-9
          && inner.maxY <= outer.maxY + 1e-9
        #expect(inside, "tree \(index): \(tree.text): \(child.kind) \(inner) outside \(views[parent].kind) \(outer)")
      }
    }
  }

  @Test("a stack starts at its first child, spaces its children as written, ends at its last; as thick as its thickest")
  func stackSizes() {
    Self.forEachTree(seed: 99, negativeSpacing: true) { index, tree, views, parents in
      for (parentIndex, parent) in views.enumerated()
      where (parent.kind == "hstack" || parent.kind == "vstack") && !Self.underFixedSize(parentIndex, views, parents) {
        let horizontal = parent.kind == "hstack"
        func start(_ r: PointRect) -> Double { horizontal ? r.x : r.y }
        func end(_ r: PointRect) -> Double { horizontal ? r.maxX : r.maxY }
        let indices = views.indices.filter { parents[$0] == parentIndex }
        let children = indices.map { views[$0].frame }
        guard let first = children.first, let last = children.last else { continue }
        let gaps = zip(children, children.dropFirst()).map { start($1) - end($0) }
        // The spacing written (the stack's path holds the spacing it was made
        // with); by default 0 beside a spacer, else 0 or 8: 0 where the spacing
        // a spacer or an empty stack wants passes through the modifiers around
        // it (LayoutRuleTests works those cases by hand), 8 between two views.
        let written = Double(parent.path)
        let beside = zip(indices, indices.dropFirst()).map { a, b in
          views[a].kind == "spacer" || views[b].kind == "spacer"
        }
        let label = "tree \(index): \(tree.text)"
        #expect(abs(start(first) - start(parent.frame)) < 1e-9, "\(label)")
        for (gap, isBeside) in zip(gaps, beside) {
          if let written {
            #expect(abs(gap - written) < 1e-9, "\(label): gaps \(gaps), not \(written)")
          } else {
            let allowed: [Double] = isBeside ? [0] : [0, 8]
            #expect(allowed.contains { abs(gap - $0) < 1e-9 }, "\(label): gaps \(gaps)")
          }
        }
        #expect(
          abs(end(last) - end(parent.frame)) < 1e-9, "\(label): ends at \(end(last)), stack at \(end(parent.frame))")
        let thickest = children.map { horizontal ? $0.height : $0.width }.max() ?? 0
        #expect(abs(thickest - (horizontal ? parent.frame.height : parent.frame.width)) < 1e-9, "\(label)")
      }
    }
  }

  @Test("layout is deterministic: the same tree, built again, resolves to the same frames (200 trees)")
  func deterministic() {
    var first = Maker(random: SplitMix(state: 5))
    var second = Maker(random: SplitMix(state: 5))
    for index in 0..<200 {
      let a = first.tree(depth: 0)
      let b = second.tree(depth: 0)
      #expect(a.text == b.text)
      let canvas = Self.canvases[index % 3]
      #expect(a.node.layout(in: canvas) == b.node.layout(in: canvas), "tree \(index): \(a.text)")
      // And laying the same nodes out twice changes nothing either.
      #expect(a.node.layout(in: canvas) == b.node.layout(in: canvas), "tree \(index) again: \(a.text)")
    }
  }
}
