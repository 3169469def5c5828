import ArgumentParser
import Foundation
import GLESGlass

/// CPU seconds of `glass-gpu goldens` given many masks or variants: repeated
/// options on the command line against the same list in a file.
struct OptionsBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "options",
    abstract: "CPU seconds of goldens with many masks on the command line (--mask-rect) or in a file (--mask-file).",
    discussion: """
      Each row is one `glass-gpu goldens` process (the one beside this binary),
      its user + system CPU seconds and wall seconds:

      - masks: a real check of one 40x30-point scene against its reference, with
        N 1x1-point mask rectangles over its canvas, given as N repeated
        --mask-rect options (ArgumentParser's cost of repeated options grows with
        their square) or as one --mask-file of N lines;
      - variants: N variants in one --environments-file, read and checked, the
        check then stopped by a references folder that does not exist (what is
        timed is reading the list, not rendering N variants).

      The cost of a file should grow with N; the command line's with N squared.
      Files and folders are made under the temporary folder and removed after.

      Examples:
        glass-gpu-bench options
        glass-gpu-bench options --command-line 1000 3000 6000 --file 3000 30000 300000
      """)

  @Option(parsing: .upToNextOption, help: "Mask counts given as repeated --mask-rect options.")
  var commandLine: [Int] = [1000, 3000, 6000]

  @Option(parsing: .upToNextOption, help: "Mask counts given in a --mask-file.")
  var file: [Int] = [3000, 30_000, 300_000]

  @Option(parsing: .upToNextOption, help: "Variant counts given in an --environments-file.")
  var variants: [Int] = [1000, 10_000, 100_000]

  func validate() throws {
    for n in commandLine + file + variants where n < 1 {
      throw ValidationError("every count must be 1 or more; \(n) is not")
    }
  }

  func run() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "glass-gpu-bench-options-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let runner = ChildRunner(binary: try siblingBinary("glass-gpu"), folder: root)
    let scene = runner.path("scene.json")
    let references = runner.path("refs")
    try Data(
      ##"{"version": 1, "size": {"width": 40, "height": 30}, "scale": 1, "background": "#336699"}"##.utf8
    ).write(to: URL(fileURLWithPath: scene))
    let record = try runner.run(["goldens", scene, "--references", references, "--record", "missing", "--quiet"])
    guard record.status == 2 else { throw ValidationError("recording the reference failed: \(record.stderr)") }
    /// `n` mask rectangles of 1x1 point over the 40x30 canvas.
    func rects(_ n: Int) -> [String] { (0..<n).map { "\($0 % 40),\($0 / 40 % 30),1,1" } }

    print("glass-gpu-bench options: glass-gpu goldens, one process a row; CPU s (user + system), wall s")
    print("what                                count      CPU s     wall s  CPU us per item")
    func row(_ what: String, _ n: Int, _ arguments: [String], expecting status: Int32) throws {
      let run = try runner.run(arguments)
      guard run.status == status else {
        throw ValidationError("\(what) \(n): exit \(run.status), not \(status): \(run.firstLines(3))")
      }
      print(
        String(
          format: "%@ %8d %10.3f %10.3f %12.2f", what.padding(toLength: 32, withPad: " ", startingAt: 0) as NSString, n,
          run.cpuSeconds, run.seconds,
          run.cpuSeconds / Double(n) * 1e6))
    }
    let check = ["goldens", scene, "--references", references]
    for n in commandLine {
      try row("masks, repeated --mask-rect", n, check + rects(n).flatMap { ["--mask-rect", $0] }, expecting: 0)
    }
    for n in file {
      let list = runner.path("masks-\(n).txt")
      try Data(("# \(n) masks\n" + rects(n).joined(separator: "\n") + "\n").utf8).write(
        to: URL(fileURLWithPath: list))
      try row("masks, --mask-file", n, check + ["--mask-file", list], expecting: 0)
    }
    let words = EnvironmentVariant.presets.map(\.word)
    for n in variants {
      let list = runner.path("variants-\(n).txt")
      // Distinct names: n written in base words.count, one preset a digit.
      let names = (0..<n).map { i -> String in
        var digits: [String] = []
        var rest = i
        repeat {
          digits.append(words[rest % words.count])
          rest /= words.count
        } while rest > 0
        return digits.joined(separator: "+")
      }
      try Data((names.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: list))
      try row(
        "variants, --environments-file", n,
        ["goldens", scene, "--references", runner.path("none"), "--environments-file", list], expecting: 1)
    }
  }
}
