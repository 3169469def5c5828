import Testing

@testable import GLESGlass

// An oracle for the layout engine that shares no code with it: every expected frame below
// was worked out by hand from SwiftUI's rules as gathered in research-layout.md (facts read
// from OpenSwiftUI and Apple's documents), and each case's comment shows the arithmetic.
//
// Unless a case says otherwise the canvas is 300 × 200 at the origin: the root is proposed
// 300 × 200 and centred in it, so a root of size w × h sits at ((300 - w) / 2, (200 - h) / 2).
//
// Leaves:
// - color(): a Color or shape, which takes the proposal (nil → 10).
// - image(w, h): a non-resizable image, always w × h.
// - resizable(w, h): a resizable image, which takes the proposal, with ideal size w × h.
// - text(n): a text-like leaf with a model simple enough to work by hand (see `textSize`).
//
// Where research-layout.md marks a rule uncertain, the OpenSwiftUI (OSUI) behaviour is
// expected, and the case's comment says so.

/// The text-like leaf these tests use: `words` words of 40 pt, 10 pt apart, so k words on a
/// line are 50k - 10 wide. Lines wrap greedily at the proposed width with at least one word a
/// line (a text is never narrower than one word, 40); a nil or infinite width puts every word
/// on one line (the ideal, 50n - 10 wide). The width is the widest line, which is the first:
/// 50k - 10 for k words a line. Lines are 20 high; a finite proposed height keeps only the
/// lines that fit, at least one (truncation), and a nil or infinite height keeps them all.
private func textSize(words: Int, _ proposal: ProposedViewSize) -> PointSize {
  let count = Double(words)
  var perLine = count
  if let width = proposal.width, width < 50 * count - 10 {
    perLine = max(1, ((width + 10) / 50).rounded(.down))
  }
  var lines = (count / perLine).rounded(.up)
  if let height = proposal.height, height.isFinite {
    lines = min(lines, max(1, (height / 20).rounded(.down)))
  }
  return PointSize(width: 50 * perLine - 10, height: 20 * lines)
}

// MARK: - Trees

private func color() -> LayoutNode { LayoutNode(FlexibleLeafLayout(), kind: "color") }

private func image(_ width: Double, _ height: Double) -> LayoutNode {
  LayoutNode(FixedLeafLayout(PointSize(width: width, height: height)), kind: "image")
}

private func resizable(_ width: Double, _ height: Double) -> LayoutNode {
  LayoutNode(FlexibleLeafLayout(ideal: PointSize(width: width, height: height)), kind: "image")
}

private func text(_ words: Int) -> LayoutNode {
  LayoutNode(MeasuredLeafLayout { proposal in textSize(words: words, proposal) }, kind: "text")
}

private func hstack(
  _ children: [LayoutNode], alignment: VerticalAlignment = .center, spacing: Double? = nil
) -> LayoutNode {
  LayoutNode(StackLayout.horizontal(alignment: alignment, spacing: spacing), kind: "hstack", children: children)
}

private func vstack(
  _ children: [LayoutNode], alignment: HorizontalAlignment = .center, spacing: Double? = nil
) -> LayoutNode {
  LayoutNode(StackLayout.vertical(alignment: alignment, spacing: spacing), kind: "vstack", children: children)
}

private func zstack(_ children: [LayoutNode], alignment: Alignment = .center) -> LayoutNode {
  LayoutNode(ZStackLayout(alignment: alignment), kind: "zstack", children: children)
}

/// A Spacer in an HStack.
private func hspacer(_ minLength: Double? = nil) -> LayoutNode {
  LayoutNode(SpacerLayout(minLength: minLength, axis: .horizontal), kind: "spacer")
}

/// A Spacer in a VStack.
private func vspacer(_ minLength: Double? = nil) -> LayoutNode {
  LayoutNode(SpacerLayout(minLength: minLength, axis: .vertical), kind: "spacer")
}

/// A Spacer outside any stack.
private func spacer() -> LayoutNode { LayoutNode(SpacerLayout(minLength: nil, axis: nil), kind: "spacer") }

private func padding(_ child: LayoutNode, _ insets: EdgeInsets = EdgeInsets(all: 16)) -> LayoutNode {
  LayoutNode(PaddingLayout(insets), kind: "padding", children: [child])
}

private func frame(
  _ child: LayoutNode, width: Double?, height: Double?, alignment: Alignment = .center
) -> LayoutNode {
  LayoutNode(FrameLayout(width: width, height: height, alignment: alignment), kind: "frame", children: [child])
}

private func flex(_ child: LayoutNode, _ rule: FlexFrameLayout) -> LayoutNode {
  LayoutNode(rule, kind: "flexframe", children: [child])
}

/// `.frame(maxWidth: .infinity)`.
private func fullWidth(_ child: LayoutNode) -> LayoutNode { flex(child, FlexFrameLayout(maxWidth: .infinity)) }

private func fixedSize(_ child: LayoutNode, horizontal: Bool = true, vertical: Bool = true) -> LayoutNode {
  LayoutNode(FixedSizeLayout(horizontal: horizontal, vertical: vertical), kind: "fixedsize", children: [child])
}

private func priority(_ child: LayoutNode, _ value: Double) -> LayoutNode {
  LayoutNode(LayoutPriorityLayout(value), kind: "priority", children: [child])
}

private func offset(_ child: LayoutNode, x: Double, y: Double) -> LayoutNode {
  LayoutNode(OffsetLayout(x: x, y: y), kind: "offset", children: [child])
}

private func aspect(_ child: LayoutNode, _ ratio: Double?, _ mode: ContentMode) -> LayoutNode {
  LayoutNode(AspectRatioLayout(ratio, contentMode: mode), kind: "aspect", children: [child])
}

/// `primary.overlay(secondary, alignment:)`.
private func overlay(_ primary: LayoutNode, _ secondary: LayoutNode, alignment: Alignment = .center) -> LayoutNode {
  LayoutNode(SecondaryLayout(alignment: alignment), kind: "overlay", children: [primary, secondary])
}

/// `primary.background(secondary)`.
private func background(_ primary: LayoutNode, _ secondary: LayoutNode) -> LayoutNode {
  LayoutNode(SecondaryLayout(alignment: .center), kind: "background", children: [primary, secondary])
}

/// One expected view: its kind and its frame.
private func at(_ kind: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> LayoutRuleTests.Expected {
  LayoutRuleTests.Expected(kind: kind, frame: PointRect(x: x, y: y, width: w, height: h))
}

private func nearlyEqual(_ a: PointRect, _ b: PointRect, _ tolerance: Double) -> Bool {
  [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].allSatisfy { abs($0) <= tolerance }
}

/// Whether every edge of `rect` lies on the pixel grid of `scale`.
private func onPixels(_ rect: PointRect, _ scale: Double) -> Bool {
  [rect.x, rect.y, rect.x + rect.width, rect.y + rect.height].allSatisfy {
    abs($0 * scale - ($0 * scale).rounded()) <= 1e-6
  }
}

private func describe(_ rect: PointRect) -> String { "(\(rect.x), \(rect.y), \(rect.width), \(rect.height))" }

// MARK: - The table

@Suite("Layout rules against frames worked out by hand")
struct LayoutRuleTests {
  /// One view's expected kind and frame.
  struct Expected: Sendable {
    var kind: String
    var frame: PointRect
  }

  /// A tree, the canvas it is laid out in, and every view's frame in pre-order.
  struct Case: Sendable {
    var name: String
    var canvas: PointRect
    var pixelScale: Double?
    var tree: LayoutNode
    var expect: [Expected]

    init(
      _ name: String, canvas: PointRect = PointRect(x: 0, y: 0, width: 300, height: 200), pixelScale: Double? = nil,
      tree: LayoutNode, expect: [Expected]
    ) {
      self.name = name
      self.canvas = canvas
      self.pixelScale = pixelScale
      self.tree = tree
      self.expect = expect
    }
  }

  static let groups: [[Case]] = [
    stackCases, spacerCases, priorityCases, zstackCases, frameCases, flexFrameCases, modifierCases, textCases,
    aspectCases, rootCases, snapCases, passThroughCases,
  ]

  static let cases: [Case] = groups.flatMap { $0 }

  // MARK: HStack and VStack

  static let stackCases: [Case] = [
    // Width 50 + 8 + 40 = 98, height max(30, 20) = 30; root at ((300 - 98) / 2, (200 - 30) / 2) = (101, 85).
    // .center: the 20-high image at y 85 + (30 - 20) / 2 = 90; the second at x 101 + 50 + 8 = 159.
    Case(
      "hstack centres fixed children", tree: hstack([image(50, 30), image(40, 20)]),
      expect: [at("hstack", 101, 85, 98, 30), at("image", 101, 85, 50, 30), at("image", 159, 90, 40, 20)]),
    // As above with .top: both tops at y 85.
    Case(
      "hstack top alignment", tree: hstack([image(50, 30), image(40, 20)], alignment: .top),
      expect: [at("hstack", 101, 85, 98, 30), at("image", 101, 85, 50, 30), at("image", 159, 85, 40, 20)]),
    // As above with .bottom: the 20-high image at y 85 + 30 - 20 = 95.
    Case(
      "hstack bottom alignment", tree: hstack([image(50, 30), image(40, 20)], alignment: .bottom),
      expect: [at("hstack", 101, 85, 98, 30), at("image", 101, 85, 50, 30), at("image", 159, 95, 40, 20)]),
    // Available 300 - 8 = 292; two colours, equally flexible (0...∞), in stack order: the first is
    // offered 292 / 2 = 146 and takes it, the second (292 - 146) / 1 = 146; both take the height 200.
    Case(
      "hstack splits two colours", tree: hstack([color(), color()]),
      expect: [at("hstack", 0, 0, 300, 200), at("color", 0, 0, 146, 200), at("color", 154, 0, 146, 200)]),
    // Available 292. text(4) is 40...190 wide (finite flexibility), the colour 0...∞: the text is
    // sized first although it comes second. Offered 292 / 2 = 146: (146 + 10) / 50 = 3.12 → 3 words a
    // line → 140 wide, 2 lines → 40 high. The colour is offered 292 - 140 = 152. Placed in stack
    // order: colour at x 0, text at 152 + 8 = 160, y (200 - 40) / 2 = 80.
    Case(
      "hstack sizes the text before the colour", tree: hstack([color(), text(4)]),
      expect: [at("hstack", 0, 0, 300, 200), at("color", 0, 0, 152, 200), at("text", 160, 80, 140, 40)]),
    // research §2.7: available 300 - 16 = 284; the text first, offered 284 / 3 = 94.67 →
    // (94.67 + 10) / 50 = 2.09 → 2 words a line → 90 × 40, although there would be room for one line.
    // The colours share 284 - 90 = 194: 97 each. x: 0, 97 + 8 = 105, 105 + 90 + 8 = 203.
    Case(
      "hstack colour text colour", tree: hstack([color(), text(4), color()]),
      expect: [
        at("hstack", 0, 0, 300, 200), at("color", 0, 0, 97, 200), at("text", 105, 80, 90, 40),
        at("color", 203, 0, 97, 200),
      ]),
    // Two text(5) (40...240, equally flexible, stack order). Available 292: the first is offered 146 →
    // 3 words a line → 140 × 40 (5 words on 2 lines); the second 292 - 140 = 152 → 3 a line → 140 × 40.
    // Stack 140 + 8 + 140 = 288 × 40; root at ((300 - 288) / 2, (200 - 40) / 2) = (6, 80).
    Case(
      "hstack shares between equal texts", tree: hstack([text(5), text(5)]),
      expect: [at("hstack", 6, 80, 288, 40), at("text", 6, 80, 140, 40), at("text", 154, 80, 140, 40)]),
    // VStack of 50 × 30 and 80 × 20: width max = 80, height 30 + 8 + 20 = 58; root at
    // ((300 - 80) / 2, (200 - 58) / 2) = (110, 71). .leading: both at x 110; the second at y 71 + 38 = 109.
    Case(
      "vstack leading alignment", tree: vstack([image(50, 30), image(80, 20)], alignment: .leading),
      expect: [at("vstack", 110, 71, 80, 58), at("image", 110, 71, 50, 30), at("image", 110, 109, 80, 20)]),
    // As above, .center: the 50-wide image at x 110 + (80 - 50) / 2 = 125.
    Case(
      "vstack centre alignment", tree: vstack([image(50, 30), image(80, 20)]),
      expect: [at("vstack", 110, 71, 80, 58), at("image", 125, 71, 50, 30), at("image", 110, 109, 80, 20)]),
    // As above, .trailing: the 50-wide image at x 110 + 80 - 50 = 140.
    Case(
      "vstack trailing alignment", tree: vstack([image(50, 30), image(80, 20)], alignment: .trailing),
      expect: [at("vstack", 110, 71, 80, 58), at("image", 140, 71, 50, 30), at("image", 110, 109, 80, 20)]),
    // Explicit spacing 20: height 30 + 20 + 20 = 70, root at (110, (200 - 70) / 2) = (110, 65);
    // the second image at y 65 + 30 + 20 = 115.
    Case(
      "vstack explicit spacing", tree: vstack([image(50, 30), image(80, 20)], spacing: 20),
      expect: [at("vstack", 110, 65, 80, 70), at("image", 125, 65, 50, 30), at("image", 110, 115, 80, 20)]),
    // Available 200 - 8 = 192; the image (flexibility 0) first: offered 96, takes 40. The colour is
    // offered 192 - 40 = 152 high and the stack's width proposal 300. Stack width max(100, 300) = 300.
    Case(
      "vstack image then colour", tree: vstack([image(100, 40), color()]),
      expect: [at("vstack", 0, 0, 300, 200), at("image", 100, 0, 100, 40), at("color", 0, 48, 300, 152)]),
    // text(8) at width 300: (300 + 10) / 50 = 6.2 → 6 words a line → 290 wide, 2 lines. Vertically it
    // is 20...40 (height 0 keeps one line), the colour 0...∞: the text first, offered 192 / 2 = 96
    // (room for 4 lines) → 290 × 40; the colour 300 × (192 - 40 = 152) at y 48. Text x (300 - 290) / 2.
    Case(
      "vstack text then colour", tree: vstack([text(8), color()]),
      expect: [at("vstack", 0, 0, 300, 200), at("text", 5, 0, 290, 40), at("color", 0, 48, 300, 152)]),
    // Spacing 0: three colours, each offered 200 / 3 in turn ((200 - 200/3) / 2 = 200/3, ...).
    Case(
      "vstack spacing zero", tree: vstack([color(), color(), color()], spacing: 0),
      expect: [
        at("vstack", 0, 0, 300, 200), at("color", 0, 0, 300, 200.0 / 3), at("color", 0, 200.0 / 3, 300, 200.0 / 3),
        at("color", 0, 400.0 / 3, 300, 200.0 / 3),
      ]),
    // Outer VStack: the colour is 0...∞ high, the HStack 120...∞ (at height 0 its image is still 120
    // high). Both infinitely flexible: the larger minimum goes first (research §2.2), so the HStack is
    // offered 192 / 2 = 96 and is 120 high (its image overflows the offer); the colour gets
    // 192 - 120 = 72. (Stack order would give 96 + 8 + 120 = 224 and overflow.) The HStack is placed at
    // y 72 + 8 = 80 with the proposal (300, 96): inside it the image (flexibility 0) is offered 292 / 2 =
    // 146 and takes 40, the colour 292 - 40 = 252 × 96, centred in the 120 height at y 80 + 12 = 92.
    Case(
      "vstack sizes the larger minimum first", tree: vstack([color(), hstack([color(), image(40, 120)])]),
      expect: [
        at("vstack", 0, 0, 300, 200), at("color", 0, 0, 300, 72), at("hstack", 0, 80, 300, 120),
        at("color", 0, 92, 252, 96), at("image", 260, 80, 40, 120),
      ]),
    // fixedSize proposes nil × nil: the VStack sizes ideally: the image 100 × 20, the colour 10 × 10;
    // stack 100 × (20 + 8 + 10 = 38), root at (100, 81). When placing, the stack's nil width proposal is
    // replaced by its width 100 (research §2.4), so the colour is proposed (100, nil) → 100 × 10.
    Case(
      "fixed-size vstack gives a colour the stack's width", tree: fixedSize(vstack([image(100, 20), color()])),
      expect: [
        at("fixedsize", 100, 81, 100, 38), at("vstack", 100, 81, 100, 38), at("image", 100, 81, 100, 20),
        at("color", 100, 109, 100, 10),
      ]),
    // fixedSize(vertical) proposes (300, nil). The image first (offered 146, takes 50), the colour is
    // offered 292 - 50 = 242 and height nil → 242 × 10; stack height max(30, 10) = 30, root y 85. When
    // placing, the nil height becomes 30, so the colour is proposed (242, 30) → 242 × 30.
    Case(
      "fixed-size hstack gives a colour the stack's height",
      tree: fixedSize(hstack([image(50, 30), color()]), horizontal: false),
      expect: [
        at("fixedsize", 0, 85, 300, 30), at("hstack", 0, 85, 300, 30), at("image", 0, 85, 50, 30),
        at("color", 58, 85, 242, 30),
      ]),
  ]

  // MARK: Spacers

  static let spacerCases: [Case] = [
    // No spacing next to a Spacer. Spacer priority -∞ (OSUI; research uncertainty 1): the colour
    // (priority 0) is offered 300 - 8 (the spacer's minimum, reserved) = 292; the spacer then gets the
    // 8 left. A Spacer's cross size is 0: centred at y 200 / 2 = 100.
    Case(
      "colour then spacer", tree: hstack([color(), hspacer()]),
      expect: [at("hstack", 0, 0, 300, 200), at("color", 0, 0, 292, 200), at("spacer", 292, 100, 8, 0)]),
    // minLength 50 is reserved: the colour gets 250, the spacer 50.
    Case(
      "colour then spacer with minLength", tree: hstack([color(), hspacer(50)]),
      expect: [at("hstack", 0, 0, 300, 200), at("color", 0, 0, 250, 200), at("spacer", 250, 100, 50, 0)]),
    // Gaps 0 and 0. Reserve 8: 292 for the images (50 and 40), then the spacer gets 300 - 90 = 210.
    // Stack height 30, root y 85; the spacer at y 85 + 15 = 100, the small image at 85 + 5 = 90.
    Case(
      "spacer between images", tree: hstack([image(50, 30), hspacer(), image(40, 20)]),
      expect: [
        at("hstack", 0, 85, 300, 30), at("image", 0, 85, 50, 30), at("spacer", 50, 100, 210, 0),
        at("image", 260, 90, 40, 20),
      ]),
    // Explicit spacing is used next to spacers too: available 300 - 40 = 260; the images take 90 and
    // the spacer 170. x: 0, 50 + 20 = 70, 70 + 170 + 20 = 260.
    Case(
      "explicit spacing next to a spacer", tree: hstack([image(50, 30), hspacer(), image(40, 20)], spacing: 20),
      expect: [
        at("hstack", 0, 85, 300, 30), at("image", 0, 85, 50, 30), at("spacer", 70, 100, 170, 0),
        at("image", 260, 90, 40, 20),
      ]),
    // The image is offered 300 - 40 = 260 but is 280; the spacer is offered 260 - 280 + 40 = 20 and
    // keeps its minimum 40. Stack 320 wide overflows: root x (300 - 320) / 2 = -10.
    Case(
      "spacer keeps its minLength when overflowing", tree: hstack([image(280, 30), hspacer(40)]),
      expect: [at("hstack", -10, 85, 320, 30), at("image", -10, 85, 280, 30), at("spacer", 270, 100, 40, 0)]),
    // minLength 0 reserves nothing: the images take 50 and 260 (offered 150, then 250); the spacer is
    // offered max(300 - 310, 0) = 0 → 0. Stack 310 wide, root x -5.
    Case(
      "spacer with minLength 0 shrinks to nothing", tree: hstack([image(50, 30), hspacer(0), image(260, 30)]),
      expect: [
        at("hstack", -5, 85, 310, 30), at("image", -5, 85, 50, 30), at("spacer", 45, 100, 0, 0),
        at("image", 45, 85, 260, 30),
      ]),
    // Three spacers reserve 24; the images take 60 + 40; the spacers share 300 - 100 = 200: 200 / 3
    // each. Stack height 20, root y 90, spacers at y 100.
    Case(
      "spacers share equally", tree: hstack([hspacer(), image(60, 20), hspacer(), image(40, 20), hspacer()]),
      expect: [
        at("hstack", 0, 90, 300, 20), at("spacer", 0, 100, 200.0 / 3, 0), at("image", 200.0 / 3, 90, 60, 20),
        at("spacer", 200.0 / 3 + 60, 100, 200.0 / 3, 0), at("image", 400.0 / 3 + 60, 90, 40, 20),
        at("spacer", 400.0 / 3 + 100, 100, 200.0 / 3, 0),
      ]),
    // VStack: reserve 100 + 8 = 108, the image takes 40 of 92; the spacers share 200 - 40 = 160. Both
    // are infinitely flexible; the one with the larger minimum (100) goes first: offered 80, keeps 100;
    // the other is offered 60 and takes it. Stack 100 × 200 at x 100; spacers (width 0) at x 150.
    Case(
      "spacer with the larger minLength is sized first", tree: vstack([vspacer(100), image(100, 40), vspacer()]),
      expect: [
        at("vstack", 100, 0, 100, 200), at("spacer", 150, 0, 0, 100), at("image", 100, 100, 100, 40),
        at("spacer", 150, 140, 0, 60),
      ]),
    // A VStack ending in a spacer pushes the image up: the image 40, the spacer 200 - 40 = 160.
    Case(
      "spacer pushes up", tree: vstack([image(100, 40), vspacer()]),
      expect: [at("vstack", 100, 0, 100, 200), at("image", 100, 0, 100, 40), at("spacer", 150, 40, 0, 160)]),
    // A ZStack sizes itself from its highest-priority children only (research §3), and a Spacer's
    // priority is -∞ (OSUI; uncertainty 1): the ZStack is the image's 40 × 20, root (130, 90). The
    // spacer (no axis) is placed with the proposal 40 × 20 → max(40, 8) × max(20, 8) = 40 × 20.
    Case(
      "spacer does not size a zstack", tree: zstack([spacer(), image(40, 20)]),
      expect: [at("zstack", 130, 90, 40, 20), at("spacer", 130, 90, 40, 20), at("image", 130, 90, 40, 20)]),
  ]

  // MARK: Layout priority

  static let priorityCases: [Case] = [
    // Two text(5), the second with priority 1: available 292, minus the lower group's minimum 40
    // (one word) = 252 for the second: (252 + 10) / 50 = 5.24 → all 5 words, 240 × 20. The first is
    // offered 252 - 240 + 40 = 52 → 1 word a line, 40 × 100 (5 lines). Stack 40 + 8 + 240 = 288 × 100;
    // root ((300 - 288) / 2, (200 - 100) / 2) = (6, 50); the second text at y 50 + 40 = 90.
    Case(
      "higher priority text gets all but the other's minimum", tree: hstack([text(5), priority(text(5), 1)]),
      expect: [
        at("hstack", 6, 50, 288, 100), at("text", 6, 50, 40, 100), at("priority", 54, 90, 240, 20),
        at("text", 54, 90, 240, 20),
      ]),
    // A colour's minimum is 0: the priority-1 colour gets all 292, the other 0.
    Case(
      "higher priority colour takes everything", tree: hstack([color(), priority(color(), 1)]),
      expect: [
        at("hstack", 0, 0, 300, 200), at("color", 0, 0, 0, 200), at("priority", 8, 0, 292, 200),
        at("color", 8, 0, 292, 200),
      ]),
    // Available 300 - 16 = 284, minus the images' minimums 50 + 30 = 204 for the colour. Then the
    // images get 80 back: offered 40 (takes 50), then 30 (takes 30). x: 0, 58, 58 + 204 + 8 = 270.
    Case(
      "priority reserves the others' minimums", tree: hstack([image(50, 20), priority(color(), 1), image(30, 20)]),
      expect: [
        at("hstack", 0, 0, 300, 200), at("image", 0, 90, 50, 20), at("priority", 58, 0, 204, 200),
        at("color", 58, 0, 204, 200), at("image", 270, 90, 30, 20),
      ]),
  ]

  // MARK: ZStack

  /// A ZStack of a 100 × 80 and a 40 × 20 image: size 100 × 80, root at (100, 60); the small image's
  /// origin is (100 + (100 - 40) × h, 60 + (80 - 20) × v) for the alignment's fractions h and v, i.e.
  /// x 100, 130 or 160 and y 60, 90 or 120.
  static func zstackCase(_ name: String, _ alignment: Alignment, _ x: Double, _ y: Double) -> Case {
    Case(
      "zstack \(name)", tree: zstack([image(100, 80), image(40, 20)], alignment: alignment),
      expect: [at("zstack", 100, 60, 100, 80), at("image", 100, 60, 100, 80), at("image", x, y, 40, 20)])
  }

  static let zstackCases: [Case] = [
    zstackCase("topLeading", .topLeading, 100, 60),
    zstackCase("top", .top, 130, 60),
    zstackCase("topTrailing", .topTrailing, 160, 60),
    zstackCase("leading", .leading, 100, 90),
    zstackCase("center", .center, 130, 90),
    zstackCase("trailing", .trailing, 160, 90),
    zstackCase("bottomLeading", .bottomLeading, 100, 120),
    zstackCase("bottom", .bottom, 130, 120),
    zstackCase("bottomTrailing", .bottomTrailing, 160, 120),
    // A colour takes the whole proposal 300 × 200, so the ZStack does; the image is centred in it.
    Case(
      "zstack colour and image", tree: zstack([color(), image(40, 20)]),
      expect: [at("zstack", 0, 0, 300, 200), at("color", 0, 0, 300, 200), at("image", 130, 90, 40, 20)]),
  ]

  // MARK: frame(width:height:alignment:)

  static let frameCases: [Case] = [
    // A 50 × 50 frame around a 100 × 80 image: the frame is 50 × 50 at (125, 75); the image overflows,
    // centred: (125 + (50 - 100) / 2, 75 + (50 - 80) / 2) = (100, 60).
    Case(
      "fixed frame smaller than its child", tree: frame(image(100, 80), width: 50, height: 50),
      expect: [at("frame", 125, 75, 50, 50), at("image", 100, 60, 100, 80)]),
    // .topLeading: the image's top-left at the frame's, (125, 75).
    Case(
      "fixed frame smaller than its child, topLeading",
      tree: frame(image(100, 80), width: 50, height: 50, alignment: .topLeading),
      expect: [at("frame", 125, 75, 50, 50), at("image", 125, 75, 100, 80)]),
    // .bottomTrailing: (125 + 50 - 100, 75 + 50 - 80) = (75, 45).
    Case(
      "fixed frame smaller than its child, bottomTrailing",
      tree: frame(image(100, 80), width: 50, height: 50, alignment: .bottomTrailing),
      expect: [at("frame", 125, 75, 50, 50), at("image", 75, 45, 100, 80)]),
    // A 200 × 100 frame at (50, 50); .bottomLeading: the image at (50, 50 + 100 - 30) = (50, 120).
    Case(
      "fixed frame larger than its child, bottomLeading",
      tree: frame(image(50, 30), width: 200, height: 100, alignment: .bottomLeading),
      expect: [at("frame", 50, 50, 200, 100), at("image", 50, 120, 50, 30)]),
    // Width only: the text is proposed (100, 200): (100 + 10) / 50 = 2.2 → 2 words a line → 90 × 40.
    // The frame is 100 × 40 (its height is the child's), root (100, 80); the text centred at x 105.
    Case(
      "frame with width only takes the child's height", tree: frame(text(4), width: 100, height: nil),
      expect: [at("frame", 100, 80, 100, 40), at("text", 105, 80, 90, 40)]),
    // Width only around a colour: the colour is proposed (100, 200) and takes it.
    Case(
      "frame with width only around a colour", tree: frame(color(), width: 100, height: nil),
      expect: [at("frame", 100, 0, 100, 200), at("color", 100, 0, 100, 200)]),
    // A 20 × 20 frame proposes 20 × 20 to the padding, which proposes max(0, 20 - 32) = 0 × 0 to the
    // colour → 0 × 0; the padding is 32 × 32, overflowing the frame (at (140, 90)) centred:
    // (140 - 6, 90 - 6) = (134, 84); the colour at (134 + 16, 84 + 16).
    Case(
      "padding larger than the proposal", tree: frame(padding(color()), width: 20, height: 20),
      expect: [at("frame", 140, 90, 20, 20), at("padding", 134, 84, 32, 32), at("color", 150, 100, 0, 0)]),
  ]

  // MARK: frame(minWidth:idealWidth:maxWidth:...)

  static let flexFrameCases: [Case] = [
    // maxWidth ∞: the child is proposed 300, is 50; the width is min(max(300, 50), ∞) = 300. The height
    // has no constraint: the child's 30. Frame 300 × 30 at (0, 85); the image centred at x 125.
    Case(
      "maxWidth infinity fills the proposal", tree: flex(image(50, 30), FlexFrameLayout(maxWidth: .infinity)),
      expect: [at("flexframe", 0, 85, 300, 30), at("image", 125, 85, 50, 30)]),
    // maxWidth ∞ only, child 400 wide: the width is min(max(300, 400), ∞) = 400, root x -50.
    Case(
      "maxWidth infinity takes a wider child's width", tree: flex(image(400, 30), FlexFrameLayout(maxWidth: .infinity)),
      expect: [at("flexframe", -50, 85, 400, 30), at("image", -50, 85, 400, 30)]),
    // minWidth 0 and maxWidth ∞: the frame takes the proposal clamped, 300, without asking the child
    // on that axis; the 400-wide image overflows, centred: x (300 - 400) / 2 = -50.
    Case(
      "min and max width take the proposal whatever the child",
      tree: flex(image(400, 30), FlexFrameLayout(minWidth: 0, maxWidth: .infinity)),
      expect: [at("flexframe", 0, 85, 300, 30), at("image", -50, 85, 400, 30)]),
    // maxWidth and maxHeight ∞, .bottomTrailing: frame 300 × 200; image at (300 - 50, 200 - 30).
    Case(
      "max infinity both ways, bottomTrailing",
      tree: flex(image(50, 30), FlexFrameLayout(maxWidth: .infinity, maxHeight: .infinity, alignment: .bottomTrailing)),
      expect: [at("flexframe", 0, 0, 300, 200), at("image", 250, 170, 50, 30)]),
    // In an HStack: the image (flexibility 0) first, offered 146, takes 60. The frame (40...∞) is
    // offered 292 - 60 = 232; text(2) proposed 232 is one line 90 × 20; the frame is
    // min(max(232, 90), ∞) = 232 wide, 20 high. Stack 300 × 20, root y 90; .leading puts the text at x 0.
    Case(
      "maxWidth infinity with leading alignment in an hstack",
      tree: hstack([flex(text(2), FlexFrameLayout(maxWidth: .infinity, alignment: .leading)), image(60, 20)]),
      expect: [
        at("hstack", 0, 90, 300, 20), at("flexframe", 0, 90, 232, 20), at("text", 0, 90, 90, 20),
        at("image", 240, 90, 60, 20),
      ]),
    // Two maxWidth-∞ frames, minimums 40 and 200 (their images' widths at proposal 0): the larger
    // minimum goes first: offered 292 / 2 = 146, its image is 200, so it is max(146, 200) = 200; the
    // other is offered 92 → 92, its 40-wide image centred at x (92 - 40) / 2 = 26.
    Case(
      "maxWidth infinity frames: larger minimum first",
      tree: hstack([fullWidth(image(40, 20)), fullWidth(image(200, 20))]),
      expect: [
        at("hstack", 0, 90, 300, 20), at("flexframe", 0, 90, 92, 20), at("image", 26, 90, 40, 20),
        at("flexframe", 100, 90, 200, 20), at("image", 100, 90, 200, 20),
      ]),
    // maxWidth 100 around a 150-wide image: proposed clamp(300, hi: 100) = 100; the width is
    // min(max(100, 150), 100) = 100; frame (100, 85); the image overflows centred at x 100 - 25 = 75.
    Case(
      "maxWidth smaller than the child", tree: flex(image(150, 30), FlexFrameLayout(maxWidth: 100)),
      expect: [at("flexframe", 100, 85, 100, 30), at("image", 75, 85, 150, 30)]),
    // minWidth 50 proposed 80 (by a width-80 frame), child 100: the width is max(min(80, 100), 50) = 80,
    // narrower than the child, which overflows centred: x 110 + (80 - 100) / 2 = 100.
    Case(
      "minWidth with a proposal smaller than the child",
      tree: frame(flex(image(100, 30), FlexFrameLayout(minWidth: 50)), width: 80, height: nil),
      expect: [at("frame", 110, 85, 80, 30), at("flexframe", 110, 85, 80, 30), at("image", 100, 85, 100, 30)]),
    // minWidth 50 proposed 30: the colour is proposed clamp(30, lo: 50) = 50 and takes it; the width is
    // max(min(50, 50), 50) = 50, overflowing the 30-wide frame (at x 135) centred: x 135 - 10 = 125.
    Case(
      "minWidth with a proposal below the minimum",
      tree: frame(flex(color(), FlexFrameLayout(minWidth: 50)), width: 30, height: nil),
      expect: [at("frame", 135, 0, 30, 200), at("flexframe", 125, 0, 50, 200), at("color", 125, 0, 50, 200)]),
    // minWidth 50 proposed 300, child 30: max(min(300, 30), 50) = 50; frame (125, 90), image at 135.
    Case(
      "minWidth with a proposal larger than the child", tree: flex(image(30, 20), FlexFrameLayout(minWidth: 50)),
      expect: [at("flexframe", 125, 90, 50, 20), at("image", 135, 90, 30, 20)]),
    // min and max on both axes: width clamp(300, 100, 200) = 200, height clamp(200, 0, 40) = 40, the
    // child not consulted. Frame (50, 80); the 300 × 80 image centred: (50 - 50, 80 - 20) = (0, 60).
    Case(
      "min and max on both axes ignore the child",
      tree: flex(image(300, 80), FlexFrameLayout(minWidth: 100, maxWidth: 200, minHeight: 0, maxHeight: 40)),
      expect: [at("flexframe", 50, 80, 200, 40), at("image", 0, 60, 300, 80)]),
    // fixedSize proposes nil × nil; the ideals replace it: the frame is 120 × 60, root (90, 70); with an
    // ideal given the colour is proposed the frame's size (research §6.4) → 120 × 60.
    Case(
      "ideal size under fixedSize",
      tree: fixedSize(flex(color(), FlexFrameLayout(idealWidth: 120, idealHeight: 60))),
      expect: [at("fixedsize", 90, 70, 120, 60), at("flexframe", 90, 70, 120, 60), at("color", 90, 70, 120, 60)]),
    // With a concrete proposal an ideal changes nothing: the child is proposed 300 and the frame takes
    // the child's 50 × 30.
    Case(
      "ideal size without fixedSize", tree: flex(image(50, 30), FlexFrameLayout(idealWidth: 120)),
      expect: [at("flexframe", 125, 85, 50, 30), at("image", 125, 85, 50, 30)]),
    // fixedSize(horizontal) proposes (nil, 200): width ideal 120, height the colour's 200 (proposed
    // (120, 200)). Root (90, 0).
    Case(
      "ideal width under horizontal fixedSize",
      tree: fixedSize(flex(color(), FlexFrameLayout(idealWidth: 120)), vertical: false),
      expect: [at("fixedsize", 90, 0, 120, 200), at("flexframe", 90, 0, 120, 200), at("color", 90, 0, 120, 200)]),
    // minWidth 100 > maxWidth 50 (max is not raised to min, research §6.1): the child is proposed
    // clamp(300, 100, 50) = 50: text(4) → 1 word a line, 40 × 80; the frame takes the child's width 40
    // (the "neither" branch). Root (130, 60). (OSUI behaviour; unverified on a device.)
    Case(
      "contradictory min greater than max", tree: flex(text(4), FlexFrameLayout(minWidth: 100, maxWidth: 50)),
      expect: [at("flexframe", 130, 60, 40, 80), at("text", 130, 60, 40, 80)]),
    // iOS 17 placement rule (research §6.4; uncertainty 6, OSUI's v5 semantics): under fixedSize the
    // frame is proposed nil × nil; text(5)'s ideal is 240 × 20, so the frame is clamp(240, 50, 200) =
    // 200 × 20, root (50, 90). Placing: the width 200 is not strictly below the max 200 → the text is
    // proposed 200; the height 20 is strictly inside (-∞, ∞) with a nil proposal and no ideal → nil.
    // The text proposed (200, nil): 4 words a line → 190 × 40, overflowing: (50 + 5, 90 - 10).
    Case(
      "placement proposes nil on an unconstrained axis",
      tree: fixedSize(flex(text(5), FlexFrameLayout(minWidth: 50, maxWidth: 200))),
      expect: [at("fixedsize", 50, 90, 200, 20), at("flexframe", 50, 90, 200, 20), at("text", 55, 80, 190, 40)]),
  ]

  // MARK: Padding, background, overlay, offset

  static let modifierCases: [Case] = [
    // .padding().background(colour): the background is proposed the padded size 82 × 62, root (109, 69).
    Case(
      "padding then background", tree: background(padding(image(50, 30)), color()),
      expect: [
        at("background", 109, 69, 82, 62), at("padding", 109, 69, 82, 62), at("image", 125, 85, 50, 30),
        at("color", 109, 69, 82, 62),
      ]),
    // .background(colour).padding(): the background covers only the 50 × 30 content.
    Case(
      "background then padding", tree: padding(background(image(50, 30), color())),
      expect: [
        at("padding", 109, 69, 82, 62), at("background", 125, 85, 50, 30), at("image", 125, 85, 50, 30),
        at("color", 125, 85, 50, 30),
      ]),
    // Insets top 10, leading 20, bottom 0, trailing 5: 75 × 40, root (112.5, 80); image at (+20, +10).
    Case(
      "asymmetric padding",
      tree: padding(image(50, 30), EdgeInsets(top: 10, leading: 20, bottom: 0, trailing: 5)),
      expect: [at("padding", 112.5, 80, 75, 40), at("image", 132.5, 90, 50, 30)]),
    // Padding 16 around a colour: the colour is proposed 268 × 168.
    Case(
      "padding around a colour", tree: padding(color()),
      expect: [at("padding", 0, 0, 300, 200), at("color", 16, 16, 268, 168)]),
    // Overlay .topTrailing: the primary 100 × 60 at (100, 70); the 20 × 20 at (100 + 100 - 20, 70).
    Case(
      "overlay topTrailing", tree: overlay(image(100, 60), image(20, 20), alignment: .topTrailing),
      expect: [at("overlay", 100, 70, 100, 60), at("image", 100, 70, 100, 60), at("image", 180, 70, 20, 20)]),
    // Overlay .bottomLeading: (100, 70 + 60 - 20) = (100, 110).
    Case(
      "overlay bottomLeading", tree: overlay(image(100, 60), image(20, 20), alignment: .bottomLeading),
      expect: [at("overlay", 100, 70, 100, 60), at("image", 100, 70, 100, 60), at("image", 100, 110, 20, 20)]),
    // An overlay larger than its primary does not change the size (40 × 40 at (130, 80)); centred:
    // (130 + (40 - 60) / 2, 80 + (40 - 10) / 2) = (120, 95).
    Case(
      "overlay larger than the primary", tree: overlay(image(40, 40), image(60, 10)),
      expect: [at("overlay", 130, 80, 40, 40), at("image", 130, 80, 40, 40), at("image", 120, 95, 60, 10)]),
    // An offset moves the child's frame only: the HStack is laid out as without it (width 98 at
    // (101, 85)); the offset view stays at (101, 85), its child moves to (111, 80).
    Case(
      "offset moves the child only", tree: hstack([offset(image(50, 30), x: 10, y: -5), image(40, 20)]),
      expect: [
        at("hstack", 101, 85, 98, 30), at("offset", 101, 85, 50, 30), at("image", 111, 80, 50, 30),
        at("image", 159, 90, 40, 20),
      ]),
  ]

  // MARK: Text

  static let textCases: [Case] = [
    // text(8) proposed 300: (300 + 10) / 50 = 6.2 → 6 words a line → 290 × 40; root (5, 80).
    Case("text wraps at the proposed width", tree: text(8), expect: [at("text", 5, 80, 290, 40)]),
    // fixedSize: the ideal, one line 50 × 8 - 10 = 390 × 20, wider than the canvas: root
    // ((300 - 390) / 2, (200 - 20) / 2) = (-45, 90).
    Case(
      "fixedSize text takes its ideal one line", tree: fixedSize(text(8)),
      expect: [at("fixedsize", -45, 90, 390, 20), at("text", -45, 90, 390, 20)]),
    // A 100 × 30 frame proposes 100 × 30: 2 words a line, 2 lines needed, 1 fits → 90 × 20 (truncated).
    // Frame at (100, 85); text centred (105, 90).
    Case(
      "text truncated by the proposed height", tree: frame(text(4), width: 100, height: 30),
      expect: [at("frame", 100, 85, 100, 30), at("text", 105, 90, 90, 20)]),
    // fixedSize(horizontal: false, vertical: true) proposes (100, nil): 2 lines → 90 × 40, overflowing
    // the 30-high frame centred: (100 + 5, 85 + (30 - 40) / 2) = (105, 80).
    Case(
      "vertical fixedSize text wraps and takes its full height",
      tree: frame(fixedSize(text(4), horizontal: false), width: 100, height: 30),
      expect: [at("frame", 100, 85, 100, 30), at("fixedsize", 105, 80, 90, 40), at("text", 105, 80, 90, 40)]),
  ]

  // MARK: aspectRatio

  static let aspectCases: [Case] = [
    // A resizable 200 × 100 image, scaledToFit in a 100 × 100 frame (at (100, 50)): the ratio is the
    // ideal 200 × 100; scales 100 / 200 = 0.5 and 100 / 100 = 1; fit takes 0.5 → 100 × 50, centred in
    // the frame at y 50 + 25 = 75.
    Case(
      "scaledToFit in a square frame", tree: frame(aspect(resizable(200, 100), nil, .fit), width: 100, height: 100),
      expect: [at("frame", 100, 50, 100, 100), at("aspect", 100, 75, 100, 50), at("image", 100, 75, 100, 50)]),
    // scaledToFill: scale max(0.5, 1) = 1 → 200 × 100, overflowing the frame centred at x 100 - 50 = 50.
    Case(
      "scaledToFill in a square frame", tree: frame(aspect(resizable(200, 100), nil, .fill), width: 100, height: 100),
      expect: [at("frame", 100, 50, 100, 100), at("aspect", 50, 50, 200, 100), at("image", 50, 50, 200, 100)]),
    // aspectRatio only changes the proposal: a non-resizable image stays 200 × 100 though proposed
    // 100 × 50, and the modifier reports the child's size.
    Case(
      "aspectRatio on a non-resizable image", tree: frame(aspect(image(200, 100), nil, .fit), width: 100, height: 100),
      expect: [at("frame", 100, 50, 100, 100), at("aspect", 50, 50, 200, 100), at("image", 50, 50, 200, 100)]),
    // Ratio 16/9, fit, proposed 300 × 200: scales 300 / (16/9) = 168.75 and 200; fit 168.75 →
    // 300 × 168.75, root y (200 - 168.75) / 2 = 15.625.
    Case(
      "aspectRatio 16:9 fit", tree: aspect(color(), 16.0 / 9, .fit),
      expect: [at("aspect", 0, 15.625, 300, 168.75), at("color", 0, 15.625, 300, 168.75)]),
    // Fill takes the scale 200 → (3200/9 ≈ 355.6) × 200, root x (300 - 3200/9) / 2 = -250/9.
    Case(
      "aspectRatio 16:9 fill", tree: aspect(color(), 16.0 / 9, .fill),
      expect: [at("aspect", -250.0 / 9, 0, 3200.0 / 9, 200), at("color", -250.0 / 9, 0, 3200.0 / 9, 200)]),
    // fixedSize(horizontal) proposes (nil, 200): the nil axis scales by ∞, so fit uses the height's
    // scale 200 → 400 × 200 for the ratio 2. Root x (300 - 400) / 2 = -50.
    Case(
      "aspectRatio fit with a nil width", tree: fixedSize(aspect(color(), 2, .fit), vertical: false),
      expect: [at("fixedsize", -50, 0, 400, 200), at("aspect", -50, 0, 400, 200), at("color", -50, 0, 400, 200)]),
  ]

  // MARK: The root

  static let rootCases: [Case] = [
    // A 101 × 51 root is centred: ((300 - 101) / 2, (200 - 51) / 2) = (99.5, 74.5).
    Case("a small root is centred", tree: image(101, 51), expect: [at("image", 99.5, 74.5, 101, 51)]),
    // A canvas standing for the safe area of a 390 × 844 screen (top inset 47): the root is proposed
    // 390 × 763 and centred in it: (20 + (390 - 100) / 2, 47 + (763 - 50) / 2) = (165, 403.5).
    Case(
      "a small root is centred in an offset canvas", canvas: PointRect(x: 20, y: 47, width: 390, height: 763),
      tree: image(100, 50), expect: [at("image", 165, 403.5, 100, 50)]),
    // The same canvas at x 0: the images first (offered 755 / 2, then 715: take 40 and 30), the spacer
    // gets 763 - 70 = 693. Stack 200 wide: x (390 - 200) / 2 = 95; y from 47: 47, 87, 87 + 693 = 780.
    Case(
      "vstack with a spacer in an offset canvas", canvas: PointRect(x: 0, y: 47, width: 390, height: 763),
      tree: vstack([image(100, 40), vspacer(), image(200, 30)]),
      expect: [
        at("vstack", 95, 47, 200, 763), at("image", 145, 47, 100, 40), at("spacer", 195, 87, 0, 693),
        at("image", 95, 780, 200, 30),
      ]),
    // Padding 16 around a colour in the same canvas: the colour is (390 - 32) × (763 - 32) at (16, 63).
    Case(
      "padded colour in an offset canvas", canvas: PointRect(x: 0, y: 47, width: 390, height: 763),
      tree: padding(color()), expect: [at("padding", 0, 47, 390, 763), at("color", 16, 63, 358, 731)]),
  ]

  // MARK: Pixel snapping

  static let snapCases: [Case] = [
    // Three colours in 100 pt, spacing 0, at scale 2: edges 0, 33.33, 66.67, 100 → in pixels 0, 66.67,
    // 133.33, 200 → nearest 0, 67, 133, 200 → points 0, 33.5, 66.5, 100.
    Case(
      "three equal children at scale 2", canvas: PointRect(x: 0, y: 0, width: 100, height: 50), pixelScale: 2,
      tree: hstack([color(), color(), color()], spacing: 0),
      expect: [
        at("hstack", 0, 0, 100, 50), at("color", 0, 0, 33.5, 50), at("color", 33.5, 0, 33, 50),
        at("color", 66.5, 0, 33.5, 50),
      ]),
    // Four colours in 50 pt at scale 3: edges 0, 12.5, 25, 37.5, 50 → pixels 0, 37.5, 75, 112.5, 150;
    // halves round up → 0, 38, 75, 113, 150 → widths 38, 37, 38, 37 pixels.
    Case(
      "four equal children at scale 3, halves up", canvas: PointRect(x: 0, y: 0, width: 50, height: 10),
      pixelScale: 3, tree: hstack([color(), color(), color(), color()], spacing: 0),
      expect: [
        at("hstack", 0, 0, 50, 10), at("color", 0, 0, 38.0 / 3, 10), at("color", 38.0 / 3, 0, 37.0 / 3, 10),
        at("color", 25, 0, 38.0 / 3, 10), at("color", 113.0 / 3, 0, 37.0 / 3, 10),
      ]),
    // Seven colours in 100 pt at scale 3: edges 100k / 7 → pixels 300k / 7 = 0, 42.86, 85.71, 128.57,
    // 171.43, 214.29, 257.14, 300 → 0, 43, 86, 129, 171, 214, 257, 300 (the fourth is 42 pixels).
    Case(
      "seven equal children at scale 3", canvas: PointRect(x: 0, y: 0, width: 100, height: 10), pixelScale: 3,
      tree: hstack([color(), color(), color(), color(), color(), color(), color()], spacing: 0),
      expect: [
        at("hstack", 0, 0, 100, 10), at("color", 0, 0, 43.0 / 3, 10), at("color", 43.0 / 3, 0, 43.0 / 3, 10),
        at("color", 86.0 / 3, 0, 43.0 / 3, 10), at("color", 43, 0, 14, 10), at("color", 57, 0, 43.0 / 3, 10),
        at("color", 214.0 / 3, 0, 43.0 / 3, 10), at("color", 257.0 / 3, 0, 43.0 / 3, 10),
      ]),
    // A 10 × 10 image centred in 11 × 11 at scale 3: origin 0.5 → 1.5 pixels, half up → 2 → 2/3 pt;
    // max edge 10.5 → 31.5 → 32 → 32/3; the size stays 10.
    Case(
      "a half-pixel origin rounds up at scale 3", canvas: PointRect(x: 0, y: 0, width: 11, height: 11),
      pixelScale: 3, tree: image(10, 10), expect: [at("image", 2.0 / 3, 2.0 / 3, 10, 10)]),
    // Snapping is in absolute coordinates: the padding's origin 0.25 → 0.5 pixels → 1 → 0.5 pt; the
    // image's absolute origin 0.25 + 0.25 = 0.5 → 1 pixel → 0.5 pt (snapping its offset from the parent,
    // 0.25 → 0.5, and adding the snapped parent would give 1.0). Max edges 10.5 → 21 pixels → 10.5.
    Case(
      "snapping is absolute, not relative to the parent", canvas: PointRect(x: 0.25, y: 0, width: 10.25, height: 10),
      pixelScale: 2, tree: padding(image(10, 10), EdgeInsets(leading: 0.25)),
      expect: [at("padding", 0.5, 0, 10, 10), at("image", 0.5, 0, 10, 10)]),
  ]

  // MARK: What a view reports passes through modifiers (issue 36)

  // Each case is SwiftUI's rule as OpenSwiftUI writes it (files under
  // Sources/OpenSwiftUICore/), worked out by hand; A and B are colours.
  static let passThroughCases: [Case] = [
    // Spacing (Layout/Geometry/Spacing.swift; _FrameLayout.spacing, Layout/Modifier/FrameLayout.swift):
    // a frame around a spacer keeps the spacer's 0 above and below, so A→S and S→B are 0. The
    // frames are not flexible (10, 20, 10): offered 100/3, 45 and 70 in stack order, they take
    // 10 + 20 + 10 = 40; root y (100 − 40) / 2 = 30. The spacer is 0 wide, centred on the
    // stack's guide 50.
    Case(
      "a frame around a spacer passes its spacing on: 40 tall, not 56",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 100),
      tree: vstack([
        frame(color(), width: nil, height: 10), frame(vspacer(), width: nil, height: 20),
        frame(color(), width: nil, height: 10),
      ]),
      expect: [
        at("vstack", 0, 30, 100, 40), at("frame", 0, 30, 100, 10), at("color", 0, 30, 100, 10),
        at("frame", 50, 40, 0, 20), at("spacer", 50, 40, 0, 20), at("frame", 0, 60, 100, 10),
        at("color", 0, 60, 100, 10),
      ]),
    // _FixedSizeLayout.layoutPriority (Layout/FixedSizeLayout.swift) passes the spacer's −∞ on,
    // UnaryLayout.spacing (Layout/LayoutView.swift) its 0: the gap is 0. The rectangle's group
    // first: 200 less the spacer's minimum (fixedSize offers nil: 8) = 192. The spacer gets
    // the 8 back: it is 0 × 8 at y 0, the rectangle 100 × 192 at y 8.
    Case(
      "fixedSize passes a spacer's spacing and priority on: the rectangle starts at 8, not 16",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 200),
      tree: vstack([fixedSize(vspacer()), color()]),
      expect: [
        at("vstack", 0, 0, 100, 200), at("fixedsize", 50, 0, 0, 8), at("spacer", 50, 0, 0, 8),
        at("color", 0, 8, 100, 192),
      ]),
    // An empty stack (StackLayout.spacing: .zero; ViewLayoutEngine.layoutPriority −∞,
    // Layout/Layout.swift) is 0 × 0 and 0 from its neighbours: A and B share 100, 50 each.
    Case(
      "an empty stack puts 0 between its neighbours, not 16",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 100),
      tree: vstack([color(), hstack([]), color()]),
      expect: [
        at("vstack", 0, 0, 100, 100), at("color", 0, 0, 100, 50), at("hstack", 50, 50, 0, 0),
        at("color", 0, 50, 100, 50),
      ]),
    // Priority (UnaryLayout.layoutPriority is 0, Layout/LayoutView.swift): padding hides the 1,
    // so both are 0. Red is 0 … ∞, blue 50 … ∞ (its frame offers 50 under 0); both infinitely
    // flexible, the larger minimum first (_LayoutTraits.FlexibilityEstimate,
    // Layout/Geometry/LayoutTraits.swift): blue is offered 200 / 2 = 100, red the 100 left.
    Case(
      "padding reports priority 0: red is 100 wide, not 150",
      canvas: PointRect(x: 0, y: 0, width: 200, height: 100),
      tree: hstack(
        [padding(priority(color(), 1), EdgeInsets()), flex(color(), FlexFrameLayout(minWidth: 50))], spacing: 0),
      expect: [
        at("hstack", 0, 0, 200, 100), at("padding", 0, 0, 100, 100), at("priority", 0, 0, 100, 100),
        at("color", 0, 0, 100, 100), at("flexframe", 100, 0, 100, 100), at("color", 100, 0, 100, 100),
      ]),
    // The overlay's layout is its primary's (OverlayModifier.swift): priority −∞ and spacing 0
    // pass on. A and B first, 100 less the spacer's 8 = 92: 46 each; the spacer gets 8. The
    // overlay's colour is offered the spacer's 0 × 8.
    Case(
      "an overlay passes a spacer's priority and spacing on: it gets only its minimum",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 100),
      tree: vstack([color(), overlay(vspacer(), color()), color()]),
      expect: [
        at("vstack", 0, 0, 100, 100), at("color", 0, 0, 100, 46), at("overlay", 50, 46, 0, 8),
        at("spacer", 50, 46, 0, 8), at("color", 50, 46, 0, 8), at("color", 0, 54, 100, 46),
      ]),
    // A stack of one child is that child (HVStack's isIdentityUnaryLayout,
    // Layout/Stack/HVStack.swift; Layout/LayoutView.swift makeStaticView): the inner VStack is a
    // spacer to the outer one. Same frames as the overlay above.
    Case(
      "a stack of one child is that child: a VStack of a spacer is a spacer",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 100),
      tree: vstack([color(), vstack([vspacer()]), color()]),
      expect: [
        at("vstack", 0, 0, 100, 100), at("color", 0, 0, 100, 46), at("vstack", 50, 46, 0, 8),
        at("spacer", 50, 46, 0, 8), at("color", 0, 54, 100, 46),
      ]),
    // Padding ends the pass-through on the edges it pads (_PaddingLayout.spacing,
    // Layout/Modifier/PaddingLayout.swift): above it, the leaf default 8; below, the spacer's
    // 0. Its priority is 0. 100 − 8 = 92 shared by three infinitely flexible children: the
    // padded spacer has the largest minimum (8 + 5 = 13), so it goes first: 92 / 3; then A and
    // B 92 / 3 each. A 0 … 92/3, the padding from 92/3 + 8 = 116/3, its spacer 5 lower, B from
    // 116/3 + 92/3 = 208/3.
    Case(
      "padding on the top edge ends a spacer's 0 there",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 100),
      tree: vstack([color(), padding(vspacer(), EdgeInsets(top: 5)), color()]),
      expect: [
        at("vstack", 0, 0, 100, 100), at("color", 0, 0, 100, 92.0 / 3), at("padding", 50, 116.0 / 3, 0, 92.0 / 3),
        at("spacer", 50, 131.0 / 3, 0, 77.0 / 3), at("color", 0, 208.0 / 3, 100, 92.0 / 3),
      ]),
    // ZStack (Layout/Stack/ZStack.swift placeSubviews) aligns its children on the largest guide
    // of its top-priority children as sized in its bounds. Sized under 100 × 50, the 2:1 fill is
    // 100 × 50 and the other 10 × 80: the stack is 100 × 80, root y (50 − 80) / 2 = −15. Placed
    // in 100 × 80, the fill is 160 × 80: guides x max(80, 5) = 80, y 40: the fill at x 0 (not
    // −30, centred in the bounds), the other at 80 − 5 = 75.
    Case(
      "a ZStack aligns its children by their guides",
      canvas: PointRect(x: 0, y: 0, width: 100, height: 50),
      tree: zstack([aspect(color(), 2, .fill), frame(color(), width: 10, height: 80)]),
      expect: [
        at("zstack", 0, -15, 100, 80), at("aspect", 0, -15, 160, 80), at("color", 0, -15, 160, 80),
        at("frame", 75, -15, 10, 80), at("color", 75, -15, 10, 80),
      ]),
    // A stack aligns its children across by their guides too, from its leading edge
    // (StackLayout.placeChildren1 and commitPlacements, Layout/Stack/StackLayout.swift). Under
    // fixedSize a frame of ideal width 47 is 47 wide, so the column is 47 × (17 + 3 + 28) at
    // ((300 − 47) / 2, (200 − 48) / 2) = (126.5, 76). Placed, the column offers its width, 47,
    // and the frame (no bounds on that axis) takes its child's 4: the guide is max(2, 3) = 3,
    // so the 4-wide view is at 126.5 + 3 − 2 = 127.5 (centred in the 47 it would be at 148).
    Case(
      "a stack aligns its children by their guides as they are placed",
      tree: fixedSize(
        vstack(
          [
            flex(frame(color(), width: 4, height: 17), FlexFrameLayout(idealWidth: 47)),
            frame(color(), width: 6, height: 28),
          ], spacing: 3)),
      expect: [
        at("fixedsize", 126.5, 76, 47, 48), at("vstack", 126.5, 76, 47, 48), at("flexframe", 127.5, 76, 4, 17),
        at("frame", 127.5, 76, 4, 17), at("color", 127.5, 76, 4, 17), at("frame", 126.5, 96, 6, 28),
        at("color", 126.5, 96, 6, 28),
      ]),
    // An HStack of one spacer is that spacer (isIdentityUnaryLayout); fixedSize offers nil × nil,
    // aspectRatio passes a wholly nil proposal on (Layout/AspectRatioLayout.swift), and the
    // horizontal spacer is 8 × 0: every frame 8 × 0 at ((300 − 8) / 2, 100), finite (the stack
    // of old, not transparent, placed it at infinity).
    Case(
      "a fixed-size HStack of a spacer with an aspect ratio is 8 × 0",
      tree: fixedSize(hstack([aspect(hspacer(), nil, .fit)])),
      expect: [
        at("fixedsize", 146, 100, 8, 0), at("hstack", 146, 100, 8, 0), at("aspect", 146, 100, 8, 0),
        at("spacer", 146, 100, 8, 0),
      ]),
  ]

  // MARK: Tests

  @Test("every view's frame is the one worked out by hand", arguments: LayoutRuleTests.cases.map(\.name))
  func frames(name: String) throws {
    let item = try #require(Self.cases.first { $0.name == name })
    let views = item.tree.layout(in: item.canvas, pixelScale: item.pixelScale)
    try #require(views.count == item.expect.count, "\(name): \(views.count) views, expected \(item.expect.count)")
    let tolerance = item.pixelScale == nil ? 1e-6 : 1e-9
    for (index, (view, want)) in zip(views, item.expect).enumerated() {
      #expect(view.kind == want.kind, "\(name) view \(index): kind \(view.kind), expected \(want.kind)")
      #expect(
        nearlyEqual(view.frame, want.frame, tolerance),
        "\(name) view \(index) (\(view.kind)): \(describe(view.frame)), expected \(describe(want.frame))")
      if let scale = item.pixelScale {
        #expect(onPixels(view.frame, scale), "\(name) view \(index) (\(view.kind)) is off the pixel grid")
      }
    }
  }

  @Test("the table is large and its names are unique")
  func table() {
    let names = Self.cases.map(\.name)
    #expect(names.count >= 45)
    #expect(Set(names).count == names.count)
  }
}
