import Foundation
import GlassTestSupport
import Testing

/// Every frame of hundreds of random view trees, as `glass-gpu layout --json`
/// prints them, against an oracle that lays the same trees out by SwiftUI's rules
/// with no code of glass-gpu's: `Tests/oracles/layout_oracle.py`, which reads the
/// rules again from OpenSwiftUI's sources (each rule there names its file). The
/// trees are stacks (empty, one child and more), spacers, colours and
/// rectangles (flexible, and of fixed sizes), and the layout modifiers: frames,
/// flexible frames, padding (negative too), fixedSize, layoutPriority, offset,
/// overlay and background; on canvases of 1x, 2x and 3x, some with a safe area.
@Suite("Layout of random view trees against an independent oracle")
struct LayoutOracleTests {
  /// The oracle's script.
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("oracles/layout_oracle.py")

  /// The oracle's verdict on `count` trees of `seed`: how many agree, and the first disagreements.
  static func check(seed: Int, count: Int) throws -> (agree: Int, failures: [String]) {
    let result = try TestProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", script.path, "check", TestProcess.glassGPU.path, String(seed), String(count), "--jobs", "4"],
      timeout: 600)
    try #require(result.status == 0, "layout_oracle.py: \(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    let failures = (object["failures"] as? [[String: Any]] ?? []).map { failure in
      let scene =
        (try? JSONSerialization.data(withJSONObject: failure["scene"] ?? [:], options: [.sortedKeys]))
        .map { String(decoding: $0, as: UTF8.self) } ?? "?"
      return "tree \(failure["tree"] ?? "?"): \(failure["problem"] ?? "?")\n  \(scene)"
    }
    return (try #require(object["agree"] as? Int), failures)
  }

  @Test("every frame of 300 random trees is the oracle's")
  func randomTrees() throws {
    let (agree, failures) = try Self.check(seed: 36, count: 300)
    #expect(agree == 300, "\(agree) of 300 trees agree; the first that do not:\n\(failures.joined(separator: "\n"))")
  }
}
