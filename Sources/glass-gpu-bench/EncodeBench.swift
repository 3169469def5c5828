import ArgumentParser
import Foundation
import GLESGlass

/// Times the PNG encoder on a rendered frame: each row filter and level, 8 and
/// 16 bits, on one thread.
struct EncodeBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "encode",
    abstract: "Time the PNG encoder (filter and deflate) on a rendered 1920x1080 frame, per filter, level and depth.",
    discussion: """
      The frame is the scene rendered on the CPU backend (by default Landmarks at
      scale 2, 1920x1080 px). Each row encodes it --runs times on this thread after
      one untimed encode; the median is printed with the throughput of raw pixels
      and the file size. `up, level 1` is what glass-gpu writes by default.

      Example:
        glass-gpu-bench encode
        glass-gpu-bench encode --scene Assets/scenes/badges.json --scale 2
      """)

  @Option(help: "The scene rendered for the frame.")
  var scene = "Assets/scenes/landmarks.json"

  @Option(help: "Pixels per point (the scene's own by default).")
  var scale: Int?

  @Option(help: "Timed encodes per row.")
  var runs = 9

  func run() throws {
    var file = try SceneFile(path: scene)
    if let scale { file.scene.scale = scale }
    let images = try file.loadImages()
    var timings = RenderTimings()
    let renderer = try Renderer(backend: .cpu)
    let eight = try renderer.render(file.scene, images: images, depth: .eight, timings: &timings)
    let sixteen = try renderer.render(file.scene, images: images, depth: .sixteen, timings: &timings)
    print("glass-gpu-bench encode: \(scene), \(eight.size) px, median of \(runs) encodes on one thread")
    print("depth  filter  level   encode ms    MB/s of pixels   file bytes   vs up, level 1")
    let rows: [(RGBAImage, PNGCodec.RowFilter, Int)] = [
      (eight, .up, 1), (eight, .sub, 1), (eight, .none, 1), (eight, .up, 6), (eight, .none, 0),
      (sixteen, .up, 1), (sixteen, .sub, 1),
    ]
    var reference: [Int: Double] = [:]
    for (image, filter, level) in rows {
      _ = try PNGCodec.encode(image, compression: level, filter: filter)
      var samples: [Double] = []
      var bytes = 0
      for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        bytes = try PNGCodec.encode(image, compression: level, filter: filter).count
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      }
      let median = Stats(samples).median
      let depth = image.depth.rawValue
      if filter == .up && level == 1 { reference[depth] = median }
      let rawBytes = Double(image.size.pixelCount * 4 * depth / 8)
      let ratio = reference[depth].map { String(format: "%.2fx time", median / $0) } ?? ""
      print(
        String(
          format: "%5d  %@  %5d  %10.2f  %15.0f  %11d   %@", depth,
          "\(filter)".padding(toLength: 6, withPad: " ", startingAt: 0) as NSString, level, median,
          rawBytes / median / 1000, bytes, ratio as NSString))
    }
  }
}
