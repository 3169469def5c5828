import ArgumentParser
import Foundation
import GLESGlass

/// CPU seconds of writing many outputs into one folder against folders of 100:
/// what a write costs once its folder holds thousands of files.
struct FolderBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "folders",
    abstract: "CPU seconds of writing --count outputs into one folder against folders of --per-folder.",
    discussion: """
      Two ways, each timed with the outputs in one folder and then spread over
      folders of --per-folder, in new folders under the temporary folder:

      - files: --count small PNGs (one encoded 8x8 image) written through the
        library's output file (a temporary renamed into place), on this thread;
      - batch: one `glass-gpu batch` process (the one beside this binary, or
        --glass-gpu) rendering --count jobs of an 8x8 scene given inline in a
        manifest, on the CPU backend.

      CPU seconds are user + system of this process (files, every thread) or of
      the child (batch) over each run; their ratio to the folders' run is what one
      folder costs beyond the writes themselves. Each run's folder is removed after
      it.

      Examples:
        glass-gpu-bench folders
        glass-gpu-bench folders --count 16000 --way batch --glass-gpu /tmp/old/glass-gpu
      """)

  /// What writes the outputs.
  enum Way: String, ExpressibleByArgument, CaseIterable {
    case files
    case batch
  }

  @Option(help: "Outputs written in each run.")
  var count = 16_000

  @Option(help: "Outputs per folder in the spread run.")
  var perFolder = 100

  @Option(parsing: .upToNextOption, help: "files, batch, or both.")
  var way: [Way] = [.files, .batch]

  @Option(
    help: ArgumentHelp("The glass-gpu the batch way runs (default: the one beside this binary).", valueName: "path"))
  var glassGPU: String?

  func validate() throws {
    guard count >= 1 else { throw ValidationError("--count is \(count); give 1 or more") }
    guard perFolder >= 1 else { throw ValidationError("--per-folder is \(perFolder); give 1 or more") }
  }

  func run() throws {
    print("glass-gpu-bench folders: \(count) outputs, one folder against folders of \(perFolder)")
    for way in way {
      var seconds: [Double] = []
      for spread in [false, true] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
          "glass-gpu-bench-folders-\(getpid())-\(way.rawValue)-\(spread ? "spread" : "one")")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let outputs = (0..<count).map { index in
          spread
            ? root.path + "/" + String(format: "%05d/%06d.png", index / perFolder, index)
            : root.path + String(format: "/%06d.png", index)
        }
        let start = Date()
        let cpu: Double
        switch way {
        case .files:
          let before = FluidBench.processCPUSeconds()
          try writeFiles(outputs)
          cpu = FluidBench.processCPUSeconds() - before
        case .batch: cpu = try renderBatch(outputs, in: root)
        }
        seconds.append(cpu)
        print(
          String(
            format: "%@ %@: %.2f s CPU, %.2f s wall", pad(way.rawValue, 6),
            pad(spread ? "folders of \(perFolder)" : "one folder", 16), cpu, Date().timeIntervalSince(start)))
      }
      print(
        String(
          format: "%@ one folder / folders of %d: %.2fx CPU", pad(way.rawValue, 6), perFolder, seconds[0] / seconds[1]))
    }
  }

  /// Writes one small PNG at each path, making its folder first.
  func writeFiles(_ outputs: [String]) throws {
    let image = RGBAImage(width: 8, height: 8) { x, y in SIMD4(UInt8(x * 30), UInt8(y * 30), 128, 255) }
    let bytes = try ImageEncoding().encoded(image, as: .png)
    for path in outputs {
      try FilePaths.makeFolders(FilePaths.folder(of: path))
      try PNGCodec.OutputFile(path: path).write(encoded: bytes)
    }
  }

  /// Renders an 8x8 scene (inline in a manifest) to each path with one `glass-gpu
  /// batch` process on the CPU backend; its CPU seconds (user + system).
  func renderBatch(_ outputs: [String], in root: URL) throws -> Double {
    let scene = #"{"version": 1, "size": {"width": 8, "height": 8}, "scale": 1, "background": "teal"}"#
    let manifest = root.appendingPathComponent("jobs.jsonl")
    let lines = outputs.enumerated().map { index, path in
      #"{"id": "\#(index)", "scene": \#(scene), "output": "\#(path)"}"#
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
    let binary = try glassGPU ?? siblingBinary("glass-gpu")
    let run = try ChildRunner(binary: binary, folder: root).run([
      "batch", "--manifest", manifest.path, "-o", root.path, "--backend", "cpu", "--quiet",
    ])
    guard run.status == 0 else { throw ValidationError("glass-gpu batch exited \(run.status): \(run.firstLines(3))") }
    return run.cpuSeconds
  }
}
