import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Errors about views name what the file has, say what is wrong in words that
/// are true, and `layout` agrees with `validate`; what SwiftUI lays out
/// (contradictory frames) is laid out, not refused.
@Suite("Messages about views")
struct ViewMessagesTests {
  /// Writes `json` as a scene in a new folder and runs glass-gpu on it.
  static func run(_ arguments: [String], _ json: String) throws -> TestProcess.Result {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("scene.json")
    try Data(json.utf8).write(to: scene)
    return try TestProcess.runGlassGPU(arguments + [scene.path])
  }

  /// Three colours in a column, the first two 65,536 points tall: laid out, the
  /// third lies below the range a frame may have.
  static let tallColumn = """
    {"version": 1, "size": {"width": 200, "height": 100}, "body": {"type": "vstack", "children": [
     {"type": "color", "color": "#FF0000", "modifiers": [{"frame": {"width": 10, "height": 65536}}]},
     {"type": "color", "color": "#00FF00", "modifiers": [{"frame": {"width": 10, "height": 65536}}]},
     {"type": "color", "color": "#0000FF", "modifiers": [{"frame": {"width": 10, "height": 10}}]}]}}
    """

  @Test("a view laid out beyond the format's range is named by its path, in validate and in layout alike")
  func laidOutOutOfRange() throws {
    for command in ["validate", "layout"] {
      let run = try Self.run([command], Self.tallColumn)
      #expect(run.status == 1, "\(command): \(run.stdout)")
      #expect(
        run.stderr.contains("scene.json: body.children[2]: laid out, the view's y is 65589 pt")
          && run.stderr.contains("outside the -65536 … 65536 pt"), "\(command): \(run.stderr)")
      #expect(!run.stderr.contains("layers["), "\(command): \(run.stderr)")
    }
  }

  @Test("an error lowering a layer the body made (glass that blends past the limit) names the view, not a layer")
  func loweringErrorsNameTheView() throws {
    let glass = (0..<17).map { i in
      ##"{"type": "color", "color": "#00000000", "modifiers": [{"frame": {"width": 40, "height": 40}}, {"offset": {"x": \##(i), "y": 0}}, {"glassEffect": true}]}"##
    }
    let run = try Self.run(
      ["validate"],
      #"{"version": 1, "size": {"width": 200, "height": 100}, "body": {"type": "vstack", "children": [{"type": "spacer"}, {"type": "glassEffectContainer", "children": [\#(glass.joined(separator: ","))]}]}}"#
    )
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("scene.json: body.children[1]: more than \(GlassComposite.maximumMembers) glass shapes"),
      "\(run.stderr)")
  }

  @Test("a number too large is out of range where the range allows negatives; negative only where it does not")
  func negativeOrOutOfRange() throws {
    let layer = try Self.run(
      ["validate"],
      SceneJSON.scene(
        width: 100, height: 100,
        layers: ##"{"type": "shape", "frame": {"x": -1e308, "y": 0, "width": 10, "height": 10}, "fill": "#FF0000"}"##))
    #expect(
      layer.stderr.contains("layers[0].frame.x: -1e+308 is out of range; give a value from -65536 to 65536 pt"),
      "\(layer.stderr)")
    let view = try Self.run(
      ["validate"],
      ##"{"version": 1, "size": {"width": 100, "height": 100}, "body": {"type": "color", "color": "#FF0000", "modifiers": [{"frame": {"x": -1e308, "y": 0}}]}}"##
    )
    #expect(view.stderr.contains("body.modifiers[0].frame.x: -1e+308 is out of range"), "\(view.stderr)")
    let negative = try Self.run(
      ["validate"],
      SceneJSON.scene(
        width: 100, height: 100,
        layers: ##"{"type": "shape", "frame": {"x": 0, "y": 0, "width": -1e308, "height": 10}, "fill": "#FF0000"}"##))
    #expect(negative.stderr.contains("layers[0].frame.width: -1e+308 is negative"), "\(negative.stderr)")
  }

  @Test("a field of the other kind of image is named, not a second kind that is not there")
  func imageConflict() throws {
    for (field, other) in [("\"scale\": 2", "scale"), ("\"resizable\": true", "resizable")] {
      let run = try Self.run(
        ["validate"],
        #"{"version": 1, "size": {"width": 100, "height": 100}, "body": {"type": "image", "systemName": "star.fill", \#(field)}}"#
      )
      #expect(
        run.stderr.contains(
          "body.\(other): an image is a file or a symbol: \"\(other)\" goes with \"image\", not with \"systemName\"; remove \"\(other)\""
        ), "\(run.stderr)")
    }
    // Both kinds written: both named.
    let both = try Self.run(
      ["validate"],
      #"{"version": 1, "size": {"width": 100, "height": 100}, "body": {"type": "image", "image": "a.png", "systemName": "plus"}}"#
    )
    #expect(both.stderr.contains("give \"image\" or \"systemName\", not both"), "\(both.stderr)")
  }

  @Test("layout of a body of absolute layers says so, not that there is no body")
  func layersBody() throws {
    let run = try Self.run(
      ["layout"],
      ##"{"version": 1, "size": {"width": 100, "height": 100}, "body": {"type": "layers", "layers": [{"type": "shape", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "fill": "#FF0000"}]}}"##
    )
    #expect(run.status == 0)
    #expect(run.stdout.contains("the body is absolute layers") && !run.stdout.contains("no \"body\""), "\(run.stdout)")
  }

  @Test("minWidth over maxWidth is laid out as SwiftUI lays it out: the child's size under the clamped offer")
  func contradictoryFrame() throws {
    let run = try Self.run(
      ["layout", "--json"],
      ##"{"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "body": {"type": "color", "color": "#FF0000", "modifiers": [{"frame": {"minWidth": 100, "maxWidth": 50, "minHeight": 80, "idealHeight": 10}}]}}"##
    )
    #expect(run.status == 0, "\(run.stderr)")
    // Width: offered 200 clamped to 100 … 50 is 50 (max wins); min > max, so
    // the frame takes the child's 50. Height: ideal 10 is raised to min 80,
    // max absent: max(min(100, 100), 80) = 100 (docs/layout.md, Frames).
    #expect(
      run.stdout.contains(
        #"{"kind": "frame", "path": "body.modifiers[0]", "depth": 0, "frame": {"x": 75, "y": 0, "width": 50, "height": 100}}"#
      ),
      "\(run.stdout)")
    // The Swift API takes the same.
    var scene = Scene(size: PointSize(width: 200, height: 100), scale: 1)
    scene.body = ViewNode(
      .shape(.rect, style: nil), modifiers: [.flexibleFrame(FlexibleFrame(minWidth: 100, maxWidth: 50))])
    #expect(try scene.resolvedViews(images: SceneImages([:])).first?.frame.width == 50)
  }
}
