import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The goldens report writes only its own files: a link planted at anything it
/// writes is refused before anything is written, and a file no report wrote is
/// never replaced.
@Suite("Goldens report folder: links and files not its own")
struct ReportFolderSafetyTests {
  /// A folder with one scene whose reference was recorded and which then
  /// changed: a failing run that writes every kind of report file.
  static func failingScene() throws -> URL {
    let root = try makeTemporaryFolder()
    try Data(SceneJSON.scene(width: 12, height: 8, scale: 1, background: "red").utf8)
      .write(to: root.appendingPathComponent("a.json"))
    #expect(
      try TestProcess.runGlassGPU(["goldens", "a.json", "--references", "refs", "--record", "missing"], in: root).status
        == 2)
    try Data(SceneJSON.scene(width: 12, height: 8, scale: 1, background: "blue").utf8)
      .write(to: root.appendingPathComponent("a.json"))
    return root
  }

  /// Every path under `folder` (links not followed), each with its kind and,
  /// for a file, its bytes; for a link, where it leads.
  static func listing(_ folder: String) -> [String: String] {
    var out: [String: String] = [:]
    func walk(_ relative: String) {
      let path = relative.isEmpty ? folder : folder + "/" + relative
      var info = stat()
      guard lstat(path, &info) == 0 else { return }
      switch info.st_mode & S_IFMT {
      case S_IFLNK:
        out[relative] = "link to " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
      case S_IFDIR:
        out[relative] = "folder"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
          walk(relative.isEmpty ? entry : relative + "/" + entry)
        }
      default:
        out[relative] = "file " + ((FileManager.default.contents(atPath: path)?.base64EncodedString()) ?? "?")
      }
    }
    walk("")
    return out
  }

  /// What the goldens report writes in its folder for one failure.
  static let written = [
    "index.html", "images", "thumbs", ".glass-gpu-report", "images/0-actual.png", "images/0-overlay.png",
    "thumbs/0.png",
  ]

  @Test(
    "a link to a file, to a folder or to nothing, named like anything the report writes, is refused in one line before anything is written; its target is untouched"
  )
  func plantedLinks() throws {
    let root = try Self.failingScene()
    defer { try? FileManager.default.removeItem(at: root) }
    let victims = root.appendingPathComponent("victims").path
    try FileManager.default.createDirectory(atPath: victims + "/folder", withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: victims + "/file.txt"))
    try Data("keep me too".utf8).write(to: URL(fileURLWithPath: victims + "/folder/inside.txt"))
    let targets = ["file": victims + "/file.txt", "folder": victims + "/folder", "dangling": victims + "/none/x.png"]
    var index = 0
    for name in Self.written {
      for (kind, target) in targets.sorted(by: { $0.key < $1.key }) {
        index += 1
        let report = root.appendingPathComponent("report-\(index)").path
        let link = report + "/" + name
        try FileManager.default.createDirectory(
          atPath: FilePaths.folder(of: link), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let before = Self.listing(report)
        let victimsBefore = Self.listing(victims)
        let run = try TestProcess.runGlassGPU(
          ["goldens", "a.json", "--references", "refs", "--artifacts", "artifacts", "--report", report], in: root)
        let lines = run.stderr.split(separator: "\n")
        #expect(run.status == 1, "\(name) → \(kind): \(run.stdout) \(run.stderr)")
        #expect(lines.count == 1, "\(name) → \(kind): \(run.stderr)")
        #expect(
          run.stderr.contains("\(link) is a symbolic link") && run.stderr.contains("remove the link"),
          "\(name) → \(kind): \(run.stderr)")
        #expect(Self.listing(report) == before, "\(name) → \(kind): the report folder changed")
        #expect(Self.listing(victims) == victimsBefore, "\(name) → \(kind): the link's target changed")
        #expect(!run.stdout.contains("; report "), "\(run.stdout)")
      }
    }
  }

  @Test(
    "a file no report wrote where the report would write (a page of one's own, a reference in thumbs/) is left as it was, in one line; a report replaces its own files run after run"
  )
  func filesNotItsOwn() throws {
    let root = try Self.failingScene()
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["index.html", "thumbs/0.png", "images/0-actual.png", "images"] {
      let report = root.appendingPathComponent("report-\(name.replacingOccurrences(of: "/", with: "-"))").path
      let path = report + "/" + name
      try FileManager.default.createDirectory(atPath: FilePaths.folder(of: path), withIntermediateDirectories: true)
      try Data("mine, not the report's".utf8).write(to: URL(fileURLWithPath: path))
      let before = Self.listing(report)
      let run = try TestProcess.runGlassGPU(
        ["goldens", "a.json", "--references", "refs", "--artifacts", "artifacts", "--report", report], in: root)
      #expect(run.status == 1)
      #expect(run.stderr.split(separator: "\n").count == 1, "\(name): \(run.stderr)")
      #expect(run.stderr.contains(path), "\(name): \(run.stderr)")
      #expect(Self.listing(report) == before, "\(name): the report folder changed")
    }

    // Its own files: written again, and again, into one folder.
    let report = root.appendingPathComponent("report").path
    for _ in 0..<2 {
      let run = try TestProcess.runGlassGPU(
        ["goldens", "a.json", "--references", "refs", "--artifacts", "artifacts", "--report", report], in: root)
      #expect(run.status == 1 && run.stderr.isEmpty, "\(run.stderr)")
      #expect(run.stdout.contains("; report \(report)/index.html"), "\(run.stdout)")
    }
    let listed = try String(contentsOfFile: report + "/.glass-gpu-report", encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    let files = Self.listing(report).filter { $0.value.hasPrefix("file") }.keys.filter { $0 != ".glass-gpu-report" }
    #expect(Set(listed) == Set(files), "\(listed) \(files)")
    // A link put in place of one of its own files is still refused.
    let thumb = report + "/thumbs/0.png"
    try FileManager.default.removeItem(atPath: thumb)
    try FileManager.default.createSymbolicLink(atPath: thumb, withDestinationPath: root.path + "/refs/a.png")
    let reference = try Data(contentsOf: root.appendingPathComponent("refs/a.png"))
    let run = try TestProcess.runGlassGPU(
      ["goldens", "a.json", "--references", "refs", "--artifacts", "artifacts", "--report", report], in: root)
    #expect(run.stderr.contains("\(thumb) is a symbolic link"), "\(run.stderr)")
    #expect(try Data(contentsOf: root.appendingPathComponent("refs/a.png")) == reference)
  }
}
