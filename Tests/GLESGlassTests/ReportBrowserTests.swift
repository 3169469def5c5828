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

  /// Writes the files of a git repository whose HEAD is `commit` (a detached
  /// HEAD: the commit the page shows), as git lays them out.
  static func fakeRepository(at root: URL, commit: String) throws {
    let git = root.appendingPathComponent(".git")
    try FileManager.default.createDirectory(
      at: git.appendingPathComponent("refs/heads"), withIntermediateDirectories: true)
    try Data((commit + "\n").utf8).write(to: git.appendingPathComponent("HEAD"))
  }

  /// A run of five scenes (one in a subfolder) in two variants, with a mask, a
  /// tolerance and the anti-aliasing mode: 2 pass, 6 fail, 2 have no reference.
  static func failingRunFolder() throws -> (root: URL, arguments: [String]) {
    let root = try makeTemporaryFolder()
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes.appendingPathComponent("sub"), withIntermediateDirectories: true)
    for (name, color) in [
      ("alpha", "#ff9500"), ("bravo", "#34c759"), ("charlie", "#0a84ff"), ("delta", "#af52de"), ("sub/echo", "#5856d6"),
    ] {
      try Data(Self.scene(color).utf8).write(to: scenes.appendingPathComponent("\(name).json"))
    }
    let base = ["goldens", "scenes", "--references", "refs", "--environments", "light,dark"]
    let recorded = try TestProcess.runGlassGPU(base + ["--record", "missing"], in: root)
    #expect(recorded.status == 2, "\(recorded.stdout) \(recorded.stderr)")
    // bravo's glass moves 3 pt, charlie's colour changes, sub/echo's glass moves 6 pt: three failures a
    // variant; delta's references go: new.
    try Data(Self.scene("#34c759", glassX: 23).utf8).write(to: scenes.appendingPathComponent("bravo.json"))
    try Data(Self.scene("#ff2d55").utf8).write(to: scenes.appendingPathComponent("charlie.json"))
    try Data(Self.scene("#5856d6", glassX: 26).utf8).write(to: scenes.appendingPathComponent("sub/echo.json"))
    for variant in ["light", "dark"] {
      try FileManager.default.removeItem(at: root.appendingPathComponent("refs/delta.\(variant).png"))
    }
    return (root, base + ["--max-diff", "1", "--anti-aliasing", "--mask-rect", "0,0,20,10"])
  }

  /// "12.5%" as 12.5.
  static func percent(_ text: Any?) -> Double { Double((text as? String ?? "").dropLast()) ?? .nan }

  @Test(
    "a failing run's report loads from file:// with no console error or request leaving its folder; every count, filter, search, sort, group, the run's panel, change frames, masks, previous / next, copy, slider, keys after dragging it, strobe, zoom and overlay work",
    .enabled(if: Browser.isAvailable, Browser.skipReason))
  func failingRun() throws {
    let (root, arguments) = try Self.failingRunFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let commit = "0123456789abcdef0123456789abcdef01234567"
    try Self.fakeRepository(at: root, commit: commit)
    let run = try TestProcess.runGlassGPU(
      arguments + ["--artifacts", "artifacts", "--report", "report", "--junit", "junit.xml"], in: root)
    #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
    #expect(run.stdout.contains("report report/index.html"), "\(run.stdout)")
    let xml = try String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(xml.contains("<property name=\"report\" value=\"report/index.html\"/>"))
    #expect(xml.contains("report: report/index.html#case=bravo.light"))
    let report = root.appendingPathComponent("report").path
    let page = try ReportPage(path: report + "/index.html")
    let names = page.cases.compactMap { $0["name"] as? String }
    #expect(names.count == 10)

    let screenshot = root.appendingPathComponent("report.png").path
    let out = try Browser.run(["interact", report + "/index.html", screenshot])
    // Every case counted once; each filter's count is the cards it shows.
    #expect(out["cardsDefault"] as? Int == 6)
    let summary = out["summary"] as? [String: Int] ?? [:]
    #expect(summary == ["passed": 2, "failed": 6, "new": 2, "error": 0], "\(summary)")
    #expect(summary.values.reduce(0, +) == names.count)
    #expect((out["summaryText"] as? String)?.hasPrefix("10 cases:") == true, "\(out["summaryText"] ?? "")")
    let filters = out["filters"] as? [String: [String: Any]] ?? [:]
    let expected = ["failed": 6, "new": 2, "error": 0, "passed": 2, "all": 10]
    for (filter, count) in expected {
      let shown = filters[filter]?["cards"] as? [String] ?? []
      #expect(
        filters[filter]?["count"] as? Int == count && shown.count == count, "\(filter): \(filters[filter] ?? [:])")
    }
    #expect(filters["passed"]?["cards"] as? [String] == ["alpha.light", "alpha.dark"])
    #expect(filters["new"]?["cards"] as? [String] == ["delta.light", "delta.dark"])
    // Search by name, the counts following it.
    #expect(out["searchFocused"] as? String == "search")
    #expect(out["searchCards"] as? [String] == ["bravo.light", "bravo.dark"], "\(out["searchCards"] ?? "")")
    #expect(
      out["searchCounts"] as? [String: Int] == ["failed": 2, "new": 0, "error": 0, "passed": 0, "all": 2],
      "\(out["searchCounts"] ?? "")")
    #expect(out["afterSearchCards"] as? Int == 10)
    // Sorted by the share of pixels changed, then by the largest difference: largest first.
    func order(_ key: String) -> [(String, Double, Double)] {
      (out[key] as? [[Any]] ?? []).map { ($0[0] as? String ?? "", $0[1] as? Double ?? .nan, $0[2] as? Double ?? .nan) }
    }
    let runOrder = order("runOrder")
    let share = order("shareOrder")
    let largest = order("maxOrder")
    #expect(
      runOrder.map(\.0) == [
        "bravo.light", "bravo.dark", "charlie.light", "charlie.dark", "sub/echo.light", "sub/echo.dark",
      ])
    #expect(Set(share.map(\.0)) == Set(runOrder.map(\.0)) && share.count == runOrder.count)
    #expect(zip(share, share.dropFirst()).allSatisfy { $0.1 >= $1.1 }, "\(share)")
    #expect(zip(largest, largest.dropFirst()).allSatisfy { $0.2 >= $1.2 }, "\(largest)")
    #expect(share.map(\.0) != runOrder.map(\.0), "the test's cases sort differently from the run's order")
    #expect(out["shareCards"] as? [String] == share.map(\.0))
    // Grouped by folder, and by variant.
    func groups(_ key: String) -> [String] {
      (out[key] as? [[Any]] ?? []).map {
        "\($0[0] as? String ?? ""): \(($0[1] as? [String] ?? []).joined(separator: " "))"
      }
    }
    #expect(
      groups("groupsByFolder") == [
        "(top level) (4): bravo.light bravo.dark charlie.light charlie.dark", "sub (2): sub/echo.light sub/echo.dark",
      ], "\(groups("groupsByFolder"))")
    #expect(
      groups("groupsByVariant") == [
        "dark (3): bravo.dark charlie.dark sub/echo.dark", "light (3): bravo.light charlie.light sub/echo.light",
      ], "\(groups("groupsByVariant"))")
    #expect(out["keysAfterSelect"] as? Bool == true)
    // The run: its command, folder, commit and comparison settings; the command that accepts every failure.
    #expect(
      out["runCommand"] as? String == "glass-gpu "
        + (arguments + ["--artifacts", "artifacts", "--report", "report", "--junit", "junit.xml"])
        .joined(separator: " "), "\(out["runCommand"] ?? "")")
    #expect(
      (out["runFolder"] as? String).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        == root.resolvingSymlinksInPath().path, "\(out["runFolder"] ?? "")")
    #expect(out["runCommit"] as? String == commit)
    let settings = out["runSettings"] as? String ?? ""
    for words in ["largest difference 1/255", "anti-aliasing on", "masks (drawn on the images): rect 0,0,20,10"] {
      #expect(settings.contains(words), "\(settings)")
    }
    #expect(
      out["acceptAll"] as? String
        == "glass-gpu goldens scenes --references refs --max-diff 1 --anti-aliasing --mask-rect 0,0,20,10 "
        + "--environments light,dark --record failed", "\(out["acceptAll"] ?? "")")
    #expect(out["runOpen"] as? Bool == true)
    // Each failure's thumbnail frames its change box, drawn where the data says, inside the picture.
    let boxes = out["thumbBoxes"] as? [[String: Any]] ?? []
    #expect(boxes.count == 6)
    for box in boxes {
      let rect = box["box"] as? [Int] ?? []
      let size = box["size"] as? [Int] ?? []
      let style = (box["style"] as? [String] ?? []).map(Self.percent)
      guard rect.count == 4, size.count == 2, style.count == 4 else {
        Issue.record("no change frame: \(box)")
        continue
      }
      let wanted = [rect[0], rect[1], rect[2], rect[3]].enumerated().map { 100 * Double($1) / Double(size[$0 % 2]) }
      #expect(zip(style, wanted).allSatisfy { abs($0 - $1) < 1e-3 }, "\(box)")
      #expect(box["inside"] as? Bool == true, "\(box)")
    }
    // The inspector: the first failure, "1 of 6", previous / next.
    #expect(out["inspectorOpen"] as? Bool == true)
    #expect(out["opened"] as? String == "bravo.light — failed", "\(out["opened"] ?? "")")
    #expect(
      out["accept"] as? String
        == "glass-gpu goldens scenes/bravo.json --references refs --max-diff 1 --anti-aliasing --mask-rect 0,0,20,10 "
        + "--environments light --record failed", "\(out["accept"] ?? "")")
    #expect(out["position"] as? String == "1 of 6" && out["prevDisabled"] as? Bool == true)
    #expect(out["positionNext"] as? String == "2 of 6" && out["openedNext"] as? String == "bravo.dark — failed")
    #expect(out["positionBack"] as? String == "1 of 6" && out["openedBack"] as? String == "bravo.light — failed")
    // The mask drawn on the reference, the render and the difference, where it is.
    let caseMasks = out["caseMasks"] as? [Any] ?? []
    #expect(caseMasks.first as? [[Int]] == [[0, 0, 40, 20]] && caseMasks.last as? [Int] == [320, 200], "\(caseMasks)")
    let maskBoxes = (out["maskBoxes"] as? [[String]] ?? []).map { $0.map(Self.percent) }
    #expect(maskBoxes.count == 3 && maskBoxes.allSatisfy { $0 == [0, 0, 12.5, 10] }, "\(maskBoxes)")
    // The copy button copies the command.
    #expect(out["copyLabel"] as? String == "Copied")
    #expect(out["pasted"] as? String == out["accept"] as? String, "\(out["pasted"] ?? "")")
    // The slider; dragged, it keeps its keys and every other key still works.
    #expect(out["clipBefore"] as? String == "inset(0px 0px 0px 50%)", "\(out["clipBefore"] ?? "")")
    #expect(out["clipAfter"] as? String == "inset(0px 0px 0px 80%)", "\(out["clipAfter"] ?? "")")
    #expect(out["clipAfterKey"] as? String == "inset(0px 0px 0px 79%)", "\(out["clipAfterKey"] ?? "")")
    #expect(out["clipAfterDrag"] as? String != out["clipAfterKey"] as? String, "\(out["clipAfterDrag"] ?? "")")
    #expect(out["focusAfterDrag"] as? String == "split")
    #expect(out["positionAfterDragKey"] as? String == "2 of 6", "\(out["positionAfterDragKey"] ?? "")")
    #expect(out["positionAfterDragBack"] as? String == "1 of 6")
    #expect(out["modeAfterKey"] as? String == "strobe")
    let strobe = out["strobe"] as? [String] ?? []
    #expect(Set(strobe) == ["Reference", "Render"], "\(strobe)")
    #expect(out["zoomCanvases"] as? Int == 3)
    // The difference overlay on the render.
    let overlay = out["overlay"] as? [String: Any] ?? [:]
    #expect((overlay["src"] as? String)?.hasSuffix("-overlay.png") == true, "\(overlay)")
    #expect((overlay["base"] as? String)?.hasSuffix("-actual.png") == true, "\(overlay)")
    #expect(overlay["loaded"] as? Bool == true && overlay["dim"] as? Bool == true, "\(overlay)")
    #expect(overlay["change"] as? Bool == true && out["overlayDimOff"] as? Bool == false, "\(overlay)")
    #expect(out["inspectorClosed"] as? Bool == true)
    #expect((out["console"] as? [String])?.isEmpty == true, "\(out["console"] ?? "")")
    let requests = out["requests"] as? [String] ?? []
    let folder = "file://" + URL(fileURLWithPath: report).standardizedFileURL.path + "/"
    #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix(folder) }, "\(requests)")
    for shot in [screenshot, screenshot.replacingOccurrences(of: ".png", with: "-overlay.png")] {
      #expect(FileManager.default.fileExists(atPath: shot))
    }
    if Self.update {
      for (shot, name) in [
        (screenshot, "goldens-report.png"),
        (screenshot.replacingOccurrences(of: ".png", with: "-slider.png"), "goldens-report-inspector.png"),
      ] {
        let image = try PNGCodec.read(path: shot).image
        try PNGCodec.OutputFile(path: Browser.root.appendingPathComponent("docs/images/\(name)").path)
          .write(image, compression: 9)
      }
    }
  }

  @Test(
    "the snapshot strategy's page of 150 failures, appended by four writers at once, shows all 150 from file://",
    .enabled(if: Browser.isAvailable, Browser.skipReason))
  func snapshotPage() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("GlassSnapshotReport").path
    let reference = ProceduralImages.gradient(width: 48, height: 32)
    DispatchQueue.concurrentPerform(iterations: 4) { writer in
      for i in 0..<(150 / 4 + (writer < 150 % 4 ? 1 : 0)) {
        _ = try? GoldenHTMLReport.appendFailure(
          name: "writer \(writer) case \(i)", group: "writer \(writer)", message: "differs", reference: reference,
          actual: GlassSnapshotStrategyTests.changed(reference, at: i + 48 * writer), to: folder)
      }
    }
    let page = try ReportPage(path: folder + "/index.html")
    #expect(page.cases.count == 150 && page.broken == 0)
    let out = try Browser.run(["snapshot", folder + "/index.html"])
    #expect(out["cards"] as? Int == 150 && out["failedCount"] as? Int == 150, "\(out)")
    #expect(Set(out["names"] as? [String] ?? []).count == 150)
    #expect(out["title"] as? String == "glass-gpu snapshot failures")
    #expect((out["console"] as? [String])?.isEmpty == true, "\(out["console"] ?? "")")
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
