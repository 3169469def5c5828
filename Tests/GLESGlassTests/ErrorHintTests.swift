import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

#if canImport(FoundationXML)
  import FoundationXML
#endif

// The library never names a command-line flag: its messages say a fix in the
// API's terms or neutrally, and carry it as a value (`GlassError.Hint`) that the
// command line words with its flag.

@Suite("Error hints: the library says the fix, the command line names the flag")
struct ErrorHintTests {
  /// A flag as a command line writes it in `text`: two dashes and a lower-case
  /// letter (`--max-pixels`), or an interpolated name (`"--\(name)"`), not after a
  /// word character, a dash or CSS's `var(`, and not a CSS custom property's
  /// definition (`{ --fail: #d70015; }`).
  static func flags(in text: String) -> [String] {
    text.matches(of: #/--(?:[a-z][a-z0-9-]*|\\\()/#).compactMap { match in
      let before = text[..<match.range.lowerBound]
      if let last = before.last, last.isLetter || last.isNumber || last == "_" || last == "-" { return nil }
      if before.hasSuffix("var(") { return nil }
      let definition =
        text[match.range.upperBound...].hasPrefix(":") && (before.last.map { " \t{;".contains($0) } ?? true)
      return definition ? nil : String(text[match.range])
    }
  }

  @Test("the flag finder finds flags and leaves CSS custom properties and prose alone")
  func flagFinder() {
    #expect(Self.flags(in: #"raise it with --max-pixels if you mean it"#) == ["--max-pixels"])
    #expect(Self.flags(in: #"lower the frame rate (--fps), the hold"#) == ["--fps"])
    #expect(Self.flags(in: #""--report \(folder) is a file""#) == ["--report"])
    #expect(Self.flags(in: #"  :root { --fail: #d70015; } a { color: var(--fail); }"#).isEmpty)
    #expect(Self.flags(in: "a dash -- like this, and x--y").isEmpty)
    #expect(Self.flags(in: #"throw GlassError(error.code, "--mask: \(error.message)")"#) == ["--mask"])
    #expect(Self.flags(in: #""--\(name) is \(value)""#) == [#"--\("#])
  }

  @Test("no line of the library's code outside comments names a command-line flag")
  func noFlagInLibrarySource() throws {
    let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/GLESGlass")
    let files = try #require(FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil))
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count > 50, "found the library's sources at \(library.path)")
    var found: [String] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
        for flag in Self.flags(in: String(line)) {
          found.append("\(file.lastPathComponent):\(number + 1): \(flag): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    #expect(found.isEmpty, "library code names flags:\n\(found.joined(separator: "\n"))")
  }

  @Test("errors the library makes carry their fix as a hint and name no flag")
  func libraryErrors() throws {
    var errors: [(GlassError, GlassError.Hint?)] = []
    let tooLarge = #expect(throws: GlassError.self) {
      try PNGCodec.checkPixelLimit(PixelSize(width: 200, height: 200), maxPixels: 100, what: "the canvas")
    }
    errors.append((try #require(tooLarge), .raiseMaxPixels(needed: 40_000)))
    #expect(tooLarge?.message.hasSuffix("raise the pixel limit if you mean it") == true)
    // Beyond what any limit allows, raising it is no fix.
    let huge = #expect(throws: GlassError.self) {
      try PNGCodec.checkPixelLimit(PixelSize(width: 1 << 20, height: 1 << 20), maxPixels: 100, what: "the canvas")
    }
    errors.append((try #require(huge), nil))
    let deep = #expect(throws: GlassError.self) { try ImageEncoding.check(.jpeg, depth: .sixteen, path: "a.jpg") }
    errors.append((try #require(deep), .eightBitDepth))
    let blur = #expect(throws: GlassError.self) {
      var timings = RenderTimings()
      _ = try Renderer(backend: .cpu).render(
        BackgroundExtensionEffect(.init(leadingPixels: 4000, trailingPixels: 4000, sigmaPixels: 2000)),
        on: RGBAImage(size: PixelSize(width: 10, height: 20_000), depth: .eight), maxPixels: 200_000_000,
        timings: &timings)
    }
    errors.append((try #require(blur), .lowerSigma))
    let frames = #expect(throws: GlassError.self) {
      try AnimationRenderer(
        scene: try Scene(json: Array(AnimationRendererTests.moving.utf8)),
        transition: SceneTransition(from: "a", to: "b", animation: .spring(duration: 0.5, bounce: 0.999999)))
    }
    errors.append((try #require(frames), .lowerFrameRateOrHold))
    let range = #expect(throws: GlassError.self) {
      try BackgroundExtensionEffect(.init(leadingPixels: -3, trailingPixels: 0)).validate()
    }
    errors.append((try #require(range), nil))
    #expect(range?.message == "leading is -3 px, out of range; give a value from 0 to 65536")
    for (error, hint) in errors {
      #expect(error.hint == hint, "\(error)")
      #expect(Self.flags(in: error.description).isEmpty, "\(error.description)")
    }
  }

  @Test("a goldens check's failures carry the recording mode as a hint and name no flag")
  func goldenHints() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("s.json")
    try SceneJSON.scene(width: 8, height: 8, scale: 1, background: "#336699").write(
      to: scene, atomically: true, encoding: .utf8)
    func check(_ record: GoldenRecordMode) throws -> GoldenCase {
      var options = GoldenCheckOptions(
        references: root.appendingPathComponent("refs").path, artifacts: root.appendingPathComponent("out").path)
      options.batch.backend = .cpu
      options.record = record
      let check = try GoldenCheck(options: options)
      defer { check.batch.renderer.close() }
      return try #require(check.run(try check.jobs(forInputs: [scene.path]).map { .job($0) }).cases.first)
    }
    let missing = try check(.never)
    #expect(missing.status == .failed && missing.hint == .record(.missing), "\(missing.message ?? "")")
    #expect(missing.message?.hasSuffix("check it, then record it") == true, "\(missing.message ?? "")")
    #expect(try check(.missing).status == .recorded)
    try SceneJSON.scene(width: 8, height: 8, scale: 1, background: "#ff0000").write(
      to: scene, atomically: true, encoding: .utf8)
    let differs = try check(.never)
    #expect(differs.status == .failed && differs.hint == .record(.failed), "\(differs.message ?? "")")
    try SceneJSON.scene(width: 9, height: 8, scale: 1, background: "#ff0000").write(
      to: scene, atomically: true, encoding: .utf8)
    let resized = try check(.never)
    #expect(resized.failure == .sizeDiffers && resized.hint == .record(.failed), "\(resized.message ?? "")")
    try Data("not a PNG".utf8).write(to: root.appendingPathComponent("refs/s.png"))
    let unreadable = try check(.never)
    #expect(unreadable.status == .error && unreadable.error?.hint == .record(.failed), "\(unreadable.message ?? "")")
    for item in [missing, differs, resized, unreadable] {
      #expect(Self.flags(in: item.message ?? "").isEmpty, "\(item.message ?? "")")
    }
  }

  @Test("the command line names the flag of each hint for real failures, in its output and its JUnit report")
  func commandLineFlags() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try SceneJSON.scene(width: 20, height: 20, scale: 1, background: "#336699").write(
      to: root.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    // An image too large names --max-pixels with the pixels it needs.
    let large = try runCLI(["render", "s.json", "-o", "s.png", "--backend", "cpu", "--max-pixels", "100"], in: root)
    #expect(large.status == 1, "\(large.stderr)")
    #expect(large.stderr.contains("raise the pixel limit if you mean it (--max-pixels 400)"), "\(large.stderr)")
    // A 16-bit JPEG names --depth 8 (a usage error).
    let deep = try runCLI(["render", "s.json", "-o", "s.jpg", "--depth", "16"], in: root)
    #expect(deep.status == 64 && deep.stderr.contains("or write a PNG (--depth 8)"), "\(deep.stderr)")
    // A missing reference names --record missing, on standard output and in the JUnit report.
    try FileManager.default.createDirectory(at: root.appendingPathComponent("refs"), withIntermediateDirectories: true)
    let missing = try runCLI(["goldens", "s.json", "--references", "refs", "--junit", "missing.xml"], in: root)
    #expect(missing.status == 1, "\(missing.stdout) \(missing.stderr)")
    #expect(missing.stdout.contains("check it, then record it (--record missing)"), "\(missing.stdout)")
    let junit = try String(contentsOf: root.appendingPathComponent("missing.xml"), encoding: .utf8)
    #expect(junit.contains("check it, then record it (--record missing)"), "\(junit)")
    #expect(try runCLI(["goldens", "s.json", "--references", "refs", "--record", "missing"], in: root).status == 2)
    // A changed render names --record failed.
    try SceneJSON.scene(width: 20, height: 20, scale: 1, background: "#ff0000").write(
      to: root.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let differs = try runCLI(["goldens", "s.json", "--references", "refs"], in: root)
    #expect(differs.status == 1, "\(differs.stdout) \(differs.stderr)")
    #expect(
      differs.stdout.contains("at (0, 0), over --max-diff 0 (")
        && differs.stdout.contains("if the change is meant, record the reference anew (--record failed)"),
      "\(differs.stdout)")
    // A blur that needs too much memory names --sigma.
    try PNGCodec.write(
      RGBAImage(size: PixelSize(width: 10, height: 20_000), depth: .eight), to: root.path + "/tall.png")
    let blur = try runCLI(
      [
        "extend", "tall.png", "-o", "wide.png", "--leading", "4000", "--trailing", "4000", "--sigma", "2000",
        "--max-pixels", "200000000", "--backend", "cpu",
      ], in: root)
    #expect(blur.status == 1 && blur.stderr.contains("lower the sigma (--sigma)"), "\(blur.stderr)")
    // compare names the limit it exceeds by its flag.
    try PNGCodec.write(RGBAImage(size: PixelSize(width: 4, height: 4), depth: .eight), to: root.path + "/a.png")
    var white = RGBAImage(size: PixelSize(width: 4, height: 4), depth: .eight)
    white.samples = .eight([UInt8](repeating: 255, count: 64))
    try PNGCodec.write(white, to: root.path + "/b.png")
    let compare = try runCLI(["compare", "a.png", "b.png", "--max-diff", "2"], in: root)
    #expect(compare.status == 1 && compare.stderr.contains("over --max-diff 2"), "\(compare.stderr)")
  }
}
