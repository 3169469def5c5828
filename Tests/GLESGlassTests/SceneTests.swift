import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The demo scenes in Assets/scenes, and how tests render them.
enum DemoScenes {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets/scenes")
  static let names = [
    "landmarks", "badges", "capsules", "material", "concentric", "signin", "blend", "union", "morph", "hello",
    "layout-signin", "layout-badges", "layout-badge-column", "layout-custom-views",
  ]

  static func path(_ name: String) -> String { folder.appendingPathComponent("\(name).json").path }

  /// Every scene file in Assets/scenes, by name: what `scripts/demo.sh` renders,
  /// and more (a file added there is in this list without anyone adding it).
  static let all: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }()

  /// One render of a demo scene: the file as it is, or one of its states.
  struct Render: Sendable, CustomTestStringConvertible {
    var name: String
    var state: String?

    var testDescription: String { state.map { "\(name), state \($0)" } ?? name }
  }

  /// Every scene file as it is, and each of its states.
  static let renders: [Render] = all.flatMap { name -> [Render] in
    let states = (try? SceneFile(path: path(name)).scene.states.map(\.name)) ?? []
    return [Render(name: name)] + states.map { Render(name: name, state: $0) }
  }

  /// `render` at the scene's own scale, with the images it names, as `glass-gpu
  /// render` and `parity` render it (`--state`).
  static func scene(_ render: Render) throws -> (scene: Scene, images: SceneImages) {
    var file = try SceneFile(path: path(render.name))
    if let state = render.state { file = SceneFile(scene: try file.scene.state(state), directory: file.directory) }
    return (file.scene, try file.loadImages())
  }

  /// The scene and its images; tests render at scale 1 to stay quick (nil: the
  /// scene's own scale, as `glass-gpu render` and `make demo` render it).
  static func load(_ name: String, scale: Int? = 1) throws -> (scene: Scene, images: SceneImages) {
    var file = try SceneFile(path: path(name))
    if let scale { file.scene.scale = scale }
    return (file.scene, try file.loadImages())
  }
}

@Suite("Scene format")
struct SceneFormatTests {
  @Test("every demo scene reads, writes and reads back the same value", arguments: DemoScenes.names)
  func roundTrip(name: String) throws {
    let scene = try SceneFile(path: DemoScenes.path(name)).scene
    let again = try Scene(json: Array(scene.json.utf8))
    #expect(again == scene)
    #expect(again.json == scene.json)
  }

  @Test("JSON on one line reads back as the same value, with no line break or space outside strings")
  func compactText() throws {
    let text =
      #"{"a": [1, 2.5, -0.001, 1e300], "b": {"c": "line\nbreak \"quoted\" \\ tab\t\u0001", "d": null}, "#
      + #""e": [true, false, {}, []]}"#
    let value = try JSONValue.parse(Array(text.utf8))
    let line = value.compactText
    #expect(try JSONValue.parse(Array(line.utf8)) == value)
    #expect(!line.contains("\n") && !line.contains("\t"))
    // The three spaces of the string only.
    #expect(line.filter { $0 == " " }.count == 3, "\(line)")
    #expect(line.hasPrefix(#"{"a":[1,2.5,-0.001,1e+300],"b":{"c":"line\nbreak"#), "\(line)")
  }

  @Test("the Swift API builds the same value as the JSON")
  func swiftAPI() throws {
    let json = try SceneFile(path: DemoScenes.path("badges")).scene
    func badge(_ icon: String, y: Double) -> GlassEffectElement {
      Image("../icons/\(icon).png").padding(18).frame(x: 296, y: y, width: 80, height: 80)
        .glassEffect(.regular, in: .rect(cornerRadius: 18, style: .continuous))
    }
    let built = Scene(width: 400, height: 560, scale: 2, background: .image("../flowers.png", contentMode: .fill)) {
      GlassEffectContainer(spacing: 16) {
        badge("star", y: 40)
        badge("heart", y: 132)
        badge("bolt", y: 224)
        badge("mountain", y: 316)
        Image("../icons/plus.png").padding(16).frame(x: 304, y: 440, width: 64, height: 64)
          .glassEffect(.regular.interactive(), in: .circle)
      }
    }
    #expect(built == json)
    #expect(try Scene(json: Array(built.json.utf8)) == json)
  }

  @Test("modifiers build the layers they name")
  func modifiers() {
    let scene = Scene(width: 100, height: 100) {
      Image("a.png").frame(x: 0, y: 0, width: 100, height: 50).backgroundExtensionEffect(top: 10, sigma: 4)
      RoundedRectangle(cornerRadius: 8).fill(.blue).frame(x: 10, y: 10, width: 40, height: 20)
        .background(.ultraThinMaterial, in: .rect(cornerRadius: 8))
      Color.clear.frame(x: 0, y: 60, width: 100, height: 30).glassEffect(.clear.tint(.orange), in: .capsule)
    }
    #expect(scene.layers.count == 4)
    guard case .image(let image) = scene.layers[0], case .material(let material) = scene.layers[1],
      case .shape = scene.layers[2], case .glass(let glass) = scene.layers[3]
    else {
      Issue.record("unexpected layers \(scene.layers)")
      return
    }
    #expect(image.backgroundExtension == BackgroundExtension(top: 10, sigma: 4))
    #expect(material.material == .ultraThin)
    #expect(glass.glass.tint == .orange && glass.glass.variant == .clear && glass.content == nil)
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var mentions: [String]
    var testDescription: String { name }
  }

  static let base = SceneJSON.scene(width: 100, height: 80, layers: "LAYER")
  static func with(_ layer: String) -> String { base.replacingOccurrences(of: "LAYER", with: layer) }

  static let bad: [Bad] = [
    Bad(
      name: "unknown field",
      json: with(#"{"type": "shape", "frame": {"width": 10, "height": 10}, "fill": "red", "colour": 1}"#),
      mentions: ["layers[0].colour", "unknown field"]),
    Bad(
      name: "wrong type", json: with(#"{"type": "shape", "frame": {"width": "ten", "height": 10}, "fill": "red"}"#),
      mentions: ["layers[0].frame.width", "expected a number, found a string"]),
    Bad(
      name: "negative size", json: with(#"{"type": "glass", "frame": {"width": -10, "height": 10}}"#),
      mentions: ["layers[0].frame.width", "negative"]),
    Bad(
      name: "negative canvas", json: #"{"version": 1, "size": {"width": -5, "height": 80}}"#,
      mentions: ["size.width"]),
    Bad(
      name: "unknown material",
      json: with(#"{"type": "material", "material": "frosted", "frame": {"width": 10, "height": 10}}"#),
      mentions: ["layers[0].material", "unknown material \"frosted\"", "ultraThin"]),
    Bad(
      name: "unknown variant",
      json: with(#"{"type": "glass", "glass": "shiny", "frame": {"width": 10, "height": 10}}"#),
      mentions: ["layers[0].glass", "unknown glass variant \"shiny\"", "regular"]),
    Bad(
      name: "unknown optic",
      json: with(#"{"type": "glass", "frame": {"width": 10, "height": 10}, "optics": {"blur": 3}}"#),
      mentions: ["layers[0].optics.blur", "unknown field", "frost"]),
    Bad(
      name: "optic out of range",
      json: with(#"{"type": "glass", "frame": {"width": 10, "height": 10}, "optics": {"saturation": 9}}"#),
      mentions: ["layers[0].optics.saturation", "out of range"]),
    Bad(
      name: "concentric without container",
      json: with(#"{"type": "glass", "shape": {"type": "concentricRectangle"}, "frame": {"width": 10, "height": 10}}"#),
      mentions: ["layers[0].shape", "containerShape"]),
    Bad(name: "not JSON", json: #"{"version": 1,"#, mentions: ["line 1:15: "]),
    Bad(name: "wrong version", json: #"{"version": 2, "size": {"width": 1, "height": 1}}"#, mentions: ["version"]),
  ]

  @Test("a bad scene fails with its JSON path", arguments: bad)
  func badScene(_ bad: Bad) {
    do {
      _ = try Scene(json: Array(bad.json.utf8))
      Issue.record("\(bad.name) was accepted")
    } catch let error as GlassError {
      #expect(error.code == .invalidScene)
      for word in bad.mentions {
        #expect(error.description.contains(word), "\(error) does not mention \(word)")
      }
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }
}

@Suite("Scene rendering")
struct SceneRenderingTests {
  static let backdrop = ProceduralImages.landscape(width: 64, height: 48)

  /// A small scene with a photo, a fill and `glass` layers added.
  static func scene(_ extra: [Layer]) -> Scene {
    var scene = Scene(
      size: PointSize(width: 64, height: 48), scale: 1,
      background: .fill(.linearGradient(Gradient(colors: [.red, .blue]), startPoint: .top, endPoint: .bottom)))
    scene.layers =
      [
        .image(ImageLayer(source: "photo", frame: PointRect(x: 0, y: 0, width: 40, height: 48))),
        .shape(
          ShapeLayer(shape: .circle, frame: PointRect(x: 30, y: 10, width: 30, height: 30), fill: .color(.yellow))),
      ] + extra
    return scene
  }

  static let identity: [Layer] = [
    .glass(GlassLayer(glass: .identity, shape: .capsule, frame: PointRect(x: 8, y: 8, width: 40, height: 20))),
    .container(
      GlassContainer(
        spacing: 10,
        glass: [
          GlassLayer(glass: .identity, frame: PointRect(x: 4, y: 30, width: 20, height: 12)),
          GlassLayer(
            glass: Glass.identity.interactive(pressed: true), frame: PointRect(x: 30, y: 30, width: 20, height: 12)),
        ])),
  ]

  @Test("identity glass renders byte-identical to no glass (CPU)")
  func identityCPU() throws { try checkIdentity(.cpu) }

  @Test(
    "identity glass renders byte-identical to no glass (GPU)", .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func identityGPU() throws { try checkIdentity(.gpu) }

  func checkIdentity(_ backend: TestBackend) throws {
    let images = ["photo": Self.backdrop]
    let plain = try backend.render(Self.scene([]), images: images)
    let with = try backend.render(Self.scene(Self.identity), images: images)
    #expect(plain.samples == with.samples)
    // The same place with regular glass is not identical: the test can fail.
    let glass = Self.identity.map { layer -> Layer in
      guard case .glass(var g) = layer else { return layer }
      g.glass = .regular
      return .glass(g)
    }
    #expect(try backend.render(Self.scene(glass), images: images).samples != plain.samples)
  }

  @Test(
    "GPU and CPU agree on every demo scene and state at its own scale: 1/255 at most, no pixel over",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason),
    arguments: DemoScenes.renders)
  func parity(name: DemoScenes.Render) throws {
    let (scene, images) = try DemoScenes.scene(name)
    let gpu = try TestBackend.gpu.render(scene, images: images)
    let cpu = try TestBackend.cpu.render(scene, images: images)
    Self.demoBar.check(try ImageComparison(gpu, cpu), "scene parity \(name.testDescription)")
  }

  /// The demo scenes' parity is every Assets/scenes file and every state
  /// `scripts/demo.sh` renders (it compares them with `glass-gpu compare`).
  @Test("the demo parity covers every scene and state scripts/demo.sh renders")
  func paritySeesTheDemo() throws {
    let script = try String(
      contentsOf: DemoScenes.folder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/demo.sh"), encoding: .utf8)
    let list = try #require(script.firstMatch(of: /scenes=\(([^)]*)\)/), "demo.sh lists its scenes")
    let listed = list.1.split(whereSeparator: \.isWhitespace).map(String.init)
    #expect(listed.count >= 10, "\(listed)")
    for name in listed {
      #expect(DemoScenes.renders.contains { $0.name == name && $0.state == nil }, "demo.sh renders \(name)")
    }
    let states = script.matches(of: /Assets\/scenes\/([\w-]+)\.json --state (\w+)/)
    #expect(!states.isEmpty)
    for match in states {
      let render = DemoScenes.Render(name: String(match.1), state: String(match.2))
      #expect(
        DemoScenes.renders.contains { $0.name == render.name && $0.state == render.state },
        "demo.sh renders \(render.testDescription)")
    }
  }

  /// What the README states (Accuracy and parity, and `make demo`'s sample): on
  /// every demo scene and state, at its own scale, no channel off by more than
  /// 1/255, so no pixel over 1/255. What bounds it: both backends compute in float
  /// and round what they store once, to the nearest binary16 (`Half.round`;
  /// `common.glsl` roundToHalf, BLEND_OVER), so their passes part only where two
  /// floats fall on either side of a rounding boundary (`PassParityTests`), and an
  /// 8-bit code only where the encoded value lies that close to a code's edge. For
  /// an error under one step on every pixel, PSNR >= 80 dB and no channel's mean
  /// off by more than 0.01/255: measured on llvmpipe 83.09 dB at the least
  /// (glass-looks) and 0.0001/255 at the most; before the GPU rounded as the CPU
  /// does, 60.6 to 65.6 dB, and the README's bar failed on concentric and signin
  /// (2/255, 482 and 305 pixels over 1/255).
  static let demoBar = ParityBar(maxDifference: 1, fractionOverOne: 0, minimumPSNR: 80, maximumMeanBias: 0.01)

  /// The scene parity bar of the issue (3/255, 0.1 % of pixels over 1/255), and
  /// for an error under one step on every pixel PSNR >= 58 dB and no channel's mean
  /// off by more than 0.2/255. Measured on the demo scenes (llvmpipe): PSNR 60.87
  /// dB at the least (concentric), mean bias 0.105/255 at the most (its green);
  /// an 8-bit encode biased by 0.45/255 gives 52.2 to 53.9 dB and 0.36 to
  /// 0.62/255: every scene fails.
  static let bar = ParityBar(maxDifference: 3, minimumPSNR: 58, maximumMeanBias: 0.2)

  @Test("glass changes its backdrop where it is, and nothing far from it")
  func glassIsLocal() throws {
    let images = ["photo": Self.backdrop]
    let plain = try TestBackend.cpu.render(Self.scene([]), images: images)
    let frame = PointRect(x: 10, y: 10, width: 30, height: 16)
    func glass(_ optics: [String: Double]) throws -> RGBAImage {
      let layer = Layer.glass(
        GlassLayer(glass: .regular, shape: .capsule, frame: frame, optics: GlassOptics.Overrides(optics)))
      return try TestBackend.cpu.render(Self.scene([layer]), images: images)
    }
    // Without its shadow and contour, glass draws only where the capsule covers
    // a pixel: the changed pixels lie within its bounds (x 10 ..< 40, y 10 ..< 26),
    // and nearly every pixel well inside it changed.
    let bare = try glass(["shadowOpacity": 0, "contourOpacity": 0])
    var outside: [String] = []
    var inside = 0
    var changedInside = 0
    for y in 0..<plain.height {
      for x in 0..<plain.width {
        let changed = plain.pixel16(x: x, y: y) != bare.pixel16(x: x, y: y)
        let within = x >= 10 && x < 40 && y >= 10 && y < 26
        if changed && !within { outside.append("(\(x), \(y))") }
        // Pixels whose centre is 1.5 px or more inside the capsule (radius 8).
        let cx = min(max(Double(x) + 0.5, 18), 32)
        let d = hypot(Double(x) + 0.5 - cx, Double(y) + 0.5 - 18)
        if d <= 6.5 {
          inside += 1
          if changed { changedInside += 1 }
        }
      }
    }
    #expect(outside.isEmpty, "changed outside the capsule: \(outside.prefix(6))")
    #expect(inside > 250 && changedInside * 100 >= inside * 95, "\(changedInside) of \(inside) changed inside")
    // Its contour (0.75 pt) changes the pixels of the ring just outside it, and
    // no others.
    let contoured = try glass(["shadowOpacity": 0])
    var ring = 0
    for y in 0..<plain.height {
      for x in 0..<plain.width where plain.pixel16(x: x, y: y) != contoured.pixel16(x: x, y: y) {
        let within = x >= 9 && x < 41 && y >= 9 && y < 27
        #expect(within, "the contour reaches (\(x), \(y))")
        if within && !(x >= 10 && x < 40 && y >= 10 && y < 26) { ring += 1 }
      }
    }
    #expect(ring > 40, "\(ring) pixels of the ring changed")
    // With a shadow of sigma 8 px, 6 px down, opacity 0.14, the row just under
    // the capsule darkens; pixels farther than 3 sigma from the shadow's shape
    // (where it darkens by under 0.02 %) keep their 8-bit values.
    let shadowed = try glass(["shadowRadius": 16, "shadowOffsetY": 6, "shadowOpacity": 0.14])
    for x in 18..<32 {
      let before = plain.rgba8(x, 27)
      let after = shadowed.rgba8(x, 27)
      #expect(after[0] + after[1] + after[2] < before[0] + before[1] + before[2], "no shadow at (\(x), 27)")
    }
    var far: [String] = []
    var farCount = 0
    for y in 0..<plain.height {
      for x in 0..<plain.width {
        let cx = min(max(Double(x) + 0.5, 18), 32)
        guard hypot(Double(x) + 0.5 - cx, Double(y) + 0.5 - 24) - 8 > 24 else { continue }
        farCount += 1
        if plain.pixel16(x: x, y: y) != shadowed.pixel16(x: x, y: y) { far.append("(\(x), \(y))") }
      }
    }
    #expect(farCount >= 20, "\(farCount) pixels beyond the shadow's reach")
    #expect(far.isEmpty, "changed beyond the shadow's reach: \(far.prefix(6))")
  }
}

/// Each demo scene at scale 1, rendered by the CPU backend, kept as a golden;
/// the CPU must match it exactly and the GPU within the parity bar. Record missing
/// ones with `GLASS_GPU_RECORD_GOLDENS=1 swift test --filter SceneGoldenTests`.
@Suite("Scene goldens")
struct SceneGoldenTests {
  @Test("the CPU renders each demo scene exactly as its golden", arguments: DemoScenes.names)
  func cpu(name: String) throws { try check(name, on: .cpu) }

  @Test(
    "the GPU renders each demo scene within the parity bar of its golden",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: DemoScenes.names)
  func gpu(name: String) throws { try check(name, on: .gpu) }

  func check(_ name: String, on backend: TestBackend) throws {
    let (scene, images) = try DemoScenes.load(name)
    let output = try backend.render(scene, images: images)
    // The CPU rendered the golden; the GPU is held to the scene parity bar.
    try backend.checkGolden(output, "scene-\(name)", bar: SceneRenderingTests.bar, filter: "SceneGoldenTests")
  }
}

@Suite("Scene command line")
struct SceneCLITests {
  /// A folder with a scene file and a PNG beside it.
  static func folder(_ scene: String) throws -> URL {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("glass-gpu-scene-\(UUID())")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("images/folder.png"), withIntermediateDirectories: true)
    try PNGCodec.write(
      ProceduralImages.gradient(width: 16, height: 12), to: folder.appendingPathComponent("images/ok.png").path)
    try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
    return folder
  }

  static func scene(image: String) -> String {
    SceneJSON.scene(
      width: 40, height: 30, scale: 1,
      layers: #"{"type": "image", "source": "IMAGE", "frame": {"width": 20, "height": 20}}"#
    )
    .replacingOccurrences(of: "IMAGE", with: image)
  }

  @Test("render writes the PNG; validate and parity report", arguments: ["cpu", "auto"])
  func good(backend: String) throws {
    let folder = try Self.folder(Self.scene(image: "images/ok.png"))
    let out = folder.appendingPathComponent("out.png").path
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", out, "--backend", backend, "--scale", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // The file holds the library's render of the scene at scale 2: exactly the
    // CPU's, or within the parity bar where auto found a GPU.
    let written = try PNGCodec.read(path: out).image
    #expect(written.size == PixelSize(width: 80, height: 60))
    var file = try SceneFile(path: folder.appendingPathComponent("scene.json").path)
    file.scene.scale = 2
    let expected = try TestBackend.cpu.render(file.scene, images: try file.loadImages())
    if backend == "cpu" {
      let same = written == expected  // not inside #expect: it would print every sample
      #expect(same, "render --backend cpu wrote other pixels than the library's CPU render")
    } else {
      SceneRenderingTests.bar.check(try ImageComparison(written, expected), "render --backend auto")
    }
    let validate = try runCLI(["validate", folder.appendingPathComponent("scene.json").path])
    #expect(validate.status == 0 && validate.stdout.contains("valid, 40x30 pixels"))
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    var name: String
    var scene: String
    var mentions: [String]
    var testDescription: String { name }
  }

  static let bad: [Bad] = [
    Bad(
      name: "missing image", scene: scene(image: "images/nope.png"),
      mentions: ["layers[0].source", "nope.png", "no such file"]),
    Bad(
      name: "image path is a folder", scene: scene(image: "images/folder.png"),
      mentions: ["layers[0].source", "is a folder"]),
    Bad(
      name: "unknown field", scene: #"{"version": 1, "size": {"width": 4, "height": 3}, "colour": "red"}"#,
      mentions: ["scene.json", "colour", "unknown field"]),
    Bad(
      name: "wrong type", scene: #"{"version": 1, "size": {"width": "4", "height": 3}}"#,
      mentions: ["size.width", "expected a number"]),
    Bad(
      name: "negative size",
      scene:
        SceneJSON.scene(width: 4, height: 3, layers: #"{"type": "glass", "frame": {"width": 2, "height": -1}}"#),
      mentions: ["layers[0].frame.height", "negative"]),
    Bad(
      name: "unknown material",
      scene:
        SceneJSON.scene(
          width: 4, height: 3,
          layers: #"{"type": "material", "material": "thinnest", "frame": {"width": 2, "height": 1}}"#),
      mentions: ["layers[0].material", "thinnest"]),
    Bad(
      name: "unknown variant",
      scene:
        SceneJSON.scene(
          width: 4, height: 3,
          layers: #"{"type": "glass", "glass": {"variant": "frosted"}, "frame": {"width": 2, "height": 1}}"#),
      mentions: ["layers[0].glass.variant", "frosted"]),
  ]

  @Test("a bad scene: one line naming the JSON path, exit 1, no output", arguments: bad)
  func badScene(_ bad: Bad) throws {
    let folder = try Self.folder(bad.scene)
    let scene = folder.appendingPathComponent("scene.json").path
    for command in [
      ["render", scene, "-o", folder.appendingPathComponent("out.png").path, "--backend", "cpu"], ["validate", scene],
    ] {
      let before = files(in: folder)
      let result = try runCLI(command)
      #expect(result.status == 1, "\(command[0]): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(result.stderr)")
      for word in bad.mentions { #expect(result.stderr.contains(word), "\(result.stderr) lacks \(word)") }
      #expect(files(in: folder) == before, "left a file behind")
    }
  }
}

@Suite("Scene schema")
struct SceneSchemaTests {
  static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/scene.schema.json")

  /// The schema is written by hand: its optics must be the table's, with the same ranges.
  @Test("the JSON Schema lists every optical parameter with the table's range")
  func opticsMatchTheTable() throws {
    let root = try JSONValue.parse(Array(try Data(contentsOf: Self.schema)))
    func member(_ value: JSONValue, _ key: String) -> JSONValue? {
      if case .object(let members) = value { return members.first { $0.key == key }?.value }
      return nil
    }
    guard let defs = member(root, "$defs"), let optics = member(defs, "optics"),
      case .object(let properties)? = member(optics, "properties")
    else {
      Issue.record("no $defs.optics.properties in \(Self.schema.path)")
      return
    }
    #expect(properties.map(\.key).sorted() == GlassOptics.parameterTable.map(\.name).sorted())
    for spec in GlassOptics.parameterTable {
      guard let property = properties.first(where: { $0.key == spec.name })?.value else { continue }
      #expect(member(property, "minimum") == .number(spec.minimum), "\(spec.name) minimum")
      #expect(member(property, "maximum") == .number(spec.maximum), "\(spec.name) maximum")
    }
  }

  /// docs/scene-format.md's table of optics is the table in the code, row for row.
  @Test("the documented optics table is GlassOptics.entries")
  func documentedTable() throws {
    let doc = Self.schema.deletingLastPathComponent().appendingPathComponent("scene-format.md")
    let text = try String(contentsOf: doc, encoding: .utf8)
    var rows: [String: [String]] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells
    }
    for spec in GlassOptics.parameterTable {
      guard let row = rows[spec.name], row.count >= 5, let defaults = GlassOptics.defaults(spec.name) else {
        Issue.record("\(spec.name) is not in the table of \(doc.path)")
        continue
      }
      let f = { (v: Double) in ParameterSpec.format(v) }
      #expect(row[1] == spec.unit, "\(spec.name) unit")
      #expect(row[2] == "\(f(spec.minimum)) … \(f(spec.maximum))", "\(spec.name) range")
      #expect(row[3] == f(defaults.regular) && row[4] == f(defaults.clear), "\(spec.name) defaults")
    }
  }

  /// The hand-written schema names what the reader takes for states and
  /// transitions: it cannot drift without this failing.
  @Test("the JSON Schema has the animation fields the reader takes, with the same names")
  func animationFields() throws {
    let root = try JSONValue.parse(Array(try Data(contentsOf: Self.schema)))
    func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
      if case .object(let members)? = value { return members.first { $0.key == key }?.value }
      return nil
    }
    func keys(_ value: JSONValue?) -> [String] {
      if case .object(let members)? = value { return members.map(\.key).sorted() }
      return []
    }
    let top = member(root, "properties")
    #expect(keys(member(member(top, "transition"), "properties")) == ["animation", "from", "to"])
    // A state has layers, a view tree or both (SceneFormat writes this part).
    #expect(keys(member(member(member(top, "states"), "additionalProperties"), "properties")) == ["body", "layers"])
    let curve = member(member(root, "$defs"), "animation")
    guard case .array(let forms)? = member(curve, "oneOf"), let names = member(forms.first, "enum") else {
      Issue.record("no $defs.animation.oneOf[0].enum")
      return
    }
    // Every curve the schema names reads, and one it does not name is refused.
    guard case .array(let list) = names else { return }
    for case .string(let name) in list {
      let json =
        #"{"version": 1, "size": {"width": 4, "height": 4}, "states": {"a": {"layers": []}, "b": {"layers": []}}, "transition": {"from": "a", "to": "b", "animation": "NAME"}}"#
      #expect(throws: Never.self) { try Scene(json: Array(json.replacingOccurrences(of: "NAME", with: name).utf8)) }
    }
    #expect(list.count == 9)
    for glass in ["glassLayer", "containedGlass"] {
      let properties = member(member(member(root, "$defs"), glass), "properties")
      #expect(
        keys(properties).contains("glassEffectID") && keys(properties).contains("glassEffectTransition"), "\(glass)")
      #expect(member(properties, "content") == .object([("$ref", .string("#/$defs/content"))]), "\(glass)")
      #expect(
        member(member(properties, "glassEffectTransition"), "enum")
          == .array(GlassEffectTransition.allCases.map { .string($0.rawValue) }), "\(glass)")
    }
  }

  /// The text vocabulary of the hand-written schema is the reader's: fields,
  /// styles, weights, icons, alignments and button styles.
  @Test("the JSON Schema has the text fields and names the reader takes")
  func textVocabulary() throws {
    let root = try JSONValue.parse(Array(try Data(contentsOf: Self.schema)))
    func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
      if case .object(let members)? = value { return members.first { $0.key == key }?.value }
      return nil
    }
    func keys(_ value: JSONValue?) -> [String] {
      if case .object(let members)? = value { return members.map(\.key).sorted() }
      return []
    }
    func strings(_ value: JSONValue?) -> [String] {
      guard case .array(let items)? = value else { return [] }
      return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }
    let defs = member(root, "$defs")
    // The format as docs/scene-format.md lists it, written out here, not taken from SceneFormat.
    let layerTypes = ["image", "shape", "material", "glass", "glassContainer", "text", "button"]
    let textFields = [
      "text", "systemImage", "font", "fontWeight", "foregroundStyle", "lineLimit", "multilineTextAlignment",
    ]
    let buttonFields = [
      "type", "title", "systemImage", "font", "fontWeight", "foregroundStyle", "buttonStyle", "tint", "frame",
    ]
    #expect(strings(member(member(member(member(defs, "layer"), "properties"), "type"), "enum")) == layerTypes)
    let text = member(member(defs, "textContent"), "properties")
    #expect(keys(text) == (textFields + ["padding", "opacity"]).sorted())
    #expect(keys(member(member(defs, "imageContent"), "properties")) == ["image", "opacity", "padding"])
    #expect(
      keys(member(member(defs, "textLayer"), "properties"))
        == (textFields + ["type", "frame", "opacity"]).sorted())
    #expect(keys(member(member(defs, "buttonLayer"), "properties")) == buttonFields.sorted())
    // A field may name a definition instead of writing it out.
    func resolved(_ value: JSONValue?) -> JSONValue? {
      guard case .string(let target)? = member(value, "$ref") else { return value }
      return member(defs, String(target.dropFirst("#/$defs/".count)))
    }
    let icons = strings(member(resolved(member(text, "systemImage")), "enum"))
    #expect(icons == SystemImage.systemNames.map(\.systemName))
    #expect(strings(member(member(text, "multilineTextAlignment"), "enum")) == TextAlignment.allCases.map(\.rawValue))
    guard case .array(let fontForms)? = member(member(defs, "font"), "oneOf") else {
      Issue.record("no $defs.font.oneOf")
      return
    }
    #expect(strings(member(fontForms.first, "enum")) == Font.styles.map(\.name))
    #expect(keys(member(fontForms.last, "properties")) == ["family", "file", "relativeTo", "size", "weight"])
    #expect(
      strings(member(member(member(fontForms.last, "properties"), "weight"), "enum"))
        == FontWeight.allCases.map(\.rawValue))
    #expect(strings(member(member(text, "fontWeight"), "enum")) == FontWeight.allCases.map(\.rawValue))
    #expect(
      strings(member(member(member(member(defs, "buttonLayer"), "properties"), "buttonStyle"), "enum"))
        == ButtonStyle.allCases.map(\.rawValue))
    // Every systemImage the schema names reads and draws.
    for name in icons {
      #expect(SystemImage.named(name) != nil, "\(name)")
    }
  }

  @Test("a colour is hex digits only")
  func hexDigits() {
    for text in ["#+fffff", "#-00000", "#12345g"] {
      #expect(throws: GlassError.self) {
        _ = try Scene(
          json: Array(
            SceneJSON.scene(width: 4, height: 4, background: "COLOR")
              .replacingOccurrences(of: "COLOR", with: text).utf8))
      }
    }
  }
}

/// Scenes an independent review found broken, kept as regressions: each renders,
/// agrees across backends, and shows what it should.
@Suite("Scene edge cases")
struct SceneEdgeCaseTests {
  /// The scene parity bar (3/255, 0.1 % over 1/255) with a lower PSNR floor, 53 dB,
  /// and a looser mean bias, 0.4/255: the extended image at scale 3 runs a blur
  /// of sigma 135 px down six pyramid levels, each rounding its binary16 taps down
  /// on llvmpipe (measured: 55.19 dB, mean bias 0.291/255; every other case 80 dB
  /// or more, or exact). An 8-bit encode biased by 0.45/255 gives 50.95 dB and
  /// 0.73/255 there, and fails two other cases.
  ///
  /// The mean bias is measured on 16-bit renders, the rest on 8-bit ones. Several
  /// cases are one flat colour over most of the canvas, and a flat colour that
  /// lies near the middle between two 8-bit steps turns a tiny difference into a
  /// whole step everywhere. On an NVIDIA H200 (driver 580.159.04), the glass of "huge
  /// glass mostly off the canvas" is green 129.549/255 on the CPU and 129.518 on
  /// llvmpipe, which both round to 130, but NVIDIA rounds it to 129: every glass
  /// pixel is one step off, an 8-bit bias of 0.5/255 over the canvas from a
  /// difference of about 0.05/255. A biased 8-bit encode is still caught by the
  /// demo scenes' parity (`SceneRenderingTests.parity`, mean bias 0.2/255 on 8-bit renders
  /// of varied colours).
  static let bar = ParityBar(maxDifference: 3, minimumPSNR: 53, maximumMeanBias: 0.4)

  static let photo = ProceduralImages.landscape(width: 40, height: 30)

  static func scene(_ json: String) throws -> Scene { try Scene(json: Array(json.utf8)) }

  static let cases: [(name: String, json: String)] = [
    (
      "glass under a later opaque full-width layer",
      ##"{"version":1,"size":{"width":100,"height":100},"scale":1,"background":"#ff0000","layers":[{"type":"glass","frame":{"x":20,"y":20,"width":60,"height":30}},{"type":"shape","frame":{"x":0,"y":0,"width":100,"height":100},"fill":"#0000ff"}]}"##
    ),
    (
      "an extended image of no width",
      ##"{"version":1,"size":{"width":100,"height":100},"scale":1,"background":"#ff0000","layers":[{"type":"image","source":"photo","frame":{"x":50,"y":0,"width":0.3,"height":50},"backgroundExtensionEffect":{"leading":50,"trailing":50}}]}"##
    ),
    (
      "a huge image frame mostly off the canvas",
      ##"{"version":1,"size":{"width":100,"height":100},"scale":1,"layers":[{"type":"image","source":"photo","frame":{"x":-30000,"y":-30000,"width":65536,"height":65536}}]}"##
    ),
    (
      "huge glass mostly off the canvas",
      ##"{"version":1,"size":{"width":400,"height":400},"scale":1,"background":"#ff8800","layers":[{"type":"glass","shape":"rect","frame":{"x":-6000,"y":-6000,"width":12400,"height":6200}}]}"##
    ),
    (
      "frosted glass on a transparent background",
      ##"{"version":1,"size":{"width":200,"height":20},"scale":1,"background":"clear","layers":[{"type":"shape","frame":{"width":20,"height":20},"fill":"#00ff00"},{"type":"glass","shape":"rect","frame":{"width":200,"height":20},"optics":{"frost":6,"shadowOpacity":0,"rimWidth":0,"lightening":0,"dimming":0,"bevelWidth":0}}]}"##
    ),
    (
      "an opaque image extended with a wide blur at scale 3",
      ##"{"version":1,"size":{"width":100,"height":80},"scale":3,"background":"white","layers":[{"type":"image","source":"photo","frame":{"x":20,"y":30,"width":30,"height":30},"backgroundExtensionEffect":{"leading":20,"trailing":50,"top":30,"bottom":20,"sigma":45}}]}"##
    ),
    (
      "a hairline on a pixel boundary",
      ##"{"version":1,"size":{"width":40,"height":40},"scale":1,"layers":[{"type":"shape","frame":{"x":4,"y":20,"width":30,"height":0.4},"fill":"black"}]}"##
    ),
    (
      "a canvas of a fractional width",
      ##"{"version":1,"size":{"width":40.7,"height":10},"scale":1,"background":"red"}"##
    ),
  ]

  @Test("renders on the CPU, at the scene's size, showing what it should", arguments: cases.map(\.name))
  func cpu(name: String) throws {
    let json = try #require(Self.cases.first { $0.name == name }).json
    let scene = try Self.scene(json)
    let image = try TestBackend.cpu.render(scene, images: ["photo": Self.photo])
    #expect(image.size == scene.pixelSize)
    Self.checkContent(name, image)
  }

  /// What each case must show. Colours are 8-bit RGBA.
  static func checkContent(_ name: String, _ image: RGBAImage) {
    let all = PixelRect(size: image.size)
    func rows(_ from: Int, _ to: Int) -> PixelRect { PixelRect(x: 0, y: from, width: image.width, height: to - from) }
    func expectAll(_ rect: PixelRect, _ what: String, _ test: (SIMD4<Int>) -> Bool) {
      let failing = image.pixels(in: rect, failing: test)
      #expect(failing.isEmpty, "\(name): \(what), but not at \(failing)")
    }
    let red = SIMD4(255, 0, 0, 255)
    let orange = SIMD4(255, 0x88, 0, 255)
    let white = SIMD4(255, 255, 255, 255)
    switch name {
    case "glass under a later opaque full-width layer":
      expectAll(all, "the opaque blue layer covers everything") { $0 == SIMD4(0, 0, 255, 255) }
    case "an extended image of no width":
      // 0.3 pt is no whole pixel: there is nothing to mirror, and the red
      // background shows everywhere, untouched.
      expectAll(all, "the red background everywhere") { $0 == red }
    case "a huge image frame mostly off the canvas":
      // 1/1638 of the photo, magnified: opaque, and nearly one colour.
      expectAll(all, "the photo covers the canvas") { $0[3] == 255 }
      let first = image.rgba8(0, 0)
      expectAll(all, "within 8/255 of one colour") { maxDifference($0, first) <= 8 }
    case "huge glass mostly off the canvas":
      // Glass over the top half: one colour across a row (a flat backdrop, no
      // edge in sight), not the backdrop's; the orange background untouched
      // below the glass and its shadow.
      let inside = image.rgba8(200, 100)
      #expect(inside != orange && inside[3] == 255, "\(name): glass at (200, 100) is \(inside)")
      expectAll(rows(100, 101), "one colour along the row") { $0 == inside }
      expectAll(rows(300, 400), "the background below") { $0 == orange }
    case "frosted glass on a transparent background":
      // The frost (sigma 6) spreads the green square (x < 20) to the right: pure
      // green whose alpha fades with distance; far from it nothing, not even a
      // colour under alpha 0 (the backdrop is transparent, the rim, lift and
      // shadow are off).
      expectAll(PixelRect(x: 0, y: 0, width: 12, height: 20), "opaque green") { $0 == SIMD4(0, 255, 0, 255) }
      let alphas = [12, 22, 26, 30, 34].map { image.rgba8($0, 10)[3] }
      #expect(zip(alphas, alphas.dropFirst()).allSatisfy { $0 > $1 }, "\(name): alpha \(alphas) does not fade")
      expectAll(PixelRect(x: 12, y: 0, width: 40, height: 20), "green, or nothing") {
        $0[3] == 0 ? $0 == .zero : ($0[0] == 0 && $0[1] == 255 && $0[2] == 0)
      }
      expectAll(PixelRect(x: 60, y: 0, width: 140, height: 20), "transparent") { $0 == .zero }
    case "an opaque image extended with a wide blur at scale 3":
      // The image and its extension cover the whole canvas (no white shows), and
      // the extension is smooth: sigma 135 px changes by under 2/255 per pixel.
      expectAll(all, "opaque and covered") { $0[3] == 255 && $0 != SIMD4(255, 255, 255, 255) }
      var steepest = 0
      for y in 0..<image.height {
        for x in 1..<60 { steepest = max(steepest, maxDifference(image.rgba8(x, y), image.rgba8(x - 1, y))) }
      }
      #expect(steepest <= 2, "\(name): the leading extension changes by \(steepest)/255 between neighbours")
    case "a hairline on a pixel boundary":
      // 0.4 px of black over x 4 ..< 34 on row 20, on the default white: 0.6 of
      // white in linear light, sRGB 203; white above and below.
      expectAll(PixelRect(x: 5, y: 20, width: 28, height: 1), "grey 203") { p in
        p[3] == 255 && (0..<3).allSatisfy { abs(p[$0] - 203) <= 1 }
      }
      expectAll(rows(0, 20), "white above") { $0 == white }
      expectAll(rows(21, 40), "white below") { $0 == white }
    case "a canvas of a fractional width":
      // The named red, #ff383c, opaque to the last (partial) column.
      expectAll(all, "red to the last column") { $0 == SIMD4(255, 0x38, 0x3c, 255) }
    default:
      Issue.record("no expectations for \(name)")
    }
  }

  @Test(
    "agrees with the GPU within the parity bar", .enabled(if: TestGPU.isAvailable, TestGPU.skipReason),
    arguments: cases.map(\.name))
  func parity(name: String) throws {
    let json = try #require(Self.cases.first { $0.name == name }).json
    let scene = try Self.scene(json)
    let images = ["photo": Self.photo]
    let cpu = try TestBackend.cpu.render(scene, images: images)
    let gpu = try TestBackend.gpu.render(scene, images: images)
    var comparison = try ImageComparison(gpu, cpu)
    comparison.meanDifference = try ImageComparison(
      TestBackend.gpu.render(scene, images: images, depth: .sixteen),
      TestBackend.cpu.render(scene, images: images, depth: .sixteen)
    ).meanDifference
    SceneEdgeCaseTests.bar.check(comparison, "edge case parity \(name) (mean bias at 16 bits)")
  }

  @Test("glass below an opaque layer still sees the background through its copy")
  func backgroundUnderGlass() throws {
    func render(_ alpha: String) throws -> RGBAImage {
      try TestBackend.cpu.render(
        try Self.scene(
          ##"{"version":1,"size":{"width":200,"height":200},"scale":1,"background":"#ff0000","layers":[{"type":"glass","shape":"rect","frame":{"x":20,"y":90,"width":160,"height":60},"optics":{"frost":20,"shadowOpacity":0}},{"type":"shape","frame":{"width":200,"height":100},"fill":"#0000ffAA"}]}"##
            .replacingOccurrences(of: "AA", with: alpha)))
    }
    // An opaque cover must not change what the glass sampled below it: every
    // pixel the cover leaves alone (rows 100 on) is the same with a cover of alpha
    // 254, which culls nothing; and the glass over the red background is red.
    let opaque = try render("ff")
    let translucent = try render("fe")
    var differ: [String] = []
    for y in 100..<200 {
      for x in 0..<200 where opaque.pixel16(x: x, y: y) != translucent.pixel16(x: x, y: y) {
        differ.append("(\(x), \(y))")
      }
    }
    #expect(differ.isEmpty, "\(differ.count) pixels differ, e.g. \(differ.prefix(4))")
    let glass = opaque.rgba8(100, 130)
    #expect(glass[0] > 128 && glass[0] > 2 * glass[2], "the glass at (100, 130) is \(glass), not red")
  }

  @Test("a fractional canvas is opaque to its last column; a hairline is drawn")
  func edges() throws {
    let frac = try TestBackend.cpu.render(try Self.scene(Self.cases[7].json))
    #expect(frac.width == 41 && frac.height == 10)
    Self.checkContent(Self.cases[7].name, frac)
    let hair = try TestBackend.cpu.render(try Self.scene(Self.cases[6].json))
    Self.checkContent(Self.cases[6].name, hair)
  }

  @Test("an extended image too large to fit is refused with its layer")
  func hugeExtension() throws {
    let scene = try Self.scene(
      ##"{"version":1,"size":{"width":100,"height":100},"scale":2,"layers":[{"type":"image","source":"photo","frame":{"x":-9000,"y":-9000,"width":20000,"height":20000},"backgroundExtensionEffect":{"leading":10}}]}"##
    )
    #expect {
      _ = try TestBackend.cpu.render(scene, images: ["photo": Self.photo])
    } throws: { error in
      guard let error = error as? GlassError else { return false }
      return error.code == .imageTooLarge && error.jsonPath == "layers[0].frame"
    }
  }

  @Test("scenes a reader must refuse, with the fix")
  func refused() {
    let bad = [
      (
        ##"{"version":1,"size":{"width":10,"height":10},"background":{"radialGradient":{"colors":["red","blue"],"startRadius":8,"endRadius":2}}}"##,
        "startRadius"
      ),
      (
        ##"{"version":1,"size":{"width":10,"height":10},"layers":[{"type":"image","source":"a.png","frame":{"width":5,"height":5},"clipShape":{"type":"concentricRectangle"}}]}"##,
        "no container shape"
      ),
      (
        ##"{"version":1,"size":{"width":10,"height":10},"layers":[{"type":"glass","shape":"roundedRect","frame":{"width":5,"height":5}}]}"##,
        "write it as an object"
      ),
    ]
    for (json, words) in bad {
      #expect {
        _ = try Scene(json: Array(json.utf8))
      } throws: { error in
        (error as? GlassError)?.message.contains(words) ?? false
      }
    }
  }
}
