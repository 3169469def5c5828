import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// `fill` with a mask: a paint times the shape's coverage times the mask's alpha,
/// zero outside the mask; the primitive text is composited with.
@Suite("Primitive: fill with a coverage mask")
struct MaskedFillTests {
  static let size = PixelSize(width: 48, height: 32)
  static let maskOrigin = PixelPoint(x: 5, y: 3)

  /// A mask of 30x20 whose alpha runs through every code, white, straight alpha.
  static let mask = RGBAImage(width: 30, height: 20) { x, y in SIMD4(255, 255, 255, UInt8((x * 37 + y * 101) % 256)) }

  /// Grey canvas; the paint over it through `shape` and the mask; 8-bit output.
  static func render(_ shape: ShapeGeometry, _ paint: Paint, on backend: TestBackend) throws -> RGBAImage {
    var graph = RenderGraph()
    let canvas = graph.makeTransient("canvas", size: size, format: .linearHalf)
    let whole = PixelRect(size: size)
    let box = ShapeGeometry(roundedBoxCenter: SIMD2(24, 16), halfSize: SIMD2(24, 16), radii: .zero)
    graph.addPass(
      "grey", .fill(FillShape(shape: box, paint: .solid(SIMD4(0.2, 0.2, 0.2, 1)))), inputs: [], output: canvas,
      rect: whole)
    let source = graph.importSource(mask, as: .linearHalf, rects: [PixelRect(size: mask.size)])
    graph.addPass(
      "text", .fill(FillShape(shape: shape, paint: paint, mask: maskOrigin)), inputs: [source], output: canvas,
      rect: whole, blend: true)
    let output = graph.makeOutput(size: size, format: .encoded(.eight))
    graph.addPass("encode", .copy(Copy(offset: PixelPoint(x: 0, y: 0))), inputs: [canvas], output: output, rect: whole)
    return try backend.execute(graph)
  }

  /// A solid paint over the whole canvas through the mask, against the definition:
  /// out = grey (1 - a) + paint a, a = the mask's alpha (0 outside), in linear light.
  static func check(on backend: TestBackend) throws {
    let box = ShapeGeometry(roundedBoxCenter: SIMD2(24, 16), halfSize: SIMD2(24, 16), radii: .zero)
    let red = SIMD4<Float>(0.8, 0.1, 0.05, 1)
    let output = try render(box, .solid(red), on: backend)
    var worst = 0
    for y in 0..<size.height {
      for x in 0..<size.width {
        let mx = x - maskOrigin.x
        let my = y - maskOrigin.y
        let inside = mx >= 0 && my >= 0 && mx < mask.width && my < mask.height
        let a = inside ? Double(mask.pixel16(x: mx, y: my).w) / 65535 : 0
        for c in 0..<3 {
          let linear = 0.2 * (1 - a) + Double(red[c]) * a
          let expected = Int((Definition.linearToSRGB(linear) * 255).rounded())
          worst = max(worst, abs(Int(output.pixel16(x: x, y: y)[c] / 257) - expected))
        }
      }
    }
    #expect(worst <= 1, "largest difference from the definition on \(backend): \(worst)/255")
  }

  @Test("on the CPU a masked fill is the paint times the mask's alpha, 0 outside the mask")
  func cpu() throws { try Self.check(on: .cpu) }

  @Test(
    "on the GPU a masked fill is the paint times the mask's alpha, 0 outside the mask",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func gpu() throws { try Self.check(on: .gpu) }

  @Test(
    "a gradient through a rounded shape and a mask: the GPU within 1/255 of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func parity() throws {
    let shape = ShapeGeometry(roundedBoxCenter: SIMD2(22, 14), halfSize: SIMD2(15, 9), radii: SIMD4(repeating: 6))
    let paint = Paint(
      kind: .linear, colors: [SIMD4(0.9, 0.3, 0.1, 1), SIMD4(0.1, 0.2, 0.9, 1)], locations: [0, 1],
      geometry: SIMD4(0, 0, 48, 32))
    let c = try ImageComparison(try Self.render(shape, paint, on: .gpu), try Self.render(shape, paint, on: .cpu))
    #expect(c.maxDifference <= 1, "\(c.summary)")
  }
}
