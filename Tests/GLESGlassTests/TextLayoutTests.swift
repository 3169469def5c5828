import Foundation
import GlassTestSupport
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
      guard let face else { return TextLayout.Measured(width: 0, clusters: []) }
      return TextLayout.Measured(TextShaper.shape(string, face: face), pixelSize: layout.pixelSize)
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

/// Where lines break, against an oracle that shares no code with `TextLayout`: each
/// candidate line's advance is hb-shape's (Debian's libharfbuzz-bin), summed here,
/// and the greedy wrap is written again here from its definition. Widths are put at
/// the edge of a line: its advance plus or minus a hundredth and a half of a point.
/// The contract (`TextLayout`): a line fits when its advance, shaped on its own
/// without trailing spaces, is at most the width; the longest run of whole words
/// that fits is a line, and a word that fits no line breaks after its last
/// character that fits.
@Suite("Text: line breaks against an independent greedy wrap")
struct TextWrapOracleTests {
  static let inter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
  static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

  /// hb-shape's glyph ids and advances (font units) of each string, one process for all.
  static func hbShape(font: String, _ strings: [String]) throws -> [[(id: UInt32, advance: Int)]] {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("lines.txt")
    try Data((strings.joined(separator: "\n") + "\n").utf8).write(to: file)
    let arguments = ["--output-format=json", "--no-glyph-names", "--text-file=\(file.path)", font]
    let run = try TestProcess.run(
      URL(fileURLWithPath: "/usr/bin/hb-shape"), arguments, environment: ["LANG": "C.UTF-8"],
      inheritsEnvironment: false)
    let data = run.stdoutData
    #expect(run.status == 0, "hb-shape \(arguments)")
    struct Record: Decodable {
      var g: UInt32
      var ax: Int
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    try #require(lines.count == strings.count, "hb-shape gave \(lines.count) results for \(strings.count) lines")
    return try lines.map { line in
      try JSONDecoder().decode([Record].self, from: Data(line.utf8)).map { ($0.g, $0.ax) }
    }
  }

  /// The oracle's view of a paragraph of single-spaced words in one font: the advance
  /// and glyphs, at `pointSize`, of every string a greedy wrap of it can measure: a
  /// piece of a word, or the end of a word followed by whole words.
  struct Paragraph {
    var words: [String]
    var pointSize: Double
    var upem: Int
    var runs: [String: (width: Double, glyphs: [UInt32])] = [:]

    init(_ text: String, font: String, pointSize: Double) throws {
      words = text.split(separator: " ").map(String.init)
      self.pointSize = pointSize
      upem = try TextLayoutTests.typographicMetrics(font).upem
      var strings: Set<String> = []
      for i in words.indices {
        let scalars = Array(words[i].unicodeScalars)
        for start in scalars.indices {
          let end = String(String.UnicodeScalarView(scalars[start...]))
          for j in (i + 1)...words.count { strings.insert(([end] + words[(i + 1)..<j]).joined(separator: " ")) }
          for stop in (start + 1)...scalars.count {
            strings.insert(String(String.UnicodeScalarView(scalars[start..<stop])))
          }
        }
      }
      let sorted = strings.sorted()
      for (string, glyphs) in zip(sorted, try TextWrapOracleTests.hbShape(font: font, sorted)) {
        let units = glyphs.reduce(0) { $0 + $1.advance }
        runs[string] = (Double(units) / Double(upem) * pointSize, glyphs.map(\.id))
      }
    }

    func width(_ string: String) -> Double { runs[string]?.width ?? .infinity }

    /// The greedy wrap, from its definition: the longest run of whole words that
    /// fits, else the longest prefix of the first word that fits (one character at
    /// least), the rest of that word starting the next line. Longest over every
    /// length: an Arabic prefix can be wider than a longer one.
    func wrap(_ maxWidth: Double) -> [String] {
      var lines: [String] = []
      var rest = words
      while !rest.isEmpty {
        let count =
          (1...rest.count).last { width(rest[..<$0].joined(separator: " ")) <= maxWidth } ?? 0
        if count > 0 {
          lines.append(rest[..<count].joined(separator: " "))
          rest.removeFirst(count)
          continue
        }
        let scalars = Array(rest[0].unicodeScalars)
        let length =
          (1..<scalars.count).last { width(String(String.UnicodeScalarView(scalars[..<$0]))) <= maxWidth } ?? 1
        lines.append(String(String.UnicodeScalarView(scalars[..<length])))
        rest[0] = String(String.UnicodeScalarView(scalars[length...]))
        if rest[0].isEmpty { rest.removeFirst() }
      }
      return lines
    }
  }

  /// The layout's lines as glyph ids, left to right.
  static func glyphs(_ layout: TextLayout) -> [[UInt32]] {
    layout.lines.map { $0.runs.flatMap { $0.glyphs.map(\.id) } }
  }

  /// Lays `paragraph` out at widths on both sides of the edge of each run of words
  /// from the start, and checks the layout against the oracle's wrap, line by line:
  /// the same glyphs, so the same characters on each line.
  static func check(_ paragraph: Paragraph, face: FontFace, text: String) {
    let offsets = [-0.5, -0.01, 0.01, 0.5]
    for count in 1...paragraph.words.count {
      let edge = paragraph.width(paragraph.words[..<count].joined(separator: " "))
      for offset in offsets {
        let maxWidth = edge + offset
        let layout = TextLayout(text, face: face, pixelSize: paragraph.pointSize, maxWidth: maxWidth)
        let expected = paragraph.wrap(maxWidth)
        // The oracle's own premise: the first line holds `count` words just when the
        // width reaches their advance (one more word or character adds over 0.5 pt).
        let first = expected.first ?? ""
        let words = paragraph.words
        if offset > 0 {
          #expect(first == words[..<count].joined(separator: " "), "\(count) words (\(edge) pt) fit \(maxWidth) pt")
        } else if count > 1 {
          #expect(first == words[..<(count - 1)].joined(separator: " "), "\(count) words do not fit \(maxWidth) pt")
        } else {
          #expect(first != words[0] && words[0].hasPrefix(first), "the first word does not fit \(maxWidth) pt")
        }
        let got = glyphs(layout)
        let want = expected.map { paragraph.runs[$0]?.glyphs ?? [] }
        #expect(
          got == want,
          "at \(maxWidth) pt (\(count) words \(offset > 0 ? "+" : "")\(offset) pt): the oracle's lines are \(expected), the layout has \(got.count) lines"
        )
      }
    }
  }

  @Test("Latin: a line that fits is never broken early, and one that does not is always broken")
  func latin() throws {
    let text = "AVATAR To office, Wave: fluffy yo-yo Type Vault jumps over LAVA at WAVY Tokyo."
    let paragraph = try Paragraph(text, font: Self.inter, pointSize: 17)
    try Self.check(paragraph, face: FontLibrary.shared.face(path: Self.inter), text: text)
  }

  /// The second text's words are narrower than their first three letters ("بيت",
  /// ending in a wide final form, against "بيتا"): a search that took a prefix
  /// wider than the width as proof that no longer line fits breaks them early.
  @Test(
    "Arabic, right to left with joining forms: the same greedy breaks",
    arguments: [
      "مرحبا بالعالم هذا نص عربي طويل يلتف على عدة أسطر في إطار ضيق", "بيتا كتبا سبا نصا ببا مرحبا بيتا كتبا",
    ])
  func arabic(_ text: String) throws {
    let paragraph = try Paragraph(text, font: Self.dejavu, pointSize: 17)
    try Self.check(paragraph, face: FontLibrary.shared.face(path: Self.dejavu), text: text)
  }

  @Test("a word wider than the line breaks after its last character that fits, at the edge of each")
  func longWord() throws {
    let word = "Supercalifragilisticexpialidocious"
    let paragraph = try Paragraph(word, font: Self.inter, pointSize: 17)
    let face = try FontLibrary.shared.face(path: Self.inter)
    let scalars = Array(word.unicodeScalars)
    for length in 1..<scalars.count {
      let edge = paragraph.width(String(String.UnicodeScalarView(scalars[..<length])))
      for offset in [-0.5, -0.01, 0.01, 0.5] {
        let maxWidth = edge + offset
        let layout = TextLayout(word, face: face, pixelSize: 17, maxWidth: maxWidth)
        let expected = paragraph.wrap(maxWidth)
        let firstLength = expected.first?.unicodeScalars.count ?? 0
        #expect(
          firstLength == (offset > 0 ? length : max(1, length - 1)),
          "\(length) characters (\(edge) pt) at \(maxWidth) pt: the oracle's first line is \(expected.first ?? "")")
        #expect(
          Self.glyphs(layout) == expected.map { paragraph.runs[$0]?.glyphs ?? [] },
          "at \(maxWidth) pt: the oracle's lines are \(expected)")
      }
    }
  }
}

/// Wrapping costs shaped characters in proportion to the text, and breaks where the
/// character-by-character greedy wrap it replaced broke.
@Suite("Text: the cost of wrapping")
struct TextWrapCostTests {
  /// A text of `count` characters: one word, or words, Latin or Arabic.
  static func text(_ kind: String, _ count: Int) -> String {
    let pattern: [Unicode.Scalar]
    switch kind {
    case "Latin word": pattern = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
    case "Arabic word": pattern = Array("سلامعليكمبالعربية".unicodeScalars)
    default: pattern = Array("lorem ipsum dolor sit amet ".unicodeScalars)
    }
    return String(String.UnicodeScalarView((0..<count).map { pattern[$0 % pattern.count] }))
  }

  @Test(
    "laying out a text shapes a number of characters linear in its length",
    .disabled(
      if: TestProcess.underAddressSanitizer,
      Comment(
        rawValue: "it counts characters shaped, which AddressSanitizer does not change, over 42,000 characters "
          + "that take it 149 s there (26 s in make test, which runs it); other text suites run the wrap under it")),
    arguments: ["Latin word", "Arabic word", "Latin words"], [3, nil] as [Int?])
  func linear(kind: String, lineLimit: Int?) throws {
    let face = try FontLibrary.shared.face(path: TextLayoutTests.interPath)
    let sizes = [1000, 2000, 4000]
    let counts = sizes.map {
      TextLayout(Self.text(kind, $0), face: face, pixelSize: 17, maxWidth: 300, lineLimit: lineLimit)
        .shapedScalarCount
    }
    // Linear: doubling the text at most doubles the count, with a margin for the
    // fixed costs; a quadratic wrap quadruples it.
    for i in 1..<sizes.count {
      #expect(
        Double(counts[i]) <= 2.3 * Double(counts[i - 1]),
        "\(kind), lineLimit \(String(describing: lineLimit)): \(counts) characters shaped for \(sizes)")
    }
    #expect(counts[2] <= 40 * sizes[2], "\(counts) characters shaped for \(sizes)")
  }

  /// The wrap this one replaced, as it was (measuring every candidate break, and the
  /// whole rest for every line, and stopping at the first that did not fit), for
  /// short texts.
  static func previousWrap(_ paragraph: String, maxWidth: Double?, measure: (String) -> Double) -> [String] {
    guard let maxWidth, measure(paragraph.trimmingTrailingSpaces) > maxWidth else { return [paragraph] }
    let scalars = Array(paragraph.unicodeScalars)
    func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
    var lines: [String] = []
    var start = 0
    while start < scalars.count {
      while start < scalars.count && scalars[start] == " " { start += 1 }
      guard start < scalars.count else { break }
      if measure(string(start..<scalars.count).trimmingTrailingSpaces) <= maxWidth {
        lines.append(string(start..<scalars.count))
        break
      }
      var end: Int?
      var i = start + 1
      while i <= scalars.count {
        if i == scalars.count || scalars[i] == " " {
          if measure(string(start..<i)) <= maxWidth { end = i } else { break }
        }
        i += 1
      }
      if end == nil {
        var j = start + 1
        while j < scalars.count && measure(string(start..<(j + 1))) <= maxWidth { j += 1 }
        end = j
      }
      let stop = end ?? scalars.count
      lines.append(string(start..<stop))
      start = stop
    }
    return lines.isEmpty ? [""] : lines
  }

  /// The truncation this one replaced, as it was (one character off the end at a time).
  static func previousTruncate(_ text: String, maxWidth: Double, measure: (String) -> Double) -> String {
    var scalars = Array(text.unicodeScalars)
    func candidate() -> String { String(String.UnicodeScalarView(scalars)).trimmingTrailingSpaces + "…" }
    while !scalars.isEmpty && measure(candidate()) > maxWidth { scalars.removeLast() }
    return candidate()
  }

  /// For Latin text, whose prefixes are never narrower than shorter ones, the
  /// longest line that fits is the last before the first that does not, so this
  /// wrap and the previous one agree; Arabic prefixes are not (the oracle of
  /// `TextWrapOracleTests` checks them). Truncation was "longest" already: both.
  @Test("lines break, and truncate, where the previous wrap broke them (200 random texts)")
  func sameBreaks() throws {
    let face = try FontLibrary.shared.face(path: TextLayoutTests.interPath)
    let measure = { (s: String) in TextLayout.Measured(TextShaper.shape(s, face: face), pixelSize: 17) }
    let width = { (s: String) in measure(s).width }
    var random = SplitMix64(seed: 21)
    let alphabets = [Array("abcdefghijklmnopqrstuvwxyzAVWT".unicodeScalars), Array("سلامعليكمبالعربية".unicodeScalars)]
    // 200 texts: 500 took 29 s of the suite's 111 s of one core (the oracle is
    // quadratic in the shaping it does), and three times that under ASan.
    for _ in 0..<200 {
      let latin = random.next() % 2 == 0
      let alphabet = alphabets[latin ? 0 : 1]
      var text = ""
      for _ in 0..<(1 + random.next() % 12) {
        let length = 1 + Int(random.next() % (random.next() % 4 == 0 ? 30 : 8))
        text += String(
          String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        text += String(repeating: " ", count: random.next() % 5 == 0 ? 2 : 1)
      }
      if random.next() % 2 == 0 { text = text.trimmingTrailingSpaces }
      let maxWidth = Double(random.next() % 400) / 2
      if latin {
        let lines = TextLayout.wrap(text, maxWidth: maxWidth, measure: measure)
        let previous = Self.previousWrap(text, maxWidth: maxWidth, measure: width)
        // The spaces a line ends in at a break are not drawn; the previous wrap kept
        // those that fitted, this one keeps none.
        #expect(
          lines.map(\.trimmingTrailingSpaces) == previous.map(\.trimmingTrailingSpaces),
          "\(text.debugDescription) at \(maxWidth): \(lines) against \(previous)")
      }
      let single = text.split(separator: " ").joined(separator: " ")
      #expect(
        TextLayout.truncate(single, maxWidth: maxWidth, measure: measure)
          == Self.previousTruncate(single, maxWidth: maxWidth, measure: width),
        "\(single.debugDescription) truncated at \(maxWidth)")
    }
  }
}

/// A seeded generator (SplitMix64), so a failure repeats.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
