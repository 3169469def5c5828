import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Layout mistakes are not silent: `layout` and `validate` warn of a view off the
/// canvas, of siblings in a stack drawn over one another and of text cut short,
/// and still lay out (exit 0).
@Suite("Layout warnings")
struct LayoutWarningsTests {
  /// The warnings of `scene` laid out.
  static func warnings(_ scene: Scene) throws -> [LayoutWarning] {
    try scene.resolvedLayout(images: SceneImages([:])).warnings
  }

  @Test("a tree that fits its canvas, its stacks' children apart, warns of nothing")
  func clean() throws {
    let scene = Scene(width: 200, height: 100, scale: 1) {
      VStack(alignment: .leading, spacing: 4) {
        Color.red.frame(width: 50, height: 10)
        HStack(spacing: 0) {
          Color.blue.frame(width: 20, height: 20)
          Spacer()
        }
      }
      .padding(8)
    }
    #expect(try Self.warnings(scene).isEmpty)
  }

  @Test("a view wholly or partly off the canvas is named, with its frame")
  func offCanvas() throws {
    // 40 × 40 centred in 100 × 100 at (30, 30): moved 100 to the right it lies at 130 … 170,
    // wholly off; moved 50, at 80 … 120, partly.
    let scene = Scene(width: 100, height: 100, scale: 1) {
      ZStack {
        Color.red.frame(width: 40, height: 40).offset(x: 100)
        Color.blue.frame(width: 40, height: 40).offset(x: 50)
      }
    }
    let warnings = try Self.warnings(scene)
    #expect(
      warnings.contains {
        $0.path == "body.children[0]"
          && $0.message.hasPrefix("the color lies wholly off the canvas (130, 30 to 170, 70")
      }, "\(warnings)")
    #expect(
      warnings.contains {
        $0.path == "body.children[1]" && $0.message.hasPrefix("the color lies partly off the canvas (80, 30 to 120, 70")
      }, "\(warnings)")
    #expect(warnings.count == 2, "\(warnings)")
  }

  @Test("children of a stack whose drawings overlap are named, the later one at its path")
  func overlapInStack() throws {
    // Two 40-wide colours 8 apart in an HStack; the first moved 20 right overlaps the second
    // by 12 × 40. A ZStack's children overlap by design: no warning there.
    let scene = Scene(width: 200, height: 100, scale: 1) {
      HStack {
        Color.red.frame(width: 40, height: 40).offset(x: 20)
        Color.blue.frame(width: 40, height: 40)
      }
    }
    let warnings = try Self.warnings(scene)
    #expect(warnings.count == 1, "\(warnings)")
    #expect(
      warnings.first?.path == "body.children[1]"
        && warnings.first?.message.hasPrefix(
          "it draws over body.children[0], before it in the hstack at body, on 12 × 40 pt")
          == true,
      "\(warnings)")
    let stacked = Scene(width: 200, height: 100, scale: 1) {
      ZStack {
        Color.red.frame(width: 40, height: 40)
        Color.blue.frame(width: 40, height: 40)
      }
    }
    #expect(try Self.warnings(stacked).isEmpty)
  }

  @Test("text cut short with an ellipsis is named; text that wraps is not")
  func truncatedText() throws {
    let sentence = "Liquid Glass reflects and refracts its surroundings"
    let cut = Scene(width: 200, height: 100, scale: 1) {
      Text(sentence).lineLimit(1).frame(width: 80)
    }
    let warnings = try Self.warnings(cut)
    #expect(
      warnings.map(\.path) == ["body"] && warnings[0].message.hasPrefix("the text is cut short with \"…\""),
      "\(warnings)")
    let wrapped = Scene(width: 200, height: 200, scale: 1) {
      Text(sentence).frame(width: 80)
    }
    #expect(try Self.warnings(wrapped).isEmpty)
  }

  @Test("glass-gpu layout and validate print the warnings and exit 0")
  func commands() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("off.json")
    try Data(
      #"""
      {"version": 1, "size": {"width": 100, "height": 100}, "scale": 1, "body": {"type": "color", "color": "red",
        "modifiers": [{"frame": {"width": 40, "height": 40}}, {"offset": {"x": 100}}]}}
      """#.utf8
    ).write(to: file)
    let expected = "warning: \(file.path): body: the color lies wholly off the canvas"
    for arguments in [["layout", file.path], ["layout", file.path, "--json"], ["validate", file.path]] {
      let result = try runCLI(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }
  }
}
