import ArgumentParser
import Foundation
import GLESGlass

/// Times the grouping of a container's glass into blend groups
/// (`GlassEffect.blendGroups`) against testing every pair, in process, and
/// glass-gpu validating scenes of many glass shapes end to end.
struct GroupingBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "grouping",
    abstract: "Time grouping many glass shapes into blend groups, and validating scenes of many glass shapes.",
    discussion: """
      In process: GlassEffect.blendGroups (a grid of cells per size, union-find,
      refused as soon as a group passes 16 shapes) against the pairwise grouping it
      replaced (every pair tested, then refused), on shapes that all overlap and on
      shapes set apart, for each count. The pairwise grouping is skipped above
      --pairwise-limit shapes (its time grows with the square of the count).

      End to end: glass-gpu validate (the binary beside this one, or --glass-gpu,
      say an older build) on overlapping glass layers outside any container (each
      estimates the backdrop under it, every layer below included: n² work with a
      small constant, refused past the memory limit), a glass container of
      overlapping shapes, the same as glass views in a GlassEffectContainer, and
      both again with the shapes set apart; each run is its own process, killed after --timeout seconds. CPU seconds are
      the child's user plus system time.

      Example:
        glass-gpu-bench grouping --counts 1000,3000,20000
        glass-gpu-bench grouping --glass-gpu /tmp/old/glass-gpu --pairwise-limit 0
      """)

  @Option(help: "Shape counts, comma-separated.")
  var counts = "1000,3000,20000"

  @Option(help: "The largest count the pairwise grouping is timed at.")
  var pairwiseLimit = 3_000

  @Option(help: "The glass-gpu to run end to end (default: the one beside this benchmark).")
  var glassGPU: String?

  @Option(help: "Seconds after which an end-to-end run is killed.")
  var timeout = 300.0

  @Flag(help: "Only the in-process timings.")
  var skipCommands = false

  func run() throws {
    let sizes = counts.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    print("glass-gpu-bench grouping: blend groups of n glass shapes (limit \(GlassComposite.maximumMembers) a group)")
    print("in process       n   layout        grid ms   pairwise ms   result")
    for n in sizes {
      for (name, shapes, radius) in [
        ("overlapping", Self.overlapping(n), Float(0)), ("apart", Self.apart(n), Float(4)),
      ] {
        let start = Date()
        let groups = GlassEffect.blendGroups(shapes, blendRadius: radius, maximumMembers: GlassComposite.maximumMembers)
        let grid = Date().timeIntervalSince(start) * 1000
        var pairwise = "skipped"
        if n <= pairwiseLimit {
          let t = Date()
          let reference = Self.pairwise(shapes, blendRadius: radius, maximumMembers: GlassComposite.maximumMembers)
          pairwise = String(format: "%.1f", Date().timeIntervalSince(t) * 1000)
          guard reference?.count == groups?.count else {
            throw ValidationError("the two groupings differ for \(n) \(name) shapes")
          }
        }
        let result = groups.map { "\($0.count) groups" } ?? "refused"
        print(
          "           \(String(format: "%6d", n))   \(name.padding(toLength: 11, withPad: " ", startingAt: 0))"
            + String(format: "%10.1f", grid) + "   \(pairwise.leftPadded(11))   \(result)")
      }
    }
    guard !skipCommands else { return }
    let binary =
      glassGPU.map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("glass-gpu")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glass-gpu-grouping-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("end to end: \(binary.path) validate, each its own process")
    print("command          n   scene                   status   wall s    CPU s")
    for n in sizes {
      for (name, json) in Self.scenes(n) {
        let path = folder.appendingPathComponent("\(name)-\(n).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let run = try Self.measure(binary, ["validate", path], timeout: timeout)
        print(
          "validate   \(String(format: "%6d", n))   \(name.padding(toLength: 22, withPad: " ", startingAt: 0))"
            + "\(run.status.leftPadded(7))" + String(format: "%9.2f%9.2f", run.wall, run.cpu))
      }
    }
  }

  /// `n` circles of 20 px radius within 10 px of one point: one group, refused.
  static func overlapping(_ n: Int) -> [ShapeGeometry] {
    var random = SystemRandomNumberGenerator()
    return (0..<n).map { _ in
      ShapeGeometry(
        ellipseCenter: SIMD2(
          200 + Float.random(in: 0..<10, using: &random), 200 + Float.random(in: 0..<10, using: &random)),
        halfSize: SIMD2(20, 20))
    }
  }

  /// `n` capsules 40 × 20 px on a grid 60 px apart: none linked.
  static func apart(_ n: Int) -> [ShapeGeometry] {
    let columns = Int(Double(n).squareRoot().rounded(.up))
    return (0..<n).map { i in
      ShapeGeometry(
        roundedBoxCenter: SIMD2(Float(i % columns) * 60, Float(i / columns) * 60), halfSize: SIMD2(20, 10),
        radii: SIMD4(repeating: 10))
    }
  }

  /// The grouping `blendGroups` replaced: every pair tested, the groups counted
  /// after, then refused when one is over `maximumMembers`.
  static func pairwise(_ shapes: [ShapeGeometry], blendRadius: Float, maximumMembers: Int) -> [[Int]]? {
    var parent = Array(shapes.indices)
    func root(_ i: Int) -> Int {
      var i = i
      while parent[i] != i {
        parent[i] = parent[parent[i]]
        i = parent[i]
      }
      return i
    }
    let reach = blendRadius > 0 ? Double(blendRadius) + 1 : 0
    for i in shapes.indices {
      for j in shapes.indices where j > i {
        let a = shapes[i].bounds
        let b = shapes[j].bounds
        let dx = max(a.minX - b.maxX, b.minX - a.maxX, 0)
        let dy = max(a.minY - b.maxY, b.minY - a.maxY, 0)
        let boxGap = (dx * dx + dy * dy).squareRoot()
        guard boxGap < reach || boxGap == 0 else { continue }
        guard shapes[i].separation(from: shapes[j]) < reach else { continue }
        parent[root(j)] = root(i)
      }
    }
    var groups: [Int: [Int]] = [:]
    var order: [Int] = []
    for i in shapes.indices {
      let r = root(i)
      if groups[r] == nil { order.append(r) }
      groups[r, default: []].append(i)
    }
    let all = order.compactMap { groups[$0] }
    return all.contains { $0.count > maximumMembers } ? nil : all
  }

  /// The scenes validated end to end, by name.
  static func scenes(_ n: Int) -> [(String, String)] {
    let overlapping = (0..<n).map { i in
      #"{"frame": {"x": \#(100 + i % 7), "y": \#(80 + i % 5), "width": 40, "height": 40}}"#
    }
    let columns = Int(Double(n).squareRoot().rounded(.up))
    let side = columns * 30 + 20
    let apart = (0..<n).map { i in
      #"{"frame": {"x": \#(10 + (i % columns) * 30), "y": \#(10 + (i / columns) * 30), "width": 20, "height": 20}}"#
    }
    let spread = (0..<n).map { i in
      let x = (i % columns) * 30 - side / 2
      let y = (i / columns) * 30 - side / 2
      return
        ##"{"type": "color", "color": "#00000000", "modifiers": [{"frame": {"width": 20, "height": 20}}, {"glassEffect": true}, {"offset": {"x": \##(x), "y": \##(y)}}]}"##
    }
    let views = (0..<n).map { i in
      ##"{"type": "color", "color": "#00000000", "modifiers": [{"frame": {"width": 40, "height": 40}}, {"offset": {"x": \##(i % 7), "y": \##(i % 5)}}, {"glassEffect": true}]}"##
    }
    func scene(_ width: Int, _ height: Int, _ rest: String) -> String {
      #"{"version": 1, "size": {"width": \#(width), "height": \#(height)}, "scale": 1, \#(rest)}"#
    }
    // Glass layers, not in a container: each decides its look over an estimate of
    // what lies under it, every layer below included.
    let layers = (0..<n).map { i in
      #"{"type": "glass", "frame": {"x": \#(100 + i % 7), "y": \#(80 + i % 5), "width": 40, "height": 40}}"#
    }
    return [
      ("layers, overlapping", scene(300, 200, #""layers": [\#(layers.joined(separator: ","))]"#)),
      (
        "container, overlapping",
        scene(
          300, 200,
          #""layers": [{"type": "glassContainer", "spacing": 0, "glass": [\#(overlapping.joined(separator: ","))]}]"#)
      ),
      (
        "views, overlapping",
        scene(300, 200, #""body": {"type": "glassEffectContainer", "children": [\#(views.joined(separator: ","))]}"#)
      ),
      (
        "views, apart",
        scene(
          side, side,
          #""body": {"type": "glassEffectContainer", "spacing": 4, "children": [\#(spread.joined(separator: ","))]}"#)
      ),
      (
        "container, apart",
        scene(
          side, side,
          #""layers": [{"type": "glassContainer", "spacing": 4, "glass": [\#(apart.joined(separator: ","))]}]"#)
      ),
    ]
  }

  struct Run {
    var status: String
    var wall: Double
    var cpu: Double
  }

  /// Runs `binary` with `arguments`, killed after `timeout` seconds.
  static func measure(_ binary: URL, _ arguments: [String], timeout: Double) throws -> Run {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    var before = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &before)
    let start = Date()
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    process.waitUntilExit()
    watchdog.cancel()
    let wall = Date().timeIntervalSince(start)
    var after = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &after)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    let cpu =
      seconds(after.ru_utime) - seconds(before.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_stime)
    let status =
      process.terminationReason == .uncaughtSignal
      ? (process.terminationStatus == SIGKILL ? "killed" : "sig \(process.terminationStatus)")
      : "\(process.terminationStatus)"
    return Run(status: status, wall: wall, cpu: cpu)
  }
}

extension String {
  /// The string right-aligned in `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
