import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// One accuracy check: an image, insets and a sigma.
struct AccuracyCase: Sendable, CustomTestStringConvertible {
  var name: String
  var image: RGBAImage
  var effect: BackgroundExtensionEffect
  var depth: RGBAImage.Depth = .eight
  /// A forced pyramid depth; nil lets the effect choose.
  var levels: Int? = nil

  var testDescription: String {
    let p = effect.parameters
    return "\(name) \(image.size) \(image.depth.rawValue)-bit, insets \(p.leadingPixels)/\(p.trailingPixels)/"
      + "\(p.topPixels)/\(p.bottomPixels), sigma \(p.sigmaPixels), out \(depth.rawValue)-bit"
      + (levels.map { ", \($0) levels" } ?? "")
  }

  static func effect(_ l: Int, _ r: Int, _ t: Int, _ b: Int, sigma: Double) -> BackgroundExtensionEffect {
    BackgroundExtensionEffect(
      .init(leadingPixels: l, trailingPixels: r, topPixels: t, bottomPixels: b, sigmaPixels: sigma))
  }

  /// Stripes, gradients and hard edges in one odd-sized image.
  static let mixed: RGBAImage = {
    let stripes = ProceduralImages.stripes(width: 37, height: 23, period: 3)
    let gradient = ProceduralImages.gradient(width: 37, height: 23)
    return RGBAImage(width: 37, height: 23) { x, y in
      let s = y < 11 ? stripes : gradient
      let i = 4 * (y * 37 + x)
      guard case .eight(let v) = s.samples else { return .zero }
      return SIMD4(v[i], v[i + 1], v[i + 2], v[i + 3])
    }
  }()

  static let grey = RGBAImage(width: 29, height: 17) { x, y in
    let v = UInt8((x * 37 + y * y * 11) % 256)
    return SIMD4(v, v, v, 255)
  }

  static let palette = RGBAImage(width: 31, height: 19) { x, y in
    let colours: [SIMD4<UInt8>] = [
      SIMD4(255, 0, 0, 255), SIMD4(0, 128, 255, 255), SIMD4(20, 20, 20, 255), SIMD4(250, 240, 200, 255),
      SIMD4(0, 200, 60, 255), SIMD4(120, 0, 160, 255),
    ]
    return colours[(x / 4 + (y / 3) * 2) % colours.count]
  }

  static let translucent = ProceduralImages.noise(width: 23, height: 15, seed: 3, alpha: true)

  /// Black and white stripes just slower than the Nyquist rate, along x, y or
  /// both: what a pyramid aliases worst.
  static func nearNyquist(period: Double, axes: Int) -> RGBAImage {
    RGBAImage(width: 41, height: 29) { x, y in
      let u = sin(2 * Double.pi * Double(x) / period + 0.3) > 0
      let v = sin(2 * Double.pi * Double(y) / period + 0.7) > 0
      let on = axes == 0 ? u : axes == 1 ? v : u != v
      return on ? SIMD4(255, 255, 255, 255) : SIMD4(0, 0, 0, 255)
    }
  }

  static let sixteen: RGBAImage = {
    var values = [UInt16](repeating: 0, count: 4 * 27 * 15)
    for y in 0..<15 {
      for x in 0..<27 {
        let i = 4 * (y * 27 + x)
        values[i] = UInt16(x * 2427)
        values[i + 1] = UInt16((y * 4369 + x * 7) % 65536)
        values[i + 2] = (x + y) % 5 == 0 ? 65535 : 300
        values[i + 3] = UInt16(65535 - (x % 4) * 9000)
      }
    }
    return RGBAImage(size: PixelSize(width: 27, height: 15), samples: .sixteen(values))
  }()

  static let all: [AccuracyCase] = {
    var cases: [AccuracyCase] = []
    // Every sigma the issue names, as the effect plans them.
    for sigma: Double in [0, 0.5, 2, 8, 24, 64, 150] {
      cases.append(AccuracyCase(name: "mixed", image: mixed, effect: effect(30, 19, 9, 6, sigma: sigma)))
    }
    // Both sides of every switch of method, each allowed pyramid depth forced:
    // direct below 4 px, and at each level sigma / 2^k from 1.5 up to (not) 4.
    for sigma: Double in [0.5, 2.99, 3, 3.99, 4, 5.99, 6, 7.99, 8, 11.99, 12, 23.99, 24, 31.99, 150] {
      for levels in BlurPlan.allowedLevels(sigmaPixels: sigma) {
        cases.append(
          AccuracyCase(
            name: "mixed", image: mixed, effect: effect(30, 19, 9, 6, sigma: sigma), levels: levels))
      }
    }
    // Insets wider than the image: the copies repeat.
    for sigma: Double in [0, 2, 8, 24] {
      cases.append(
        AccuracyCase(
          name: "narrow", image: ProceduralImages.checker(width: 5, height: 4, cell: 1),
          effect: effect(40, 23, 13, 17, sigma: sigma)))
    }
    // Stripes near the Nyquist rate at the smallest coarse sigma of each level.
    for period in [2.05, 2.15, 2.3] {
      for axes in 0..<3 {
        for sigma: Double in [3, 6, 12] {
          cases.append(
            AccuracyCase(
              name: "stripes \(period) axes \(axes)", image: nearNyquist(period: period, axes: axes),
              effect: effect(24, 17, 8, 5, sigma: sigma), levels: BlurPlan.allowedLevels(sigmaPixels: sigma).last))
        }
      }
    }
    // A side without an inset, with room above or below: the strips that remain
    // must not share textures wrongly (a canvas edge against a neighbour).
    let halves = RGBAImage(width: 37, height: 45) { x, _ in x < 18 ? SIMD4(230, 20, 20, 255) : SIMD4(20, 40, 230, 255) }
    for (l, r, t, b) in [(0, 20, 19, 0), (0, 20, 0, 19), (20, 0, 19, 7), (0, 0, 12, 12), (15, 0, 0, 0)] {
      for sigma: Double in [2, 8, 24] {
        cases.append(AccuracyCase(name: "halves", image: halves, effect: effect(l, r, t, b, sigma: sigma)))
      }
    }
    // A sigma far larger than the canvas: the mirrored period, not the margin.
    for sigma: Double in [300, 1000] {
      cases.append(AccuracyCase(name: "tiny canvas", image: grey, effect: effect(9, 5, 0, 3, sigma: sigma)))
    }
    // A single pixel.
    for sigma: Double in [0, 2, 24, 150] {
      cases.append(
        AccuracyCase(
          name: "1x1", image: RGBAImage(width: 1, height: 1) { _, _ in SIMD4(200, 90, 30, 255) },
          effect: effect(10, 10, 10, 10, sigma: sigma)))
    }
    for sigma: Double in [0, 2, 8, 24] {
      cases.append(AccuracyCase(name: "grey", image: grey, effect: effect(20, 20, 0, 8, sigma: sigma)))
      cases.append(AccuracyCase(name: "palette", image: palette, effect: effect(25, 12, 6, 0, sigma: sigma)))
      cases.append(AccuracyCase(name: "rgba", image: translucent, effect: effect(18, 18, 5, 5, sigma: sigma)))
      cases.append(AccuracyCase(name: "16-bit", image: sixteen, effect: effect(21, 13, 4, 9, sigma: sigma)))
      cases.append(
        AccuracyCase(
          name: "16-bit", image: sixteen, effect: effect(21, 13, 4, 9, sigma: sigma), depth: .sixteen))
    }
    // A canvas whose every work region lies inside it: the GPU's clamp-only
    // mirroring of the canvas edge (CANVAS_INSIDE) is used.
    for sigma: Double in [5, 8, 24] {
      cases.append(
        AccuracyCase(
          name: "inside", image: ProceduralImages.landscape(width: 200, height: 64),
          effect: effect(40, 40, 0, 0, sigma: sigma)))
    }
    // PNG files of each colour type, decoded by libpng.
    for file in [
      "grey4.png", "grey8_trns.png", "palette4_trns.png", "palette8_adam7.png", "rgba8.png", "rgba16.png",
      "greyalpha16.png", "rgb16_trns.png",
    ] {
      guard let image = try? PNGCodec.read(path: fixturesFolder.appendingPathComponent(file).path).image else {
        preconditionFailure("fixture \(file) must decode")
      }
      for sigma: Double in [0, 3, 8, 24] {
        cases.append(AccuracyCase(name: file, image: image, effect: effect(17, 11, 6, 4, sigma: sigma)))
      }
    }
    return cases
  }()
}

/// Each exact reference computed once, however many tests ask for it: the CPU and
/// GPU tests of a case, and cases that differ only in the pyramid depth they force.
/// A case's name stands for its image (cases of one name use one image).
final class ReferenceCache: @unchecked Sendable {
  struct Key: Hashable {
    var name: String
    var size: PixelSize
    var parameters: BackgroundExtensionEffect.Parameters
    var depth: RGBAImage.Depth
  }

  /// One reference; its own lock lets other references be computed meanwhile.
  private final class Entry: @unchecked Sendable {
    let lock = NSLock()
    var image: RGBAImage?
  }

  private let lock = NSLock()
  private var entries: [Key: Entry] = [:]

  static let shared = ReferenceCache()

  /// The exact output of `c`, computed by the first caller.
  func reference(_ c: AccuracyCase) -> RGBAImage {
    let key = Key(name: c.name, size: c.image.size, parameters: c.effect.parameters, depth: c.depth)
    let entry = lock.withLock {
      if let entry = entries[key] { return entry }
      let entry = Entry()
      entries[key] = entry
      return entry
    }
    return entry.lock.withLock {
      if let image = entry.image { return image }
      let image = ExactOracle.backgroundExtension(c.effect, on: c.image, depth: c.depth)
      entry.image = image
      return image
    }
  }
}

@Suite("Background extension against the exact definition")
struct ExtensionAccuracyTests {
  /// The bar of the issue: inside the frame the input exactly; in the extension
  /// PSNR >= 45 dB and no channel off by more than 4/255. On the CPU also no
  /// channel's mean off by more than 0.3/255 over the extension: its errors are
  /// roundings and the pyramid's ripples around the exact blur, of both signs
  /// (measured: 0.148/255 at the most, "narrow" at sigma 24), so a biased encode
  /// shows. Not on the GPU: llvmpipe rounds its binary16 taps down at every
  /// pyramid level, and a wide blur of a flat region ends exactly one step low
  /// (measured mean bias up to 1/255, within the bar of 4/255).
  static func check(_ c: AccuracyCase, on backend: TestBackend) throws {
    let actual = try backend.render(c.effect, on: c.image, depth: c.depth, levels: c.levels)
    let expected = ReferenceCache.shared.reference(c)
    #expect(actual.size == expected.size)
    let accuracy = try Accuracy(actual, expected, frame: imageFrame(c.effect, c.image.size))
    if verbose { print("\(backend) \(c.testDescription): \(accuracy)") }
    #expect(accuracy.interiorMaxDifference == 0, "\(accuracy)")
    #expect(accuracy.extensionMaxDifference <= 4, "\(accuracy)")
    #expect(accuracy.extensionPSNR >= 45, "\(accuracy)")
    if backend == .cpu { #expect(accuracy.extensionPixels.largestMeanBias <= 0.3, "\(accuracy)") }
    if c.effect.parameters.sigmaPixels == 0 {
      // Sigma 0 is an exact copy, not an approximation.
      #expect(accuracy.extensionMaxDifference == 0, "\(accuracy)")
    }
  }

  @Test("CPU backend", arguments: AccuracyCase.all)
  func cpu(_ c: AccuracyCase) throws {
    try Self.check(c, on: .cpu)
  }

  /// The cases the GPU runs: all of them, but every third on softpipe (`make
  /// test-softpipe`), which renders one case at a time on one core: the second
  /// driver still meets each method and pyramid depth, and llvmpipe runs them all.
  static let gpuCases: [AccuracyCase] =
    GPUDriverTests.namedDriver == "softpipe"
    ? AccuracyCase.all.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) : AccuracyCase.all

  @Test("GPU backend", .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: Self.gpuCases)
  func gpu(_ c: AccuracyCase) throws {
    try Self.check(c, on: .gpu)
  }
}
