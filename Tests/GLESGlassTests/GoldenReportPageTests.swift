import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The goldens report page's data, read back from the page: every case counted
/// once, the commands that accept changes (run as the page gives them), the
/// commit of the run, and where the change is.
@Suite("Goldens report page: counts, accept commands, commit, change marks")
struct GoldenReportPageTests {
  /// The shell line `command` run as a user would paste it, in `folder`, with
  /// the built glass-gpu first on PATH.
  static func runPasted(_ command: String, in folder: URL) throws -> TestProcess.Result {
    let bin = TestProcess.glassGPU.deletingLastPathComponent().path
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return try TestProcess.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["PATH": path, "SNAPSHOT_ARTIFACTS": ""],
      in: folder, timeout: 120)
  }

  /// A scene with a glass capsule at `x` over `color`.
  static func scene(_ color: String, x: Double = 4) -> String {
    SceneJSON.scene(
      width: 40, height: 24, scale: 1, background: color,
      layers: #"{"type": "glass", "shape": "capsule", "frame": {"x": \#(x), "y": 4, "width": 30, "height": 14}}"#)
  }

  @Test(
    "every case is counted once: passed, failed, new (recorded or without a reference) and errors add up to the cases")
  func countsAddUp() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let a = root.appendingPathComponent("a.png").path
    let b = root.appendingPathComponent("b.png").path
    try PNGCodec.OutputFile(path: a).write(ProceduralImages.gradient(width: 16, height: 8))
    try PNGCodec.OutputFile(path: b).write(ProceduralImages.gradient(width: 8, height: 16))
    var report = GoldenReport()
    report.backend = "cpu"
    var failed = GoldenCase(
      name: "failed", scene: "/s/failed.json", reference: a, status: .failed, failure: .imagesDiffer)
    failed.actual = b
    var missing = GoldenCase(
      name: "missing", scene: "/s/missing.json", reference: root.path + "/none.png", status: .failed,
      failure: .missingReference)
    missing.actual = a
    var size = GoldenCase(name: "size", scene: "/s/size.json", reference: a, status: .failed, failure: .sizeDiffers)
    size.actual = b
    report.cases = [
      GoldenCase(name: "passed", scene: "/s/passed.json", reference: a, status: .passed), failed, missing, size,
      GoldenCase(name: "recorded", scene: "/s/recorded.json", reference: a, status: .recorded),
      GoldenCase(name: "error", scene: "/s/error.json", status: .error, message: "bad scene"),
    ]
    let folder = root.appendingPathComponent("report").path
    try GoldenHTMLReport.write(report, to: folder, context: .init(references: root.path))
    let page = try ReportPage(path: folder + "/index.html")
    let statuses = Dictionary(
      uniqueKeysWithValues: page.cases.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
    #expect(
      statuses == [
        "passed": "passed", "failed": "failed", "missing": "new", "size": "failed", "recorded": "new", "error": "error",
      ])
    let summary = page.summary
    #expect(summary["cases"] as? Int == 6)
    #expect(summary["passed"] as? Int == 1 && summary["failed"] as? Int == 2, "\(summary)")
    #expect(summary["new"] as? Int == 2 && summary["errors"] as? Int == 1, "\(summary)")
    let sum = ["passed", "failed", "new", "errors"].compactMap { summary[$0] as? Int }.reduce(0, +)
    #expect(sum == report.cases.count, "\(summary)")
  }

  @Test(
    "the accept command of a scene in a subfolder, pasted into a shell, re-records refs/sub/NAME.png (not refs/NAME.png), and the next run passes"
  )
  func acceptInSubfolder() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try Data(Self.scene("orange").utf8).write(to: scenes.appendingPathComponent("top.json"))
    try Data(Self.scene("teal").utf8).write(to: scenes.appendingPathComponent("sub/nested.json"))
    let check = ["goldens", "scenes", "--references", "refs"]
    #expect(try TestProcess.runGlassGPU(check + ["--record", "missing"], in: root).status == 2)
    try Data(Self.scene("teal", x: 7).utf8).write(to: scenes.appendingPathComponent("sub/nested.json"))
    let before = try Data(contentsOf: root.appendingPathComponent("refs/sub/nested.png"))
    let failing = try TestProcess.runGlassGPU(check + ["--artifacts", "artifacts", "--report", "report"], in: root)
    #expect(failing.status == 1, "\(failing.stdout)")

    let page = try ReportPage(path: root.appendingPathComponent("report/index.html").path)
    let nested = try #require(page.case("sub/nested"), "\(page.cases)")
    #expect(nested["folder"] as? String == "sub")
    let accept = try #require(nested["accept"] as? String)
    #expect(page.case("top")?["accept"] == nil, "a passing case has nothing to accept")
    let accepted = try Self.runPasted(accept, in: root)
    #expect(accepted.status == 2, "\(accept): \(accepted.stdout) \(accepted.stderr)")
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("refs/nested.png").path), "\(accept)")
    let after = try Data(contentsOf: root.appendingPathComponent("refs/sub/nested.png"))
    #expect(after != before)
    let render = try PNGCodec.read(
      path: root.appendingPathComponent("report/\(nested["actual"] as? String ?? "")").path)
    #expect(try PNGCodec.read(path: root.appendingPathComponent("refs/sub/nested.png").path).image == render.image)
    let next = try TestProcess.runGlassGPU(check, in: root)
    #expect(next.status == 0, "\(next.stdout)")
  }

  @Test(
    "the command that accepts every failure, pasted into a shell, records the changed and the missing references of every variant (never pruning), and the next run passes"
  )
  func acceptEveryFailure() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes.appendingPathComponent("sub"), withIntermediateDirectories: true)
    for (name, color) in [("a", "orange"), ("b", "teal"), ("sub/c", "purple")] {
      try Data(Self.scene(color).utf8).write(to: scenes.appendingPathComponent("\(name).json"))
    }
    let check = ["goldens", "scenes", "--references", "refs", "--environments", "light,dark", "--max-diff", "0.5"]
    #expect(try TestProcess.runGlassGPU(check + ["--record", "missing"], in: root).status == 2)
    try Data(Self.scene("teal", x: 9).utf8).write(to: scenes.appendingPathComponent("b.json"))
    try Data(Self.scene("red").utf8).write(to: scenes.appendingPathComponent("sub/c.json"))
    try FileManager.default.removeItem(at: root.appendingPathComponent("refs/a.dark.png"))
    let stale = root.appendingPathComponent("refs/old.png")
    try PNGCodec.OutputFile(path: stale.path).write(ProceduralImages.gradient(width: 4, height: 4))
    let failing = try TestProcess.runGlassGPU(
      check + ["--artifacts", "artifacts", "--report", "report", "--prune"], in: root)
    #expect(failing.status == 1, "\(failing.stdout)")

    let page = try ReportPage(path: root.appendingPathComponent("report/index.html").path)
    let all = try #require(page.run["acceptAll"] as? String)
    #expect(!all.contains("--prune") && !all.contains("--report"), "\(all)")
    // Each failing case of a scene file has a command of its own too.
    for name in ["b.light", "b.dark", "sub/c.light", "sub/c.dark", "a.dark"] {
      #expect(page.case(name)?["accept"] is String, "\(name)")
    }
    let accepted = try Self.runPasted(all, in: root)
    #expect(accepted.status == 2, "\(all): \(accepted.stdout) \(accepted.stderr)")
    #expect(FileManager.default.fileExists(atPath: stale.path), "accepting never prunes")
    let next = try TestProcess.runGlassGPU(check, in: root)
    #expect(next.status == 0, "\(next.stdout)")
  }

  @Test("a manifest's case has no command of its own; the page offers the command that accepts every failure")
  func manifestCase() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(Self.scene("orange").utf8).write(to: root.appendingPathComponent("s.json"))
    try Data(#"{"scene": "s.json", "output": "custom/name.png"}"#.utf8).write(
      to: root.appendingPathComponent("m.jsonl"))
    let check = ["goldens", "--manifest", "m.jsonl", "--references", "refs"]
    #expect(try TestProcess.runGlassGPU(check + ["--record", "missing"], in: root).status == 2)
    try Data(Self.scene("orange", x: 8).utf8).write(to: root.appendingPathComponent("s.json"))
    #expect(
      try TestProcess.runGlassGPU(check + ["--artifacts", "artifacts", "--report", "report"], in: root).status == 1)
    let page = try ReportPage(path: root.appendingPathComponent("report/index.html").path)
    let item = try #require(page.case("custom/name"))
    #expect(item["accept"] == nil)
    let all = try #require(page.run["acceptAll"] as? String)
    #expect(all == "glass-gpu goldens --manifest m.jsonl --references refs --record failed")
    #expect(try Self.runPasted(all, in: root).status == 2)
    #expect(try TestProcess.runGlassGPU(check, in: root).status == 0)
  }

  @Test(
    "the change box is the bounding box of the pixels that differ outside the masks, and the overlay marks exactly those pixels red"
  )
  func changeMarks() throws {
    let reference = ProceduralImages.gradient(width: 50, height: 30)
    var changed: Set<[Int]> = [[7, 3], [40, 21], [12, 25], [45, 2]]
    let actual = RGBAImage(width: 50, height: 30) { x, y in
      let p = SIMD4<UInt8>(truncatingIfNeeded: reference.pixel16(x: x, y: y) &>> 8)
      return changed.contains([x, y]) ? SIMD4(p[0] ^ 0x40, p[1], p[2], p[3]) : p
    }
    let mask = PixelRect(x: 40, y: 0, width: 10, height: 10)  // leaves out (45, 2)
    let marks = GoldenHTMLReport.DifferenceMarks(actual, reference, masked: [mask], antiAliasing: false)
    changed.remove([45, 2])
    // The oracle: pixel by pixel, from the two images.
    var red: Set<[Int]> = []
    for y in 0..<30 {
      for x in 0..<50 where marks.overlay.pixel16(x: x, y: y)[3] != 0 {
        #expect(marks.overlay.pixel16(x: x, y: y) == SIMD4(65535, 0, 0, 65535))
        red.insert([x, y])
      }
    }
    #expect(red == changed)
    let xs = changed.map { $0[0] }
    let ys = changed.map { $0[1] }
    #expect(
      marks.box
        == PixelRect(
          x: xs.min() ?? -1, y: ys.min() ?? -1, width: (xs.max() ?? 0) - (xs.min() ?? 0) + 1,
          height: (ys.max() ?? 0) - (ys.min() ?? 0) + 1))
    #expect(GoldenHTMLReport.DifferenceMarks(reference, reference, masked: [], antiAliasing: false).box == nil)
  }

  /// Writes `text` into `path`, making its folder.
  static func put(_ text: String, _ path: URL) throws {
    try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: path)
  }

  @Test(
    "the run's commit is read from the repository's files: a detached HEAD, a branch's loose or packed ref, a worktree's; none outside a repository"
  )
  func commitFromFiles() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let one = String(repeating: "a1", count: 20)
    let two = String(repeating: "b2", count: 20)
    let three = String(repeating: "c3", count: 20)
    let repo = root.appendingPathComponent("repo")
    let deep = repo.appendingPathComponent("deep/er")
    try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
    #expect(GoldenHTMLReport.Context.commit(of: repo.path) == nil)
    try Self.put(one + "\n", repo.appendingPathComponent(".git/HEAD"))
    #expect(GoldenHTMLReport.Context.commit(of: deep.path) == one)
    try Self.put("ref: refs/heads/main\n", repo.appendingPathComponent(".git/HEAD"))
    #expect(GoldenHTMLReport.Context.commit(of: deep.path) == nil, "a branch with no commit yet")
    try Self.put(
      "# pack-refs with: peeled fully-peeled sorted\n\(two) refs/heads/main\n",
      repo.appendingPathComponent(".git/packed-refs"))
    #expect(GoldenHTMLReport.Context.commit(of: deep.path) == two)
    try Self.put(three + "\n", repo.appendingPathComponent(".git/refs/heads/main"))
    #expect(GoldenHTMLReport.Context.commit(of: repo.path) == three, "a loose ref wins over the packed one")
    // A worktree: its .git is a file naming its folder, which names the common one.
    let tree = root.appendingPathComponent("tree")
    try Self.put("gitdir: \(repo.path)/.git/worktrees/tree\n", tree.appendingPathComponent(".git"))
    try Self.put("ref: refs/heads/topic\n", repo.appendingPathComponent(".git/worktrees/tree/HEAD"))
    try Self.put("../..\n", repo.appendingPathComponent(".git/worktrees/tree/commondir"))
    try Self.put(one + "\n", repo.appendingPathComponent(".git/refs/heads/topic"))
    #expect(GoldenHTMLReport.Context.commit(of: tree.path) == one)
    #expect(GoldenHTMLReport.Context.commit(of: root.path) == nil)
  }

  static let git = ["/usr/bin/git", "/usr/local/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    "the commit the page shows is what git rev-parse HEAD says, in a repository, after pack-refs and in a worktree",
    .enabled(if: git != nil, "skipped: git is not installed (apt-get install -y git)"))
  func commitAsGitSays() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let git = URL(fileURLWithPath: try #require(Self.git))
    let repo = root.appendingPathComponent("repo")
    try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
    let identity = ["-c", "user.name=glass", "-c", "user.email=glass@example.com", "-c", "init.defaultBranch=main"]
    func run(_ arguments: [String], in folder: URL = repo) throws -> String {
      let result = try TestProcess.run(git, identity + arguments, in: folder, timeout: 60)
      #expect(result.status == 0, "git \(arguments): \(result.stderr)")
      return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    _ = try run(["init", "-q"])
    _ = try run(["commit", "-q", "--allow-empty", "-m", "first"])
    #expect(GoldenHTMLReport.Context.commit(of: repo.path) == (try run(["rev-parse", "HEAD"])))
    _ = try run(["commit", "-q", "--allow-empty", "-m", "second"])
    _ = try run(["pack-refs", "--all"])
    #expect(GoldenHTMLReport.Context.commit(of: repo.path) == (try run(["rev-parse", "HEAD"])))
    let tree = root.appendingPathComponent("tree")
    _ = try run(["worktree", "add", "-q", "-b", "topic", tree.path, "HEAD~1"])
    #expect(GoldenHTMLReport.Context.commit(of: tree.path) == (try run(["rev-parse", "HEAD"], in: tree)))
    #expect(GoldenHTMLReport.Context.commit(of: tree.path) != GoldenHTMLReport.Context.commit(of: repo.path))
    _ = try run(["checkout", "-q", "--detach", "HEAD~1"])
    #expect(GoldenHTMLReport.Context.commit(of: repo.path) == (try run(["rev-parse", "HEAD"])))
  }
}
