import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Where `glass-gpu goldens` may write files of its own (the HTML report, the
/// artifacts): never where they could replace a reference or an input.
@Suite("Goldens: the report and artifacts folders never hold references or inputs")
struct GoldenPlacementTests {
  /// A folder whose scene s001 changed since its reference was recorded (so the
  /// report has a failure to draw), and s002 reads `images/0-actual.png`, where a
  /// report's files go.
  static func failingFolder() throws -> GoldenFolder {
    let folder = try GoldenFolder(count: 3)
    let images = folder.scenes.appendingPathComponent("images")
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: folder.photo, to: images.appendingPathComponent("0-actual.png"))
    try folder.write(GoldenFolder.scene(2, image: "images/0-actual.png"), as: "s002")
    #expect(try folder.goldens(["--record", "missing", "--quiet"]).status == 2)
    try folder.write(GoldenFolder.scene(9), as: "s001")
    return folder
  }

  /// A report or artifacts folder that is refused: exit 1, the reason, and
  /// nothing written in the scenes' and references' folders (the JUnit report,
  /// asked for elsewhere, says why).
  func expectRefused(
    _ folder: GoldenFolder, _ options: [String], saying words: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = GoldenFolder.contents(of: folder.root)
    let junit = folder.root.appendingPathComponent("junit-\(abs(options.joined().hashValue)).xml")
    let result = try folder.goldens(options + ["--junit", junit.path])
    #expect(result.status == 1, "\(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
    for word in words {
      #expect(result.stderr.contains(word), "\(word): \(result.stderr)", sourceLocation: sourceLocation)
    }
    #expect(!result.stdout.contains("pass ") && !result.stdout.contains("FAIL "), sourceLocation: sourceLocation)
    var after = GoldenFolder.contents(of: folder.root)
    let report = after.removeValue(forKey: junit.lastPathComponent)
    #expect(
      after == before, "changed: \(Set(after.keys).symmetricDifference(before.keys))", sourceLocation: sourceLocation)
    let xml = report.map { String(decoding: $0, as: UTF8.self) } ?? ""
    #expect(xml.contains("<error") && xml.contains("name=\"setup\""), "\(xml)", sourceLocation: sourceLocation)
  }

  @Test("--report in the references folder, inside it or above it is refused before anything is written")
  func reportAndReferences() throws {
    let folder = try Self.failingFolder()
    defer { folder.remove() }
    let refs = folder.references.path
    try expectRefused(folder, ["--report", refs], saying: ["--report \(refs) is the references folder \(refs)"])
    try expectRefused(folder, ["--report", refs + "/html"], saying: ["lies inside the references folder"])
    try expectRefused(folder, ["--report", folder.root.path], saying: ["holds the references folder"])
    // Through a link to it, too.
    let link = folder.root.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: refs)
    try expectRefused(folder, ["--report", link.path], saying: ["is the references folder"])
    try FileManager.default.removeItem(at: link)
  }

  @Test("--report that holds a scene or an image a scene reads is refused; one beside them that holds none is not")
  func reportAndInputs() throws {
    let folder = try Self.failingFolder()
    defer { folder.remove() }
    let scenes = folder.scenes.path
    try expectRefused(folder, ["--report", scenes], saying: ["--report \(scenes) holds \(scenes)/s000.json"])
    try expectRefused(
      folder, ["--report", scenes + "/images"], saying: ["holds \(scenes)/images/0-actual.png, which the check reads"])
    try expectRefused(folder, ["--artifacts", scenes], saying: ["--artifacts \(scenes) holds"])
    try expectRefused(folder, ["--artifacts", folder.references.path + "/failures"], saying: ["lies inside"])
    // A manifest is an input too.
    let manifest = folder.root.appendingPathComponent("m/goldens.jsonl")
    try FileManager.default.createDirectory(
      at: manifest.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"scene": "../sc/s000.json", "output": "s000.png"}"#.utf8).write(to: manifest)
    let byManifest = try runCLI(
      [
        "goldens", "--manifest", manifest.path, "--references", folder.references.path, "--report",
        manifest.deletingLastPathComponent().path,
      ],
      in: folder.root)
    #expect(byManifest.status == 1 && byManifest.stderr.contains("holds \(manifest.path)"), "\(byManifest.stderr)")

    // Beside the inputs, in a folder of its own under the scenes' folder: written,
    // and every input and reference unchanged.
    let before = GoldenFolder.contents(of: folder.root)
    let report = folder.scenes.appendingPathComponent("report")
    let written = try folder.goldens(["--report", report.path])
    #expect(written.status == 1 && written.stdout.contains("FAIL    s001"), "\(written.stdout) \(written.stderr)")
    #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path))
    let after = GoldenFolder.contents(of: folder.root)
    for (name, bytes) in before { #expect(after[name] == bytes, "\(name) changed") }
    #expect(written.stdout.contains("s002") && !written.stdout.contains("FAIL    s002"), "\(written.stdout)")
  }

  @Test("a report folder that cannot be made is named once in the message")
  func reportFolderNamedOnce() throws {
    let folder = try GoldenFolder(count: 1)
    defer { folder.remove() }
    let blocker = folder.root.appendingPathComponent("out")
    try Data("a file".utf8).write(to: blocker)
    let report = blocker.path + "/report"
    let result = try folder.goldens(["--report", report, "--record", "missing"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("cannot make the report folder \(report): \(blocker.path) is a file, not a folder"),
      "\(result.stderr)")
    #expect(result.stderr.components(separatedBy: report).count == 2, "named more than once: \(result.stderr)")
    // A folder that cannot be made where it is (procfs makes none): its path once.
    let proc = "/proc/glass-gpu-report-\(getpid())"
    let refused = try folder.goldens(["--report", proc, "--record", "missing"])
    #expect(
      refused.status == 1 && refused.stderr.contains("cannot make the report folder \(proc)"), "\(refused.stderr)")
    #expect(refused.stderr.components(separatedBy: proc).count == 2, "named more than once: \(refused.stderr)")
    // The summary names the page once.
    let out = folder.root.appendingPathComponent("pages").path
    let written = try folder.goldens(["--report", out, "--record", "missing"])
    #expect(written.status == 2, "\(written.stderr)")
    #expect(written.stdout.components(separatedBy: out).count == 2, "\(written.stdout)")
  }

  @Test("a mask that names nothing records nothing: not a new reference (--record missing, all), nor anew (all)")
  func maskNamingNothingRecordsNothing() throws {
    let folder = try GoldenFolder(count: 1)
    defer { folder.remove() }
    let reference = folder.references.appendingPathComponent("s000.png")
    for mode in ["missing", "all"] {
      let result = try folder.goldens(["--record", mode, "--mask", "layers[7]"])
      #expect(result.status == 1, "\(mode): \(result.stdout) \(result.stderr)")
      #expect(
        result.stdout.contains("ERROR   s000: ") && result.stdout.contains("layers[7] names no layer or view"),
        "\(mode): \(result.stdout)")
      #expect(!FileManager.default.fileExists(atPath: reference.path), "\(mode) recorded \(reference.path)")
    }
    #expect(try folder.goldens(["--record", "missing"]).status == 2)
    let recorded = try Data(contentsOf: reference)
    try folder.write(GoldenFolder.scene(5), as: "s000")
    let again = try folder.goldens(["--record", "all", "--mask", "layers[7]"])
    #expect(again.status == 1 && again.stdout.contains("ERROR   s000: "), "\(again.stdout)")
    #expect(try Data(contentsOf: reference) == recorded, "--record all replaced the reference")
    // A mask that names the capsule records as before.
    let named = try folder.goldens(["--record", "all", "--mask", "layers[0]"])
    #expect(named.status == 2, "\(named.stdout) \(named.stderr)")
    #expect(try Data(contentsOf: reference) != recorded)
  }
}
