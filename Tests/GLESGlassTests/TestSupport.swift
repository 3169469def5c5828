import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The GPU backend shared by the GPU tests of this process: one context, its
/// programs compiled once. Renders through it are serialised by its GL thread.
///
/// Where no GPU renderer can be made, the GPU tests are skipped with the reason,
/// except with `GLASS_GPU_REQUIRE_GPU=1` (CI, which always has llvmpipe): then they
/// run and fail, naming the reason, and so does `GPUAvailabilityTests`.
enum TestGPU {
  nonisolated(unsafe) private static var made: (renderer: Renderer?, reason: String)?
  private static let lock = NSLock()

  /// True when `GLASS_GPU_REQUIRE_GPU=1`: a GPU test without a GPU fails.
  static let isRequired = ProcessInfo.processInfo.environment["GLASS_GPU_REQUIRE_GPU"] == "1"

  private static func make() -> (renderer: Renderer?, reason: String) {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    let result: (Renderer?, String)
    do {
      result = (try Renderer(backend: .gpu), "")
    } catch {
      result = (nil, "\(error)")
      print(
        isRequired
          ? "GPU tests FAIL: GLASS_GPU_REQUIRE_GPU=1 and no EGL display with OpenGL ES 3: \(error)"
          : "GPU tests skipped: no EGL display with OpenGL ES 3: \(error)")
    }
    made = result
    return result
  }

  /// Held by every test that makes GPU backends of its own, so that the test that
  /// counts the shared EGL display's users sees only its own come and go (tests
  /// run in parallel; under a sanitizer's timing they overlapped and the count
  /// was off by one either way).
  static let ownBackends = NSLock()

  /// The shared GPU renderer, or nil when no EGL display can be had.
  static var renderer: Renderer? { make().renderer }

  /// True when a GPU renderer could be made.
  static var hasGPU: Bool { renderer != nil }

  /// Whether the GPU tests run, the condition of their `.enabled(if:)` trait: where
  /// a GPU renderer can be made, and, with `GLASS_GPU_REQUIRE_GPU=1`, also where it
  /// cannot, so that they fail (naming why) rather than being skipped.
  static var isAvailable: Bool { hasGPU || isRequired }

  /// Why no GPU renderer could be made ("" when one could).
  static var reason: String { make().reason }

  /// Why the GPU tests are skipped.
  static var skipReason: Comment {
    Comment(rawValue: "skipped: no EGL display with OpenGL ES 3 (\(reason))")
  }

  /// The shared GPU renderer; where there is none, the test fails with the reason.
  static func requireRenderer(sourceLocation: SourceLocation = #_sourceLocation) throws -> Renderer {
    try #require(
      renderer, "no GPU renderer (GLASS_GPU_REQUIRE_GPU=1 makes this a failure): \(reason)",
      sourceLocation: sourceLocation)
  }
}

@Suite("GPU availability")
struct GPUAvailabilityTests {
  /// CI sets GLASS_GPU_REQUIRE_GPU=1: a machine without a usable EGL display fails
  /// here, once, with the reason, besides every GPU test failing.
  @Test("with GLASS_GPU_REQUIRE_GPU=1 a GPU renderer can be made")
  func requiredGPU() {
    guard TestGPU.isRequired else { return }
    #expect(TestGPU.hasGPU, "GLASS_GPU_REQUIRE_GPU=1 but no GPU renderer: \(TestGPU.reason)")
  }
}

/// A backend under test.
enum TestBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case cpu
  case gpu

  var testDescription: String { rawValue }

  /// Renders `effect` on `image`; GPU renders use the shared GPU renderer.
  /// `levels` forces the blur's pyramid depth (one of `BlurPlan.allowedLevels`).
  func render(
    _ effect: BackgroundExtensionEffect, on image: RGBAImage, depth: RGBAImage.Depth = .eight, levels: Int? = nil
  ) throws -> RGBAImage {
    if let levels {
      let plan = BlurPlan(sigmaPixels: effect.parameters.sigmaPixels, levels: levels)
      return try execute(effect.lower(image, depth: depth, plan: plan))
    }
    var timings = RenderTimings()
    switch self {
    case .cpu:
      return try Renderer(backend: .cpu).render(effect, on: image, depth: depth, timings: &timings)
    case .gpu:
      let renderer = try TestGPU.requireRenderer()
      return try renderer.render(effect, on: image, depth: depth, timings: &timings)
    }
  }
}

extension TestBackend {
  /// Renders `scene` with its decoded `images` (by their path in the scene) at
  /// `depth`: on a new CPU renderer, or the shared GPU renderer. The tests' one
  /// way to render a scene.
  func render(
    _ scene: Scene, images: SceneImages = SceneImages([:]), depth: RGBAImage.Depth = .eight
  ) throws
    -> RGBAImage
  {
    var timings = RenderTimings()
    switch self {
    case .cpu: return try Renderer(backend: .cpu).render(scene, images: images, depth: depth, timings: &timings)
    case .gpu: return try TestGPU.requireRenderer().render(scene, images: images, depth: depth, timings: &timings)
    }
  }

  /// Renders `scene` with its decoded `images` at `depth` (see above).
  func render(_ scene: Scene, images: [String: RGBAImage], depth: RGBAImage.Depth = .eight) throws -> RGBAImage {
    try render(scene, images: SceneImages(images), depth: depth)
  }

  /// Reads a scene from `json` and renders it with `images` (see above).
  func render(json: String, images: [String: RGBAImage] = [:]) throws -> RGBAImage {
    try render(try Scene(json: Array(json.utf8)), images: images)
  }
}

extension TestBackend {
  /// Runs a graph as it is: the CPU, or the shared GPU renderer's backend.
  func execute(_ graph: RenderGraph) throws -> RGBAImage {
    let compiled = try graph.compile()
    var timings = RenderTimings()
    switch self {
    case .cpu:
      return try RenderExecutor.execute(compiled, on: CPUBackend(), timings: &timings)
    case .gpu:
      let gles = try #require(try TestGPU.requireRenderer().gles, "the GPU renderer has a GLES backend")
      return try RenderExecutor.execute(compiled, on: gles, timings: &timings)
    }
  }
}

/// The bar a GPU image meets against the CPU's image of the same input (or against
/// a golden the CPU rendered). The count of pixels over 1/255 alone misses an
/// error of under one step that touches every pixel (an encode biased by half a
/// step moves no pixel by more than 1/255), so a PSNR floor and a bound on the
/// signed mean difference of each channel come with it. Each use says what bounds
/// its numbers.
struct ParityBar: Sendable {
  /// The largest channel difference, in 1/255 steps.
  var maxDifference: Double
  /// The largest share of pixels with a channel off by more than 1/255.
  var fractionOverOne: Double = 0.001
  /// The lowest PSNR over all four channels, in dB.
  var minimumPSNR: Double
  /// The largest |signed mean difference| of any channel, in 1/255 steps.
  var maximumMeanBias: Double

  /// One line per bar `c` does not meet; empty when it meets them all.
  func failures(_ c: ImageComparison) -> [String] {
    var failures: [String] = []
    if c.maxDifference > maxDifference + 1e-9 { failures.append("max difference over \(maxDifference)/255") }
    if c.fractionOverOne > fractionOverOne {
      failures.append("more than \(fractionOverOne * 100) % of pixels over 1/255")
    }
    if c.psnr < minimumPSNR { failures.append("PSNR under \(minimumPSNR) dB") }
    if c.largestMeanBias > maximumMeanBias { failures.append("a channel's mean bias over \(maximumMeanBias)/255") }
    return failures
  }

  /// Records an issue naming `label` and the measurements when `c` fails the bar;
  /// true when it passes.
  @discardableResult
  func check(_ c: ImageComparison, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let failed = failures(c)
    if verbose { print("\(label): \(c.summary)") }
    guard !failed.isEmpty else { return true }
    Issue.record(
      Comment(rawValue: "\(label): \(failed.joined(separator: "; ")): \(c.summary)"), sourceLocation: sourceLocation)
    return false
  }
}

extension TestBackend {
  /// Checks `output`, rendered on this backend, against the golden `name`
  /// (`Golden`): the CPU, which renders the goldens (and alone records a missing
  /// one), exactly; the GPU within `bar`. `filter` is the `swift test --filter`
  /// that records it.
  func checkGolden(
    _ output: RGBAImage, _ name: String, bar: ParityBar, filter: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let outcome = try Golden.check(
      output, against: name, label: "\(name)-\(self)", mayRecord: self == .cpu, filter: filter
    ) { comparison in
      self == .cpu ? (comparison.maxDifference == 0 ? [] : ["not exact"]) : bar.failures(comparison)
    }
    if verbose, let comparison = outcome.comparison { print("golden \(name) on \(self): \(comparison.summary)") }
    if let failure = outcome.failure { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
  }
}

/// How an output compares with the exact result, inside the image frame and in
/// the extension around it, on the 8-bit scale. In the extension, where both
/// pixels are fully transparent only alpha counts: the exact definition
/// premultiplies, so it gives such pixels colour 0, while a sigma-0 copy keeps the
/// input's (invisible) colour.
struct Accuracy: CustomStringConvertible {
  var interior: ImageComparison
  var extensionPixels: ImageComparison

  init(_ actual: RGBAImage, _ expected: RGBAImage, frame: PixelRect) throws {
    let inside = { (x: Int, y: Int) in x >= frame.x && x < frame.maxX && y >= frame.y && y < frame.maxY }
    interior = try ImageComparison(actual, expected, including: inside)
    extensionPixels = try ImageComparison(
      actual, expected, including: { !inside($0, $1) }, ignoringColorOfTransparentPixels: true)
  }

  var interiorMaxDifference: Double { interior.maxDifference }
  var extensionMaxDifference: Double { extensionPixels.maxDifference }
  var extensionPSNR: Double { extensionPixels.psnr }

  var description: String {
    let worst = extensionPixels.worstPixel.map { "(\($0.x), \($0.y))" } ?? "-"
    let m = extensionPixels.meanDifference
    return String(
      format: "interior max %.3g/255; extension max %.3g/255 at %@, PSNR %.2f dB over %d pixels, "
        + "mean difference (%+.4f, %+.4f, %+.4f, %+.4f)/255",
      interiorMaxDifference, extensionMaxDifference, worst as NSString, extensionPSNR, extensionPixels.pixelCount,
      m[0], m[1], m[2], m[3])
  }
}

extension RGBAImage {
  /// Pixel (x, y) in 8-bit steps (16-bit images rounded), as Int.
  func rgba8(_ x: Int, _ y: Int) -> SIMD4<Int> {
    let p = pixel16(x: x, y: y)
    return SIMD4((0..<4).map { (Int(p[$0]) * 255 + 32767) / 65535 })
  }

  /// The pixels of `rect` (clipped to the image) for which `test` is false, as
  /// "(x, y) value" strings, the first `limit` of them.
  func pixels(in rect: PixelRect, failing test: (SIMD4<Int>) -> Bool, limit: Int = 4) -> [String] {
    var found: [String] = []
    for y in max(0, rect.y)..<min(height, rect.maxY) {
      for x in max(0, rect.x)..<min(width, rect.maxX) where !test(rgba8(x, y)) {
        if found.count < limit { found.append("(\(x), \(y)) \(rgba8(x, y))") }
      }
    }
    return found
  }
}

/// The largest difference of any channel of two pixels.
func maxDifference(_ a: SIMD4<Int>, _ b: SIMD4<Int>) -> Int {
  (0..<4).map { abs(a[$0] - b[$0]) }.max() ?? 0
}

/// The frame of the image inside the canvas of an effect.
func imageFrame(_ effect: BackgroundExtensionEffect, _ size: PixelSize) -> PixelRect {
  PixelRect(x: effect.parameters.leadingPixels, y: effect.parameters.topPixels, width: size.width, height: size.height)
}

/// The folder of the test fixtures.
let fixturesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// A folder for a test's files, removed by the caller.
func makeTemporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("glass-gpu-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Set GLASS_GPU_TEST_VERBOSE=1 to print the measured accuracy of each case.
let verbose = ProcessInfo.processInfo.environment["GLASS_GPU_TEST_VERBOSE"] != nil
