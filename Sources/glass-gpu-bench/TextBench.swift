import ArgumentParser
import Foundation
import GLESGlass
import GlassTestSupport

/// The cost of text: a 1920x1080 glass UI with about 2000 glyphs against the same
/// scene without its text, warm.
struct TextBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "text",
    abstract: "Time a 1920x1080 glass UI with about 2000 glyphs against the same scene without text, warm.",
    discussion: """
      The scene: a photo, a regular-material panel with three paragraphs of body text,
      a thin-material panel with a column of footnote text, a glass toolbar of six
      labelled buttons and a title. The same scene
      without text keeps every glass and material frame and drops only the text.
      Both are rendered --warmup times, then timed --runs times, alternating; the
      medians of upload + render + readback are compared against the bar (text within
      20 % of no text). Prints how many glyphs FreeType rasterised during the timed
      runs: 0 when glyphs are rasterised once per font, size and subpixel offset.
      A third row renders the text with a word changed every time, so its layouts
      and masks are made anew (text masks are cached by content; glyphs stay cached).

      With --long-words, times instead the layout of one word of 1,000, 10,000 and
      20,000 characters (Latin, then Arabic, the limit of a text), wrapped at 300 pt
      in 3 lines and with no line limit: the cost of wrapping, which grows about
      linearly with the word (milliseconds per 1,000 characters stay about level).

      Example:
        glass-gpu-bench text
        glass-gpu-bench text --long-words
      """)

  @Option var warmup = 3
  @Option var runs = 15
  @Option(help: "Backends to time: gpu, cpu or both.")
  var backend: String = "both"
  @Option(help: "Also write the render with text to this PNG (from the last backend timed).")
  var output: String?
  @Flag(help: "Time the layout of long words (1,000 to 20,000 characters) instead of rendering.")
  var longWords = false

  static let paragraph =
    "Liquid Glass bends the light behind it: near the rim the backdrop is pulled inward, "
    + "frosted and lifted, while the middle stays clear. Text on it is shaped by HarfBuzz, "
    + "rasterised once per size by FreeType and composited in linear light with a correction "
    + "for its colour, so it reads as crisp on the GPU as on the CPU reference. "

  /// The scene with or without its text; `variant` > 0 changes a word in every
  /// text (new layouts and masks, glyphs already rasterised).
  static func scene(withText: Bool, variant: Int = 0) -> Scene {
    var layers: [Layer] = [
      .image(ImageLayer(source: "photo.png", frame: PointRect(x: 0, y: 0, width: 960, height: 540)))
    ]
    let body = String(repeating: paragraph, count: 2).replacingOccurrences(
      of: "Glass", with: variant == 0 ? "Glass" : "Glass \(variant)")
    let panel = PointRect(x: 40, y: 96, width: 520, height: 404)
    layers.append(
      .material(MaterialLayer(material: .regular, shape: .roundedRect(cornerRadius: 24), frame: panel)))
    layers.append(
      .material(
        MaterialLayer(
          material: .thin, shape: .roundedRect(cornerRadius: 24),
          frame: PointRect(x: 600, y: 96, width: 320, height: 430))))
    if withText {
      layers.append(
        .text(
          TextLayer(
            TextContent("About the glass", font: .title2.weight(.bold)),
            frame: PointRect(x: 64, y: 112, width: 472, height: 30))))
      for (i, y) in [150.0, 270, 390].enumerated() {
        layers.append(
          .text(
            TextLayer(
              TextContent(body, font: i == 1 ? .callout : .body, lineLimit: 5),
              frame: PointRect(x: 64, y: y, width: 472, height: 104))))
      }
      layers.append(
        .text(
          TextLayer(
            TextContent(body + body, font: .footnote, lineLimit: 26),
            frame: PointRect(x: 624, y: 112, width: 272, height: 410))))
      layers.append(
        .text(
          TextLayer(
            TextContent("Lake Louise", font: .title.weight(.bold), foregroundStyle: .color(.white)),
            frame: PointRect(x: 40, y: 500, width: 320, height: 40))))
    }
    let titles = ["Share", "Favorite", "Edit", "Details", "Map", "Photos"]
    let icons = ["square.and.arrow.up", "heart.fill", "scribble.variable", "magnifyingglass", "flag.fill", "star.fill"]
    let glass = zip(titles, icons).enumerated().map { i, item in
      GlassLayer(
        glass: Glass.regular.interactive(), shape: .capsule,
        frame: PointRect(x: 40 + Double(i) * 148, y: 24, width: 136, height: 44),
        content: withText ? GlassContent(TextContent(item.0, systemImage: item.1), padding: 0) : nil)
    }
    layers.append(.container(GlassContainer(spacing: 8, glass: glass)))
    return Scene(size: PointSize(width: 960, height: 540), scale: 2, layers: layers)
  }

  /// The glyphs the scene's text shapes to, laid out as it renders.
  static func glyphCount(_ scene: Scene) throws -> Int {
    var count = 0
    func add(_ text: TextContent, width: Double) throws {
      let layout = TextLayout(
        text.string, face: try text.font.face(), pixelSize: text.font.size, weight: text.font.weight,
        maxWidth: width, lineLimit: text.lineLimit)
      count += layout.lines.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.glyphs.count } }
    }
    for layer in scene.layers {
      switch layer {
      case .text(let l): try add(l.text, width: l.frame.width)
      case .container(let c):
        for g in c.glass { if let t = g.content?.text { try add(t, width: g.frame.width) } }
      default: break
      }
    }
    return count
  }

  /// A word of `count` characters cycling through `letters`.
  static func word(_ letters: String, _ count: Int) -> String {
    let scalars = Array(letters.unicodeScalars)
    return String(String.UnicodeScalarView((0..<count).map { scalars[$0 % scalars.count] }))
  }

  /// Times the layout of long words: the median of `runs` layouts (at least one).
  func runLongWords() throws {
    let font = Font.body
    let face = try font.face()
    print("glass-gpu-bench text --long-words: one word at \(Int(font.size)) pt in 300 pt, median of \(runs) layouts")
    for (script, letters) in [("Latin", "abcdefghijklmnopqrstuvwxyz"), ("Arabic", "سلامعليكمبالعربية")] {
      for lineLimit in [3, nil] as [Int?] {
        for count in [1_000, 10_000, 20_000] {
          let text = Self.word(letters, count)
          var times: [Double] = []
          var layout: TextLayout?
          for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            layout = TextLayout(text, face: face, pixelSize: font.size, maxWidth: 300, lineLimit: lineLimit)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
          }
          let median = Stats(times).median
          let limit = (lineLimit.map(String.init) ?? "none").padding(toLength: 4, withPad: " ", startingAt: 0)
          print(
            String(
              format: "  %@ %6d characters, lineLimit %@ %9.2f ms  (%.3f ms per 1,000 characters, %d lines)",
              script.padding(toLength: 6, withPad: " ", startingAt: 0) as NSString, count, limit as NSString, median,
              median * 1000 / Double(count), layout?.lines.count ?? 0))
        }
      }
    }
  }

  func run() throws {
    if longWords { return try runLongWords() }
    let images = ["photo.png": ProceduralImages.landscape(width: 1920, height: 1080)]
    let text = Self.scene(withText: true)
    let plain = Self.scene(withText: false)
    let glyphs = try Self.glyphCount(text)
    let backends: [BackendChoice] = backend == "both" ? [.gpu, .cpu] : [BackendChoice(rawValue: backend) ?? .gpu]
    print(
      "glass-gpu-bench text: \(text.pixelSize) px, \(glyphs) glyphs (and 6 icons), median of \(runs) after "
        + "\(warmup) warm-up, alternating")
    var failed = false
    for choice in backends {
      let renderer: Renderer
      do { renderer = try Renderer(backend: choice) } catch {
        print("  \(choice.rawValue): unavailable (\(error))")
        continue
      }
      defer { renderer.close() }
      var withText: [Double] = []
      var without: [Double] = []
      var changing: [Double] = []
      var rasterized = 0
      for i in 0..<(warmup + runs) {
        let before = renderer.caches.stats(named: "glyphs")?.misses ?? 0
        var t = RenderTimings()
        let image = try renderer.render(text, images: images, timings: &t)
        let fresh = (renderer.caches.stats(named: "glyphs")?.misses ?? 0) - before
        if let output, i == warmup + runs - 1 { try PNGCodec.write(image, to: output, compression: 6) }
        var u = RenderTimings()
        _ = try renderer.render(plain, images: images, timings: &u)
        // Digits are rasterised in the warm-up; later variants reuse them.
        var v = RenderTimings()
        _ = try renderer.render(Self.scene(withText: true, variant: 1 + i % 10), images: images, timings: &v)
        guard i >= warmup else { continue }
        rasterized += fresh
        withText.append(t.uploadMilliseconds + t.renderMilliseconds + t.readbackMilliseconds)
        without.append(u.uploadMilliseconds + u.renderMilliseconds + u.readbackMilliseconds)
        changing.append(v.uploadMilliseconds + v.renderMilliseconds + v.readbackMilliseconds)
      }
      let a = Stats(withText).median
      let b = Stats(without).median
      let ratio = a / b
      failed = failed || ratio > 1.2
      print(
        String(
          format: "  %@  with text %.2f ms, without %.2f ms: %.2fx %@ (bar 1.20x); glyphs rasterised while timed: %d",
          choice.rawValue as NSString, a, b, ratio, (ratio <= 1.2 ? "PASS" : "FAIL") as NSString, rasterized))
      let c = Stats(changing).median
      print(
        String(
          format: "  %@  text changing every render (laid out and masked each time, glyphs cached): %.2f ms, %.2fx",
          choice.rawValue as NSString, c, c / b))
    }
    if failed { throw ExitCode(1) }
  }
}
