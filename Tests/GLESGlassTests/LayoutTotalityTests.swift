import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Layout is total: any tree of finite values, however hostile (negative
/// padding larger than the view, zero and huge frames, offsets to the edge of
/// the format, contradictory flexible frames, negative spacers, overlays of all
/// of these), is laid out, lowered and rendered, or refused with an error at a
/// path; never a trap, a negative size or a frame that is not a number.
@Suite("Layout is total")
struct LayoutTotalityTests {
  /// Makes hostile trees of every view kind and every modifier from one seed.
  struct Maker {
    var random: SplitMix

    mutating func chance(_ p: Double) -> Bool { random.uniform(0, 1) < p }
    mutating func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    /// A length from the hostile set: 0, tiny, ordinary, the format's limit, or
    /// negative ones of the same sizes.
    mutating func length(negative: Bool = true) -> Double {
      let magnitudes = [0, 0.25, 1, 7.5, 20, 44, 300, 4_096, 65_536]
      let m = magnitudes[pick(magnitudes.count)] * (chance(0.3) ? random.uniform(0.5, 1.5) : 1)
      return negative && chance(0.4) ? -m : m
    }
    mutating func optionalLength(negative: Bool = false) -> Double? { chance(0.4) ? nil : length(negative: negative) }
    mutating func alignment() -> Alignment { Array(Alignment.named.values)[pick(9)] }

    mutating func view(depth: Int) -> ViewNode {
      let containers = depth < 3
      var node: ViewNode
      switch pick(containers ? 16 : 10) {
      case 0:
        node = ViewNode(.text(TextContent(["Hi", "A longer line of text", "", "   ", "W"][pick(5)]), explicit: []))
      case 1: node = ViewNode(.text(TextContent("", systemImage: "star.fill"), explicit: []))
      case 2: node = ViewNode(.shape([.rect, .capsule, .circle, .ellipse][pick(4)], style: nil))
      case 3: node = ViewNode(.shape(.roundedRect(cornerRadius: abs(length()), style: .continuous), style: nil))
      case 4: node = ViewNode(.spacer(minLength: chance(0.5) ? nil : length()))
      case 5:
        node = ViewNode(.image(ImageSource(path: "dot.png", scale: [1, 2, 3][pick(3)], isResizable: chance(0.5))))
      case 6: node = ViewNode(.textField(TextFieldContent(placeholder: "Name", text: chance(0.5) ? "" : "Ada")))
      case 7: node = ViewNode(.button(label: ViewNode(.text(TextContent("OK"), explicit: []))))
      case 8:
        let layer = Layer.shape(
          ShapeLayer(
            shape: .rect, frame: PointRect(x: length(), y: length(), width: 10, height: 10), fill: .color(.red)))
        node = ViewNode(.layers([layer]))
      case 9: node = ViewNode(.shape(.rect, style: .fill(.color(.clear))))
      case 10, 11:
        let children = (0..<pick(4)).map { _ in view(depth: depth + 1) }
        let spacing: Double? = chance(0.5) ? nil : abs(length())
        node = ViewNode(
          chance(0.5)
            ? .vstack(alignment: [.leading, .center, .trailing][pick(3)], spacing: spacing, children)
            : .hstack(alignment: [.top, .center, .bottom][pick(3)], spacing: spacing, children))
      case 12: node = ViewNode(.zstack(alignment: alignment(), (0..<pick(4)).map { _ in view(depth: depth + 1) }))
      case 13: node = ViewNode(.group((0..<pick(3)).map { _ in view(depth: depth + 1) }))
      case 14:
        node = ViewNode(
          .glassEffectContainer(spacing: abs(length()), (0..<pick(3)).map { _ in view(depth: depth + 1) }))
      default: node = ViewNode(.button(label: view(depth: depth + 1)))
      }
      for _ in 0..<pick(5) { node.modifiers.append(modifier(depth: depth)) }
      return node
    }

    mutating func modifier(depth: Int) -> ViewModifierNode {
      switch pick(depth < 3 ? 14 : 12) {
      case 0: return .padding(EdgeInsets(all: length()))
      case 1: return .padding(EdgeInsets(top: length(), leading: length(), bottom: length(), trailing: length()))
      case 2: return .frame(width: optionalLength(), height: optionalLength(), alignment: alignment())
      case 3:
        return .flexibleFrame(
          FlexibleFrame(
            minWidth: optionalLength(), idealWidth: optionalLength(),
            maxWidth: chance(0.2) ? .infinity : optionalLength(), minHeight: optionalLength(),
            idealHeight: optionalLength(), maxHeight: chance(0.2) ? .infinity : optionalLength(), alignment: alignment()
          ))
      case 4: return .offset(x: length(), y: length())
      case 5: return .fixedSize(horizontal: chance(0.5), vertical: chance(0.5))
      case 6: return .layoutPriority(length())
      case 7:
        return .aspectRatio(
          chance(0.3) ? nil : [0.001, 0.5, 1, 16 / 9, 1000][pick(5)], contentMode: chance(0.5) ? .fit : .fill)
      case 8: return .ignoresSafeArea(chance(0.5) ? .all : .top)
      case 9: return .glassEffect(.regular, shape: .capsule, optics: GlassOptics.Overrides())
      case 10: return .position(x: length(), y: length(), width: optionalLength(), height: optionalLength())
      case 11: return .font(Font(size: [1, 12, 200][pick(3)]))
      case 12: return .overlay(view(depth: depth + 1), alignment: alignment())
      default: return .background(view(depth: depth + 1), alignment: alignment())
      }
    }
  }

  /// A 3 × 2 pixel image the trees show.
  static let images = SceneImages(["dot.png": RGBAImage(width: 3, height: 2) { _, _ in SIMD4(200, 40, 40, 255) }])

  /// True when a frame is made of numbers and has no negative side.
  static func isSound(_ frame: PointRect) -> Bool {
    [frame.x, frame.y, frame.width, frame.height].allSatisfy(\.isFinite) && frame.width >= 0 && frame.height >= 0
  }

  @Test(
    "hostile random trees of every view and modifier lay out and lower, or fail at a path; every frame is a sound rectangle",
    arguments: [UInt64(1), 2, 3, 4])
  func hostileTrees(seed: UInt64) throws {
    var maker = Maker(random: SplitMix(state: seed))
    var laidOut = 0
    var refused = 0
    for index in 0..<150 {
      var scene = Scene(size: PointSize(width: 320, height: 200), scale: 1 + index % 3)
      scene.safeAreaInsets = EdgeInsets(top: 20, leading: 0, bottom: 10, trailing: 0)
      scene.body = maker.view(depth: 0)
      do {
        let views = try scene.resolvedViews(images: Self.images)
        for view in views { #expect(Self.isSound(view.frame), "seed \(seed) #\(index): \(view.path) \(view.frame)") }
        let laid = try scene.laidOut(images: Self.images)
        for layer in laid.layers {
          guard let frame = ContrastAudit.frame(of: layer) else { continue }
          #expect(Self.isSound(frame), "seed \(seed) #\(index): \(frame)")
        }
        // What validate and render run: the laid-out layers checked and lowered.
        _ = try Renderer.prepare(scene, images: Self.images)
        laidOut += 1
      } catch let error as GlassError {
        // Refused: with a path and a message, not a trap.
        #expect(error.jsonPath?.hasPrefix("body") == true, "seed \(seed) #\(index): \(error)")
        refused += 1
      }
    }
    // Most trees are laid out: the check above is not vacuous.
    #expect(laidOut > 75, "laid out \(laidOut), refused \(refused)")
  }

  @Test("a padding more negative than its view is worth leaves a view of no size, as SwiftUI clamps it")
  func negativePaddingClamps() throws {
    let text = ViewNode(.text(TextContent("Hi"), explicit: []))
    var scene = Scene(size: PointSize(width: 200, height: 100))
    scene.body = text
    let ideal = try #require(try scene.resolvedViews(images: SceneImages([:])).first?.frame)
    for padding in [-20.0, -ideal.width / 2 + 1, -1e4] {
      scene.body = text.modified(.padding(EdgeInsets(all: padding)))
      let views = try scene.resolvedViews(images: SceneImages([:]))
      let padded = try #require(views.first { $0.kind == "padding" })
      // The definition: the child's size plus the insets, never below 0.
      #expect(padded.frame.width == max(0, (ideal.width + 2 * padding)), "padding \(padding): \(padded.frame)")
      #expect(padded.frame.height == max(0, (ideal.height + 2 * padding)), "padding \(padding): \(padded.frame)")
      #expect(Self.isSound(padded.frame))
    }
  }

  @Test("a negative padding on a text: validate, layout, render, audit and a batch with it all finish (no crash)")
  func negativePaddingThroughTheCommands() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let hostile = folder.appendingPathComponent("hostile.json").path
    let plain = folder.appendingPathComponent("plain.json").path
    try Data(
      #"{"version": 1, "size": {"width": 200, "height": 100}, "body": {"type": "text", "text": "Hi", "modifiers": [{"padding": -20}]}}"#
        .utf8
    ).write(to: URL(fileURLWithPath: hostile))
    try Data(SceneJSON.scene(width: 50, height: 50, background: "#336699").utf8).write(to: URL(fileURLWithPath: plain))
    for arguments in [
      ["validate", hostile], ["layout", hostile],
      ["render", hostile, "-o", folder.path + "/h.png", "--backend", "cpu"],
      ["audit", hostile],
    ] {
      let run = try TestProcess.runGlassGPU(arguments)
      #expect(run.reason == .exit && run.status == 0, "\(arguments[0]): \(run.status) \(run.stderr)")
    }
    let report = folder.path + "/report.json"
    let batch = try TestProcess.runGlassGPU(
      ["batch", hostile, plain, "-o", folder.path + "/out", "--backend", "cpu", "--report", report, "--quiet"])
    #expect(batch.reason == .exit && batch.status == 0, "\(batch.status) \(batch.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.path + "/out/hostile.png"))
    #expect(FileManager.default.fileExists(atPath: folder.path + "/out/plain.png"))
    #expect(FileManager.default.fileExists(atPath: report))
  }
}
