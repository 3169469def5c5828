import AppleExamples
import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Apple's four layout examples (Examples/AppleExamples), each written twice: in
/// Swift as Apple's documents write it, and as a scene file
/// (`Assets/scenes/layout-NAME.json`). The two must be one scene: the same view
/// trees, laid out to the same frames.
@Suite("Apple's layout examples")
struct AppleExamplesTests {
  static let names = AppleExamples.all.map(\.name)

  /// The example's Swift scene and its file's scene, with the file's images.
  static func both(_ name: String) throws -> (swift: Scene, file: Scene, images: SceneImages) {
    let swift = try #require(AppleExamples.all.first { $0.name == name }).scene
    let file = try SceneFile(path: DemoScenes.path("layout-\(name)"))
    return (swift, file.scene, try file.loadImages())
  }

  /// The scene itself, or each of its states as a scene, by name.
  static func parts(_ scene: Scene) throws -> [(name: String, scene: Scene)] {
    scene.states.isEmpty ? [("", scene)] : try scene.states.map { ($0.name, try scene.state($0.name)) }
  }

  @Test("the Swift example and its scene file are the same scene, view tree for view tree", arguments: names)
  func sameTree(name: String) throws {
    let (swift, file, _) = try Self.both(name)
    #expect(swift.size == file.size && swift.scale == file.scale && swift.background == file.background)
    #expect(swift.safeAreaInsets == file.safeAreaInsets && swift.layers == file.layers)
    #expect(swift.states.map(\.name) == file.states.map(\.name))
    for (a, b) in zip(try Self.parts(swift), try Self.parts(file)) {
      #expect(a.scene.body != nil)
      #expect(a.scene.body == b.scene.body, "\(name) \(a.name): the trees differ")
    }
    #expect(swift == file)
  }

  @Test("the Swift example and its scene file lay out to identical frames", arguments: names)
  func sameFrames(name: String) throws {
    let (swift, file, images) = try Self.both(name)
    for (a, b) in zip(try Self.parts(swift), try Self.parts(file)) {
      let views = try a.scene.resolvedViews(images: images)
      #expect(views.count > 3)
      #expect(views == (try b.scene.resolvedViews(images: images)), "\(name) \(a.name)")
      #expect(try a.scene.laidOut(images: images).layers == (try b.scene.laidOut(images: images).layers))
    }
  }

  /// The frame of the view at `path` (its outermost node there), in points.
  static func frame(_ path: String, in scene: Scene, images: SceneImages) throws -> PointRect {
    try #require(try scene.resolvedViews(images: images).first { $0.path == path }).frame
  }

  @Test("the sign-in view: the gradient reaches past the safe area, the stack is centred in it")
  func signIn() throws {
    let (_, scene, images) = try Self.both("signin")
    // 390 × 844 with 47 points on top and 34 below: the safe area is 763 tall at y = 47.
    #expect(try Self.frame("body", in: scene, images: images) == PointRect(x: 0, y: 47, width: 390, height: 763))
    #expect(
      try Self.frame("body.children[0]", in: scene, images: images) == PointRect(x: 0, y: 0, width: 390, height: 844))
    // The padded row is the full width, its HStack 16 points in on each side; the
    // title sits 8 points (the default spacing) above it; the stack is centred.
    let title = try Self.frame("body.children[1].children[0]", in: scene, images: images)
    let padded = try Self.frame("body.children[1].children[1].modifiers[0]", in: scene, images: images)
    let row = try Self.frame("body.children[1].children[1]", in: scene, images: images)
    #expect(padded.x == 0 && padded.width == 390 && row.x == 16 && row.width == 358)
    #expect(row.y == padded.y + 16 && row.maxY == padded.maxY - 16 && padded.y == title.maxY + 8)
    #expect(abs(title.midX - 195) <= 0.5 && abs((title.y + padded.maxY) / 2 - (47 + 763 / 2)) <= 0.5)
    // The field takes what the button leaves, 8 points from it.
    let field = try Self.frame("body.children[1].children[1].children[0]", in: scene, images: images)
    let button = try Self.frame("body.children[1].children[1].children[1]", in: scene, images: images)
    #expect(field.x == 16 && button.maxX == 374 && button.x - field.maxX == 8)
  }

  @Test("the badges overlay: the badge view sits 16 points in from the bottom-trailing corner")
  func badgesOverlay() throws {
    let (_, scene, images) = try Self.both("badges")
    let padded = try Self.frame("body.children[1].children[1].children[1].modifiers[0]", in: scene, images: images)
    let container = try Self.frame("body.children[1].children[1].children[1]", in: scene, images: images)
    // The container is 74 wide (the column's frame) and as tall as the toggle
    // button: its label's 32 points plus the glass style's 7 above and below.
    #expect(container == PointRect(x: 600 - 16 - 74, y: 400 - 16 - 46, width: 74, height: 46))
    #expect(padded == PointRect(x: 600 - 106, y: 400 - 78, width: 106, height: 78))
  }

  @Test("the badge column: badges 14 points apart, 20 above the toggle button, centred in a frame 74 wide")
  func badgeColumn() throws {
    let (_, scene, images) = try Self.both("badge-column")
    let expanded = try scene.state("expanded")
    let badges = try (0..<3).map {
      try Self.frame("body.children[0].children[0].children[\($0)].modifiers[5]", in: expanded, images: images)
    }
    let button = try Self.frame("body.children[0].children[1]", in: expanded, images: images)
    // Each badge is its 52-point frame plus 12 points of padding: 76 square.
    #expect(badges.allSatisfy { $0.width == 76 && $0.height == 76 && $0.x == 62 })
    #expect(badges[1].y - badges[0].maxY == 14 && badges[2].y - badges[1].maxY == 14)
    #expect(button.y - badges[2].maxY == 20 && button.width == 52 && button.height == 46 && button.x == 74)
    // The column (3 × 76 + 2 × 14 + 20 + 46 = 322) is centred in 440.
    #expect(badges[0].y == 59 && button.maxY == 381)
    let collapsed = try scene.state("collapsed")
    #expect(
      try Self.frame("body.children[0].children[0]", in: collapsed, images: images)
        == PointRect(x: 74, y: 197, width: 52, height: 46))
  }

  @Test("the custom views: the eraser's glass is drawn 40 points left of its place, touching the pencil's")
  func customViews() throws {
    let (_, scene, images) = try Self.both("custom-views")
    let laid = try scene.laidOut(images: images)
    guard case .container(let container)? = laid.layers.first else {
      Issue.record("no container: \(laid.layers)")
      return
    }
    #expect(container.spacing == 40)
    #expect(
      container.glass.map(\.frame) == [
        PointRect(x: 140, y: 80, width: 80, height: 80), PointRect(x: 220, y: 80, width: 80, height: 80),
      ])
    #expect(container.glass.allSatisfy { $0.content?.text?.font.size == 36 && $0.shape == .capsule })
  }

  @Test("the badge column animates between its states: badges come and go by their ids, the toggle moves")
  func badgeColumnTransition() throws {
    let (swift, scene, images) = try Self.both("badge-column")
    #expect(
      scene.transition == SceneTransition(from: "collapsed", to: "expanded") && swift.transition == scene.transition)
    let laid = try scene.laidOut(images: images)
    try laid.checkTransition(try #require(laid.transition))
    func glass(_ frame: Scene) -> [String: PointRect] {
      guard case .container(let container)? = frame.layers.first else { return [:] }
      return Dictionary(container.glass.map { ($0.effectID ?? "", $0.frame) }, uniquingKeysWith: { a, _ in a })
    }
    // Each badge's symbol rides on its glass, its hexagon on a companion of the
    // same frame and id (#1): the expanded state is the toggle's glass and two per badge.
    let end = try laid.frame(at: 10)
    let expanded = glass(end)
    #expect(end.layers.count == 1 && expanded.count == 7)
    for id in ["saharaDesert", "mountFuji", "southShetlandIslands"] {
      #expect(expanded["ns.\(id)"] != nil && expanded["ns.\(id)"] == expanded["ns.\(id)#1"])
    }
    // The toggle goes from under the column's middle (collapsed) to its foot.
    let from = PointRect(x: 74, y: 197, width: 52, height: 46)
    let to = PointRect(x: 74, y: 335, width: 52, height: 46)
    let start = glass(try laid.frame(at: 0))
    #expect(start["ns.togglebutton"] == from && start.count == 1 && expanded["ns.togglebutton"] == to)
    let moment = glass(try laid.frame(at: 0.1))
    let middle = try #require(moment["ns.togglebutton"])
    #expect(middle.y > from.y && middle.y < to.y && moment.count == 7)
  }

  @Test("the expanded badge column renders as its golden on the CPU, exactly")
  func expandedGoldenCPU() throws { try Self.checkExpanded(on: .cpu) }

  @Test(
    "the expanded badge column renders within the parity bar of its golden on the GPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func expandedGoldenGPU() throws { try Self.checkExpanded(on: .gpu) }

  /// The expanded state at scale 1, against `scene-layout-badge-column-expanded`
  /// (the scene goldens hold each demo scene's first state).
  static func checkExpanded(on backend: TestBackend) throws {
    let (scene, images) = try DemoScenes.load("layout-badge-column")
    let output = try backend.render(try scene.state("expanded"), images: images)
    try backend.checkGolden(
      output, "scene-layout-badge-column-expanded", bar: SceneRenderingTests.bar, filter: "AppleExamplesTests")
  }

  @Test("validate checks a view-tree scene's states and says it has a view tree")
  func validateSaysViewTree() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let result = try runCLI(["validate", root.appendingPathComponent("Assets/scenes/layout-badge-column.json").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("0 layers and a view tree, ") && result.stdout.contains("2 states checked"))
  }
}

/// Found while drawing docs/layout.md's pictures: Apple's `layoutPriority(_:)`
/// documentation writes `.layoutPriority(1).border(Color.gray)` and the priority
/// holds; an overlay or a background after it once hid it. They pass it on, as
/// SwiftUI's do (the modified view's layout is its primary's, OpenSwiftUI's
/// `OverlayModifier.swift`); `padding` and `frame` do not: a `UnaryLayout`
/// reports priority 0 (`Layout/LayoutView.swift`).
@Suite("Layout priority through the modifiers after it")
struct LayoutPriorityThroughModifiersTests {
  /// The width of the first child of `HStack(spacing: 0) { a; Color.green.frame(minWidth: 50) }` offered 300.
  static func firstWidth(_ a: some View) throws -> Double {
    let scene = Scene(width: 300, height: 40, scale: 1) {
      HStack(spacing: 0) {
        a
        Color.green.frame(minWidth: 50)
      }
    }
    let views = try scene.resolvedViews(images: SceneImages([:]))
    return try #require(views.first { $0.depth == 1 }).frame.width
  }

  @Test("a priority written last is offered the row less the other's minimum")
  func outermost() throws {
    // Priority 1 first: offered 300 − 50 = 250, its maximum.
    #expect(try Self.firstWidth(Color.red.frame(minWidth: 50, maxWidth: 250).layoutPriority(1)) == 250)
    // Without: the less flexible red is offered half, 150.
    #expect(try Self.firstWidth(Color.red.frame(minWidth: 50, maxWidth: 250)) == 150)
  }

  @Test("a priority with a background after it is still the view's priority; padding after it hides it")
  func throughBackground() throws {
    let width = try Self.firstWidth(
      Color.red.frame(minWidth: 50, maxWidth: 250).layoutPriority(1).background(Color.blue))
    #expect(width == 250)
    // Not through padding: both priorities are 0 there, and the less flexible red
    // (50 … 250 against 50 … ∞) is offered half, 150. The outermost priority wins.
    #expect(try Self.firstWidth(Color.red.frame(minWidth: 50, maxWidth: 250).layoutPriority(1).padding(0)) == 150)
    #expect(
      try Self.firstWidth(Color.red.frame(minWidth: 50, maxWidth: 250).layoutPriority(1).layoutPriority(0)) == 150)
  }
}
