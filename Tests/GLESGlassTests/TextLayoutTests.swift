import Foundation
import Testing

@testable import GLESGlass

/// Text metrics and lines: a text's size is its shaped advance (summed from
/// hb-shape's own output) and the face's line height; lines break at word
/// boundaries and never overflow; a line limit ends in "…" within the width.
@Suite("Text: layout")
struct TextLayoutTests {
  static let interPath = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"

  /// hb-shape's total advance of `text`, font units.
  static func hbAdvance(_ text: String, font: String) throws -> Int {
    let glyphs = try TextShapingTests.hbShape(
      font: font, text: text, script: "Latn", rightToLeft: false, before: "", after: "")
    return glyphs.reduce(0) { $0 + Int($1.xAdvance) }
  }

  @Test("a line's size is hb-shape's advance and the face's line height, within 0.5 px", arguments: [11.0, 17, 34, 56])
  func fittedSize(pixelSize: Double) throws {
    let face = try FontLibrary.shared.face(path: Self.interPath)
    for text in ["Hello, World!", "AVATAR", "Sign In"] {
      let layout = TextLayout(text, face: face, pixelSize: pixelSize)
      let expected = Double(try Self.hbAdvance(text, font: Self.interPath)) * pixelSize / Double(face.unitsPerEm)
      #expect(abs(layout.width - expected) <= 0.5, "\(text) at \(pixelSize) px: \(layout.width) against \(expected)")
      // The line height from the font file's own tables, read here.
      let metrics = try Self.typographicMetrics(Self.interPath)
      let lineHeight = Double(metrics.ascender - metrics.descender + metrics.lineGap) * pixelSize / Double(metrics.upem)
      #expect(abs(layout.height - lineHeight) <= 0.5, "\(layout.height) against \(lineHeight)")
      #expect(layout.lines.count == 1 && !layout.isTruncated)
    }
  }

  /// Units per em and the typographic ascender, descender and line gap of an
  /// OpenType file, from its tables: OS/2's typo metrics when its fsSelection asks
  /// for them (bit 7), else hhea's.
  static func typographicMetrics(_ path: String) throws -> (upem: Int, ascender: Int, descender: Int, lineGap: Int) {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func u16(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
    func s16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(at)))) }
    func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
    var tables: [String: Int] = [:]
    for i in 0..<u16(4) {
      let entry = 12 + 16 * i
      tables[String(decoding: data[entry..<(entry + 4)], as: UTF8.self)] = u32(entry + 8)
    }
    let head = try #require(tables["head"])
    let hhea = try #require(tables["hhea"])
    let os2 = try #require(tables["OS/2"])
    if u16(os2 + 62) & 0x80 != 0 {
      return (u16(head + 18), s16(os2 + 68), s16(os2 + 70), s16(os2 + 72))
    }
    return (u16(head + 18), s16(hhea + 4), s16(hhea + 6), s16(hhea + 8))
  }

  static let paragraph =
    "Liquid Glass is a translucent material that reflects and refracts its surroundings, while dynamically "
    + "transforming to help bring greater focus to content."

  @Test("lines break at spaces, never overflow, and hold every word in order", arguments: [80.0, 160, 320, 700])
  func wrapping(maxWidth: Double) throws {
    let face = try FontLibrary.shared.face(path: Self.interPath)
    let layout = TextLayout(Self.paragraph, face: face, pixelSize: 17, maxWidth: maxWidth)
    #expect(layout.lines.count > 1 || maxWidth >= 700)
    for line in layout.lines { #expect(line.width <= maxWidth + 1e-9, "a line of \(line.width) px in \(maxWidth)") }
    // Every character is there, in order; a line ends inside a word only where
    // that word alone is wider than the line.
    let lines = Self.lineStrings(layout, Self.paragraph, maxWidth: maxWidth)
    #expect(lines.joined().filter { $0 != " " } == Self.paragraph.filter { $0 != " " })
    var offset = 0
    let scalars = Array(Self.paragraph.unicodeScalars)
    for line in lines.dropLast() {
      offset += line.unicodeScalars.count
      while offset < scalars.count && scalars[offset] == " " && line.last != " " { offset += 1 }
      guard offset < scalars.count, offset > 0, scalars[offset] != " ", scalars[offset - 1] != " " else { continue }
      // Broken inside a word: the word must not fit a line.
      let start = scalars[..<offset].lastIndex(of: " ").map { $0 + 1 } ?? 0
      let end = scalars[offset...].firstIndex(of: " ") ?? scalars.count
      let word = String(String.UnicodeScalarView(scalars[start..<end]))
      let wordWidth = TextLayout(word, face: face, pixelSize: 17).width
      #expect(wordWidth > maxWidth, "\(word) (\(wordWidth) px) broken in a line of \(maxWidth)")
    }
    #expect(maxWidth < 160 || lines.allSatisfy { !$0.isEmpty })
  }

  /// The lines' strings, from the wrapping itself.
  static func lineStrings(_ layout: TextLayout, _ text: String, maxWidth: Double) -> [String] {
    let face = try? FontLibrary.shared.face(path: interPath)
    return TextLayout.wrap(text, maxWidth: maxWidth) { string in
      guard let face else { return 0 }
      return TextShaper.shape(string, face: face).reduce(0) { $0 + $1.advance(pixelSize: layout.pixelSize) }
    }
  }

  @Test("a line limit ends the last line in an ellipsis within the width")
  func truncation() throws {
    let face = try FontLibrary.shared.face(path: Self.interPath)
    let layout = TextLayout(Self.paragraph, face: face, pixelSize: 17, maxWidth: 200, lineLimit: 2)
    #expect(layout.lines.count == 2 && layout.isTruncated)
    for line in layout.lines { #expect(line.width <= 200) }
    // The last glyph is the ellipsis (U+2026).
    let last = try #require(layout.lines.last?.runs.last?.glyphs.last)
    #expect(last.id == Self.glyphID(face, "…") && last.id != 0)
    // A word longer than the line breaks between characters, within the width.
    let long = TextLayout("Supercalifragilisticexpialidocious", face: face, pixelSize: 17, maxWidth: 60)
    #expect(long.lines.count > 1 && long.lines.allSatisfy { $0.width <= 60 })
  }

  static func glyphID(_ face: FontFace, _ character: Unicode.Scalar) -> UInt32 {
    TextShaper.shape(String(character), face: face).first?.glyphs.first?.id ?? 0
  }

  @Test("glyphs are rasterised once per face, size and quarter pixel; masks cover the glyphs")
  func raster() throws {
    let face = try FontLibrary.shared.face(path: "/usr/share/fonts/opentype/inter/Inter-Bold.otf")
    let layout = TextLayout("Hello", face: face, pixelSize: 34)
    let mask = try #require(TextRaster.mask(layout, origin: SIMD2(10.25, 20)))
    #expect(mask.coverage.contains(255), "a bold 34 px stem is fully covered somewhere")
    #expect(mask.rect.width <= Int(layout.width.rounded(.up)) + 4 && mask.rect.width >= Int(layout.width) - 4)
    // The same text at the same quarter pixel: the same mask.
    let again = try #require(TextRaster.mask(layout, origin: SIMD2(10.25, 20)))
    #expect(again.coverage == mask.coverage && again.rect == mask.rect)
    // A quarter pixel to the right: a different mask, a whole pixel: the same one moved.
    let quarter = try #require(TextRaster.mask(layout, origin: SIMD2(10.5, 20)))
    #expect(quarter.coverage != mask.coverage)
    let whole = try #require(TextRaster.mask(layout, origin: SIMD2(11.25, 20)))
    #expect(whole.coverage == mask.coverage && whole.rect.x == mask.rect.x + 1)
  }

  @Test("the coverage correction thickens dark text, thins light text, and keeps 0 and full coverage")
  func correction() {
    let ramp = (0...255).map { UInt8($0) }
    let dark = TextRaster.corrected(ramp, luminance: 0)
    let light = TextRaster.corrected(ramp, luminance: 1)
    #expect(dark[0] == 0 && dark[255] == 255 && light[0] == 0 && light[255] == 255)
    #expect(dark[128] > 128 && light[128] < 128)
    // Black at half coverage over white, blended in linear light with the
    // corrected coverage, lands where sRGB blending puts it: code 128.
    let c = Double(dark[128]) / 255
    let linear = 1 - c
    let srgb = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    #expect(abs(srgb * 255 - 127) <= 1.5, "\(srgb * 255)")
  }
}
