import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

// `glass-gpu batch` end to end, against its contract, docs/batch-format.md. Every
// test runs the real binary; the expected pixels come from `glass-gpu render` of
// the same scene with the same options (or from a batch run that was checked
// against it). Scenes are small (200x120 points) so that the whole file takes
// seconds on the CPU backend.

// MARK: - Fixtures

/// Scenes, manifests, folders and checks the batch tests share.
enum BatchFixture {
  /// A failure of a fixture, with what went wrong.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// A 200x120 point scene, different for each `index`: a gradient background, a
  /// disc, optionally an image (`image`, a path relative to where the scene is
  /// read), and a tinted glass capsule whose position and tint vary with `index`.
  /// One line of JSON, so it also serves inline in a manifest.
  static func scene(
    _ index: Int, image: String? = nil, scale: Int = 1, width: Int = 200, height: Int = 120
  ) -> String {
    let colors = ["#ff5e62", "#4facfe", "#34c759", "#ffd60a", "#8e2de2", "#00c3d0", "#ff9500"]
    let first = colors[index % colors.count]
    let second = colors[(index * 3 + 1) % colors.count]
    let x = 10 + (index * 7) % 60
    var layers = [
      #"{"type": "shape", "shape": "circle", "frame": {"x": \#(x + 20), "y": 8, "width": 50, "height": 50}, "fill": "\#(second)"}"#
    ]
    if let image {
      layers.append(
        #"{"type": "image", "source": "\#(image)", "frame": {"x": 100, "y": 20, "width": 80, "height": 50}}"#)
    }
    layers.append(
      #"{"type": "glass", "glass": {"variant": "regular", "tint": "\#(first)80"}, "shape": "capsule", "frame": {"x": \#(x), "y": 56, "width": 120, "height": 40}}"#
    )
    return
      SceneJSON.scene(
        width: width, height: height, scale: scale,
        background:
          #"{"linearGradient": {"colors": ["\#(first)", "\#(second)"], "startPoint": "topLeading", "endPoint": "bottomTrailing"}}"#,
        layers: layers.joined(separator: ", "))
  }

  /// Writes `text` to `path` under `folder`, making its folders; returns the file.
  @discardableResult
  static func put(_ text: String, _ path: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
  }

  /// Writes the source images under `folder`: `images/photo.png` and
  /// `images/other.png`, both 64x40 (a cache keyed by size would mix them up).
  static func writePhoto(in folder: URL) throws {
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
    try PNGCodec.write(
      ProceduralImages.landscape(width: 64, height: 40), to: folder.appendingPathComponent("images/photo.png").path)
    try PNGCodec.write(
      ProceduralImages.checker(width: 64, height: 40, cell: 5),
      to: folder.appendingPathComponent("images/other.png").path)
  }

  /// One manifest line: the object's fields in order, `scene` either a path (a
  /// JSON string) or an inline scene (JSON text as it is).
  static func line(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }

  /// `text` as a JSON string.
  static func quoted(_ text: String) -> String { "\"\(text)\"" }

  /// Every file (not folder) under `folder`, hidden ones included, as paths
  /// relative to it, sorted.
  static func allFiles(under folder: URL) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        found.append(path)
      }
    }
    return found.sorted()
  }

  /// The temporary files under `folder` (`.NAME….tmp`), anywhere in its tree.
  static func temporaries(under folder: URL) -> [String] {
    allFiles(under: folder).filter {
      let name = ($0 as NSString).lastPathComponent
      return name.hasPrefix(".") && name.hasSuffix(".tmp")
    }
  }

  /// The finished outputs under `folder`: visible `.png` files.
  static func outputs(under folder: URL) -> Set<String> {
    Set(
      allFiles(under: folder).filter {
        !($0 as NSString).lastPathComponent.hasPrefix(".") && $0.hasSuffix(".png")
      })
  }

  /// How many samples of two same-sized images differ (all of them when the
  /// depths differ).
  static func differingSamples(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    switch (a.samples, b.samples) {
    case (.eight(let x), .eight(let y)) where x.count == y.count: zip(x, y).filter { $0 != $1 }.count
    case (.sixteen(let x), .sixteen(let y)) where x.count == y.count: zip(x, y).filter { $0 != $1 }.count
    default: 4 * a.size.pixelCount
    }
  }

  /// Records an issue unless the PNG at `actual` decodes to exactly the pixels,
  /// size and bit depth of the PNG at `expected`.
  static func expectSamePixels(
    _ actual: URL, _ expected: URL, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let a = try PNGCodec.read(path: actual.path)
      let e = try PNGCodec.read(path: expected.path)
      #expect(
        a.header.bitDepth == e.header.bitDepth,
        "\(label): \(a.header.bitDepth)-bit, render wrote \(e.header.bitDepth)-bit", sourceLocation: sourceLocation)
      #expect(
        a.image.size == e.image.size, "\(label): \(a.image.size), render wrote \(e.image.size)",
        sourceLocation: sourceLocation)
      if a.image.size == e.image.size, a.image != e.image {
        Issue.record(
          Comment(
            rawValue:
              "\(label): \(differingSamples(a.image, e.image)) of \(4 * a.image.size.pixelCount) samples differ"),
          sourceLocation: sourceLocation)
      }
    } catch {
      Issue.record(Comment(rawValue: "\(label): \(error)"), sourceLocation: sourceLocation)
    }
  }

  /// Renders `scene` with `glass-gpu render` to `output` with the given options
  /// (nil: not passed); fails the test when it fails.
  static func render(
    _ scene: URL, to output: URL, scale: Int? = nil, depth: Int? = nil, backend: String = "cpu",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var arguments = ["render", scene.path, "-o", output.path, "--backend", backend]
    if let scale { arguments += ["--scale", "\(scale)"] }
    if let depth { arguments += ["--depth", "\(depth)"] }
    let result = try runCLI(arguments)
    try #require(
      result.reason == .exit && result.status == 0, "render \(arguments): \(result.stderr)",
      sourceLocation: sourceLocation)
  }

  /// The job lines of a report file, each parsed as a JSON object; a line that is
  /// not one is recorded as an issue (and left out), and so is a caches line
  /// (`{"caches": …}`) anywhere but last.
  static func report(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let text = try String(contentsOf: file, encoding: .utf8)
    var objects: [[String: Any]] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
    for (i, line) in lines.enumerated() {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        Issue.record(Comment(rawValue: "a report line is not a JSON object: \(line)"), sourceLocation: sourceLocation)
        continue
      }
      if object["caches"] != nil {
        #expect(i == lines.count - 1, "the caches line is not the last", sourceLocation: sourceLocation)
        continue
      }
      objects.append(object)
    }
    #expect(text.isEmpty || text.hasSuffix("\n"), "the report ends mid-line: \(text)", sourceLocation: sourceLocation)
    return objects
  }

  /// A report field as text (`"7"` and `7` both read as "7").
  static func text(_ value: Any?) -> String? {
    switch value {
    case let string as String: string
    case let number as NSNumber: number.stringValue
    default: nil
    }
  }

  /// The report's lines keyed by id; a repeated id is recorded as an issue.
  static func byID(
    _ lines: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation
  ) -> [String: [String: Any]] {
    var found: [String: [String: Any]] = [:]
    for line in lines {
      guard let id = text(line["id"]) else {
        Issue.record(Comment(rawValue: "a report line without an id: \(line)"), sourceLocation: sourceLocation)
        continue
      }
      #expect(found[id] == nil, "job \(id) is reported twice", sourceLocation: sourceLocation)
      found[id] = line
    }
    return found
  }

  /// What identifies a file's contents on disk: a file rewritten or replaced
  /// (renamed over) gets another inode or another modification time.
  struct FileIdentity: Equatable, CustomStringConvertible {
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var bytes: Int

    init?(_ url: URL) {
      var info = stat()
      guard stat(url.path, &info) == 0 else { return nil }
      inode = UInt64(info.st_ino)
      seconds = Int(info.st_mtim.tv_sec)
      nanoseconds = Int(info.st_mtim.tv_nsec)
      bytes = Int(info.st_size)
    }

    var description: String { "inode \(inode), mtime \(seconds).\(nanoseconds), \(bytes) bytes" }
  }

  // MARK: Many jobs

  /// One job of the many-jobs manifest.
  struct Job {
    var id: String
    /// The output, relative to `-o DIR`.
    var output: String
    /// Its line in the manifest (1-based); its index is `line - 1`.
    var line: Int
    /// A scene file `render` can read for this job (relative image paths resolve
    /// as in the manifest), relative to the fixture's folder.
    var sceneFile: String
    var depth: Int?
  }

  /// Writes a manifest of `count` small jobs, `jobs.jsonl`, in `root`, with what it
  /// reads: inline scenes and scene files (under `scenes/`), some showing
  /// `images/photo.png`, every tenth at 16 bits, every fifth into `sub/`. Every job
  /// renders different pixels. Returns the jobs in manifest order.
  @discardableResult
  static func writeManyJobs(in root: URL, count: Int = 40) throws -> [Job] {
    try writePhoto(in: root)
    var jobs: [Job] = []
    var lines: [String] = []
    for index in 0..<count {
      let id = String(format: "j%02d", index)
      let output = index % 5 == 4 ? "sub/\(id).png" : "\(id).png"
      let depth = index % 10 == 7 ? 16 : nil
      var fields: [(String, String)] = [("id", quoted(id))]
      let sceneFile: String
      if index % 4 == 1 {
        sceneFile = "scenes/\(id).json"
        try put(scene(index, image: "../images/photo.png"), sceneFile, in: root)
        fields.append(("scene", quoted(sceneFile)))
      } else {
        let inline = scene(index, image: index % 3 == 0 ? "images/photo.png" : nil)
        sceneFile = "inline-\(id).json"
        try put(inline, sceneFile, in: root)
        fields.append(("scene", inline))
      }
      fields.append(("output", quoted(output)))
      if let depth { fields.append(("depth", "\(depth)")) }
      lines.append(line(fields))
      jobs.append(Job(id: id, output: output, line: index + 1, sceneFile: sceneFile, depth: depth))
    }
    try put(lines.joined(separator: "\n") + "\n", "jobs.jsonl", in: root)
    return jobs
  }

  nonisolated(unsafe) private static var referenceOutputs: [String: Data]?
  private static let referenceLock = NSLock()

  /// The PNG bytes of every output of the many-jobs manifest, keyed by output
  /// path, from one unsharded CPU batch run (made once per test process). Three of
  /// its jobs (an inline scene with an image, a scene file, a 16-bit one) are
  /// checked against `glass-gpu render` first; the same-pixels test covers the rest.
  static func reference() throws -> [String: Data] {
    referenceLock.lock()
    defer { referenceLock.unlock() }
    if let referenceOutputs { return referenceOutputs }
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let jobs = try writeManyJobs(in: root)
    let out = root.appendingPathComponent("reference")
    let result = try runCLI([
      "batch", "--manifest", root.appendingPathComponent("jobs.jsonl").path, "-o", out.path, "--backend", "cpu",
      "--quiet",
    ])
    guard result.reason == .exit, result.status == 0 else {
      throw Failure("the reference batch run failed (\(result.reason) \(result.status)): \(result.stderr)")
    }
    for job in jobs where ["j00", "j01", "j07"].contains(job.id) {
      let expected = root.appendingPathComponent("render-\(job.id).png")
      try render(root.appendingPathComponent(job.sceneFile), to: expected, depth: job.depth)
      let actual = try PNGCodec.read(path: out.appendingPathComponent(job.output).path)
      let wanted = try PNGCodec.read(path: expected.path)
      guard actual.image == wanted.image, actual.header.bitDepth == wanted.header.bitDepth else {
        throw Failure("the reference batch's \(job.output) is not the pixels of render of its scene")
      }
    }
    var outputs: [String: Data] = [:]
    for path in allFiles(under: out) {
      outputs[path] = try Data(contentsOf: out.appendingPathComponent(path))
    }
    guard Set(outputs.keys) == Set(jobs.map(\.output)) else {
      throw Failure("the reference batch wrote \(outputs.keys.sorted()), not \(jobs.map(\.output))")
    }
    referenceOutputs = outputs
    return outputs
  }

  /// Records an issue for each output under `out` that does not decode to the
  /// pixels of the reference run's output of the same name.
  static func expectReferencePixels(
    under out: URL, _ paths: some Sequence<String>, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reference = try reference()
    for path in paths {
      do {
        let expected = try #require(reference[path], "no reference output \(path)", sourceLocation: sourceLocation)
        let wanted = try PNGCodec.decode([UInt8](expected), name: "reference \(path)")
        let actual = try PNGCodec.read(path: out.appendingPathComponent(path).path)
        #expect(
          actual.header.bitDepth == wanted.header.bitDepth && actual.image == wanted.image,
          "\(path) does not decode to the reference pixels", sourceLocation: sourceLocation)
      } catch {
        Issue.record(Comment(rawValue: "\(path): \(error)"), sourceLocation: sourceLocation)
      }
    }
  }

  // MARK: Processes

  /// Polls until `condition` holds while `child` runs, at most `seconds`. When the
  /// child ends first or time runs out, kills and reaps it and throws, quoting
  /// its stderr (`log`).
  static func waitUntil(
    _ child: OutputSafetyTests.Child, log: URL, seconds: Double = 60, what: String, _ condition: () -> Bool
  ) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard child.isRunning, Date() < deadline else {
        let running = child.isRunning
        kill(child.pid, SIGKILL)
        let ending = try? child.wait()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw Failure(
          running
            ? "\(what) did not happen within \(seconds) s; stderr: \(text)"
            : "the batch ended (\(ending.map { "\($0)" } ?? "?")) before \(what); stderr: \(text)")
      }
      usleep(2_000)
    }
  }

  /// The CPU time (user and system) process `pid` has used, in seconds, from
  /// /proc; 0 when it cannot be read.
  static func cpuSeconds(_ pid: pid_t) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    // After "pid (name) ": state is field 3, utime 14 and stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The stderr a child wrote to `log`.
  static func log(_ log: URL) -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}

// MARK: - Same pixels

@Suite("Batch: every output is the pixels of render of the same job")
struct BatchPixelTests {
  /// Renders a folder of scenes (one nested, one with an image) and manifest jobs
  /// with "scale" and "depth" (over and under the scene's own scale), then a
  /// second batch whose `--scale 2 --depth 16` apply to the jobs that name
  /// neither; every output must decode to exactly what `render` writes for that
  /// scene with the options the job resolves to (job field, else command line,
  /// else the scene's own). The batch runs in another folder than the manifest's,
  /// so relative scene and image paths must resolve against the manifest.
  static func samePixels(backend: String) throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.writePhoto(in: root)
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let plain = try BatchFixture.put(BatchFixture.scene(0), "scenes/plain.json", in: root)
    let photo = try BatchFixture.put(
      BatchFixture.scene(1, image: "../../images/photo.png"), "scenes/nested/photo.json", in: root)
    // Inline scenes, also written to files in the manifest's folder for render.
    let inlinePhoto = BatchFixture.scene(2, image: "images/photo.png")
    // Another image of the same size, in the same process as the photo.
    let inlineDouble = BatchFixture.scene(3, image: "images/other.png", scale: 2)
    let inlineCLI = BatchFixture.scene(4, image: "images/photo.png")
    let inlinePhotoFile = try BatchFixture.put(inlinePhoto, "inline-2.json", in: root)
    let inlineDoubleFile = try BatchFixture.put(inlineDouble, "inline-3.json", in: root)
    let inlineCLIFile = try BatchFixture.put(inlineCLI, "inline-4.json", in: root)
    let q = BatchFixture.quoted
    let manifest = [
      BatchFixture.line([("scene", q("scenes/plain.json")), ("output", q("m/plain@2x.png")), ("scale", "2")]),
      BatchFixture.line([("scene", inlinePhoto), ("output", q("m/inline16.png")), ("depth", "16")]),
      BatchFixture.line([
        ("scene", q("scenes/nested/photo.json")), ("output", q("m/photo@2x-16.png")), ("scale", "2"), ("depth", "16"),
      ]),
      BatchFixture.line([("scene", inlineDouble), ("output", q("m/down.png")), ("scale", "1")]),
    ]
    try BatchFixture.put(manifest.joined(separator: "\n") + "\n", "jobs.jsonl", in: root)
    let out = root.appendingPathComponent("out")
    let first = try runCLI(
      [
        "batch", root.appendingPathComponent("scenes").path, "--manifest",
        root.appendingPathComponent("jobs.jsonl").path,
        "-o", out.path, "--backend", backend, "--quiet",
      ], in: elsewhere)
    #expect(first.reason == .exit && first.status == 0, "\(first.stderr)")

    // The second run: command-line --scale and --depth, which job fields override.
    let manifest2 = [
      BatchFixture.line([
        ("scene", q("scenes/nested/photo.json")), ("output", q("eight.png")), ("depth", "8"), ("scale", "1"),
      ]),
      BatchFixture.line([("scene", inlineCLI), ("output", q("cli.png"))]),
    ]
    try BatchFixture.put(manifest2.joined(separator: "\n") + "\n", "jobs2.jsonl", in: root)
    let out2 = root.appendingPathComponent("out2")
    let second = try runCLI(
      [
        "batch", plain.path, "--manifest", root.appendingPathComponent("jobs2.jsonl").path, "-o", out2.path,
        "--scale", "2", "--depth", "16", "--compression", "0", "--backend", backend, "--quiet",
      ], in: elsewhere)
    #expect(second.reason == .exit && second.status == 0, "\(second.stderr)")

    // What render writes for each job: (batch output, scene, scale, depth).
    let cases: [(URL, URL, Int?, Int?)] = [
      (out.appendingPathComponent("plain.png"), plain, nil, nil),
      (out.appendingPathComponent("nested/photo.png"), photo, nil, nil),
      (out.appendingPathComponent("m/plain@2x.png"), plain, 2, nil),
      (out.appendingPathComponent("m/inline16.png"), inlinePhotoFile, nil, 16),
      (out.appendingPathComponent("m/photo@2x-16.png"), photo, 2, 16),
      (out.appendingPathComponent("m/down.png"), inlineDoubleFile, 1, nil),
      (out2.appendingPathComponent("plain.png"), plain, 2, 16),
      (out2.appendingPathComponent("eight.png"), photo, 1, 8),
      (out2.appendingPathComponent("cli.png"), inlineCLIFile, 2, 16),
    ]
    let expected = root.appendingPathComponent("expected")
    for (index, (output, scene, scale, depth)) in cases.enumerated() {
      let reference = expected.appendingPathComponent("\(index).png")
      try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
      try BatchFixture.render(scene, to: reference, scale: scale, depth: depth, backend: backend)
      let label =
        "\(output.path.dropFirst(root.path.count + 1)) (\(backend), scale \(scale.map { "\($0)" } ?? "scene's"), depth \(depth ?? 8))"
      guard FileManager.default.fileExists(atPath: output.path) else {
        Issue.record(Comment(rawValue: "\(label): the batch did not write it"))
        continue
      }
      BatchFixture.expectSamePixels(output, reference, label)
    }
    // Nothing else in either output folder: no temporaries, no stray names.
    #expect(
      BatchFixture.allFiles(under: out)
        == ["m/down.png", "m/inline16.png", "m/photo@2x-16.png", "m/plain@2x.png", "nested/photo.png", "plain.png"])
    #expect(BatchFixture.allFiles(under: out2) == ["cli.png", "eight.png", "plain.png"])
  }

  @Test("CPU backend: batch outputs decode to the pixels of render with the same --scale and --depth")
  func cpu() throws {
    try Self.samePixels(backend: "cpu")
  }

  @Test(
    "GPU backend: batch outputs decode to the pixels of render with the same --scale and --depth",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func gpu() throws {
    _ = try TestGPU.requireRenderer()
    try Self.samePixels(backend: "gpu")
  }
}

// MARK: - Failure isolation

@Suite("Batch: a bad job fails alone")
struct BatchIsolationTests {
  /// One manifest line and what the run must do with it.
  struct Expected {
    var line: Int
    var id: String
    /// The output (relative to -o) of a good job; nil for a bad one.
    var output: String?
    /// For a bad job: words its error must contain, and its phase when the
    /// contract makes it plain (nil: not checked).
    var mentions: [String] = []
    var phase: String?
    /// The report's error_code, error_file (its end) and error_json_path, when checked.
    var code: String?
    var file: String?
    var jsonPath: String?
  }

  @Test(
    "bad JSON, an unknown field, a missing scene file, a missing or damaged image, an invalid scene, a canvas over --max-pixels and an unwritable output each fail alone"
  )
  func isolation() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.writePhoto(in: root)
    // A damaged PNG: the photo with its data scrambled after the header.
    var damaged = [UInt8](try Data(contentsOf: root.appendingPathComponent("images/photo.png")))
    for index in 60..<(damaged.count - 20) { damaged[index] ^= 0x5a }
    try Data(damaged).write(to: root.appendingPathComponent("images/damaged.png"))
    let good = try BatchFixture.put(BatchFixture.scene(0), "good.json", in: root)
    let photo = try BatchFixture.put(BatchFixture.scene(1, image: "images/photo.png"), "photo.json", in: root)
    try BatchFixture.put(BatchFixture.scene(2, image: "images/nothere.png"), "missing.json", in: root)
    try BatchFixture.put(BatchFixture.scene(3, image: "images/damaged.png"), "damaged.json", in: root)
    let deep = BatchFixture.scene(5, image: "images/photo.png")
    let deepFile = try BatchFixture.put(deep, "inline-11.json", in: root)
    // An output under a regular file cannot be made, even by root.
    let blocker = try BatchFixture.put("not a folder", "blocker", in: root)
    let q = BatchFixture.quoted
    let lines = [
      /* 1 */ BatchFixture.line([("scene", q("good.json")), ("output", q("good-1.png"))]),
      /* 2 */ #"{"scene": "good.json", "output": "never.png""#,
      /* 3 */ BatchFixture.line([("scene", q("good.json")), ("output", q("typo.png")), ("depht", "16")]),
      /* 4 */ BatchFixture.line([("id", q("photo")), ("scene", q("photo.json")), ("output", q("sub/good-4.png"))]),
      /* 5 */ BatchFixture.line([("scene", q("no-such-scene.json")), ("output", q("l5.png"))]),
      /* 6 */ BatchFixture.line([("scene", q("missing.json")), ("output", q("l6.png"))]),
      /* 7 */ BatchFixture.line([("scene", q("damaged.json")), ("output", q("l7.png"))]),
      /* 8 */ BatchFixture.line([("scene", BatchFixture.scene(4, width: 400, height: 300)), ("output", q("l8.png"))]),
      /* 9 */ BatchFixture.line([("scene", q("good.json")), ("output", q(blocker.path + "/l9.png"))]),
      /* 10 */ "",
      /* 11 */ BatchFixture.line([("id", "11"), ("scene", deep), ("output", q("good-11.png")), ("depth", "16")]),
      /* 12 */ BatchFixture.line([
        ("scene", SceneJSON.scene(width: 200, height: 120, layers: #"{"type": "sparkle"}"#)),
        ("output", q("l12.png")),
      ]),
    ]
    try BatchFixture.put(lines.joined(separator: "\n") + "\n", "manifest.jsonl", in: root)
    let expected = [
      Expected(line: 1, id: "1", output: "good-1.png"),
      Expected(line: 2, id: "2", mentions: [], phase: "read"),
      Expected(
        line: 3, id: "3", mentions: ["depht"], phase: "read", code: "invalid-scene", file: "manifest.jsonl",
        jsonPath: "depht"),
      Expected(line: 4, id: "photo", output: "sub/good-4.png"),
      Expected(
        line: 5, id: "5", mentions: ["no-such-scene.json"], phase: "read", code: "file-unreadable",
        file: "no-such-scene.json"),
      Expected(
        line: 6, id: "6", mentions: ["nothere.png"], phase: "prepare", code: "file-unreadable",
        file: "images/nothere.png", jsonPath: "layers[1].source"),
      Expected(
        line: 7, id: "7", mentions: ["damaged.png"], phase: "prepare", code: "invalid-image",
        file: "images/damaged.png", jsonPath: "layers[1].source"),
      Expected(line: 8, id: "8", mentions: ["--max-pixels"], phase: "prepare"),
      Expected(line: 9, id: "9", mentions: ["blocker"], phase: "write"),
      Expected(line: 11, id: "11", output: "good-11.png"),
      Expected(
        line: 12, id: "12", mentions: ["layers[0]", "sparkle"], code: "invalid-scene", file: "manifest.jsonl",
        jsonPath: "scene.layers[0].type"),
    ]
    let out = root.appendingPathComponent("out")
    let reportFile = root.appendingPathComponent("report.jsonl")
    // 200x120 canvases pass, the 400x300 one (120,000 pixels) does not.
    let result = try runCLI(
      [
        "batch", "--manifest", "manifest.jsonl", "-o", out.path, "--backend", "cpu", "--max-pixels", "100000",
        "--report", reportFile.path, "--quiet",
      ], in: root)
    #expect(result.reason == .exit && result.status == 1, "exit \(result.status): \(result.stderr)")

    // Every good job rendered, right; nothing else under -o; the blocker untouched.
    let goodRenders: [(String, URL, Int?)] = [
      ("good-1.png", good, nil), ("sub/good-4.png", photo, nil), ("good-11.png", deepFile, 16),
    ]
    for (output, scene, depth) in goodRenders {
      let reference = root.appendingPathComponent("expected-\(output.replacingOccurrences(of: "/", with: "-"))")
      try BatchFixture.render(scene, to: reference, depth: depth)
      let written = out.appendingPathComponent(output)
      if FileManager.default.fileExists(atPath: written.path) {
        BatchFixture.expectSamePixels(written, reference, output)
      } else {
        Issue.record(Comment(rawValue: "the good job \(output) was not written: \(result.stderr)"))
      }
    }
    #expect(BatchFixture.allFiles(under: out) == ["good-1.png", "good-11.png", "sub/good-4.png"])
    #expect(try String(contentsOf: blocker, encoding: .utf8) == "not a folder")

    // stderr: one line per failure, each naming its manifest line and its cause.
    let failures = expected.filter { $0.output == nil }
    let stderrLines = result.stderr.split(separator: "\n").map(String.init)
    #expect(stderrLines.count == failures.count, "one line per failed job:\n\(result.stderr)")
    // Several jobs may read one scene file: only the line number tells which failed.
    for failure in failures {
      let named = stderrLines.filter { $0.contains("manifest.jsonl:\(failure.line):") }
      #expect(
        named.count == 1,
        "\(named.count) stderr lines name manifest.jsonl:\(failure.line): (the failed job's line), not 1:\n\(result.stderr)"
      )
      for word in failure.mentions {
        #expect(
          stderrLines.contains { $0.contains(word) },
          "no stderr line names \(word) (line \(failure.line)):\n\(result.stderr)")
      }
    }

    // The report: one JSON line per job (the blank line is no job).
    let report = try BatchFixture.report(reportFile)
    #expect(report.count == expected.count, "\(report.count) report lines for \(expected.count) jobs")
    let reported = BatchFixture.byID(report)
    for job in expected {
      guard let entry = reported[job.id] else {
        Issue.record(Comment(rawValue: "no report line for line \(job.line) (id \(job.id)): \(report)"))
        continue
      }
      #expect(entry["line"] as? Int == job.line, "line \(job.line): \(entry)")
      if let output = job.output {
        #expect(entry["status"] as? String == "rendered", "line \(job.line): \(entry)")
        let size = BatchFixture.FileIdentity(out.appendingPathComponent(output))?.bytes
        #expect(entry["bytes"] as? Int == size, "line \(job.line): bytes \(String(describing: size)): \(entry)")
        #expect(entry["error"] == nil, "line \(job.line): \(entry)")
      } else {
        #expect(entry["status"] as? String == "failed", "line \(job.line): \(entry)")
        let error = entry["error"] as? String ?? ""
        #expect(!error.isEmpty, "line \(job.line) has no error: \(entry)")
        for word in job.mentions { #expect(error.contains(word), "line \(job.line)'s error names \(word): \(entry)") }
        if let phase = job.phase { #expect(entry["phase"] as? String == phase, "line \(job.line): \(entry)") }
        // Where it failed, as values: not only in the text.
        if let code = job.code { #expect(entry["error_code"] as? String == code, "line \(job.line): \(entry)") }
        if let file = job.file {
          #expect((entry["error_file"] as? String)?.hasSuffix(file) == true, "line \(job.line): \(entry)")
        }
        if let path = job.jsonPath {
          #expect(entry["error_json_path"] as? String == path, "line \(job.line): \(entry)")
        }
      }
    }
  }
}

// MARK: - Processes: kill, interrupt, shards, standard input

@Suite("Batch: killed, interrupted, sharded and fed by a pipe")
struct BatchProcessTests {
  @Test("after SIGKILL, --resume renders only what is missing; no output is rewritten, damaged or left temporary")
  func resumeAfterKill() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let jobs = try BatchFixture.writeManyJobs(in: root)
    let out = root.appendingPathComponent("out")
    let log = root.appendingPathComponent("stderr.txt")
    let arguments = ["batch", "--manifest", "jobs.jsonl", "-o", "out", "--backend", "cpu", "--jobs", "1", "--quiet"]
    let child = try OutputSafetyTests.Child(arguments, in: root, log: log)
    try BatchFixture.waitUntil(child, log: log, what: "3 outputs were written") {
      BatchFixture.outputs(under: out).count >= 3
    }
    kill(child.pid, SIGKILL)
    #expect(try child.wait() == .signal(SIGKILL))
    // What the killed run left whole, and how it sits on disk.
    let before = BatchFixture.outputs(under: out)
    var identities: [String: BatchFixture.FileIdentity] = [:]
    for path in before { identities[path] = BatchFixture.FileIdentity(out.appendingPathComponent(path)) }
    try #require(before.count < jobs.count, "the batch finished all \(jobs.count) jobs before it was killed")

    let reportFile = root.appendingPathComponent("r.jsonl")
    let resumed = try runCLI(arguments + ["--resume", "--report", reportFile.path], in: root)
    #expect(resumed.reason == .exit && resumed.status == 0, "exit \(resumed.status): \(resumed.stderr)")
    // Every output, exactly, and each the reference pixels.
    #expect(BatchFixture.allFiles(under: out) == jobs.map(\.output).sorted(), "\(BatchFixture.allFiles(under: out))")
    #expect(BatchFixture.temporaries(under: out).isEmpty, "left: \(BatchFixture.temporaries(under: out))")
    try BatchFixture.expectReferencePixels(
      under: out, jobs.map(\.output).filter { BatchFixture.outputs(under: out).contains($0) })
    // The outputs the killed run finished were skipped, not rendered again.
    for path in before.sorted() {
      let now = BatchFixture.FileIdentity(out.appendingPathComponent(path))
      #expect(
        now == identities[path],
        "\(path) was rewritten: \(String(describing: identities[path])) → \(String(describing: now))")
    }
    let reported = BatchFixture.byID(try BatchFixture.report(reportFile))
    #expect(reported.count == jobs.count, "\(reported.count) report lines for \(jobs.count) jobs")
    for job in jobs {
      let status = reported[job.id]?["status"] as? String
      #expect(
        status == (before.contains(job.output) ? "skipped" : "rendered"),
        "\(job.id) (\(job.output), existed: \(before.contains(job.output))): \(String(describing: reported[job.id]))")
    }
    print("resume after SIGKILL: \(before.count) of \(jobs.count) outputs existed when the batch was killed")
  }

  /// Sends `signal` once the first output exists, then checks the interrupted run
  /// and that `--resume` finishes it.
  func interrupt(with signal: Int32, exitStatus: Int32) throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let jobs = try BatchFixture.writeManyJobs(in: root)
    let out = root.appendingPathComponent("out")
    let log = root.appendingPathComponent("stderr.txt")
    let reportFile = root.appendingPathComponent("report.jsonl")
    let arguments = [
      "batch", "--manifest", "jobs.jsonl", "-o", "out", "--backend", "cpu", "--jobs", "1", "--report", reportFile.path,
    ]
    let child = try OutputSafetyTests.Child(arguments, in: root, log: log)
    try BatchFixture.waitUntil(child, log: log, what: "the first output was written") {
      !BatchFixture.outputs(under: out).isEmpty
    }
    kill(child.pid, signal)
    let ending = try child.wait()
    #expect(
      ending == .signal(signal) || ending == .exit(exitStatus),
      "ended \(ending), not by signal \(signal) or exit \(exitStatus): \(BatchFixture.log(log))")
    let present = BatchFixture.outputs(under: out)
    #expect(present.count < jobs.count, "all \(jobs.count) jobs rendered: the signal did not stop the batch")
    #expect(BatchFixture.temporaries(under: out).isEmpty, "left: \(BatchFixture.temporaries(under: out))")
    #expect(BatchFixture.allFiles(under: out).count == present.count, "\(BatchFixture.allFiles(under: out))")
    try BatchFixture.expectReferencePixels(under: out, present.sorted())
    // The report was written, every line whole, and it names each output written.
    #expect(FileManager.default.fileExists(atPath: reportFile.path), "no report after the signal")
    if FileManager.default.fileExists(atPath: reportFile.path) {
      let reported = BatchFixture.byID(try BatchFixture.report(reportFile))
      for job in jobs where present.contains(job.output) {
        #expect(
          reported[job.id]?["status"] as? String == "rendered",
          "\(job.output) was written but its report line is \(String(describing: reported[job.id]))")
      }
      for (id, entry) in reported where entry["status"] as? String == "rendered" {
        let output = jobs.first { $0.id == id }?.output ?? "?"
        #expect(present.contains(output), "\(id) is reported rendered but \(output) is missing")
      }
    }
    // The same command with --resume renders the rest.
    let resumed = try runCLI(arguments + ["--resume", "--quiet"], in: root)
    #expect(resumed.reason == .exit && resumed.status == 0, "exit \(resumed.status): \(resumed.stderr)")
    #expect(BatchFixture.allFiles(under: out) == jobs.map(\.output).sorted(), "\(BatchFixture.allFiles(under: out))")
    try BatchFixture.expectReferencePixels(
      under: out, jobs.map(\.output).filter { BatchFixture.outputs(under: out).contains($0) })
    print("interrupted by signal \(signal): \(present.count) of \(jobs.count) outputs written before it ended")
  }

  @Test("SIGINT stops the batch (130), leaves whole outputs, a whole report and no temporaries; --resume finishes")
  func sigint() throws {
    try interrupt(with: SIGINT, exitStatus: 130)
  }

  @Test("SIGTERM stops the batch (143) the same way")
  func sigterm() throws {
    try interrupt(with: SIGTERM, exitStatus: 143)
  }

  @Test("a second SIGINT ends the batch at once, without the job in flight, and leaves no temporary")
  func secondSignal() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    // A job that takes the CPU seconds, then small ones.
    try BatchFixture.put(OutputSafetyTests.slowScene, "slow.json", in: root)
    let lines =
      [BatchFixture.line([("scene", "\"slow.json\""), ("output", "\"slow.png\"")])]
      + (0..<4).map { BatchFixture.line([("scene", BatchFixture.scene($0)), ("output", "\"small-\($0).png\"")]) }
    try BatchFixture.put(lines.joined(separator: "\n") + "\n", "jobs.jsonl", in: root)
    let out = root.appendingPathComponent("out")
    let log = root.appendingPathComponent("stderr.txt")
    let child = try OutputSafetyTests.Child(
      ["batch", "--manifest", "jobs.jsonl", "-o", "out", "--backend", "cpu", "--jobs", "1", "--quiet"], in: root,
      log: log)
    // Once the batch has used half a second of CPU, the slow job is being rendered
    // (starting, reading and preparing it take milliseconds).
    try BatchFixture.waitUntil(child, log: log, what: "0.5 s of CPU time was used") {
      BatchFixture.cpuSeconds(child.pid) >= 0.5
    }
    kill(child.pid, SIGINT)
    usleep(300_000)
    // The first signal lets the job in flight finish, so the batch is still running.
    let stillRunning = child.isRunning
    #expect(stillRunning, "the batch ended 0.3 s after the first SIGINT, with the slow job in flight")
    let second = Date()
    kill(child.pid, SIGINT)
    let ending = try child.wait()
    let seconds = Date().timeIntervalSince(second)
    #expect(ending == .signal(SIGINT) || ending == .exit(130), "ended \(ending): \(BatchFixture.log(log))")
    #expect(seconds < 3, "the batch took \(seconds) s to end after the second SIGINT")
    #expect(BatchFixture.allFiles(under: out).isEmpty, "left: \(BatchFixture.allFiles(under: out))")
  }

  @Test("3 shard processes side by side write each output of the unsharded run once, byte-identical")
  func shards() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let jobs = try BatchFixture.writeManyJobs(in: root, count: 40)
    let reference = try BatchFixture.reference()
    var children: [(OutputSafetyTests.Child, URL)] = []
    for shard in 0..<3 {
      let log = root.appendingPathComponent("stderr-\(shard).txt")
      let arguments = [
        "batch", "--manifest", "jobs.jsonl", "-o", "out-\(shard)", "--backend", "cpu", "--quiet", "--shard",
        "\(shard)/3",
        "--report", "report-\(shard).jsonl",
      ]
      children.append((try OutputSafetyTests.Child(arguments, in: root, log: log), log))
    }
    for (shard, (child, log)) in children.enumerated() {
      let ending = try child.wait()
      #expect(ending == .exit(0), "shard \(shard)/3 ended \(ending): \(BatchFixture.log(log))")
    }
    var seen: [String: Int] = [:]
    for shard in 0..<3 {
      let out = root.appendingPathComponent("out-\(shard)")
      let written = BatchFixture.allFiles(under: out)
      // Job k (0-based, manifest order) belongs to shard k mod 3.
      let mine = jobs.filter { ($0.line - 1) % 3 == shard }
      #expect(written == mine.map(\.output).sorted(), "shard \(shard)/3 wrote \(written)")
      for path in written {
        seen[path, default: 0] += 1
        let bytes = try Data(contentsOf: out.appendingPathComponent(path))
        #expect(bytes == reference[path], "shard \(shard)/3's \(path) is not byte-identical to the unsharded run's")
      }
      let reported = BatchFixture.byID(try BatchFixture.report(root.appendingPathComponent("report-\(shard).jsonl")))
      #expect(Set(reported.keys) == Set(mine.map(\.id)), "shard \(shard)/3 reported \(reported.keys.sorted())")
    }
    #expect(Set(seen.keys) == Set(reference.keys), "the shards together wrote \(seen.keys.sorted())")
    #expect(seen.values.allSatisfy { $0 == 1 }, "written more than once: \(seen.filter { $0.value > 1 })")
  }

  @Test("--manifest - reads jobs from standard input as they arrive")
  func standardInput() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.writePhoto(in: root)
    let plain = try BatchFixture.put(BatchFixture.scene(0), "scene.json", in: root)
    let inline = BatchFixture.scene(1, image: "images/photo.png")
    let inlineFile = try BatchFixture.put(inline, "inline.json", in: root)
    let out = root.appendingPathComponent("out")
    let log = root.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let input = Pipe()
    // A read end kept open here too, so that a batch that dies early makes the
    // writes below fail quietly instead of raising SIGPIPE in the test runner.
    let spareReadEnd = dup(input.fileHandleForReading.fileDescriptor)
    defer { close(spareReadEnd) }
    let child = try OutputSafetyTests.Child(
      ["batch", "--manifest", "-", "-o", "out", "--backend", "cpu", "--quiet"], in: root, log: log, input: input)
    let writer = input.fileHandleForWriting
    // Relative paths on standard input resolve against the current folder.
    writer.write(Data((BatchFixture.line([("scene", "\"scene.json\""), ("output", "\"first.png\"")]) + "\n").utf8))
    // The first job renders while standard input is still open.
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: out.appendingPathComponent("first.png").path), child.isRunning,
      Date() < deadline
    {
      usleep(2_000)
    }
    #expect(
      FileManager.default.fileExists(atPath: out.appendingPathComponent("first.png").path),
      "the first job was not written while standard input stayed open: \(BatchFixture.log(log))")
    writer.write(Data((BatchFixture.line([("scene", inline), ("output", "\"second.png\"")]) + "\n").utf8))
    try writer.close()
    let end = Date().addingTimeInterval(60)
    while child.isRunning, Date() < end { usleep(2_000) }
    if child.isRunning {
      kill(child.pid, SIGKILL)
      Issue.record("the batch did not end within 60 s of standard input closing")
    }
    let ending = try child.wait()
    #expect(ending == .exit(0), "ended \(ending): \(BatchFixture.log(log))")
    #expect(BatchFixture.allFiles(under: out) == ["first.png", "second.png"])
    for (output, scene) in [("first.png", plain), ("second.png", inlineFile)] {
      let reference = root.appendingPathComponent("expected-\(output)")
      try BatchFixture.render(scene, to: reference)
      if FileManager.default.fileExists(atPath: out.appendingPathComponent(output).path) {
        BatchFixture.expectSamePixels(out.appendingPathComponent(output), reference, output)
      }
    }
  }
}

// MARK: - Command line

@Suite("Batch: the command line")
struct BatchCommandLineTests {
  @Test(
    "a bad command line exits 64 with a message",
    arguments: [
      (["-o", "out"], "no inputs"),
      (["scene.json"], "output"),
      (["scene.json", "-o", "out", "--shard", "3/3"], "shard"),
      (["scene.json", "-o", "out", "--shard", "1/0"], "shard"),
      (["scene.json", "-o", "out", "--shard", "-1/3"], "shard"),
      (["scene.json", "-o", "out", "--shard", "2"], "shard"),
    ])
  func badCommandLine(_ arguments: [String], _ mentions: String) throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.put(BatchFixture.scene(0), "scene.json", in: root)
    let result = try runCLI(["batch"] + arguments + ["--backend", "cpu"], in: root)
    #expect(result.reason == .exit && result.status == 64, "\(arguments): exit \(result.status): \(result.stderr)")
    #expect(!result.stderr.isEmpty, "\(arguments): no message")
    if mentions != "no inputs" {
      #expect(result.stderr.lowercased().contains(mentions), "\(arguments): names \(mentions): \(result.stderr)")
    }
    #expect(
      !FileManager.default.fileExists(atPath: root.appendingPathComponent("out").path)
        || BatchFixture.outputs(under: root.appendingPathComponent("out")).isEmpty)
  }

  @Test("folders mirror their scenes' names under -o; a scene file goes to -o/NAME.png; a summary line at the end")
  func folderMirrors() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try BatchFixture.writePhoto(in: root)
    let nested = try BatchFixture.put(
      BatchFixture.scene(0, image: "../../images/photo.png"), "scenes/a/b.json", in: root)
    try BatchFixture.put(BatchFixture.scene(1), "scenes/c.json", in: root)
    try BatchFixture.put("not a scene", "scenes/notes.txt", in: root)
    try BatchFixture.put(BatchFixture.scene(2), "extra/d.json", in: root)
    let out = root.appendingPathComponent("out")
    let result = try runCLI(["batch", "scenes", "extra/d.json", "-o", "out", "--backend", "cpu"], in: root)
    #expect(result.reason == .exit && result.status == 0, "exit \(result.status): \(result.stderr)")
    #expect(BatchFixture.allFiles(under: out) == ["a/b.png", "c.png", "d.png"])
    #expect(
      result.stderr.contains("batch: 3 jobs, 3 rendered, 0 failed, 0 skipped in"), "summary: \(result.stderr)")
    let reference = root.appendingPathComponent("b.png")
    try BatchFixture.render(nested, to: reference)
    BatchFixture.expectSamePixels(out.appendingPathComponent("a/b.png"), reference, "a/b.png")
  }
}
