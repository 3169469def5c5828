import Foundation
import GLESGlass
import GlassTestSupport
import Testing

/// README.md's shell examples, run as a reader would run them, so that they
/// cannot drift from the commands (issue 35, item 25).
///
/// Every ```sh block runs under bash in a fresh folder holding a copy of what the
/// repository ships for examples to read (`Assets`; and, as a project's own
/// `Tests` folder that the goldens examples name, a second copy of it, so that
/// `Tests/scenes` holds scenes), with the
/// built `glass-gpu` and `glass-gpu-bench` first on `PATH`, unless an HTML comment
/// on the line before its fence says why it is not run:
///
///     <!-- sh: not run: REASON -->
///
/// Each `glass-gpu` command of a block must exit 0, unless the comment on its
/// line, or the comment lines just above it, say which other exit it makes
/// ("exit 2: look at them", "exit 1 if any scene differs"). Any other command of a
/// block that fails fails the test (bash `-e`).
///
/// The README's quoted `validate` answer is checked against `validate`'s own.
@Suite("The README's shell examples run as written")
struct ReadmeCommandTests {
  /// A ```sh block: where it starts, why it is not run (nil: it runs), its lines.
  struct Block {
    var line: Int
    var notRun: String?
    var lines: [String]
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func readme() throws -> String {
    try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// The ```sh blocks of `text`.
  static func blocks(in text: String) throws -> [Block] {
    let lines = text.components(separatedBy: "\n")
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      guard lines[index].trimmingCharacters(in: .whitespaces) == "```sh" else {
        index += 1
        continue
      }
      var notRun: String?
      if let previous = lines[..<index].last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
        let marker = previous.trimmingCharacters(in: .whitespaces).wholeMatch(of: /<!-- sh: (.*) -->/)
      {
        guard let reason = String(marker.1).wholeMatch(of: /not run: (.+)/) else {
          throw GlassError(.invalidParameter, "README.md:\(index): unknown sh marker \"\(marker.1)\"")
        }
        notRun = String(reason.1)
      }
      var end = index + 1
      while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
      blocks.append(Block(line: index + 1, notRun: notRun, lines: Array(lines[index + 1..<end])))
      index = end + 1
    }
    return blocks
  }

  /// The exit statuses a command's comments allow: 0, and each `exit N` they name.
  static func allowedExits(_ lines: [String], command: Int) -> Set<Int32> {
    var comments: [String] = []
    if let hash = lines[command].range(of: " #") { comments.append(String(lines[command][hash.upperBound...])) }
    var above = command - 1
    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("#") {
      comments.append(lines[above])
      above -= 1
    }
    var allowed: Set<Int32> = [0]
    for comment in comments {
      for match in comment.matches(of: /exit(?:s)? (\d+)/) { allowed.insert(Int32(match.1) ?? 0) }
    }
    return allowed
  }

  /// A folder as a reader's clone gives it: the example inputs, and a `bin` whose
  /// `glass-gpu` records each run's status in `runs.log` (and exits 0, so that the
  /// block goes on and the test judges each status by its comment).
  static func sandbox() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
    let manager = FileManager.default
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    try manager.copyItem(at: root.appendingPathComponent("Assets"), to: folder.appendingPathComponent("Assets"))
    // A project's own test folder, as the goldens examples name it: its scenes
    // in Tests/scenes and the images they read beside them.
    try manager.copyItem(at: root.appendingPathComponent("Assets"), to: folder.appendingPathComponent("Tests"))
    let bin = folder.appendingPathComponent("bin")
    try manager.createDirectory(at: bin, withIntermediateDirectories: true)
    let built = TestProcess.glassGPU.deletingLastPathComponent()
    let wrapper = """
      #!/bin/bash
      "\(built.path)/glass-gpu" "$@"
      status=$?
      printf '%s\\t%s\\n' "$status" "$*" >> "\(folder.path)/runs.log"
      exit 0

      """
    try wrapper.write(to: bin.appendingPathComponent("glass-gpu"), atomically: true, encoding: .utf8)
    try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("glass-gpu").path)
    try manager.createSymbolicLink(
      at: bin.appendingPathComponent("glass-gpu-bench"),
      withDestinationURL: built.appendingPathComponent("glass-gpu-bench"))
    return folder
  }

  @Test("every sh block is run, or says why not")
  func markers() throws {
    let blocks = try Self.blocks(in: Self.readme())
    #expect(blocks.count >= 8, "the README's sh blocks were not found")
    for block in blocks where block.notRun != nil {
      #expect(block.notRun?.count ?? 0 >= 10, "README.md:\(block.line): say why the block is not run")
    }
    let running = blocks.filter { $0.notRun == nil }
    print("README sh blocks: \(running.count) run, \(blocks.count - running.count) not run")
    #expect(running.count * 2 >= blocks.count, "most of the README's examples must run")
  }

  @Test("the exits a command's comments allow are the ones they name")
  func exitsFromComments() {
    let lines = [
      "# First time: record (exit 2: look at them).", "glass-gpu goldens a --record missing",
      "glass-gpu parity x.json  # exit 1 over 3/255",
    ]
    #expect(Self.allowedExits(lines, command: 1) == [0, 2])
    #expect(Self.allowedExits(lines, command: 2) == [0, 1])
    #expect(Self.allowedExits(["glass-gpu render a.json -o b.png"], command: 0) == [0])
  }

  @Test("each sh block runs, and each glass-gpu command exits as its comment says")
  func blocksRun() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: TestProcess.glassGPU.path),
      "build glass-gpu first: \(TestProcess.glassGPU.path)")
    for block in try Self.blocks(in: Self.readme()) where block.notRun == nil {
      let folder = try Self.sandbox()
      defer { try? FileManager.default.removeItem(at: folder) }
      let script = "set -eo pipefail\n" + block.lines.joined(separator: "\n") + "\n"
      let bin = folder.appendingPathComponent("bin").path
      let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      let result = try TestProcess.run(
        URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["PATH": path], in: folder, timeout: 600)
      #expect(
        result.status == 0 && !result.timedOut,
        "README.md:\(block.line): the block failed (\(result.status)): \(result.stderr.suffix(2000))")
      let log = (try? String(contentsOf: folder.appendingPathComponent("runs.log"), encoding: .utf8)) ?? ""
      let runs = log.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
      let commands = block.lines.indices.filter {
        block.lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("glass-gpu ")
      }
      #expect(
        runs.count >= commands.count, "README.md:\(block.line): \(commands.count) commands, \(runs.count) ran")
      // Runs and command lines in order (a block's commands run once each, top to bottom).
      for (run, command) in zip(runs, commands) {
        let status = Int32(run.first ?? "") ?? -1
        let allowed = Self.allowedExits(block.lines, command: command)
        #expect(
          allowed.contains(status),
          """
          README.md:\(block.line + 1 + command): `\(block.lines[command])` exited \(status) \
          (its comment allows \(allowed.sorted())): \(result.stderr.suffix(1500))
          """)
      }
    }
  }

  @Test("the README's validate answer is validate's")
  func validateAnswer() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: TestProcess.glassGPU.path),
      "build glass-gpu first: \(TestProcess.glassGPU.path)")
    let readme = try Self.readme()
    let quoted = readme.matches(of: /`([a-z-]+\.json): valid, ([^`]+)`/)
    #expect(!quoted.isEmpty, "the README quotes no validate answer")
    for match in quoted {
      let result = try TestProcess.runGlassGPU(
        ["validate", String(match.1)], in: Self.root.appendingPathComponent("Assets/scenes"))
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(match.1): valid, \(match.2)",
        "README says `\(match.1): valid, \(match.2)`; validate says \(result.stdout)")
    }
  }
}
