import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

@main
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "glass-gpu-bench",
    abstract: "Benchmarks of glass-gpu, and the procedural images they use.",
    subcommands: [Generate.self])
}

struct Generate: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Write a procedural landscape PNG.")

  @Argument(help: "Output PNG.")
  var output: String

  @Option var width = 1920
  @Option var height = 1080

  func run() throws {
    try PNGCodec.write(ProceduralImages.landscape(width: width, height: height), to: output, compression: 9)
  }
}
