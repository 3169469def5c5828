import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Layout recurses once per level of a view tree, and every modifier is a
/// level: the depth it may reach (`ViewNode.maximumLayoutDepth`) is counted in
/// views plus modifiers and refused, with the view's path, before anything
/// recurses; the deepest tree allowed lays out on a small thread stack.
@Suite("Layout depth")
struct LayoutDepthTests {
  /// A text with `count` modifiers, alternating padding, offset and frame.
  static func chained(_ count: Int) -> ViewNode {
    var node = ViewNode(.text(TextContent("Deep"), explicit: []))
    for i in 0..<count {
      switch i % 3 {
      case 0: node.modifiers.append(.padding(EdgeInsets(all: 0.01)))
      case 1: node.modifiers.append(.offset(x: 0.01, y: 0))
      default: node.modifiers.append(.frame(width: nil, height: nil, alignment: .center))
      }
    }
    return node
  }

  /// The JSON of a scene whose body is a text with `count` padding modifiers.
  static func chainedJSON(_ count: Int) -> String {
    let modifiers = Array(repeating: #"{"padding": 0.01}"#, count: count).joined(separator: ",")
    return
      #"{"version": 1, "size": {"width": 200, "height": 100}, "body": {"type": "text", "text": "Deep", "modifiers": [\#(modifiers)]}}"#
  }

  /// Runs `body` on a thread with a stack of `bytes`, and waits for it.
  static func onThread(stack bytes: Int, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.stackSize = bytes
    thread.start()
    done.wait()
  }

  @Test("25,000 chained modifiers through the CLI: validate, layout and render exit 1 naming the limit, no crash")
  func tooDeepThroughTheCommands() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("deep.json").path
    try Data(Self.chainedJSON(25_000).utf8).write(to: URL(fileURLWithPath: scene))
    for arguments in [["validate", scene], ["layout", scene], ["render", scene, "-o", folder.path + "/d.png"]] {
      let run = try TestProcess.runGlassGPU(arguments)
      #expect(run.reason == .exit && run.status == 1, "\(arguments[0]): \(run.reason) \(run.status) \(run.stderr)")
      #expect(
        run.stderr.contains("deep.json: body: the view tree's layout is 25001 levels deep here")
          && run.stderr.contains("over the \(ViewNode.maximumLayoutDepth)"), "\(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/d.png"))
  }

  @Test("the deepest tree allowed renders through the CLI; one level more is refused")
  func deepestAllowedRenders() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let deepest = folder.appendingPathComponent("deepest.json").path
    let over = folder.appendingPathComponent("over.json").path
    // The text is one level; each modifier one more.
    try Data(Self.chainedJSON(ViewNode.maximumLayoutDepth - 1).utf8).write(to: URL(fileURLWithPath: deepest))
    try Data(Self.chainedJSON(ViewNode.maximumLayoutDepth).utf8).write(to: URL(fileURLWithPath: over))
    let png = folder.path + "/deepest.png"
    let rendered = try TestProcess.runGlassGPU(["render", deepest, "-o", png, "--backend", "cpu"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    let image = try PNGCodec.read(path: png).image
    #expect(image.width == 400 && image.height == 200)
    let laidOut = try TestProcess.runGlassGPU(["layout", deepest])
    #expect(laidOut.status == 0 && laidOut.stdout.contains("\(ViewNode.maximumLayoutDepth) views"), "\(laidOut.stderr)")
    let refused = try TestProcess.runGlassGPU(["validate", over])
    #expect(refused.status == 1 && refused.stderr.contains("\(ViewNode.maximumLayoutDepth + 1) levels deep"))
  }

  @Test("the deepest tree allowed lays out, lowers and renders on a thread with a 512 KiB stack")
  func deepestOnASmallStack() throws {
    let outcome = Outcome()
    Self.onThread(stack: 512 << 10) {
      do {
        var scene = Scene(size: PointSize(width: 200, height: 100), scale: 1)
        scene.body = Self.chained(ViewNode.maximumLayoutDepth - 1)
        let views = try scene.resolvedViews(images: SceneImages([:]))
        let image = try TestBackend.cpu.render(scene, images: SceneImages([:]))
        outcome.set("\(views.count) \(image.width)")
      } catch {
        outcome.set("\(error)")
      }
    }
    #expect(outcome.value == "\(ViewNode.maximumLayoutDepth) 200")
  }

  @Test("a Swift tree one level too deep is refused at the view where it passes the limit, before layout")
  func swiftTreeRefusedAtItsPath() throws {
    // Nested stacks, each with modifiers: the levels add up across views.
    var node = ViewNode(.text(TextContent("leaf"), explicit: []))
    var levels = 1
    while levels + 20 <= ViewNode.maximumLayoutDepth {
      node = ViewNode(.vstack(alignment: .center, spacing: nil, [node]))
      for _ in 0..<19 { node.modifiers.append(.padding(EdgeInsets(all: 1))) }
      levels += 20
    }
    var scene = Scene(size: PointSize(width: 200, height: 100), scale: 1)
    scene.body = node
    // At the limit or under it: laid out.
    #expect(levels <= ViewNode.maximumLayoutDepth)
    #expect(try scene.resolvedViews(images: SceneImages([:])).count == levels)
    // Add levels at the root until it is one over: the innermost text passes it.
    let missing = ViewNode.maximumLayoutDepth - levels + 1
    for _ in 0..<missing { node.modifiers.append(.offset(x: 1, y: 0)) }
    scene.body = node
    let error = try #require(throws: GlassError.self) { try scene.resolvedViews(images: SceneImages([:])) }
    let stacks = (levels - 1) / 20
    let path = "body" + String(repeating: ".children[0]", count: stacks)
    #expect(error.jsonPath == path, "\(error)")
    #expect(error.message.contains("\(ViewNode.maximumLayoutDepth + 1) levels deep"), "\(error)")
  }

  @Test(
    "the reader counts as layout does: an overlay's view lies below its modifier; at the limit it reads and lays out, one over fails at the view"
  )
  func readerAgreesWithLayout() throws {
    let inner = Array(repeating: #"{"padding": 1}"#, count: ViewNode.maximumLayoutDepth - 10).joined(separator: ",")
    /// A colour whose first modifier is an overlay of a text with many
    /// modifiers, then `outer - 1` offsets: the overlay's view has `outer`
    /// levels above it.
    func scene(_ outer: Int) -> String {
      let offsets = String(repeating: #", {"offset": {"x": 1}}"#, count: outer - 1)
      return #"""
        {"version": 1, "size": {"width": 200, "height": 100}, "body": {"type": "color", "color": "#FF0000",
         "modifiers": [{"overlay": {"content": {"type": "text", "text": "x", "modifiers": [\#(inner)]}}}\#(offsets)]}}
        """#
    }
    // The text: `outer` levels above it, 1 + (max - 10) of its own.
    let fits = try Scene(json: Array(scene(9).utf8))
    #expect(try fits.resolvedViews(images: SceneImages([:])).count > ViewNode.maximumLayoutDepth - 10)
    let error = try #require(throws: GlassError.self) { try Scene(json: Array(scene(10).utf8)) }
    #expect(error.jsonPath == "body.modifiers[0].overlay.content", "\(error)")
    // The same overlay as the last modifier lies one level below the colour.
    let last = #"""
      {"version": 1, "size": {"width": 200, "height": 100}, "body": {"type": "color", "color": "#FF0000",
       "modifiers": [\#(String(repeating: #"{"offset": {"x": 1}}, "#, count: 500)){"overlay": {"content": {"type": "text", "text": "x", "modifiers": [\#(inner)]}}}]}}
      """#
    #expect(try Scene(json: Array(last.utf8)).resolvedViews(images: SceneImages([:])).count > 1_000)
  }

  @Test(
    "a thousand levels of each kind of modifier lay out and lower to layers on a 512 KiB stack",
    arguments: ["padding", "glassEffect", "glassEffectID", "background", "overlay", "frame", "aspectRatio"])
  func everyModifierKind(kind: String) throws {
    func modifier(_ i: Int) -> ViewModifierNode {
      switch kind {
      case "padding": .padding(EdgeInsets(all: 0.01))
      case "glassEffect": .glassEffect(.regular, shape: .capsule, optics: GlassOptics.Overrides())
      case "glassEffectID": .glassEffectID("id\(i)")
      case "background": .background(ViewNode(.shape(.rect, style: .fill(.color(.red)))), alignment: .center)
      case "overlay": .overlay(ViewNode(.text(TextContent("o"), explicit: [])), alignment: .topLeading)
      case "frame": .flexibleFrame(FlexibleFrame(minWidth: 1, maxWidth: 500))
      default: .aspectRatio(1.5, contentMode: .fit)
      }
    }
    var node = ViewNode(.text(TextContent("Deep"), explicit: []))
    // The overlays' views add a level below their modifiers: one fewer.
    let count = ViewNode.maximumLayoutDepth - (["background", "overlay"].contains(kind) ? 2 : 1)
    node.modifiers = (0..<count).map(modifier)
    let tree = node
    let outcome = Outcome()
    Self.onThread(stack: 512 << 10) {
      do {
        var scene = Scene(size: PointSize(width: 200, height: 100), scale: 1)
        scene.body = tree
        // Layout and its lowering to layers: the parts that recurse.
        let laid = try scene.laidOut(images: SceneImages([:]))
        outcome.set(laid.layers.isEmpty ? "no layers" : "laid out")
      } catch {
        outcome.set("\(error)")
      }
    }
    #expect(outcome.value == "laid out", "\(kind)")
  }

  @Test("JSON nested 100,000 deep is refused with its position, no crash")
  func deepJSON() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("nested.json").path
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    try Data(#"{"version": 1, "size": {"width": 10, "height": 10}, "layers": \#(nested)}"#.utf8).write(
      to: URL(fileURLWithPath: scene))
    let run = try TestProcess.runGlassGPU(["validate", scene])
    #expect(run.reason == .exit && run.status == 1 && run.stderr.contains("nested more than"), "\(run.stderr)")
  }
}

/// A value set on another thread.
private final class Outcome: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = ""
  var value: String { lock.withLock { stored } }
  func set(_ value: String) { lock.withLock { stored = value } }
}
