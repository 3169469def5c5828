import ArgumentParser
import Foundation
import GLESGlass

/// Times the output encoders on a rendered frame, on one thread: glass-gpu's fast
/// PNG encoder (the default), the libdeflate path it replaced, libpng's own
/// writer, JPEG and WebP, and peers from PyPI in the same run.
struct EncodeBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "encode",
    abstract:
      "Time the output encoders on a rendered 1920x1080 frame: PNG (fast, libdeflate, libpng), JPEG, WebP, peers.",
    discussion: """
      The frame is the scene rendered on the CPU backend (by default Landmarks at
      scale 2, 1920x1080 px). Each row encodes it --runs times on this thread after
      one untimed encode; the median is printed with the throughput of raw pixels
      (MB/s of RGBA) and the file size. `fast` is compression 1, what glass-gpu
      writes by default; `libdeflate level 1, up` is what it wrote before. Depth
      w16 is the 8-bit frame widened to 16 bits (each sample times 257, as
      libpng widens an 8-bit file): what a 16-bit render of 8-bit content is.

      Peers from PyPI (fpng, QOI, Pillow's and OpenCV's PNG writers) are timed on
      the same frame in the same run by scripts/encode-peers.py, with --python
      (default: python3 on PATH), where installed:
        python3 -m venv /tmp/peers
        /tmp/peers/bin/pip install numpy fpng qoi pillow opencv-python-headless
        glass-gpu-bench encode --python /tmp/peers/bin/python

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

  @Option(help: "The Python that runs scripts/encode-peers.py (fpng, QOI, Pillow, OpenCV from PyPI).")
  var python = "python3"

  @Flag(help: "Leave out the peers.")
  var noPeers = false

  func run() throws {
    var file = try SceneFile(path: scene)
    if let scale { file.scene.scale = scale }
    let images = try file.loadImages()
    var timings = RenderTimings()
    let renderer = try Renderer(backend: .cpu)
    let eight = try renderer.render(file.scene, images: images, depth: .eight, timings: &timings)
    let sixteen = try renderer.render(file.scene, images: images, depth: .sixteen, timings: &timings)
    guard case .eight(let values) = eight.samples else { return }
    let widened = RGBAImage(size: eight.size, samples: .sixteen(values.map { UInt16($0) * 257 }))
    print("glass-gpu-bench encode: \(scene), \(eight.size) px, median of \(runs) encodes on one thread")
    print(
      "depth  \(pad("encoder", 36))        ms   MB/s of RGBA   file bytes      time     bytes"
        + "   (time and bytes: against libdeflate level 1, up, at that depth)")
    typealias Row = (String, String, () throws -> [UInt8])
    let rows: [Row] = [
      ("fast (compression 1, the default)", "8", { try PNGCodec.encode(eight, with: .fast()) }),
      (
        "libdeflate level 1, up (before)", "8", { try PNGCodec.encode(eight, with: .libdeflate(level: 1, filter: .up)) }
      ),
      ("libdeflate level 6, up", "8", { try PNGCodec.encode(eight, with: .libdeflate(level: 6, filter: .up)) }),
      ("stored (compression 0)", "8", { try PNGCodec.encode(eight, compression: 0) }),
      ("libpng level 1, its filters", "8", { try PNGCodec.encode(eight, with: .libpng(level: 1)) }),
      ("JPEG quality 90 (libjpeg-turbo)", "8", { try ImageEncoding(quality: 90).encoded(eight, as: .jpeg) }),
      ("WebP quality 90 (libwebp)", "8", { try ImageEncoding(quality: 90).encoded(eight, as: .webp) }),
      ("fast (compression 1, the default)", "16", { try PNGCodec.encode(sixteen, with: .fast()) }),
      (
        "libdeflate level 1, up (before)", "16",
        { try PNGCodec.encode(sixteen, with: .libdeflate(level: 1, filter: .up)) }
      ),
      ("libpng level 1, its filters", "16", { try PNGCodec.encode(sixteen, with: .libpng(level: 1)) }),
      ("fast (compression 1, the default)", "w16", { try PNGCodec.encode(widened, with: .fast()) }),
      (
        "libdeflate level 1, up (before)", "w16",
        { try PNGCodec.encode(widened, with: .libdeflate(level: 1, filter: .up)) }
      ),
      (
        "libdeflate level 2, up", "w16",
        { try PNGCodec.encode(widened, with: .libdeflate(level: 2, filter: .up)) }
      ),
    ]
    var measured: [(String, String, Double, Int)] = []
    for (name, depth, encode) in rows {
      let (median, bytes) = try Self.time(runs: runs, encode)
      measured.append((name, depth, median, bytes))
    }
    func find(_ prefix: String, _ depth: String) -> (Double, Int)? {
      measured.first { $0.0.hasPrefix(prefix) && $0.1 == depth }.map { ($0.2, $0.3) }
    }
    func line(_ depth: String, _ name: String, _ median: Double, _ bytes: Int) {
      let raw = Double(eight.size.pixelCount * 4 * (depth == "8" ? 1 : 2))
      let ratios = find("libdeflate level 1", depth).map {
        String(format: "%8.2fx %8.2fx", median / $0.0, Double(bytes) / Double($0.1))
      }
      print(
        String(
          format: "%@  %@ %9.2f %14.0f %12d %@", pad(String(repeating: " ", count: max(0, 5 - depth.count)) + depth, 5),
          pad(name, 36), median, raw / median / 1000, bytes, (ratios ?? "") as NSString))
    }
    for (name, depth, median, bytes) in measured { line(depth, name, median, bytes) }
    if !noPeers { try peers(eight, line: { line("8", $1, $2, $3) }) }
    for depth in ["8", "16"] {
      guard let (old, oldBytes) = find("libdeflate level 1", depth), let fast = find("fast", depth) else { continue }
      let bar = depth == "8" ? "bar: 3x faster, at most 1.25x the bytes" : "bar: 2x faster"
      print(
        String(
          format: "%@-bit: fast is %.2fx faster than libdeflate level 1, at %.2fx its bytes (%@)", depth as NSString,
          old / fast.0, Double(fast.1) / Double(oldBytes), bar as NSString))
    }
    if let (level2, level2Bytes) = find("libdeflate level 2", "w16"), let fast = find("fast", "w16"),
      let eightBit = find("fast", "8")
    {
      print(
        String(
          format:
            "8-bit widened to 16: fast is %.2fx faster than libdeflate level 2, at %.2fx its bytes (bar: at most "
            + "1.25x), %.2fx the 8-bit file", level2 / fast.0, Double(fast.1) / Double(level2Bytes),
          Double(fast.1) / Double(eightBit.1)))
    }
  }

  /// The median milliseconds of `runs` calls after one untimed, and the bytes.
  static func time(runs: Int, _ encode: () throws -> [UInt8]) throws -> (Double, Int) {
    _ = try encode()
    var samples: [Double] = []
    var bytes = 0
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      bytes = try encode().count
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return (Stats(samples).median, bytes)
  }

  /// Runs scripts/encode-peers.py on the frame and prints its rows.
  func peers(_ image: RGBAImage, line: (Int, String, Double, Int) -> Void) throws {
    guard case .eight(let values) = image.samples else { return }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("glass-gpu-encode-\(getpid()).rgba")
    try Data(values).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      python, "scripts/encode-peers.py", path.path, "\(image.width)", "\(image.height)", "\(runs)",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    do {
      try process.run()
    } catch {
      print("peers: left out, \(python) does not run (\(error))")
      return
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    for text in String(decoding: output, as: UTF8.self).split(separator: "\n") {
      guard let row = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        let name = row["name"] as? String
      else { continue }
      if let missing = row["missing"] as? String {
        print("    8  \(pad(name, 36)) not installed: \(missing)")
      } else if let ms = row["ms"] as? Double, let bytes = row["bytes"] as? Int {
        line(8, name, ms, bytes)
      }
    }
  }
}
