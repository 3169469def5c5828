import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Text in the states of a transition: text layers, labels, buttons and text on
/// glass, materials and shapes interpolate their frame, paint and opacity, and a
/// changed string fades through at the midpoint (docs/scene-format.md, "States
/// and transitions"); a scene whose states do not pair is refused by `validate`.
@Suite("Animation: text in states")
struct AnimationTextTests {
  static let black = Color(red: 0, green: 0, blue: 0)

  /// A text layer "Show" at (10, 30) in state a and "Hide" at (120, 30) in state b,
  /// title-sized black text on white, along a straight line of 0.1 s.
  static func showHide(scale: Int = 2) -> Scene {
    Scene(width: 200, height: 100, scale: scale, background: .color(.white)) {}
      .state("a") { Text("Show").font(.title).foregroundStyle(black).frame(x: 10, y: 30) }
      .state("b") { Text("Hide").font(.title).foregroundStyle(black).frame(x: 120, y: 30) }
      .transition(from: "a", to: "b", animation: .linear(duration: 0.1))
  }

  static func textLayer(_ scene: Scene, _ index: Int = 0) throws -> TextLayer {
    guard case .text(let layer) = scene.layers[index] else {
      throw GlassError(.invalidScene, "layer \(index) is not text")
    }
    return layer
  }

  @Test("a text that moves and changes its string moves along the curve and fades through at p = 1/2")
  func textLayerFadesThrough() throws {
    let scene = Self.showHide()
    let a = try Self.textLayer(scene.state("a"))
    let b = try Self.textLayer(scene.state("b"))
    for (time, p) in [(0.02, 0.2), (0.04, 0.4), (0.05, 0.5), (0.07, 0.7)] {
      let t = try Self.textLayer(scene.frame(at: time))
      let own = p < 0.5 ? a : b
      #expect(abs(t.frame.x - (10 + 110 * p)) < 1e-9 && t.frame.y == 30, "at \(time) s: \(t.frame)")
      // The text drawn keeps its own size, so it does not wrap.
      #expect(t.frame.width == own.frame.width && t.frame.height == own.frame.height, "at \(time) s")
      #expect(t.text.string == own.text.string, "at \(time) s: \(t.text.string)")
      let opacity = p < 0.5 ? 1 - 2 * p : 2 * p - 1
      #expect(abs(t.opacity - opacity) < 1e-9, "at \(time) s: opacity \(t.opacity), not \(opacity)")
    }
    #expect(try scene.frame(at: 0) == scene.state("a"))
    #expect(try scene.frame(at: 0.1) == scene.state("b"))
  }

  @Test("a text whose paint, frame and opacity change interpolates them: no fade, one string")
  func textLayerInterpolates() throws {
    let red = Color(red: 1, green: 0, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 1)
    var first = TextLayer(
      TextContent("Title", systemImage: "star.fill"), frame: PointRect(x: 0, y: 0, width: 80, height: 30))
    first.text.foregroundStyle = .color(red)
    first.opacity = 0.2
    var second = first
    second.frame = PointRect(x: 100, y: 40, width: 120, height: 50)
    second.text.foregroundStyle = .color(blue)
    second.opacity = 1
    let scene = Scene(width: 300, height: 100, scale: 1) {}
      .state("a") { Layer.text(first) }
      .state("b") { Layer.text(second) }
      .transition(from: "a", to: "b", animation: .linear(duration: 1))
    let t = try Self.textLayer(scene.frame(at: 0.25))
    #expect(t.frame == PointRect(x: 25, y: 10, width: 90, height: 35), "\(t.frame)")
    #expect(t.text.foregroundStyle == .color(Color(red: 0.75, green: 0, blue: 0.25)))
    #expect(abs(t.opacity - 0.4) < 1e-12)
    #expect(t.text.string == "Title" && t.text.systemImage == "star.fill")
    // A bouncy spring's overshoot moves the text past its place but never makes
    // its frame narrower than the narrower state's (the text would wrap).
    var shrinking = scene
    shrinking.states[1].layers = [.text(TextLayer(second.text, frame: PointRect(x: 100, y: 40, width: 60, height: 20)))]
    shrinking.transition?.animation = .spring(duration: 0.5, bounce: 0.6)
    var overshot = false
    for step in 1..<60 {
      let time = Double(step) / 60
      let p = TimingCurve.spring(duration: 0.5, bounce: 0.6).progress(at: time)
      let frame = try Self.textLayer(shrinking.frame(at: time)).frame
      #expect(frame.width >= 60 && frame.height >= 20, "at \(time) s: \(frame)")
      if p > 1 { overshot = overshot || frame.x > 100 }
    }
    #expect(overshot, "the spring overshoots the position")
  }

  @Test("a button's title, a label on glass and text on a material or shape interpolate or fade through")
  func textContent() throws {
    let a: [Layer] = [
      .glass(Button("Show").buttonStyle(.glassProminent).frame(x: 10, y: 10).glassLayer),
      Text("Panel").font(.headline).foregroundStyle(Color.white).padding().frame(x: 10, y: 60)
        .background(.regularMaterial, in: .rect(cornerRadius: 8)).layers[0],
      Text("Badge").foregroundStyle(Color.black).padding(8).frame(x: 150, y: 60).background(
        Color.yellow, in: .capsule
      ).layers[0],
    ]
    var b = a
    b[0] = .glass(Button("Hide now").buttonStyle(.glassProminent).frame(x: 40, y: 10).glassLayer)
    b[1] =
      Text("Panel").font(.headline).foregroundStyle(Color.black).padding().frame(x: 10, y: 80)
      .background(.regularMaterial, in: .rect(cornerRadius: 8)).layers[0]
    b[2] =
      Text("Other").foregroundStyle(Color.black).padding(8).frame(x: 150, y: 60).background(Color.yellow, in: .capsule)
      .layers[0]
    let scene = Scene(width: 300, height: 140, scale: 1) {}
      .state("a") { for layer in a { layer } }
      .state("b") { for layer in b { layer } }
      .transition(from: "a", to: "b", animation: .linear(duration: 1))
    let early = try scene.frame(at: 0.25)
    let late = try scene.frame(at: 0.75)
    // The button: its glass moves and grows; its title fades through.
    guard case .glass(let ga) = a[0], case .glass(let gb) = b[0], case .glass(let g1) = early.layers[0],
      case .glass(let g3) = late.layers[0]
    else { throw GlassError(.invalidScene, "not glass") }
    #expect(
      abs(g1.frame.x - 17.5) < 1e-9 && abs(g1.frame.width - (ga.frame.width * 0.75 + gb.frame.width * 0.25)) < 1e-9)
    #expect(g1.content?.text?.string == "Show" && abs((g1.content?.opacity ?? 0) - 0.5) < 1e-9)
    #expect(g3.content?.text?.string == "Hide now" && abs((g3.content?.opacity ?? 0) - 0.5) < 1e-9)
    // "Show", drawn in a frame narrower than its own would be, keeps its width.
    #expect(g1.frame.width - 2 * (g1.content?.padding ?? 0) >= ga.frame.width - 1e-9)
    // The material's text changes colour only: one text, its paint interpolated, no fade.
    guard case .material(let m) = early.layers[1] else { throw GlassError(.invalidScene, "not a material") }
    #expect(m.frame.y == 65 && m.content?.opacity == 1)
    #expect(m.content?.text?.foregroundStyle == .color(Color(red: 0.75, green: 0.75, blue: 0.75)))
    // The shape's text changes its string: it fades through.
    guard case .shape(let s1) = early.layers[2], case .shape(let s3) = late.layers[2] else {
      throw GlassError(.invalidScene, "not a shape")
    }
    #expect(s1.content?.text?.string == "Badge" && abs((s1.content?.opacity ?? 0) - 0.5) < 1e-9)
    #expect(s3.content?.text?.string == "Other" && abs((s3.content?.opacity ?? 0) - 0.5) < 1e-9)
  }

  @Test("validate refuses, at the state's JSON path, a transition whose layers do not pair; text pairs with text")
  func validation() throws {
    func scene(_ b: String) -> String {
      """
      {"version": 1, "size": {"width": 100, "height": 60},
       "states": {"a": {"layers": [{"type": "text", "text": "Show", "frame": {"x": 4, "y": 4}}]},
                  "b": {"layers": [\(b)]}},
       "transition": {"from": "a", "to": "b"}}
      """
    }
    let text = #"{"type": "text", "text": "Hide", "frame": {"x": 40, "y": 4}}"#
    _ = try Scene(json: Array(scene(text).utf8))
    let shape = ##"{"type": "shape", "shape": "rect", "fill": "#ff0000", "frame": {"width": 9, "height": 9}}"##
    let error = #expect(throws: GlassError.self) { try Scene(json: Array(scene(shape).utf8)) }
    #expect(error?.jsonPath == "states.b.layers[0]", "\(String(describing: error))")
    #expect(error?.message.contains("a text in state \"a\" and a shape here") == true, "\(String(describing: error))")
    // Through the command line: validate says what animate says, exit 1.
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s.json").path
    try scene(shape).write(toFile: path, atomically: true, encoding: .utf8)
    let validated = try runCLI(["validate", path])
    #expect(validated.status == 1 && validated.stderr.contains("states.b.layers[0]"), "\(validated.stderr)")
    try scene(text).write(toFile: path, atomically: true, encoding: .utf8)
    let valid = try runCLI(["validate", path])
    #expect(valid.status == 0 && valid.stdout.contains("2 states checked"), "\(valid.stdout) \(valid.stderr)")
    let animated = try runCLI(["animate", path, "-o", folder.appendingPathComponent("f").path, "--backend", "cpu"])
    #expect(animated.status == 0, "\(animated.stderr)")
  }

  /// Ink of dark text on white, in linear light, per pixel: 1 − luminance.
  static func ink(_ image: RGBAImage) -> (total: Double, x: Double, y: Double) {
    var total = 0.0
    var sx = 0.0
    var sy = 0.0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.rgba8(x, y)
        let l = (0..<3).map { Definition.srgbToLinear(Double(p[$0]) / 255) }.reduce(0, +) / 3
        let ink = 1 - l
        guard ink > 1e-4 else { continue }
        total += ink
        sx += ink * (Double(x) + 0.5)
        sy += ink * (Double(y) + 0.5)
      }
    }
    return (total, total > 0 ? sx / total : 0, total > 0 ? sy / total : 0)
  }

  /// Renders the Show/Hide transition with `AnimationRenderer` (frames 0 to 6,
  /// p = k / 6) and checks, from the pixels: frames 0 and 6 are the states'
  /// static renders; the ink of frame 2 (p = 1/3) is frame 0's moved by 110 p
  /// points with a third of its amount, frame 4's (p = 2/3) frame 6's moved back
  /// by 110 (1 − p) with a third, and frame 3 (p = 1/2) has none.
  static func renderedText(on renderer: Renderer) throws -> [RGBAImage] {
    let scene = showHide()
    let animation = try AnimationRenderer(scene: scene)
    #expect(animation.frameCount == 7)
    var frames: [RGBAImage] = []
    try animation.render(on: renderer) { indices, image in
      for _ in indices { frames.append(image) }
    }
    try #require(frames.count == 7)
    var timings = RenderTimings()
    let a = try renderer.render(scene.state("a"), images: [:], timings: &timings)
    let b = try renderer.render(scene.state("b"), images: [:], timings: &timings)
    #expect(frames[0] == a, "frame 0 is state a's static render")
    #expect(frames[6] == b, "the last frame is state b's static render")
    let scale = Double(scene.scale)
    let (inkA, inkB) = (ink(a), ink(b))
    for (k, base, shift) in [(2, inkA, 110.0 / 3), (4, inkB, -110.0 / 3)] {
      let m = ink(frames[k])
      let expected = base.x + shift * scale
      #expect(abs(m.x - expected) < 0.35, "frame \(k): ink at x \(m.x) px, expected \(expected)")
      #expect(abs(m.y - base.y) < 0.35, "frame \(k): ink at y \(m.y) px, expected \(base.y)")
      #expect(abs(m.total / base.total - 1.0 / 3) < 0.02, "frame \(k): \(m.total / base.total) of the ink, not 1/3")
    }
    #expect(ink(frames[3]).total == 0, "at p = 1/2 neither text shows")
    return frames
  }

  @Test(
    "on the CPU, Show moves and fades into Hide: the ends are the states, the middle frames' ink where the curve puts it"
  )
  func renderedOnCPU() throws {
    let frames = try Self.renderedText(on: Renderer(backend: .cpu))
    if let folder = ProcessInfo.processInfo.environment["GLASS_GPU_TEST_KEEP"] {
      for (i, frame) in frames.enumerated() { try PNGCodec.write(frame, to: "\(folder)/show-hide-\(i).png") }
    }
  }

  @Test(
    "on the GPU, the same frames, within the scene parity bar of the CPU's",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func renderedOnGPU() throws {
    let gpu = try Self.renderedText(on: TestGPU.requireRenderer())
    let cpu = try Self.renderedText(on: Renderer(backend: .cpu))
    for (i, (g, c)) in zip(gpu, cpu).enumerated() {
      SceneRenderingTests.bar.check(try ImageComparison(g, c), "frame \(i)")
    }
  }
}
