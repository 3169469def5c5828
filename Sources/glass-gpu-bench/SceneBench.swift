import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

/// Times scene renders, upload to readback, in a warm process.
struct SceneBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scene",
    abstract: "Time rendering scene files (upload to readback) on each backend, warm.",
    discussion: """
      Each scene is rendered --warmup times, then timed --runs times; medians (and
      minima) of upload + render + readback are printed, with a full-frame calibration
      pass of the same canvas for scale.

      Example:
        glass-gpu-bench scene Assets/scenes/landmarks.json
      """)

  @Argument(help: "Scene files.")
  var scenes: [String] = ["Assets/scenes/landmarks.json"]

  @Option(help: "Backends to time: gpu, cpu or both.")
  var backend: String = "both"

  @Option var warmup = 3
  @Option var runs = 15

  func run() throws {
    let backends: [BackendChoice] = backend == "both" ? [.gpu, .cpu] : [BackendChoice(rawValue: backend) ?? .gpu]
    for path in scenes {
      let file = try SceneFile(path: path)
      let images = try file.loadImages()
      print(
        "glass-gpu-bench scene: \(path), \(file.scene.pixelSize) px, median of \(runs) runs after \(warmup) warm-up")
      for choice in backends {
        let renderer: Renderer
        do { renderer = try Renderer(backend: choice) } catch {
          print("  \(choice.rawValue): unavailable (\(error))")
          continue
        }
        defer { renderer.close() }
        let totals = try time { t in _ = try renderer.render(file.scene, images: images, timings: &t) }
        let canvas = RGBAImage(size: file.scene.pixelSize, depth: .eight)
        let pass = try time { t in _ = try renderer.renderCalibrationPass(on: canvas, timings: &t) }
        print(
          String(
            format: "  %@: %.2f ms (min %.2f)   calibration full-frame pass %.2f ms", choice.rawValue as NSString,
            totals.median, totals.minimum, pass.median))
      }
    }
  }

  func time(_ body: (inout RenderTimings) throws -> Void) throws -> Stats {
    var samples: [Double] = []
    for i in 0..<(warmup + runs) {
      var t = RenderTimings()
      try body(&t)
      if i >= warmup { samples.append(t.uploadMilliseconds + t.renderMilliseconds + t.readbackMilliseconds) }
    }
    return Stats(samples)
  }
}

/// Shows that glass costs in proportion to its area: 1, 4 and 16 small glass shapes
/// over a 1920x1080 photo, each drawn over only its own pixels.
struct GlassScalingBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "glass-scaling",
    abstract: "Time 0, 1, 4 and 16 small glass shapes on a 1920x1080 canvas: cost grows with glass area.")

  @Option var warmup = 3
  @Option var runs = 15
  @Option(help: "Backends to time: gpu, cpu or both.")
  var backend: String = "both"

  func run() throws {
    let photo = ProceduralImages.landscape(width: 960, height: 540)
    let photo1080 = ProceduralImages.landscape(width: 1920, height: 1080)
    let images = ["photo.png": photo]
    func scene(_ count: Int, contained: Bool = false) -> Scene {
      var layers: [Layer] = [
        .image(ImageLayer(source: "photo.png", frame: PointRect(x: 0, y: 0, width: 960, height: 540)))
      ]
      let columns = 8
      let glass = (0..<count).map { i in
        GlassLayer(
          glass: .regular, shape: .capsule,
          frame: PointRect(x: 40 + Double(i % columns) * 110, y: 60 + Double(i / columns) * 120, width: 88, height: 44))
      }
      layers += contained ? [.container(GlassContainer(spacing: 20, glass: glass))] : glass.map { .glass($0) }
      return Scene(size: PointSize(width: 960, height: 540), scale: 2, layers: layers)
    }
    let backends: [BackendChoice] = backend == "both" ? [.gpu, .cpu] : [BackendChoice(rawValue: backend) ?? .gpu]
    // A glass pass draws the capsule and its shadow out to 4 sigma (GlassEffect.writeBounds).
    let optics = GlassOptics(.regular)
    let reach = 4 * optics.shadowRadius * 2 / 2 + 1
    let covered =
      (176 + 2 * reach + abs(optics.shadowOffsetX) * 2) * (88 + 2 * reach + abs(optics.shadowOffsetY) * 2)
    print(
      "glass-gpu-bench glass-scaling: 1920x1080 photo, capsules of 176x88 px each (a glass pass covers "
        + "\(Int((covered / 1000).rounded()))k px with its shadow), median of \(runs)")
    for choice in backends {
      let renderer = try Renderer(backend: choice)
      defer { renderer.close() }
      func time(_ s: Scene) throws -> Double {
        var samples: [Double] = []
        for i in 0..<(warmup + runs) {
          var t = RenderTimings()
          _ = try renderer.render(s, images: images, timings: &t)
          if i >= warmup { samples.append(t.uploadMilliseconds + t.renderMilliseconds + t.readbackMilliseconds) }
        }
        return Stats(samples).median
      }
      let base = try time(scene(0))
      var pass: [Double] = []
      for _ in 0..<(warmup + runs) {
        var t = RenderTimings()
        _ = try renderer.renderCalibrationPass(on: photo1080, timings: &t)
        pass.append(t.renderMilliseconds)
      }
      print(
        String(
          format: "  %@  no glass: %.2f ms   (one full-frame pass: %.2f ms)", choice.rawValue as NSString, base,
          Stats(Array(pass.dropFirst(warmup))).median))
      for (count, contained) in [(1, false), (4, false), (16, false), (16, true)] {
        let median = try time(scene(count, contained: contained))
        let label = contained ? "16 shapes in one container" : "\(count) separate shapes"
        print(
          String(
            format: "  %@  %-26@ %7.2f ms   +%.2f ms, %.2f ms per shape", choice.rawValue as NSString,
            label as NSString,
            median, median - base, (median - base) / Double(count)))
      }
    }
  }
}
