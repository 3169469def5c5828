import Foundation
import GlassSnapshotTesting
import GlassTestSupport
import SnapshotTesting
import Testing

@testable import GLESGlass

/// The comparison modes of goldens and the snapshot strategy (issue 24): masks,
/// the report page, and pruning stale references (the anti-aliasing mode is
/// specified in AntiAliasingModeTests, masks' geometry in ComparisonMaskTests).
@Suite("Comparison modes")
struct ComparisonModeTests {
  /// A glass capsule at `x` points over a photo, at scale 1.
  static func capsule(at x: Double) throws -> Scene {
    let json = """
      {"version": 1, "size": {"width": 240, "height": 120}, "scale": 1, "background": {"image": "photo"},
       "layers": [{"type": "glass", "shape": {"type": "capsule"}, "frame": {"x": \(x), "y": 38, "width": 120, "height": 44}}]}
      """
    return try Scene(json: Array(json.utf8))
  }

  static let photo = ProceduralImages.landscape(width: 240, height: 120)

  /// A lock screen: a glass panel with a clock text, and a glass button.
  static func clock(_ time: String, button: String = "Unlock") -> String {
    """
    {"version": 1, "size": {"width": 200, "height": 160}, "scale": 1, "background": {"image": "../photo.png"},
     "layers": [
       {"type": "glass", "shape": {"type": "roundedRect", "cornerRadius": 20}, "frame": {"x": 20, "y": 20, "width": 160, "height": 70}},
       {"type": "text", "text": "\(time)", "font": {"size": 36, "weight": "semibold"}, "foregroundStyle": "#FFFFFF", "frame": {"x": 40, "y": 30, "width": 120, "height": 50}},
       {"type": "glass", "shape": "capsule", "frame": {"x": 50, "y": 108, "width": 100, "height": 40}, "content": {"text": "\(button)"}}]}
    """
  }

  @Test(
    "masks: a changed clock inside a masked layer passes; the same change outside the mask fails (CLI and Swift)")
  func masks() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try PNGCodec.OutputFile(path: root.path + "/photo.png").write(ProceduralImages.landscape(width: 200, height: 160))
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    let scene = scenes.appendingPathComponent("lock.json")
    let refs = root.appendingPathComponent("refs").path
    try Data(Self.clock("9:41").utf8).write(to: scene)
    let record = try TestProcess.runGlassGPU(["goldens", scene.path, "--references", refs, "--record", "missing"])
    #expect(record.status == 2, "\(record.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: refs + "/lock.png"))
    try Data(Self.clock("10:08").utf8).write(to: scene)
    let plain = try TestProcess.runGlassGPU(["goldens", scene.path, "--references", refs])
    #expect(plain.status == 1, "the clock changed: \(plain.stdout)")
    let masked = try TestProcess.runGlassGPU(["goldens", scene.path, "--references", refs, "--mask", "layers[1]"])
    #expect(masked.status == 0, "\(masked.stdout) \(masked.stderr)")
    let rect = try TestProcess.runGlassGPU([
      "goldens", scene.path, "--references", refs, "--mask-rect", "40,20,120,70",
    ])
    #expect(rect.status == 0, "\(rect.stdout) \(rect.stderr)")
    // The same change of text on the button, outside the mask: fails.
    try Data(Self.clock("9:41", button: "Open").utf8).write(to: scene)
    let outside = try TestProcess.runGlassGPU(["goldens", scene.path, "--references", refs, "--mask", "layers[1]"])
    #expect(outside.status == 1 && outside.stdout.contains("FAIL    lock"), "\(outside.stdout)")
    // A mask that names nothing: one line naming it, the reference untouched, even with --record failed.
    let none = try TestProcess.runGlassGPU([
      "goldens", scene.path, "--references", refs, "--mask", "layers[7]", "--record", "failed",
    ])
    #expect(none.status == 1, "\(none.stdout)")
    #expect(
      none.stdout.contains("ERROR   lock: ")
        && none.stdout.contains("ERROR   lock: the mask layers[7] names no layer or view"),
      "\(none.stdout)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: refs + "/lock.png")) == before)
    let badRect = try TestProcess.runGlassGPU(["goldens", scene.path, "--references", refs, "--mask-rect", "1,2,3"])
    #expect(badRect.status == 64 && badRect.stderr.contains("--mask-rect: the mask rectangle \"1,2,3\""))

    // In Swift: the strategy paints the mask, so the clock never changes the snapshot.
    let folder = root.appendingPathComponent("snapshots").path
    func lock(_ time: String, _ button: String = "Unlock") throws -> SceneFile {
      var file = SceneFile(scene: try Scene(json: Array(Self.clock(time, button: button).utf8)), directory: scenes.path)
      file.scene.scale = 1
      return file
    }
    let strategy = Snapshotting<SceneFile, RGBAImage>.glass(masks: [.path("layers[1]")])
    _ = verifySnapshot(of: try lock("9:41"), as: strategy, named: "lock", record: .missing, snapshotDirectory: folder)
    #expect(
      verifySnapshot(of: try lock("10:08"), as: strategy, named: "lock", record: .never, snapshotDirectory: folder)
        == nil)
    #expect(
      verifySnapshot(
        of: try lock("9:41", "Open"), as: strategy, named: "lock", record: .never, snapshotDirectory: folder)
        != nil)
  }

  @Test("with SNAPSHOT_ARTIFACTS, a failing glass snapshot adds itself to the report page there")
  func snapshotReportPage() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let artifacts = root.appendingPathComponent("artifacts").path
    setenv("SNAPSHOT_ARTIFACTS", artifacts, 1)
    defer { unsetenv("SNAPSHOT_ARTIFACTS") }
    let folder = root.appendingPathComponent("snapshots").path
    let a = try Self.capsule(at: 60)
    let images = ["photo": Self.photo]
    var file = SceneFile(scene: a, directory: root.path)
    try PNGCodec.OutputFile(path: root.path + "/photo").write(Self.photo)
    _ = images
    _ = verifySnapshot(of: file, as: .glass(), named: "page", record: .missing, snapshotDirectory: folder)
    file.scene = try Self.capsule(at: 70)
    let failure = try #require(
      verifySnapshot(of: file, as: .glass(), named: "page", record: .never, snapshotDirectory: folder))
    let page = artifacts + "/GlassSnapshotReport/index.html"
    #expect(failure.contains("Report: \(page)"), "\(failure)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("snapshotReportPage") && html.contains("\"status\":\"failed\""))
    for kind in ["reference", "actual", "difference"] {
      #expect(html.contains("images/") && html.contains("-\(kind).png"), "\(kind)")
    }
  }

  @Test("prune: after a scene is removed, --prune names exactly its references, and with --record removes them")
  func prune() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    for name in ["a", "b", "c"] {
      try Data(SceneJSON.scene(width: 8, height: 8, scale: 1, background: "red").utf8)
        .write(to: scenes.appendingPathComponent("\(name).json"))
    }
    let refs = root.appendingPathComponent("refs").path
    let base = ["goldens", scenes.path, "--references", refs]
    #expect(try TestProcess.runGlassGPU(base + ["--record", "missing", "--environments", "light,dark"]).status == 2)
    try FileManager.default.removeItem(at: scenes.appendingPathComponent("b.json"))
    let listed = try TestProcess.runGlassGPU(base + ["--environments", "light,dark", "--prune"])
    #expect(listed.status == 0, "\(listed.stdout) \(listed.stderr)")
    let stale = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("stale") }.map {
      String($0.dropFirst("stale   ".count).prefix { $0 != ":" })
    }
    #expect(stale == [refs + "/b.dark.png", refs + "/b.light.png"], "\(listed.stdout)")
    #expect(listed.stdout.contains("2 stale references"))
    #expect(FileManager.default.fileExists(atPath: refs + "/b.light.png"))
    let removed = try TestProcess.runGlassGPU(
      base + ["--environments", "light,dark", "--prune", "--record", "failed"])
    #expect(removed.status == 0, "\(removed.stdout)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: refs).sorted()
        == ["a.dark.png", "a.light.png", "c.dark.png", "c.light.png"])
  }
}
