import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The examples of issue 36, written as SwiftUI code reads (the Swift API) or as a
/// scene file (through `glass-gpu layout --json`), each with SwiftUI's frames
/// worked out by hand from OpenSwiftUI's sources (files under
/// Sources/OpenSwiftUICore/). `LayoutRuleTests`' table works the same rules on
/// layout nodes.
extension LayoutRuleTests {
  /// The views of `scene` laid out.
  static func views(_ scene: Scene) throws -> [ResolvedView] {
    try scene.resolvedViews(images: SceneImages([:]))
  }

  /// The view at `path`.
  static func view(_ views: [ResolvedView], _ path: String) throws -> PointRect {
    try #require(views.first { $0.path == path }, "no view at \(path): \(views.map(\.path))").frame
  }

  @Test("issue 36, spacing: a framed spacer, a fixed-size spacer and an empty stack space as in SwiftUI")
  func spacingExamples() throws {
    // Spacer.swift: 0 above and below in a VStack; FrameLayout.swift keeps a spacer's spacing.
    let framed = try Self.views(
      Scene(width: 100, height: 100, scale: 1) {
        VStack {
          Color.red.frame(height: 10)
          Spacer().frame(height: 20)
          Color.blue.frame(height: 10)
        }
      })
    #expect(try Self.view(framed, "body").height == 40)
    // FixedSizeLayout.swift passes the spacer's priority (−∞) and spacing (0) on: the
    // rectangle gets 200 − 8 and starts at 8.
    let fixed = try Self.views(
      Scene(width: 100, height: 200, scale: 1) {
        VStack {
          Spacer().fixedSize()
          Rectangle()
        }
      })
    #expect(try Self.view(fixed, "body.children[1]") == PointRect(x: 0, y: 8, width: 100, height: 192))
    // StackLayout.swift: an empty stack wants 0 on every edge; A and B share 100.
    let empty = try Self.views(
      Scene(width: 100, height: 100, scale: 1) {
        VStack {
          Color.red
          HStack {}
          Color.blue
        }
      })
    let a = try Self.view(empty, "body.children[0]")
    let b = try Self.view(empty, "body.children[2]")
    #expect(b.y - a.maxY == 0 && a.height == 50 && b.height == 50)
  }

  @Test("issue 36, priority: padding reports 0, an overlay passes a spacer's on")
  func priorityExamples() throws {
    // LayoutView.swift: a UnaryLayout (padding) reports 0; offered 200, red is 100.
    let padded = try Self.views(
      Scene(width: 200, height: 50, scale: 1) {
        HStack(spacing: 0) {
          Color.red.layoutPriority(1).padding(0)
          Color.blue.frame(minWidth: 50)
        }
      })
    #expect(try Self.view(padded, "body.children[0].modifiers[1]").width == 100)
    // OverlayModifier.swift: the spacer with an overlay is still a spacer of priority −∞
    // and 0 spacing: 8 tall, the colours (100 − 8) / 2 each.
    let overlaid = try Self.views(
      Scene(width: 100, height: 100, scale: 1) {
        VStack {
          Color.red
          Spacer().overlay(Circle())
          Color.blue
        }
      })
    #expect(try Self.view(overlaid, "body.children[1].modifiers[0]") == PointRect(x: 50, y: 46, width: 0, height: 8))
    #expect(try Self.view(overlaid, "body.children[2]") == PointRect(x: 0, y: 54, width: 100, height: 46))
  }

  @Test("issue 36, a spacer in a background keeps its stack's axis: zero width in a VStack")
  func spacerInBackground() throws {
    // Spacer.swift takes the stack orientation input, which OverlayModifier.swift passes to
    // the secondary view unchanged: a vertical spacer offered 100 × 100 is 0 × 100, centred.
    let views = try Self.views(
      Scene(width: 100, height: 100, scale: 1) {
        VStack {
          Rectangle().background(Spacer())
        }
      })
    #expect(
      try Self.view(views, "body.children[0].modifiers[0].background.content")
        == PointRect(x: 50, y: 0, width: 0, height: 100))
    // In an HStack, 100 × 0.
    let row = try Self.views(
      Scene(width: 100, height: 100, scale: 1) {
        HStack {
          Rectangle().overlay(Spacer())
        }
      })
    #expect(
      try Self.view(row, "body.children[0].modifiers[0].overlay.content")
        == PointRect(x: 0, y: 50, width: 100, height: 0))
  }

  @Test("issue 36, a ZStack aligns its children by their guides")
  func zstackGuides() throws {
    // ZStack.swift: sized in 100 × 50 the stack is 100 × 80 (y −15); placed, the 2:1 fill is
    // 160 × 80 and the guide max(80, 5): the fill at x 0, the 10-wide colour at 75.
    let views = try Self.views(
      Scene(width: 100, height: 50, scale: 1) {
        ZStack {
          Color.red.aspectRatio(2, contentMode: .fill)
          Color.blue.frame(width: 10, height: 80)
        }
      })
    #expect(try Self.view(views, "body.children[0]") == PointRect(x: 0, y: -15, width: 160, height: 80))
    #expect(try Self.view(views, "body.children[1]") == PointRect(x: 75, y: -15, width: 10, height: 80))
  }

  @Test("issue 36, layout --json prints a frame with no finite size as null, warns, and stays JSON")
  func nonFiniteJSON() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // One child: the HStack is the spacer, fixedSize offers nil × nil: 8 × 0, finite.
    let one = folder.appendingPathComponent("one.json")
    try Data(
      #"""
      {"version": 1, "size": {"width": 100, "height": 100}, "scale": 1, "body": {"type": "hstack",
        "modifiers": [{"fixedSize": true}], "children": [{"type": "spacer", "modifiers": [{"scaledToFit": true}]}]}}
      """#.utf8
    ).write(to: one)
    let first = try runCLI(["layout", one.path, "--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
    let frames = try #require(document["views"] as? [[String: Any]]).compactMap { $0["frame"] as? [String: Double] }
    #expect(frames.count == 4 && frames.allSatisfy { $0["width"] == 8 && $0["height"] == 0 }, "\(first.stdout)")
    #expect(!first.stderr.contains("warning"), "\(first.stderr)")
    // Two children: SwiftUI gives the first spacer an infinite width, centred at no number
    // (∞ − ∞) in its aspect ratio's infinite width, and places the second after it, at ∞
    // (AspectRatioLayout.swift offers ∞ × 0 under a nil width and a height of 0, the
    // stack's). Nothing drawn lies there (a colour there would be an error: no layer can be
    // drawn at infinity).
    let two = folder.appendingPathComponent("two.json")
    try Data(
      #"""
      {"version": 1, "size": {"width": 100, "height": 100}, "scale": 1, "body": {"type": "hstack",
        "modifiers": [{"fixedSize": true}], "children": [{"type": "spacer", "modifiers": [{"scaledToFit": true}]},
        {"type": "spacer"}]}}
      """#.utf8
    ).write(to: two)
    let second = try runCLI(["layout", two.path, "--json"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(!second.stdout.contains("inf") && !second.stdout.contains("nan"), "\(second.stdout)")
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
    let views = try #require(parsed["views"] as? [[String: Any]])
    let spacer = try #require(views.first { $0["path"] as? String == "body.children[0]" })
    let frame = try #require(spacer["frame"] as? [String: Any])
    #expect(frame["x"] is NSNull && frame["width"] is NSNull && frame["height"] as? Double == 0, "\(frame)")
    let after = try #require(views.first { $0["path"] as? String == "body.children[1]" }?["frame"] as? [String: Any])
    #expect(after["x"] is NSNull, "\(after)")
    #expect(
      second.stderr.contains("warning: \(two.path): body.children[0]: the spacer's frame has no finite x or width"),
      "\(second.stderr)")
  }
}

extension LayoutRuleTests {
  @Test("an ignoresSafeArea background of content taller than the safe area reaches the canvas's edges")
  func ignoresSafeAreaPastTheEdge() throws {
    // The safe area is 390 × (300 − 47 − 34) = 219; the red content is 260 tall, so the
    // ZStack is 260 tall, centred: y 47 + (219 − 260) / 2 = 26.5 … 286.5, past both safe
    // edges but inside the canvas. SwiftUI extends a view that reaches the safe area's edge
    // or lies past it, up to the canvas (OpenSwiftUI's SafeAreaInsets.adjust,
    // Layout/SafeAreaInsets.swift): the blue fills 0 … 300. (It used to extend only a view
    // that touched the safe edge exactly, leaving bands of 26.5 and 13.5 pt: the issue's
    // accessibility3 bands, where large text made the content taller than the safe area.)
    var scene = Scene(width: 390, height: 300, scale: 2) {
      ZStack {
        Color.blue.ignoresSafeArea()
        Color.red.frame(height: 260)
      }
    }
    scene.safeAreaInsets = EdgeInsets(top: 47, bottom: 34)
    let views = try Self.views(scene)
    #expect(try Self.view(views, "body") == PointRect(x: 0, y: 26.5, width: 390, height: 260))
    #expect(try Self.view(views, "body.children[0]") == PointRect(x: 0, y: 0, width: 390, height: 300))
    // Content shorter than the safe area: the blue touches both safe edges and is extended
    // to the canvas as before; a view inside the safe area, not at its edge, is not.
    var short = Scene(width: 390, height: 300, scale: 2) {
      ZStack {
        Color.blue.ignoresSafeArea()
        Color.green.frame(width: 20, height: 20).ignoresSafeArea()
      }
    }
    short.safeAreaInsets = EdgeInsets(top: 47, bottom: 34)
    let shortViews = try Self.views(short)
    #expect(try Self.view(shortViews, "body.children[0]") == PointRect(x: 0, y: 0, width: 390, height: 300))
    #expect(try Self.view(shortViews, "body.children[1]") == PointRect(x: 185, y: 146.5, width: 20, height: 20))
  }
}

extension LayoutRuleTests {
  /// A 4 × 1 image: red, green, blue, yellow columns.
  static let stripes = RGBAImage(width: 4, height: 1) { x, _ in
    [SIMD4<UInt8>(255, 0, 0, 255), SIMD4(0, 255, 0, 255), SIMD4(0, 0, 255, 255), SIMD4(255, 255, 0, 255)][x]
  }

  @Test("a resizable image is drawn stretched to its frame, its ratio kept only by aspectRatio")
  func resizableImages() throws {
    let images = SceneImages(["stripes.png": Self.stripes])
    // SwiftUI's Image.resizable() fills its frame whatever its ratio (ResolvedImage.swift: its
    // frame in its view is the whole rect): the 4 × 1 image in 100 × 100 is stretched, not cropped.
    let stretched = Scene(width: 100, height: 100, scale: 1) {
      Image("stripes.png").resizable().frame(width: 100, height: 100)
    }
    let layers = try stretched.laidOut(images: images).layers
    guard case .image(let layer) = try #require(layers.first) else {
      Issue.record("no image layer: \(layers)")
      return
    }
    #expect(layer.contentMode == .stretch && layer.frame == PointRect(x: 0, y: 0, width: 100, height: 100))
    // aspectRatio(2, .fit) in 100 × 100: the frame is 100 × 50 (AspectRatioLayout.swift), and the
    // image is stretched to it: 2:1, not its own 4:1 letterboxed.
    let ratio = Scene(width: 100, height: 100, scale: 1) {
      Image("stripes.png").resizable().aspectRatio(2, contentMode: .fit).frame(width: 100, height: 100)
    }
    guard case .image(let fitted) = try #require(try ratio.laidOut(images: images).layers.first) else { return }
    #expect(fitted.contentMode == .stretch && fitted.frame == PointRect(x: 0, y: 25, width: 100, height: 50))
    // Drawn: the columns are 25 wide each; cropped by fill, the frame would show green and blue only.
    let drawn = ImageResampler.fit(Self.stripes, to: PixelSize(width: 100, height: 100), mode: .stretch)
    for (x, want) in [(5, SIMD4<UInt16>(65535, 0, 0, 65535)), (95, SIMD4(65535, 65535, 0, 65535))] {
      #expect(drawn.pixel16(x: x, y: 50) == want, "column \(x): \(drawn.pixel16(x: x, y: 50))")
    }
    // scaledToFill in a smaller frame overflows it (no clipped()): 400 × 100 centred on 100 × 100.
    let filled = Scene(width: 100, height: 100, scale: 1) {
      Image("stripes.png").resizable().scaledToFill().frame(width: 100, height: 100)
    }
    guard case .image(let over) = try #require(try filled.laidOut(images: images).layers.first) else { return }
    #expect(over.frame == PointRect(x: -150, y: 0, width: 400, height: 100))
  }
}
