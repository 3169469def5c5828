import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

// Long lists given in files (`--mask-file`, `--environments-file`): what the
// command line cannot hold (one argument is capped at 128 KiB) or parses too
// slowly (repeated options cost the square of their number in ArgumentParser).
// The speed is measured by `glass-gpu-bench options`, not here.

@Suite("List files: --mask-file and --environments-file")
struct ListFileOptionTests {
  /// 10,000 distinct variant names, three presets each (`dark+rtl+xLarge`).
  static let tenThousandVariants: [String] = {
    let words = EnvironmentVariant.presets.map(\.word)
    return (0..<10_000).map { i in
      [i % words.count, i / words.count % words.count, i / (words.count * words.count)].map { words[$0] }
        .joined(separator: "+")
    }
  }()

  /// A scene of one colour at 1x; with `leftHalf`, its left half another colour.
  static func scene(width: Int, height: Int, leftHalf: String? = nil) -> String {
    SceneJSON.scene(
      width: width, height: height, scale: 1, background: "#336699",
      layers: leftHalf.map {
        #"{"type": "shape", "shape": "rect", "fill": "\#($0)", "frame": {"x": 0, "y": 0, "width": \#(width / 2), "height": \#(height)}}"#
      })
  }

  @Test("a 10,000-variant environments file renders every variant: one output and one job each")
  func tenThousandVariants() throws {
    #expect(Set(Self.tenThousandVariants).count == 10_000)
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.scene(width: 2, height: 2).write(
      to: root.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    // Comments, blank lines and a few lines of several variants, as the format allows.
    var lines = ["# the matrix", ""]
    var index = 0
    while index < Self.tenThousandVariants.count {
      let width = index % 7 == 0 ? 3 : 1
      let line = Self.tenThousandVariants[index..<min(index + width, Self.tenThousandVariants.count)]
      lines.append(line.joined(separator: ", ") + (index % 11 == 0 ? "   # a comment" : ""))
      index += width
      if index % 500 == 0 { lines.append("") }
    }
    let file = root.appendingPathComponent("environments.txt")
    try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    #expect(try Data(contentsOf: file).count > 128 << 10, "more than one argument can hold")
    let result = try runCLI(
      ["batch", "s.json", "-o", "out", "--backend", "cpu", "--environments-file", file.path], in: root, timeout: 600)
    #expect(result.status == 0, "\(result.stderr.suffix(2000))")
    #expect(result.stderr.contains("batch: 10000 jobs, 10000 rendered, 0 failed"), "\(result.stderr.suffix(2000))")
    let outputs = Set(files(in: root.appendingPathComponent("out")))
    #expect(outputs == Set(Self.tenThousandVariants.map { "s.\($0).png" }))
  }

  @Test(
    "a bad line of an environments file is a usage error naming the option, the file, the line and the fix, on every command",
    arguments: [
      ["batch", "s.json", "-o", "out"], ["goldens", "s.json", "--references", "refs"], ["audit", "s.json"],
    ])
  func badEnvironmentsFile(command: [String]) throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.scene(width: 4, height: 4).write(
      to: root.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let cases: [(String, [String])] = [
      (
        "# variants\nlight\n\ndark, dark+rtl\ndarkk\n",
        ["--environments-file: env.txt:5:", "\"darkk\"", "is not a preset", "setting=value"]
      ),
      (
        "light\ndark\n# again\ndark\n",
        ["env.txt:4:", "\"dark\" is given twice (first on line 2)", "name each variant once"]
      ),
      ("light,,dark\n", ["env.txt:1:", "a variant's name is empty"]),
      ("# nothing\n\n", ["env.txt:", "names no variant", "write one a line"]),
      ("colorScheme=purple\n", ["env.txt:1:", "purple"]),
    ]
    for (text, words) in cases {
      try text.write(to: root.appendingPathComponent("env.txt"), atomically: true, encoding: .utf8)
      let result = try runCLI(command + ["--environments-file", "env.txt"], in: root, timeout: 60)
      #expect(result.status == 64, "\(text): \(result.stderr)")
      for word in words { #expect(result.stderr.contains(word), "\(text): no \(word) in \(result.stderr)") }
    }
    let missing = try runCLI(command + ["--environments-file", "none.txt"], in: root, timeout: 60)
    #expect(missing.status == 64 && missing.stderr.contains("cannot read the environments file none.txt"))
    // A variant in both --environments and the file would write one output twice.
    try "light\ndark\n".write(to: root.appendingPathComponent("env.txt"), atomically: true, encoding: .utf8)
    let twice = try runCLI(
      command + ["--environments", "dark", "--environments-file", "env.txt"], in: root, timeout: 60)
    #expect(twice.status == 64 && twice.stderr.contains("\"dark\" is given in --environments too"), "\(twice.stderr)")
  }

  @Test("30,000 masks from a file leave out what they cover; a bad line is a usage error naming the file and the line")
  func maskFile() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("s.json")
    try Self.scene(width: 40, height: 30).write(to: scene, atomically: true, encoding: .utf8)
    let record = try runCLI(["goldens", "s.json", "--references", "refs", "--record", "missing", "--quiet"], in: root)
    #expect(record.status == 2, "\(record.stdout) \(record.stderr)")
    // The left half changes.
    try Self.scene(width: 40, height: 30, leftHalf: "#ff0000").write(to: scene, atomically: true, encoding: .utf8)
    // 1x1-point rectangles over the left half, 25 times over: 30,000 lines, with comments and blank lines.
    var lines = ["# the left half, point by point", ""]
    for i in 0..<30_000 { lines.append("\(i % 20),\(i / 20 % 30),1,1") }
    lines.insert("   # indented comment", at: 500)
    lines.insert("", at: 20_000)
    try lines.joined(separator: "\n").write(
      to: root.appendingPathComponent("masks.txt"), atomically: true, encoding: .utf8)
    let masked = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--mask-file", "masks.txt"], in: root, timeout: 300)
    #expect(masked.status == 0, "\(masked.stdout) \(masked.stderr)")
    // All but the last column of the half: the change shows.
    try lines.filter { !$0.hasPrefix("19,") }.joined(separator: "\n").write(
      to: root.appendingPathComponent("short.txt"), atomically: true, encoding: .utf8)
    let short = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--mask-file", "short.txt"], in: root, timeout: 300)
    #expect(short.status == 1, "\(short.stdout) \(short.stderr)")
    // Paths and rectangles mix, and several files add up.
    try "layers[0]\n".write(to: root.appendingPathComponent("path.txt"), atomically: true, encoding: .utf8)
    let path = try runCLI(
      ["goldens", "s.json", "--references", "refs", "--mask-file", "path.txt", "--mask-file", "short.txt"], in: root)
    #expect(path.status == 0, "\(path.stdout) \(path.stderr)")

    for (text, words) in [
      (
        "0,0,1,1\n# two\n1,2,3\n", ["--mask-file: bad.txt:3:", "\"1,2,3\"", "x,y,width,height", "such as 10,20,100,44"]
      ),
      ("0,0,1,1\n-1,0,0,5\n", ["bad.txt:2:", "\"-1,0,0,5\"", "positive width and height"]),
      ("0,0,nan,1\n", ["bad.txt:1:", "\"0,0,nan,1\""]),
    ] {
      try text.write(to: root.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)
      let result = try runCLI(["goldens", "s.json", "--references", "refs", "--mask-file", "bad.txt"], in: root)
      #expect(result.status == 64, "\(text): \(result.stderr)")
      for word in words { #expect(result.stderr.contains(word), "\(text): no \(word) in \(result.stderr)") }
    }
    let folder = try runCLI(["goldens", "s.json", "--references", "refs", "--mask-file", "refs"], in: root)
    #expect(folder.status == 64 && folder.stderr.contains("the mask file refs is a folder"), "\(folder.stderr)")
  }

  @Test("a list file is an input: the JUnit report is not written over it")
  func listFilesAreInputs() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.scene(width: 4, height: 4).write(
      to: root.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let masks = root.appendingPathComponent("masks.txt")
    try "0,0,1,1\n".write(to: masks, atomically: true, encoding: .utf8)
    let env = root.appendingPathComponent("env.txt")
    try "light\n".write(to: env, atomically: true, encoding: .utf8)
    for (option, file) in [("--mask-file", "masks.txt"), ("--environments-file", "env.txt")] {
      let before = try Data(contentsOf: root.appendingPathComponent(file))
      let result = try runCLI(
        ["goldens", "s.json", "--references", "refs", "--record", "all", option, file, "--junit", file], in: root)
      #expect(result.status == 1, "\(option): \(result.stdout) \(result.stderr)")
      #expect(try Data(contentsOf: root.appendingPathComponent(file)) == before, "\(option): the list file changed")
    }
  }
}
