import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// `Renderer.render` is `prepare`, `submit` and `wait`: several renders can be
/// submitted before any is waited for, in any order, and each gives the image
/// it would give alone.
@Suite("Renderer: submit and wait")
struct SubmitWaitTests {
  /// Two demo scenes of different sizes and depths, prepared.
  static func prepared() throws -> [PreparedRender] {
    let (landmarks, landmarkImages) = try DemoScenes.load("landmarks")
    let (badges, badgeImages) = try DemoScenes.load("badges")
    return [
      try Renderer.prepare(landmarks, images: landmarkImages, depth: .eight),
      try Renderer.prepare(badges, images: badgeImages, depth: .sixteen),
      try Renderer.prepare(landmarks, images: landmarkImages, depth: .sixteen),
      // The extension's output is written in four strips round the exact copy of
      // the image: a readback of several rects.
      try Renderer.prepare(
        BackgroundExtensionEffect(.init(leadingPixels: 30, trailingPixels: 20, topPixels: 8, sigmaPixels: 12)),
        on: ProceduralImages.gradient(width: 64, height: 40)),
      try Renderer.prepare(
        BackgroundExtensionEffect(.init(leadingPixels: 9, trailingPixels: 3, bottomPixels: 11, sigmaPixels: 4)),
        on: ProceduralImages.gradient(width: 31, height: 17), depth: .sixteen),
    ]
  }

  /// Submits every render, waits in reverse order, and compares each with a
  /// render of it alone on the same renderer: the same bytes. On the GPU each is
  /// also within the scene parity bar of the CPU's (a readback bug shared by both
  /// ways of rendering on the GPU shows there).
  static func checkOverlapped(on renderer: Renderer) throws {
    let jobs = try prepared()
    var timings = RenderTimings()
    let alone = try jobs.map { try renderer.render($0, timings: &timings) }
    let submitted = try jobs.map { try renderer.submit($0) }
    #expect(submitted.map(\.size) == jobs.map(\.size))
    var overlapped = [RGBAImage?](repeating: nil, count: jobs.count)
    for index in jobs.indices.reversed() {
      overlapped[index] = try renderer.wait(submitted[index], timings: &timings)
    }
    for index in jobs.indices {
      #expect(
        overlapped[index] == alone[index], "render \(index) waited for out of order differs from its render alone")
    }
    if renderer.backendName == "gpu" {
      let cpu = try Renderer(backend: .cpu)
      for index in jobs.indices {
        guard let image = overlapped[index] else { continue }
        let reference = try cpu.render(jobs[index], timings: &timings)
        SceneRenderingTests.bar.check(try ImageComparison(image, reference), "render \(index) against the CPU")
      }
    }
    // A second wait is an error, not a second image.
    #expect(throws: GlassError.self) { _ = try renderer.wait(submitted[0], timings: &timings) }
  }

  @Test("on the CPU: submitted renders waited for in reverse order are each the render alone")
  func cpu() throws {
    try Self.checkOverlapped(on: Renderer(backend: .cpu))
  }

  @Test(
    "on the GPU: submitted renders waited for in reverse order are each the render alone",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func gpu() throws {
    try Self.checkOverlapped(on: TestGPU.requireRenderer())
  }

  @Test(
    "a submitted render dropped without a wait gives back its textures and pixel buffer",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func dropped() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let renderer = try Renderer(backend: .gpu)
    defer { renderer.close() }
    let gles = try #require(renderer.gles)
    let jobs = try Self.prepared()
    var timings = RenderTimings()
    _ = try renderer.render(jobs[0], timings: &timings)
    let settled = try gles.objectCounts()
    #expect(settled.poolInUse == 0 && settled.buffers == 1, "\(settled)")
    do {
      // Held to the end of the block: an optimised build may otherwise end the
      // array's life at its last use, before the counts are read.
      let inFlight = try jobs.map { try renderer.submit($0) }
      try withExtendedLifetime(inFlight) {
        let busy = try gles.objectCounts()
        #expect(busy.poolInUse == jobs.count, "each submitted render holds its output: \(busy)")
        #expect(busy.buffers == jobs.count, "each holds a pixel buffer: \(busy)")
      }
    }
    let after = try gles.objectCounts()
    #expect(after.poolInUse == 0, "\(after)")
    #expect(after.buffers <= 2, "at most two idle pixel buffers are kept: \(after)")
    try gles.trimPool(toBytes: 0)
    let trimmed = try gles.objectCounts()
    #expect(trimmed.buffers == 0 && trimmed.textures == 0 && trimmed.framebuffers == 0, "\(trimmed)")
  }
}
