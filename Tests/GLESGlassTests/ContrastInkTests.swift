import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The contrast audit measures where a text's glyphs are drawn, not its frame,
/// and names each text by its own path: a text drawn outside its frame is
/// measured there, one that draws nothing is reported as such, and a view drawn
/// after a text is never blamed for it (only named as what covers it when it
/// hides it).
@Suite("Contrast audit: the ink")
struct ContrastInkTests {
  static func audit(_ json: String) throws -> [ContrastFinding] {
    try ContrastAudit.audit(Scene(json: Array(json.utf8)), images: SceneImages([:]), renderer: Renderer(backend: .cpu))
  }

  /// WCAG 2's ratio of an sRGB grey against white, from its definition.
  static func ratioOnWhite(_ grey: Int) -> Double {
    let white = ContrastAuditTests.relativeLuminance(255, 255, 255)
    return ContrastAuditTests.contrast(ContrastAuditTests.relativeLuminance(grey, grey, grey), white)
  }

  @Test("text in a frame 0 wide is measured where its glyphs are drawn: light grey fails, black passes")
  func zeroWideFrames() throws {
    // Each wraps a letter a line, drawn below its frame, in a column of its own.
    let findings = try Self.audit(
      """
      {"version": 1, "size": {"width": 240, "height": 260}, "scale": 2, "background": "#FFFFFF",
       "layers": [
         {"type": "text", "text": "Light grey", "foregroundStyle": "#DDDDDD", "frame": {"x": 30, "y": 10, "width": 0, "height": 20}},
         {"type": "text", "text": "Black", "foregroundStyle": "#000000", "frame": {"x": 150, "y": 10, "width": 0, "height": 20}}]}
      """)
    #expect(findings.map(\.visibility) == [.measured, .measured])
    #expect(findings.map(\.passes) == [false, true])
    for (finding, grey) in zip(findings, [0xDD, 0x00]) {
      let expected = Self.ratioOnWhite(grey)
      #expect(abs(finding.ratio - expected) <= expected * 0.03, "\(finding.path): \(finding.ratio) against \(expected)")
    }
  }

  @Test("a blank text, an empty one, one of opacity 0 and one in a clear colour draw nothing, and pass as such")
  func drawsNothing() throws {
    let findings = try Self.audit(
      """
      {"version": 1, "size": {"width": 200, "height": 200}, "scale": 1, "background": "#FFFFFF",
       "layers": [
         {"type": "text", "text": "   ", "foregroundStyle": "#000000", "frame": {"x": 10, "y": 10, "width": 100, "height": 20}},
         {"type": "text", "text": "", "foregroundStyle": "#000000", "frame": {"x": 10, "y": 40, "width": 100, "height": 20}},
         {"type": "text", "text": "Faded", "foregroundStyle": "#000000", "opacity": 0, "frame": {"x": 10, "y": 70}},
         {"type": "text", "text": "Clear", "foregroundStyle": "#00000000", "frame": {"x": 10, "y": 100}},
         {"type": "text", "text": "Seen", "foregroundStyle": "#000000", "frame": {"x": 10, "y": 130}}]}
      """)
    #expect(findings.map(\.visibility) == [.drawsNothing, .drawsNothing, .drawsNothing, .drawsNothing, .measured])
    #expect(findings.allSatisfy { $0.passes })
  }

  @Test("a text whose frame crosses the canvas's edge is measured on the part of its ink on the canvas")
  func partlyOnTheCanvas() throws {
    let findings = try Self.audit(
      """
      {"version": 1, "size": {"width": 100, "height": 60}, "scale": 2, "background": "#FFFFFF",
       "layers": [{"type": "text", "text": "Half off the edge", "foregroundStyle": "#767676",
                   "frame": {"x": 40, "y": 20}}]}
      """)
    let finding = try #require(findings.first)
    #expect(finding.visibility == .measured)
    // #767676 is WCAG's classic grey of 4.54:1 on white.
    #expect(abs(finding.ratio - Self.ratioOnWhite(0x76)) <= 0.1, "\(finding.ratio)")
  }

  /// A settings screen: a white ground, 50 rows of a title and a value, and a
  /// clear view over the whole screen after them (as a sheet's dimming or a
  /// gesture area would be).
  static let settings: String = {
    let rows = (0..<50).map { i in
      #"{"type": "hstack", "children": [{"type": "text", "text": "Setting \#(i)"}, {"type": "spacer"}, {"type": "text", "text": "On"}]}"#
    }
    return """
      {"version": 1, "size": {"width": 320, "height": 1200}, "scale": 1, "background": "#FFFFFF",
       "body": {"type": "zstack", "children": [
         {"type": "color", "color": "#FFFFFF"},
         {"type": "vstack", "spacing": 2, "children": [\(rows.joined(separator: ","))]},
         {"type": "color", "color": "#00000000"}]}}
      """
  }()

  @Test("each text of a 50-row settings screen is named by its own path, not by the view drawn after it")
  func ownPaths() throws {
    let findings = try Self.audit(Self.settings)
    let expected = (0..<50).flatMap { i in
      ["body.children[1].children[\(i)].children[0]", "body.children[1].children[\(i)].children[2]"]
    }
    #expect(findings.map(\.path) == expected)
    #expect(findings.allSatisfy { $0.passes && $0.coveredBy == nil })
  }

  @Test("a text hidden under an opaque view drawn after it fails at 1:1, at its own path, naming what covers it")
  func covered() throws {
    let findings = try Self.audit(
      """
      {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#FFFFFF",
       "body": {"type": "zstack", "children": [
         {"type": "text", "text": "Hidden", "foregroundStyle": "#000000"},
         {"type": "color", "color": "#3366CC", "modifiers": [{"frame": {"width": 120, "height": 40}}]}]}}
      """)
    let finding = try #require(findings.first)
    #expect(finding.path == "body.children[0]" && !finding.passes && abs(finding.ratio - 1) < 0.01)
    #expect(finding.coveredBy == "body.children[1]")
  }

  @Test("a button's title on its glass is named by the label's path")
  func buttonTitle() throws {
    let findings = try Self.audit(
      """
      {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#FFFFFF",
       "body": {"type": "vstack", "children": [
         {"type": "text", "text": "Above"},
         {"type": "button", "label": {"type": "text", "text": "Go"}, "modifiers": [{"buttonStyle": "glass"}]}]}}
      """)
    #expect(findings.map(\.path) == ["body.children[0]", "body.children[1].label"])
  }

  @Test("glass-gpu audit says what draws nothing, escapes control and bidi characters and cuts long texts")
  func commandOutput() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let long = String(repeating: "字", count: 5_000)
    let scene = folder.appendingPathComponent("odd.json")
    try Data(
      SceneJSON.scene(
        width: 200, height: 100, scale: 1, background: "#FFFFFF",
        layers: #"""
          {"type": "text", "text": "   ", "frame": {"x": 10, "y": 10, "width": 50, "height": 20}},
          {"type": "text", "text": "line\nbreak \u202Edesrever", "foregroundStyle": "#000000", "frame": {"x": 10, "y": 40}},
          {"type": "text", "text": "\#(long)", "foregroundStyle": "#000000", "frame": {"x": 10, "y": 70, "width": 180, "height": 20}}
          """#
      ).utf8
    ).write(to: scene)
    let run = try TestProcess.runGlassGPU(["audit", scene.path])
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 5, "\(run.stdout.prefix(400))")
    #expect(run.stdout.contains("draws nothing  layers[0]  \"   \""))
    #expect(run.stdout.contains(#""line\nbreak \u{202E}desrever""#), "\(run.stdout.prefix(400))")
    #expect(!run.stdout.unicodeScalars.contains { $0.properties.isBidiControl })
    #expect(lines.allSatisfy { $0.count < 120 }, "\(lines.map(\.count))")
    #expect(run.stdout.contains("2 texts checked, 0 below their ratio"))
  }

  @Test("every message quoting user text escapes it and cuts it short")
  func userText() {
    #expect(UserText.shortened("a\nb\tc\u{7F}\u{85}") == #"a\nb\tc\u{7F}\u{0085}"#)
    #expect(UserText.shortened("x\u{202E}y\u{2066}z\u{200F}\u{2028}") == #"x\u{202E}y\u{2066}z\u{200F}\u{2028}"#)
    #expect(UserText.shortened("héllo wörld 👍🏽") == "héllo wörld 👍🏽")
    #expect(UserText.shortened(String(repeating: "ab", count: 50_000)) == String(repeating: "ab", count: 20) + "…")
    // One character of a thousand combining marks is cut too.
    let zalgo = "e" + String(repeating: "\u{301}", count: 1_000)
    #expect(UserText.shortened(zalgo).unicodeScalars.count <= 4 * 40 + 1)
  }
}
