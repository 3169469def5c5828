import Foundation
import GlassTestSupport
import Testing

// What the commands do with option values a user can get wrong, run through the
// real binary: a value that starts with `-` is read as the option's value and
// then accepted or refused by name, and settings are checked before anything is
// loaded. Both are usage errors, exit 64, as ArgumentParser's own are.

@Suite("Command-line values: negative numbers and environment settings")
struct CommandLineValueTests {
  /// `glass-gpu ARGS` must exit 64 with a line that says `words` (the option,
  /// its value and what to give), never "Missing value".
  private func expectUsageError(
    _ arguments: [String], saying words: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try runCLI(arguments, timeout: 60)
    let command = "glass-gpu \(arguments.joined(separator: " "))"
    #expect(result.status == 64, "\(command): exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    #expect(!result.stderr.contains("Missing value"), "\(command): \(result.stderr)", sourceLocation: sourceLocation)
    for word in words {
      #expect(
        result.stderr.contains(word), "\(command): no \"\(word)\" in \(result.stderr)", sourceLocation: sourceLocation)
    }
  }

  // Scenes that do not exist: a value refused by validate() is refused before
  // any file is read, so the error is about the value, not the file.
  static let scene = "/nonexistent/scene.json"

  @Test(
    "a negative number given to a numeric option is read as its value and refused naming the option, the value and the range",
    arguments: [
      (["render", scene, "-o", "/tmp/x.png", "--scale", "-1"], ["--scale is -1", "give 1, 2 or 3"]),
      (["render", scene, "-o", "/tmp/x.png", "--max-pixels", "-1"], ["--max-pixels is -1", "give 1 to"]),
      (["render", scene, "-o", "/tmp/x.png", "--time", "-1"], ["--time is -1;", "0 or more"]),
      (["render", scene, "-o", "/tmp/x.png", "--time", "-0.5"], ["--time is -0.5;", "0 or more"]),
      (["render", scene, "-o", "/tmp/x.png", "--depth", "-8"], ["--depth is -8", "give 8 or 16"]),
      (["render", scene, "-o", "/tmp/x.png", "--compression", "-1"], ["--compression is -1", "give 0 to 12"]),
      (["render", scene, "-o", "/tmp/x.jpg", "--quality", "-5"], ["--quality is -5", "1 (smallest) to 100"]),
      (["validate", scene, "--scale", "-2"], ["--scale is -2", "give 1, 2 or 3"]),
      (["layout", scene, "--scale", "-3"], ["--scale is -3", "give 1, 2 or 3"]),
      (["layout", scene, "--max-pixels", "-10"], ["--max-pixels is -10", "give 1 to"]),
      (["parity", scene, "--max-diff", "-1"], ["--max-diff is -1;", "0 or more"]),
      (["parity", scene, "--max-share", "-0.1"], ["--max-share is -0.1;", "from 0 to 100"]),
      (["compare", "a.png", "b.png", "--max-diff", "-2"], ["--max-diff is -2;", "0 or more"]),
      (["compare", "a.png", "b.png", "--max-share", "-1"], ["--max-share is -1;", "from 0 to 100"]),
      (["compare", "a.png", "b.png", "--max-pixels", "-1"], ["--max-pixels is -1", "give 1 to"]),
      (["extend", "a.png", "-o", "/tmp/x.png", "--leading", "-3", "--trailing", "0"], ["-3"]),
      (
        ["extend", "a.png", "-o", "/tmp/x.png", "--leading", "0", "--trailing", "0", "--depth", "-16"],
        ["--depth is -16"]
      ),
      (
        ["extend", "a.png", "-o", "/tmp/x.png", "--leading", "0", "--trailing", "0", "--max-pixels", "-1"],
        ["--max-pixels is -1"]
      ),
      (["animate", scene, "-o", "/tmp/frames", "--fps", "-30"], ["--fps is -30;", "above 0"]),
      (["animate", scene, "-o", "/tmp/frames", "--hold", "-1"], ["--hold is -1 s", "give 0 to"]),
      (["animate", scene, "-o", "/tmp/frames", "--jobs", "-1"], ["--jobs is -1", "give 1 to 64"]),
      (["batch", scene, "-o", "/tmp/out", "--jobs", "-2"], ["--jobs is -2", "give 1 to 256"]),
      (["batch", scene, "-o", "/tmp/out", "--scale", "-1"], ["--scale is -1", "give 1, 2 or 3"]),
      (["batch", scene, "-o", "/tmp/out", "--depth", "-8"], ["--depth is -8"]),
      (["batch", scene, "-o", "/tmp/out", "--max-pixels", "-1"], ["--max-pixels is -1"]),
      (["batch", scene, "-o", "/tmp/out", "--image-cache", "-1"], ["--image-cache is -1 MiB", "give 0 to"]),
      (["batch", scene, "-o", "/tmp/out", "--text-cache", "-1"], ["--text-cache is -1 MiB", "give 0 to"]),
      (["goldens", scene, "--references", "/tmp/refs", "--max-diff", "-1"], ["--max-diff is -1;", "0 or more"]),
      (["goldens", scene, "--references", "/tmp/refs", "--max-share", "-5"], ["--max-share is -5;", "from 0 to 100"]),
      (["goldens", scene, "--references", "/tmp/refs", "--scale", "-1"], ["--scale is -1"]),
      (["goldens", scene, "--references", "/tmp/refs", "--jobs", "-1"], ["--jobs is -1", "give 1 to 256"]),
      (
        ["goldens", scene, "--references", "/tmp/refs", "--cpu-threads", "-4"],
        ["--cpu-threads is -4", "give 1 to 256"]
      ),
      (["goldens", scene, "--references", "/tmp/refs", "--max-pixels", "-1"], ["--max-pixels is -1"]),
      (["goldens", scene, "--references", "/tmp/refs", "--mask-rect", "-1,2,3"], ["--mask-rect", "\"-1,2,3\""]),
    ])
  func negativeNumbers(arguments: [String], words: [String]) throws {
    try expectUsageError(arguments, saying: words)
  }

  @Test("a mask rectangle that starts left of the canvas is a value of --mask-rect, and is used")
  func negativeMaskRect() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("scene.json")
    let refs = root.appendingPathComponent("refs")
    try sceneJSON(width: 40, height: 30, color: "#336699").write(to: scene, atomically: true, encoding: .utf8)
    let record = try runCLI(["goldens", scene.path, "--references", refs.path, "--record", "missing", "--quiet"])
    #expect(record.status == 2, "\(record.stdout) \(record.stderr)")
    // The left half changes; a rectangle from x = -10 covers it.
    try sceneJSON(width: 40, height: 30, color: "#336699", leftHalf: "#ff0000")
      .write(to: scene, atomically: true, encoding: .utf8)
    let masked = try runCLI(["goldens", scene.path, "--references", refs.path, "--mask-rect", "-10,-5,30,40"])
    #expect(masked.status == 0, "\(masked.stdout) \(masked.stderr)")
    let bare = try runCLI(["goldens", scene.path, "--references", refs.path])
    #expect(bare.status == 1, "\(bare.stdout) \(bare.stderr)")
  }

  @Test(
    "a bad --environment is a usage error (64) found before the scene is read, on every command that takes it",
    arguments: [
      ["render", scene, "-o", "/tmp/x.png"], ["validate", scene], ["parity", scene], ["audit", scene],
      ["layout", scene], ["animate", scene, "-o", "/tmp/frames"],
    ])
  func badEnvironment(command: [String]) throws {
    try expectUsageError(
      command + ["--environment", "colourScheme=dark"],
      saying: ["--environment: there is no environment setting \"colourScheme\"", "colorScheme"])
    try expectUsageError(
      command + ["--environment", "colorScheme=purple"], saying: ["--environment:", "purple", "dark"])
    try expectUsageError(command + ["--environment", "dark"], saying: ["--environment:", "name=value"])
  }

  @Test("a good --environment still renders in it")
  func goodEnvironment() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("scene.json")
    try sceneJSON(width: 20, height: 10, color: "#336699").write(to: scene, atomically: true, encoding: .utf8)
    let result = try runCLI(["validate", scene.path, "--environment", "colorScheme=dark,layoutDirection=rightToLeft"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A scene of one colour at 1x; with `leftHalf`, its left half another colour.
  private func sceneJSON(width: Int, height: Int, color: String, leftHalf: String? = nil) -> String {
    SceneJSON.scene(
      width: width, height: height, scale: 1, background: color,
      layers: leftHalf.map {
        #"{"type": "shape", "shape": "rect", "fill": "\#($0)", "frame": {"x": 0, "y": 0, "width": \#(width / 2), "height": \#(height)}}"#
      })
  }
}
