import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The GPU backend shared by the GPU tests of this process: one context, its
/// programs compiled once. Renders through it are serialised by its GL thread.
enum TestGPU {
  nonisolated(unsafe) private static var made: (renderer: Renderer?, reason: String)?
  private static let lock = NSLock()

  private static func make() -> (renderer: Renderer?, reason: String) {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    let result: (Renderer?, String)
    do {
      result = (try Renderer(backend: .gpu), "")
    } catch {
      result = (nil, "\(error)")
      print("GPU tests skipped: no EGL display with OpenGL ES 3: \(error)")
    }
    made = result
    return result
  }

  /// The shared GPU renderer, or nil when no EGL display can be had.
  static var renderer: Renderer? { make().renderer }

  /// True when an EGL display with OpenGL ES 3 can be had.
  static var isAvailable: Bool { renderer != nil }

  /// Why the GPU tests are skipped.
  static var skipReason: Comment {
    Comment(rawValue: "skipped: no EGL display with OpenGL ES 3 (\(make().reason))")
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
      let renderer = try #require(TestGPU.renderer, "GPU tests run only where an EGL display can be had")
      return try renderer.render(effect, on: image, depth: depth, timings: &timings)
    }
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
      let gles = try #require(TestGPU.renderer?.gles, "GPU tests run only where an EGL display can be had")
      return try RenderExecutor.execute(compiled, on: gles, timings: &timings)
    }
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
    return String(
      format: "interior max %.3g/255; extension max %.3g/255 at %@, PSNR %.2f dB over %d pixels",
      interiorMaxDifference, extensionMaxDifference, worst as NSString, extensionPSNR, extensionPixels.pixelCount)
  }
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
