import Foundation

/// SwiftUI's `Font`: a size in points, a weight, and where the face comes from.
/// The text styles are Apple's at the default Dynamic Type size (large). The
/// system font is Inter, the closest open relative of SF Pro: Inter Display from
/// 20 pt, as SF Pro switches to its Display cut there.
public struct Font: Hashable, Sendable {
  /// Where the face comes from.
  public enum Source: Hashable, Sendable {
    /// Inter (Inter Display from 20 pt).
    case system
    /// A family fontconfig knows, such as "DejaVu Sans".
    case family(String)
    /// A font file (TrueType or OpenType); a path relative to the scene file.
    case file(String)
  }

  /// Size in points.
  public var size: Double
  /// Weight (a file's own weight is what it is; this picks among a family's).
  public var weight: FontWeight
  /// Where the face comes from.
  public var source: Source
  /// The text style whose Dynamic Type size the font follows
  /// (`EnvironmentValues.dynamicTypeSize`, `scaled(to:)`); nil: a fixed size.
  public var relativeTo: TextStyle?

  /// A font.
  public init(size: Double, weight: FontWeight = .regular, source: Source = .system, relativeTo: TextStyle? = nil) {
    self.size = size
    self.weight = weight
    self.source = source
    self.relativeTo = relativeTo
  }

  /// `.system(size:weight:)`: a fixed size.
  public static func system(size: Double, weight: FontWeight = .regular) -> Font {
    Font(size: size, weight: weight)
  }

  /// `.system(_:)`: a text style.
  public static func system(_ style: TextStyle) -> Font {
    Font(size: style.size(at: .large), weight: style.weight, relativeTo: style)
  }

  /// `.custom(_:size:)`: a family by name, its size scaling with Dynamic Type as
  /// the body style's does (SwiftUI's rule).
  public static func custom(_ family: String, size: Double, weight: FontWeight = .regular) -> Font {
    Font(size: size, weight: weight, source: .family(family), relativeTo: .body)
  }

  /// `.custom(_:size:relativeTo:)`: a family by name, scaling as `style` does.
  public static func custom(_ family: String, size: Double, relativeTo style: TextStyle) -> Font {
    Font(size: size, source: .family(family), relativeTo: style)
  }

  /// `.custom(_:fixedSize:)`: a family by name at a size Dynamic Type leaves alone.
  public static func custom(_ family: String, fixedSize: Double, weight: FontWeight = .regular) -> Font {
    Font(size: fixedSize, weight: weight, source: .family(family))
  }

  /// SwiftUI's text styles: Apple's size at the default Dynamic Type size
  /// (large) and weight, following `EnvironmentValues.dynamicTypeSize`.
  public static let largeTitle = system(.largeTitle)
  /// See `largeTitle`.
  public static let title = system(.title)
  /// See `largeTitle`.
  public static let title2 = system(.title2)
  /// See `largeTitle`.
  public static let title3 = system(.title3)
  /// See `largeTitle`.
  public static let headline = system(.headline)
  /// See `largeTitle`.
  public static let body = system(.body)
  /// See `largeTitle`.
  public static let callout = system(.callout)
  /// See `largeTitle`.
  public static let subheadline = system(.subheadline)
  /// See `largeTitle`.
  public static let footnote = system(.footnote)
  /// See `largeTitle`.
  public static let caption = system(.caption)
  /// See `largeTitle`.
  public static let caption2 = system(.caption2)

  /// The text styles by name, as in scene files.
  public static let styles: [(name: String, font: Font)] = TextStyle.allCases.map { ($0.rawValue, system($0)) }

  /// This font at another weight (`.fontWeight`).
  public func weight(_ weight: FontWeight) -> Font {
    var copy = self
    copy.weight = weight
    return copy
  }

  /// The largest size, in points.
  public static let maximumSize = 1000.0

  /// The largest font file, in bytes (the largest fonts, CJK collections, are
  /// tens of megabytes).
  public static let maximumFileBytes = 256 << 20
  /// What a file larger than that cannot be, for errors.
  static let fileDescription = "a font (at most 256 MiB)"

  /// The face: Inter's file for the weight, the family's, or the file (relative
  /// paths against `directory`), from `fonts` (nil: the fonts of the caches bound
  /// by `RenderCaches.use`, else new ones for this call alone). Throws, naming
  /// the fix, when there is none.
  public func face(directory: String = ".", fonts: FontCache? = nil) throws -> FontFace {
    let fonts = fonts ?? RenderCaches.given(nil).fonts
    switch source {
    case .system:
      let family = size >= 20 ? "Inter Display" : "Inter"
      guard let found = fonts.match(family: family, weight: weight) else {
        throw GlassError(
          .fileUnreadable,
          "the system font, \(family), is not installed; install Debian's fonts-inter (scripts/ensure-deps.sh)")
      }
      return try fonts.face(path: found.path, index: found.index)
    case .family(let family):
      guard let found = fonts.match(family: family, weight: weight) else {
        throw GlassError(
          .invalidParameter,
          "no font family \"\(family)\" is installed; `fc-list : family` lists those that are, or give a font file")
      }
      return try fonts.face(path: found.path, index: found.index)
    case .file(let path):
      let full = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
      return try fonts.face(path: full)
    }
  }
}

/// SwiftUI's `TextAlignment`, for the lines of a text in its frame.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable, Codable {
  case leading, center, trailing
}

/// Text shaped and cut into lines, in pixels: lines break at word boundaries (after
/// spaces; a word longer than the width breaks between characters), a line limit
/// ends the last line in "…" within the width, and each line is aligned in the
/// width. Line height is the face's (ascender − descender + line gap); the first
/// baseline is one ascender below the top.
///
/// A line *fits* when its advance (HarfBuzz's advances of the line shaped on its
/// own, its trailing spaces left out) is at most the width, exactly: no tolerance
/// (callers that size a frame from a text and lay it out again give their own
/// slack). Breaking is greedy (`wrap`): each line is the longest run of whole
/// words that fits, so a line that fits is never broken early and one that does
/// not fit is always broken.
public struct TextLayout: Sendable {
  /// One line: its runs (shaped on their own), where it starts and its baseline.
  public struct Line: Sendable {
    /// The runs, in visual order.
    public var runs: [ShapedRun]
    /// Its advance, pixels.
    public var width: Double
    /// Its left edge, pixels from the layout's left.
    public var x: Double
    /// Its baseline, pixels from the layout's top.
    public var baseline: Double
  }

  /// The lines, top to bottom.
  public var lines: [Line]
  /// The size in pixels: the widest line (or the width given), and the lines' height.
  public var width: Double
  /// See `width`.
  public var height: Double
  /// Size of the text, pixels.
  public var pixelSize: Double
  /// Height of a line, pixels.
  public var lineHeight: Double
  /// Whether the text was cut short with "…".
  public var isTruncated: Bool
  /// How many Unicode scalars were shaped to lay the text out, every measure
  /// counted: the cost of the layout (for tests; it grows linearly with the text).
  var shapedScalarCount = 0

  /// The longest text, in Unicode scalars.
  public static let maximumLength = 20_000

  /// Lays out `text` in `face` at `pixelSize`, within `maxWidth` pixels (nil: no
  /// wrapping), in at most `lineLimit` lines (nil: any). The leading edge is the
  /// right one when the layout runs right to left (`layoutDirection`) or the
  /// paragraph does (its first strong script's direction).
  public init(
    _ text: String, face: FontFace, pixelSize: Double, weight: FontWeight = .regular, maxWidth: Double? = nil,
    lineLimit: Int? = nil, alignment: TextAlignment = .leading, layoutDirection: LayoutDirection = .leftToRight
  ) {
    self.init(
      text, face: face, pixelSize: pixelSize, weight: weight, maxWidth: maxWidth, lineLimit: lineLimit,
      alignment: alignment, layoutDirection: layoutDirection, paragraphs: nil)
  }

  /// The layout, each paragraph shaped once (`ShapedParagraph`), by
  /// `paragraphs` when given (a renderer's cache: a text measured within
  /// several widths, or repeated in a batch, is shaped once), else here.
  init(
    _ text: String, face: FontFace, pixelSize: Double, weight: FontWeight, maxWidth: Double?, lineLimit: Int?,
    alignment: TextAlignment, layoutDirection: LayoutDirection, paragraphs: ((String) -> ShapedParagraph)?
  ) {
    let scale = pixelSize / Double(face.unitsPerEm)
    var shaped = 0
    // Every piece of text shaped (a paragraph, a line that is not a piece of
    // its paragraph's glyphs, a line cut short) is shaped whole, by
    // `paragraphs` when given (so a piece met again is not shaped again), else
    // here, counted.
    let shapedWhole =
      paragraphs ?? { text in
        shaped += text.unicodeScalars.count
        return ShapedParagraph(text, face: face, weight: weight)
      }
    func width(_ runs: [ShapedRun]) -> Double { runs.reduce(0) { $0 + $1.advance(pixelSize: pixelSize) } }
    let broken = Self.breakLines(
      text, face: face, pixelSize: pixelSize, weight: weight, maxWidth: maxWidth, lineLimit: lineLimit,
      paragraphs: shapedWhole)
    // The lines' runs: the paragraph's glyphs where a line is a piece of them,
    // else the line shaped on its own; the last line of a text over its limit
    // shows what fits of the rest, then "…".
    var lineRuns: [[ShapedRun]] = []
    lineRuns.reserveCapacity(broken.lines.count + 1)
    for line in broken.lines {
      let content = line.paragraph.withoutTrailingSpaces(line.range)
      lineRuns.append(line.paragraph.slice(content) ?? shapedWhole(line.paragraph.string(content)).runs)
    }
    if let last = broken.truncatedLine { lineRuns.append(shapedWhole(last.trimmingTrailingSpaces).runs) }
    let truncated = broken.truncatedLine != nil
    let ascender = Double(face.ascender) * scale
    self.lineHeight = face.lineHeight(pixelSize: pixelSize)
    var lines: [Line] = []
    lines.reserveCapacity(lineRuns.count)
    for (i, shaped) in lineRuns.enumerated() {
      lines.append(Line(runs: shaped, width: width(shaped), x: 0, baseline: ascender + Double(i) * lineHeight))
    }
    let widest = lines.map(\.width).max() ?? 0
    let box = maxWidth.map { min($0, widest) } ?? widest
    let rightToLeft =
      layoutDirection == .rightToLeft
      || (lines.first?.runs.first(where: { $0.script != "Zyyy" })?.isRightToLeft ?? false)
    for i in lines.indices {
      let free = box - lines[i].width
      switch (alignment, rightToLeft) {
      case (.center, _): lines[i].x = free / 2
      case (.leading, false), (.trailing, true): lines[i].x = 0
      case (.trailing, false), (.leading, true): lines[i].x = free
      }
    }
    self.lines = lines
    self.width = box
    self.height = Double(lines.count) * lineHeight
    self.pixelSize = pixelSize
    self.isTruncated = truncated
    self.shapedScalarCount = shaped
  }

  /// The lines of `text` within `maxWidth` (nil: one a paragraph): each a
  /// range of a paragraph shaped once (by `paragraphs`), and, for a text over
  /// `lineLimit`, the last line's text, what fits of the rest then "…" (the
  /// lines before it in `lines`). A piece that is not a piece of its
  /// paragraph's glyphs is shaped on its own, whole, by `paragraphs` too.
  private static func breakLines(
    _ text: String, face: FontFace, pixelSize: Double, weight: FontWeight, maxWidth: Double?, lineLimit: Int?,
    paragraphs: (String) -> ShapedParagraph
  ) -> (lines: [(paragraph: ShapedParagraph, range: Range<Int>)], truncatedLine: String?) {
    func measure(_ string: String) -> Measured { Measured(paragraphs(string).runs, pixelSize: pixelSize) }
    var lines: [(paragraph: ShapedParagraph, range: Range<Int>)] = []
    for text in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let paragraph = paragraphs(text)
      // A piece cut where breaking is safe is measured from the paragraph's
      // glyphs, exactly as shaped on its own; any other is shaped on its own.
      var clusters: [Double]?
      func measured(_ range: Range<Int>) -> Measured {
        let advances = clusters ?? paragraph.clusterAdvances(pixelSize: pixelSize)
        clusters = advances
        return paragraph.measure(range, pixelSize: pixelSize, clusters: advances, shape: measure)
      }
      let wrapped = wrapRanges(
        paragraph.scalars, maxWidth: maxWidth, measure: measured, contentEnd: paragraph.contentEnd
      ) { paragraph.lineEnd(from: $0, maxWidth: $1, pixelSize: pixelSize) }
      for range in wrapped { lines.append((paragraph, range)) }
    }
    guard let lineLimit, lineLimit > 0, lines.count > lineLimit else { return (lines, nil) }
    let rest = lines[(lineLimit - 1)...].map { $0.paragraph.string($0.range) }.joined(separator: " ")
    return (Array(lines.prefix(lineLimit - 1)), truncate(rest, maxWidth: maxWidth, measure: measure))
  }

  /// The size the layout of `text` has (`width`, `height`) and whether it is
  /// cut short, as `init` would make it, to the bit, without making its lines:
  /// a line that is a piece of its paragraph is measured from the paragraph's
  /// advances, any other shaped on its own, as `init` shapes it. What layout
  /// asks of a text under each proposal.
  static func measure(
    _ text: String, face: FontFace, pixelSize: Double, weight: FontWeight, maxWidth: Double?, lineLimit: Int?,
    paragraphs: (String) -> ShapedParagraph
  ) -> (width: Double, height: Double, truncated: Bool) {
    func width(_ runs: [ShapedRun]) -> Double { runs.reduce(0) { $0 + $1.advance(pixelSize: pixelSize) } }
    let broken = breakLines(
      text, face: face, pixelSize: pixelSize, weight: weight, maxWidth: maxWidth, lineLimit: lineLimit,
      paragraphs: paragraphs)
    var widest = 0.0
    var count = 0
    for line in broken.lines {
      let content = line.paragraph.withoutTrailingSpaces(line.range)
      let w =
        line.paragraph.width(of: content, pixelSize: pixelSize)
        ?? line.paragraph.measure(content, pixelSize: pixelSize, clusters: []) {
          Measured(paragraphs($0).runs, pixelSize: pixelSize)
        }.width
      widest = count == 0 ? w : max(widest, w)
      count += 1
    }
    if let last = broken.truncatedLine {
      let w = width(paragraphs(last.trimmingTrailingSpaces).runs)
      widest = count == 0 ? w : max(widest, w)
      count += 1
    }
    let box = maxWidth.map { min($0, widest) } ?? widest
    return (box, Double(count) * face.lineHeight(pixelSize: pixelSize), broken.truncatedLine != nil)
  }

  /// The same layout `factor` times larger: a layout made in points, drawn at a
  /// scale. Lines break where they broke; only the sizes and positions grow.
  public func scaled(by factor: Double) -> TextLayout {
    var copy = self
    for i in copy.lines.indices {
      copy.lines[i].width *= factor
      copy.lines[i].x *= factor
      copy.lines[i].baseline *= factor
    }
    copy.width *= factor
    copy.height *= factor
    copy.pixelSize *= factor
    copy.lineHeight *= factor
    return copy
  }

  /// A text measured for breaking: its advance, and the advance of each of its
  /// clusters (HarfBuzz's: a character with its marks, a ligature, a syllable) in
  /// the order of the text.
  struct Measured {
    /// The advance, pixels: the runs' advances summed as a line's width is.
    var width: Double
    /// Each cluster's advance, pixels, in the order of the text.
    var clusters: ArraySlice<Double>

    init(width: Double, clusters: ArraySlice<Double>) {
      self.width = width
      self.clusters = clusters
    }

    init(_ runs: [ShapedRun], pixelSize: Double) {
      var byCluster: [(cluster: Int, advance: Double)] = []
      for run in runs {
        let scale = pixelSize / Double(run.face.unitsPerEm)
        for glyph in run.glyphs { byCluster.append((glyph.cluster, Double(glyph.xAdvance) * scale)) }
      }
      byCluster.sort { $0.cluster < $1.cluster }
      var clusters: [Double] = []
      var last: Int?
      for (cluster, advance) in byCluster {
        if cluster == last, let end = clusters.indices.last {
          clusters[end] += advance
        } else {
          clusters.append(advance)
        }
        last = cluster
      }
      self.init(width: runs.reduce(0) { $0 + $1.advance(pixelSize: pixelSize) }, clusters: clusters[...])
    }

    /// What any longer text that begins with this one measures at least: the
    /// advance of all but the last `unsettled` clusters. Text after a text changes
    /// the shaping of its last clusters only (an Arabic letter's joining form, a
    /// kerning pair, a ligature or a contextual form reaching a few characters
    /// back), and adds glyphs whose advances are not negative.
    func bound(unsettled: Int) -> Double { clusters.dropLast(unsettled).reduce(0, +) }
  }

  /// Clusters at the end of a text that text after it may reshape, for the bound
  /// of `Measured`: HarfBuzz's contextual rules in common fonts reach one or two
  /// characters back; three leaves room.
  static let unsettledClusters = 3

  /// A paragraph cut into lines no wider than `maxWidth`, greedily: a paragraph that
  /// fits is one line, as it is; else each line is the longest run of whole words
  /// from its start that fits, or, when not even its first word fits, the longest
  /// prefix of that word that fits (one character at least). A line fits when its
  /// `measure`, without its trailing spaces, is at most `maxWidth`; the spaces at a
  /// break end no line and start none.
  ///
  /// "Longest" is over every length, not the first that does not fit: an Arabic
  /// word's prefix can be wider than the word (a final form is wider than the
  /// medial form and the letter after it). No line is measured whole: galloping
  /// (1, 2, 4, … characters) then bisecting finds where the `Measured.bound` of a
  /// prefix passes the width, past which nothing fits, and the lines ending before
  /// it are measured from the longest down, a few at most. So a line costs
  /// O(log n) measures of about its own length, and a paragraph of n characters
  /// O(n log line) shaped characters (measuring each candidate, and the whole rest
  /// for each line, cost O(n²)).
  static func wrap(_ paragraph: String, maxWidth: Double?, measure: (String) -> Measured) -> [String] {
    let scalars = Array(paragraph.unicodeScalars)
    return wrapRanges(scalars, maxWidth: maxWidth) { measure(String(String.UnicodeScalarView(scalars[$0]))) }
      .map { String(String.UnicodeScalarView(scalars[$0])) }
  }

  /// `wrap`, on a paragraph's scalars, measuring pieces of it by their range
  /// (without their trailing spaces): each line's range, the spaces a break
  /// leaves at its end left out. `lineEnd`, given the start of a line and the
  /// width, may give where that line ends, worked out faster; where it gives
  /// nil, the line is worked out here.
  static func wrapRanges(
    _ scalars: [Unicode.Scalar], maxWidth: Double?, measure: (Range<Int>) -> Measured, contentEnd ends: [Int]? = nil,
    lineEnd: ((Int, Double) -> Int?)? = nil
  ) -> [Range<Int>] {
    let count = scalars.count
    // Where a run ending at i ends without its trailing spaces (given, or made here).
    let contentEnd =
      ends
      ?? scalars.indices.reduce(into: [0]) { ends, i in
        ends.append(scalars[i].properties.isWhitespace ? ends[i] : i + 1)
      }
    guard let maxWidth, measure(0..<contentEnd[count]).width > maxWidth else { return [0..<count] }
    // start..<end, less its trailing spaces, measured.
    func measured(_ start: Int, _ end: Int) -> Measured { measure(start..<max(start, contentEnd[end])) }
    func isBreak(_ i: Int) -> Bool { i == count || scalars[i] == " " }
    var lines: [Range<Int>] = []
    var start = 0
    while start < count {
      // Skip the spaces a break leaves at the start of a line.
      while start < count && scalars[start] == " " { start += 1 }
      guard start < count else { break }
      if let stop = lineEnd?(start, maxWidth) {
        lines.append(start..<stop)
        start = stop
        continue
      }
      // No line from `start` ending at `limit` or later fits.
      let limit =
        firstPassing((start + 1)..<(count + 1)) { measured(start, $0).bound(unsettled: unsettledClusters) > maxWidth }
        ?? count + 1
      // The longest run of whole words that fits, before the spaces after it.
      var end: Int?
      var candidate = min(limit - 1, count)
      while candidate > start {
        if isBreak(candidate) && measured(start, candidate).width <= maxWidth {
          end = candidate
          break
        }
        candidate -= 1
      }
      if var stop = end {
        while stop < count && stop > start && scalars[stop - 1] == " " { stop -= 1 }
        end = stop
      } else {
        // Not one word fits: the longest prefix of the first word that fits.
        var word = start + 1
        while !isBreak(word) { word += 1 }
        var stop = min(limit, word) - 1
        while stop > start + 1 && measured(start, stop).width > maxWidth { stop -= 1 }
        end = max(stop, start + 1)
      }
      let stop = end ?? start + 1
      lines.append(start..<stop)
      start = stop
    }
    return lines.isEmpty ? [0..<0] : lines
  }

  /// What fits of `text` in `maxWidth` (nil: all of it), then "…": the longest
  /// prefix whose measure, without its trailing spaces and with "…" after it, is at
  /// most `maxWidth` ("…" alone when none is). Searched as `wrap` searches: the
  /// bound leaves out "…" and the clusters before it that it may reshape.
  static func truncate(_ text: String, maxWidth: Double?, measure: (String) -> Measured) -> String {
    let scalars = Array(text.unicodeScalars)
    func candidate(_ count: Int) -> String {
      String(String.UnicodeScalarView(scalars[..<count])).trimmingTrailingSpaces + "…"
    }
    guard let maxWidth else { return candidate(scalars.count) }
    let limit =
      firstPassing(0..<(scalars.count + 1)) {
        measure(candidate($0)).bound(unsettled: unsettledClusters + 1) > maxWidth
      } ?? scalars.count + 1
    var count = limit - 1
    while count > 0 && measure(candidate(count)).width > maxWidth { count -= 1 }
    return candidate(count)
  }

  /// An `i` in `range` where `passes(i)` holds and `passes(i - 1)` does not (or `i`
  /// is the start), found by galloping from the start (1, 2, 4, … on) then
  /// bisecting: O(log d) calls, none further than 2d from the start, where d is
  /// the answer's distance from it. nil when none of the calls passes, the last
  /// element of `range` included.
  static func firstPassing(_ range: Range<Int>, _ passes: (Int) -> Bool) -> Int? {
    guard !range.isEmpty else { return nil }
    var below = range.lowerBound - 1
    var step = 1
    var passing: Int
    while true {
      let probe = min(below + step, range.upperBound - 1)
      if passes(probe) {
        passing = probe
        break
      }
      if probe == range.upperBound - 1 { return nil }
      below = probe
      step *= 2
    }
    while passing - below > 1 {
      let middle = below + (passing - below) / 2
      if passes(middle) { passing = middle } else { below = middle }
    }
    return passing
  }
}

extension String {
  /// The string without the spaces at its end.
  var trimmingTrailingSpaces: String {
    var scalars = Array(unicodeScalars)
    while scalars.last?.properties.isWhitespace == true { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }
}
