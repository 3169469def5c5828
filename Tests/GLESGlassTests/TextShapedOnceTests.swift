import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Text costs: a text is shaped once per layout, whole (`ShapedParagraph`), and
/// its lines at every width a layout tries are measured and drawn from its
/// advances where HarfBuzz says a cut is safe; what is drawn is what shaping
/// each line on its own gives (`TextWrapOracleTests` checks that against
/// hb-shape, glyph for glyph).
@Suite("Text: shaped once per layout")
struct TextShapedOnceTests {
  @Test("texts measured within many widths in a row are each shaped once")
  func onceAcrossWidths() throws {
    let words = ["glass", "layout", "view", "stack", "spacer", "frame", "text", "padding", "lens", "light"]
    let strings = (0..<6).map { i in (0..<(5 + i)).map { words[($0 * 3 + i) % words.count] }.joined(separator: " ") }
    // A row of texts shares 300 points: each is asked its size under 0, ∞, its share and
    // where it is placed; with a line limit on one, and one twice (shaped once for both).
    let scene = Scene(width: 300, height: 200, scale: 2) {
      HStack {
        ForEach(strings, id: \.self) { Text($0) }
        Text(strings[0]).lineLimit(1)
      }
    }
    let caches = RenderCaches()
    let laid = try scene.laidOut(images: SceneImages([:]), caches: caches)
    // Each text's paragraph is shaped whole, once (the cache's misses are those and the
    // pieces next to kerning pairs, shaped on their own, once each); a second layout of the
    // same texts shapes nothing: every width it asks of them comes from what is kept.
    let face = try Font.body.face(directory: ".", fonts: caches.fonts)
    for string in strings {
      let key = ShapedTextKey(text: string, face: face.serial, weight: Font.body.weight)
      #expect(caches.shapedText.value(forKey: key) != nil, "\(string) was not shaped whole")
    }
    let first = try #require(caches.stats(named: "shaped text"))
    _ = try scene.laidOut(images: SceneImages([:]), caches: caches)
    let second = try #require(caches.stats(named: "shaped text"))
    #expect(second.misses == first.misses, "the second layout shaped \(second.misses - first.misses) more")
    #expect(second.hits > first.hits + 2 * strings.count, "\(first) then \(second)")
    // And drawn: every text layer is the layout of its width, from the same paragraphs.
    let texts = laid.layers.compactMap { layer -> TextLayer? in
      if case .text(let t) = layer { return t }
      return nil
    }
    #expect(texts.count == strings.count + 1)
    for text in texts {
      let layout = try caches.contentLayout(text.text, maxWidth: text.text.lineBreakWidth, directory: ".")
      #expect(abs(layout.size.width - text.frame.width) < 1e-9, "\(text.text.string): drawn as measured")
    }
    #expect(try #require(caches.stats(named: "shaped text")).misses == first.misses, "drawing shaped nothing more")
  }

  @Test("a line cut where HarfBuzz allows it is the paragraph's glyphs, as that line shaped alone")
  func piecesAreLinesShapedAlone() throws {
    let face = try FontLibrary.shared.face(path: TextLayoutTests.interPath)
    let text = "AVATAR To office, Wave: fluffy yo-yo Type Vault jumps over LAVA at WAVY Tokyo."
    let paragraph = ShapedParagraph(text, face: face, weight: .regular)
    let scalars = Array(text.unicodeScalars)
    var pieces = 0
    var refused = 0
    for start in 0..<scalars.count {
      for end in (start + 1)...scalars.count {
        let range = start..<end
        let alone = TextShaper.shape(paragraph.string(range), face: face)
        guard let slice = paragraph.slice(range) else {
          refused += 1
          continue
        }
        pieces += 1
        #expect(slice.map(\.glyphs) == alone.map(\.glyphs), "\(paragraph.string(range))")
        let width = paragraph.width(of: range, pixelSize: 17)
        #expect(width == alone.reduce(0) { $0 + $1.advance(pixelSize: 17) }, "\(paragraph.string(range))")
      }
    }
    // This text is made of kerning pairs (AV, To, Wa, yo, Ty, …): many of its cuts are not
    // safe; every piece that is one is the line shaped alone, glyph for glyph.
    #expect(pieces > 1000 && refused > 0, "\(pieces) pieces, \(refused) shaped alone")
    // In plainer text most cuts are safe.
    let plain = ShapedParagraph(
      "glass layout view stack spacer frame text padding lens light", face: face, weight: .regular)
    let cuts = (1..<plain.scalars.count).filter { plain.safe[$0] }.count
    #expect(cuts * 10 > plain.scalars.count * 8, "\(cuts) safe cuts of \(plain.scalars.count - 1)")
  }
}
