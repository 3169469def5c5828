import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The contrast audit: WCAG 2 ratios of text and icons against what is
/// rendered behind them, checked against the definition computed here from the
/// colours and from the rendered pixels.
@Suite("Contrast audit")
struct ContrastAuditTests {
  /// WCAG 2's relative luminance of an 8-bit sRGB colour, from its definition.
  static func relativeLuminance(_ r: Int, _ g: Int, _ b: Int) -> Double {
    func channel(_ c: Int) -> Double {
      let s = Double(c) / 255
      return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
  }

  /// WCAG 2's contrast ratio of two luminances.
  static func contrast(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }

  /// A white page with three texts: grey body text that fails 4.5:1, dark body
  /// text that passes, and a large grey title that passes 3:1 but would fail 4.5.
  static let page = """
    {"version": 1, "size": {"width": 300, "height": 160}, "scale": 2, "background": "#FFFFFF",
     "layers": [
       {"type": "text", "text": "Faint body text", "foregroundStyle": "#999999", "frame": {"x": 20, "y": 20}},
       {"type": "text", "text": "Dark body text", "foregroundStyle": "#333333", "frame": {"x": 20, "y": 60}},
       {"type": "text", "text": "Large title", "font": {"size": 28}, "foregroundStyle": "#888888",
        "frame": {"x": 20, "y": 100}}]}
    """

  @Test("finds the faint text, passes the dark text and the large title, and its ratios are the colours' own")
  func findsLowContrast() throws {
    let scene = try Scene(json: Array(Self.page.utf8))
    let findings = try ContrastAudit.audit(scene, images: SceneImages([:]), renderer: Renderer(backend: .cpu))
    #expect(findings.map(\.path) == ["layers[0]", "layers[1]", "layers[2]"])
    #expect(findings.map(\.passes) == [false, true, true])
    #expect(findings.map(\.required) == [4.5, 4.5, 3])
    let white = Self.relativeLuminance(255, 255, 255)
    let expected = [(0x99, 0x99, 0x99), (0x33, 0x33, 0x33), (0x88, 0x88, 0x88)].map {
      Self.contrast(Self.relativeLuminance($0.0, $0.1, $0.2), white)
    }
    for (finding, ratio) in zip(findings, expected) {
      #expect(abs(finding.ratio - ratio) <= ratio * 0.02, "\(finding.path): \(finding.ratio) against \(ratio)")
    }
  }

  @Test(
    "a text off the canvas (its frame wholly, or its ink beyond the edge its frame crosses) passes as such; one on it and unseen fails"
  )
  func offCanvas() throws {
    let json = """
      {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#FFFFFF",
       "layers": [
         {"type": "text", "text": "Gone", "foregroundStyle": "#000000", "frame": {"x": -400, "y": 20}},
         {"type": "text", "text": "Unseen", "foregroundStyle": "#FFFFFF", "frame": {"x": 20, "y": 20}},
         {"type": "glass", "frame": {"x": 150, "y": 60, "width": 200, "height": 30}, "content": {"text": "Beyond"}}]}
      """
    let findings = try ContrastAudit.audit(
      try Scene(json: Array(json.utf8)), images: SceneImages([:]), renderer: Renderer(backend: .cpu))
    // The glass crosses the canvas's right edge; its centred label lies beyond it.
    #expect(findings.map(\.isOnCanvas) == [false, true, false])
    #expect(findings.map(\.passes) == [true, false, true])
  }

  @Test("over glass on a photo, the audit's ratio agrees with one computed from the rendered PNG's pixels")
  func agreesWithThePixels() throws {
    let json = """
      {"version": 1, "size": {"width": 240, "height": 120}, "scale": 2, "background": {"image": "photo"},
       "layers": [{"type": "glass", "frame": {"x": 20, "y": 30, "width": 200, "height": 60},
                   "content": {"text": "Audit", "font": "title", "foregroundStyle": "#202020"}}]}
      """
    let scene = try Scene(json: Array(json.utf8))
    let photo = ProceduralImages.landscape(width: 480, height: 240)
    let images = SceneImages(["photo": photo])
    let finding = try #require(
      try ContrastAudit.audit(scene, images: images, renderer: Renderer(backend: .cpu)).first)
    #expect(finding.path == "layers[0].content" && finding.text == "Audit")
    // From the pixels: the ink is the paint (#202020, where glyphs cover whole
    // pixels); the glass behind the glyphs is the render without the text, at
    // the same pixels. Both renders are read as PNGs, as a user would.
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var bare = scene
    guard case .glass(var glass) = bare.layers[0] else { return }
    glass.content = nil
    bare.layers[0] = .glass(glass)
    try PNGCodec.write(try TestBackend.cpu.render(scene, images: images), to: folder.path + "/with.png")
    try PNGCodec.write(try TestBackend.cpu.render(bare, images: images), to: folder.path + "/bare.png")
    let with = try PNGCodec.read(path: folder.path + "/with.png").image
    let without = try PNGCodec.read(path: folder.path + "/bare.png").image
    var back = 0.0
    var count = 0
    for y in 0..<with.height {
      for x in 0..<with.width where with.rgba8(x, y) == SIMD4(0x20, 0x20, 0x20, 255) {
        let p = without.rgba8(x, y)
        back += Self.relativeLuminance(p.x, p.y, p.z)
        count += 1
      }
    }
    #expect(count > 50, "too few pixels of pure ink: \(count)")
    let ratio = Self.contrast(Self.relativeLuminance(0x20, 0x20, 0x20), back / Double(max(count, 1)))
    #expect(abs(finding.ratio - ratio) <= ratio * 0.05, "audit \(finding.ratio), pixels \(ratio)")
  }

  @Test(
    "every text and icon of the demo scenes is found, with a ratio from 1 to 21 and the ratio its size needs",
    arguments: ["layout-signin", "hello", "landmarks", "layout-badges"])
  func demoScenes(name: String) throws {
    let (scene, images) = try DemoScenes.load(name, scale: 1)
    let findings = try ContrastAudit.audit(scene, images: images, renderer: Renderer(backend: .cpu))
    let laid = try scene.laidOut(images: images)
    // As many findings as texts with content in the laid-out scene.
    var texts = 0
    for layer in laid.layers {
      switch layer {
      case .text: texts += 1
      case .glass(let l): texts += l.content?.text == nil ? 0 : 1
      case .material(let l): texts += l.content?.text == nil ? 0 : 1
      case .shape(let l): texts += l.content?.text == nil ? 0 : 1
      case .container(let c): texts += c.glass.filter { $0.content?.text != nil }.count
      case .image: break
      }
    }
    #expect(findings.count == texts && texts > 0)
    for finding in findings {
      #expect(finding.ratio >= 1 && finding.ratio <= 21, "\(name) \(finding.path)")
      let font = try #require(Self.font(of: finding, in: laid))
      let large = font.size >= 24 || (font.size >= 18.66 && font.weight.value >= 700)
      #expect(finding.required == (large || finding.text.isEmpty ? 3 : 4.5), "\(name) \(finding.path)")
    }
  }

  /// The font of the text a finding is about, by its frame.
  static func font(of finding: ContrastFinding, in scene: Scene) -> Font? {
    for layer in scene.layers {
      switch layer {
      case .text(let t) where t.frame == finding.frame: return t.text.font
      case .glass(let l) where l.frame == finding.frame: return l.content?.text?.font
      case .material(let l) where l.frame == finding.frame: return l.content?.text?.font
      case .shape(let l) where l.frame == finding.frame: return l.content?.text?.font
      case .container(let c):
        if let g = c.glass.first(where: { $0.frame == finding.frame }) { return g.content?.text?.font }
      default: continue
      }
    }
    return nil
  }

  @Test(
    "glass-gpu audit names the failing text's path and exits 1; a passing scene exits 0; --environments audits each")
  func command() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("page.json")
    try Data(Self.page.utf8).write(to: page)
    let failing = try TestProcess.runGlassGPU(["audit", page.path, "--quiet"])
    #expect(failing.status == 1, "\(failing.stderr)")
    #expect(
      failing.stdout.contains("FAIL") && failing.stdout.contains("layers[0]") && !failing.stdout.contains("layers[1]"))
    #expect(failing.stdout.contains("3 texts checked, 1 below its ratio"), "\(failing.stdout)")
    let passing = folder.appendingPathComponent("pass.json")
    try Data(
      SceneJSON.scene(
        width: 200, height: 60, background: "systemBackground",
        layers: #"{"type": "text", "text": "Hello", "foregroundStyle": "label", "frame": {"x": 10, "y": 10}}"#
      ).utf8
    ).write(to: passing)
    let ok = try TestProcess.runGlassGPU(["audit", passing.path, "--environments", "light,dark,dark+increaseContrast"])
    #expect(ok.status == 0, "\(ok.stdout) \(ok.stderr)")
    #expect(ok.stdout.contains("[dark] layers[0]") && ok.stdout.contains("3 texts checked, 0 below"))
  }
}
