import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// How commands write their outputs: into folders they make when missing, with
/// stale temporaries swept once per folder, `--resume` knowing a whole JPEG or
/// WebP, and standard output written line by line.
@Suite("Outputs: missing folders, stale temporaries, resume and the log")
struct OutputFolderTests {
  /// A folder with `scene.json` (a 40x30 image scene) and `images/ok.png`.
  static func sceneFolder() throws -> URL { try OutputSafetyTests.sceneFolder() }

  @Test("every command that writes a file makes its missing folders, as the README's examples need")
  func missingFoldersAreMade() throws {
    let root = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("scene.json").path
    let moving = root.appendingPathComponent("moving.json").path
    try Data(AnimationRendererTests.moving.utf8).write(to: URL(fileURLWithPath: moving))
    let image = root.appendingPathComponent("images/ok.png").path
    func run(_ arguments: [String], status: Int32 = 0, makes files: [String]) throws {
      let result = try runCLI(arguments, in: root)
      #expect(result.status == status, "\(arguments.joined(separator: " ")): \(result.stderr) \(result.stdout)")
      for file in files {
        #expect(
          FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path),
          "\(arguments.first ?? ""): no \(file): \(result.stderr)")
      }
    }
    try run(["render", scene, "-o", "out/a/b/hero.jpg", "--backend", "cpu"], makes: ["out/a/b/hero.jpg"])
    try run(["render", scene, "-o", "out/c/d/hero.png", "--backend", "cpu"], makes: ["out/c/d/hero.png"])
    try run(
      ["extend", image, "-o", "out/e/f/wide.webp", "--leading", "4", "--trailing", "4", "--backend", "cpu"],
      makes: ["out/e/f/wide.webp"])
    try run(["compare", image, image, "--diff", "out/g/h/diff.png"], makes: ["out/g/h/diff.png"])
    try run(
      ["layout", scene, "--outline", "out/i/j/outline.png", "--backend", "cpu"], makes: ["out/i/j/outline.png"])
    try run(
      ["animate", moving, "-o", "out/k/l", "--backend", "cpu", "--fps", "20", "--quiet"],
      makes: ["out/k/l/frame-0000.png"])
    try run(
      ["animate", moving, "--format", "apng", "-o", "out/m/n/loop.png", "--backend", "cpu", "--fps", "20", "--quiet"],
      makes: ["out/m/n/loop.png"])
    try run(
      ["batch", scene, "-o", "out/o/p", "--report", "out/q/r/report.jsonl", "--backend", "cpu", "--quiet"],
      makes: ["out/o/p/scene.png", "out/q/r/report.jsonl"])
    // The README's CI recipe on a fresh clone: the JUnit report's folder is made.
    try run(
      ["goldens", scene, "--references", "refs", "--record", "missing", "--junit", "out/s/t/goldens.xml"], status: 2,
      makes: ["out/s/t/goldens.xml", "refs/scene.png"])
    try run(
      ["goldens", scene, "--references", "refs", "--junit", "out/u/goldens.xml", "--report", "out/v/w/report"]
        + ["--artifacts", "out/x/y", "--keep-renders"],
      makes: ["out/u/goldens.xml", "out/v/w/report/index.html", "out/x/y/scene.png"])
    if TestGPU.isAvailable {
      try run(["parity", scene, "--diff", "out/z/z/parity.png", "--max-diff", "255"], makes: ["out/z/z/parity.png"])
    } else {
      print("parity --diff into a missing folder: not run, \(TestGPU.skipReason)")
    }
  }

  @Test("a file in the way of an output's folder is named once, with the fix, and nothing is written")
  func fileInTheWay() throws {
    let root = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try Data("x".utf8).write(to: root.appendingPathComponent("out"))
    let result = try runCLI(["render", "scene.json", "-o", "out/a/hero.png", "--backend", "cpu"], in: root)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("cannot write out/a/hero.png: cannot make the folder out/a: out is a file, not a folder"),
      "\(result.stderr)")
    #expect(try String(contentsOf: root.appendingPathComponent("out"), encoding: .utf8) == "x")
  }

  /// The PID of a process that has ended (a shell that exited at once).
  static func deadPID() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  @Test("a folder is listed once for stale temporaries: one there then is removed when its output is written, once")
  func staleTemporariesSweptOncePerFolder() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let dead = try Self.deadPID()
    let png = try ImageEncoding().encoded(RGBAImage(width: 2, height: 2) { _, _ in SIMD4(1, 2, 3, 255) }, as: .png)
    func temporary(of name: String, _ tag: String) -> String { ".\(name).glass-gpu-\(dead)-\(tag).tmp" }
    let first = temporary(of: "x.png", "0000abcd")
    let other = temporary(of: "y.png", "0000abcd")
    for name in [first, other] {
      FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
    }
    // The first write lists the folder; x.png's stale temporary goes with x.png's write.
    try PNGCodec.OutputFile(path: folder.appendingPathComponent("a.png").path).write(encoded: png)
    #expect(files(in: folder) == ["a.png", first, other].sorted())
    try PNGCodec.OutputFile(path: folder.appendingPathComponent("x.png").path).write(encoded: png)
    #expect(files(in: folder) == ["a.png", other, "x.png"].sorted())
    // One left after the listing is not seen by this process again (it is not
    // listed again, however many outputs follow)...
    let later = temporary(of: "x.png", "0000beef")
    FileManager.default.createFile(atPath: folder.appendingPathComponent(later).path, contents: Data())
    for index in 0..<200 {
      try PNGCodec.OutputFile(path: folder.appendingPathComponent("n\(index).png").path).write(encoded: png)
    }
    try PNGCodec.OutputFile(path: folder.appendingPathComponent("x.png").path).write(encoded: png)
    #expect(files(in: folder).contains(later))
    // ...but by the next process that writes x.png there; y.png's stays with it.
    let scenes = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: scenes) }
    let result = try runCLI([
      "render", scenes.appendingPathComponent("scene.json").path, "-o", folder.appendingPathComponent("x.png").path,
      "--backend", "cpu",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!files(in: folder).contains(later) && files(in: folder).contains(other))
  }

  @Test("only a whole JPEG or WebP looks whole: not empty, not cut at any length, not another format")
  func wholeJPEGAndWebP() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let image = RGBAImage(width: 5, height: 3) { x, y in SIMD4(UInt8(x * 50), UInt8(y * 80), 9, 255) }
    let cut = root.appendingPathComponent("cut").path
    for format in [ImageEncoding.Format.jpeg, .webp, .png] {
      let bytes = Data(try ImageEncoding().encoded(image, as: format))
      try bytes.write(to: URL(fileURLWithPath: cut))
      for other in ImageEncoding.Format.allCases {
        #expect(PNGCodec.looksWhole(path: cut, format: other) == (other == format), "\(format) as \(other)")
      }
      for length in 0..<bytes.count {
        try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
        #expect(!PNGCodec.looksWhole(path: cut, format: format), "\(format) cut at \(length) of \(bytes.count)")
      }
    }
    #expect(!PNGCodec.looksWhole(path: root.path, format: .jpeg))
  }

  @Test("batch --resume skips whole JPEG and WebP outputs as it does PNGs, and renders cut, empty or foreign ones")
  func resumeSkipsWholeLossyOutputs() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let outputs = ["a.jpg", "b.jpeg", "c.webp", "d.png", "e.jpg", "f.webp", "g.jpg", "h.webp"]
    let lines = outputs.enumerated().map { index, output in
      BatchFixture.line([("id", "\"\(output)\""), ("scene", BatchFixture.scene(index)), ("output", "\"\(output)\"")])
    }
    try BatchFixture.put(lines.joined(separator: "\n") + "\n", "jobs.jsonl", in: root)
    let arguments = ["batch", "--manifest", "jobs.jsonl", "-o", "out", "--backend", "cpu", "--quiet"]
    let first = try runCLI(arguments, in: root)
    #expect(first.status == 0, "\(first.stderr)")
    let out = root.appendingPathComponent("out")
    // Damage four: cut, empty, a PNG where a JPEG is due, and cut by one byte.
    let e = try Data(contentsOf: out.appendingPathComponent("e.jpg"))
    try e.prefix(e.count / 2).write(to: out.appendingPathComponent("e.jpg"))
    try Data().write(to: out.appendingPathComponent("f.webp"))
    try Data(contentsOf: out.appendingPathComponent("d.png")).write(to: out.appendingPathComponent("g.jpg"))
    let h = try Data(contentsOf: out.appendingPathComponent("h.webp"))
    try h.dropLast().write(to: out.appendingPathComponent("h.webp"))
    let report = root.appendingPathComponent("report.jsonl")
    let resumed = try runCLI(arguments + ["--resume", "--report", report.path], in: root)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let statuses = BatchFixture.byID(try BatchFixture.report(report)).mapValues { $0["status"] as? String ?? "" }
    #expect(
      statuses == [
        "a.jpg": "skipped", "b.jpeg": "skipped", "c.webp": "skipped", "d.png": "skipped", "e.jpg": "rendered",
        "f.webp": "rendered", "g.jpg": "rendered", "h.webp": "rendered",
      ], "\(statuses)")
    for output in outputs {
      let path = out.appendingPathComponent(output).path
      let format = try #require(ImageEncoding.Format(pathExtension: output))
      #expect(PNGCodec.looksWhole(path: path, format: format), "\(output) is not whole after --resume")
    }
  }

  @Test("goldens' lines reach a log file as they are printed: killed (SIGKILL) halfway, the log has them")
  func linesReachTheLog() throws {
    let folder = try GoldenFolder(count: 120)
    defer { folder.remove() }
    let log = folder.root.appendingPathComponent("stderr.txt")
    let output = folder.root.appendingPathComponent("stdout.txt")
    let child = try TestProcess.Child(
      ["goldens", folder.scenes.path, "--references", folder.references.path, "--record", "missing"],
      in: folder.root, log: log, output: output)
    func recorded() -> Int {
      (try? FileManager.default.contentsOfDirectory(atPath: folder.references.path))?.count ?? 0
    }
    func lines() -> [Substring] {
      ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n")
    }
    // Block-buffered, nothing would reach the file before 4 KiB of lines (about
    // 60 of these) or the end; printed line by line, 10 lines come with the
    // tenth case, while the run goes on.
    try BatchFixture.waitUntil(child, log: log, what: "10 record lines reached the log") { lines().count >= 10 }
    kill(child.pid, SIGKILL)
    _ = try child.wait()
    let references = recorded()
    let named = lines().filter { $0.hasPrefix("record  ") }
    print("killed with \(references) references recorded: \(named.count) record lines in the log")
    #expect(named.count == lines().count, "only record lines: \(lines())")
    #expect(references < 120, "the run was killed halfway, not at its end")
    // Each case is printed once its reference is written: never a line before
    // its file (the lines trail the files by the cases in flight at most).
    #expect(named.count >= 10 && named.count <= references, "\(named.count) lines for \(references) references")
    for line in named {
      let name = line.dropFirst("record  ".count).prefix { $0 != ":" }
      #expect(FileManager.default.fileExists(atPath: folder.references.appendingPathComponent("\(name).png").path))
    }
  }
}
