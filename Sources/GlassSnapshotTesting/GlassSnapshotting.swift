import Foundation
import GLESGlass
import SnapshotTesting

extension Snapshotting where Value == GLESGlass.Scene, Format == RGBAImage {
  /// Renders a scene through a `Renderer` and compares it with its reference PNG:
  ///
  ///     assertSnapshot(of: scene, as: .glass(backend: .cpu, scale: 2))
  ///
  /// - Parameters:
  ///   - backend: `.cpu` (the default) renders the same bytes on every machine,
  ///     whatever its thread count: record references with it. `.gpu` differs a
  ///     little from driver to driver; give it a tolerance.
  ///   - scale: pixels per point (1, 2 or 3) instead of the scene's own.
  ///   - directory: the folder the scene's image and font paths are relative to.
  ///   - depth: bits per channel of the render and of the reference PNG.
  ///   - precision: the share of pixels that must match (1: all), as in
  ///     swift-snapshot-testing's image strategies.
  ///   - perceptualPrecision: how close a pixel must be to match: at most
  ///     `(1 - perceptualPrecision) * 100` CIE94 Delta E apart (1: exactly equal),
  ///     as in swift-snapshot-testing's image strategies.
  ///   - cpuThreads: worker threads of the CPU work (nil: one a core).
  ///   - environment: settings over the scene's own environment (a variant:
  ///     `try EnvironmentVariant("dark+rtl")`); nil: the scene's.
  ///   - antiAliasing: a pixel that pixelmatch's detector calls anti-aliasing
  ///     matches (`ComparisonOptions.antiAliasing`, as `goldens --anti-aliasing`).
  ///   - masks: layers, views (by JSON path) or rectangles (points) painted
  ///     magenta in the snapshot, so that what they show never changes it
  ///     (Playwright's `mask`; `goldens --mask`, `--mask-rect`). A mask that
  ///     names nothing fails the test, naming it.
  public static func glass(
    backend: BackendChoice = .cpu, scale: Int? = nil, directory: String = ".", depth: RGBAImage.Depth = .eight,
    precision: Float = 1, perceptualPrecision: Float = 1, cpuThreads: Int? = nil,
    environment: EnvironmentVariant? = nil, antiAliasing: Bool = false, masks: [ComparisonMask] = []
  ) -> Snapshotting {
    Snapshotting<SceneFile, RGBAImage>.glass(
      backend: backend, scale: scale, depth: depth, precision: precision, perceptualPrecision: perceptualPrecision,
      cpuThreads: cpuThreads, environment: environment, antiAliasing: antiAliasing, masks: masks
    ).pullback { scene in SceneFile(scene: scene, directory: directory) }
  }
}

extension Snapshotting where Value == SceneFile, Format == RGBAImage {
  /// Renders a scene file (`SceneFile(path:)`, images relative to its folder)
  /// through a `Renderer` and compares it with its reference PNG; the parameters
  /// are those of `Snapshotting<Scene, RGBAImage>.glass`.
  public static func glass(
    backend: BackendChoice = .cpu, scale: Int? = nil, depth: RGBAImage.Depth = .eight,
    precision: Float = 1, perceptualPrecision: Float = 1, cpuThreads: Int? = nil,
    environment: EnvironmentVariant? = nil, antiAliasing: Bool = false, masks: [ComparisonMask] = []
  ) -> Snapshotting {
    Snapshotting(
      pathExtension: "png",
      diffing: .glassImage(precision: precision, perceptualPrecision: perceptualPrecision, antiAliasing: antiAliasing),
      asyncSnapshot: { file in
        Async { callback in
          do {
            callback(
              try GlassSnapshotRender.render(
                file, backend: backend, scale: scale, depth: depth, threads: cpuThreads, environment: environment,
                masks: masks))
          } catch {
            // Nothing to compare and nothing to record: the failure says why, and
            // the assertion ends when its timeout does, without writing a reference.
            reportSnapshotIssue("the scene could not be rendered: \(error)")
          }
        }
      })
  }
}

/// The renderers of the strategies, one for each backend and thread count, made
/// once and kept warm for every snapshot of the process.
enum GlassSnapshotRender {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var renderers: [String: Renderer] = [:]

  static func renderer(_ backend: BackendChoice, threads: Int?) throws -> Renderer {
    try lock.withLock {
      let key = "\(backend.rawValue)-\(threads.map(String.init) ?? "cores")"
      if let made = renderers[key] { return made }
      let made = try Renderer(backend: backend, cpuThreads: threads)
      renderers[key] = made
      return made
    }
  }

  static func render(
    _ file: SceneFile, backend: BackendChoice, scale: Int?, depth: RGBAImage.Depth, threads: Int?,
    environment: EnvironmentVariant?, masks: [ComparisonMask] = []
  ) throws -> RGBAImage {
    var file = file
    if let scale { file.scene.scale = scale }
    if let environment { file.scene.environment = environment.applied(to: file.scene.environment) }
    do {
      try file.scene.validate()
    } catch let error as GlassError {
      throw file.locate(error)
    }
    let renderer = try renderer(backend, threads: threads)
    var timings = RenderTimings()
    do {
      let images = try file.loadImages()
      let image = try renderer.render(file.scene, images: images, depth: depth, timings: &timings)
      guard !masks.isEmpty else { return image }
      let masked = try ComparisonOptions(masks: masks).maskedPixels(in: file.scene, images: images)
      return ImageComparison.paintingMasks(masked, over: image)
    } catch let error as GlassError {
      throw file.locate(error)
    }
  }
}

extension Dictionary where Key == String, Value == Snapshotting<GLESGlass.Scene, RGBAImage> {
  /// One strategy per variant, named by it, for `assertSnapshots(of:as:)`: each
  /// variant's reference is the test's name then the variant's
  /// (`testSignIn.dark.png`), as named snapshots are.
  ///
  ///     assertSnapshots(of: scene, as: .glass(variants: try EnvironmentVariant.list("light,dark,rtl")))
  ///
  /// The other parameters are those of `Snapshotting<Scene, RGBAImage>.glass`.
  public static func glass(
    variants: [EnvironmentVariant], backend: BackendChoice = .cpu, scale: Int? = nil, directory: String = ".",
    depth: RGBAImage.Depth = .eight, precision: Float = 1, perceptualPrecision: Float = 1, cpuThreads: Int? = nil,
    antiAliasing: Bool = false, masks: [ComparisonMask] = []
  ) -> Self {
    Dictionary(
      uniqueKeysWithValues: variants.map { variant in
        (
          variant.name,
          Snapshotting.glass(
            backend: backend, scale: scale, directory: directory, depth: depth, precision: precision,
            perceptualPrecision: perceptualPrecision, cpuThreads: cpuThreads, environment: variant,
            antiAliasing: antiAliasing, masks: masks)
        )
      })
  }
}
