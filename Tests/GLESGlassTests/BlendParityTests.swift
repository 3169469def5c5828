import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Layer over layer: a pass that composites over the canvas rounds the sum once,
/// to the nearest binary16, on both backends (`common.glsl` BLEND_OVER;
/// `CPUKernels.Target.store`). With GL blending instead, llvmpipe computed the sum
/// at lower precision and stored it rounded toward zero: each translucent layer
/// left the canvas up to a binary16 step low, and the steps added up, 2/255 after
/// 100 layers of white at 3/255 (every pixel), and after 40 over a gradient (4.7 %
/// of the pixels), against none on either backend as it is now.
@Suite("GPU and CPU agree layer over layer")
struct BlendParityTests {
  /// `count` rectangles of white at opacity 3/255 over the whole canvas, each a
  /// pass of its own that composites over the last.
  static func stack(_ count: Int, over background: Fill) -> Scene {
    var scene = Scene(size: PointSize(width: 64, height: 48), scale: 1, background: .fill(background))
    scene.layers = Array(
      repeating: .shape(
        ShapeLayer(
          shape: .rect, frame: PointRect(x: 0, y: 0, width: 64, height: 48),
          fill: .color(Color(red: 1, green: 1, blue: 1, opacity: 3.0 / 255)))),
      count: count)
    return scene
  }

  static let cases: [(name: String, scene: Scene)] = [
    ("100 layers over dark grey", stack(100, over: .color(Color(hex: 0x202020)))),
    (
      "40 layers over a black-to-white gradient",
      stack(40, over: .linearGradient(Gradient(colors: [.black, .white]), startPoint: .leading, endPoint: .trailing))
    ),
  ]

  @Test(
    "a stack of translucent layers renders on the GPU within the README's bar of the CPU: 1/255 at most, no pixel over",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: 0..<cases.count)
  func stackOfLayers(index: Int) throws {
    let (name, scene) = Self.cases[index]
    // Each layer is a pass that composites over the canvas: nothing was merged
    // or replaced, so the test measures blending.
    let prepared = try Renderer.prepare(scene, images: SceneImages([:]))
    let blended = prepared.compiled.passes.filter(\.blend).count
    #expect(blended >= scene.layers.count, "\(name): \(blended) passes blend")
    let gpu = try TestBackend.gpu.render(scene, images: [:])
    let cpu = try TestBackend.cpu.render(scene, images: [:])
    SceneRenderingTests.demoBar.check(try ImageComparison(gpu, cpu), "\(name)")
  }
}
