import Foundation
import GlassSnapshotTesting
import GlassTestSupport
import SnapshotTesting
import Testing

@testable import GLESGlass

/// The anti-aliasing mode of goldens and the snapshot strategy
/// (`ComparisonOptions.antiAliasing`): pixelmatch's anti-aliased pixel detector
/// (mapbox/pixelmatch, after V. Vysniauskas, "Anti-aliased Pixel and Intensity
/// Slope Detector", 2009), checked against pixelmatch's own Python port, and
/// what it passes and fails on content the project renders.
@Suite("Anti-aliasing mode")
struct AntiAliasingModeTests {
  /// What a scene is drawn over.
  enum Backdrop: String, CaseIterable, Sendable {
    case dark, light, photo

    /// The scene's `background`.
    var json: String {
      switch self {
      case .dark: "\"#1c1c1e\""
      case .light: "\"#f2f2f7\""
      case .photo: "{\"image\": \"photo\"}"
      }
    }

    /// A text colour that reads on it.
    var ink: String {
      switch self {
      case .dark, .photo: "#ffffff"
      case .light: "#000000"
      }
    }
  }

  static let photo = ProceduralImages.landscape(width: 400, height: 200)

  /// A 200 x 100 pt scene of `layers` over `backdrop` at `scale`.
  static func render(
    _ layers: String, on backdrop: Backdrop, scale: Int = 1, backend: TestBackend = .cpu
  ) throws
    -> RGBAImage
  {
    let json = """
      {"version": 1, "size": {"width": 200, "height": 100}, "scale": \(scale), "background": \(backdrop.json),
       "layers": [\(layers)]}
      """
    return try backend.render(try Scene(json: Array(json.utf8)), images: ["photo": photo])
  }

  /// A shape layer: a capsule, a circle or a rounded rectangle moved by (dx, dy) points.
  static func shape(_ kind: String, dx: Double = 0, dy: Double = 0) -> String {
    """
    {"type": "shape", "shape": \(kind), "frame": {"x": \(40 + dx), "y": \(25 + dy), "width": 120, "height": 50},
     "fill": "#ff9f0a"}
    """
  }

  /// A text layer in `headline` at (40 + dx, 35).
  static func text(_ string: String, on backdrop: Backdrop, dx: Double = 0, font: String = "headline") -> String {
    """
    {"type": "text", "text": "\(string)", "font": "\(font)", "foregroundStyle": "\(backdrop.ink)",
     "frame": {"x": \(40 + dx), "y": 35, "width": 120, "height": 30}}
    """
  }

  /// A regular glass capsule moved by (dx, dy) points, with `label` on it.
  static func glass(dx: Double = 0, dy: Double = 0, label: String? = nil) -> String {
    """
    {"type": "glass", "glass": "regular", "shape": "capsule",
     "frame": {"x": \(40 + dx), "y": \(28 + dy), "width": 120, "height": 44}\(label.map { ", \"content\": {\"text\": \"\($0)\"}" } ?? "")}
    """
  }

  /// A grey rectangle at `frame` (points), or nothing.
  static func rect(_ frame: (x: Double, y: Double, width: Double, height: Double), present: Bool = true) -> String {
    guard present else { return "" }
    return """
      {"type": "shape", "shape": "rect", "frame": {"x": \(frame.x), "y": \(frame.y), "width": \(frame.width),
       "height": \(frame.height)}, "fill": "#8e8e93"}
      """
  }

  /// The mode's comparison of `render` with `reference` (exact otherwise), and
  /// the limits' violations.
  static func compare(
    _ render: RGBAImage, _ reference: RGBAImage, maxDifference: Double = 0
  ) throws
    -> (comparison: ImageComparison, ignored: Int, violations: [String])
  {
    var ignored = 0
    let comparison = try ImageComparison(render, reference, masked: [], antiAliasing: true, ignored: &ignored)
    return (comparison, ignored, ImageComparison.Limits(maxDifference: maxDifference).violations(comparison))
  }

  /// The pairs that must pass: shapes on plain colours moved by a fraction of a pixel.
  static func shapeMoves(
    backend: TestBackend, scale: Int
  ) throws -> [(name: String, render: RGBAImage, reference: RGBAImage)] {
    var pairs: [(String, RGBAImage, RGBAImage)] = []
    let kinds: [(String, String, Backdrop)] = [
      ("capsule on dark", "\"capsule\"", .dark), ("circle on light", "\"circle\"", .light),
      ("rounded rectangle on dark", "{\"type\": \"roundedRect\", \"cornerRadius\": 12}", .dark),
    ]
    let pixel = 1 / Double(scale)
    for (name, kind, backdrop) in kinds {
      let reference = try render(shape(kind), on: backdrop, scale: scale, backend: backend)
      for (dx, dy) in [(0.25, 0.0), (0, 0.25), (0.5, 0), (0, 0.5), (0.75, 0.25)] {
        let moved = try render(
          shape(kind, dx: dx * pixel, dy: dy * pixel), on: backdrop, scale: scale, backend: backend)
        pairs.append(("\(name) moved (\(dx), \(dy)) px at \(scale)x", moved, reference))
      }
    }
    return pairs
  }

  /// The pairs that must fail: a changed glyph, vanished 1-px lines, 2 x 2 dots
  /// and small colour changes, on each backdrop, at 1x.
  static func realChanges(on backdrop: Backdrop) throws -> [(name: String, render: RGBAImage, reference: RGBAImage)] {
    var pairs: [(String, RGBAImage, RGBAImage)] = []
    func add(_ name: String, _ render: String, _ reference: String) throws {
      pairs.append(
        ("\(name) on \(backdrop)", try Self.render(render, on: backdrop), try Self.render(reference, on: backdrop)))
    }
    for dx in [0, 0.25, 0.5] {
      try add(
        "\"Sign in\" -> \"Sign In\" at x + \(dx)", text("Sign In", on: backdrop, dx: dx),
        text("Sign in", on: backdrop, dx: dx))
    }
    try add("\"Sign in\" -> \"Sign In\" on glass", glass(label: "Sign In"), glass(label: "Sign in"))
    try add("a vanished horizontal 1-px line", rect((50, 50, 100, 1), present: false), rect((50, 50, 100, 1)))
    try add("a vanished vertical 1-px line", rect((100, 20, 1, 60), present: false), rect((100, 20, 1, 60)))
    try add("a vanished 1-px line across two rows", rect((50, 50.5, 100, 1), present: false), rect((50, 50.5, 100, 1)))
    try add("a vanished 2 x 2 dot", rect((100, 50, 2, 2), present: false), rect((100, 50, 2, 2)))
    try add(
      "a vanished 2 x 2 dot across 3 x 3 pixels", rect((100.5, 50.5, 2, 2), present: false), rect((100.5, 50.5, 2, 2)))
    let box = "{\"type\": \"roundedRect\", \"cornerRadius\": 10}"
    for (name, colour) in [("1/255", "#346699"), ("4/255", "#336a99")] {
      try add(
        "a colour changed by \(name)", shape(box).replacingOccurrences(of: "#ff9f0a", with: colour),
        shape(box).replacingOccurrences(of: "#ff9f0a", with: "#336699"))
    }
    return pairs
  }

  @Test(
    "shapes on plain colours moved by a quarter, a half and three quarters of a pixel pass the mode, and fail the exact comparison",
    arguments: TestBackend.allCases)
  func shapesMovedPass(backend: TestBackend) throws {
    if backend == .gpu { try #require(TestGPU.isAvailable, "\(TestGPU.skipReason)") }
    for scale in [1, 2] {
      for (name, render, reference) in try Self.shapeMoves(backend: backend, scale: scale) {
        #expect(!ImageComparison.Limits.exact.violations(try ImageComparison(render, reference)).isEmpty, "\(name)")
        let (comparison, ignored, violations) = try Self.compare(render, reference)
        #expect(violations.isEmpty, "\(backend) \(name): \(comparison.pixelsOverOne) px left, \(ignored) explained")
        #expect(ignored > 0, "\(name)")
      }
    }
  }

  @Test(
    "a changed glyph, vanished 1-px lines, 2 x 2 dots and small colour changes fail the mode",
    arguments: Backdrop.allCases)
  func realChangesFail(backdrop: Backdrop) throws {
    let strategy = Diffing<RGBAImage>.glassImage(antiAliasing: true)
    for (name, render, reference) in try Self.realChanges(on: backdrop) {
      let (comparison, ignored, violations) = try Self.compare(render, reference)
      print(
        "\(name): \(comparison.pixelsOverOne) px over 1/255 left (largest \(comparison.maxDifference)/255), \(ignored) explained"
      )
      #expect(!violations.isEmpty, "\(name) passed the anti-aliasing mode")
      // The snapshot strategy says the same.
      #expect(strategy.diffV2(reference, render) != nil, "\(name) passed the snapshot strategy's anti-aliasing mode")
    }
  }

  @Test(
    "text moved by a quarter pixel passes the mode with --max-diff 64 at 1x and 2x; the changed glyph still fails it")
  func textWithThreshold() throws {
    for backdrop in Backdrop.allCases {
      for scale in [1, 2] {
        let quarter = 0.25 / Double(scale)
        let reference = try Self.render(Self.text("Sign in", on: backdrop), on: backdrop, scale: scale)
        let moved = try Self.render(Self.text("Sign in", on: backdrop, dx: quarter), on: backdrop, scale: scale)
        let changed = try Self.render(Self.text("Sign In", on: backdrop), on: backdrop, scale: scale)
        let alone = try Self.compare(moved, reference)
        print(
          "text on \(backdrop) at \(scale)x moved a quarter pixel: \(alone.comparison.pixelsOverOne) px left by the "
            + "detector, largest \(alone.comparison.maxDifference)/255")
        #expect(try Self.compare(moved, reference, maxDifference: 64).violations.isEmpty, "\(backdrop) \(scale)x")
        let glyph = try Self.compare(changed, reference, maxDifference: 64)
        #expect(!glyph.violations.isEmpty, "the changed glyph on \(backdrop) at \(scale)x passed with --max-diff 64")
      }
    }
  }

  @Test("glass moved by a quarter pixel, and a shape over a photo, do not pass the mode (the docs say why)")
  func glassDoesNotPass() throws {
    for (name, kind) in [
      ("capsule", "\"capsule\""), ("rounded rectangle", "{\"type\": \"roundedRect\", \"cornerRadius\": 12}"),
    ] {
      let reference = try Self.render(Self.shape(kind), on: .photo)
      let moved = try Self.render(Self.shape(kind, dx: 0.25), on: .photo)
      let (comparison, ignored, violations) = try Self.compare(moved, reference)
      print(
        "\(name) over a photo moved a quarter pixel: \(comparison.pixelsOverOne) px over 1/255 left (largest "
          + "\(comparison.maxDifference)/255), \(ignored) explained")
      #expect(!violations.isEmpty)
    }
    for backdrop in [Backdrop.photo, .dark] {
      let reference = try Self.render(Self.glass(), on: backdrop)
      for (dx, dy) in [(0.25, 0.0), (0, 0.25)] {
        let moved = try Self.render(Self.glass(dx: dx, dy: dy), on: backdrop)
        let (comparison, ignored, violations) = try Self.compare(moved, reference)
        print(
          "glass on \(backdrop) moved (\(dx), \(dy)) px: \(comparison.pixelsOverOne) px over 1/255 left (largest "
            + "\(comparison.maxDifference)/255), \(ignored) explained")
        #expect(!violations.isEmpty)
      }
    }
  }

  @Test("goldens --anti-aliasing passes a shape moved by a quarter point at 1x and fails a changed glyph")
  func goldensCommand() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
    func write(_ name: String, _ layer: String) throws {
      try Data(
        """
        {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#1c1c1e", "layers": [\(layer)]}
        """.utf8
      ).write(to: scenes.appendingPathComponent("\(name).json"))
    }
    try write("shape", Self.shape("\"capsule\""))
    try write("text", Self.text("Sign in", on: .dark))
    let base = ["goldens", scenes.path, "--references", root.appendingPathComponent("refs").path]
    #expect(try runCLI(base + ["--record", "missing"]).status == 2)
    try write("shape", Self.shape("\"capsule\"", dx: 0.25, dy: 0.25))
    #expect(try runCLI(base).status == 1)
    let moved = try runCLI(base + ["--anti-aliasing"])
    #expect(moved.status == 0, "\(moved.stdout) \(moved.stderr)")
    try write("text", Self.text("Sign In", on: .dark))
    let glyph = try runCLI(base + ["--anti-aliasing"])
    #expect(glyph.status == 1 && glyph.stdout.contains("FAIL    text"), "\(glyph.stdout) \(glyph.stderr)")
    #expect(glyph.stdout.contains("pass    shape"), "\(glyph.stdout)")
  }

  @Test("16-bit images: the detector gives the same answer as for the same pixels at 8 bits")
  func sixteenBit() throws {
    let reference = try Self.render(Self.text("Sign in", on: .light) + ", " + Self.shape("\"circle\""), on: .light)
    let moved = try Self.render(
      Self.text("Sign in", on: .light, dx: 0.5) + ", " + Self.shape("\"circle\"", dy: 0.5), on: .light)
    let wide = (moved.converted(to: .sixteen), reference.converted(to: .sixteen))
    var checked = 0
    for y in 0..<moved.height {
      for x in 0..<moved.width where moved.pixel16(x: x, y: y) != reference.pixel16(x: x, y: y) {
        let narrow = AntiAliasedPixels.explain(moved, reference, x: x, y: y)
        #expect(AntiAliasedPixels.explain(wide.0, wide.1, x: x, y: y) == narrow, "(\(x), \(y))")
        #expect(AntiAliasedPixels.explain(wide.0, reference, x: x, y: y) == narrow, "(\(x), \(y)), 16 against 8")
        checked += 1
      }
    }
    #expect(checked > 100)
  }

  // MARK: - The oracle: pixelmatch's own detector

  /// Random pairs from a small palette (with translucent and clear colours), so
  /// that equal neighbours, ties and edges occur: every branch of the detector.
  static func randomPairs() -> [(name: String, render: RGBAImage, reference: RGBAImage)] {
    var random = SplitMix64(seed: 35)
    let palette: [SIMD4<UInt8>] = [
      SIMD4(0, 0, 0, 255), SIMD4(255, 255, 255, 255), SIMD4(128, 64, 200, 255), SIMD4(128, 64, 200, 128),
      SIMD4(10, 200, 30, 0), SIMD4(250, 250, 250, 255),
    ]
    var pairs: [(String, RGBAImage, RGBAImage)] = []
    let sizes = [(1, 1), (1, 6), (6, 1), (2, 2), (3, 3), (9, 7), (16, 12), (24, 5)]
    for index in 0..<120 {
      let (width, height) = sizes[index % sizes.count]
      let colours = 2 + Int(random.next() % 5)
      let pick = { (random: inout SplitMix64) in palette[Int(random.next() % UInt64(colours))] }
      var a: [SIMD4<UInt8>] = (0..<width * height).map { _ in pick(&random) }
      if index % 3 == 0 {  // flat areas with an edge
        a = (0..<width * height).map { $0 % width < width / 2 ? palette[0] : palette[1] }
      }
      var b = a
      for i in b.indices where random.next() % 4 == 0 {
        b[i] = random.next() % 2 == 0 ? pick(&random) : SIMD4(UInt8.random(in: 0...255, using: &random), 90, 90, 255)
      }
      pairs.append(
        (
          "random \(index) (\(width)x\(height))", RGBAImage(width: width, height: height) { x, y in b[y * width + x] },
          RGBAImage(width: width, height: height) { x, y in a[y * width + x] }
        ))
    }
    return pairs
  }

  /// The pixels that differ and that the mode leaves, row by row: those where
  /// `a` with its explained pixels replaced (the snapshot strategy's path) still
  /// differs from `b`.
  static func unexplained(_ a: RGBAImage, _ b: RGBAImage) -> [[Int]] {
    let explained = ImageComparison.explainingAntiAliasing(a, against: b)
    var left: [[Int]] = []
    for y in 0..<a.height {
      for x in 0..<a.width where explained.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) { left.append([x, y]) }
    }
    return left
  }

  /// The pixels that differ at all.
  static func differing(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    (0..<a.height).reduce(0) { sum, y in
      sum + (0..<a.width).filter { a.pixel16(x: $0, y: y) != b.pixel16(x: $0, y: y) }.count
    }
  }

  /// The Python that has pixelmatch (PyPI `pixelmatch`, test tooling only).
  static let pixelmatchPython = Browser.python(importing: "pixelmatch")

  @Test("the pixels the mode leaves are exactly those pixelmatch's own detector (its Python port) leaves")
  func pixelmatchOracle() throws {
    guard let python = Self.pixelmatchPython else {
      let reason = "pixelmatch is not installed (python3 -m pip install pixelmatch==0.4.0, or make test-deps)"
      if Browser.isRequired { Issue.record(Comment(rawValue: reason)) } else { print("skipped: \(reason)") }
      return
    }
    var pairs = Self.randomPairs()
    pairs += try Self.shapeMoves(backend: .cpu, scale: 1)
    for backdrop in Backdrop.allCases { pairs += try Self.realChanges(on: backdrop) }
    for backdrop in [Backdrop.dark, .photo] {
      let reference = try Self.render(Self.glass() + ", " + Self.text("Sign in", on: backdrop), on: backdrop)
      let moved = try Self.render(
        Self.glass(dy: 0.25) + ", " + Self.text("Sign in", on: backdrop, dx: 0.25), on: backdrop)
      pairs.append(("glass and text on \(backdrop) moved a quarter pixel", moved, reference))
    }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (index, pair) in pairs.enumerated() {
      for (side, image) in [("a", pair.render), ("b", pair.reference)] {
        let path = folder.appendingPathComponent("\(index).\(side).rgba").path
        try Self.rawRGBA(image).write(to: URL(fileURLWithPath: path))
        paths.append(path)
      }
    }
    let script = Browser.root.appendingPathComponent("Tests/oracles/pixelmatch_check.py").path
    let result = try TestProcess.run(URL(fileURLWithPath: python), [script] + paths, timeout: 600)
    try #require(result.status == 0, "\(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
    let answers = try #require(object?["pairs"] as? [[String: Any]], "\(result.stdout)")
    try #require(answers.count == pairs.count)
    var compared = 0
    for (pair, answer) in zip(pairs, answers) {
      let theirs = (answer["unexplained"] as? [[Int]]) ?? [[-1]]
      let ours = Self.unexplained(pair.render, pair.reference)
      #expect(ours == theirs, "\(pair.name): we leave \(ours.count) pixels, pixelmatch \(theirs.count)")
      // The goldens comparison's path leaves out the others, and counts them.
      var ignored = 0
      _ = try ImageComparison(pair.render, pair.reference, masked: [], antiAliasing: true, ignored: &ignored)
      #expect(ignored == Self.differing(pair.render, pair.reference) - theirs.count, "\(pair.name)")
      let opaque = [pair.render, pair.reference].allSatisfy { image in
        (0..<image.height).allSatisfy { y in (0..<image.width).allSatisfy { image.pixel16(x: $0, y: y)[3] == 65535 } }
      }
      if opaque { #expect(answer["pixelmatch"] as? Int == ours.count, "\(pair.name): pixelmatch()'s own count") }
      compared += 1
    }
    print("pixelmatch oracle: \(compared) pairs compared pixel for pixel")
  }

  /// `image` as the oracle reads it: width and height (UInt32, little-endian), then 8-bit RGBA.
  static func rawRGBA(_ image: RGBAImage) -> Data {
    var data = Data()
    for value in [UInt32(image.width), UInt32(image.height)] {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    guard case .eight(let samples) = image.converted(to: .eight).samples else { return data }
    data.append(contentsOf: samples)
    return data
  }
}
