import AppleExamples
import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The environment a scene is rendered in: adaptive colours against Apple's
/// published tables, Dynamic Type against Apple's sizes, right to left as the
/// mirror image of left to right, and the scene file's and the command line's
/// spelling of it.
@Suite("Environment: appearance, contrast, direction and type size")
struct EnvironmentTests {
  // MARK: Colours

  /// Apple's Human Interface Guidelines, Color, Specifications (June 2025): the
  /// system colours and grays as the page prints them, default light, default
  /// dark, increased contrast light, increased contrast dark.
  static let publishedSystemColors: [(name: String, values: String)] = [
    ("red", "R-255,G-56,B-60 | R-255,G-66,B-69 | R-233,G-21,B-45 | R-255,G-97,B-101"),
    ("orange", "R-255,G-141,B-40 | R-255,G-146,B-48 | R-197,G-83,B-0 | R-255,G-160,B-86"),
    ("yellow", "R-255,G-204,B-0 | R-255,G-214,B-0 | R-161,G-106,B-0 | R-254,G-223,B-67"),
    ("green", "R-52,G-199,B-89 | R-48,G-209,B-88 | R-0,G-137,B-50 | R-74,G-217,B-104"),
    ("mint", "R-0,G-200,B-179 | R-0,G-218,B-195 | R-0,G-133,B-117 | R-84,G-223,B-203"),
    ("teal", "R-0,G-195,B-208 | R-0,G-210,B-224 | R-0,G-129,B-152 | R-59,G-221,B-236"),
    ("cyan", "R-0,G-192,B-232 | R-60,G-211,B-254 | R-0,G-126,B-174 | R-109,G-217,B-255"),
    ("blue", "R-0,G-136,B-255 | R-0,G-145,B-255 | R-30,G-110,B-244 | R-92,G-184,B-255"),
    ("indigo", "R-97,G-85,B-245 | R-109,G-124,B-255 | R-86,G-74,B-222 | R-167,G-170,B-255"),
    ("purple", "R-203,G-48,B-224 | R-219,G-52,B-242 | R-176,G-47,B-194 | R-234,G-141,B-255"),
    ("pink", "R-255,G-45,B-85 | R-255,G-55,B-95 | R-231,G-18,B-77 | R-255,G-138,B-196"),
    ("brown", "R-172,G-127,B-94 | R-183,G-138,B-102 | R-149,G-109,B-81 | R-219,G-166,B-121"),
    ("gray", "R-142,G-142,B-147 | R-142,G-142,B-147 | R-108,G-108,B-112 | R-174,G-174,B-178"),
    ("systemGray2", "R-174,G-174,B-178 | R-99,G-99,B-102 | R-142,G-142,B-147 | R-124,G-124,B-128"),
    ("systemGray3", "R-199,G-199,B-204 | R-72,G-72,B-74 | R-174,G-174,B-178 | R-84,G-84,B-86"),
    ("systemGray4", "R-209,G-209,B-214 | R-58,G-58,B-60 | R-188,G-188,B-192 | R-68,G-68,B-70"),
    ("systemGray5", "R-229,G-229,B-234 | R-44,G-44,B-46 | R-216,G-216,B-220 | R-54,G-54,B-56"),
    ("systemGray6", "R-242,G-242,B-247 | R-28,G-28,B-30 | R-235,G-235,B-240 | R-36,G-36,B-38"),
  ]

  /// UIKit's dynamic label, background, fill and separator colours, as ARGB
  /// bytes (the form Flutter's CupertinoColors copies them in): light, dark,
  /// increased contrast light, increased contrast dark, base elevation.
  static let uikitColors: [(name: String, argb: [[Int]])] = [
    ("label", [[255, 0, 0, 0], [255, 255, 255, 255], [255, 0, 0, 0], [255, 255, 255, 255]]),
    ("secondaryLabel", [[153, 60, 60, 67], [153, 235, 235, 245], [173, 60, 60, 67], [173, 235, 235, 245]]),
    ("tertiaryLabel", [[76, 60, 60, 67], [76, 235, 235, 245], [96, 60, 60, 67], [96, 235, 235, 245]]),
    ("quaternaryLabel", [[45, 60, 60, 67], [40, 235, 235, 245], [66, 60, 60, 67], [61, 235, 235, 245]]),
    ("placeholderText", [[76, 60, 60, 67], [76, 235, 235, 245], [96, 60, 60, 67], [96, 235, 235, 245]]),
    ("systemFill", [[51, 120, 120, 128], [91, 120, 120, 128], [71, 120, 120, 128], [112, 120, 120, 128]]),
    ("secondarySystemFill", [[40, 120, 120, 128], [81, 120, 120, 128], [61, 120, 120, 128], [102, 120, 120, 128]]),
    ("tertiarySystemFill", [[30, 118, 118, 128], [61, 118, 118, 128], [51, 118, 118, 128], [81, 118, 118, 128]]),
    ("quaternarySystemFill", [[20, 116, 116, 128], [45, 118, 118, 128], [40, 116, 116, 128], [66, 118, 118, 128]]),
    ("systemBackground", [[255, 255, 255, 255], [255, 0, 0, 0], [255, 255, 255, 255], [255, 0, 0, 0]]),
    (
      "secondarySystemBackground",
      [[255, 242, 242, 247], [255, 28, 28, 30], [255, 235, 235, 240], [255, 36, 36, 38]]
    ),
    (
      "tertiarySystemBackground",
      [[255, 255, 255, 255], [255, 44, 44, 46], [255, 255, 255, 255], [255, 54, 54, 56]]
    ),
    ("systemGroupedBackground", [[255, 242, 242, 247], [255, 0, 0, 0], [255, 235, 235, 240], [255, 0, 0, 0]]),
    (
      "secondarySystemGroupedBackground",
      [[255, 255, 255, 255], [255, 28, 28, 30], [255, 255, 255, 255], [255, 36, 36, 38]]
    ),
    (
      "tertiarySystemGroupedBackground",
      [[255, 242, 242, 247], [255, 44, 44, 46], [255, 235, 235, 240], [255, 54, 54, 56]]
    ),
    ("separator", [[73, 60, 60, 67], [153, 84, 84, 88], [94, 60, 60, 67], [173, 84, 84, 88]]),
    ("opaqueSeparator", [[255, 198, 198, 200], [255, 56, 56, 58], [255, 198, 198, 200], [255, 56, 56, 58]]),
    // SwiftUI's primary and secondary are the label colours.
    ("primary", [[255, 0, 0, 0], [255, 255, 255, 255], [255, 0, 0, 0], [255, 255, 255, 255]]),
    ("secondary", [[153, 60, 60, 67], [153, 235, 235, 245], [173, 60, 60, 67], [173, 235, 235, 245]]),
  ]

  /// The four environments of the tables, in their order.
  static let appearances: [(ColorScheme, Bool)] = [(.light, false), (.dark, false), (.light, true), (.dark, true)]

  /// A colour's bytes, r g b a.
  static func bytes(_ c: Color) -> [Int] {
    [c.red, c.green, c.blue, c.opacity].map { Int(($0 * 255).rounded()) }
  }

  /// "R-255,G-56,B-60" as bytes, opaque (-1 for a part that is not a number).
  static func parse(_ printed: String) -> [Int] {
    printed.split(separator: ",").map { Int($0.split(separator: "-")[1].trimmingCharacters(in: .whitespaces)) ?? -1 }
      + [255]
  }

  @Test("every system colour and gray takes Apple's published value in light, dark and with Increase Contrast")
  func systemColors() throws {
    for (name, printed) in Self.publishedSystemColors {
      let color = try #require(Color.named[name], "\(name) is not a named colour")
      let expected = printed.split(separator: "|").map { Self.parse(String($0)) }
      for ((scheme, contrast), value) in zip(Self.appearances, expected) {
        let got = Self.bytes(color.resolved(colorScheme: scheme, increasedContrast: contrast))
        #expect(got == value, "\(name) \(scheme) contrast \(contrast)")
      }
    }
  }

  @Test("every label, background, fill and separator colour takes UIKit's value in each appearance")
  func semanticColors() throws {
    for (name, argb) in Self.uikitColors {
      let color = try #require(Color.named[name], "\(name) is not a named colour")
      for ((scheme, contrast), value) in zip(Self.appearances, argb) {
        let env = EnvironmentValues().with(\.colorScheme, scheme).with(\.accessibilityIncreaseContrast, contrast)
        #expect(Self.bytes(color.resolved(in: env)) == [value[1], value[2], value[3], value[0]], "\(name) \(env)")
      }
    }
    // Every named colour is in one of the two tables, or fixed.
    let tabled = Set(Self.publishedSystemColors.map(\.name) + Self.uikitColors.map(\.name))
    for (name, color) in Color.namedColors where !tabled.contains(name) {
      #expect(!color.isAdaptive, "\(name) adapts but no table checks it")
    }
  }

  @Test("a colour per appearance: each value resolved in its own appearance; opacity applies to every appearance")
  func customAdaptive() {
    let c = Color(light: .red, dark: .indigo)
    #expect(Self.bytes(c) == [255, 56, 60, 255])
    #expect(Self.bytes(c.resolved(colorScheme: .dark, increasedContrast: false)) == [109, 124, 255, 255])
    #expect(Self.bytes(c.resolved(colorScheme: .light, increasedContrast: true)) == [233, 21, 45, 255])
    #expect(Self.bytes(c.resolved(colorScheme: .dark, increasedContrast: true)) == [167, 170, 255, 255])
    let half = Color.red.opacity(0.5).resolved(colorScheme: .dark, increasedContrast: false)
    #expect(Self.bytes(half) == [255, 66, 69, 128])
    // Resolved, it no longer adapts.
    #expect(!half.isAdaptive && half.resolved(colorScheme: .light, increasedContrast: false) == half)
  }

  @Test("a scene's adaptive colours render their dark value in dark, their light value in light")
  func rendersInAppearance() throws {
    let json = SceneJSON.scene(
      width: 8, height: 4, scale: 1, background: "systemBackground",
      layers: #"{"type": "shape", "shape": "rect", "frame": {"x": 4, "y": 0, "width": 4, "height": 4}, "#
        + ##""fill": {"light": "#102030", "dark": "red"}}"##)
    let light = try TestBackend.cpu.render(json: json)
    var scene = try Scene(json: Array(json.utf8))
    scene.environment.colorScheme = .dark
    let dark = try TestBackend.cpu.render(scene)
    #expect(light.rgba8(1, 1) == SIMD4(255, 255, 255, 255) && light.rgba8(6, 1) == SIMD4(0x10, 0x20, 0x30, 255))
    #expect(dark.rgba8(1, 1) == SIMD4(0, 0, 0, 255) && dark.rgba8(6, 1) == SIMD4(255, 66, 69, 255))
  }

  // MARK: Dynamic Type

  /// Apple's Human Interface Guidelines, Typography, iOS Dynamic Type sizes:
  /// points per text style, xSmall … xxxLarge, then AX1 … AX5.
  static let publishedSizes: [(style: String, sizes: String)] = [
    ("largeTitle", "31 32 33 34 36 38 40 | 44 48 52 56 60"),
    ("title", "25 26 27 28 30 32 34 | 38 43 48 53 58"),
    ("title2", "19 20 21 22 24 26 28 | 34 39 44 50 56"),
    ("title3", "17 18 19 20 22 24 26 | 31 37 43 49 55"),
    ("headline", "14 15 16 17 19 21 23 | 28 33 40 47 53"),
    ("body", "14 15 16 17 19 21 23 | 28 33 40 47 53"),
    ("callout", "13 14 15 16 18 20 22 | 26 32 38 44 51"),
    ("subheadline", "12 13 14 15 17 19 21 | 25 30 36 42 49"),
    ("footnote", "12 12 12 13 15 17 19 | 23 27 33 38 44"),
    ("caption", "11 11 11 12 14 16 18 | 22 26 32 37 43"),
    ("caption2", "11 11 11 11 13 15 17 | 20 24 29 34 41"),
  ]

  @Test("every text style at every Dynamic Type size is Apple's size, from the scene file's names to the laid-out text")
  func dynamicTypeTable() throws {
    let sizeNames = [
      "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "accessibility1", "accessibility2",
      "accessibility3", "accessibility4", "accessibility5",
    ]
    #expect(DynamicTypeSize.allCases.map(\.rawValue) == sizeNames)
    #expect(Set(Self.publishedSizes.map(\.style)) == Set(Font.TextStyle.allCases.map(\.rawValue)))
    for (styleName, printed) in Self.publishedSizes {
      let sizes = printed.split(separator: " ").filter { $0 != "|" }.map { Double(String($0))! }
      let style = try #require(Font.TextStyle(rawValue: styleName))
      for (sizeName, points) in zip(sizeNames, sizes) {
        let size = try #require(DynamicTypeSize(rawValue: sizeName))
        #expect(Font.system(style).scaled(to: size).size == points, "\(styleName) at \(sizeName)")
      }
    }
    // Through the file: a text layer in "title3" at accessibility2 is laid out in 37 pt.
    let json = #"""
      {"version": 1, "size": {"width": 300, "height": 100}, "environment": {"dynamicTypeSize": "accessibility2"},
       "layers": [{"type": "text", "text": "Hi", "font": "title3", "frame": {"x": 0, "y": 0}},
                  {"type": "text", "text": "Hi", "font": {"size": 13}, "frame": {"x": 0, "y": 50}},
                  {"type": "text", "text": "Hi", "font": {"size": 34, "relativeTo": "body"}, "frame": {"x": 0, "y": 60}}]}
      """#
    let laid = try Scene(json: Array(json.utf8)).laidOut(images: SceneImages([:]))
    let fonts = laid.layers.compactMap { layer -> Double? in
      if case .text(let t) = layer { return t.text.font.size }
      return nil
    }
    // A fixed size stays; a size relative to body scales by body's 33 / 17.
    #expect(fonts == [37, 13, 34 * 33 / 17.0])
  }

  /// The outermost frame of every view path, in layout order.
  static func framesByPath(_ views: [ResolvedView]) -> [(path: String, kind: String, frame: PointRect)] {
    var seen = Set<String>()
    return views.compactMap { view in seen.insert(view.path).inserted ? (view.path, view.kind, view.frame) : nil }
  }

  /// A settings screen written with text styles: rows of a label, a value and
  /// a spacer, a footnote paragraph, and a glass button.
  static var settingsScreen: Scene {
    Scene(width: 390, height: 844, safeAreaInsets: EdgeInsets(top: 47, leading: 0, bottom: 34, trailing: 0)) {
      VStack(alignment: .leading, spacing: 12) {
        Text("Settings").font(.largeTitle)
        HStack {
          Label("Wi-Fi", systemImage: "star.fill")
          Spacer()
          Text("Home").foregroundStyle(.secondary)
        }
        HStack {
          Label("Bluetooth", systemImage: "heart.fill")
          Spacer()
          Text("On").foregroundStyle(.secondary)
        }
        Text("Apps that use your location appear here, with how often they asked for it in the last seven days.")
          .font(.footnote)
        Button("Done").buttonStyle(.glass)
      }.padding()
    }
  }

  @Test(
    "at accessibility5 text grows to Apple's sizes and the screen reflows: stacked siblings never overlap, nothing is wider than the canvas, and fixed sizes stay",
    arguments: ["settings", "layout-signin", "layout-badge-column", "layout-custom-views"])
  func largestTypeReflows(name: String) throws {
    let base: Scene
    let images: SceneImages
    if name == "settings" {
      (base, images) = (Self.settingsScreen, SceneImages([:]))
    } else {
      let file = try SceneFile(path: DemoScenes.path(name))
      (base, images) = (file.scene, try file.loadImages())
    }
    let scene = base.environment(\.dynamicTypeSize, .accessibility5)
    let large = Self.framesByPath(try base.resolvedViews(images: images))
    let views = Self.framesByPath(try scene.resolvedViews(images: images))
    #expect(views.map(\.path) == large.map(\.path))
    // Text in a text style grows (body 17 → 53 pt, largeTitle 34 → 60); the
    // badge column and the custom views give every font a fixed size, which stays.
    let grew = zip(large, views).filter { $0.kind == "text" && $1.frame.height > $0.frame.height * 1.5 }.count
    let fixedSizes = name == "layout-badge-column" || name == "layout-custom-views"
    #expect(fixedSizes ? grew == 0 : grew >= 2, "\(name): \(grew) texts grew")
    if fixedSizes { #expect(views.map(\.frame) == large.map(\.frame)) }
    let byPath = Dictionary(views.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    var pairs = 0
    for view in views where view.kind == "vstack" || view.kind == "hstack" {
      var siblings: [PointRect] = []
      var i = 0
      while let child = byPath["\(view.path).children[\(i)]"] {
        siblings.append(child.frame)
        i += 1
      }
      for (a, b) in zip(siblings, siblings.dropFirst()) {
        pairs += 1
        let apart = view.kind == "vstack" ? a.maxY <= b.y + 1e-6 : a.maxX <= b.x + 1e-6
        #expect(apart, "\(name): \(view.path)'s children overlap: \(a) and \(b)")
      }
    }
    if !fixedSizes { #expect(pairs >= 2) }
    for view in views where view.kind == "text" {
      #expect(view.frame.width <= scene.size.width + 1e-6, "\(name): \(view.path) is \(view.frame.width) wide")
    }
    if name == "settings" {
      // The footnote wraps onto more lines at accessibility5 (44 pt instead of 13).
      let note = try #require(views.first { $0.kind == "text" && $0.path.hasSuffix("children[3]") })
      let before = try #require(large.first { $0.path == note.path })
      #expect(note.frame.height > before.frame.height * 5, "\(before.frame) → \(note.frame)")
    }
  }

  // MARK: Right to left

  @Test(
    "right to left, every view's frame is its left-to-right frame mirrored across the canvas (x' = W − x − w)",
    arguments: ["layout-signin", "layout-badges", "layout-badge-column", "layout-custom-views"])
  func mirrored(name: String) throws {
    let file = try SceneFile(path: DemoScenes.path(name))
    let images = try file.loadImages()
    for (_, part) in try AppleExamplesTests.parts(file.scene) {
      let ltr = try part.resolvedViews(images: images)
      let rtl = try part.environment(\.layoutDirection, .rightToLeft).resolvedViews(images: images)
      #expect(ltr.count == rtl.count && ltr.count > 3)
      let width = part.size.width
      // Exactly: the canvas is a whole number of pixels wide, so snapping the
      // mirrored edges to device pixels gives the mirror of the snapped ones.
      let pixel = 1e-9
      for (a, b) in zip(ltr, rtl) {
        #expect(a.path == b.path && a.kind == b.kind)
        #expect(
          abs(b.frame.x - (width - a.frame.x - a.frame.width)) <= pixel && abs(b.frame.width - a.frame.width) <= pixel
            && b.frame.y == a.frame.y && b.frame.height == a.frame.height,
          "\(name) \(a.path): \(a.frame) mirrors to \(b.frame)")
      }
    }
  }

  @Test(
    "right to left, an HStack's first child is its rightmost, leading alignment is the right edge, and text lines align right"
  )
  func rightToLeftSemantics() throws {
    let scene = Scene(width: 300, height: 200) {
      VStack(alignment: .leading) {
        HStack {
          Text("One")
          Text("Two")
        }
        Text("A line long enough to wrap onto a second line here").frame(width: 120)
          .multilineTextAlignment(.leading)
      }.frame(maxWidth: .infinity, alignment: .leading)
    }
    let rtl = scene.environment(\.layoutDirection, .rightToLeft)
    let views = Self.framesByPath(try rtl.resolvedViews(images: SceneImages([:])))
    let one = try #require(views.first { $0.path.hasSuffix("children[0].children[0]") })
    let two = try #require(views.first { $0.path.hasSuffix("children[0].children[1]") })
    #expect(one.frame.x > two.frame.x, "One \(one.frame) should be right of Two \(two.frame)")
    #expect(abs(one.frame.maxX - 300) < 1, "leading is the right edge: \(one.frame)")
    // The wrapped text's lines end at its frame's right edge: rendered, each
    // line's ink reaches the right side of the 120-point column.
    let laid = try rtl.laidOut(images: SceneImages([:]))
    let text = try #require(
      laid.layers.compactMap { layer -> TextLayer? in
        if case .text(let t) = layer, t.text.string.hasPrefix("A line") { return t }
        return nil
      }.first)
    #expect(text.text.layoutDirection == .rightToLeft)
    let layout = try ContentLayout(
      text.text, maxWidth: text.text.lineBreakWidth, directory: ".", caches: RenderCaches())
    let lines = try #require(layout.text?.lines)
    #expect(lines.count >= 2)
    for line in lines {
      #expect(abs(line.x + line.width - (layout.text?.width ?? 0)) < 1e-6, "\(line.x) \(line.width)")
    }
  }

  @Test("a Hebrew and an Arabic label on glass: the icon is on the right and the first letter is drawn rightmost")
  func rightToLeftLabels() throws {
    for string in ["שלום", "مرحبا"] {
      var content = TextContent(string, systemImage: "star.fill", font: .custom("DejaVu Sans", size: 17))
      content.layoutDirection = .rightToLeft
      let layout = try ContentLayout(content, maxWidth: nil, directory: ".", caches: RenderCaches())
      #expect(layout.iconFrame.x > layout.textOrigin.x, "\(string): the icon should be right of the text")
      let run = try #require(layout.text?.lines.first?.runs.first)
      #expect(run.isRightToLeft, "\(string)")
      // HarfBuzz gives right-to-left glyphs in visual order: the first
      // character's glyph (cluster 0) is the last, rightmost one.
      #expect(run.glyphs.last?.cluster == run.glyphs.map(\.cluster).min(), "\(string)")
    }
  }

  // MARK: Reduce Motion

  /// A glass capsule moving from x 20 to x 200 along `animation`.
  static func moving(_ animation: String, reduceMotion: Bool) throws -> Scene {
    let glass = { (x: Int) in #"{"type": "glass", "frame": {"x": \#(x), "y": 20, "width": 60, "height": 30}}"# }
    let json = """
      {"version": 1, "size": {"width": 300, "height": 80}, "scale": 1,
       "environment": {"accessibilityReduceMotion": \(reduceMotion)},
       "states": {"a": {"layers": [\(glass(20))]}, "b": {"layers": [\(glass(200))]}},
       "transition": {"from": "a", "to": "b", "animation": \(animation)}}
      """
    return try Scene(json: Array(json.utf8))
  }

  /// The glass's x in every frame of the transition at 120 fps.
  static func positions(_ scene: Scene) throws -> [Double] {
    let transition = try #require(scene.transition)
    let end = transition.inEnvironment(scene.environment).animation.settleTime
    return try stride(from: 0.0, through: end + 0.05, by: 1 / 120).map { t in
      guard case .glass(let g) = try scene.frame(at: t).layers[0] else { return .nan }
      return g.frame.x
    }
  }

  @Test(
    "Reduce Motion: a bouncy spring and an overshooting curve never pass their end, frame by frame, and still arrive")
  func reduceMotion() throws {
    for animation in [
      #""bouncy""#, #"{"type": "spring", "duration": 0.4, "bounce": 0.6}"#,
      #"{"type": "timingCurve", "duration": 0.5, "x1": 0.3, "y1": -0.4, "x2": 0.6, "y2": 1.6}"#,
    ] {
      let free = try Self.positions(try Self.moving(animation, reduceMotion: false))
      let reduced = try Self.positions(try Self.moving(animation, reduceMotion: true))
      #expect(free.max() ?? 0 > 200.5, "\(animation): without Reduce Motion it overshoots")
      #expect(
        reduced.allSatisfy { $0 >= 20 && $0 <= 200 }, "\(animation): \(reduced.min() ?? 0) … \(reduced.max() ?? 0)")
      #expect(reduced.last == 200 && reduced.first == 20)
    }
    // The spring keeps its duration and loses its bounce: SwiftUI's smooth.
    #expect(TimingCurve.bouncy.withoutOvershoot == .smooth)
    #expect(TimingCurve.easeInOut().withoutOvershoot == .easeInOut())
    // glass-gpu animate renders the curve without overshoot too: as many frames as smooth's.
    let scene = try Self.moving(#""bouncy""#, reduceMotion: true)
    let animation = try AnimationRenderer(scene: scene, options: AnimationRenderer.Options(fps: 30))
    #expect(animation.transition.animation == .smooth)
  }

  // MARK: Reduce Transparency

  /// The backdrop's detail that shows in `rect`: the variance of the
  /// luminance (8-bit steps squared) there, the energy above its mean (the glass
  /// body's own light is flat there, so what varies is the backdrop).
  static func detailEnergy(_ image: RGBAImage, _ rect: PixelRect) -> Double {
    var values: [Double] = []
    for y in rect.y..<(rect.y + rect.height) {
      for x in rect.x..<(rect.x + rect.width) {
        let p = image.rgba8(x, y)
        values.append(0.2126 * Double(p.x) + 0.7152 * Double(p.y) + 0.0722 * Double(p.z))
      }
    }
    let mean = values.reduce(0, +) / Double(max(values.count, 1))
    return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(values.count, 1))
  }

  @Test(
    "Reduce Transparency: regular glass over a checker passes at most a hundredth of the backdrop's detail it passes by default"
  )
  func reduceTransparency() throws {
    let checker = ProceduralImages.checker(width: 200, height: 120, cell: 24)
    var scene = Scene(
      size: PointSize(width: 200, height: 120), scale: 1, background: .image("photo", contentMode: .fill))
    scene.layers = [
      .glass(
        GlassLayer(
          glass: .regular, shape: .roundedRect(cornerRadius: 12, style: .continuous),
          frame: PointRect(x: 30, y: 20, width: 140, height: 80))),
      .glass(
        GlassLayer(
          glass: .clear, shape: .capsule, frame: PointRect(x: 60, y: 104, width: 80, height: 14),
          optics: GlassOptics.Overrides(["frost": 2]))),
    ]
    // The body, well inside the bevel (20 pt) of the regular glass.
    let body = PixelRect(x: 60, y: 45, width: 80, height: 30)
    let backdrop = Self.detailEnergy(checker, body)
    let plain = Self.detailEnergy(try TestBackend.cpu.render(scene, images: ["photo": checker]), body)
    let reduced = try TestBackend.cpu.render(
      scene.environment(\.accessibilityReduceTransparency, true), images: ["photo": checker])
    let frosted = Self.detailEnergy(reduced, body)
    print("detail energy: backdrop \(backdrop), glass \(plain), Reduce Transparency \(frosted)")
    #expect(plain > 100 && frosted * 100 <= plain, "backdrop \(backdrop), glass \(plain), reduced \(frosted)")
    // Every glass got the frost, the user's own override included, and no dispersion.
    let laid = try scene.environment(\.accessibilityReduceTransparency, true).laidOut(images: SceneImages([:]))
    for layer in laid.layers {
      guard case .glass(let g) = layer else { continue }
      let optics = GlassOptics(g.glass.variant, overrides: g.optics)
      #expect(optics.frost == GlassOptics.reducedTransparencyFrost && optics.dispersion == 0)
    }
  }

  // MARK: The format

  @Test("the scene file's environment reads, writes back the same, and refuses unknown settings and values by path")
  func sceneFile() throws {
    let json =
      SceneJSON.scene(width: 40, height: 40).dropLast()
      + #", "environment": {"colorScheme": "dark", "accessibilityIncreaseContrast": true, "#
      + #""layoutDirection": "rightToLeft", "dynamicTypeSize": "accessibility3"}}"#
    let scene = try Scene(json: Array(json.utf8))
    var expected = EnvironmentValues()
    expected.colorScheme = .dark
    expected.accessibilityIncreaseContrast = true
    expected.layoutDirection = .rightToLeft
    expected.dynamicTypeSize = .accessibility3
    #expect(scene.environment == expected)
    #expect(try Scene(json: Array(scene.json.utf8)) == scene)
    #expect(!scene.json.contains("environment") == false)
    #expect(!(try Scene(json: Array(SceneJSON.scene(width: 40, height: 40).utf8))).json.contains("environment"))
    for (bad, path, words) in [
      (#"{"colorSchem": "dark"}"#, "environment.colorSchem", "unknown field"),
      (#"{"colorScheme": "purple"}"#, "environment.colorScheme", "purple"),
      (#"{"dynamicTypeSize": "huge"}"#, "environment.dynamicTypeSize", "accessibility5"),
      (#"{"accessibilityIncreaseContrast": "yes"}"#, "environment.accessibilityIncreaseContrast", "true or false"),
    ] {
      let text = SceneJSON.scene(width: 40, height: 40).dropLast() + #", "environment": \#(bad)}"#
      let error = #expect(throws: GlassError.self) { try Scene(json: Array(text.utf8)) }
      #expect(error?.jsonPath == path, "\(bad): \(String(describing: error))")
      #expect(error?.message.contains(words) == true, "\(bad): \(String(describing: error))")
    }
  }

  @Test("adaptive colours and relative fonts write back as they were read")
  func roundTrips() throws {
    let json = SceneJSON.scene(
      width: 40, height: 40, background: ##"{"light": "white", "dark": "#000000"}"##,
      layers: #"{"type": "text", "text": "Hi", "font": {"size": 20, "relativeTo": "headline"}, "#
        + #""foregroundStyle": "secondaryLabel", "frame": {"x": 0, "y": 0}}"#)
    let scene = try Scene(json: Array(json.utf8))
    #expect(try Scene(json: Array(scene.json.utf8)) == scene)
    guard case .text(let text) = scene.layers[0] else {
      Issue.record("the layer is not a text")
      return
    }
    #expect(text.text.font.relativeTo == .headline)
    #expect(text.text.foregroundStyle == .color(.secondaryLabel))
  }

  @Test(
    "--environment renders over the scene's own; a bad setting is a usage error (64) naming the option, writing nothing"
  )
  func commandLine() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("scene.json")
    try Data(SceneJSON.scene(width: 4, height: 4, scale: 1, background: "systemBackground").utf8).write(to: scene)
    let out = folder.appendingPathComponent("out.png")
    let ok = try TestProcess.runGlassGPU([
      "render", scene.path, "-o", out.path, "--backend", "cpu", "--environment", "colorScheme=dark",
    ])
    #expect(ok.status == 0, "\(ok.stderr)")
    let image = try PNGCodec.read(path: out.path).image
    #expect(image.rgba8(0, 0) == SIMD4(0, 0, 0, 255))
    for (settings, words) in [
      ("colorScheme=purple", "colorScheme cannot be \"purple\""), ("brightness=2", "no environment setting"),
      ("dark", "name=value"),
    ] {
      let bad = folder.appendingPathComponent("bad.png")
      let result = try TestProcess.runGlassGPU([
        "render", scene.path, "-o", bad.path, "--backend", "cpu", "--environment", settings,
      ])
      #expect(result.status == 64 && result.stderr.contains(words), "\(result.stderr)")
      #expect(result.stderr.hasPrefix("Error: --environment: "), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: bad.path))
    }
  }
}

extension EnvironmentValues {
  /// The environment with one value changed.
  func with<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> EnvironmentValues {
    var copy = self
    copy[keyPath: keyPath] = value
    return copy
  }
}
