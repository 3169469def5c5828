import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The goldens HTML report (`glass-gpu goldens --report`) driven in headless
/// Chromium by `Tests/browser/report_check.py` (Selenium; test tooling only).
/// Without Chromium, chromedriver or Selenium the tests are skipped with the
/// reason; with `GLASS_GPU_REQUIRE_BROWSER=1` (CI) they fail instead.
enum Browser {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let script = root.appendingPathComponent("Tests/browser/report_check.py").path
  static let isRequired = ProcessInfo.processInfo.environment["GLASS_GPU_REQUIRE_BROWSER"] == "1"

  /// The Python that has Selenium: Debian's (python3-selenium), else the one on PATH.
  static let python = python(importing: "selenium")

  /// The first Python that imports `module`: Debian's (/usr/bin/python3, where
  /// apt-get puts python3-selenium and python3-pil), then /usr/local, then PATH's.
  static func python(importing module: String) -> String? {
    for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] + pathPythons() {
      guard FileManager.default.isExecutableFile(atPath: candidate),
        let result = try? TestProcess.run(URL(fileURLWithPath: candidate), ["-c", "import \(module)"], timeout: 60),
        result.status == 0
      else { continue }
      return candidate
    }
    return nil
  }

  static func pathPythons() -> [String] {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
  }

  /// Why the browser tests cannot run here, or nil.
  static let missing: String? = {
    if !FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") {
      return "Chromium is not installed (apt-get install -y chromium chromium-driver, or make test)"
    }
    if !FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") {
      return "chromedriver is not installed (apt-get install -y chromium-driver)"
    }
    if python == nil { return "Selenium is not installed (apt-get install -y python3-selenium)" }
    return nil
  }()

  static var isAvailable: Bool { missing == nil || isRequired }
  static var skipReason: Comment { "skipped: \(missing ?? ""); GLASS_GPU_REQUIRE_BROWSER=1 makes this a failure" }

  /// Runs the script; its JSON output.
  static func run(_ arguments: [String]) throws -> [String: Any] {
    if let missing {
      Issue.record("GLASS_GPU_REQUIRE_BROWSER=1 and \(missing)")
      return [:]
    }
    let python = try #require(Self.python, "no Python with Selenium")
    let result = try TestProcess.run(URL(fileURLWithPath: python), [script] + arguments, timeout: 240)
    let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
    let output = try #require(object, "the script printed no JSON: \(result.stdout) \(result.stderr)")
    if let skip = output["skip"] as? String { Issue.record("the browser could not run: \(skip)") }
    #expect(result.status == 0, "\(result.stderr)")
    return output
  }
}

@Suite("Goldens report in a browser", .serialized)
struct ReportBrowserTests {
  static let update = ProcessInfo.processInfo.environment["GLASS_UPDATE_DOCS"] == "1"

  /// A small glass scene in `color`.
  static func scene(_ color: String, glassX: Double = 20) -> String {
    """
    {"version": 1, "size": {"width": 160, "height": 100}, "scale": 2,
     "background": {"linearGradient": {"colors": ["\(color)", "#203040"], "startPoint": "top", "endPoint": "bottom"}},
     "layers": [{"type": "glass", "shape": "capsule", "frame": {"x": \(glassX), "y": 30, "width": 120, "height": 44},
                 "content": {"text": "Done"}}]}
    """
  }

  @Test(
    "a failing run's report loads from file:// with no console error or request leaving its folder; filters, keys, slider, strobe and zoom work",
    .enabled(if: Browser.isAvailable, Browser.skipReason))
  func failingRun() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    for (name, color) in [("alpha", "#ff9500"), ("bravo", "#34c759"), ("charlie", "#0a84ff"), ("delta", "#af52de")] {
      try Data(Self.scene(color).utf8).write(to: scenes.appendingPathComponent("\(name).json"))
    }
    let refs = root.appendingPathComponent("refs").path
    #expect(
      try TestProcess.runGlassGPU(["goldens", scenes.path, "--references", refs, "--record", "missing"]).status == 2)
    // bravo's glass moves 3 pt and charlie's colour changes: two failures; delta's reference goes: one new.
    try Data(Self.scene("#34c759", glassX: 23).utf8).write(to: scenes.appendingPathComponent("bravo.json"))
    try Data(Self.scene("#ff2d55").utf8).write(to: scenes.appendingPathComponent("charlie.json"))
    try FileManager.default.removeItem(atPath: refs + "/delta.png")
    let report = root.appendingPathComponent("report").path
    let junit = root.appendingPathComponent("junit.xml").path
    let run = try TestProcess.runGlassGPU([
      "goldens", scenes.path, "--references", refs, "--report", report, "--junit", junit,
    ])
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stdout.contains("report \(report)/index.html"), "\(run.stdout)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<property name=\"report\" value=\"\(report)/index.html\"/>"))
    #expect(xml.contains("report: \(report)/index.html#case=bravo"))

    let screenshot = root.appendingPathComponent("report.png").path
    let out = try Browser.run(["interact", report + "/index.html", screenshot])
    #expect(out["cardsFailed"] as? Int == 2)
    #expect(out["cardsNew"] as? Int == 1)
    #expect(out["cardsAll"] as? Int == 4)
    #expect(out["cardsFailedAgain"] as? Int == 2)
    #expect(out["keyboardMoves"] as? Bool == true)
    #expect(out["inspectorOpen"] as? Bool == true)
    #expect((out["opened"] as? String)?.hasPrefix("bravo") == true, "\(out["opened"] ?? "")")
    #expect((out["accept"] as? String)?.contains("--record failed") == true)
    #expect(out["clipBefore"] as? String == "inset(0px 0px 0px 50%)", "\(out["clipBefore"] ?? "")")
    #expect(out["clipAfter"] as? String == "inset(0px 0px 0px 80%)", "\(out["clipAfter"] ?? "")")
    #expect(out["clipAfterKey"] as? String == "inset(0px 0px 0px 79%)", "\(out["clipAfterKey"] ?? "")")
    let strobe = out["strobe"] as? [String] ?? []
    #expect(Set(strobe) == ["Reference", "Render"], "\(strobe)")
    #expect(out["zoomCanvases"] as? Int == 3)
    #expect(out["inspectorClosed"] as? Bool == true)
    #expect((out["console"] as? [String])?.isEmpty == true, "\(out["console"] ?? "")")
    let requests = out["requests"] as? [String] ?? []
    let folder = "file://" + URL(fileURLWithPath: report).standardizedFileURL.path + "/"
    #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix(folder) }, "\(requests)")
    #expect(FileManager.default.fileExists(atPath: screenshot))
    if Self.update {
      let image = try PNGCodec.read(path: screenshot).image
      try PNGCodec.OutputFile(path: Browser.root.appendingPathComponent("docs/images/goldens-report.png").path)
        .write(image, compression: 9)
    }
  }

  @Test(
    "a report of 2,000 scenes opens and scrolls loading thumbnails as they come near and no full image",
    .enabled(if: Browser.isAvailable, Browser.skipReason))
  func twoThousandScenes() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let reference = root.appendingPathComponent("ref.png").path
    try PNGCodec.OutputFile(path: reference).write(ProceduralImages.gradient(width: 64, height: 40))
    var report = GoldenReport()
    report.backend = "cpu"
    for i in 0..<2000 {
      report.cases.append(
        GoldenCase(name: "scene-\(i)", scene: "/scenes/scene-\(i).json", reference: reference, status: .passed))
    }
    let folder = root.appendingPathComponent("report").path
    try GoldenHTMLReport.write(report, to: folder, context: .init(references: "/refs"))
    let out = try Browser.run(["scale", folder + "/index.html"])
    let before = out["beforeThumbs"] as? Int ?? -1
    let after = out["afterThumbs"] as? Int ?? -1
    print("2,000-scene report: \(before) thumbnails requested on load, \(after) after scrolling to the end")
    #expect(out["cards"] as? Int == 2000)
    #expect(before > 0 && before < 200, "\(out)")
    #expect(after > before, "\(out)")
    #expect(out["beforeFull"] as? Int == 0 && out["afterFull"] as? Int == 0)
    #expect((out["console"] as? [String])?.isEmpty == true, "\(out["console"] ?? "")")
  }

  @Test(
    "--report naming a file, or a folder that cannot be written, is a one-line error that leaves the references as they were"
  )
  func badReportFolder() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("a.json")
    try Data(Self.scene("#ff9500").utf8).write(to: scene)
    let refs = root.appendingPathComponent("refs").path
    #expect(
      try TestProcess.runGlassGPU(["goldens", scene.path, "--references", refs, "--record", "missing"]).status == 2)
    let before = try Data(contentsOf: URL(fileURLWithPath: refs + "/a.png"))
    let file = root.appendingPathComponent("file").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let run = try TestProcess.runGlassGPU([
      "goldens", scene.path, "--references", refs, "--report", file, "--record", "all",
    ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("--report \(file) is a file, not a folder"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: refs + "/a.png")) == before)
    // A folder no one can make, root included.
    let denied = try TestProcess.runGlassGPU([
      "goldens", scene.path, "--references", refs, "--report", "/proc/self/glass-report", "--record", "all",
    ])
    #expect(denied.status == 1 && denied.stderr.contains("the report folder"), "\(denied.stderr)")
    #expect(denied.stderr.split(separator: "\n").count == 1, "\(denied.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: refs + "/a.png")) == before)
  }
}
