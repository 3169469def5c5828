import Foundation
import Testing

@testable import GLESGlass

/// What the README shows of `make demo` is what `scripts/demo.sh` checks and what
/// `SceneRenderingTests.parity` measures: the README cannot show a scene or a bar
/// the script and the tests do not hold.
@Suite("The README's make demo sample")
struct ReadmeParityTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The README's sample of `make demo`'s output: the first code block after
  /// "`make demo` prints".
  static func sample() throws -> Substring {
    let readme = try text("README.md")
    let intro = try #require(readme.range(of: "`make demo` prints"), "the README shows make demo's output")
    let open = try #require(readme[intro.upperBound...].range(of: "```\n"), "a code block follows")
    let close = try #require(readme[open.upperBound...].range(of: "```"), "the code block ends")
    return readme[open.upperBound..<close.lowerBound]
  }

  @Test(
    "it has a GPU-against-CPU line for every scene and state demo.sh compares, each within the bar demo.sh enforces")
  func everyScene() throws {
    let script = try Self.text("scripts/demo.sh")
    let list = try #require(script.firstMatch(of: /scenes=\(([^)]*)\)/), "demo.sh lists its scenes")
    var expected = list.1.split(whereSeparator: \.isWhitespace).map(String.init)
    for match in script.matches(of: /Assets\/scenes\/([\w-]+)\.json --state (\w+)/) {
      expected.append("\(match.1) (\(match.2))")
    }
    #expect(expected.count >= 11, "\(expected)")

    var shown: [String: (difference: Int, pixels: Int)] = [:]
    for line in try Self.sample().split(separator: "\n") {
      guard
        let match = line.firstMatch(
          of: /^ +([\w-]+(?: \(\w+\))?) gpu vs cpu: max difference (\d+)\/255.*?, (\d+) pixels \([\d.]+ %\) over 1\/255/
        )
      else { continue }
      shown[String(match.1)] = (Int(match.2) ?? .max, Int(match.3) ?? .max)
    }
    for name in expected {
      let line = try #require(shown[name], "the README's sample shows \(name) gpu vs cpu")
      #expect(line.difference <= 1 && line.pixels == 0, "\(name): \(line)")
    }
    #expect(Set(shown.keys) == Set(expected), "the sample shows what demo.sh compares, no more")
  }

  @Test("demo.sh compares every GPU render with the CPU's at the bar the parity tests hold: 1/255, no pixel over")
  func scriptBar() throws {
    let script = try Self.text("scripts/demo.sh")
    let compares = script.matches(of: /compare [^\n]*?(?:\\\n[^\n]*?)?--max-diff (\S+) --max-share (\S+)/)
    #expect(compares.count == 2, "demo.sh compares scenes and the expanded state: \(compares.count)")
    for match in compares {
      #expect(Double(match.1) == SceneRenderingTests.demoBar.maxDifference, "--max-diff \(match.1)")
      #expect(Double(match.2) == SceneRenderingTests.demoBar.fractionOverOne * 100, "--max-share \(match.2)")
    }
  }
}
