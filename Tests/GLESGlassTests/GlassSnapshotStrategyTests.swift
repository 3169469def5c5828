import Foundation
import GlassTestSupport
import SnapshotTesting
import Testing

@testable import GLESGlass
@testable import GlassSnapshotTesting

/// The swift-snapshot-testing strategy (`GlassSnapshotTesting`): against the
/// example package's committed references, and on its own.
@Suite("Glass snapshot strategy")
struct GlassSnapshotStrategyTests {
  static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples/SnapshotTests/Tests/GlassSnapshotExampleTests")
  static let exampleSnapshots = example.appendingPathComponent("__Snapshots__/GlassSnapshotExampleTests").path

  /// The example's card scene (JSON), with `edit` applied to its text.
  static func card(_ edit: (String) -> String = { $0 }) throws -> GLESGlass.Scene {
    let path = example.appendingPathComponent("Scenes/card.json").path
    let text = edit(try String(contentsOfFile: path, encoding: .utf8))
    return try Scene(json: Array(text.utf8))
  }

  /// The path a failure message names after `label`.
  static func path(after label: String, in message: String) -> String? {
    guard let range = message.range(of: label) else { return nil }
    return message[range.upperBound...].split(separator: "\n").first.map(String.init)
  }

  @Test(
    "the example's card passes against its reference and fails, with a difference image, when its refraction changes")
  func opticalChange() throws {
    // As the example test asserts it: the card's reference is card.1.png.
    let same = verifySnapshot(
      of: try Self.card(), as: .glass(backend: .cpu, scale: 2), named: "1", record: .never,
      snapshotDirectory: Self.exampleSnapshots, testName: "card")
    #expect(same == nil, "\(same ?? "")")

    // One optical parameter of its one glass shape: no refraction.
    let changed = try Self.card {
      $0.replacingOccurrences(
        of: "\"glass\": \"regular\",", with: "\"glass\": \"regular\", \"optics\": {\"refraction\": 0},")
    }
    #expect(changed != (try Self.card()))
    let failure = try #require(
      verifySnapshot(
        of: changed, as: .glass(backend: .cpu, scale: 2), named: "1", record: .never,
        snapshotDirectory: Self.exampleSnapshots, testName: "card"))
    #expect(failure.contains("Snapshot \"1\" does not match reference."), "\(failure)")
    #expect(failure.contains("The percentage of pixels that match"))
    let difference = try #require(Self.path(after: "black where equal): ", in: failure), "\(failure)")
    let diffImage = try PNGCodec.read(path: difference).image
    let reference = try PNGCodec.read(path: Self.exampleSnapshots + "/card.1.png").image
    #expect(diffImage.size == reference.size)
    #expect(diffImage.pixel16(x: 0, y: 0) == SIMD4(0, 0, 0, 65535), "a corner far from the glass is unchanged")
    // swift-snapshot-testing wrote the render (card.1.png) into the same artifacts folder.
    let folder = (difference as NSString).deletingLastPathComponent
    #expect((folder as NSString).lastPathComponent == "GlassSnapshotStrategyTests")
    let actual = try PNGCodec.read(path: folder + "/card.1.png").image
    #expect(diffImage == ImageComparison.differenceImage(actual, reference))
    #expect(try ImageComparison(actual, reference).maxDifference > 0)
    // The committed reference is untouched.
    #expect(
      verifySnapshot(
        of: try Self.card(), as: .glass(scale: 2), named: "1", record: .never,
        snapshotDirectory: Self.exampleSnapshots, testName: "card") == nil)
  }

  @Test("a missing reference is recorded and fails; the next run passes; record all writes anew and fails")
  func recordModes() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = Scene(width: 40, height: 30, scale: 1, background: .color(.orange)) {
      Color.clear.frame(x: 5, y: 5, width: 30, height: 20).glassEffect(.regular, in: .capsule)
    }
    let recorded = verifySnapshot(
      of: scene, as: .glass(), named: "small", record: .missing, snapshotDirectory: folder.path)
    #expect(recorded?.contains("No reference was found on disk. Automatically recorded snapshot") == true)
    let file = folder.appendingPathComponent("recordModes.small.png").path
    #expect(try PNGCodec.read(path: file).image.size == PixelSize(width: 40, height: 30))
    #expect(
      verifySnapshot(of: scene, as: .glass(), named: "small", record: .never, snapshotDirectory: folder.path) == nil)
    let all = verifySnapshot(of: scene, as: .glass(), named: "small", record: .all, snapshotDirectory: folder.path)
    #expect(all?.contains("Record mode is on") == true)
    // A scene file works as the value too.
    let sceneFile = SceneFile(scene: scene, directory: ".")
    #expect(
      verifySnapshot(of: sceneFile, as: .glass(), named: "small", record: .never, snapshotDirectory: folder.path) == nil
    )
  }

  @Test("a strategy per environment variant: named snapshots, each rendered in its variant")
  func variants() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = Scene(width: 8, height: 4, scale: 1) {
      Color.clear.frame(x: 0, y: 0, width: 1, height: 1)
    }
    let strategies = [String: Snapshotting<GLESGlass.Scene, RGBAImage>].glass(
      variants: try EnvironmentVariant.list("light,dark,dark+increaseContrast"))
    #expect(strategies.keys.sorted() == ["dark", "dark+increaseContrast", "light"])
    for (name, strategy) in strategies {
      let recorded = verifySnapshot(
        of: scene, as: strategy, named: name, record: .missing, snapshotDirectory: folder.path, testName: "screen")
      #expect(recorded?.contains("Automatically recorded") == true)
      #expect(
        verifySnapshot(
          of: scene, as: strategy, named: name, record: .never, snapshotDirectory: folder.path, testName: "screen")
          == nil)
    }
    // The default background, systemBackground, in each appearance.
    let light = try PNGCodec.read(path: folder.appendingPathComponent("screen.light.png").path).image
    let dark = try PNGCodec.read(path: folder.appendingPathComponent("screen.dark.png").path).image
    #expect(light.pixel16(x: 4, y: 2) == SIMD4(65535, 65535, 65535, 65535))
    #expect(dark.pixel16(x: 4, y: 2) == SIMD4(0, 0, 0, 65535))
    // A reference of one variant does not pass another.
    let crossed = verifySnapshot(
      of: scene, as: try #require(strategies["light"]), named: "dark", record: .never, snapshotDirectory: folder.path,
      testName: "screen")
    #expect(crossed != nil)
  }

  @Test("precision and perceptualPrecision as in swift-snapshot-testing")
  func tolerance() throws {
    let a = RGBAImage(width: 10, height: 10) { x, y in SIMD4(UInt8(x * 20), UInt8(y * 20), 128, 255) }
    var slightly = a
    var far = a
    if case .eight(var v) = a.samples {
      v[0] &+= 1  // pixel (0, 0), red 0 -> 1: about 0.3 Delta E
      slightly.samples = .eight(v)
      v[0] = 255  // red 0 -> 255: far
      far.samples = .eight(v)
    }
    func diff(_ b: RGBAImage, precision: Float = 1, perceptual: Float = 1) -> String? {
      Diffing<RGBAImage>.glassImage(precision: precision, perceptualPrecision: perceptual).diffV2(a, b)?.0
    }
    #expect(diff(a) == nil)
    #expect(diff(slightly) != nil, "exact by default")
    #expect(diff(slightly, perceptual: 0.98) == nil, "within 2 Delta E")
    #expect(diff(far, perceptual: 0.98) != nil)
    #expect(diff(far, precision: 0.99) == nil, "1 pixel of 100 may differ")
    #expect(diff(far, precision: 0.995) != nil)
    #expect(diff(far, perceptual: 0.98)?.contains("The lowest perceptual color precision") == true)
    let other = RGBAImage(width: 5, height: 10) { _, _ in SIMD4(0, 0, 0, 255) }
    #expect(diff(other)?.contains("does not match reference@10x10") == true)
    // The PNG format round-trips.
    let diffing = Diffing<RGBAImage>.glassImage()
    #expect(diffing.fromData(diffing.toData(a)) == a)
    #expect(diffing.diffV2(diffing.fromData(Data("junk".utf8)), a)?.0.contains("could not be read") == true)
  }

  @Test("CIE94 Delta E: lightness alone, white, and chroma weighting")
  func deltaE() {
    #expect(abs(ColorDifference.deltaE94(SIMD3(50, 0, 0), SIMD3(60, 0, 0)) - 10) < 1e-12)
    let white = ColorDifference.lab(red: 1, green: 1, blue: 1)
    #expect(abs(white.x - 100) < 0.01 && abs(white.y) < 0.01 && abs(white.z) < 0.01)
    // dC = 10 with C1 = 50: 10 / (1 + 0.045 * 50) = 3.0769...
    #expect(abs(ColorDifference.deltaE94(SIMD3(50, 50, 0), SIMD3(50, 40, 0)) - 10 / 3.25) < 1e-9)
  }

  @Test("a scene that cannot render fails the test with the reason and records nothing")
  func renderFailure() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = Scene(width: 20, height: 20, scale: 1, background: .image("missing.png", contentMode: .fill)) {}
    withKnownIssue {
      _ = verifySnapshot(
        of: scene, as: .glass(directory: folder.path), named: "x", record: .missing, snapshotDirectory: folder.path,
        timeout: 0.2)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("missing.png") && $0.rawValue.contains("could not be rendered") }
    }
    #expect(files(in: folder).isEmpty, "no reference was recorded")
  }

  /// `reference` with the pixel (i mod width, i / width) changed.
  static func changed(_ reference: RGBAImage, at i: Int) -> RGBAImage {
    RGBAImage(width: reference.width, height: reference.height) { x, y in
      let p = SIMD4<UInt8>(truncatingIfNeeded: reference.pixel16(x: x, y: y) &>> 8)
      return x + y * reference.width == i % (reference.width * reference.height)
        ? SIMD4(p[0] ^ 0x80, p[1], p[2], 255) : p
    }
  }

  /// The bytes this thread has handed to `write` and its kin so far
  /// (`wchar` in `/proc/thread-self/io`).
  static func bytesWrittenByThisThread() -> Int {
    let text = (try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
    return Int(line?.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces) ?? "") ?? -1
  }

  /// Each file under `folder` with its inode, size and change time.
  static func fileStates(_ folder: String) -> [String: [Int]] {
    var out: [String: [Int]] = [:]
    for name in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
      var info = stat()
      guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      out[name] = [
        Int(info.st_ino), Int(info.st_size), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec),
        Int(info.st_mtim.tv_nsec),
      ]
    }
    return out
  }

  @Test(
    "the snapshot report page grows by appending: each of 120 failures leaves the page's earlier bytes and every earlier file as they were, writes nothing but four images of its own and under 2 KB appended to the page (the kernel's count of bytes written), and the page lists all 120"
  )
  func reportPageAppends() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let folder = base.appendingPathComponent("GlassSnapshotReport").path
    let page = folder + "/index.html"
    let reference = ProceduralImages.gradient(width: 64, height: 40)
    var previous: [UInt8] = []
    var files: [String: [Int]] = [:]
    var growth: [Int] = []
    var written: [Int] = []
    for i in 0..<120 {
      let before = Self.bytesWrittenByThisThread()
      let line = SnapshotReportPage.add(
        "failure \(i)", reference, Self.changed(reference, at: i), antiAliasing: false, name: "case \(i)",
        group: "Suite\(i % 3)", base: base.path)
      #expect(line == "Report: \(page)")
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: page)))
      #expect(bytes.starts(with: previous), "failure \(i) rewrote the page")
      growth.append(bytes.count - previous.count)
      previous = bytes
      written.append(Self.bytesWrittenByThisThread() - before)
      let now = Self.fileStates(folder)
      let changed = files.filter { name, state in name != "index.html" && now[name] != state }
      #expect(changed.isEmpty, "failure \(i) changed \(changed.keys.sorted())")
      let added = Set(now.keys).subtracting(files.keys).filter { $0 != "index.html" }
      #expect(added.count == 4, "failure \(i)")
      // Everything the failure wrote (the kernel's count of this thread's
      // write calls) is its new images and what the page grew by: nothing else.
      #expect(written[i] == added.map { now[$0]?[1] ?? 0 }.reduce(growth[i], +), "failure \(i): \(written[i]) bytes")
      files = now
    }
    #expect(written.allSatisfy { $0 > 0 } && (written.max() ?? 0) < 40_000, "\(written)")
    // The first failure writes the page (its template); each later one appends its case alone.
    let later = growth.dropFirst()
    print(
      "snapshot page: failure 1 wrote \(written[0]) bytes (page \(growth[0])); failures 2-120 wrote "
        + "\(written.dropFirst().min() ?? 0)-\(written.dropFirst().max() ?? 0) bytes each, of which "
        + "\(later.min() ?? 0)-\(later.max() ?? 0) appended to the page")
    #expect(later.allSatisfy { $0 > 0 && $0 < 2048 }, "\(growth)")
    #expect((later.max() ?? 0) - (later.min() ?? 0) < 64, "what a failure appends does not grow: \(growth)")
    let read = try ReportPage(path: page)
    #expect(read.cases.map { $0["name"] as? String ?? "" } == (0..<120).map { "case \($0)" })
    #expect(read.cases.allSatisfy { $0["status"] as? String == "failed" && $0["changeBox"] != nil })
    let box = read.cases[70]["changeBox"] as? [Int]
    #expect(box == [70 % 64, 70 / 64, 1, 1], "\(box ?? [])")
  }

  @Test(
    "writers appending to one snapshot page at once (as two test processes or suites do) each add their failures whole; a page of another version is moved aside, never removed"
  )
  func reportPageWriters() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let folder = base.appendingPathComponent("GlassSnapshotReport").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("an older page".utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
    let reference = ProceduralImages.gradient(width: 24, height: 16)
    DispatchQueue.concurrentPerform(iterations: 6) { writer in
      for i in 0..<40 {
        _ = SnapshotReportPage.add(
          "failure", reference, Self.changed(reference, at: i), antiAliasing: false, name: "w\(writer) c\(i)",
          group: "writer \(writer)", base: base.path)
      }
    }
    let read = try ReportPage(path: folder + "/index.html")
    #expect(read.broken == 0)
    #expect(Set(read.cases.map { $0["name"] as? String ?? "" }).count == 240 && read.cases.count == 240)
    for item in read.cases {
      for kind in ["reference", "actual", "difference", "overlay"] {
        let name = item[kind] as? String ?? ""
        #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(kind) \(name)")
      }
    }
    #expect(try String(contentsOfFile: folder + "/index.previous-1.html", encoding: .utf8) == "an older page")
  }

  /// The GPU against the CPU's reference: the scene parity bar (max 2/255, at
  /// most 0.1 % of pixels over 1/255), in swift-snapshot-testing's terms: every
  /// pixel within 2 Delta E (a 2/255 step of one channel is under 1 Delta E for
  /// these colours) and 99.9 % of pixels matching.
  @Test(
    "the GPU backend matches the CPU's reference within a tolerance",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func gpu() throws {
    _ = try TestGPU.requireRenderer()
    let result = verifySnapshot(
      of: try Self.card(), as: .glass(backend: .gpu, scale: 2, precision: 0.999, perceptualPrecision: 0.98),
      named: "1", record: .never, snapshotDirectory: Self.exampleSnapshots, testName: "card")
    #expect(result == nil, "\(result ?? "")")
  }
}

/// `assertContrast(of:)`: the audit as a test assertion.
@Suite("Contrast assertion")
struct ContrastAssertionTests {
  @Test("a faint text fails the assertion, naming it and its path; a legible one passes it")
  func failsOnFaintText() throws {
    let faint = try Scene(json: Array(ContrastAuditTests.page.utf8))
    withKnownIssue("the faint text is under 4.5:1") {
      let findings = assertContrast(of: faint)
      #expect(findings.filter { !$0.passes }.map(\.path) == ["layers[0]"])
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("\"Faint body text\" at layers[0]") && text.contains("needs 4.5:1")
    }
    // Glass over a dark photo, in light and dark, with the automatic colour: passes.
    let json = """
      {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#102030",
       "layers": [{"type": "glass", "shape": {"type": "capsule"}, "frame": {"x": 40, "y": 28, "width": 120, "height": 44},
                   "content": {"text": "Done", "font": {"size": 20, "weight": "semibold"}}}]}
      """
    let glass = try Scene(json: Array(json.utf8))
    #expect(assertContrast(of: glass).count == 1)
    #expect(assertContrast(of: glass, environment: try EnvironmentVariant("dark+increaseContrast")).count == 1)
  }
}
