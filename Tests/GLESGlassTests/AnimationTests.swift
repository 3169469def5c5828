import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// States, transitions and `glassEffectID`: Apple's pencil and eraser, where
/// toggling `isExpanded` inside `withAnimation` grows the eraser out of the pencil.
@Suite("Animation: states and transitions")
struct AnimationTests {
  static let images: [String: RGBAImage] = [
    "photo": ProceduralImages.landscape(width: 240, height: 120),
    "pencil": ProceduralIcons.scribble(size: 36), "eraser": ProceduralIcons.eraser(size: 36),
  ]

  static func button(
    _ x: Double, _ icon: String, _ transition: GlassEffectTransition? = nil, content: Bool = true
  ) -> GlassLayer {
    var g = GlassLayer(
      frame: PointRect(x: x, y: 40, width: 80, height: 80),
      content: content ? GlassContent(source: icon, padding: 22) : nil)
    g = g.glassEffectID(icon)
    if let transition { g = g.glassEffectTransition(transition) }
    return g
  }

  /// The morph at scale 1, built with the Swift API.
  static func morph(
    _ eraser: GlassEffectTransition? = nil, animation: TimingCurve = .default, content: Bool = true
  ) -> Scene {
    Scene(width: 480, height: 160, scale: 1, background: .image("photo", contentMode: .fill)) {}
      .state("collapsed") {
        GlassEffectContainer(spacing: 40) { Self.button(200, "pencil", content: content) }
      }
      .state("expanded") {
        GlassEffectContainer(spacing: 40) {
          Self.button(140, "pencil", content: content)
          Self.button(260, "eraser", eraser, content: content)
        }
      }
      .transition(from: "collapsed", to: "expanded", animation: animation)
  }

  static func frames(_ scene: Scene, fps: Double = 60) throws -> [Scene] {
    guard let transition = scene.transition else { return [] }
    return try (0..<Scene.frameCount(of: transition, fps: fps)).map { try scene.frame(at: Double($0) / fps) }
  }

  static func endsExactly(on backend: TestBackend) throws {
    let scene = morph()
    let frames = try frames(scene)
    #expect(frames.count == 53, "a 0.5 s spring settles (within 1/4096) by 0.867 s: 53 frames at 60 fps")
    let first = try backend.render(frames[0], images: Self.images)
    let last = try backend.render(frames[frames.count - 1], images: Self.images)
    #expect(first == (try backend.render(scene.state("collapsed"), images: Self.images)), "\(backend): frame 0")
    #expect(last == (try backend.render(scene.state("expanded"), images: Self.images)), "\(backend): the last frame")
    // And the frames between are neither.
    let middle = try backend.render(frames[10], images: Self.images)
    #expect(middle != first && middle != last)
  }

  @Test("on the CPU, frame 0 and the settled last frame are the two states' static renders, byte for byte")
  func endsOnCPU() throws {
    try Self.endsExactly(on: .cpu)
  }

  @Test(
    "on the GPU, frame 0 and the settled last frame are the two states' static renders, byte for byte",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func endsOnGPU() throws {
    try Self.endsExactly(on: .gpu)
  }

  /// How much two frames differ where they differ most: the largest mean
  /// absolute difference over the 16 x 16-pixel tiles, in 1/255 steps (a mean
  /// over the whole frame would dilute a small pop in the motion elsewhere).
  static func meanChange(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    guard case .eight(let x) = a.samples, case .eight(let y) = b.samples else { return .infinity }
    let tile = 16
    var largest = 0.0
    for ty in stride(from: 0, to: a.height, by: tile) {
      for tx in stride(from: 0, to: a.width, by: tile) {
        var sum = 0
        var count = 0
        for py in ty..<min(ty + tile, a.height) {
          for px in tx..<min(tx + tile, a.width) {
            let i = (py * a.width + px) * 4
            for c in 0..<4 { sum += abs(Int(x[i + c]) - Int(y[i + c])) }
            count += 4
          }
        }
        largest = max(largest, Double(sum) / Double(count))
      }
    }
    return largest
  }

  /// No frame jumps. Everything in a frame is a continuous function of the
  /// curve's progress p (frames, optics and opacities are linear in p; the blend
  /// is continuous in the shapes), so the change between frames i and i+1, D_i
  /// (`meanChange`, 1/255 steps), follows the curve's step dp_i:
  ///
  /// - steps: D_i <= 4 * (dp_i / max dp) * max D + 0.05. For this critically
  ///   damped spring p = 1 - (1 + wt) e^-wt, w = 4 pi, the fastest step at 60 fps
  ///   is w / e / 60 = 0.077; the visual change per unit of p is not constant (a
  ///   neck splitting changes many pixels quickly), measured at most 2.3 times
  ///   its share on the morph, so 4 leaves room and still catches glass or
  ///   content that appears at once where the curve barely moves (frame 1: dp
  ///   0.021, a quarter of the fastest).
  ///
  /// The glass here has no icons: content is placed on whole pixels, so an icon
  /// moves in 1-pixel steps (up to 0.15/255 of the whole frame at scale 1 when
  /// the curve barely moves, measured at frame 32); glass moves smoothly.
  static func jumps(_ scene: Scene, planting: ((Int, Scene) -> Scene)? = nil) throws -> [String] {
    guard let transition = scene.transition else { return ["no transition"] }
    let frames = try frames(scene)
    let images = try frames.enumerated().map {
      try TestBackend.cpu.render(planting?($0, $1) ?? $1, images: Self.images)
    }
    let changes = zip(images, images.dropFirst()).map { meanChange($0, $1) }
    let progress = frames.indices.map { transition.animation.progress(at: Double($0) / 60) }
    let steps = zip(progress, progress.dropFirst()).map { abs($1 - $0) }
    let fastest = steps.max() ?? 1
    let largest = changes.max() ?? 0
    var found: [String] = []
    for i in changes.indices where changes[i] > 4 * steps[i] / fastest * largest + 0.05 {
      found.append("frame \(i) -> \(i + 1) changes by \(changes[i]), too much for a step of \(steps[i])")
    }
    if largest < 1 { found.append("the frames do not move") }
    return found
  }

  @Test("between the states no frame jumps: each frame changes in step with the curve")
  func continuity() throws {
    for transition in [GlassEffectTransition.matchedGeometry, .materialize] {
      let found = try Self.jumps(Self.morph(transition, content: false))
      #expect(found.isEmpty, "\(transition): \(found)")
    }
    // The planted pop: the eraser at its place in the second state, whole, from
    // frame 1 on (as if it had no transition).
    let found = try Self.jumps(Self.morph(content: false)) { index, frame in
      guard index > 0, case .container(var c) = frame.layers[0],
        let i = c.glass.firstIndex(where: { $0.effectID == "eraser" })
      else { return frame }
      var popped = frame
      c.glass[i] = Self.button(260, "eraser", content: false)
      popped.layers[0] = .container(c)
      return popped
    }
    #expect(!found.isEmpty, "glass that appears whole is a jump")
  }

  @Test("the eraser grows out of the pencil: at first it is the pencil's glass, then a neck, then apart")
  func matchedGeometry() throws {
    let scene = Self.morph()
    func eraser(_ frame: Scene) -> GlassLayer? {
      guard case .container(let c) = frame.layers[0] else { return nil }
      return c.glass.first { $0.effectID == "eraser" }
    }
    let early = try scene.frame(at: 0.01)
    let e = try #require(eraser(early))
    // Starts on the pencil's place in the first state, moves toward its own.
    #expect(e.frame.x > 200 && e.frame.x < 201, "\(e.frame)")
    #expect(e.content?.opacity ?? 1 < 0.01)
    let mid = try #require(eraser(try scene.frame(at: 0.15)))
    #expect(mid.frame.x > 210 && mid.frame.x < 260, "\(mid.frame)")
    // Materialize keeps its place and ramps its optics.
    let materialized = try #require(eraser(try Self.morph(.materialize).frame(at: 0.15)))
    #expect(materialized.frame.x == 260)
    let p = TimingCurve.default.progress(at: 0.15)
    let full = GlassOptics(.regular)
    #expect(abs((materialized.optics["refraction"] ?? 0) - full.refraction * p) < 1e-9)
    #expect(abs((materialized.optics["frost"] ?? 0) - full.frost * p) < 1e-9)
    #expect(abs((materialized.optics["rimOpacity"] ?? 0) - full.rimOpacity * p) < 1e-9)
    #expect(abs((materialized.content?.opacity ?? 0) - p) < 1e-9)
    // Identity: there at once.
    let identity = try #require(eraser(try Self.morph(.identity).frame(at: 0.01)))
    #expect(identity.frame.x == 260 && identity.content?.opacity == 1)
  }

  @Test(
    "the GPU renders frames of the morph within the scene parity bar of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func parity() throws {
    for time in [0.05, 0.12, 0.25] {
      for transition in [GlassEffectTransition.matchedGeometry, .materialize] {
        let frame = try Self.morph(transition).frame(at: time)
        SceneRenderingTests.bar.check(
          try ImageComparison(
            TestBackend.gpu.render(frame, images: Self.images), TestBackend.cpu.render(frame, images: Self.images)),
          "\(transition) at \(time) s")
      }
    }
  }

  @Test("states, transitions and ids read and write in the scene format")
  func format() throws {
    let scene = Self.morph(.materialize, animation: .bouncy)
    let back = try Scene(json: Array(scene.json.utf8))
    #expect(back == scene)
    let json = #"""
      {"version": 1, "size": {"width": 100, "height": 100},
       "states": {"a": {"layers": []}, "b": {"layers": []}},
       "transition": {"from": "a", "to": "b", "animation": "snappy"}}
      """#
    let parsed = try Scene(json: Array(json.utf8))
    #expect(parsed.states.map(\.name) == ["a", "b"])
    #expect(parsed.transition?.animation == .snappy)
    let eased = try TimingCurve(json: .object([("type", .string("easeInOut")), ("duration", .number(0.3))]))
    #expect(eased == .easeInOut(duration: 0.3))
  }

  /// A scene file with `body` spliced in, read; the error's JSON path and text.
  static func error(_ states: String, _ transition: String) -> GlassError? {
    let text = """
      {"version": 1, "size": {"width": 100, "height": 100}, "states": \(states), "transition": \(transition)}
      """
    return #expect(throws: GlassError.self) { try Scene(json: Array(text.utf8)) }
  }

  @Test("bad animation input is one line naming its JSON path")
  func badInput() throws {
    let states = #"{"a": {"layers": []}, "b": {"layers": []}}"#
    let cases: [(String, String, String, String)] = [
      (states, #"{"from": "a", "to": "c"}"#, "transition.to", "no state \"c\"; its states are a, b"),
      (
        states, #"{"from": "a", "to": "b", "animation": {"type": "spring", "duration": -1}}"#,
        "transition.animation.duration", "not positive"
      ),
      (
        states, #"{"from": "a", "to": "b", "animation": {"type": "spring", "bounce": 1.5}}"#,
        "transition.animation.bounce", "greater than -1 and less than 1"
      ),
      (
        states, #"{"from": "a", "to": "b", "animation": "wobbly"}"#, "transition.animation",
        "unknown animation \"wobbly\""
      ),
      (
        #"{"a": {"layers": [{"type": "glassContainer", "glass": [{"frame": {"width": 9, "height": 9}, "glassEffectID": "x"}, {"frame": {"width": 9, "height": 9}, "glassEffectID": "x"}]}]}}"#,
        #"{"from": "a", "to": "a"}"#, "states.a.layers[0].glass[1].glassEffectID", "a second glass with the id"
      ),
      (
        #"{"a": {"layers": [{"type": "glass", "frame": {"width": 9, "height": 9}, "glassEffectTransition": "fade"}]}}"#,
        #"{"from": "a", "to": "a"}"#, "states.a.layers[0].glassEffectTransition", "unknown glass effect transition"
      ),
    ]
    for (states, transition, path, text) in cases {
      let error = Self.error(states, transition)
      #expect(error?.jsonPath == path, "\(String(describing: error))")
      #expect(error?.message.contains(text) == true, "\(String(describing: error))")
      #expect(error?.description.contains("\n") == false)
    }
    // Layers that do not pair: an error when a frame is asked for.
    var scene = Self.morph()
    scene.states[1].layers.append(
      .shape(ShapeLayer(shape: .rect, frame: PointRect(x: 0, y: 0, width: 9, height: 9), fill: .color(.red))))
    let mismatch = #expect(throws: GlassError.self) { try scene.frame(at: 0.1) }
    #expect(mismatch?.jsonPath == "states.expanded.layers", "\(String(describing: mismatch))")
  }

  @Test("glass-gpu animate writes the frames and checks its options; render --state and --time render one moment")
  func commandLine() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = Self.morph(animation: .linear(duration: 0.1))
    scene.scale = 1
    scene.background = .fill(.color(.teal))
    for (name, image) in Self.images where name != "photo" {
      try Data(PNGCodec.encode(image)).write(to: folder.appendingPathComponent(name))
    }
    let path = folder.appendingPathComponent("morph.json").path
    try scene.json.write(toFile: path, atomically: true, encoding: .utf8)
    let frames = folder.appendingPathComponent("frames").path
    let run = try runCLI(["animate", path, "-o", frames, "--fps", "30", "--backend", "cpu"])
    #expect(run.status == 0, "\(run.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
    #expect(written == (0...3).map { String(format: "frame-%04d.png", $0) }, "\(written)")
    // The last frame is the second state as render --state draws it.
    let state = folder.appendingPathComponent("expanded.png").path
    #expect(try runCLI(["render", path, "--state", "expanded", "-o", state, "--backend", "cpu"]).status == 0)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: state))
        == Data(contentsOf: URL(fileURLWithPath: frames + "/frame-0003.png")))
    let moment = folder.appendingPathComponent("moment.png").path
    #expect(try runCLI(["render", path, "--time", "0.05", "-o", moment, "--backend", "cpu"]).status == 0)
    // Bad options: one line each, exit 1 or 64, no frames.
    let zero = try runCLI(["animate", path, "-o", frames + "2", "--fps", "0"])
    #expect(zero.status != 0 && zero.stderr.contains("--fps is 0"), "\(zero.stderr)")
    let unknown = try runCLI(["render", path, "--state", "open", "-o", moment + "2"])
    #expect(unknown.status == 1 && unknown.stderr.contains("no state \"open\""), "\(unknown.stderr)")
    let bounce = try runCLI(["animate", path, "-o", frames + "3", "--animation", #"{"type": "spring", "bounce": -2}"#])
    #expect(bounce.status == 1 && bounce.stderr.contains("bounce"), "\(bounce.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: frames + "2") && !FileManager.default.fileExists(atPath: moment + "2"))
  }

  /// A bouncy spring overshoots its second state: values at the ends of their
  /// ranges (a frame at the edge of ±65536 pt, radii of 100000 pt, spacing and
  /// padding of 10000 pt, gradient points at ±10) would be carried past them, and
  /// `animate` refused a frame of a scene `validate` accepted (found by fuzz-scene).
  @Test("every moment of a spring overshooting values at the ends of their ranges validates")
  func overshootStaysInRange() throws {
    let small = """
      {"type": "shape", "shape": {"type": "roundedRect", "cornerRadius": 1}, "frame": {"x": 0, "y": 0, "width": 9, "height": 9},
       "fill": {"linearGradient": {"colors": ["red", "blue"], "startPoint": {"x": 0, "y": 0}, "endPoint": {"x": 1, "y": 1}}}},
      {"type": "shape", "shape": {"type": "unevenRoundedRect", "topLeading": 1}, "frame": {"x": 0, "y": 0, "width": 9, "height": 9},
       "fill": {"radialGradient": {"colors": ["red", "blue"], "startRadius": 1, "endRadius": 2}}},
      {"type": "glassContainer", "spacing": 1, "glass": [{"frame": {"x": 0, "y": 0, "width": 9, "height": 9},
       "content": {"text": "Go", "padding": 1}, "glassEffectID": "g"}]},
      {"type": "text", "text": "Go", "frame": {"x": 0, "y": 0, "width": 9, "height": 9}}
      """
    let ends = """
      {"type": "shape", "shape": {"type": "roundedRect", "cornerRadius": 100000}, "frame": {"x": 65536, "y": -65536, "width": 65536, "height": 65536},
       "fill": {"linearGradient": {"colors": ["red", "blue"], "startPoint": {"x": -10, "y": 10}, "endPoint": {"x": 10, "y": -10}}}},
      {"type": "shape", "shape": {"type": "unevenRoundedRect", "topLeading": 100000}, "frame": {"x": -65536, "y": 65536, "width": 0, "height": 0},
       "fill": {"radialGradient": {"colors": ["red", "blue"], "startRadius": 100000, "endRadius": 100000}}},
      {"type": "glassContainer", "spacing": 10000, "glass": [{"frame": {"x": 65536, "y": 65536, "width": 65536, "height": 65536},
       "content": {"text": "Go", "padding": 10000}, "glassEffectID": "g"}]},
      {"type": "text", "text": "Go", "frame": {"x": -65536, "y": -65536, "width": 65536, "height": 65536}}
      """
    let json = """
      {"version": 1, "size": {"width": 40, "height": 30},
       "states": {"small": {"layers": [\(small)]}, "ends": {"layers": [\(ends)]}},
       "transition": {"from": "small", "to": "ends", "animation": {"type": "spring", "duration": 0.4, "bounce": 0.9}}}
      """
    let scene = try Scene(json: Array(json.utf8))
    let back = SceneTransition(from: "ends", to: "small", animation: .spring(duration: 0.4, bounce: 0.9))
    for transition in [try #require(scene.transition), back] {
      var refused: [String] = []
      for i in 0..<Scene.frameCount(of: transition, fps: 60) {
        do {
          try scene.frame(at: Double(i) / 60, of: transition).validate()
        } catch {
          refused.append("\(transition.from) to \(transition.to), frame \(i): \(error)")
        }
      }
      #expect(refused.isEmpty, "\(refused.count) frames refused, the first: \(refused.first ?? "")")
    }
  }
}
