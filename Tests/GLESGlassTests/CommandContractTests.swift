import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

#if canImport(FoundationXML)
  import FoundationXML
#endif

// What the commands promise about the files they read and write, checked through
// the real binary as a hostile or careless user would meet it: manifests from
// pipes and devices, paths that name one file in different spellings or hold a
// NUL, reports that name an input, artifacts folders with links planted in them,
// and the help texts' promises. Each test fails on the behaviour the issue found.

/// Shared pieces of the contract tests.
enum Contract {
  /// Runs the command under `timeout`: a command that hangs is killed after
  /// `seconds` and fails the test instead of holding the suite.
  static func bounded(_ seconds: Int = 120) -> String {
    "exec timeout -s KILL \(seconds) \"$GLASS_GPU\" \"$@\""
  }

  /// The contents of `url` as text ("" when unreadable).
  static func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

  /// The file type of `path` itself (links not followed), or nil when missing.
  static func kind(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// True when the process ended by exiting, not by a signal (a crash).
  static func exited(_ result: CLIResult) -> Bool { result.reason == .exit }

  /// The peak resident memory the binary wrote at exit, in MiB.
  static func peakMiB(_ file: URL) -> Double {
    (Double(text(file).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) / 1024
  }

  /// A prefix that runs the binary as user `nobody` when this process is root
  /// (permissions do not stop root), or nil when it is not root; `setpriv` must exist.
  static var asNobody: String? {
    guard geteuid() == 0 else { return nil }
    return "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$GLASS_GPU\" \"$@\""
  }
}

// MARK: - Batch

@Suite("Batch: manifests from pipes and devices, and their limits")
struct BatchManifestStreamTests {
  @Test("--manifest - with standard input closed is an error naming it, not a crash")
  func closedStandardInput() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try runCLI(
      ["batch", "--manifest", "-", "-o", "out", "--backend", "cpu"], in: root,
      shell: "exec \"$GLASS_GPU\" \"$@\" <&-")
    #expect(Contract.exited(result) && result.status == 1, "\(result.reason) \(result.status): \(result.stderr)")
    #expect(result.stderr.contains("standard input is closed"), "\(result.stderr)")
  }

  @Test("a manifest from a FIFO or a pipe (/dev/stdin) renders every job: the pipe is read once, as it streams")
  func pipesStream() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let lines = [
      "L1": BatchFixture.line([("scene", "\"s.json\""), ("output", "\"a.png\"")]),
      "L2": BatchFixture.line([("scene", "\"s.json\""), ("output", "\"b.png\""), ("scale", "2")]),
    ]
    // A FIFO with a writer on the other end.
    #expect(mkfifo(root.appendingPathComponent("m.fifo").path, 0o600) == 0)
    let fifo = try runCLI(
      ["batch", "--manifest", "m.fifo", "-o", "fifo", "--backend", "cpu"], environment: lines, in: root,
      shell: "printf '%s\\n' \"$L1\" \"$L2\" > m.fifo & exec timeout -s KILL 120 \"$GLASS_GPU\" \"$@\"")
    #expect(fifo.status == 0, "FIFO: exit \(fifo.status): \(fifo.stderr)")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("fifo")) == ["a.png", "b.png"], "\(fifo.stderr)")
    #expect(fifo.stderr.contains("2 jobs, 2 rendered"), "\(fifo.stderr)")
    // A pipe named as a file.
    let pipe = try runCLI(
      ["batch", "--manifest", "/dev/stdin", "-o", "pipe", "--backend", "cpu"], environment: lines, in: root,
      shell: "printf '%s\\n' \"$L1\" \"$L2\" | exec timeout -s KILL 120 \"$GLASS_GPU\" \"$@\"")
    #expect(pipe.status == 0, "pipe: exit \(pipe.status): \(pipe.stderr)")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("pipe")) == ["a.png", "b.png"], "\(pipe.stderr)")
  }

  @Test("/dev/zero as a manifest fails at once at the line limit, in bounded memory, exit 1")
  func endlessLine() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let peak = root.appendingPathComponent("peak.txt")
    let result = try runCLI(
      ["batch", "--manifest", "/dev/zero", "-o", "out", "--backend", "cpu"],
      environment: ["GLASS_GPU_PEAK_MEMORY_FILE": peak.path], in: root, shell: Contract.bounded(60))
    #expect(Contract.exited(result) && result.status == 1, "\(result.reason) \(result.status): \(result.stderr)")
    #expect(
      result.stderr.contains("/dev/zero:1: ")
        && result.stderr.contains("longer than \(BatchManifest.maximumLineBytes >> 20) MiB"), "\(result.stderr)")
    // The limit's line, its growth, and the process: far from the 4.2 GB read before.
    #expect(Contract.peakMiB(peak) < 400, "peak \(Contract.peakMiB(peak)) MiB")
  }

  @Test("a 300 MB line on standard input fails at the limit without holding the line")
  func longLineOnStandardInput() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let peak = root.appendingPathComponent("peak.txt")
    let result = try runCLI(
      ["batch", "--manifest", "-", "-o", "out", "--backend", "cpu"],
      environment: ["GLASS_GPU_PEAK_MEMORY_FILE": peak.path], in: root,
      shell: "head -c 300000000 /dev/zero | tr '\\000' a | exec timeout -s KILL 120 \"$GLASS_GPU\" \"$@\"")
    #expect(Contract.exited(result) && result.status == 1, "\(result.reason) \(result.status): \(result.stderr)")
    #expect(result.stderr.contains("standard input:1: ") && result.stderr.contains("MiB"), "\(result.stderr)")
    #expect(Contract.peakMiB(peak) < 400, "peak \(Contract.peakMiB(peak)) MiB for a 300 MB line")
  }

  @Test("/dev/urandom as a manifest ends at its first NUL byte, exit 1, instead of running for ever")
  func randomBytes() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try runCLI(
      ["batch", "--manifest", "/dev/urandom", "-o", "out", "--backend", "cpu", "--quiet"], in: root,
      shell: Contract.bounded(60))
    #expect(Contract.exited(result) && result.status == 1, "\(result.reason) \(result.status)")
    #expect(result.stderr.contains("NUL byte"), "\(result.stderr.suffix(400))")
  }

  @Test("a line that is not UTF-8 fails alone naming its line; a NUL byte ends the manifest there")
  func hostileBytes() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    func job(_ output: String) -> [UInt8] { Array("{\"scene\": \"s.json\", \"output\": \"\(output)\"}\n".utf8) }
    var bytes = job("a.png")
    bytes += Array("{\"scene\": \"s.json\", \"output\": \"".utf8) + [0xFF, 0xFE] + Array(".png\"}\n".utf8)
    bytes += job("b.png")
    bytes += Array("{\"scene\": \"s.json\",".utf8) + [0] + Array(" \"output\": \"n.png\"}\n".utf8)
    bytes += job("c.png")
    try Data(bytes).write(to: root.appendingPathComponent("m.jsonl"))
    let result = try runCLI(["batch", "--manifest", "m.jsonl", "-o", "out", "--backend", "cpu"], in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    #expect(result.stderr.contains("m.jsonl:2: ") && result.stderr.contains("not UTF-8"), "\(result.stderr)")
    #expect(result.stderr.contains("m.jsonl:4: ") && result.stderr.contains("NUL byte"), "\(result.stderr)")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("out")) == ["a.png", "b.png"])
  }

  @Test("a UTF-8 byte order mark at the start of a manifest or a scene file is accepted")
  func byteOrderMark() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put("\u{FEFF}" + BatchFixture.scene(0), "s.json", in: root)
    try BatchFixture.put(
      "\u{FEFF}" + BatchFixture.line([("scene", "\"s.json\""), ("output", "\"a.png\"")]) + "\n", "m.jsonl", in: root)
    let validate = try runCLI(["validate", "s.json"], in: root)
    #expect(validate.status == 0 && validate.stdout.contains("valid"), "\(validate.stderr)")
    let batch = try runCLI(["batch", "--manifest", "m.jsonl", "-o", "out", "--backend", "cpu"], in: root)
    #expect(batch.status == 0, "\(batch.stderr)")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("out")) == ["a.png"])
  }
}

@Suite("Batch: shards of any size, and what the messages suggest")
struct BatchShardContractTests {
  @Test("--shard 0/9223372036854775807 renders job 0 and exits 0 (no overflow)")
  func hugeShardCount() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    try BatchFixture.put(BatchFixture.scene(1), "t.json", in: root)
    let result = try runCLI(
      ["batch", "s.json", "t.json", "-o", "out", "--backend", "cpu", "--shard", "0/\(Int.max)"], in: root)
    #expect(Contract.exited(result) && result.status == 0, "\(result.reason) \(result.status): \(result.stderr)")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("out")) == ["s.png"])
    let last = try runCLI(
      ["batch", "s.json", "t.json", "-o", "last", "--backend", "cpu", "--shard", "\(Int.max - 1)/\(Int.max)"],
      in: root)
    #expect(Contract.exited(last) && last.status == 0, "\(last.reason) \(last.status): \(last.stderr)")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("last")).isEmpty)
  }

  @Test(
    "a bad --shard says what is wrong and suggests shards of the N given",
    arguments: [
      ("-1/2", "0/2, 1/2"), ("2/2", "0/2, 1/2"), ("5/4", "0/4, 1/4, ..., 3/4"), ("x/8", "0/8, 1/8, ..., 7/8"),
      ("1/1", "0/1"),
    ])
  func shardMessages(_ shard: String, _ suggestion: String) throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let result = try runCLI(["batch", "s.json", "-o", "out", "--backend", "cpu", "--shard", shard], in: root)
    #expect(result.status == 64, "\(shard): exit \(result.status): \(result.stderr)")
    #expect(result.stderr.contains("--shard") && result.stderr.contains(suggestion), "\(shard): \(result.stderr)")
    #expect(!result.stderr.contains("Missing value"), "\(shard): \(result.stderr)")
    if !suggestion.contains("/3") { #expect(!result.stderr.contains("0/3"), "\(shard): \(result.stderr)") }
  }
}

@Suite("Batch: outputs, reports and the files they must not touch")
struct BatchOutputContractTests {
  @Test("a NUL in a manifest's output or scene path is refused naming the field; nothing is written through it")
  func nulInManifestPaths() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let victim = root.appendingPathComponent("victim.txt")
    try Data("precious".utf8).write(to: victim)
    let manifestText = [
      BatchFixture.line([("scene", "\"s.json\""), ("output", "\"\(victim.path)\\u0000.png\"")]),
      BatchFixture.line([("scene", "\"s.json\""), ("output", "\"../m.jsonl\\u0000.png\"")]),
      BatchFixture.line([("scene", "\"victim.txt\\u0000s.json\""), ("output", "\"c.png\"")]),
    ].joined(separator: "\n")
    let manifest = try BatchFixture.put(manifestText + "\n", "m.jsonl", in: root)
    let result = try runCLI(["batch", "--manifest", "m.jsonl", "-o", "out", "--backend", "cpu"], in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    for line in 1...3 { #expect(result.stderr.contains("m.jsonl:\(line): "), "line \(line): \(result.stderr)") }
    #expect(result.stderr.components(separatedBy: "NUL character").count == 4, "\(result.stderr)")
    #expect(Contract.text(victim) == "precious")
    #expect(Contract.text(manifest) == manifestText + "\n")
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("out")).isEmpty)
  }

  @Test("a NUL in a scene's image path is refused by validate, naming the field")
  func nulInImagePath() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.writePhoto(in: root)
    try BatchFixture.put(BatchFixture.scene(0, image: "images/photo.png\\u0000.txt"), "s.json", in: root)
    let result = try runCLI(["validate", "s.json"], in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("layers[1].source") && result.stderr.contains("NUL"), "\(result.stderr)")
  }

  @Test("--report naming the manifest, a scene, or a link to one is refused and the input is unchanged")
  func reportNamingAnInput() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let sceneText = BatchFixture.scene(0)
    let scene = try BatchFixture.put(sceneText, "s.json", in: root)
    let manifestText = BatchFixture.line([("scene", "\"s.json\""), ("output", "\"a.png\"")]) + "\n"
    let manifest = try BatchFixture.put(manifestText, "m.jsonl", in: root)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("r.jsonl").path, withDestinationPath: "m.jsonl")
    for (arguments, input) in [
      (["s.json", "--report", "s.json"], "s.json"), (["s.json", "--report", "./s.json"], "s.json"),
      (["--manifest", "m.jsonl", "--report", "m.jsonl"], "m.jsonl"),
      (["--manifest", "m.jsonl", "--report", "r.jsonl"], "m.jsonl"),
    ] {
      let result = try runCLI(["batch"] + arguments + ["-o", "out", "--backend", "cpu"], in: root)
      #expect(result.status == 1, "\(arguments): exit \(result.status): \(result.stderr)")
      #expect(result.stderr.contains("cannot write the report") && result.stderr.contains(input), "\(result.stderr)")
    }
    #expect(Contract.text(scene) == sceneText)
    #expect(Contract.text(manifest) == manifestText)
  }

  @Test(
    "--report naming a scene that only a manifest line names: the scene is unchanged, no report is put there, exit 1")
  func reportNamingAManifestScene() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let sceneText = BatchFixture.scene(0)
    let scene = try BatchFixture.put(sceneText, "s.json", in: root)
    try BatchFixture.put(BatchFixture.scene(1), "t.json", in: root)
    let manifestText =
      [
        BatchFixture.line([("scene", "\"t.json\""), ("output", "\"t.png\"")]),
        BatchFixture.line([("scene", "\"s.json\""), ("output", "\"s.png\"")]),
      ].joined(separator: "\n") + "\n"
    try BatchFixture.put(manifestText, "m.jsonl", in: root)
    let result = try runCLI(
      ["batch", "--manifest", "m.jsonl", "-o", "out", "--backend", "cpu", "--jobs", "1", "--report", "s.json"], in: root
    )
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    #expect(
      result.stderr.contains("cannot write the report s.json: it is the scene of manifest line 2"), "\(result.stderr)")
    #expect(Contract.text(scene) == sceneText)
    // The renders were written, and no temporary file is left beside the scene.
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("out")) == ["s.png", "t.png"])
    let left = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    #expect(left == ["m.jsonl", "out", "s.json", "t.json"], "\(left)")
  }

  @Test("an output that is a link to the manifest fails its job; the manifest is unchanged")
  func outputLinkedToManifest() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let manifestText = BatchFixture.line([("scene", "\"s.json\""), ("output", "\"link.png\"")]) + "\n"
    let manifest = try BatchFixture.put(manifestText, "m.jsonl", in: root)
    let out = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: out.appendingPathComponent("link.png").path, withDestinationPath: manifest.path)
    let result = try runCLI(["batch", "--manifest", "m.jsonl", "-o", "out", "--backend", "cpu"], in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    #expect(
      result.stderr.contains("m.jsonl:1: ") && result.stderr.contains("same file as the input"), "\(result.stderr)")
    #expect(Contract.text(manifest) == manifestText)
  }

  @Test("outputs that name one file in different spellings or through a link: only the first job writes it")
  func outputSpellings() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let out = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out.appendingPathComponent("real"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: out.appendingPathComponent("alias").path, withDestinationPath: "real")
    let outputs = [
      "d.png", "./d.png", "x/../d.png", "sub//e.png", "sub/e.png", "\(out.path)/d.png", "real/f.png", "alias/f.png",
    ]
    let manifest = outputs.map { BatchFixture.line([("scene", "\"s.json\""), ("output", "\"\($0)\"")]) }
    try BatchFixture.put(manifest.joined(separator: "\n") + "\n", "m.jsonl", in: root)
    let report = root.appendingPathComponent("report.jsonl")
    let result = try runCLI(
      ["batch", "--manifest", "m.jsonl", "-o", "out", "--backend", "cpu", "--jobs", "1", "--report", report.path],
      in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    let byID = BatchFixture.byID(try BatchFixture.report(report))
    let rendered = Set(byID.filter { BatchFixture.text($0.value["status"]) == "rendered" }.keys)
    #expect(rendered == ["1", "4", "7"], "rendered: \(rendered.sorted()); \(result.stderr)")
    for id in ["2", "3", "5", "6", "8"] {
      #expect(
        BatchFixture.text(byID[id]?["error"])?.contains("is also the output of") == true,
        "job \(id): \(byID[id] ?? [:])")
    }
  }

  @Test("a report that cannot be written (/dev/full) is an error: a message and exit 1")
  func reportOnAFullDevice() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let result = try runCLI(["batch", "s.json", "-o", "out", "--backend", "cpu", "--report", "/dev/full"], in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    #expect(
      result.stderr.contains("cannot write the report /dev/full") && result.stderr.contains("space"), "\(result.stderr)"
    )
    // The render itself was written.
    #expect(BatchFixture.outputs(under: root.appendingPathComponent("out")) == ["s.png"])
  }

  @Test("--resume renders again an output that is empty, not a PNG, or cut short; it skips a whole one")
  func resumeChecksOutputs() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["a", "b", "c", "d"] { try BatchFixture.put(BatchFixture.scene(name.count), "\(name).json", in: root) }
    let whole = try runCLI(["batch", "d.json", "c.json", "-o", "out", "--backend", "cpu"], in: root)
    try #require(whole.status == 0, "\(whole.stderr)")
    let out = root.appendingPathComponent("out")
    let png = try Data(contentsOf: out.appendingPathComponent("c.png"))
    try Data().write(to: out.appendingPathComponent("a.png"))
    try Data("garbage".utf8).write(to: out.appendingPathComponent("b.png"))
    try png.prefix(png.count / 2).write(to: out.appendingPathComponent("c.png"))
    let dBefore = try Data(contentsOf: out.appendingPathComponent("d.png"))
    let report = root.appendingPathComponent("r.jsonl")
    let result = try runCLI(
      [
        "batch", "a.json", "b.json", "c.json", "d.json", "-o", "out", "--backend", "cpu", "--resume", "--report",
        report.path,
      ], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let byID = BatchFixture.byID(try BatchFixture.report(report))
    for name in ["a", "b", "c"] {
      #expect(
        BatchFixture.text(byID["\(name).json"]?["status"]) == "rendered", "\(name): \(byID["\(name).json"] ?? [:])")
      #expect((try? PNGCodec.read(path: out.appendingPathComponent("\(name).png").path)) != nil, "\(name).png")
    }
    #expect(BatchFixture.text(byID["d.json"]?["status"]) == "skipped")
    #expect(try Data(contentsOf: out.appendingPathComponent("d.png")) == dBefore)
  }

  @Test("two --manifest options are refused (64), not the first silently dropped")
  func twoManifests() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    for name in ["a", "b"] {
      try BatchFixture.put(
        BatchFixture.line([("scene", "\"s.json\""), ("output", "\"\(name).png\"")]) + "\n", "\(name).jsonl", in: root)
    }
    let batch = try runCLI(
      ["batch", "--manifest", "a.jsonl", "--manifest", "b.jsonl", "-o", "out", "--backend", "cpu"], in: root)
    #expect(batch.status == 64 && batch.stderr.contains("--manifest is given 2 times"), "\(batch.stderr)")
    let goldens = try runCLI(
      ["goldens", "--manifest", "a.jsonl", "--manifest", "b.jsonl", "--references", "refs"], in: root)
    #expect(goldens.status == 64 && goldens.stderr.contains("--manifest is given 2 times"), "\(goldens.stderr)")
  }

  @Test("an output folder that cannot be written is named with the fix, never as an NSCocoaErrorDomain code")
  func readOnlyOutputFolder() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let locked = root.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    let shell = Contract.asNobody
    if shell == nil { chmod(locked.path, 0o555) }
    defer { chmod(locked.path, 0o755) }
    // The folder itself, a folder to be made in it, and a render's temporary in it.
    for (output, says) in [("locked/sub", "cannot make the output folder"), ("locked", "cannot write")] {
      let result = try runCLI(["batch", "s.json", "-o", output, "--backend", "cpu"], in: root, shell: shell)
      #expect(result.status == 1, "\(output): exit \(result.status): \(result.stderr)")
      #expect(
        result.stderr.contains(says) && result.stderr.contains("not writable")
          && result.stderr.contains("permission denied") && !result.stderr.contains("NSCocoaErrorDomain"),
        "\(output): \(result.stderr)")
    }
  }
}

// MARK: - Goldens

@Suite("Goldens: the report, the artifacts folder and the references")
struct GoldensContractTests {
  /// A folder with the scene `s.json`, its reference recorded in `refs`, and an
  /// empty `art` folder.
  static func recorded() throws -> URL {
    let root = try makeTemporaryFolder()
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let record = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--record", "missing", "--artifacts", "art"], in: root)
    try #require(record.status == 2, "recording: \(record.stdout) \(record.stderr)")
    return root
  }

  /// Changes the scene so that it no longer matches its reference.
  static func change(_ root: URL) throws {
    try BatchFixture.put(BatchFixture.scene(1), "s.json", in: root)
  }

  @Test("a missing references folder exits 1 and still writes the JUnit report, the error as its one case")
  func missingReferencesFolder() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let junit = root.appendingPathComponent("junit.xml")
    let result = try runCLI(
      ["goldens", "s.json", "--references", "nowhere", "--artifacts", "art", "--junit", junit.path], in: root)
    #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
    #expect(result.stderr.contains("nowhere") && result.stderr.contains("--record missing"), "\(result.stderr)")
    let xml = try XMLDocument(contentsOf: junit)
    let errors = try xml.nodes(forXPath: "//testcase/error")
    #expect(errors.count == 1)
    #expect((errors.first as? XMLElement)?.attribute(forName: "message")?.stringValue?.contains("nowhere") == true)
    #expect(try xml.nodes(forXPath: "/testsuites[@errors='1' and @tests='1']").count == 1)
  }

  @Test("a missing reference is typed missing-reference in the JUnit report, a change images-differ")
  func failureTypes() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(2), "new.json", in: root)
    try Self.change(root)
    let junit = root.appendingPathComponent("junit.xml")
    let result = try runCLI(
      ["goldens", "s.json", "new.json", "--references", "refs", "--artifacts", "art", "--junit", junit.path], in: root)
    #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
    let xml = try XMLDocument(contentsOf: junit)
    #expect(try xml.nodes(forXPath: "//testcase[@name='new']/failure[@type='missing-reference']").count == 1)
    #expect(try xml.nodes(forXPath: "//testcase[@name='s']/failure[@type='images-differ']").count == 1)
  }

  @Test("--quiet prints only failures, errors and the summary: no passes, no recordings")
  func quietIsQuiet() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    let all = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--artifacts", "art", "--record", "all", "--quiet"], in: root)
    #expect(all.status == 2, "\(all.stdout) \(all.stderr)")
    let lines = all.stdout.split(separator: "\n")
    #expect(lines.count == 1 && lines.first?.hasPrefix("goldens: 1 scenes") == true, "\(all.stdout)")
    try Self.change(root)
    let failed = try runCLI(["goldens", "s.json", "--references", "refs", "--artifacts", "art", "--quiet"], in: root)
    #expect(failed.stdout.contains("FAIL    s"), "\(failed.stdout)")
  }

  @Test("without --artifacts each run writes into a new private folder (mode 0700), named in the summary")
  func privateArtifactsFolder() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.change(root)
    let temporary = root.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let environment = ["TMPDIR": temporary.path, "SNAPSHOT_ARTIFACTS": ""]
    var folders: [String] = []
    for _ in 0..<2 {
      let result = try runCLI(["goldens", "s.json", "--references", "refs"], environment: environment, in: root)
      #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
      let summary = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
      let marker = "failures' images in "
      guard let range = summary.range(of: marker) else {
        Issue.record("the summary names no folder: \(summary)")
        continue
      }
      folders.append(String(summary[range.upperBound...]))
    }
    #expect(folders.count == 2 && Set(folders).count == 2, "\(folders)")
    for folder in folders {
      #expect(folder.hasPrefix(temporary.path + "/glass-gpu-goldens-"), "\(folder)")
      var info = stat()
      #expect(
        lstat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700, "\(folder)")
      #expect(files(in: URL(fileURLWithPath: folder)) == ["s-diff.png", "s.png"], "\(folder)")
    }
    // A run that keeps nothing leaves no folder behind.
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let pass = try runCLI(["goldens", "s.json", "--references", "refs"], environment: environment, in: root)
    #expect(pass.status == 0, "\(pass.stdout)")
    #expect(files(in: temporary).count == 2, "\(files(in: temporary))")
  }

  @Test("a link planted in the artifacts folder is refused, never followed: the file it leads to is unchanged")
  func plantedLink() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.change(root)
    let victim = root.appendingPathComponent("victim.txt")
    try Data("precious".utf8).write(to: victim)
    let art = root.appendingPathComponent("art")
    try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
    for name in ["s.png", "s-diff.png"] {
      try? FileManager.default.removeItem(at: art.appendingPathComponent(name))
      try FileManager.default.createSymbolicLink(
        atPath: art.appendingPathComponent(name).path, withDestinationPath: victim.path)
    }
    let result = try runCLI(["goldens", "s.json", "--references", "refs", "--artifacts", "art"], in: root)
    #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("symbolic link"), "\(result.stdout)")
    #expect(Contract.text(victim) == "precious")
    // A folder in the artifacts that is a link is refused the same way.
    try BatchFixture.put(BatchFixture.scene(0), "deep/nested/t.json", in: root)
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: art.appendingPathComponent("nested").path, withDestinationPath: elsewhere.path)
    let nested = try runCLI(
      ["goldens", "deep", "--references", "refs2", "--artifacts", "art", "--record", "missing"], in: root)
    #expect(nested.status == 1, "\(nested.stdout) \(nested.stderr)")
    #expect(files(in: elsewhere).isEmpty, "\(files(in: elsewhere))")
  }

  @Test(
    "a reference that is an absolute link is compared through it, under its own name; --record writes no stray file")
  func linkedReference() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = root.appendingPathComponent("store")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      at: root.appendingPathComponent("refs/s.png"), to: store.appendingPathComponent("stored-elsewhere.png"))
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("refs/s.png").path,
      withDestinationPath: store.appendingPathComponent("stored-elsewhere.png").path)
    let check = try runCLI(["goldens", "s.json", "--references", "refs", "--artifacts", "art"], in: root)
    #expect(check.status == 0 && check.stdout.contains("pass    s\n"), "\(check.stdout) \(check.stderr)")
    let record = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--artifacts", "art", "--record", "missing"], in: root)
    #expect(record.status == 0, "\(record.stdout)")
    #expect(files(in: root.appendingPathComponent("refs")) == ["s.png"])
    #expect(Contract.kind(root.appendingPathComponent("refs/s.png").path) == S_IFLNK)
  }

  @Test("a reference that is a folder or a FIFO is named as such, not as missing, and never recorded over")
  func referenceKinds() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "a.json", in: root)
    try BatchFixture.put(BatchFixture.scene(1), "b.json", in: root)
    let refs = root.appendingPathComponent("refs")
    try FileManager.default.createDirectory(at: refs.appendingPathComponent("a.png"), withIntermediateDirectories: true)
    #expect(mkfifo(refs.appendingPathComponent("b.png").path, 0o600) == 0)
    for record in ["never", "all"] {
      let result = try runCLI(
        ["goldens", "a.json", "b.json", "--references", "refs", "--artifacts", "art", "--record", record], in: root,
        shell: Contract.bounded(120))
      #expect(Contract.exited(result) && result.status == 1, "\(record): \(result.reason) \(result.stdout)")
      #expect(result.stdout.contains("ERROR   a: ") && result.stdout.contains("is a folder"), "\(result.stdout)")
      #expect(result.stdout.contains("ERROR   b: ") && result.stdout.contains("is a FIFO"), "\(result.stdout)")
      #expect(!result.stdout.contains("there is no reference"), "\(result.stdout)")
    }
    #expect(Contract.kind(refs.appendingPathComponent("a.png").path) == S_IFDIR)
    #expect(Contract.kind(refs.appendingPathComponent("b.png").path) == S_IFIFO)
  }

  @Test("an unreadable references folder is named as such, not as a missing reference")
  func unreadableReferences() throws {
    let root = try Self.recorded()
    defer {
      chmod(root.appendingPathComponent("refs").path, 0o755)
      try? FileManager.default.removeItem(at: root)
    }
    let art = root.appendingPathComponent("art")
    chmod(art.path, 0o777)
    chmod(root.appendingPathComponent("refs").path, 0o700)
    let shell = Contract.asNobody
    if shell == nil { chmod(root.appendingPathComponent("refs").path, 0o000) }
    let result = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--artifacts", "art"], in: root, shell: shell)
    #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
    #expect(
      result.stdout.contains("ERROR   s: ") && result.stdout.contains("permission denied")
        && !result.stdout.contains("there is no reference"), "\(result.stdout) \(result.stderr)")
  }

  @Test("--junit naming an input (a scene, the manifest, a reference) is refused and the input is unchanged")
  func junitNamingAnInput() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("s.json")
    let sceneText = Contract.text(scene)
    let manifestText = BatchFixture.line([("scene", "\"s.json\""), ("output", "\"s.png\"")]) + "\n"
    let manifest = try BatchFixture.put(manifestText, "m.jsonl", in: root)
    let reference = root.appendingPathComponent("refs/s.png")
    let referenceBytes = try Data(contentsOf: reference)
    for (arguments, junit) in [
      (["s.json"], "s.json"), (["--manifest", "m.jsonl"], "m.jsonl"), (["s.json"], "./refs/s.png"),
    ] {
      let result = try runCLI(
        ["goldens"] + arguments + ["--references", "refs", "--artifacts", "art", "--junit", junit], in: root)
      #expect(result.status == 1, "\(junit): \(result.stdout) \(result.stderr)")
      #expect(result.stderr.contains("cannot write the JUnit report"), "\(junit): \(result.stderr)")
    }
    #expect(Contract.text(scene) == sceneText)
    #expect(Contract.text(manifest) == manifestText)
    #expect(try Data(contentsOf: reference) == referenceBytes)
  }

  @Test("--record does not write through a manifest output cut at a NUL")
  func recordRefusesNul() throws {
    let root = try Self.recorded()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(
      BatchFixture.line([("scene", "\"s.json\""), ("output", "\"victim3.txt\\u0000.png\"")]) + "\n", "m.jsonl",
      in: root)
    let result = try runCLI(
      ["goldens", "--manifest", "m.jsonl", "--references", "refs", "--artifacts", "art", "--record", "all"], in: root)
    #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("NUL character"), "\(result.stdout)")
    #expect(files(in: root.appendingPathComponent("refs")) == ["s.png"])
  }
}

// MARK: - compare --diff

@Suite("compare --diff draws what its help says")
struct DifferenceImageContractTests {
  @Test("each channel's difference x16, at least 64 where there is any, black where equal; the help and README say so")
  func differenceScale() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let steps = [0, 1, 2, 3, 4, 5, 10, 15, 16, 100]
    let a = RGBAImage(width: steps.count, height: 1) { _, _ in SIMD4(100, 100, 100, 255) }
    let b = RGBAImage(width: steps.count, height: 1) { x, _ in SIMD4(UInt8(100 + steps[x]), 100, 100, 255) }
    try PNGCodec.write(a, to: root.appendingPathComponent("a.png").path)
    try PNGCodec.write(b, to: root.appendingPathComponent("b.png").path)
    let result = try runCLI(["compare", "a.png", "b.png", "--diff", "d.png"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let drawn = try PNGCodec.read(path: root.appendingPathComponent("d.png").path).image
    for (x, d) in steps.enumerated() {
      let expected = d == 0 ? 0 : min(255, max(64, 16 * d))
      #expect(drawn.rgba8(x, 0) == SIMD4(expected, 0, 0, 255), "\(d)/255 drawn as \(drawn.rgba8(x, 0))")
    }
    for command in ["compare", "parity", "goldens"] {
      let help = try runCLI([command, "--help"])
      #expect(
        help.stdout.replacingOccurrences(of: "\n", with: " ").split(whereSeparator: \.isWhitespace).joined(
          separator: " "
        )
        .contains("at least 64 where there is any"), "\(command) --help: \(help.stdout)")
    }
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md")
    let words = Contract.text(readme).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("`--diff` writes each channel's difference ×16, at least 64 where there is any"))
  }
}

// MARK: - Limits

/// The files the limit cases read, made once: the scene `s.json` (200x120 points
/// at 1x: 24000 pixels), its reference `refs/s.png`, the same reference with every
/// fourth pixel's red moved by 5/255 (`shifted/s.png`: 25 % of pixels over 1/255,
/// the largest difference 5), and two 64x40 PNGs `a.png` and `b.png` that differ
/// the same way (2560 pixels each).
final class LimitFixture: Sendable {
  let root: URL

  static let shared = Result { try LimitFixture() }

  init() throws {
    root = try makeTemporaryFolder()
    try BatchFixture.put(BatchFixture.scene(0), "s.json", in: root)
    let record = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--record", "missing", "--artifacts", "art"], in: root)
    guard record.status == 2 else { throw BatchFixture.Failure("recording the reference: \(record.stdout)") }
    func shifted(_ image: RGBAImage) -> RGBAImage {
      RGBAImage(width: image.width, height: image.height) { x, y in
        let p = image.rgba8(x, y)
        let red = (y * image.width + x) % 4 == 0 ? (p[0] >= 5 ? p[0] - 5 : p[0] + 5) : p[0]
        return SIMD4(UInt8(red), UInt8(p[1]), UInt8(p[2]), UInt8(p[3]))
      }
    }
    let reference = try PNGCodec.read(path: root.appendingPathComponent("refs/s.png").path).image
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("shifted"), withIntermediateDirectories: true)
    try PNGCodec.write(shifted(reference), to: root.appendingPathComponent("shifted/s.png").path)
    let a = RGBAImage(width: 64, height: 40) { x, y in SIMD4(UInt8(100 + x), UInt8(50 + y), 90, 255) }
    try PNGCodec.write(a, to: root.appendingPathComponent("a.png").path)
    try PNGCodec.write(shifted(a), to: root.appendingPathComponent("b.png").path)
  }
}

/// One option that sets a limit, on one command: a value just past what the
/// fixture needs (`tight`, which must fail with `tightStatus`, naming the option)
/// and the value at the edge (`loose`, which must pass). An option the command
/// ignored would let `tight` pass as well.
struct LimitCase: Sendable, CustomTestStringConvertible {
  var name: String
  var command: [String]
  var tight: [String]
  var loose: [String]
  /// 1 for a limit the run checks, 64 for a bound of the command line.
  var tightStatus: Int32 = 1
  var mentions: String
  /// Whether the loose run needs a GPU (parity).
  var needsGPU = false

  var testDescription: String { name }

  static let all: [LimitCase] = {
    let render = ["render", "s.json", "-o", "render-out.png", "--backend", "cpu"]
    let batch = { (out: String) in ["batch", "s.json", "-o", out, "--backend", "cpu"] }
    let goldens = { (refs: String, art: String) in ["goldens", "s.json", "--references", refs, "--artifacts", art] }
    let extend = ["extend", "a.png", "-o", "extend-out.png", "--leading", "8", "--trailing", "8", "--backend", "cpu"]
    let compare = ["compare", "a.png", "b.png"]
    return [
      // Pixels: the canvas is 24000 pixels; a 64x40 image 2560; extended by 8 + 8, 3200.
      LimitCase(
        name: "render --max-pixels", command: render, tight: ["--max-pixels", "23999"],
        loose: ["--max-pixels", "24000"], mentions: "--max-pixels"),
      LimitCase(
        name: "validate --max-pixels", command: ["validate", "s.json"], tight: ["--max-pixels", "23999"],
        loose: ["--max-pixels", "24000"], mentions: "--max-pixels"),
      LimitCase(
        name: "batch --max-pixels", command: batch("batch-pixels"), tight: ["--max-pixels", "23999"],
        loose: ["--max-pixels", "24000"], mentions: "--max-pixels"),
      LimitCase(
        name: "goldens --max-pixels", command: goldens("refs", "art-pixels"), tight: ["--max-pixels", "23999"],
        loose: ["--max-pixels", "24000"], mentions: "--max-pixels"),
      LimitCase(
        name: "parity --max-pixels", command: ["parity", "s.json", "--max-diff", "255", "--max-share", "100"],
        tight: ["--max-pixels", "23999"], loose: ["--max-pixels", "24000"], mentions: "--max-pixels", needsGPU: true),
      LimitCase(
        name: "extend --max-pixels", command: extend, tight: ["--max-pixels", "3199"], loose: ["--max-pixels", "3200"],
        mentions: "--max-pixels"),
      LimitCase(
        name: "compare --max-pixels", command: compare, tight: ["--max-pixels", "2559"],
        loose: ["--max-pixels", "2560"], mentions: "--max-pixels"),
      // Differences: 5/255 at most, in 25 % of the pixels.
      LimitCase(
        name: "compare --max-diff", command: compare, tight: ["--max-diff", "4.9"], loose: ["--max-diff", "5"],
        mentions: "--max-diff"),
      LimitCase(
        name: "compare --max-share", command: compare, tight: ["--max-share", "24.9"], loose: ["--max-share", "25"],
        mentions: "--max-share"),
      LimitCase(
        name: "goldens --max-diff", command: goldens("shifted", "art-diff"), tight: ["--max-diff", "4.9"],
        loose: ["--max-diff", "5"], mentions: "--max-diff"),
      LimitCase(
        name: "goldens --max-share", command: goldens("shifted", "art-share") + ["--max-diff", "255"],
        tight: ["--max-share", "24.9"], loose: ["--max-share", "25"], mentions: "--max-share"),
      // Bounds of the command line.
      LimitCase(
        name: "batch --jobs 0", command: batch("batch-jobs-low"), tight: ["--jobs", "0"], loose: ["--jobs", "1"],
        tightStatus: 64, mentions: "--jobs"),
      LimitCase(
        name: "batch --jobs 257", command: batch("batch-jobs-high"), tight: ["--jobs", "257"],
        loose: ["--jobs", "256"], tightStatus: 64, mentions: "--jobs"),
      LimitCase(
        name: "batch --image-cache -1", command: batch("batch-cache-low"), tight: ["--image-cache=-1"],
        loose: ["--image-cache", "0"], tightStatus: 64, mentions: "--image-cache"),
      LimitCase(
        name: "batch --image-cache 2^20 + 1", command: batch("batch-cache-high"), tight: ["--image-cache", "1048577"],
        loose: ["--image-cache", "1048576"], tightStatus: 64, mentions: "--image-cache"),
      LimitCase(
        name: "goldens --jobs 0", command: goldens("refs", "art-jobs-low"), tight: ["--jobs", "0"],
        loose: ["--jobs", "1"], tightStatus: 64, mentions: "--jobs"),
      LimitCase(
        name: "goldens --jobs 257", command: goldens("refs", "art-jobs-high"), tight: ["--jobs", "257"],
        loose: ["--jobs", "256"], tightStatus: 64, mentions: "--jobs"),
      LimitCase(
        name: "goldens --cpu-threads 0", command: goldens("refs", "art-threads-low"), tight: ["--cpu-threads", "0"],
        loose: ["--cpu-threads", "1"], tightStatus: 64, mentions: "--cpu-threads"),
      LimitCase(
        name: "goldens --cpu-threads 257", command: goldens("refs", "art-threads-high"),
        tight: ["--cpu-threads", "257"], loose: ["--cpu-threads", "256"], tightStatus: 64, mentions: "--cpu-threads"),
      LimitCase(
        name: "compare --max-diff -1", command: compare, tight: ["--max-diff=-1"], loose: ["--max-diff", "5"],
        tightStatus: 64, mentions: "--max-diff"),
      LimitCase(
        name: "compare --max-share 101", command: compare + ["--max-diff", "5"], tight: ["--max-share", "101"],
        loose: ["--max-share", "100"], tightStatus: 64, mentions: "--max-share"),
      LimitCase(
        name: "goldens --max-diff -1", command: goldens("refs", "art-diff-low"), tight: ["--max-diff=-1"],
        loose: ["--max-diff", "0"], tightStatus: 64, mentions: "--max-diff"),
      LimitCase(
        name: "goldens --max-share 101", command: goldens("refs", "art-share-high"), tight: ["--max-share", "101"],
        loose: ["--max-share", "100"], tightStatus: 64, mentions: "--max-share"),
      LimitCase(
        name: "parity --max-diff -1", command: ["parity", "s.json", "--max-share", "100"], tight: ["--max-diff=-1"],
        loose: ["--max-diff", "255"], tightStatus: 64, mentions: "--max-diff", needsGPU: true),
      LimitCase(
        name: "parity --max-share 101", command: ["parity", "s.json", "--max-diff", "255"],
        tight: ["--max-share", "101"], loose: ["--max-share", "100"], tightStatus: 64, mentions: "--max-share",
        needsGPU: true),
    ]
  }()
}

@Suite("Every option that sets a limit is obeyed, on every command")
struct LimitOptionTests {
  @Test("past the limit the command fails naming the option; at the limit it passes", arguments: LimitCase.all)
  func limit(_ limit: LimitCase) throws {
    let root = try LimitFixture.shared.get().root
    let tight = try runCLI(limit.command + limit.tight, in: root)
    let said = tight.stdout + tight.stderr
    #expect(
      Contract.exited(tight) && tight.status == limit.tightStatus,
      "\(limit.name) \(limit.tight): exit \(tight.status), expected \(limit.tightStatus): \(said)")
    #expect(said.contains(limit.mentions), "\(limit.name) \(limit.tight) names \(limit.mentions): \(said)")
    guard !limit.needsGPU || TestGPU.hasGPU else { return }
    let loose = try runCLI(limit.command + limit.loose, in: root)
    #expect(
      Contract.exited(loose) && loose.status == 0,
      "\(limit.name) \(limit.loose): exit \(loose.status): \(loose.stdout) \(loose.stderr)")
  }

  @Test(
    "batch --image-cache bounds the decoded images kept between jobs (peak memory, 8 images of 9 MiB)",
    .disabled(
      if: TestProcess.underAddressSanitizer,
      "under AddressSanitizer resident memory is mostly its quarantine of freed blocks; make test measures it"))
  func imageCacheBoundsMemory() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
    var scenes: [String] = []
    for index in 0..<8 {
      let image = RGBAImage(width: 1500, height: 1500) { x, y in
        SIMD4(UInt8((x / (index + 2)) & 255), UInt8((y / (index + 3)) & 255), UInt8(index * 30), 255)
      }
      try PNGCodec.write(image, to: root.appendingPathComponent("images/\(index).png").path, compression: 1)
      try BatchFixture.put(BatchFixture.scene(index, image: "images/\(index).png"), "s\(index).json", in: root)
      scenes.append("s\(index).json")
    }
    var peaks: [Int: Double] = [:]
    for cache in [0, 256] {
      let peak = root.appendingPathComponent("peak-\(cache).txt")
      let result = try runCLI(
        ["batch"] + scenes + ["-o", "out-\(cache)", "--backend", "cpu", "--jobs", "1", "--image-cache", "\(cache)"],
        environment: ["GLASS_GPU_PEAK_MEMORY_FILE": peak.path], in: root)
      #expect(result.status == 0, "--image-cache \(cache): \(result.stderr)")
      peaks[cache] = Contract.peakMiB(peak)
    }
    // Kept, the eight decoded images are 8 x 8.6 MiB; with no cache each goes after its job.
    let kept = (peaks[256] ?? 0) - (peaks[0] ?? 0)
    #expect(kept > 40, "peak with --image-cache 0: \(peaks[0] ?? 0) MiB, with 256: \(peaks[256] ?? 0) MiB")
  }

  @Test("parity obeys --max-diff and --max-share at the difference it measures", .enabled(if: TestGPU.isAvailable))
  func parityLimits() throws {
    let root = try LimitFixture.shared.get().root
    let measured = try runCLI(["parity", "s.json", "--max-diff", "255", "--max-share", "100"], in: root)
    try #require(measured.status == 0, "\(measured.stdout) \(measured.stderr)")
    // "s.json: gpu vs cpu: max difference 2/255 at (x, y), 14 pixels (0.0583 %) over 1/255"
    func number(after marker: String) -> Double {
      guard let range = measured.stdout.range(of: marker) else { return 0 }
      return Double(measured.stdout[range.upperBound...].prefix { "0123456789.".contains($0) }) ?? 0
    }
    let difference = number(after: "max difference ")
    let share = number(after: "pixels (")
    if difference > 0 {
      let tight = try runCLI(["parity", "s.json", "--max-share", "100", "--max-diff", "\(difference / 2)"], in: root)
      #expect(tight.status == 1 && tight.stderr.contains("--max-diff"), "\(tight.stdout) \(tight.stderr)")
    }
    if share > 0 {
      let tight = try runCLI(["parity", "s.json", "--max-diff", "255", "--max-share", "\(share / 2)"], in: root)
      #expect(tight.status == 1 && tight.stderr.contains("--max-share"), "\(tight.stdout) \(tight.stderr)")
    }
    if difference == 0 && share == 0 { print("parity limits: the GPU rendered the scene exactly; nothing to exceed") }
  }
}

// MARK: - The pieces, without the command line

@Suite("Batch: shard counts, path spellings and whole PNGs")
struct BatchPieceTests {
  @Test("a shard's job count is the count of k < total with k mod N = I, for any N up to Int.max")
  func shardCounts() throws {
    for count in 1...7 {
      for index in 0..<count {
        let shard = try BatchShard(index: index, count: count)
        for total in 0...40 {
          #expect(shard.jobs(of: total) == (0..<total).filter { $0 % count == index }.count, "\(index)/\(count)")
        }
      }
    }
    #expect(try BatchShard(index: 0, count: .max).jobs(of: .max) == 1)
    #expect(try BatchShard(index: .max - 1, count: .max).jobs(of: .max) == 1)
    #expect(try BatchShard(index: 5, count: .max).jobs(of: 5) == 0)
  }

  @Test("paths are normalised by their spelling: slashes, '.', '..'")
  func spellings() {
    let cases = [
      ("d.png", "d.png"), ("./d.png", "d.png"), ("x/../d.png", "d.png"), ("sub//e.png", "sub/e.png"),
      ("a/./b/../c", "a/c"), ("../d.png", "../d.png"), ("a/../../d", "../d"), ("/../x", "/x"), ("//a//b/", "/a/b"),
      (".", "."), ("a/..", "."),
    ]
    for (path, expected) in cases {
      #expect(FilePaths.lexicallyNormalized(path) == expected, "\(path)")
    }
    let here = FileManager.default.currentDirectoryPath
    #expect(FilePaths.lexicallyAbsolute("x/../d.png") == (here == "/" ? "/d.png" : here + "/d.png"))
    #expect(FilePaths.relative("/r/a/../b/c.png", under: "/r//") == "b/c.png")
    #expect(FilePaths.relative("/r/../c.png", under: "/r") == nil)
    #expect(FilePaths.problem(with: "a\u{0}.png") != nil && FilePaths.problem(with: "a.png") == nil)
  }

  @Test("only a whole PNG looks whole: not empty, not cut at any length, not with bytes after IEND")
  func wholePNG() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("a.png").path
    try PNGCodec.write(RGBAImage(width: 3, height: 2) { x, y in SIMD4(UInt8(x * 80), UInt8(y * 90), 7, 255) }, to: path)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(PNGCodec.looksWhole(path: path))
    let cut = root.appendingPathComponent("cut.png").path
    for length in 0..<bytes.count {
      try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
      #expect(!PNGCodec.looksWhole(path: cut), "cut at \(length) of \(bytes.count)")
    }
    try (bytes + Data([0])).write(to: URL(fileURLWithPath: cut))
    #expect(!PNGCodec.looksWhole(path: cut))
    #expect(!PNGCodec.looksWhole(path: root.path))
  }

  @Test("a manifest line over the limit ends the manifest with file-unreadable, naming the line")
  func lineLimit() {
    let long = String(repeating: " ", count: BatchManifest.maximumLineBytes - 2) + "{}"
    let text = "{}\n" + long + "\n" + long + "x\n{}\n"
    let entries = Array(BatchManifest(text: text, name: "m.jsonl", directory: "/in", outputDirectory: "/out"))
    #expect(entries.count == 3, "\(entries.count) entries")
    guard entries.count == 3, case .invalid(_, let line, _, let error) = entries[2] else { return }
    #expect(line == 3 && error.code == .fileUnreadable && error.description.hasPrefix("m.jsonl:3: "), "\(error)")
    // The line at the limit is read (and fails for its fields), not refused for its length.
    if case .invalid(_, _, _, let error) = entries[1] { #expect(error.code == .invalidScene, "\(error)") }
  }
}
