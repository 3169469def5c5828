import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Text in scenes: frames sized to fit (against hb-shape's advances and the font
/// files' own metric tables), lines broken where greedy wrapping by hb-shape's
/// advances breaks them, labels and buttons, the Swift API against the scene
/// format, bad input with its JSON path, the automatic content colour (read from
/// the rendered pixels), ink inside its frame at every scale, a text scene on both
/// backends and against its golden, and glyphs rasterised once.
@Suite("Text: scenes")
struct TextSceneTests {
  /// The file fontconfig picks for `family` at `weight` (`fc-match -f '%{file}'`),
  /// as the library asks it for the system font and named families; the file's
  /// name must be the family's (so that a missing family fails here).
  static func fontFile(_ family: String, weight: String = "regular") throws -> String {
    let run = try TestProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["fc-match", "-f", "%{file}", "\(family):weight=\(weight)"])
    let path = run.stdout
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let stem = family.replacingOccurrences(of: " ", with: "")
    try #require(
      run.status == 0 && (name == stem || name.hasPrefix(stem + "-")),
      "fc-match picked \(path) for \(family)")
    return path
  }

  /// Inter (the system font under 20 pt), regular.
  static var inter: String { get throws { try fontFile("Inter") } }

  static func scene(
    _ layers: String, width: Int = 400, height: Int = 300, background: String? = nil, scale: Int = 2
  ) throws -> Scene {
    try Scene(
      json: Array(
        SceneJSON.scene(width: width, height: height, scale: scale, background: background, layers: layers).utf8)
    ).laidOut(images: SceneImages([:]))
  }

  /// hb-shape's advance of `text` in the font file at `points`, in points.
  static func advance(_ text: String, font: String, points: Double) throws -> Double {
    let metrics = try TextLayoutTests.typographicMetrics(font)
    return Double(try TextLayoutTests.hbAdvance(text, font: font)) * points / Double(metrics.upem)
  }

  /// The line height of the font file at `points`, from its own tables.
  static func lineHeight(font: String, points: Double) throws -> Double {
    let m = try TextLayoutTests.typographicMetrics(font)
    return Double(m.ascender - m.descender + m.lineGap) * points / Double(m.upem)
  }

  static func glassFrame(_ scene: Scene, _ index: Int = 0) throws -> PointRect {
    guard case .glass(let glass) = scene.layers[index] else { throw GlassError(.invalidScene, "not glass") }
    return glass.frame
  }

  @Test(
    "a frame that gives only a position is the shaped advance and the line height plus the padding, within 0.5 px",
    arguments: [
      ("Hello, World!", #""font": "title""#, 28.0, "Inter Display", "regular"),
      ("AVATAR", #""font": "largeTitle""#, 34, "Inter Display", "regular"),
      ("Hello, World!", #""font": "title", "fontWeight": "bold""#, 28, "Inter Display", "bold"),
      ("Sign In", #""font": "body""#, 17, "Inter", "regular"),
      ("Done", #""font": "headline""#, 17, "Inter", "semibold"),
      ("office fluffy", #""font": "caption""#, 12, "Inter", "regular"),
      // Its hhea line (1.164 em) is not its OS/2 typo line (1.2 em): it does not ask
      // for the typo metrics, so the hhea ones count (the reader follows fsSelection).
      ("Sign In", #""font": {"family": "DejaVu Sans", "size": 24}"#, 24, "DejaVu Sans", "regular"),
    ])
  func fitted(text: String, style: String, points: Double, family: String, weight: String) throws {
    let font = try Self.fontFile(family, weight: weight)
    for padding in [16.0, 5] {
      let scene = try Self.scene(
        #"{"type": "glass", "frame": {"x": 10, "y": 20}, "content": {"text": "\#(text)", \#(style), "padding": \#(padding)}}"#
      )
      let frame = try Self.glassFrame(scene)
      let width = try Self.advance(text, font: font, points: points) + 2 * padding
      let height = try Self.lineHeight(font: font, points: points) + 2 * padding
      // 0.5 px at scale 2 is 0.25 pt.
      #expect(abs(frame.width - width) <= 0.25, "\(text): width \(frame.width) pt against \(width)")
      #expect(abs(frame.height - height) <= 0.25, "\(text): height \(frame.height) pt against \(height)")
      #expect(frame.x == 10 && frame.y == 20)
    }
    // Without a padding in the file, SwiftUI's 16 pt.
    let plain = try Self.glassFrame(
      try Self.scene(#"{"type": "glass", "frame": {}, "content": {"text": "\#(text)", \#(style)}}"#))
    #expect(abs(plain.width - (try Self.advance(text, font: font, points: points) + 32)) <= 0.25)
  }

  @Test("a label is its icon (1.2 x the font size), a gap of 0.4 x the size and its text; height the larger")
  func label() throws {
    let scene = try Self.scene(
      #"{"type": "material", "material": "regular", "frame": {"x": 0, "y": 0}, "content": {"text": "Flag", "systemImage": "flag.fill", "padding": 10}}"#
    )
    guard case .material(let material) = scene.layers[0] else {
      Issue.record("not a material")
      return
    }
    let width = 1.2 * 17 + 0.4 * 17 + (try Self.advance("Flag", font: Self.inter, points: 17)) + 20
    let height = max(1.2 * 17, try Self.lineHeight(font: Self.inter, points: 17)) + 20
    #expect(abs(material.frame.width - width) <= 0.25, "\(material.frame.width) against \(width)")
    #expect(abs(material.frame.height - height) <= 0.25, "\(material.frame.height) against \(height)")
    // Inter's line (1.21 em) is taller than the icon (1.2 em); DejaVu Sans's (1.16
    // em, from its tables) is not, so its label is as tall as the icon.
    let dejaVu = try Self.fontFile("DejaVu Sans")
    let dejaVuLine = try Self.lineHeight(font: dejaVu, points: 30)
    try #require(dejaVuLine < 36, "DejaVu Sans's line at 30 pt: \(dejaVuLine)")
    let tall = try Self.glassFrame(
      try Self.scene(
        #"{"type": "glass", "frame": {}, "content": {"text": "Flag", "systemImage": "flag.fill", "font": {"family": "DejaVu Sans", "size": 30}, "padding": 0}}"#
      ))
    let tallWidth = 1.2 * 30 + 0.4 * 30 + (try Self.advance("Flag", font: dejaVu, points: 30))
    #expect(abs(tall.width - tallWidth) <= 0.25, "\(tall.width) against \(tallWidth)")
    #expect(abs(tall.height - 36) <= 0.25, "the icon's 36 pt, not the line's \(dejaVuLine): \(tall.height)")
    // An icon alone: a square of 1.2 x the font size.
    let icon = try Self.glassFrame(
      try Self.scene(
        #"{"type": "glass", "frame": {}, "content": {"systemImage": "star.fill", "font": {"size": 20}, "padding": 0}}"#)
    )
    #expect(abs(icon.width - 24) < 1e-9 && abs(icon.height - 24) < 1e-9)
  }

  @Test("a text layer with a width wraps within it: its ink stays inside the width at every scale")
  func wrapsWithinWidth() throws {
    let text =
      "Liquid Glass is a translucent material that reflects and refracts its surroundings, while dynamically transforming."
    for scale in [1, 2, 3] {
      var scene = try Self.scene(
        #"{"type": "text", "text": "\#(text)", "foregroundStyle": "black", "frame": {"x": 20, "y": 20, "width": 150}}"#,
        scale: scale)
      scene.background = .fill(.color(.white))
      guard case .text(let layer) = scene.layers[0] else {
        Issue.record("not a text layer")
        return
      }
      let lines = try Self.lineHeight(font: Self.inter, points: 17)
      #expect(layer.frame.width == 150)
      #expect(layer.frame.height > 3 * lines, "wrapped into several lines: \(layer.frame.height)")
      let image = try TestBackend.cpu.render(scene)
      let ink = Self.inkBounds(image) { $0 < 200 }
      let s = Double(scale)
      #expect(ink.minX >= Int(20 * s) - 1 && ink.maxX <= Int(170 * s), "scale \(scale): ink \(ink) outside 20...170 pt")
      #expect(ink.minY >= Int(20 * s) - 1 && ink.maxY <= Int((20 + layer.frame.height) * s) + 1)
    }
  }

  @Test("a text layer with a width breaks its lines at spaces, greedily by hb-shape's advances, one band of ink each")
  func wrapsAtSpaces() throws {
    let text = TextLayoutTests.paragraph
    let font = try Self.inter
    let upem = Double(try TextLayoutTests.typographicMetrics(font).upem)
    func advance(_ words: ArraySlice<Substring>) throws -> Double {
      Double(try TextLayoutTests.hbAdvance(words.joined(separator: " "), font: font)) * 17 / upem
    }
    let words = text.split(separator: " ")
    for width in [150.0, 235] {
      // The lines by definition: as many whole words as hb-shape says fit.
      var expected: [ArraySlice<Substring>] = []
      var start = 0
      while start < words.count {
        var end = start + 1
        while end < words.count, try advance(words[start...end]) <= width { end += 1 }
        expected.append(words[start..<end])
        start = end
      }
      for line in expected {
        let lineAdvance = try advance(line)
        #expect(lineAdvance <= width, "\(line) is \(lineAdvance) pt")
      }
      var scene = try Self.scene(
        #"{"type": "text", "text": "\#(text)", "foregroundStyle": "black", "frame": {"x": 20, "y": 20, "width": \#(width)}}"#
      )
      scene.background = .fill(.color(.white))
      guard case .text(let layer) = scene.layers[0] else {
        Issue.record("not a text layer")
        return
      }
      #expect(
        abs(layer.frame.height - Double(expected.count) * (try Self.lineHeight(font: font, points: 17))) <= 0.25,
        "\(expected.count) lines: \(layer.frame.height) pt")
      // The lines the renderer draws, read from its layout (ContentLayout, as
      // lowerContent makes it within the frame's width): the length of each, in
      // Unicode scalars of the line it shaped.
      let layout = try #require(
        try ContentLayout(layer.text, maxWidth: layer.frame.width, directory: ".", caches: RenderCaches()).text)
      let lengths = layout.lines.map { line in line.runs.map(\.scalars.upperBound).max() ?? 0 }
      #expect(lengths == expected.map { $0.joined(separator: " ").unicodeScalars.count }, "width \(width)")
      // The pixels: one band of ink rows a line (a line's descenders do not reach
      // the next line's ascenders).
      let image = try TestBackend.cpu.render(scene)
      var bands: [(top: Int, bottom: Int)] = []
      for y in 0..<image.height {
        var inked = false
        for x in 0..<image.width where image.pixel16(x: x, y: y).x / 257 < 128 {
          inked = true
          break
        }
        guard inked else { continue }
        if let last = bands.last, last.bottom == y {
          bands[bands.count - 1].bottom = y + 1
        } else {
          bands.append((y, y + 1))
        }
      }
      #expect(bands.count == expected.count, "width \(width): bands of ink \(bands)")
    }
  }

  /// The bounds of the pixels whose red channel (0...255) satisfies `isInk`.
  static func inkBounds(_ image: RGBAImage, _ isInk: (Int) -> Bool) -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
    var bounds = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
    for y in 0..<image.height {
      for x in 0..<image.width where isInk(Int(image.pixel16(x: x, y: y).x / 257)) {
        bounds = (min(bounds.minX, x), min(bounds.minY, y), max(bounds.maxX, x + 1), max(bounds.maxY, y + 1))
      }
    }
    return bounds
  }

  @Test("a label's ink lies inside its material's frame at 1x, 2x and 3x")
  func inkInsideFrame() throws {
    for scale in [1, 2, 3] {
      var scene = try Self.scene(
        #"{"type": "material", "material": "regular", "frame": {"x": 30, "y": 30}, "content": {"text": "Flag gjpqy", "systemImage": "flag.fill", "foregroundStyle": "black", "padding": 4}}"#,
        scale: scale)
      scene.background = .fill(.color(.white))
      guard case .material(let material) = scene.layers[0] else {
        Issue.record("not a material")
        return
      }
      let image = try TestBackend.cpu.render(scene)
      let ink = Self.inkBounds(image) { $0 < 160 }
      let s = Double(scale)
      let frame = material.frame
      #expect(
        ink.minX >= Int(((frame.x + 4) * s).rounded(.down)) - 1
          && ink.maxX <= Int(((frame.maxX - 4) * s).rounded(.up)) + 1
          && ink.minY >= Int(((frame.y + 4) * s).rounded(.down)) - 1
          && ink.maxY <= Int(((frame.maxY - 4) * s).rounded(.up)) + 1,
        "scale \(scale): ink \(ink) against the frame less its padding \(frame)")
      #expect(ink.maxX - ink.minX > Int(40 * s), "the label drew: \(ink)")
    }
  }

  @Test("buttons: interactive capsule glass sized to the label plus 14 and 7 pt; prominent is blue with a white label")
  func buttons() throws {
    let scene = try Self.scene(
      #"""
      {"type": "button", "title": "Toggle", "buttonStyle": "glassProminent", "frame": {"x": 20, "y": 30}},
      {"type": "button", "title": "Toggle", "frame": {"x": 20, "y": 90}}
      """#)
    guard case .glass(let prominent) = scene.layers[0], case .glass(let plain) = scene.layers[1] else {
      Issue.record("buttons read as glass")
      return
    }
    let width = try Self.advance("Toggle", font: Self.inter, points: 17) + 28
    let height = try Self.lineHeight(font: Self.inter, points: 17) + 14
    for glass in [prominent, plain] {
      #expect(abs(glass.frame.width - width) <= 0.25 && abs(glass.frame.height - height) <= 0.25, "\(glass.frame)")
      #expect(glass.shape == .capsule && glass.glass.isInteractive && glass.glass.variant == .regular)
    }
    #expect(prominent.glass.tint?.resolved(in: EnvironmentValues()) == Color(hex: 0x0088FF))
    #expect(prominent.content?.text?.foregroundStyle == .color(.white))
    #expect(plain.glass.tint == nil && plain.content?.text?.foregroundStyle == nil)
    // The Swift API builds the same layers.
    let built = Scene(width: 400, height: 300) {
      Button("Toggle").buttonStyle(.glassProminent).frame(x: 20, y: 30)
      Button("Toggle").buttonStyle(.glass).frame(x: 20, y: 90)
    }
    #expect(try built.laidOut(images: SceneImages([:])).layers == scene.layers)
  }

  @Test("the seed's examples in Swift build the same scene as in JSON, and write and read back")
  func swiftAPI() throws {
    let layers = #"""
      {"type": "glass", "frame": {"x": 20, "y": 20}, "content": {"text": "Hello, World!", "font": "title"}},
      {"type": "glass", "shape": {"type": "roundedRect", "cornerRadius": 16}, "frame": {"x": 20, "y": 100}, "content": {"text": "Hello, World!", "font": "title"}},
      {"type": "glass", "glass": {"variant": "regular", "tint": "orange", "interactive": true}, "frame": {"x": 20, "y": 180}, "content": {"text": "Hello, World!", "font": "title"}},
      {"type": "material", "material": "regular", "shape": {"type": "roundedRect", "cornerRadius": 8}, "frame": {"x": 250, "y": 20}, "content": {"text": "Flag", "systemImage": "flag.fill"}},
      {"type": "text", "text": "Caption", "font": "caption", "fontWeight": "semibold", "foregroundStyle": "white", "lineLimit": 2, "multilineTextAlignment": "center", "frame": {"x": 250, "y": 100, "width": 120}}
      """#
    let json = try Self.scene(layers)
    let built = Scene(width: 400, height: 300) {
      Text("Hello, World!").font(.title).padding().frame(x: 20, y: 20).glassEffect()
      Text("Hello, World!").font(.title).padding().frame(x: 20, y: 100).glassEffect(in: .rect(cornerRadius: 16))
      Text("Hello, World!").font(.title).padding().frame(x: 20, y: 180).glassEffect(
        .regular.tint(.orange).interactive())
      Label("Flag", systemImage: "flag.fill").padding().frame(x: 250, y: 20)
        .background(.regularMaterial, in: .rect(cornerRadius: 8))
      Text("Caption").font(.caption).fontWeight(.semibold).foregroundStyle(.white).lineLimit(2)
        .multilineTextAlignment(.center).frame(x: 250, y: 100, width: 120)
    }
    #expect(try built.laidOut(images: SceneImages([:])) == json)
    // As read and as built, before layout: the same frames to fit, written back as read.
    let read = try Self.read(layers)
    #expect(built == read)
    #expect(try Scene(json: Array(read.json.utf8)) == read)
    #expect(!read.json.contains("\"width\" : 0"), "the sides to fit are written as they were, left out")
  }

  /// `layers` read, not laid out.
  static func read(_ layers: String) throws -> Scene {
    try Scene(json: Array(SceneJSON.scene(width: 400, height: 300, layers: layers).utf8))
  }

  /// The error reading `layers` (in a scene file in `directory` when given).
  static func error(_ layers: String, in directory: URL? = nil) throws -> GlassError? {
    do {
      if let directory {
        let path = directory.appendingPathComponent("scene.json")
        try Data(SceneJSON.scene(width: 300, height: 200, layers: layers).utf8).write(to: path)
        _ = try SceneFile(path: path.path).laidOut()
      } else {
        _ = try scene(layers)
      }
    } catch let error as GlassError {
      return error
    }
    return nil
  }

  @Test("bad text input is one line naming the JSON path and the fix")
  func badInput() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("text-bad-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("this is not a font\n".utf8).write(to: folder.appendingPathComponent("x.ttf"))
    let long = String(repeating: "a", count: 100_000)
    let words = String(repeating: "Hello ", count: 3_000)
    let cases: [(layers: String, path: String, words: [String], inFolder: Bool)] = [
      (
        #"{"type": "glass", "frame": {}, "content": {"text": "Hi", "font": {"file": "nope.ttf"}}}"#,
        "layers[0].content.font.file", ["nope.ttf", "check the path"], true
      ),
      (
        #"{"type": "glass", "frame": {}, "content": {"text": "Hi", "font": {"file": "x.ttf"}}}"#,
        "layers[0].content.font.file", ["x.ttf", "not a font", "TrueType or OpenType"], true
      ),
      (
        #"{"type": "button", "title": "Hi", "font": {"file": "nope.ttf"}, "frame": {}}"#, "layers[0].font.file",
        ["nope.ttf", "check the path"], true
      ),
      (
        #"{"type": "text", "text": "Hi", "font": {"family": "No Such Family"}, "frame": {}}"#,
        "layers[0].font.family",
        ["No Such Family", "fc-list"], false
      ),
      (
        #"{"type": "text", "text": "Hi", "fontWeight": "fat", "frame": {}}"#, "layers[0].fontWeight",
        ["fat", "semibold"], false
      ),
      (
        #"{"type": "glass", "frame": {}, "content": {"text": "Hi", "systemImage": "no.such.icon"}}"#,
        "layers[0].content.systemImage", ["no.such.icon", "flag.fill"], false
      ),
      (
        #"{"type": "button", "title": "Hi", "systemImage": "nope", "frame": {}}"#, "layers[0].systemImage",
        ["nope", "flag.fill"], false
      ),
      (
        #"{"type": "shape", "fill": "red", "frame": {"width": 9, "height": 9}}, {"type": "button", "title": "\#(long)", "frame": {}}"#,
        "layers[1].title", ["100000", "20000"], false
      ),
      (#"{"type": "text", "text": "\#(long)", "frame": {}}"#, "layers[0].text", ["100000", "20000"], false),
      (
        #"{"type": "glass", "frame": {}, "content": {"text": "\#(long)"}}"#, "layers[0].content.text",
        ["100000", "20000", "split it"], false
      ),
      (#"{"type": "glass", "frame": {"x": 1}}"#, "layers[0].frame", ["width"], false),
      (
        #"{"type": "text", "text": "Hi", "lineLimit": 100001, "frame": {}}"#, "layers[0].lineLimit",
        ["100001", "from 1 to 100000"], false
      ),
      // A frame sized to fit text too large for a frame: at the text, which the user
      // wrote, not at the frame's size, which they did not.
      (
        #"{"type": "text", "text": "\#(words)", "font": {"size": 200}, "frame": {"width": 400}}"#, "layers[0].text",
        ["pt tall", "65536", "lineLimit", "wrapped in 400 pt"], false
      ),
      (
        #"{"type": "glass", "frame": {}, "content": {"text": "\#(words)", "font": {"size": 100}}}"#,
        "layers[0].content.text", ["pt wide", "65536", "give the frame a width"], false
      ),
      (
        #"{"type": "button", "title": "\#(words)", "frame": {}}"#, "layers[0].title", ["pt wide", "65536"], false
      ),
      (
        #"{"type": "glass", "frame": {}, "content": {"image": "a.png", "text": "Hi"}}"#, "layers[0].content.text",
        ["not both"], false
      ),
    ]
    for c in cases {
      let error = try #require(try Self.error(c.layers, in: c.inFolder ? folder : nil), "\(c.layers.prefix(80))")
      #expect(error.jsonPath == c.path, "\(error)")
      let line = "\(error)"
      #expect(!line.contains("\n"), "one line: \(line)")
      for word in c.words { #expect(line.contains(word), "\(line) names \(word)") }
    }
  }

  @Test("a scene built in Swift with a font that cannot be had fails to render, naming the field")
  func swiftBadFont() throws {
    let scene = Scene(width: 200, height: 100) {
      Text("Hi").font(.custom("No Such Family", size: 17)).frame(x: 0, y: 0)
      Text("Hi").font(.custom("No Such Family", size: 17)).padding().frame(x: 0, y: 40).glassEffect()
    }
    // A plain shape first, so the paths count past it.
    let first = Layer.shape(
      ShapeLayer(shape: .rect, frame: PointRect(x: 0, y: 0, width: 9, height: 9), fill: .color(.red)))
    for (index, path) in [(0, "layers[1].font.family"), (1, "layers[1].content.font.family")] {
      var one = scene
      one.layers = [first, scene.layers[index]]
      let error = #expect(throws: GlassError.self) { _ = try TestBackend.cpu.render(one) }
      #expect(error?.jsonPath == path, "\(String(describing: error))")
      #expect("\(String(describing: error))".contains("No Such Family"))
    }
  }

  @Test("a line limit out of range in Swift fails validation stating the range")
  func swiftLineLimit() throws {
    for limit in [0, 100_001] {
      let scene = Scene(width: 200, height: 100) { Text("Hi").lineLimit(limit).frame(x: 0, y: 0, width: 100) }
      let error = #expect(throws: GlassError.self) { try scene.validate() }
      #expect(error?.jsonPath == "layers[0].lineLimit", "\(String(describing: error))")
      #expect("\(String(describing: error))".contains("from 1 to 100000"), "\(String(describing: error))")
    }
  }

  @Test("a button built in Swift whose label cannot be laid out fails to render, as its documentation says")
  func swiftBadButton() throws {
    // A label that cannot be laid out leaves the button zero-sized but keeps the
    // label, so rendering fails with the reason, as Text does (swiftBadFont).
    for (button, word) in [
      (Button("Hi").font(.custom("No Such Family", size: 17)).frame(x: 10, y: 10), "No Such Family"),
      (Button("Hi", systemImage: "no.such.icon").frame(x: 10, y: 10), "no.such.icon"),
    ] {
      let scene = Scene(width: 200, height: 100) { button }
      let error = #expect(throws: GlassError.self) { _ = try TestBackend.cpu.render(scene) }
      #expect(error?.jsonPath?.hasPrefix("layers[0]") == true && "\(String(describing: error))".contains(word))
    }
  }

  @Test("the command line refuses a scene with a missing font: one line with the file and path, no output")
  func commandLine() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("text-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      SceneJSON.scene(
        width: 100, height: 60, layers: #"{"type": "text", "text": "Hi", "font": {"file": "gone.otf"}, "frame": {}}"#
      )
      .utf8
    ).write(to: folder.appendingPathComponent("bad.json"))
    let before = files(in: folder)
    let result = try runCLI(["render", "bad.json", "-o", "out.png", "--backend", "cpu"], in: folder)
    expectRefused(result, mentioning: ["bad.json", "layers[0].font.file", "gone.otf"], leaving: folder, as: before)
  }

  @Test("an empty text draws nothing and measures 0 x 0: only the padding is left")
  func emptyText() throws {
    let layers = #"{"type": "shape", "frame": {"x": 20, "y": 20}, "fill": "white", "content": {"text": ""}}"#
    let scene = try Self.scene(layers)
    guard case .shape(let shape) = scene.layers[0] else {
      Issue.record("not a shape")
      return
    }
    #expect(shape.frame.width == 32 && shape.frame.height == 32)
    var bare = scene
    bare.layers = [.shape(ShapeLayer(shape: .rect, frame: shape.frame, fill: .color(.white)))]
    let a = try TestBackend.cpu.render(scene)
    let b = try TestBackend.cpu.render(bare)
    #expect(try ImageComparison(a, b).maxDifference == 0)
  }

  /// The darkest and brightest red value (0...255) inside `rect` (pixels).
  static func extremes(_ image: RGBAImage, _ rect: PixelRect) -> (darkest: Int, brightest: Int) {
    var result = (darkest: 255, brightest: 0)
    for y in rect.y..<rect.maxY {
      for x in rect.x..<rect.maxX {
        let v = Int(image.pixel16(x: x, y: y).x / 257)
        result = (min(result.darkest, v), max(result.brightest, v))
      }
    }
    return result
  }

  @Test("on the CPU, content without a foregroundStyle is dark over a light backdrop and light over a dark one")
  func automaticColorCPU() throws { try Self.automaticColor(on: .cpu) }

  @Test(
    "on the GPU, content without a foregroundStyle is dark over a light backdrop and light over a dark one",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func automaticColorGPU() throws { try Self.automaticColor(on: .gpu) }

  /// Reads the text's colour from the rendered pixels in the middle of the glass.
  static func automaticColor(on backend: TestBackend) throws {
    for (background, expectDark) in [("white", true), ("black", false), ("#f6d365", true), ("#1c1c60", false)] {
      let scene = try Self.scene(
        #"{"type": "glass", "glass": "clear", "frame": {"x": 20, "y": 20}, "content": {"text": "HHHH", "font": "title"}}"#,
        width: 200, height: 100, background: background, scale: 1)
      let frame = try Self.glassFrame(scene)
      let image = try backend.render(scene)
      let inner = PixelRect(
        x: Int(frame.x + 20), y: Int(frame.y + 18), width: Int(frame.width - 40), height: Int(frame.height - 36))
      let (darkest, brightest) = Self.extremes(image, inner)
      if expectDark {
        #expect(darkest < 40, "\(backend) over \(background): the text's darkest red is \(darkest)")
      } else {
        #expect(brightest > 215, "\(backend) over \(background): the text's brightest red is \(brightest)")
      }
    }
    // A foregroundStyle wins: red text over white.
    let styled = try Self.scene(
      ##"{"type": "glass", "glass": "clear", "frame": {"x": 20, "y": 20}, "content": {"text": "HHHH", "font": "title", "foregroundStyle": "#ff0000"}}"##,
      width: 200, height: 100, background: "white", scale: 1)
    let frame = try Self.glassFrame(styled)
    let image = try backend.render(styled)
    var reddest = 0
    for y in Int(frame.y + 18)..<Int(frame.maxY - 18) {
      for x in Int(frame.x + 20)..<Int(frame.maxX - 20) {
        let p = image.pixel16(x: x, y: y)
        reddest = max(reddest, Int(p.x / 257) - Int(p.y / 257))
      }
    }
    #expect(reddest > 200, "\(backend): red text, red minus green reaches \(reddest)")
  }

  @Test("a text drawn again, even a whole pixel further, rasterises no glyph: one each per face, size, quarter pixel")
  func glyphsOnce() throws {
    // 23.5 pt at scale 2: 47 px, a size no other test uses.
    func scene(x: Double) throws -> Scene {
      try Self.scene(
        #"{"type": "text", "text": "Rasterised once, 0123456789", "font": {"size": 23.5}, "frame": {"x": \#(x), "y": 4}}"#
      )
    }
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    _ = try renderer.render(try scene(x: 3.25), images: [:], timings: &timings)
    let first = renderer.caches.glyphs.stats.misses
    #expect(first > 10, "the first render rasterised the glyphs: \(first)")
    // A point further at scale 2: a new mask, the same quarter-pixel offsets.
    _ = try renderer.render(try scene(x: 4.25), images: [:], timings: &timings)
    _ = try renderer.render(try scene(x: 3.25), images: [:], timings: &timings)
    #expect(renderer.caches.glyphs.stats.misses == first)
    #expect(renderer.caches.textMasks.count == 2, "two masks: one a point further")
  }

  // MARK: A text scene on both backends, its golden, and its ink at 1x, 2x and 3x

  /// The seed's text on glass, 320 x 260 pt, no image files: the three Hello, World!
  /// glass forms over a gradient from light to dark (so the automatic colour takes
  /// both values) with a circle and a capsule behind them to refract, the Flag label
  /// on regular material over teal, and a prominent Toggle button. The material
  /// comes first: its blur (16 pt) would reach the first title's text.
  static func textScene(scale: Int) throws -> Scene {
    try scene(
      #"""
      {"type": "shape", "shape": "circle", "frame": {"x": 150, "y": 4, "width": 60, "height": 60}, "fill": "yellow"},
      {"type": "shape", "shape": "capsule", "frame": {"x": -10, "y": 150, "width": 130, "height": 22}, "fill": "red"},
      {"type": "shape", "frame": {"x": 204, "y": 12, "width": 110, "height": 120}, "fill": "teal"},
      {"type": "material", "material": "regular", "shape": {"type": "roundedRect", "cornerRadius": 8}, "frame": {"x": 212, "y": 46}, "content": {"text": "Flag", "systemImage": "flag.fill"}},
      {"type": "glass", "frame": {"x": 12, "y": 12}, "content": {"text": "Hello, World!", "font": "title"}},
      {"type": "glass", "shape": {"type": "roundedRect", "cornerRadius": 16}, "frame": {"x": 12, "y": 94}, "content": {"text": "Hello, World!", "font": "title"}},
      {"type": "glass", "glass": {"variant": "regular", "tint": "orange", "interactive": true}, "frame": {"x": 12, "y": 176}, "content": {"text": "Hello, World!", "font": "title"}},
      {"type": "button", "title": "Toggle", "buttonStyle": "glassProminent", "frame": {"x": 218, "y": 182}}
      """#,
      width: 320, height: 260,
      background:
        ##"{"linearGradient": {"colors": ["#eef3ff", "#2a2560", "#15123a"], "startPoint": "top", "endPoint": "bottom"}}"##,
      scale: scale)
  }

  /// The layers of `textScene` with text, and the padding between each frame and
  /// its text (glass and material: `.padding()`'s 16 pt; a button: 14 by 7 pt).
  static let textLayers: [(index: Int, across: Double, down: Double)] = [
    (3, 16, 16), (4, 16, 16), (5, 16, 16), (6, 16, 16), (7, 14, 7),
  ]

  /// A layer's frame, whatever its kind.
  static func frame(_ layer: Layer) throws -> PointRect {
    switch layer {
    case .glass(let l): return l.frame
    case .material(let l): return l.frame
    case .shape(let l): return l.frame
    case .text(let l): return l.frame
    default: throw GlassError(.invalidScene, "no frame")
    }
  }

  /// The scene with no text: the same layers, frames and glass, without content.
  static func withoutText(_ scene: Scene) -> Scene {
    var bare = scene
    bare.layers = scene.layers.map { layer in
      switch layer {
      case .glass(var l):
        l.content = nil
        return .glass(l)
      case .material(var l):
        l.content = nil
        return .material(l)
      default: return layer
      }
    }
    return bare
  }

  @Test("the text scene's ink lies inside each frame less its padding (1 px of slack) at 1x and 3x, unclipped")
  func textSceneInk() async throws {
    let title = try Self.advance("Hello, World!", font: try Self.fontFile("Inter Display"), points: 28)
    // At 2x the golden holds the scene's pixels; here the scales either side.
    for scale in [1, 3] {
      let scene = try Self.textScene(scale: scale)
      // The two renders side by side: at 3x they are most of the suite's time.
      async let rendered = TestBackend.cpu.render(scene)
      async let renderedBare = TestBackend.cpu.render(Self.withoutText(scene))
      let (withText, without) = try await (rendered, renderedBare)
      let s = Double(scale)
      // Each pixel the text changed belongs to the layer whose frame holds it.
      guard case .eight(let inked) = withText.samples, case .eight(let bare) = without.samples else {
        Issue.record("8-bit renders")
        return
      }
      var ink = [Int: (minX: Int, minY: Int, maxX: Int, maxY: Int)]()
      var stray: [String] = []
      for y in 0..<withText.height {
        for x in 0..<withText.width {
          let i = 4 * (y * withText.width + x)
          guard
            inked[i] != bare[i] || inked[i + 1] != bare[i + 1] || inked[i + 2] != bare[i + 2]
              || inked[i + 3] != bare[i + 3]
          else { continue }
          let owner = try Self.textLayers.first { entry in
            let f = try Self.frame(scene.layers[entry.index])
            return Double(x) >= f.x * s && Double(x) < f.maxX * s && Double(y) >= f.y * s && Double(y) < f.maxY * s
          }
          guard let owner else {
            stray.append("(\(x), \(y))")
            continue
          }
          let b = ink[owner.index] ?? (Int.max, Int.max, Int.min, Int.min)
          ink[owner.index] = (min(b.minX, x), min(b.minY, y), max(b.maxX, x + 1), max(b.maxY, y + 1))
        }
      }
      #expect(stray.isEmpty, "scale \(scale): text drawn outside every frame at \(stray.prefix(5))")
      for entry in Self.textLayers {
        let frame = try Self.frame(scene.layers[entry.index])
        let b = try #require(ink[entry.index], "scale \(scale): layer \(entry.index) drew no text")
        // Inside the frame less its padding, a pixel of slack for rounding: no glyph
        // reaches the frame's edge, where it would be cut.
        let box = (
          minX: Int(((frame.x + entry.across) * s).rounded(.down)) - 1,
          minY: Int(((frame.y + entry.down) * s).rounded(.down)) - 1,
          maxX: Int(((frame.maxX - entry.across) * s).rounded(.up)) + 1,
          maxY: Int(((frame.maxY - entry.down) * s).rounded(.up)) + 1
        )
        #expect(
          b.minX >= box.minX && b.minY >= box.minY && b.maxX <= box.maxX && b.maxY <= box.maxY,
          "scale \(scale): layer \(entry.index)'s ink \(b) outside \(box) (frame \(frame))")
        // And the whole text is there: its ink spans most of the content's width
        // (less the glyphs' side bearings and the icon's margin).
        let content = (frame.width - 2 * entry.across) * s
        #expect(
          Double(b.maxX - b.minX) >= 0.85 * content,
          "scale \(scale): layer \(entry.index)'s ink is \(b.maxX - b.minX) px across, its content \(content)")
      }
      // The titles' content is hb-shape's advance of the text.
      let first = try Self.frame(scene.layers[4])
      #expect(abs(first.width - 32 - title) <= 0.25)
    }
  }

  /// `output` against the text scene's golden: exactly on the CPU (which records
  /// it, with GLASS_GPU_RECORD_GOLDENS=1, when missing), within the scene parity
  /// bar on the GPU; a failure writes the image and a difference image.
  static func checkTextGolden(_ output: RGBAImage, on backend: TestBackend) throws {
    try backend.checkGolden(output, "scene-text-2x", bar: SceneRenderingTests.bar, filter: "TextScene")
  }

  @Test("the CPU renders the text scene at 2x exactly as its golden")
  func textSceneGoldenCPU() throws {
    try Self.checkTextGolden(try TestBackend.cpu.render(try Self.textScene(scale: 2)), on: .cpu)
  }

  @Test(
    "the GPU renders the text scene at 2x within the scene parity bar of the CPU and of the golden",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func textSceneGPU() throws {
    let scene = try Self.textScene(scale: 2)
    let gpu = try TestBackend.gpu.render(scene)
    let cpu = try TestBackend.cpu.render(scene)
    SceneRenderingTests.bar.check(try ImageComparison(gpu, cpu), "text scene parity")
    try Self.checkTextGolden(gpu, on: .gpu)
  }
}
