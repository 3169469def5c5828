import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

// `glass-gpu layout`, through the built binary: the tree it prints and its JSON
// against frames worked out by hand from the layout rules (docs/layout.md), the
// outline it draws against the edge pixels of those frames, and bad input.

/// The scenes and the frames expected of them, worked out by hand.
enum LayoutCommandCase {
  /// A view as `layout` should list it.
  struct View: Equatable, CustomStringConvertible {
    var kind: String
    var depth: Int
    var path: String
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var description: String { "\(kind) d\(depth) \(path) (\(x), \(y), \(width), \(height))" }
  }

  /// A scene file: the skeleton with `extra` members (`"body": …`) added.
  static func scene(width: Int, height: Int, scale: Int, extra: String) -> String {
    String(SceneJSON.scene(width: width, height: height, scale: scale, background: "#ffffff").dropLast())
      + ", \(extra)}"
  }

  /// 200 x 100 pt at 1x, 20 pt of safe area on top:
  /// `VStack(alignment: .leading, spacing: 4) { Color.red.frame(50 x 10);
  /// HStack(spacing: 0) { Color.blue.frame(20 x 20); Spacer() } }.padding(8)`.
  static let column = scene(
    width: 200, height: 100, scale: 1,
    extra: """
      "safeAreaInsets": {"top": 20},
      "body": {"type": "vstack", "alignment": "leading", "spacing": 4, "modifiers": [{"padding": 8}], "children": [
        {"type": "color", "color": "#ff0000", "modifiers": [{"frame": {"width": 50, "height": 10}}]},
        {"type": "hstack", "spacing": 0, "children": [
          {"type": "color", "color": "#0000ff", "modifiers": [{"frame": {"width": 20, "height": 20}}]},
          {"type": "spacer"}]}]}
      """)

  /// `column`'s views. The safe area is y 20 ... 100 (200 x 80), the root's
  /// proposal. The padding offers 184 x 64 to the VStack. Its children: the red
  /// frame is 50 x 10 whatever it is offered; the HStack, offered 184 wide, gives
  /// the blue frame its 20 and the spacer the other 164 (a spacer takes what is
  /// left), and is 20 high (the tallest child; a spacer in an HStack is 0 high).
  /// VStack: 10 + 4 + 20 = 34 high, 184 wide (its widest child); padded, 200 x 50,
  /// centred in the safe area: y = 20 + (80 - 50) / 2 = 35. Inside the padding at
  /// (8, 43): the red frame on the leading edge, the HStack 10 + 4 below at y 57;
  /// in it the blue frame at x 8, the spacer from x 28, centred across the
  /// HStack's 20 points (y 57 + 10 = 67, 0 high).
  static let columnViews: [View] = [
    View(kind: "padding", depth: 0, path: "body.modifiers[0]", x: 0, y: 35, width: 200, height: 50),
    View(kind: "vstack", depth: 1, path: "body", x: 8, y: 43, width: 184, height: 34),
    View(kind: "frame", depth: 2, path: "body.children[0].modifiers[0]", x: 8, y: 43, width: 50, height: 10),
    View(kind: "color", depth: 3, path: "body.children[0]", x: 8, y: 43, width: 50, height: 10),
    View(kind: "hstack", depth: 2, path: "body.children[1]", x: 8, y: 57, width: 184, height: 20),
    View(
      kind: "frame", depth: 3, path: "body.children[1].children[0].modifiers[0]", x: 8, y: 57, width: 20, height: 20),
    View(kind: "color", depth: 4, path: "body.children[1].children[0]", x: 8, y: 57, width: 20, height: 20),
    View(kind: "spacer", depth: 3, path: "body.children[1].children[1]", x: 28, y: 67, width: 164, height: 0),
  ]

  /// 120 x 80 pt at 2x on white: `HStack(spacing: 10) { Color.red.frame(30 x 20);
  /// Color.blue.padding(5).frame(20 x 40) }`.
  static let row = scene(
    width: 120, height: 80, scale: 2,
    extra: """
      "body": {"type": "hstack", "spacing": 10, "children": [
        {"type": "color", "color": "#ff0000", "modifiers": [{"frame": {"width": 30, "height": 20}}]},
        {"type": "color", "color": "#0000ff", "modifiers": [{"padding": 5}, {"frame": {"width": 20, "height": 40}}]}]}
      """)

  /// `row`'s views. The HStack's children are fixed frames: 30 + 10 + 20 = 60
  /// wide, 40 high, centred in 120 x 80 at (30, 20). The red frame is centred
  /// across the 40: y 30; the blue frame at x 30 + 30 + 10 = 70, y 20; the padding
  /// fills it and offers 10 x 30 to the colour, 5 in from each edge.
  static let rowViews: [View] = [
    View(kind: "hstack", depth: 0, path: "body", x: 30, y: 20, width: 60, height: 40),
    View(kind: "frame", depth: 1, path: "body.children[0].modifiers[0]", x: 30, y: 30, width: 30, height: 20),
    View(kind: "color", depth: 2, path: "body.children[0]", x: 30, y: 30, width: 30, height: 20),
    View(kind: "frame", depth: 1, path: "body.children[1].modifiers[1]", x: 70, y: 20, width: 20, height: 40),
    View(kind: "padding", depth: 2, path: "body.children[1].modifiers[0]", x: 70, y: 20, width: 20, height: 40),
    View(kind: "color", depth: 3, path: "body.children[1]", x: 75, y: 25, width: 10, height: 30),
  ]

  /// The outline colours by depth, as docs/layout.md gives them.
  static let palette: [SIMD4<Int>] = [
    SIMD4(255, 59, 48, 255), SIMD4(255, 149, 0, 255), SIMD4(52, 199, 89, 255), SIMD4(50, 173, 230, 255),
    SIMD4(0, 122, 255, 255), SIMD4(175, 82, 222, 255),
  ]

  /// Writes `json` as `name` in `folder`.
  static func write(_ json: String, _ name: String, in folder: URL) throws {
    try Data(json.utf8).write(to: folder.appendingPathComponent(name))
  }

  /// The views of `layout`'s text table: the rows under the header and column
  /// titles, depth read from the indentation.
  static func parseTable(_ stdout: String) -> [View] {
    stdout.split(separator: "\n").dropFirst(2).map { line in
      let indent = line.prefix { $0 == " " }.count
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count == 6 else {
        return View(kind: "?\(line)", depth: -1, path: "", x: 0, y: 0, width: 0, height: 0)
      }
      return View(
        kind: fields[0], depth: indent / 2, path: fields[5], x: Double(fields[1]) ?? .nan, y: Double(fields[2]) ?? .nan,
        width: Double(fields[3]) ?? .nan, height: Double(fields[4]) ?? .nan)
    }
  }
}

@Suite("glass-gpu layout: the laid-out tree, its JSON and its outline")
struct LayoutCommandTests {
  @Test("the printed tree lists every view, indented by depth, with the frame worked out by hand")
  func printedTree() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try LayoutCommandCase.write(LayoutCommandCase.column, "column.json", in: root)
    let result = try runCLI(["layout", "column.json"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "column.json: 200x100 pt at 1x, safe area top 20; 8 views", "\(result.stdout)")
    #expect(lines.dropFirst().first?.split(separator: " ") == ["kind", "x", "y", "width", "height", "path"])
    let views = LayoutCommandCase.parseTable(result.stdout)
    #expect(views == LayoutCommandCase.columnViews, "\(result.stdout)")
    // Aligned columns: every path starts at one column, every height ends at one.
    let pathStarts = Set(lines.dropFirst().map { line in line.count - (line.split(separator: " ").last?.count ?? 0) })
    #expect(pathStarts.count == 1, "paths not aligned:\n\(result.stdout)")
  }

  @Test("--json is one document: canvas, scale, safe area and the views, keys in a fixed order")
  func json() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try LayoutCommandCase.write(LayoutCommandCase.column, "column.json", in: root)
    let result = try runCLI(["layout", "column.json", "--json"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stdout)")
    #expect(document["scene"] as? String == "column.json")
    #expect(document["state"] is NSNull)
    #expect(document["size"] as? [String: Double] == ["width": 200, "height": 100])
    #expect(document["scale"] as? Int == 1)
    #expect(document["safeAreaInsets"] as? [String: Double] == ["top": 20, "leading": 0, "bottom": 0, "trailing": 0])
    let views = try #require(document["views"] as? [[String: Any]])
    let read = views.map { view -> LayoutCommandCase.View in
      let frame = view["frame"] as? [String: Double] ?? [:]
      return LayoutCommandCase.View(
        kind: view["kind"] as? String ?? "?", depth: view["depth"] as? Int ?? -1, path: view["path"] as? String ?? "?",
        x: frame["x"] ?? .nan, y: frame["y"] ?? .nan, width: frame["width"] ?? .nan, height: frame["height"] ?? .nan)
    }
    #expect(read == LayoutCommandCase.columnViews)
    // The key order, as the text reads: top-level members, then one view a line.
    let text = result.stdout
    let keys = ["\"scene\"", "\"state\"", "\"size\"", "\"scale\"", "\"safeAreaInsets\"", "\"views\""]
    let offsets = keys.map { text.range(of: $0).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1 }
    #expect(offsets == offsets.sorted() && !offsets.contains(-1), "\(text)")
    #expect(
      text.contains(
        #"    {"kind": "padding", "path": "body.modifiers[0]", "depth": 0, "frame": {"x": 0, "y": 35, "width": 200, "height": 50}},"#
      ), "\(text)")
  }

  @Test("--scale 3 snaps each edge to a third of a point: three views in 100 points end on pixels 100, 200, 300")
  func snapsToPixels() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    // HStack(spacing: 0) of three colours offered 100 x 10: each is offered a third, 33⅓.
    let scene = LayoutCommandCase.scene(
      width: 100, height: 10, scale: 1,
      extra: """
        "body": {"type": "hstack", "spacing": 0, "children": [
          {"type": "color", "color": "#ff0000"}, {"type": "color", "color": "#00ff00"}, {"type": "color", "color": "#0000ff"}]}
        """)
    try LayoutCommandCase.write(scene, "thirds.json", in: root)
    let text = try runCLI(["layout", "thirds.json", "--scale", "3"], in: root)
    #expect(text.status == 0, "\(text.stderr)")
    let rows = LayoutCommandCase.parseTable(text.stdout)
    #expect(rows.map(\.x) == [0, 0, 33.33, 66.67], "\(text.stdout)")
    #expect(rows.map(\.width) == [100, 33.33, 33.33, 33.33], "\(text.stdout)")
    let json = try runCLI(["layout", "thirds.json", "--scale", "3", "--json"], in: root)
    let document = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
    #expect(document["scale"] as? Int == 3)
    let frames = (document["views"] as? [[String: Any]] ?? []).compactMap { $0["frame"] as? [String: Double] }
    let edges = frames.dropFirst().map { [($0["x"] ?? .nan) * 3, (($0["x"] ?? .nan) + ($0["width"] ?? .nan)) * 3] }
    #expect(edges.count == 3)
    for (edge, expected) in zip(edges, [[0.0, 100], [100, 200], [200, 300]]) {
      #expect(zip(edge, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "pixel edges \(edge), expected \(expected)")
    }
  }

  @Test("--state lays out that state's tree, with its path in the file; a scene with no tree lists nothing")
  func states() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    func state(_ side: Int) -> String {
      ##"{"body": {"type": "color", "color": "#00ff00", "modifiers": [{"frame": {"width": \##(side), "height": \##(side)}}]}}"##
    }
    let scene = LayoutCommandCase.scene(
      width: 100, height: 100, scale: 1,
      extra: #""layers": [], "states": {"small": \#(state(10)), "large": \#(state(40))}"#)
    try LayoutCommandCase.write(scene, "states.json", in: root)
    // A 40 x 40 frame centred in 100 x 100: at (30, 30); the colour fills it.
    let large = try runCLI(["layout", "states.json", "--state", "large"], in: root)
    #expect(large.status == 0, "\(large.stderr)")
    #expect(large.stdout.hasPrefix("states.json state large: 100x100 pt at 1x"), "\(large.stdout)")
    #expect(
      LayoutCommandCase.parseTable(large.stdout) == [
        .init(kind: "frame", depth: 0, path: "states.large.body.modifiers[0]", x: 30, y: 30, width: 40, height: 40),
        .init(kind: "color", depth: 1, path: "states.large.body", x: 30, y: 30, width: 40, height: 40),
      ], "\(large.stdout)")
    // The scene's own (absent) body: no tree, exit 0, and the states that have one named.
    let none = try runCLI(["layout", "states.json"], in: root)
    #expect(none.status == 0, "\(none.stderr)")
    #expect(
      none.stdout
        == "states.json: 100x100 pt at 1x, safe area none; no view tree (no \"body\"), nothing to lay out; "
        + "the states small, large have one: give --state\n")
    let noneJSON = try runCLI(["layout", "states.json", "--json"], in: root)
    #expect(noneJSON.status == 0, "\(noneJSON.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: noneJSON.stdoutData) as? [String: Any])
    #expect((document["views"] as? [Any])?.isEmpty == true, "\(noneJSON.stdout)")
  }

  @Test(
    "--outline draws each frame's edge pixels in its depth's colour and leaves every other pixel as render draws it")
  func outline() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try LayoutCommandCase.write(LayoutCommandCase.row, "row.json", in: root)
    let plainRun = try runCLI(["render", "row.json", "-o", "plain.png", "--backend", "cpu"], in: root)
    #expect(plainRun.status == 0, "\(plainRun.stderr)")
    let run = try runCLI(["layout", "row.json", "--outline", "outline.png", "--backend", "cpu"], in: root)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(LayoutCommandCase.parseTable(run.stdout) == LayoutCommandCase.rowViews, "\(run.stdout)")
    let plain = try PNGCodec.read(path: root.appendingPathComponent("plain.png").path).image
    let outlined = try PNGCodec.read(path: root.appendingPathComponent("outline.png").path).image
    #expect(outlined.size == PixelSize(width: 240, height: 160) && plain.size == outlined.size)

    // The oracle: each hand-made frame, in points times 2, outlined on its first
    // and last row and column, parents first (a child's colour wins on a shared edge).
    var expected: [Int: SIMD4<Int>] = [:]
    for view in LayoutCommandCase.rowViews {
      let (x0, y0) = (Int(view.x * 2), Int(view.y * 2))
      let (x1, y1) = (Int((view.x + view.width) * 2) - 1, Int((view.y + view.height) * 2) - 1)
      let color = LayoutCommandCase.palette[view.depth]
      for x in x0...x1 {
        expected[y0 * 240 + x] = color
        expected[y1 * 240 + x] = color
      }
      for y in y0...y1 {
        expected[y * 240 + x0] = color
        expected[y * 240 + x1] = color
      }
    }
    var wrong: [String] = []
    for y in 0..<160 {
      for x in 0..<240 {
        let want = expected[y * 240 + x] ?? plain.rgba8(x, y)
        if outlined.rgba8(x, y) != want && wrong.count < 8 {
          wrong.append("(\(x), \(y)): \(outlined.rgba8(x, y)), expected \(want)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")

    // A few pixels spelled out: the HStack's corner and its bottom edge between
    // the children (depth 0, red), the red colour's corner (depth 2, green), the
    // blue colour's corner (depth 3, cyan), and just inside each, the plain render.
    let palette = LayoutCommandCase.palette
    for (x, y, color) in [(60, 40, palette[0]), (125, 119, palette[0]), (60, 60, palette[2]), (150, 50, palette[3])] {
      #expect(outlined.rgba8(x, y) == color, "(\(x), \(y))")
      #expect(plain.rgba8(x, y) != color, "(\(x), \(y)) is that colour in the plain render too")
    }
    #expect(outlined.rgba8(61, 41) == SIMD4(255, 255, 255, 255), "inside the HStack, the white background")
    #expect(outlined.rgba8(151, 51) == plain.rgba8(151, 51) && plain.rgba8(151, 51) == SIMD4(0, 0, 255, 255))
  }

  @Test("bad input: one line naming the file, the state or the output, exit 1, nothing written and no tree printed")
  func badInput() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try LayoutCommandCase.write(LayoutCommandCase.row, "row.json", in: root)
    let badSpacing = LayoutCommandCase.scene(
      width: 100, height: 100, scale: 1, extra: #""body": {"type": "vstack", "spacing": -4, "children": []}"#)
    try LayoutCommandCase.write(badSpacing, "spacing.json", in: root)
    let before = files(in: root)
    let cases: [(arguments: [String], mention: [String])] = [
      (["layout", "missing.json", "--outline", "out.png"], ["missing.json"]),
      (["layout", "row.json", "--state", "expanded", "--outline", "out.png"], ["row.json", "expanded", "no states"]),
      (["layout", "row.json", "--outline", "row.json/o.png", "--backend", "cpu"], ["row.json/o.png", "not a folder"]),
      (["layout", "row.json", "--outline", "row.json", "--backend", "cpu"], ["row.json"]),
      (["layout", "spacing.json", "--outline", "out.png", "--backend", "cpu"], ["spacing.json", "body.spacing"]),
      (["layout", "spacing.json", "--json"], ["spacing.json", "body.spacing"]),
    ]
    for (arguments, mention) in cases {
      let result = try runCLI(arguments, in: root)
      expectRefused(result, mentioning: mention, leaving: root, as: before)
      #expect(result.stdout.isEmpty, "\(arguments): printed \(result.stdout)")
    }
    #expect(
      Contract.text(root.appendingPathComponent("row.json")) == LayoutCommandCase.row, "the scene was overwritten")

    // The outline where the tree is printed: refused, the file left as the shell made it.
    let mixed = try runCLI(
      ["layout", "row.json", "--outline", "tree.txt", "--backend", "cpu"], in: root,
      shell: #"exec "$GLASS_GPU" "$@" > tree.txt"#)
    #expect(mixed.status == 1 && mixed.stderr.contains("standard output"), "\(mixed.stderr)")
    #expect(Contract.text(root.appendingPathComponent("tree.txt")).isEmpty)

    // Options the command line refuses: ArgumentParser's usage error.
    let scale = try runCLI(["layout", "row.json", "--scale", "4"], in: root)
    #expect(scale.status == 64 && scale.stderr.contains("--scale is 4"), "\(scale.stderr)")
  }

  @Test("the help says what is printed, what a scene without a tree does, and gives examples")
  func help() throws {
    let result = try runCLI(["layout", "--help"])
    #expect(result.status == 0)
    for words in ["glass-gpu layout", "--outline", "--state", "--json", "no view tree", "docs/layout.md", "Examples:"] {
      #expect(result.stdout.contains(words), "help lacks \(words)")
    }
  }
}

@Suite("ViewOutline: frames as pixel outlines")
struct ViewOutlineTests {
  /// A 10 x 10 white image.
  static let white = RGBAImage(width: 10, height: 10) { _, _ in SIMD4(255, 255, 255, 255) }

  @Test("a frame off the image is clipped, one with no width is a line, and nothing else changes")
  func clipping() {
    func view(_ x: Double, _ y: Double, _ width: Double, _ height: Double, depth: Int = 0) -> ResolvedView {
      ResolvedView(
        kind: "color", path: "body", depth: depth, frame: PointRect(x: x, y: y, width: width, height: height))
    }
    // At 1x: a frame hanging off the top-left corner (its right column 2 and bottom
    // row 2 in the image), a zero-width frame at x 6 (a line, rows 1 to 4), and two
    // frames wholly off the image (nothing, no crash).
    let views = [
      view(-5, -5, 8, 8), view(6, 1, 0, 4, depth: 7), view(20, 20, 5, 5), view(-1e12, 3, 1e6, 2),
    ]
    let image = ViewOutline.draw(views, on: Self.white, scale: 1)
    var changed: Set<[Int]> = []
    for y in 0..<10 {
      for x in 0..<10 where image.rgba8(x, y) != SIMD4(255, 255, 255, 255) { changed.insert([x, y]) }
    }
    let corner = (0...2).flatMap { [[$0, 2], [2, $0]] }
    let line = (1...4).map { [6, $0] }
    #expect(changed == Set(corner + line), "\(changed.sorted { $0.lexicographicallyPrecedes($1) })")
    #expect(image.rgba8(0, 2) == LayoutCommandCase.palette[0])
    #expect(image.rgba8(6, 1) == LayoutCommandCase.palette[7 % 6], "depth 7 is the palette's second colour")
  }

  @Test("frames snapped to thirds of a point land on whole pixels at 3x")
  func thirds() {
    let frame = PointRect(x: 100.0 / 3, y: 0, width: 200.0 / 3 - 100.0 / 3, height: 1)
    #expect(ViewOutline.pixelRect(frame, scale: 3) == PixelRect(x: 100, y: 0, width: 100, height: 3))
  }
}
