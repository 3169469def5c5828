import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Text is measured once, where the scene is laid out (`Renderer.prepare`), and
/// drawn as measured: reading a scene opens no font, frames written with a
/// position alone are sized in layout, and lowering draws the very layout that
/// layout measured (no second layout, no slack).
@Suite("Text measured once, in layout")
struct MeasuredOnceTests {
  /// Layers of every kind that size themselves to their text, in `font`.
  static func fittedLayers(font: String) -> String {
    #"""
    {"type": "text", "text": "Caption here", "font": \#(font), "frame": {"x": 10, "y": 10}},
    {"type": "glass", "frame": {"x": 10, "y": 60}, "content": {"text": "Hello, World!", "font": \#(font)}},
    {"type": "material", "material": "thin", "frame": {"x": 10, "y": 140, "width": 120}, "content": {"text": "A label that wraps in its width", "font": \#(font)}},
    {"type": "shape", "fill": "white", "frame": {"x": 200, "y": 10}, "content": {"text": "Shape", "systemImage": "star.fill", "font": \#(font), "padding": 6}},
    {"type": "button", "title": "Toggle", "font": \#(font), "buttonStyle": "glassProminent", "frame": {"x": 200, "y": 80}}
    """#
  }

  /// A scene of fitted layers and a view tree of texts (a stack that wraps one).
  static let mixed = #"""
    {"version": 1, "size": {"width": 400, "height": 400}, "scale": 1, "background": "teal",
     "layers": [\#(fittedLayers(font: #""body""#))],
     "body": {"type": "vstack", "spacing": 8, "children": [
       {"type": "text", "text": "Title", "modifiers": [{"font": "title"}]},
       {"type": "text", "text": "A longer line of text that has to wrap inside the frame it is offered here",
        "modifiers": [{"frame": {"width": 150}}]},
       {"type": "button", "label": {"type": "text", "text": "Go"}, "modifiers": [{"buttonStyle": "glass"}]}
     ]}}
    """#

  @Test("reading a scene opens no font: a missing family reads, sides to fit stay 0, and layout names the field")
  func readingNeedsNoFonts() throws {
    let caches = RenderCaches()
    let text = #"{"family": "No Such Family", "size": 17}"#
    let scene = try caches.use {
      try Scene(
        json: Array(
          #"{"version": 1, "size": {"width": 400, "height": 300}, "layers": [\#(Self.fittedLayers(font: text))]}"#
            .utf8))
    }
    #expect(caches.stats.allSatisfy { $0.misses == 0 && $0.entries == 0 }, "\(caches.stats)")
    // What was written is kept, to be sized in layout.
    guard case .text(let caption) = scene.layers[0], case .glass(let glass) = scene.layers[1],
      case .material(let material) = scene.layers[2], case .glass(let button) = scene.layers[4]
    else {
      Issue.record("the layers read as other kinds")
      return
    }
    #expect(caption.frame == PointRect(x: 10, y: 10, width: 0, height: 0))
    #expect(caption.fit == ContentFit(width: true, height: true))
    #expect(glass.fit == ContentFit(width: true, height: true, horizontalPadding: 16, verticalPadding: 16))
    #expect(material.frame.width == 120 && material.fit?.width == false && material.fit?.height == true)
    #expect(button.fit == ContentFit(width: true, height: true, horizontalPadding: 14, verticalPadding: 7))
    // Layout (prepare) is where the font is looked for, and the error names its field.
    for (index, path) in [
      (0, "layers[0].font.family"), (1, "layers[1].content.font.family"), (2, "layers[2].content.font.family"),
      (3, "layers[3].content.font.family"), (4, "layers[4].font.family"),
    ] {
      // The layer under test alone at its own index, plain shapes before it.
      let plain = Layer.shape(
        ShapeLayer(shape: .rect, frame: PointRect(x: 0, y: 0, width: 4, height: 4), fill: .color(.red)))
      var one = scene
      one.layers = Array(repeating: plain, count: index) + [scene.layers[index]]
      let error = #expect(throws: GlassError.self) { _ = try one.laidOut(images: SceneImages([:])) }
      #expect(error?.jsonPath == path, "\(String(describing: error))")
      #expect("\(String(describing: error))".contains("No Such Family"))
    }
  }

  @Test("glass-gpu validate and render refuse a font that cannot be had at its field; reading the file does not")
  func validateNamesTheFont() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("scene.json").path
    let layers = #"{"type": "button", "title": "Go", "font": {"family": "No Such Family"}, "frame": {"x": 4, "y": 4}}"#
    try Data(SceneJSON.scene(width: 200, height: 100, layers: layers).utf8).write(to: URL(fileURLWithPath: path))
    _ = try SceneFile(path: path)
    for arguments in [
      ["validate", path], ["render", path, "-o", folder.appendingPathComponent("o.png").path, "--backend", "cpu"],
    ] {
      let result = try runCLI(arguments)
      #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
      #expect(result.stderr.contains("layers[0].font.family"), "\(arguments[0]): \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.png").path))
  }

  @Test("prepare shapes each text once: lowering draws from what layout shaped, shaping nothing more")
  func shapedOnce() throws {
    let scene = try Scene(json: Array(Self.mixed.utf8))
    // Layout alone, with caches of its own: the paragraphs it shaped, the layouts it made.
    let layoutCaches = RenderCaches()
    let laid = try scene.laidOut(images: SceneImages([:]), caches: layoutCaches)
    let shaped = try #require(layoutCaches.stats(named: "shaped text"))
    let measured = try #require(layoutCaches.stats(named: "text layouts"))
    // Every text drawn says the width it was measured within.
    var drawn = 0
    func check(_ text: TextContent?) {
      guard let text else { return }
      drawn += 1
      #expect(text.lineBreakWidth != nil, "\(text.string) was not measured")
    }
    for layer in laid.layers {
      switch layer {
      case .text(let l): check(l.text)
      case .glass(let l): check(l.content?.text)
      case .material(let l): check(l.content?.text)
      case .shape(let l): check(l.content?.text)
      case .container(let c): for g in c.glass { check(g.content?.text) }
      case .image: break
      }
    }
    #expect(drawn == 8, "five fitted layers and three texts in the tree: \(drawn)")
    #expect(shaped.misses > 0 && shaped.misses <= drawn, "each paragraph shaped once: \(shaped)")
    // A whole prepare and render, with fresh caches: the same paragraphs shaped, none more;
    // at most one layout more per text drawn (a text measured within a width is laid out
    // into lines only when it is drawn).
    let renderer = try Renderer(backend: .cpu, caches: RenderCaches())
    var timings = RenderTimings()
    _ = try renderer.render(scene, images: [:], timings: &timings)
    let reshaped = try #require(renderer.caches.stats(named: "shaped text"))
    let rendered = try #require(renderer.caches.stats(named: "text layouts"))
    #expect(reshaped.misses == shaped.misses, "layout shaped \(shaped.misses), prepare and render \(reshaped.misses)")
    #expect(
      rendered.misses <= measured.misses + drawn, "layout made \(measured.misses), prepare \(rendered.misses)")
  }

  @Test("a glass layer written from a button keeps the button's padding (fitPadding) and reads back the same")
  func fitPaddingRoundTrip() throws {
    let scene = try Scene(
      json: Array(
        SceneJSON.scene(
          width: 300, height: 200,
          layers: #"{"type": "button", "title": "Toggle", "frame": {"x": 20, "y": 30, "width": 120}}"#
        ).utf8))
    let written = scene.json
    #expect(written.contains("\"fitPadding\""), "\(written)")
    #expect(!written.contains("\"height\" : 0"), "\(written)")
    let again = try Scene(json: Array(written.utf8))
    #expect(again == scene)
    let laid = try again.laidOut(images: SceneImages([:]))
    guard case .glass(let glass) = laid.layers[0] else { throw GlassError(.invalidScene, "not glass") }
    let label = try TextContent("Toggle").size(maxWidth: 120 - 28)
    #expect(glass.frame.width == 120 && abs(glass.frame.height - (label.height + 14)) < 1e-9, "\(glass.frame)")
    #expect(glass.content?.text?.lineBreakWidth == 92)
    // fitPadding only where a side is sized to fit.
    let error = #expect(throws: GlassError.self) {
      _ = try Scene(
        json: Array(
          SceneJSON.scene(
            width: 300, height: 200,
            layers:
              #"{"type": "glass", "frame": {"x": 0, "y": 0, "width": 80, "height": 40, "fitPadding": {"horizontal": 1, "vertical": 1}}, "content": {"text": "A"}}"#
          ).utf8))
    }
    #expect(error?.jsonPath == "layers[0].frame.fitPadding", "\(String(describing: error))")
    // Its range, read or built in Swift: the validator's, at its field.
    var negative = scene
    guard case .glass(var glass) = negative.layers[0] else { throw GlassError(.invalidScene, "not glass") }
    glass.fit?.verticalPadding = -1
    negative.layers[0] = .glass(glass)
    let range = #expect(throws: GlassError.self) { try negative.validate() }
    #expect(range?.jsonPath == "layers[0].frame.fitPadding.vertical", "\(String(describing: range))")
    let read = #expect(throws: GlassError.self) { _ = try Scene(json: Array(negative.json.utf8)) }
    #expect(read?.jsonPath == "layers[0].frame.fitPadding.vertical", "\(String(describing: read))")
  }

  @Test("glass sized to its text inside a container, and in a state, is sized in layout like any other")
  func containersAndStates() throws {
    let glass = #"{"frame": {"x": 10, "y": 10}, "content": {"text": "Hello", "padding": 8}}"#
    let scene = try Scene(
      json: Array(
        #"""
        {"version": 1, "size": {"width": 300, "height": 200},
         "states": {"a": {"layers": [{"type": "glassContainer", "spacing": 4, "glass": [\#(glass)]}]},
                    "b": {"layers": [{"type": "text", "text": "Hello", "frame": {"x": 10, "y": 10}}]}}}
        """#.utf8))
    let laid = try scene.laidOut(images: SceneImages([:]))
    let hello = try TextContent("Hello").size()
    guard case .container(let container) = laid.states[0].layers[0], case .text(let text) = laid.states[1].layers[0]
    else { throw GlassError(.invalidScene, "the layers read as other kinds") }
    #expect(container.glass[0].frame.width == hello.width + 16 && container.glass[0].fit == nil)
    #expect(container.glass[0].content?.text?.lineBreakWidth == .infinity)
    #expect(text.frame.width == hello.width && text.frame.height == hello.height && text.fit == nil)
    #expect(laid.layers == laid.states[0].layers, "the scene is its first state")
  }

  @Test("animate lays the scene out once: moments interpolate sized frames, text keeps the nearer state's lines")
  func animationLaysOutOnce() throws {
    let text = #""content": {"text": "A label that wraps in a narrow frame", "padding": 8}"#
    let scene = try Scene(
      json: Array(
        #"""
        {"version": 1, "size": {"width": 300, "height": 160}, "scale": 1,
         "states": {"a": {"layers": [{"type": "glass", "frame": {"x": 10, "y": 10, "width": 120}, \#(text)}]},
                    "b": {"layers": [{"type": "glass", "frame": {"x": 10, "y": 10, "width": 280}, \#(text)}]}},
         "transition": {"from": "a", "to": "b", "animation": {"type": "linear", "duration": 0.1}}}
        """#.utf8))
    let animation = try AnimationRenderer(
      scene: scene, options: AnimationRenderer.Options(fps: 100, holdSeconds: 0, roundTrip: false))
    let laid = try scene.laidOut(images: SceneImages([:]))
    for (index, width) in [(3, 104.0), (7, 264.0)] {
      let moment = try animation.scene(ofFrame: index)
      #expect(moment == (try laid.frame(at: Double(index) / 100)), "frame \(index)")
      guard case .glass(let glass) = moment.layers[0] else { throw GlassError(.invalidScene, "not glass") }
      #expect(glass.fit == nil, "frame \(index) is sized, not sized again at its moment")
      #expect(glass.content?.text?.lineBreakWidth == width, "frame \(index): the lines of the nearer state")
    }
  }
}
