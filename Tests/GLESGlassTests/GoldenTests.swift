import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Reference renders kept with the tests: rendered by the CPU backend, checked on
/// every backend. `GLASS_GPU_RECORD_GOLDENS=1 swift test --filter GoldenTests`
/// records missing ones (and fails, so that a recording is never a pass). A
/// failing comparison writes the actual image and a difference image beside
/// the test run and names them.
@Suite("Goldens")
struct GoldenTests {
  struct Scene: Sendable, CustomTestStringConvertible {
    var name: String
    var effect: BackgroundExtensionEffect
    var testDescription: String { name }
  }

  static let scenes: [Scene] = [
    Scene(
      name: "sidebar-sharp",
      effect: BackgroundExtensionEffect(.init(leadingPixels: 40, trailingPixels: 0, topPixels: 12, sigmaPixels: 0))),
    Scene(
      name: "sidebar-inspector-3",
      effect: BackgroundExtensionEffect(.init(leadingPixels: 40, trailingPixels: 30, sigmaPixels: 3))),
    Scene(
      name: "all-edges-12",
      effect: BackgroundExtensionEffect(
        .init(leadingPixels: 24, trailingPixels: 24, topPixels: 16, bottomPixels: 16, sigmaPixels: 12))),
    Scene(
      name: "wide-40",
      effect: BackgroundExtensionEffect(.init(leadingPixels: 120, trailingPixels: 8, bottomPixels: 10, sigmaPixels: 40))
    ),
  ]

  /// The input of every scene, a PNG kept with the goldens (so that they do not
  /// depend on the procedural generator's floating point).
  static func input() throws -> RGBAImage {
    let path = Golden.path("input")
    if !FileManager.default.fileExists(atPath: path) && Golden.isRecording {
      try PNGCodec.write(ProceduralImages.landscape(width: 96, height: 54), to: path, compression: 12)
    }
    return try PNGCodec.read(path: path).image
  }

  /// The GPU against the CPU's goldens: the extension parity bar
  /// (`ParityTests.bar`: 2/255, 0.1 % of pixels over 1/255, PSNR >= 56 dB, mean
  /// bias <= 0.25/255). Measured: PSNR 58.37 dB at the least (wide-40), mean bias
  /// 0.144/255 at the most; an 8-bit encode biased by 0.45/255 gives 53.2 dB and
  /// 0.43/255 on wide-40.
  static let gpuBar = ParityTests.bar

  static func check(_ scene: Scene, on backend: TestBackend) throws {
    let output = try backend.render(scene.effect, on: try input())
    try backend.checkGolden(output, scene.name, bar: gpuBar, filter: "GoldenTests")
  }

  @Test("the CPU backend renders its goldens exactly", arguments: scenes)
  func cpu(_ scene: Scene) throws {
    try Self.check(scene, on: .cpu)
  }

  @Test(
    "the GPU backend matches the CPU's goldens", .enabled(if: TestGPU.isAvailable, TestGPU.skipReason),
    arguments: scenes)
  func gpu(_ scene: Scene) throws {
    try Self.check(scene, on: .gpu)
  }
}
