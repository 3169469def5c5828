import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The Swift API as the README shows it: a scene renders without naming its
/// images when it has none, a scene file renders in one call, the timings give
/// the call's wall time, and an animation takes the images a `SceneFile` loads.
@Suite("The Swift API")
struct SwiftAPITests {
  /// A glass capsule over a gradient: no image files.
  static let plain = Scene(
    width: 120, height: 60, scale: 1,
    background: .fill(.linearGradient(Gradient(colors: [.red, .blue]), startPoint: .top, endPoint: .bottom))
  ) {
    Color.clear.frame(x: 20, y: 10, width: 80, height: 40).glassEffect(.regular, in: .capsule)
  }

  @Test("a scene without images renders with render(scene) and render(scene, timings:), as with empty images")
  func renderWithoutImages() throws {
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    let image = try renderer.render(Self.plain, timings: &timings)
    #expect(image.size == PixelSize(width: 120, height: 60))
    #expect(try renderer.render(Self.plain) == image)
    var other = RenderTimings()
    #expect(try renderer.render(Self.plain, images: SceneImages([:]), timings: &other) == image)
  }

  @Test("timings' totalMilliseconds is each render call's wall time, at least the phases it measured")
  func totalMilliseconds() throws {
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    let start = Date()
    _ = try renderer.render(Self.plain, timings: &timings)
    let wall = Date().timeIntervalSince(start) * 1000
    #expect(timings.totalMilliseconds > 0)
    #expect(timings.totalMilliseconds <= wall + 1)
    let phases = timings.uploadMilliseconds + timings.renderMilliseconds + timings.readbackMilliseconds
    #expect(timings.totalMilliseconds >= phases, "\(timings.json)")
    // A second call adds its own.
    let first = timings.totalMilliseconds
    _ = try renderer.render(Renderer.prepare(Self.plain, images: SceneImages([:])), timings: &timings)
    #expect(timings.totalMilliseconds > first)
    var effect = RenderTimings()
    _ = try renderer.render(
      BackgroundExtensionEffect(.init(leadingPixels: 8, trailingPixels: 8, sigmaPixels: 2)),
      on: ProceduralImages.gradient(width: 16, height: 8), timings: &effect)
    #expect(effect.totalMilliseconds > 0)
  }

  /// A scene over a photo file, in two states.
  static func photoScene(in folder: URL) throws -> SceneFile {
    try PNGCodec.write(
      ProceduralImages.landscape(width: 60, height: 40), to: folder.appendingPathComponent("photo.png").path)
    let scene = Scene(width: 60, height: 40, scale: 1, background: .image("photo.png", contentMode: .fill)) {}
      .state("a") { Color.clear.frame(x: 5, y: 10, width: 20, height: 20).glassEffect(in: .circle) }
      .state("b") { Color.clear.frame(x: 35, y: 10, width: 20, height: 20).glassEffect(in: .circle) }
      .transition(from: "a", to: "b", animation: .linear(duration: 0.1))
    return SceneFile(scene: scene, directory: folder.path)
  }

  @Test("a scene file renders in one call, its images read relative to its folder, errors naming the image")
  func renderSceneFile() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.photoScene(in: folder)
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    let image = try renderer.render(file, timings: &timings)
    #expect(image == (try renderer.render(file.scene, images: file.loadImages(), timings: &timings)))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("photo.png"))
    let error = #expect(throws: GlassError.self) { try renderer.render(file) }
    #expect(error?.jsonPath == "background.image", "\(String(describing: error))")
  }

  @Test("an animation takes the images SceneFile.loadImages() gives, or decoded ones, and renders the same frames")
  func animationImages() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.photoScene(in: folder)
    let renderer = try Renderer(backend: .cpu)
    let options = AnimationRenderer.Options(fps: 30)
    func frames(_ animation: AnimationRenderer) throws -> [RGBAImage] {
      var images: [RGBAImage] = []
      try animation.render(on: renderer) { frames, image in images += frames.map { _ in image } }
      return images
    }
    let fromFile = try frames(AnimationRenderer(file: file, options: options))
    let loaded = try frames(AnimationRenderer(scene: file.scene, images: file.loadImages(), options: options))
    // Decoded images, by their path in the scene: nothing is read from disk
    // (the file is gone), the states are checked with them.
    let photo = try PNGCodec.read(path: folder.appendingPathComponent("photo.png").path).image
    try FileManager.default.removeItem(at: folder.appendingPathComponent("photo.png"))
    let decoded = try frames(AnimationRenderer(scene: file.scene, images: ["photo.png": photo], options: options))
    #expect(fromFile.count >= 3 && loaded == fromFile && decoded == fromFile)
  }
}
