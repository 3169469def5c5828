import Foundation
import Testing

@testable import GLESGlass

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The demo scenes (Assets/scenes/*.json) rendered five times on the CPU backend,
/// through `GoldenCheck` (the batch pipeline), at 1x to keep `make test` within its
/// budget (each scene's every layer is still drawn; 2x costs four times the
/// pixels): run 1 with one worker thread records the references, run 2 with two
/// threads and run 3 with the default count (one a core, at most 8) check
/// against them, and runs 4 and 5 go again on the checks of runs 1 and 2 (their
/// fitted images cached, so only the render itself is repeated). Every run keeps
/// its PNGs; made once, shared by the tests below.
struct DemoRuns: @unchecked Sendable {
  static let scenesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets/scenes").path

  /// The demo scenes' names, from the folder.
  static var sceneNames: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: scenesFolder)) ?? []).filter { $0.hasSuffix(".json") }
      .map { String($0.dropLast(5)) }.sorted()
  }

  /// How many runs: 5, or 2 to 5 from `GLASS_GPU_DEMO_RUNS`. `make sanitize`
  /// sets 2 (1 and 2 threads): under ASan the repeats find no memory error the
  /// first two runs do not, and cost about two minutes of the CI budget there.
  static let count =
    ProcessInfo.processInfo.environment["GLASS_GPU_DEMO_RUNS"].flatMap(Int.init).map {
      min(5, max(2, $0))
    } ?? 5

  /// The folder of the references recorded by run 1.
  let references: String
  /// Each run's thread count (nil: the default) and report.
  let runs: [(threads: Int?, report: GoldenReport)]
  /// Each run's PNG bytes by scene name (run 1's are the recorded references).
  let pngs: [[String: [UInt8]]]

  /// The runs, made once on a thread of their own: a minute of rendering in a
  /// debug build must not hold the test runner's few threads (one a core), which
  /// every other suite is waiting for.
  static func shared() async throws -> DemoRuns {
    try await Once.shared.value()
  }

  private final class Once: @unchecked Sendable {
    static let shared = Once()
    private let lock = NSLock()
    private var result: Result<DemoRuns, Error>?
    private var waiting: [CheckedContinuation<DemoRuns, Error>] = []
    private var started = false

    func value() async throws -> DemoRuns {
      try await withCheckedThrowingContinuation { continuation in
        let ready: Result<DemoRuns, Error>? = lock.withLock {
          if let result { return result }
          waiting.append(continuation)
          if !started {
            started = true
            let thread = Thread { self.finish(Result { try DemoRuns() }) }
            thread.name = "demo runs"
            thread.start()
          }
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    }

    private func finish(_ made: Result<DemoRuns, Error>) {
      let waiters = lock.withLock {
        result = made
        defer { waiting = [] }
        return waiting
      }
      for waiter in waiters { waiter.resume(with: made) }
    }
  }

  private init() throws {
    let root = try makeTemporaryFolder().path
    let references = root + "/references"
    var runs: [(Int?, GoldenReport)] = []
    var pngs: [[String: [UInt8]]] = []
    func check(threads: Int?, record: GoldenRecordMode, run: Int) throws -> GoldenCheck {
      var options = GoldenCheckOptions(references: references, artifacts: root + "/run\(run)")
      options.record = record
      options.keepRenders = true
      options.batch.scale = 1
      options.batch.cpuThreads = threads
      return try GoldenCheck(options: options)
    }
    func go(_ check: GoldenCheck, _ threads: Int?, folder: String) throws {
      let report = check.run(try check.jobs(forInputs: [Self.scenesFolder]).map { .job($0) })
      runs.append((threads, report))
      var bytes: [String: [UInt8]] = [:]
      for name in Self.sceneNames {
        bytes[name] = (try? Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).png"))).map { [UInt8]($0) }
      }
      pngs.append(bytes)
    }
    let one = try check(threads: 1, record: .missing, run: 1)
    try go(one, 1, folder: references)
    let two = try check(threads: 2, record: .never, run: 2)
    try go(two, 2, folder: root + "/run2")
    if Self.count >= 3 { try go(try check(threads: nil, record: .never, run: 3), nil, folder: root + "/run3") }
    // Runs 4 and 5 write over the renders of the checks they repeat.
    if Self.count >= 4 { try go(one, 1, folder: root + "/run1") }
    if Self.count >= 5 { try go(two, 2, folder: root + "/run2") }
    self.references = references
    self.runs = runs
    self.pngs = pngs
  }
}

@Suite("Determinism and goldens checks")
struct GoldenCheckTests {
  @Test("CPU renders of every demo scene are byte-identical PNGs with 1 and 2 worker threads and across 5 runs")
  func determinism() async throws {
    let demo = try await DemoRuns.shared()
    let names = DemoRuns.sceneNames
    #expect(names.count >= 10, "the demo scenes: \(names)")
    #expect(demo.runs.map(\.threads) == Array([1, 2, nil, 1, 2].prefix(DemoRuns.count)))
    if DemoRuns.count < 5 {
      print("determinism: \(DemoRuns.count) runs of the demo scenes (GLASS_GPU_DEMO_RUNS), not 5")
    }
    if verbose {
      for run in demo.runs {
        print("demo run, \(run.threads.map(String.init) ?? "default") threads: \(run.report.wallSeconds) s")
      }
    }
    for name in names {
      let first = try #require(demo.pngs[0][name], "run 1 recorded \(name)")
      #expect(!first.isEmpty)
      for (index, run) in demo.pngs.enumerated().dropFirst() {
        let bytes = try #require(run[name], "run \(index + 1) wrote \(name)")
        let threads = demo.runs[index].threads.map(String.init) ?? "default"
        #expect(bytes == first, "\(name): run \(index + 1) (\(threads) threads) differs from run 1 (1 thread)")
      }
    }
  }

  @Test("the goldens check records missing references, then passes on the demo scenes against them")
  func recordsThenPasses() async throws {
    let demo = try await DemoRuns.shared()
    let names = DemoRuns.sceneNames
    let recorded = demo.runs[0].report
    #expect(recorded.cases.map(\.name).sorted() == names)
    #expect(recorded.cases.allSatisfy { $0.status == .recorded }, "\(recorded.cases.map(\.message))")
    #expect(recorded.exitStatus == 2)
    for name in names {
      #expect(FileManager.default.fileExists(atPath: "\(demo.references)/\(name).png"))
    }
    for (index, run) in demo.runs.enumerated().dropFirst() {
      let report = run.report
      #expect(report.cases.count == names.count)
      #expect(
        report.allPassed,
        "run \(index + 1): \(report.cases.filter { $0.status != .passed }.map { "\($0.name): \($0.message ?? "")" })")
      #expect(report.exitStatus == 0)
      #expect(report.cases.allSatisfy { $0.comparison?.maxDifference == 0 })
    }
  }

  /// A copy of a demo scene with one optical parameter changed, in a folder
  /// beside links to the images it names.
  static func changedScene(in root: URL) throws -> String {
    let assets = URL(fileURLWithPath: DemoRuns.scenesFolder).deletingLastPathComponent()
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    for name in ["landscape.png", "flowers.png", "icons"] {
      try FileManager.default.createSymbolicLink(
        at: root.appendingPathComponent(name), withDestinationURL: assets.appendingPathComponent(name))
    }
    let original = try String(contentsOfFile: DemoRuns.scenesFolder + "/union.json", encoding: .utf8)
    // One optical parameter of the first glass shape: no refraction.
    let changed = original.replacingOccurrences(
      of: "\"glassEffectUnion\": \"1\"", with: "\"glassEffectUnion\": \"1\", \"optics\": {\"refraction\": 0}",
      options: [], range: original.range(of: "\"glassEffectUnion\": \"1\""))
    #expect(changed != original, "union.json has a glass shape in union 1")
    let path = scenes.appendingPathComponent("union.json").path
    try changed.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("the goldens check fails on a changed scene, writes its render and a difference image, and says so")
  func failsOnChange() async throws {
    let demo = try await DemoRuns.shared()
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = try Self.changedScene(in: root)
    var options = GoldenCheckOptions(
      references: demo.references, artifacts: root.appendingPathComponent("failures").path)
    options.batch.scale = 1
    let check = try GoldenCheck(options: options)
    let report = check.run(try check.jobs(forInputs: [scene]).map { .job($0) })
    let item = try #require(report.cases.first)
    #expect(report.cases.count == 1 && item.name == "union")
    #expect(item.status == .failed, "\(item.message ?? "")")
    #expect(report.exitStatus == 1)
    let actual = try #require(item.actual)
    let difference = try #require(item.difference)
    #expect(item.message?.contains(difference) == true && item.message?.contains(actual) == true)
    #expect(item.message?.contains(", over the limit of 0/255") == true, "\(item.message ?? "")")
    #expect(item.message?.hasSuffix("if the change is meant, record the reference anew") == true)
    #expect(item.hint == .record(.failed))
    let diffImage = try PNGCodec.read(path: difference).image
    let reference = try PNGCodec.read(path: demo.references + "/union.png").image
    let rendered = try PNGCodec.read(path: actual).image
    #expect(diffImage.size == reference.size)
    // The difference image is that of the render and the reference.
    #expect(diffImage == ImageComparison.differenceImage(rendered, reference))
    #expect(try ImageComparison(rendered, reference).maxDifference > 0)

    // Within a tolerance wide enough, the same render passes.
    var loose = options
    loose.limits = ImageComparison.Limits(maxDifference: 255)
    let passing = try GoldenCheck(options: loose)
    #expect(passing.run(try passing.jobs(forInputs: [scene]).map { .job($0) }).allPassed)

    // The JUnit report of the failure parses and names the case, its failure and its files.
    let xml = try XMLDocument(data: Data(report.junitXML().utf8))
    let testcase = try #require(try xml.nodes(forXPath: "/testsuites/testsuite/testcase").first as? XMLElement)
    #expect(testcase.attribute(forName: "name")?.stringValue == "union")
    #expect(testcase.attribute(forName: "file")?.stringValue == scene)
    let failure = try #require(testcase.elements(forName: "failure").first)
    #expect(failure.attribute(forName: "message")?.stringValue == item.message)
    #expect(failure.stringValue?.contains("difference: \(difference)") == true)
  }

  @Test("the JUnit report of the demo scenes parses and names each case, with times and counts")
  func junit() async throws {
    let demo = try await DemoRuns.shared()
    for (index, run) in demo.runs.prefix(2).enumerated() {
      let xml = try XMLDocument(data: Data(run.report.junitXML().utf8))
      let suite = try #require(try xml.nodes(forXPath: "/testsuites/testsuite").first as? XMLElement)
      let names = DemoRuns.sceneNames
      #expect(suite.attribute(forName: "tests")?.stringValue == String(names.count))
      #expect(suite.attribute(forName: "failures")?.stringValue == "0")
      #expect(suite.attribute(forName: "skipped")?.stringValue == (index == 0 ? String(names.count) : "0"))
      let cases = suite.elements(forName: "testcase")
      #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue }.sorted() == names)
      for element in cases {
        let time = try #require(element.attribute(forName: "time")?.stringValue.flatMap(Double.init))
        #expect(time > 0)
        // Recorded references are reported as skipped, with the file written.
        let skipped = element.elements(forName: "skipped")
        #expect(skipped.count == (index == 0 ? 1 : 0))
        if let message = skipped.first?.attribute(forName: "message")?.stringValue {
          #expect(message.contains(demo.references))
        }
      }
    }
  }

  @Test("JUnit messages keep markup, quotes and control characters as text")
  func junitEscaping() throws {
    let hostile = "a&b <failure x=\"1\"> 'q' \u{1}\ttab\nline ]]> &amp;"
    var report = GoldenReport()
    report.cases = [
      GoldenCase(name: hostile, scene: "s&<>.json", reference: "r.png", status: .failed, message: hostile),
      GoldenCase(
        name: "error", status: .error, message: hostile, error: GlassError(.invalidScene, hostile)),
    ]
    let xml = try XMLDocument(data: Data(report.junitXML().utf8))
    let cases = try xml.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
    #expect(cases.count == 2)
    let expected = hostile.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
    #expect(cases.first?.attribute(forName: "name")?.stringValue == expected)
    #expect(cases.first?.attribute(forName: "file")?.stringValue == "s&<>.json")
    #expect(cases.first?.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue == expected)
    #expect(cases.last?.elements(forName: "error").first?.attribute(forName: "type")?.stringValue == "invalid-scene")
    #expect(try xml.nodes(forXPath: "//failure").count == 1)
  }

  @Test("the goldens check reports a missing reference, an unreadable one and a bad scene, each naming the file")
  func badInput() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let references = root.appendingPathComponent("references").path
    try FileManager.default.createDirectory(atPath: references, withIntermediateDirectories: true)
    // union.json's reference is not a PNG; morph.json has none; bad.json has no height.
    try Data("not a png".utf8).write(to: URL(fileURLWithPath: references + "/union.png"))
    let bad = root.appendingPathComponent("bad.json").path
    try Data("{\"version\": 1, \"size\": {\"width\": 10}}".utf8).write(to: URL(fileURLWithPath: bad))
    var options = GoldenCheckOptions(references: references, artifacts: root.appendingPathComponent("out").path)
    options.batch.scale = 1
    let check = try GoldenCheck(options: options)
    let scenes = ["union", "morph"].map { DemoRuns.scenesFolder + "/\($0).json" } + [bad]
    let report = check.run(try check.jobs(forInputs: scenes).map { .job($0) })
    let byName = Dictionary(uniqueKeysWithValues: report.cases.map { ($0.name, $0) })
    #expect(byName["union"]?.status == .error)
    #expect(byName["union"]?.message?.contains(references + "/union.png") == true, "\(byName["union"]?.message ?? "")")
    #expect(byName["union"]?.message?.contains("replace it, or record it anew") == true)
    #expect(byName["union"]?.error?.hint == .record(.failed))
    #expect(byName["morph"]?.status == .failed)
    #expect(byName["morph"]?.message?.contains("check it, then record it") == true)
    #expect(byName["morph"]?.hint == .record(.missing))
    #expect(byName["morph"]?.message?.contains(references + "/morph.png") == true)
    #expect(byName["bad"]?.status == .error)
    #expect(byName["bad"]?.message?.contains(bad) == true && byName["bad"]?.message?.contains("height") == true)
    #expect(report.exitStatus == 1)
    // Nothing was recorded and the unreadable reference is untouched.
    #expect(!FileManager.default.fileExists(atPath: references + "/morph.png"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: references + "/union.png")) == Data("not a png".utf8))
    // The references folder is never the artifacts folder.
    #expect(throws: GlassError.self) {
      try GoldenCheck(options: GoldenCheckOptions(references: references, artifacts: references + "/."))
    }
  }

  @Test("glass-gpu goldens: exit 0 on a pass, 1 on a change with the files named, a JUnit report, clear errors")
  func commandLine() async throws {
    let demo = try await DemoRuns.shared()
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let junit = root.appendingPathComponent("report.xml").path
    let artifacts = root.appendingPathComponent("artifacts").path
    let morph = DemoRuns.scenesFolder + "/morph.json"
    let common = ["--references", demo.references, "--artifacts", artifacts, "--scale", "1", "--junit", junit]
    let pass = try runCLI(["goldens", morph] + common)
    #expect(pass.status == 0, "\(pass.stdout) \(pass.stderr)")
    #expect(pass.stdout.contains("1 passed"))
    let passed = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)))
    #expect(try passed.nodes(forXPath: "//testcase[@name='morph']").count == 1)

    let changed = try Self.changedScene(in: root)
    let fail = try runCLI(["goldens", changed, morph] + common)
    #expect(fail.status == 1)
    #expect(
      fail.stdout.contains("FAIL    union") && fail.stdout.contains(artifacts + "/union-diff.png"), "\(fail.stdout)")
    #expect(FileManager.default.fileExists(atPath: artifacts + "/union-diff.png"))
    let failed = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)))
    #expect(try failed.nodes(forXPath: "//testcase[@name='union']/failure").count == 1)
    #expect(try failed.nodes(forXPath: "//testcase[@name='morph']/failure").count == 0)

    // Bad input: named, exit 1; a check that cannot start still writes its report
    // (CommandContractTests checks that report's case), a report that cannot be
    // written leaves nothing behind.
    let missingReport = root.appendingPathComponent("none.xml").path
    let noFolder = try runCLI(
      ["goldens", morph, "--references", root.appendingPathComponent("nowhere").path, "--junit", missingReport])
    #expect(
      noFolder.status == 1 && noFolder.stderr.contains("nowhere") && noFolder.stderr.contains("--record missing"))
    #expect(FileManager.default.fileExists(atPath: missingReport))
    try FileManager.default.removeItem(atPath: missingReport)
    let noScene = try runCLI(["goldens", root.appendingPathComponent("gone.json").path] + common)
    #expect(noScene.status == 1 && noScene.stdout.contains("gone.json"), "\(noScene.stdout)")
    // A missing folder of the report is made; a file in its way is an error.
    let blocker = root.appendingPathComponent("blocker")
    try Data("x".utf8).write(to: blocker)
    let badReport = try runCLI(
      ["goldens", morph, "--references", demo.references, "--junit", blocker.appendingPathComponent("r.xml").path])
    #expect(badReport.status == 1 && badReport.stderr.contains("blocker"), "\(badReport.stderr)")
    try FileManager.default.removeItem(at: blocker)
    #expect(!FileManager.default.fileExists(atPath: missingReport))
  }
}
