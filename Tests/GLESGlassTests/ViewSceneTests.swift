import Foundation
import Testing

@testable import GLESGlass

/// A view of Apple's Landmarks sample, as it reads there (its model replaced by a string).
struct BadgeLabel: View {
  var badge: String
  var body: some View {
    Image(systemName: badge)
      .font(.system(size: 24))
      .frame(width: 56, height: 56)
      .glassEffect(.regular, in: .rect(cornerRadius: 12))
  }
}

/// A modifier as the Landmarks sample writes one.
struct ShowsBadgesViewModifier: ViewModifier {
  func body(content: Content) -> some View {
    ZStack {
      content
      HStack {
        Spacer()
        VStack {
          Spacer()
          BadgeLabel(badge: "star.fill").padding()
        }
      }
    }
  }
}

extension View {
  func showsBadges() -> some View { modifier(ShowsBadgesViewModifier()) }
}

@Suite("Views: scenes that lay themselves out")
struct ViewSceneTests {
  /// The layers a scene's view tree lowers to.
  func layers(_ scene: Scene, images: [String: RGBAImage] = [:]) throws -> [Layer] {
    try scene.laidOut(images: SceneImages(images)).layers
  }

  func frames(_ layers: [Layer]) -> [PointRect] {
    layers.compactMap { layer -> PointRect? in
      switch layer {
      case .shape(let s): s.frame
      case .glass(let g): g.frame
      case .material(let m): m.frame
      case .image(let i): i.frame
      case .text(let t): t.frame
      case .container: nil
      }
    }
  }

  @Test("a VStack of two colours is centred and its children placed as worked out by hand")
  func vstackOfColours() throws {
    let scene = Scene(width: 200, height: 100, scale: 1) {
      VStack(spacing: 10) {
        Color.red.frame(width: 50, height: 20)
        Color.blue.frame(width: 80, height: 30)
      }
    }
    #expect(scene.layers.isEmpty && scene.body != nil)
    // The stack is 80 × 60 (20 + 10 + 30), centred in 200 × 100: at (60, 20).
    #expect(
      frames(try layers(scene)) == [
        PointRect(x: 75, y: 20, width: 50, height: 20), PointRect(x: 60, y: 50, width: 80, height: 30),
      ])
    let image = try TestBackend.cpu.render(scene)
    #expect(image.rgba8(75, 20) == SIMD4(255, 56, 60, 255) && image.rgba8(74, 20) == SIMD4(255, 255, 255, 255))
    #expect(image.rgba8(60, 79) == SIMD4(0, 136, 255, 255) && image.rgba8(60, 80) == SIMD4(255, 255, 255, 255))
  }

  @Test("padding then background differs from background then padding")
  func modifierOrder() throws {
    let padded = Scene(width: 100, height: 100, scale: 1) {
      Color.clear.frame(width: 20, height: 10).padding(5).background(Color.green)
    }
    let inner = Scene(width: 100, height: 100, scale: 1) {
      Color.clear.frame(width: 20, height: 10).background(Color.green).padding(5)
    }
    // 30 × 20 centred at (35, 40); the content 20 × 10 at (40, 45).
    #expect(frames(try layers(padded)) == [PointRect(x: 35, y: 40, width: 30, height: 20)])
    #expect(frames(try layers(inner)) == [PointRect(x: 40, y: 45, width: 20, height: 10)])
  }

  @Test("edges snap to device pixels, halves up; neighbours still touch")
  func snapping() throws {
    // Three colours share 100 pt at 3x: 33.333… each; edges at 0, 33.333, 66.667, 100.
    let scene = Scene(width: 100, height: 10, scale: 3) {
      HStack(spacing: 0) {
        Color.red
        Color.green
        Color.blue
      }
    }
    let f = frames(try layers(scene))
    #expect(f.count == 3)
    #expect(f[0].x == 0 && abs(f[0].maxX - 100.0 / 3) < 1e-9 && abs(f[1].x - f[0].maxX) < 1e-12)
    #expect(abs(f[1].maxX - 200.0 / 3) < 1e-9 && abs(f[2].x - f[1].maxX) < 1e-12 && f[2].maxX == 100)
    // At 2x, 33.333 pt is pixel 66.67: snapped to 67 / 2 = 33.5.
    var two = scene
    two.scale = 2
    let g = frames(try layers(two))
    #expect(g[0].maxX == 33.5 && g[1].x == 33.5 && g[1].maxX == 66.5 && g[2].x == 66.5)
  }

  @Test("a safe area insets the layout; ignoresSafeArea reaches past it where the view touches it")
  func safeArea() throws {
    // The safe area is 100 × 100 at y = 20: the red square is centred in it, at y = 20 + 45.
    let insets = EdgeInsets(top: 20, leading: 0, bottom: 10, trailing: 0)
    let scene = Scene(width: 100, height: 130, scale: 1, safeAreaInsets: insets) {
      ZStack {
        Color.blue.ignoresSafeArea()
        Color.red.frame(width: 10, height: 10)
      }
    }
    #expect(
      frames(try layers(scene)) == [
        PointRect(x: 0, y: 0, width: 100, height: 130), PointRect(x: 45, y: 65, width: 10, height: 10),
      ])
    let kept = Scene(width: 100, height: 130, scale: 1, safeAreaInsets: insets) { Color.blue }
    #expect(frames(try layers(kept)) == [PointRect(x: 0, y: 20, width: 100, height: 100)])
  }

  @Test("Landmarks' BadgeLabel and ShowsBadgesViewModifier compile as written and put the badge bottom-trailing")
  func landmarksBadge() throws {
    let scene = Scene(width: 300, height: 200, scale: 1) {
      Color.gray.showsBadges()
    }
    let l = try layers(scene)
    // The grey fills the canvas; the badge is 56 × 56 inside 16 pt of padding at the bottom-trailing corner.
    guard l.count == 2, case .glass(let glass) = l[1] else {
      Issue.record("unexpected layers \(l)")
      return
    }
    #expect(frames([l[0]]) == [PointRect(x: 0, y: 0, width: 300, height: 200)])
    #expect(glass.frame == PointRect(x: 300 - 16 - 56, y: 200 - 16 - 56, width: 56, height: 56))
    #expect(glass.shape == .roundedRect(cornerRadius: 12, style: .circular))
    // The icon rides on its glass, in the font the environment gave it.
    #expect(glass.content?.text?.systemImage == "star.fill" && glass.content?.text?.font.size == 24)
  }

  @Test("a glass button is its label plus the style's padding, the title on the glass")
  func glassButton() throws {
    let scene = Scene(width: 300, height: 100, scale: 2) {
      Button("Sign In") {}.buttonStyle(.glassProminent)
    }
    let l = try layers(scene)
    guard l.count == 1, case .glass(let glass) = l[0], let title = glass.content?.text else {
      Issue.record("unexpected layers \(l)")
      return
    }
    let size = try title.size()
    #expect(abs(glass.frame.width - (size.width + 28)) <= 0.5 && abs(glass.frame.height - (size.height + 14)) <= 0.5)
    #expect(title.foregroundStyle == .color(.white) && glass.glass.tint == ButtonStyle.accentColor)
    #expect(glass.glass.isInteractive)
  }

  @Test("text wraps at the width it is offered and the layer is drawn at the measured size")
  func textWraps() throws {
    let words = "The quick brown fox jumps over the lazy dog"
    let scene = Scene(width: 400, height: 300, scale: 2) {
      Text(words).frame(width: 120)
    }
    let l = try layers(scene)
    guard l.count == 1, case .text(let text) = l[0] else {
      Issue.record("unexpected layers \(l)")
      return
    }
    let wrapped = try TextContent(words).size(maxWidth: 120)
    let oneLine = try TextContent(words).size()
    #expect(wrapped.height > oneLine.height && text.frame.width == wrapped.width)
    #expect(text.frame.height == wrapped.height && text.frame.width <= 120)
  }

  @Test("a state's view tree is its own: if isExpanded adds views, and glass pairs by glassEffectID")
  func statesAreTrees() throws {
    let scene = Scene(width: 200, height: 300, scale: 1, states: ["collapsed": false, "expanded": true]) {
      isExpanded in
      GlassEffectContainer(spacing: 20) {
        VStack(spacing: 10) {
          if isExpanded {
            Color.clear.frame(width: 40, height: 40).glassEffect().glassEffectID("badge")
          }
          Color.clear.frame(width: 60, height: 40).glassEffect().glassEffectID("toggle")
        }
      }
    }
    #expect(scene.states.map(\.name) == ["collapsed", "expanded"])
    let laid = try scene.laidOut(images: SceneImages([:]))
    func glass(_ state: String) -> [String: PointRect] {
      guard let s = laid.states.first(where: { $0.name == state }), case .container(let c)? = s.layers.first else {
        return [:]
      }
      return Dictionary(uniqueKeysWithValues: c.glass.map { ($0.effectID ?? "", $0.frame) })
    }
    #expect(glass("collapsed") == ["toggle": PointRect(x: 70, y: 130, width: 60, height: 40)])
    #expect(
      glass("expanded") == [
        "badge": PointRect(x: 80, y: 105, width: 40, height: 40),
        "toggle": PointRect(x: 70, y: 155, width: 60, height: 40),
      ])
    // The transition between the trees renders (the badge grows out of the toggle).
    let middle = try laid.frame(at: 0.1, of: SceneTransition(from: "collapsed", to: "expanded"))
    #expect(!middle.layers.isEmpty)
  }

  @Test("several texts centred on one glass ride on it: the first as its content, the rest on companions with its id")
  func companions() throws {
    func badge(_ id: String) -> some View {
      Image(systemName: "star.fill").foregroundStyle(Color.white).font(.system(size: 20)).frame(width: 40, height: 40)
        .background { Image(systemName: "heart.fill").foregroundStyle(Color.orange).font(.system(size: 36)) }
        .padding(8).glassEffect(.regular, in: .rect(cornerRadius: 12)).glassEffectID(id, in: "ns")
    }
    let scene = Scene(width: 200, height: 300, scale: 1, states: ["collapsed": false, "expanded": true]) {
      isExpanded in
      GlassEffectContainer(spacing: 16) {
        VStack(spacing: 12) {
          if isExpanded { badge("a") }
          Button("Show") {}.buttonStyle(.glass).glassEffectID("toggle", in: "ns")
        }
      }
    }
    let laid = try scene.laidOut(images: SceneImages([:]))
    guard case .container(let c)? = laid.states.last?.layers.first, laid.states.last?.layers.count == 1 else {
      Issue.record("unexpected layers \(laid.states)")
      return
    }
    // The heart (the background, drawn first) is the badge's content; the star rides on a companion.
    #expect(c.glass.map(\.effectID) == ["ns.a", "ns.a#1", "ns.toggle"])
    #expect(c.glass[0].content?.text?.systemImage == "heart.fill" && c.glass[1].glass == .identity)
    #expect(c.glass[1].content?.text?.systemImage == "star.fill" && c.glass[1].frame == c.glass[0].frame)
    // The states differ only in glass that has ids: the transition pairs them.
    try laid.checkTransition(SceneTransition(from: "collapsed", to: "expanded"))
  }

  @Test("validate refuses state trees that do not pair exactly as animate does, and passes those that do")
  func validateAsAnimate() throws {
    func scene(extra: Bool) -> Scene {
      Scene(width: 120, height: 120, scale: 1, states: ["a": false, "b": true]) { isB in
        VStack {
          Color.clear.frame(width: 40, height: 30).glassEffect().glassEffectID("g")
          // A plain view in one state only: its layer has no glass to pair by.
          if isB && extra { Color.red.frame(width: 10, height: 10) }
        }
      }
      .transition(from: "a", to: "b")
    }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s.json").path
    for extra in [true, false] {
      try scene(extra: extra).json.write(toFile: path, atomically: true, encoding: .utf8)
      let validated = try runCLI(["validate", path])
      let animated = try runCLI([
        "animate", path, "-o", folder.appendingPathComponent("f\(extra)").path, "--backend", "cpu",
      ])
      #expect(validated.status == (extra ? 1 : 0) && animated.status == validated.status, "\(validated.stderr)")
      if extra {
        // One line each, the same complaint.
        #expect(validated.stderr.split(separator: "\n").count == 1 && validated.stderr == animated.stderr)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ftrue").path))
      }
    }
  }

  @Test("bad views fail at their path with the fix")
  func badViews() throws {
    func failure(_ content: () -> some View) -> String {
      let scene = Scene(width: 100, height: 100, scale: 1) { content() }
      do {
        _ = try scene.laidOut(images: SceneImages([:]))
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    #expect(failure { VStack(spacing: -4) { Color.red } }.contains("body.spacing"))
    // Contradictory bounds are laid out, as SwiftUI lays them out (ViewMessagesTests).
    #expect(failure { Color.red.frame(minWidth: 50, maxWidth: 20) } == "no error")
    #expect(failure { Color.red.padding(.nan) }.contains("body.modifiers[0].padding"))
    #expect(failure { Image("nope.png") }.contains("was not loaded"))
    var deep = ViewNode(.spacer(minLength: nil))
    for _ in 0..<70 { deep = ViewNode(.vstack(alignment: .center, spacing: nil, [deep])) }
    #expect(failure { AnyView(node: deep) }.contains("deeper than 64"))
  }
}
