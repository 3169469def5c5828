import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The GPU's and the CPU's output of each pass of a render, side by side
/// (`RenderExecutor.passOutputs` reads each pass's output right after it runs):
/// where a scene's parity is lost, the first pass whose outputs part names the
/// primitive. `GLASS_GPU_TEST_VERBOSE=1` prints every pass's difference.
@Suite("GPU and CPU agree pass by pass")
struct PassParityTests {
  /// How far apart one pass's outputs are: binary16 steps for a linear image (the
  /// distance between the two values in the ordered list of binary16 numbers), or
  /// codes for an encoded one; where the largest is; and how many channel values
  /// differ at all, the GPU's above and below the CPU's.
  struct PassDifference: CustomStringConvertible {
    var pass: String
    var primitive: String
    var format: ImageFormat
    var channels = 0
    var steps = 0
    var at = PixelPoint(x: 0, y: 0)
    var channel = 0
    var gpu = SIMD4<Float>.zero
    var cpu = SIMD4<Float>.zero
    var above = 0
    var below = 0

    /// The share of the pass's channel values that differ.
    var share: Double { channels == 0 ? 0 : Double(above + below) / Double(channels) }

    var description: String {
      let unit = format == .linearHalf ? "binary16 steps" : "codes"
      return "\(pass) (\(primitive)): at most \(steps) \(unit), channel \(channel) at (\(at.x), \(at.y)), "
        + "gpu \(gpu) cpu \(cpu); \(above + below) of \(channels) channel values differ "
        + String(format: "(%.3f %%)", share * 100) + ", the GPU's above in \(above), below in \(below)"
    }
  }

  /// The position of a binary16 value in the ordered binary16 numbers (-0 and +0
  /// both 0): the distance of two such positions counts the representable values
  /// between them. From Swift's own `Float16`, not `Half`.
  static func orderedIndex(_ value: Float) -> Int {
    let half = Float16(value)
    precondition(Float(half) == value, "\(value) is not a binary16 value")
    let magnitude = Int(half.bitPattern & 0x7FFF)
    return half.sign == .minus ? -magnitude : magnitude
  }

  /// The difference of each pass, in order.
  static func differences(_ gpu: [PassOutput], _ cpu: [PassOutput]) -> [PassDifference] {
    precondition(gpu.count == cpu.count, "the same graph runs the same passes")
    return zip(gpu, cpu).map { g, c in
      precondition(g.name == c.name && g.rect == c.rect)
      var worst = PassDifference(pass: g.name, primitive: g.primitive, format: g.format)
      worst.channels = 4 * g.pixels.count
      for i in 0..<g.pixels.count where g.pixels[i] != c.pixels[i] {
        for channel in 0..<4 {
          let a = g.pixels[i][channel]
          let b = c.pixels[i][channel]
          guard a != b else { continue }
          if a > b { worst.above += 1 } else { worst.below += 1 }
          let steps =
            a.isNaN || b.isNaN
            ? Int.max : g.format == .linearHalf ? abs(orderedIndex(a) - orderedIndex(b)) : Int(abs(a - b))
          if steps > worst.steps {
            worst.steps = steps
            worst.channel = channel
            worst.at = PixelPoint(x: g.rect.x + i % g.rect.width, y: g.rect.y + i / g.rect.width)
            worst.gpu = g.pixels[i]
            worst.cpu = c.pixels[i]
          }
        }
      }
      return worst
    }
  }

  /// Every pass of `prepared` on the shared GPU renderer's backend and on a CPU
  /// backend.
  static func passes(_ prepared: PreparedRender) throws -> (gpu: [PassOutput], cpu: [PassOutput]) {
    let gles = try #require(try TestGPU.requireRenderer().gles, "the GPU renderer has a GLES backend")
    return (
      try RenderExecutor.passOutputs(prepared.compiled, on: gles),
      try RenderExecutor.passOutputs(prepared.compiled, on: CPUBackend())
    )
  }

  /// What one pass may differ by. Both backends compute in float and round what
  /// they store once, to the nearest binary16 (`Half.round`; `common.glsl`
  /// roundToHalf, BLEND_OVER), so a stored value differs only where the two
  /// floats fall on either side of a rounding boundary: float32 sums in another
  /// order, the GPU's pow and exp, and the bilinear weights a sampler derives from
  /// a coordinate divided by the texture's size, not exact in float (the frost's
  /// upsample passes: a step, or two with the step of the level below, in about
  /// 1 % of their values). Measured over the demo scenes, the same on llvmpipe and
  /// softpipe: 2.5 % of a pass's values at the most (capsules' glass at scale 1).
  /// The glass shading carries such a step of a bright channel into a dark one,
  /// where binary16 steps are 32 to 64 times finer: 10 steps at the most (signin's
  /// glass and its backdrop). A pass that rounds its stores another way moves
  /// about half of its values (llvmpipe's own rounding is toward zero: 1 step
  /// down), and lookups computed at binary16 precision most of them; a wrong
  /// weight or texel, more than 16 steps.
  static let maximumShare = 0.05
  static let maximumSteps = 16

  static func check(_ name: String, _ prepared: PreparedRender) throws {
    let (gpu, cpu) = try passes(prepared)
    for difference in differences(gpu, cpu) {
      if verbose { print("\(name): \(difference)") }
      let linear = difference.format == .linearHalf
      #expect(
        difference.share <= maximumShare && difference.steps <= (linear ? maximumSteps : 1),
        "\(name): \(difference)")
    }
  }

  @Test(
    "every pass of the scenes that parted GPU and CPU, at their own scale, stores within a step or two of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: ["concentric", "signin"])
  func ownScale(name: String) throws {
    let (scene, images) = try DemoScenes.load(name, scale: nil)
    try Self.check(name, try Renderer.prepare(scene, images: images))
  }

  @Test(
    "every pass of every demo scene, at scale 1, stores within a step or two of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: DemoScenes.all)
  func scaleOne(name: String) throws {
    let (scene, images) = try DemoScenes.load(name)
    try Self.check(name, try Renderer.prepare(scene, images: images))
  }
}
