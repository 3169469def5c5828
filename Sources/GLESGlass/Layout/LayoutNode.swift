/// A view of a tree being laid out: its rule, its children, and what it
/// has answered so far. Made fresh for each layout (a tree of nodes is one
/// layout's working state, used from one thread).
public final class LayoutNode: @unchecked Sendable {
  /// How this view sizes itself and places its children.
  public let rule: any LayoutRule
  /// What the view is, for the resolved tree (`vstack`, `text`, `padding`, …).
  public let kind: String
  /// Where the view was written (a JSON path such as `body.children[1]`, or a
  /// Swift description); empty when it does not matter.
  public let path: String
  /// The children, in order.
  public let children: [LayoutNode]
  /// The answers given so far: a view is asked under a few proposals (0, ∞, its
  /// share, its placing), so they are searched in order, the first four kept
  /// without an allocation of their own. A tree is used from one thread; the
  /// accesses need no exclusivity checks.
  @exclusivity(unchecked) private var answers: (Answer, Answer, Answer, Answer) = (.none, .none, .none, .none)
  @exclusivity(unchecked) private var moreAnswers: [Answer] = []
  @exclusivity(unchecked) private var answerCount = 0
  /// The children as the rule sees them.
  private let subviews: [LayoutSubview]
  /// The priority a stack shares out space by (the rule's answer, from the
  /// children's).
  let priority: Double
  /// The spacing the view wants on each edge (the rule's answer).
  let spacing: ViewSpacing
  /// Whether a frame around it keeps its spacing (the rule's answer).
  let requiresSpacingProjection: Bool
  /// `ignoresSafeArea(edges:)`: the edges of the safe area this view's frame
  /// extends past, to the canvas's, where it touches them once placed.
  var ignoredSafeAreaEdges: EdgeSet = []
  /// The proposal this view's size was taken under where it was last placed
  /// (nil until then): what a text's lines are broken for when it is drawn.
  @exclusivity(unchecked) private(set) var placedProposal: ProposedViewSize?

  private struct Answer {
    var proposal: ProposedViewSize
    var size: PointSize
    static let none = Answer(proposal: .unspecified, size: PointSize(width: 0, height: 0))
  }

  /// Makes a node.
  public init(_ rule: any LayoutRule, kind: String, path: String = "", children: [LayoutNode] = []) {
    self.rule = rule
    self.kind = kind
    self.path = path
    self.children = children
    let subviews = children.map(LayoutSubview.init)
    self.subviews = subviews
    // What the view reports to its parent depends on its children only, which
    // are made first: answered once, here.
    priority = rule.layoutPriority(subviews: subviews)
    spacing = rule.spacing(subviews: subviews)
    requiresSpacingProjection = rule.requiresSpacingProjection(subviews: subviews)
  }

  /// The size this view chooses under `proposal` (kept, so each proposal is
  /// answered once).
  public func sizeThatFits(_ proposal: ProposedViewSize) -> PointSize {
    if answerCount > 0 && answers.0.proposal == proposal { return answers.0.size }
    if answerCount > 1 && answers.1.proposal == proposal { return answers.1.size }
    if answerCount > 2 && answers.2.proposal == proposal { return answers.2.size }
    if answerCount > 3 && answers.3.proposal == proposal { return answers.3.size }
    for answer in moreAnswers where answer.proposal == proposal { return answer.size }
    let size = rule.sizeThatFits(proposal, subviews: subviews)
    // Infinite is an answer (a colour offered ∞ takes ∞); not a number never is.
    precondition(
      !size.width.isNaN && !size.height.isNaN && size.width >= 0 && size.height >= 0, "\(kind) chose \(size)")
    let answer = Answer(proposal: proposal, size: size)
    switch answerCount {
    case 0: answers.0 = answer
    case 1: answers.1 = answer
    case 2: answers.2 = answer
    case 3: answers.3 = answer
    default: moreAnswers.append(answer)
    }
    answerCount += 1
    return size
  }

  /// Lays the tree out in `bounds` (the canvas, or its safe area): the root is
  /// offered `bounds`' size and centred in it, as SwiftUI centres a root view in
  /// its safe area. Returns every view's frame in points, parents before their
  /// children. With `pixelScale`, each frame's edges then snap to the nearest
  /// device pixel (halves up), in canvas coordinates, each edge on its own, so
  /// neighbours that touch still touch: SwiftUI's rounding of the frames it draws.
  public func layout(in bounds: PointRect, pixelScale: Double? = nil) -> [ResolvedView] {
    var views: [ResolvedView] = []
    layout(in: bounds, canvas: bounds) { _, view in views.append(view) }
    guard let pixelScale else { return views }
    return views.map { view in
      var snapped = view
      snapped.frame = Self.snap(view.frame, pixelScale: pixelScale)
      return snapped
    }
  }

  /// Lays the tree out in the safe area `bounds` of `canvas`, telling `visit`
  /// each node and its frame (unsnapped), parents before children. A view that
  /// ignores the safe area on an edge where it reaches the safe area's edge or
  /// past it (and not past the canvas's) is extended to the canvas's edge there,
  /// and its children are placed in the extended frame. `pixelScale` sets the
  /// tolerance of "reaches": half a pixel and a thousandth of a point.
  func layout(
    in bounds: PointRect, canvas: PointRect, pixelScale: Double = 1, visit: (LayoutNode, ResolvedView) -> Void
  ) {
    let proposal = ProposedViewSize(width: bounds.width, height: bounds.height)
    let size = sizeThatFits(proposal)
    let origin = Alignment.center.origin(of: size, in: bounds)
    let area = SafeArea(bounds: bounds, canvas: canvas, tolerance: 0.5 / pixelScale + 0.001)
    place(
      at: PointRect(x: origin.x, y: origin.y, width: size.width, height: size.height), proposal: proposal, depth: 0,
      area: area, visit: visit)
  }

  /// Places this view (a root of its own) at `frame`, sized under `proposal`,
  /// telling `visit` each node and its frame: a view drawn at absolute points.
  func place(at frame: PointRect, proposal: ProposedViewSize, visit: (LayoutNode, ResolvedView) -> Void) {
    place(at: frame, proposal: proposal, depth: 0, area: nil, visit: visit)
  }

  /// `frame` with each edge at the nearest multiple of 1 / `pixelScale` points
  /// (halves up).
  public static func snap(_ frame: PointRect, pixelScale: Double) -> PointRect {
    func round(_ v: Double) -> Double { (v * pixelScale + 0.5).rounded(.down) / pixelScale }
    let x = round(frame.x)
    let y = round(frame.y)
    return PointRect(x: x, y: y, width: round(frame.maxX) - x, height: round(frame.maxY) - y)
  }

  /// The safe area and the canvas around it, for `ignoresSafeArea`.
  struct SafeArea {
    var bounds: PointRect
    var canvas: PointRect
    /// How near an edge counts as reaching it, in points.
    var tolerance = 0.001

    /// `frame` extended to the canvas on each edge of `edges` where it reaches
    /// the safe area's edge or lies past it, but not past the canvas's (within
    /// `tolerance`): SwiftUI's rule (OpenSwiftUI's `SafeAreaInsets.adjust`,
    /// `Layout/SafeAreaInsets.swift`). A view taller than the safe area, centred
    /// on it, reaches past both edges and is extended to both.
    func extend(_ frame: PointRect, _ edges: EdgeSet) -> PointRect {
      let e = tolerance
      var left = frame.x
      var top = frame.y
      var right = frame.maxX
      var bottom = frame.maxY
      if edges.contains(.leading) && left - e < bounds.x && canvas.x < left + e { left = canvas.x }
      if edges.contains(.top) && top - e < bounds.y && canvas.y < top + e { top = canvas.y }
      if edges.contains(.trailing) && bounds.maxX < right + e && right - e < canvas.maxX { right = canvas.maxX }
      if edges.contains(.bottom) && bounds.maxY < bottom + e && bottom - e < canvas.maxY { bottom = canvas.maxY }
      return PointRect(x: left, y: top, width: right - left, height: bottom - top)
    }
  }

  private func place(
    at frame: PointRect, proposal: ProposedViewSize, depth: Int, area: SafeArea?,
    visit: (LayoutNode, ResolvedView) -> Void
  ) {
    placedProposal = proposal
    var frame = frame
    var proposal = proposal
    if let area, !ignoredSafeAreaEdges.isEmpty {
      let extended = area.extend(frame, ignoredSafeAreaEdges)
      if extended != frame {
        frame = extended
        proposal = ProposedViewSize(width: frame.width, height: frame.height)
      }
    }
    visit(self, ResolvedView(kind: kind, path: path, depth: depth, frame: frame))
    guard !children.isEmpty else { return }
    let placements = rule.placeSubviews(in: frame, proposal: proposal, subviews: subviews)
    precondition(placements.count == children.count, "\(kind) placed \(placements.count) of \(children.count) children")
    for (child, placement) in zip(children, placements) {
      let size = child.sizeThatFits(placement.proposal)
      child.place(
        at: PointRect(x: placement.origin.x, y: placement.origin.y, width: size.width, height: size.height),
        proposal: placement.proposal, depth: depth + 1, area: area, visit: visit)
    }
  }
}

/// A view of a laid-out tree: what it is, where it was written, and its frame.
public struct ResolvedView: Hashable, Sendable {
  /// What the view is (`vstack`, `text`, `padding`, …).
  public var kind: String
  /// Where the view was written.
  public var path: String
  /// How many parents it has (the root: 0).
  public var depth: Int
  /// Its frame in the canvas, in points.
  public var frame: PointRect

  /// Makes a resolved view.
  public init(kind: String, path: String, depth: Int, frame: PointRect) {
    self.kind = kind
    self.path = path
    self.depth = depth
    self.frame = frame
  }
}
