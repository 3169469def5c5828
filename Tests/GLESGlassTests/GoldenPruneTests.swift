import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// A folder of small scene files that read one photo, with their references:
/// what the prune and placement tests of `glass-gpu goldens` work on.
struct GoldenFolder {
  let root: URL
  /// The scenes' folder (a folder input of goldens).
  let scenes: URL
  /// The references folder.
  var references: URL

  /// `count` scenes `sNNN.json` in `root/sc` (or `scenesFolder`), each a glass
  /// capsule at its own place over `photo.png`, which lies beside them.
  init(count: Int, scenesFolder: String = "sc", references: String = "refs") throws {
    root = try makeTemporaryFolder()
    scenes = root.appendingPathComponent(scenesFolder)
    self.references = root.appendingPathComponent(references)
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    try PNGCodec.write(ProceduralImages.landscape(width: 120, height: 80), to: photo.path)
    for index in 0..<count { try write(Self.scene(index), as: Self.name(index)) }
  }

  /// The photo every scene reads.
  var photo: URL { scenes.appendingPathComponent("photo.png") }

  static func name(_ index: Int) -> String { String(format: "s%03d", index) }

  /// Scene `index`: 60x40 pt at 1x, a capsule moved by `index` points.
  static func scene(_ index: Int, image: String = "photo.png") -> String {
    SceneJSON.scene(
      width: 60, height: 40, scale: 1, background: #"{"image": "\#(image)", "contentMode": "fill"}"#,
      layers: #"{"type": "glass", "shape": {"type": "capsule"}, "frame": {"x": \#(4 + index % 20), "y": 8, "#
        + #""width": 30, "height": 20}}"#)
  }

  /// Writes `json` as the scene `name.json`.
  func write(_ json: String, as name: String) throws {
    try Data(json.utf8).write(to: scenes.appendingPathComponent(name + ".json"))
  }

  /// Runs `glass-gpu goldens` on the scenes folder against the references, with `options`.
  func goldens(_ options: [String], in folder: URL? = nil) throws -> CLIResult {
    try runCLI(["goldens", scenes.path, "--references", references.path] + options, in: folder ?? root)
  }

  /// Every regular file under `folder`, relative to it, with its bytes.
  static func contents(of folder: URL) -> [String: Data] {
    var found: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return found }
    while let relative = walker.nextObject() as? String {
      let url = folder.appendingPathComponent(relative)
      var info = stat()
      guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      found[relative] = try? Data(contentsOf: url)
    }
    return found
  }

  func remove() { try? FileManager.default.removeItem(at: root) }
}

/// `glass-gpu goldens --prune` never removes what is not a stale reference: not
/// when it is killed halfway, not an input that lies among the references, not
/// the reference of a scene that failed.
@Suite("Goldens: prune removes only stale references")
struct GoldenPruneTests {
  /// Lines of `text` that start with `prefix`, without it.
  static func lines(_ text: String, _ prefix: String) -> [String] {
    text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }

  @Test(
    "prune --record failed killed at random moments (TERM, INT, once or twice) never loses a live reference")
  func killedAtRandomMoments() throws {
    let folder = try GoldenFolder(count: 120)
    defer { folder.remove() }
    let recorded = try folder.goldens(["--record", "missing", "--quiet"])
    #expect(recorded.status == 2, "\(recorded.stdout) \(recorded.stderr)")
    let live = GoldenFolder.contents(of: folder.references)
    #expect(live.count == 120)
    // References of scenes that are gone: what prune may remove.
    let staleNames = (0..<8).map { "gone-\($0).png" }
    func plantStale() throws {
      for name in staleNames {
        try Data(live["s000.png"] ?? Data()).write(to: folder.references.appendingPathComponent(name))
      }
    }
    let arguments =
      ["goldens", folder.scenes.path, "--references", folder.references.path, "--prune"]
      + ["--record", "failed"]
    // One run to its end: how long a whole run takes, and that it prunes.
    try plantStale()
    let start = Date()
    let whole = try runCLI(arguments, in: folder.root)
    let seconds = Date().timeIntervalSince(start)
    #expect(whole.status == 0, "\(whole.stdout) \(whole.stderr)")
    #expect(GoldenFolder.contents(of: folder.references) == live, "a whole run leaves exactly the live references")

    var generator = SplitMix64(seed: 35)
    var outcomes: [String] = []
    for round in 0..<24 {
      try plantStale()
      let signal = round % 2 == 0 ? SIGTERM : SIGINT
      let twice = round % 4 == 3
      // From the start to a little past a whole run's length.
      let delay = Double.random(in: 0...(seconds * 1.1), using: &generator)
      let log = folder.root.appendingPathComponent("stderr-\(round).txt")
      let child = try TestProcess.Child(arguments, in: folder.root, log: log)
      usleep(UInt32(delay * 1_000_000))
      kill(child.pid, signal)
      if twice {
        usleep(30_000)
        kill(child.pid, signal)
      }
      let ending = try child.wait()
      let now = GoldenFolder.contents(of: folder.references)
      // Every reference of a scene that exists is there, byte for byte.
      for (name, bytes) in live {
        #expect(now[name] == bytes, "round \(round): \(name) lost or changed after \(signal) at \(delay) s: \(ending)")
      }
      // Nothing else appeared (no temporary), and stale ones went all or none,
      // unless the second signal came while they were being removed.
      let extra = Set(now.keys).subtracting(live.keys)
      #expect(extra.isSubset(of: staleNames), "round \(round): \(extra.sorted())")
      let completed = ending == .exit(0)
      if completed { #expect(extra.isEmpty, "round \(round): a run that completed left \(extra.sorted())") }
      // One signal: the check ends (the scenes taken are finished); prune runs
      // only when every scene was taken, and then removes every stale one.
      if !twice {
        #expect(extra.isEmpty || extra.count == staleNames.count, "round \(round): pruned some: \(extra.sorted())")
      }
      #expect(
        completed || ending == .signal(signal) || ending == .exit(128 + signal),
        "round \(round): \(ending): \(BatchFixture.log(log))")
      let name = signal == SIGTERM ? "TERM" : "INT"
      outcomes.append(
        "\(String(format: "%.2f", delay)) s \(name)\(twice ? " x2" : ""): \(ending), "
          + "\(staleNames.count - extra.count) stale removed")
    }
    print("prune killed at random moments (a whole run \(String(format: "%.2f", seconds)) s): \(outcomes)")
  }

  @Test("a stopped prune says that nothing was pruned, and its log keeps the cases checked and the summary")
  func stoppedPruneSaysSo() throws {
    let folder = try GoldenFolder(count: 120)
    defer { folder.remove() }
    #expect(try folder.goldens(["--record", "missing", "--quiet"]).status == 2)
    try Data("x".utf8).write(to: folder.references.appendingPathComponent("gone.png"))
    let log = folder.root.appendingPathComponent("stderr.txt")
    let output = folder.root.appendingPathComponent("stdout.txt")
    let child = try TestProcess.Child(
      ["goldens", folder.scenes.path, "--references", folder.references.path, "--prune", "--record", "failed"],
      in: folder.root, log: log, output: output)
    // Once the first scene passed (its render is gone from the artifacts), stop it.
    try BatchFixture.waitUntil(child, log: log, what: "a scene was checked") {
      ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("pass    ")
    }
    kill(child.pid, SIGTERM)
    let ending = try child.wait()
    let stdout = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let stderr = BatchFixture.log(log)
    #expect(ending == .signal(SIGTERM) || ending == .exit(143), "\(ending): \(stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.references.appendingPathComponent("gone.png").path))
    #expect(stderr.contains("--prune: the check did not check every scene"), "\(stderr)")
    #expect(stdout.contains("goldens: ") && stdout.contains("; nothing pruned"), "\(stdout)")
    #expect(Self.lines(stdout, "pruned  ").isEmpty, "\(stdout)")
  }

  @Test("references folder = the scenes' folder: prune removes the stale reference, never the photo the scenes read")
  func referencesAreTheScenesFolder() throws {
    var folder = try GoldenFolder(count: 5)
    defer { folder.remove() }
    folder.references = folder.scenes
    #expect(try folder.goldens(["--record", "missing", "--quiet"]).status == 2)
    try FileManager.default.removeItem(at: folder.scenes.appendingPathComponent("s004.json"))
    let before = GoldenFolder.contents(of: folder.scenes)
    let listed = try folder.goldens(["--prune"])
    #expect(listed.status == 0, "\(listed.stdout) \(listed.stderr)")
    let stale = Self.lines(listed.stdout, "stale   ").map { String($0.prefix { $0 != ":" }) }
    #expect(stale == [folder.scenes.path + "/s004.png"], "\(listed.stdout)")
    let pruned = try folder.goldens(["--prune", "--record", "failed"])
    #expect(pruned.status == 0, "\(pruned.stdout) \(pruned.stderr)")
    var expected = before
    expected["s004.png"] = nil
    #expect(GoldenFolder.contents(of: folder.scenes) == expected, "\(pruned.stdout)")
  }

  @Test("references folder above the scenes' folder: the photo in the scenes' folder stays")
  func referencesHoldTheScenes() throws {
    var folder = try GoldenFolder(count: 5, scenesFolder: "top/sc")
    defer { folder.remove() }
    folder.references = folder.root.appendingPathComponent("top")
    #expect(try folder.goldens(["--record", "missing", "--quiet"]).status == 2)
    // A photo a scene reads through a link in the references folder stays too.
    try FileManager.default.createSymbolicLink(
      atPath: folder.references.appendingPathComponent("linked.png").path, withDestinationPath: folder.photo.path)
    try folder.write(GoldenFolder.scene(9, image: "../other.png"), as: "s009")
    try PNGCodec.write(ProceduralImages.landscape(width: 60, height: 40), to: folder.references.path + "/other.png")
    let before = GoldenFolder.contents(of: folder.references)
    let pruned = try folder.goldens(["--prune", "--record", "failed"])
    #expect(pruned.status == 2, "\(pruned.stdout) \(pruned.stderr)")
    #expect(Self.lines(pruned.stdout, "pruned  ").isEmpty, "\(pruned.stdout)")
    #expect(before.keys.contains("sc/photo.png") && before.keys.contains("other.png"))
    let after = GoldenFolder.contents(of: folder.references)
    for (name, bytes) in before { #expect(after[name] == bytes, "\(name)") }
    #expect(after.keys.contains("s009.png"))
  }

  @Test("with variants, only NAME.VARIANT.png of one of the run's variants can be stale; other PNGs stay")
  func variantNaming() throws {
    let folder = try GoldenFolder(count: 2)
    defer { folder.remove() }
    #expect(try folder.goldens(["--record", "missing", "--environments", "light,dark", "--quiet"]).status == 2)
    let png = try Data(contentsOf: folder.references.appendingPathComponent("s000.light.png"))
    for name in ["gone.light.png", "gone.dark.png", "notes.png", "gone.sepia.png", "dark.png"] {
      try png.write(to: folder.references.appendingPathComponent(name))
    }
    let pruned = try folder.goldens(["--environments", "light,dark", "--prune", "--record", "failed"])
    #expect(pruned.status == 0, "\(pruned.stdout) \(pruned.stderr)")
    #expect(
      Self.lines(pruned.stdout, "pruned  ").sorted()
        == ["gone.dark.png", "gone.light.png"].map { folder.references.path + "/" + $0 }, "\(pruned.stdout)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.references.path).sorted()
        == [
          "dark.png", "gone.sepia.png", "notes.png", "s000.dark.png", "s000.light.png", "s001.dark.png",
          "s001.light.png",
        ])
  }

  @Test(
    "a scene that failed or errored keeps its reference; --record failed records a failure anew, never prunes")
  func failingScenesKeepTheirReferences() throws {
    let folder = try GoldenFolder(count: 4)
    defer { folder.remove() }
    // s003 reads an image of its own, removed after recording.
    let own = folder.scenes.appendingPathComponent("own.png")
    try PNGCodec.write(ProceduralImages.landscape(width: 60, height: 40), to: own.path)
    try folder.write(GoldenFolder.scene(3, image: "own.png"), as: "s003")
    #expect(try folder.goldens(["--record", "missing", "--quiet"]).status == 2)
    let refs = folder.references
    try Data(contentsOf: refs.appendingPathComponent("s000.png")).write(to: refs.appendingPathComponent("gone.png"))
    // s001 changes (fails), s002's reference is damaged (an error), s003's image is gone (an error).
    try folder.write(GoldenFolder.scene(11), as: "s001")
    try Data("not a PNG".utf8).write(to: refs.appendingPathComponent("s002.png"))
    try FileManager.default.removeItem(at: own)
    let before = GoldenFolder.contents(of: refs)

    let kept = try folder.goldens(["--prune", "--record", "missing"])
    #expect(kept.status == 1, "\(kept.stdout) \(kept.stderr)")
    #expect(kept.stdout.contains("FAIL    s001") && kept.stdout.contains("ERROR   s002"), "\(kept.stdout)")
    #expect(kept.stdout.contains("ERROR   s003"), "\(kept.stdout)")
    #expect(Self.lines(kept.stdout, "pruned  ") == [refs.path + "/gone.png"], "\(kept.stdout)")
    var expected = before
    expected["gone.png"] = nil
    #expect(GoldenFolder.contents(of: refs) == expected)

    let rerecorded = try folder.goldens(["--prune", "--record", "failed"])
    #expect(rerecorded.status == 1, "\(rerecorded.stdout) \(rerecorded.stderr)")
    #expect(Self.lines(rerecorded.stdout, "pruned  ").isEmpty, "\(rerecorded.stdout)")
    let after = GoldenFolder.contents(of: refs)
    #expect(Set(after.keys) == Set(expected.keys), "\(after.keys.sorted())")
    #expect(after["s001.png"] != expected["s001.png"], "s001's failure is recorded anew")
    #expect(after["s002.png"] != expected["s002.png"], "s002's unreadable reference is recorded anew")
    #expect(after["s003.png"] == expected["s003.png"], "s003 could not be rendered: its reference stays as it was")
  }

  @Test("when what a scene reads is unknown (a scene file that cannot be read), prune decides nothing")
  func unreadableSceneStopsPrune() throws {
    let folder = try GoldenFolder(count: 3)
    defer { folder.remove() }
    #expect(try folder.goldens(["--record", "missing", "--quiet"]).status == 2)
    try Data(contentsOf: folder.references.appendingPathComponent("s000.png"))
      .write(to: folder.references.appendingPathComponent("gone.png"))
    try folder.write("{\"version\": 1, \"size\": ", as: "s002")
    let before = GoldenFolder.contents(of: folder.references)
    let refused = try folder.goldens(["--prune", "--record", "failed"])
    #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
    #expect(
      refused.stderr.contains("--prune: what the scene of s002 reads is unknown")
        && refused.stderr.contains("fix it, then run again"), "\(refused.stderr)")
    #expect(refused.stdout.contains("; nothing pruned"), "\(refused.stdout)")
    #expect(GoldenFolder.contents(of: folder.references) == before)

    // A manifest line that cannot be read names no reference: nothing is decided either.
    let manifest = folder.root.appendingPathComponent("goldens.jsonl")
    try Data(
      (#"{"scene": "sc/s000.json", "output": "s000.png"}"# + "\n" + #"{"scene": "sc/s001.json", "#).utf8
    )
    .write(to: manifest)
    let line = try runCLI(
      [
        "goldens", "--manifest", manifest.path, "--references", folder.references.path, "--prune", "--record", "failed",
      ],
      in: folder.root)
    #expect(line.status == 1, "\(line.stdout) \(line.stderr)")
    #expect(line.stderr.contains("--prune: 2 names no reference"), "\(line.stderr)")
    #expect(GoldenFolder.contents(of: folder.references) == before)
  }
}
