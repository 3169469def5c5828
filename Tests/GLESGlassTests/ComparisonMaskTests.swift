import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Where a comparison mask lies (`ComparisonMask`, `ComparisonOptions.maskedPixels`,
/// `goldens --mask` and `--mask-rect`): a view's mask is its laid-out frame grown
/// by 1 pt, a rectangle is clipped to the canvas, and no value, however extreme,
/// traps.
@Suite("Comparison masks")
struct ComparisonMaskTests {
  /// A 20 x 10 pt scene of two shapes at `scale`, no view tree.
  static func smallScene(scale: Int = 2) throws -> Scene {
    try Scene(
      json: Array(
        """
        {"version": 1, "size": {"width": 20, "height": 10}, "scale": \(scale), "background": "#000000",
         "layers": [{"type": "shape", "shape": "rect", "frame": {"x": 2, "y": 2, "width": 4, "height": 4}, "fill": "#ff0000"},
                    {"type": "shape", "shape": "circle", "frame": {"x": 10, "y": 2, "width": 6, "height": 6}, "fill": "#00ff00"}]}
        """.utf8))
  }

  /// The pixels (columns or rows, `0..<count`) that the span `low...high` in
  /// points covers with some area at `scale`: pixel i is [i, i + 1) in pixels.
  static func covered(_ low: Double, _ high: Double, scale: Double, count: Int) -> [Int] {
    (0..<count).filter { i in low * scale < Double(i + 1) && high * scale > Double(i) }
  }

  /// The rectangle of the covered columns and rows, or nil when either is empty.
  static func expectedPixels(_ frame: PointRect, scale: Double, canvas: PixelSize) -> PixelRect? {
    let columns = covered(frame.x, frame.x + frame.width, scale: scale, count: canvas.width)
    let rows = covered(frame.y, frame.y + frame.height, scale: scale, count: canvas.height)
    guard let x0 = columns.first, let x1 = columns.last, let y0 = rows.first, let y1 = rows.last else { return nil }
    return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
  }

  static let extremes = [
    "0", "-0", "1", "-1", "0.5", "19.75", "1e308", "-1e308", "1.7976931348623157e308", "inf", "-inf", "nan", "5e-324",
  ]

  @Test(
    "a mask rectangle with extreme numbers (inf, nan, -0, huge, negative, tiny) is refused or clipped to the canvas; none traps"
  )
  func extremeRectangles() throws {
    let scene = try Self.smallScene()
    let images = SceneImages([:])
    var refused = 0
    var clipped = 0
    var outside = 0
    for x in Self.extremes {
      for y in Self.extremes {
        for w in Self.extremes {
          for h in Self.extremes {
            let text = "\(x),\(y),\(w),\(h)"
            let numbers = [x, y, w, h].map { Double($0) ?? .nan }
            let valid = numbers.allSatisfy(\.isFinite) && numbers[2] > 0 && numbers[3] > 0
            let mask: ComparisonMask
            do {
              mask = try ComparisonMask.rect(parsing: text)
            } catch let error as GlassError {
              #expect(!valid, "\(text) was refused: \(error.message)")
              #expect(error.message.contains("\"\(text)\"") && error.message.contains("such as 10,20,100,44"))
              refused += 1
              continue
            }
            #expect(valid, "\(text) was accepted")
            let frame = PointRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            let expected = Self.expectedPixels(frame, scale: 2, canvas: scene.pixelSize)
            do {
              let rects = try ComparisonOptions(masks: [mask]).maskedPixels(in: scene, images: images)
              #expect(rects == expected.map { [$0] }, "\(text)")
              clipped += 1
            } catch let error as GlassError {
              #expect(expected == nil, "\(text): \(error.message)")
              #expect(
                error.message.contains("outside the canvas") && error.message.contains("20x10 pt"), "\(error.message)")
              outside += 1
            }
          }
        }
      }
    }
    print("mask rectangles: \(refused) refused, \(clipped) clipped to the canvas, \(outside) outside it")
    #expect(refused > 0 && clipped > 0 && outside > 0)
  }

  @Test("a rectangle made in Swift with non-finite numbers masks nothing or is clipped, never traps")
  func nonFiniteInSwift() throws {
    let scene = try Self.smallScene(scale: 3)
    let values: [Double] = [.nan, .infinity, -.infinity, -0.0, 0, 1e308, -1e308, .greatestFiniteMagnitude, 3]
    for x in values {
      for width in values {
        let frame = PointRect(x: x, y: 1, width: width, height: 2)
        let expected = Self.expectedPixels(frame, scale: 3, canvas: scene.pixelSize)
        let rects = try? ComparisonOptions(masks: [.rect(frame)]).maskedPixels(in: scene, images: SceneImages([:]))
        #expect(rects == expected.map { [$0] }, "x \(x), width \(width)")
      }
    }
  }

  @Test("a layer path with a negative, empty, signed, spaced or huge index names nothing, and the error says which")
  func badLayerPaths() throws {
    let scene = try Self.smallScene()
    for path in [
      "layers[-1]", "layers[]", "layers[+0]", "layers[ 0]", "layers[-0]", "layers[2]", "layers[0x0]",
      "layers[99999999999999999999]", "layers[0]]", "body.children[-1]", "body",
    ] {
      #expect(throws: GlassError.self, "\(path)") {
        try ComparisonOptions(masks: [.path(path)]).maskedPixels(in: scene, images: SceneImages([:]))
      }
      do {
        _ = try ComparisonOptions(masks: [.path(path)]).maskedPixels(in: scene, images: SceneImages([:]))
      } catch let error as GlassError {
        #expect(
          error.message.contains("the mask \(path) names no layer or view")
            && error.message.contains("layers[0] to layers[1]"),
          "\(error.message)")
      }
    }
    // The two layers, grown by 1 pt, at 2x.
    let rects = try ComparisonOptions(masks: [.path("layers[0]"), .path("layers[1]")]).maskedPixels(
      in: scene, images: SceneImages([:]))
    #expect(rects == [PixelRect(x: 2, y: 2, width: 12, height: 12), PixelRect(x: 18, y: 2, width: 16, height: 16)])
  }

  @Test("goldens with extreme masks: exit 64 or an ERROR line naming the mask and the fix, never a crash")
  func extremeMasksOnTheCommandLine() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("s.json")
    func write(_ fill: String) throws {
      try Data(
        """
        {"version": 1, "size": {"width": 20, "height": 10}, "scale": 2, "background": "#000000",
         "layers": [{"type": "shape", "shape": "rect", "frame": {"x": 2, "y": 2, "width": 4, "height": 4}, "fill": "\(fill)"}]}
        """.utf8
      ).write(to: scene)
    }
    try write("#ff0000")
    let base = ["goldens", scene.path, "--references", root.appendingPathComponent("refs").path]
    #expect(try runCLI(base + ["--record", "missing"]).status == 2)
    try write("#00ff00")
    for (options, status, words) in [
      (
        ["--mask-rect=1e308,0,1,1"], 1,
        ["ERROR", ": the mask rect 1e+308,0,1,1 lies outside the canvas (20x10 pt)"]
      ),
      (["--mask-rect=-1e308,-1e308,1,1"], 1, ["outside the canvas"]),
      (["--mask-rect=0,0,1e308,1e308"], 0, ["pass    s"]),
      (["--mask-rect=-1e308,-1e308,1.7976931348623157e308,1.7976931348623157e308"], 0, ["pass    s"]),
      (
        ["--mask", "layers[-1]"], 1, ["ERROR", "the mask layers[-1] names no layer or view", "layers[0] to layers[0]"]
      ),
      (["--mask", "layers[99999999999999999999]"], 1, ["names no layer or view"]),
      (["--mask-rect=nan,0,1,1"], 64, ["--mask-rect: the mask rectangle \"nan,0,1,1\"", "such as 10,20,100,44"]),
      (["--mask-rect=inf,0,1,1"], 64, ["\"inf,0,1,1\""]),
      (["--mask-rect=0,0,-0,1"], 64, ["\"0,0,-0,1\""]),
      (["--mask-rect=-0,-0,10,10"], 0, ["pass    s"]),
    ] {
      let result = try runCLI(base + options, timeout: 120)
      #expect(result.reason == .exit, "\(options): ended by signal \(result.status)")
      #expect(result.status == Int32(status), "\(options): exit \(result.status): \(result.stdout) \(result.stderr)")
      for word in words {
        #expect((result.stdout + result.stderr).contains(word), "\(options): \(result.stdout) \(result.stderr)")
      }
    }
  }

  // MARK: - A view's mask: its frame grown by 1 pt

  /// A view tree with padding, stacks, nested stacks, offsets and fractional
  /// lengths, under a safe area.
  static let views = """
    {"version": 1, "size": {"width": 200, "height": 120}, "scale": 1, "background": "#1c1c1e",
     "safeAreaInsets": {"top": 7},
     "body": {"type": "vstack", "alignment": "leading", "spacing": 5, "modifiers": [{"padding": 9.5}], "children": [
       {"type": "text", "text": "Settings", "font": "headline", "foregroundStyle": "#ffffff"},
       {"type": "hstack", "spacing": 4, "children": [
         {"type": "color", "color": "#ff3b30", "modifiers": [{"frame": {"width": 30, "height": 12}}]},
         {"type": "zstack", "children": [
            {"type": "capsule", "fill": "#30d158", "modifiers": [{"frame": {"width": 40.25, "height": 16}}]},
            {"type": "circle", "fill": "#0a84ff", "modifiers": [{"frame": {"width": 8, "height": 8}}, {"offset": {"x": 6, "y": -3}}]}],
          "modifiers": [{"padding": {"leading": 3, "top": 2.5}}, {"offset": {"x": 5, "y": 2}}]},
         {"type": "spacer"}]},
       {"type": "rectangle", "fill": "#ffd60a", "modifiers": [{"frame": {"width": 50, "height": 7.3}}, {"padding": {"leading": 2.5}}]}]}}
    """

  @Test(
    "a view's mask covers exactly its frame as glass-gpu layout --json prints it, grown by 1 pt, at 1x, 2x and 3x",
    arguments: [1, 2, 3])
  func viewMasksMatchLayout(scale: Int) throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("views.json").path
    try Data(Self.views.utf8).write(to: URL(fileURLWithPath: path))
    let layout = try runCLI(["layout", path, "--json", "--scale", "\(scale)"])
    try #require(layout.status == 0, "\(layout.stderr)")
    let object = try JSONSerialization.jsonObject(with: layout.stdoutData) as? [String: Any]
    let views = try #require(object?["views"] as? [[String: Any]])
    var file = try SceneFile(path: path)
    file.scene.scale = scale
    let images = try file.loadImages()
    var checked = 0
    for view in views {
      let viewPath = try #require(view["path"] as? String)
      let f = try #require(view["frame"] as? [String: Any], "\(view)")
      func number(_ key: String) -> Double { (f[key] as? NSNumber)?.doubleValue ?? .nan }
      let grown = PointRect(
        x: number("x") - 1, y: number("y") - 1, width: number("width") + 2, height: number("height") + 2)
      let expected = Self.expectedPixels(grown, scale: Double(scale), canvas: file.scene.pixelSize)
      let rects = try ComparisonOptions(masks: [.path(viewPath)]).maskedPixels(in: file.scene, images: images)
      #expect(rects == expected.map { [$0] }, "\(viewPath) at \(scale)x: frame \(f)")
      checked += 1
    }
    #expect(checked == 18, "views laid out: \(checked)")
  }

  @Test("a view's mask in a centred stack, by hand: its frame grown by 1 pt, at 1x and 3x")
  func viewMaskByHand() throws {
    var scene = try Scene(
      json: Array(
        """
        {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#000000",
         "body": {"type": "hstack", "spacing": 0, "children": [
           {"type": "color", "color": "#ff0000", "modifiers": [{"frame": {"width": 40, "height": 20}}]},
           {"type": "color", "color": "#00ff00", "modifiers": [{"frame": {"width": 30, "height": 20}}]}]}}
        """.utf8))
    // The stack is 70 x 20 pt, centred: x 65, y 40; its children at x 65 and 105.
    let masks: [ComparisonMask] = [.path("body"), .path("body.children[0]"), .path("body.children[1].modifiers[0]")]
    #expect(
      try ComparisonOptions(masks: masks).maskedPixels(in: scene, images: SceneImages([:])) == [
        PixelRect(x: 64, y: 39, width: 72, height: 22), PixelRect(x: 64, y: 39, width: 42, height: 22),
        PixelRect(x: 104, y: 39, width: 32, height: 22),
      ])
    scene.scale = 3
    #expect(
      try ComparisonOptions(masks: [.path("body.children[1]")]).maskedPixels(in: scene, images: SceneImages([:]))
        == [PixelRect(x: 312, y: 117, width: 96, height: 66)])
  }

  @Test("goldens --mask with a view's path: a change inside the view passes; one 1 to 2 pt outside its frame fails")
  func viewMaskOnTheCommandLine() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("s.json")
    // The view: 40 x 20 pt, centred at x 80...120, y 40...60; its mask 79...121, 39...61.
    // A 1-pt stripe at x 121...122, just outside the mask.
    func write(view: String, stripe: String) throws {
      try Data(
        """
        {"version": 1, "size": {"width": 200, "height": 100}, "scale": 2, "background": "#000000",
         "layers": [{"type": "shape", "shape": "rect", "frame": {"x": 121, "y": 45, "width": 1, "height": 10}, "fill": "\(stripe)"}],
         "body": {"type": "hstack", "children": [
           {"type": "rectangle", "fill": "\(view)", "modifiers": [{"frame": {"width": 40, "height": 20}}]}]}}
        """.utf8
      ).write(to: scene)
    }
    try write(view: "#ff0000", stripe: "#808080")
    let base = ["goldens", scene.path, "--references", root.appendingPathComponent("refs").path]
    #expect(try runCLI(base + ["--record", "missing"]).status == 2)
    let mask = ["--mask", "body.children[0]"]
    try write(view: "#00ff00", stripe: "#808080")
    #expect(try runCLI(base).status == 1)
    let inside = try runCLI(base + mask)
    #expect(inside.status == 0, "\(inside.stdout) \(inside.stderr)")
    try write(view: "#ff0000", stripe: "#909090")
    let outside = try runCLI(base + mask)
    #expect(outside.status == 1 && outside.stdout.contains("FAIL"), "\(outside.stdout) \(outside.stderr)")
  }
}
