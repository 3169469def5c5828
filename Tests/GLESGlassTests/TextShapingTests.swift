import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Shaping is HarfBuzz's: every run `TextShaper` makes has the glyph ids, clusters,
/// advances and offsets that HarfBuzz's own command-line shaper, `hb-shape`
/// (Debian's libharfbuzz-bin), gives for the same font file, text, script and
/// direction, with the same text around it as context.
@Suite("Text: shaping")
struct TextShapingTests {
  static let inter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
  static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
  static let lohit = "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf"

  /// hb-shape's glyphs for `text` (context around it), as JSON records.
  static func hbShape(
    font: String, text: String, script: String, rightToLeft: Bool, before: String, after: String
  ) throws -> [ShapedGlyph] {
    let arguments = [
      "--output-format=json", "--no-glyph-names", "--script=\(script)", "--direction=\(rightToLeft ? "rtl" : "ltr")",
      "--text-before=\(before)", "--text-after=\(after)", font, text,
    ]
    let run = try TestProcess.run(
      URL(fileURLWithPath: "/usr/bin/hb-shape"), arguments, environment: ["LANG": "C.UTF-8"],
      inheritsEnvironment: false)
    let data = run.stdoutData
    #expect(run.status == 0, "hb-shape \(arguments)")
    struct Record: Decodable {
      var g: UInt32
      var cl: Int
      var dx: Int32
      var dy: Int32
      var ax: Int32
      var ay: Int32
    }
    return try JSONDecoder().decode([Record].self, from: data).map {
      ShapedGlyph(id: $0.g, cluster: $0.cl, xAdvance: $0.ax, yAdvance: $0.ay, xOffset: $0.dx, yOffset: $0.dy)
    }
  }

  /// Each run against hb-shape. hb-shape numbers clusters from the start of its
  /// text (the run), `TextShaper` from the start of the whole text.
  static func check(_ text: String, font: String, expectScripts: [String]) throws {
    let face = try FontLibrary.shared.face(path: font)
    let runs = TextShaper.shape(text, face: face)
    let scalars = Array(text.unicodeScalars)
    #expect(Set(runs.map(\.script)) == Set(expectScripts), "\(text): scripts \(runs.map(\.script))")
    for run in runs {
      let string = { (r: Range<Int>) in String(String.UnicodeScalarView(scalars[r])) }
      let expected = try hbShape(
        font: run.face.path, text: string(run.scalars), script: run.script, rightToLeft: run.isRightToLeft,
        before: string(0..<run.scalars.lowerBound), after: string(run.scalars.upperBound..<scalars.count))
      let got = run.glyphs.map { g in
        var g = g
        g.cluster -= run.scalars.lowerBound
        return g
      }
      #expect(got == expected, "\(text), run \(run.script) in \(run.face.path)")
      #expect(!got.isEmpty && got.allSatisfy { $0.id != 0 }, "\(text): no missing glyphs in \(run.script)")
    }
  }

  @Test("hb-shape is installed (scripts/ensure-deps.sh installs libharfbuzz-bin)")
  func oracleInstalled() {
    #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/hb-shape"))
  }

  @Test(
    "Latin with kerning and ligatures, Arabic, Hebrew, Devanagari: HarfBuzz's glyphs and positions",
    arguments: [
      ("AVATAR", inter, ["Latn"]), ("office fluffy → 1/2", inter, ["Latn"]), ("Hello, World!", inter, ["Latn"]),
      ("مرحبا بالعالم", dejavu, ["Arab"]), ("שָׁלוֹם עוֹלָם", dejavu, ["Hebr"]),
      ("नमस्ते दुनिया", lohit, ["Deva"]),
    ])
  func scripts(_ text: String, _ font: String, _ expectScripts: [String]) throws {
    try Self.check(text, font: font, expectScripts: expectScripts)
  }

  @Test("mixed scripts: runs in the font asked for and in fallbacks, each HarfBuzz's")
  func mixed() throws {
    try Self.check("Hello مرحبا and नमस्ते!", font: Self.inter, expectScripts: ["Latn", "Arab", "Deva"])
    let face = try FontLibrary.shared.face(path: Self.inter)
    let text = "Hello مرحبا and नमस्ते!"
    let scalars = Array(text.unicodeScalars)
    let runs = TextShaper.shape(text, face: face)
    // Inter has Latin, not Arabic or Devanagari: their letters fall back (the
    // closing "!" stays in Inter, which has it).
    let lettered = runs.filter { run in scalars[run.scalars].contains { $0.properties.isAlphabetic } }
    #expect(lettered.filter { $0.script == "Latn" }.allSatisfy { $0.face === face })
    #expect(lettered.filter { $0.script != "Latn" }.allSatisfy { $0.face !== face })
    #expect(lettered.filter { $0.script != "Latn" }.count == 2)
    // A right-to-left paragraph reads its runs from the right.
    let rtl = TextShaper.shape("שלום world", face: try FontLibrary.shared.face(path: Self.dejavu))
    #expect(rtl.map(\.script) == ["Latn", "Hebr"])
  }

  @Test("a missing file and a file that is not a font are clear errors")
  func badFonts() throws {
    let missing = #expect(throws: GlassError.self) { try FontLibrary.shared.face(path: "/nonexistent/font.ttf") }
    #expect(missing?.code == .fileUnreadable && "\(String(describing: missing))".contains("/nonexistent/font.ttf"))
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let notFont = folder.appendingPathComponent("font.ttf")
    try Data("not a font".utf8).write(to: notFont)
    let bad = #expect(throws: GlassError.self) { try FontLibrary.shared.face(path: notFont.path) }
    #expect(bad?.message.contains("is not a font") == true, "\(String(describing: bad))")
  }

  @Test("fontconfig finds Inter's weights by family, and no family it does not have")
  func families() throws {
    let regular = try #require(FontLibrary.shared.match(family: "Inter", weight: .regular))
    let bold = try #require(FontLibrary.shared.match(family: "Inter", weight: .bold))
    #expect(regular.path.hasSuffix("Inter-Regular.otf") && bold.path.hasSuffix("Inter-Bold.otf"), "\(regular) \(bold)")
    #expect(FontLibrary.shared.match(family: "No Such Family", weight: .regular) == nil)
  }

  /// A scene file in `folder` with one text layer whose font is the file `font`.
  static func writeScene(font: String, in folder: URL) throws {
    try Data(
      SceneJSON.scene(
        width: 100, height: 60, layers: #"{"type": "text", "text": "Hi", "font": {"file": "\#(font)"}, "frame": {}}"#
      )
      .utf8
    ).write(to: folder.appendingPathComponent("scene.json"))
  }

  @Test("a font file that is a FIFO is refused at once by render and validate, as a FIFO image is")
  func fifoFont() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(mkfifo(folder.appendingPathComponent("font.ttf").path, 0o600) == 0)
    try Self.writeScene(font: "font.ttf", in: folder)
    let before = files(in: folder)
    // Opening a FIFO for reading blocks until a writer comes: without the check,
    // both commands hang, and the timeout kills them and fails the test.
    for arguments in [["validate", "scene.json"], ["render", "scene.json", "-o", "out.png", "--backend", "cpu"]] {
      let result = try runCLI(arguments, in: folder, timeout: 60)
      expectRefused(
        result, mentioning: ["scene.json", "layers[0].font.file", "font.ttf", "FIFO", "name a file"], leaving: folder,
        as: before)
    }
  }

  @Test("a font file that is a folder, unreadable or huge is an error at its JSON path, saying which")
  func badFontFiles() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("folder.ttf"), withIntermediateDirectories: false)
    // A sparse file one byte over the limit: it takes no room on disk.
    let huge = folder.appendingPathComponent("huge.ttf")
    #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
    #expect(truncate(huge.path, off_t(Font.maximumFileBytes + 1)) == 0)
    let locked = folder.appendingPathComponent("locked.ttf")
    try Data(contentsOf: URL(fileURLWithPath: Self.inter)).write(to: locked)
    #expect(chmod(locked.path, 0) == 0)
    var cases = [("folder.ttf", ["it is a folder", "name a file"]), ("huge.ttf", ["268 MB", "256 MiB"])]
    // Root reads any file: the permission case needs another user.
    if getuid() != 0 {
      cases.append(("locked.ttf", ["cannot be read", "permissions"]))
    } else {
      print("a font file without read permission: not checked, running as root")
    }
    for (name, words) in cases {
      try Self.writeScene(font: name, in: folder)
      let error = #expect(throws: GlassError.self) {
        _ = try SceneFile(path: folder.appendingPathComponent("scene.json").path).laidOut()
      }
      #expect(error?.jsonPath == "layers[0].font.file", "\(String(describing: error))")
      let line = "\(String(describing: error))"
      for word in [name] + words { #expect(line.contains(word), "\(line) names \(word)") }
    }
  }
}
