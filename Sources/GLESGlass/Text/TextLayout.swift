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

  /// A font.
  public init(size: Double, weight: FontWeight = .regular, source: Source = .system) {
    self.size = size
    self.weight = weight
    self.source = source
  }

  /// `.system(size:weight:)`.
  public static func system(size: Double, weight: FontWeight = .regular) -> Font {
    Font(size: size, weight: weight)
  }

  /// `.custom(_:size:)`: a family by name.
  public static func custom(_ family: String, size: Double, weight: FontWeight = .regular) -> Font {
    Font(size: size, weight: weight, source: .family(family))
  }

  /// SwiftUI's text styles: size in points and weight.
  public static let largeTitle = Font(size: 34)
  /// See `largeTitle`.
  public static let title = Font(size: 28)
  /// See `largeTitle`.
  public static let title2 = Font(size: 22)
  /// See `largeTitle`.
  public static let title3 = Font(size: 20)
  /// See `largeTitle`.
  public static let headline = Font(size: 17, weight: .semibold)
  /// See `largeTitle`.
  public static let body = Font(size: 17)
  /// See `largeTitle`.
  public static let callout = Font(size: 16)
  /// See `largeTitle`.
  public static let subheadline = Font(size: 15)
  /// See `largeTitle`.
  public static let footnote = Font(size: 13)
  /// See `largeTitle`.
  public static let caption = Font(size: 12)
  /// See `largeTitle`.
  public static let caption2 = Font(size: 11)

  /// The text styles by name, as in scene files.
  public static let styles: [(name: String, font: Font)] = [
    ("largeTitle", .largeTitle), ("title", .title), ("title2", .title2), ("title3", .title3),
    ("headline", .headline), ("body", .body), ("callout", .callout), ("subheadline", .subheadline),
    ("footnote", .footnote), ("caption", .caption), ("caption2", .caption2),
  ]

  /// This font at another weight (`.fontWeight`).
  public func weight(_ weight: FontWeight) -> Font {
    var copy = self
    copy.weight = weight
    return copy
  }

  /// The largest size, in points.
  public static let maximumSize = 1000.0

  /// The face: Inter's file for the weight, the family's, or the file (relative
  /// paths against `directory`), from `fonts` (nil: the fonts of the caches bound
  /// by `RenderCaches.use`, else new ones). Throws, naming the fix, when there is none.
  public func face(directory: String = ".", fonts: FontCache? = nil) throws -> FontFace {
    let fonts = fonts ?? RenderCaches.scoped.fonts
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

  /// The longest text, in Unicode scalars.
  public static let maximumLength = 20_000

  /// Lays out `text` in `face` at `pixelSize`, within `maxWidth` pixels (nil: no
  /// wrapping), in at most `lineLimit` lines (nil: any).
  public init(
    _ text: String, face: FontFace, pixelSize: Double, weight: FontWeight = .regular, maxWidth: Double? = nil,
    lineLimit: Int? = nil, alignment: TextAlignment = .leading
  ) {
    let scale = pixelSize / Double(face.unitsPerEm)
    func runs(_ string: String) -> [ShapedRun] { TextShaper.shape(string, face: face, weight: weight) }
    func width(_ runs: [ShapedRun]) -> Double { runs.reduce(0) { $0 + $1.advance(pixelSize: pixelSize) } }
    var lineTexts: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      lineTexts += Self.wrap(paragraph, maxWidth: maxWidth, measure: { width(runs($0)) })
    }
    var truncated = false
    if let lineLimit, lineLimit > 0, lineTexts.count > lineLimit {
      // The last line shows what fits of the rest, then "…".
      var last = lineTexts[(lineLimit - 1)...].joined(separator: " ")
      lineTexts = Array(lineTexts.prefix(lineLimit - 1))
      var scalars = Array(last.unicodeScalars)
      func candidate() -> String { String(String.UnicodeScalarView(scalars)).trimmingTrailingSpaces + "…" }
      if let maxWidth {
        while !scalars.isEmpty && width(runs(candidate())) > maxWidth { scalars.removeLast() }
      }
      last = candidate()
      lineTexts.append(last)
      truncated = true
    }
    let ascender = Double(face.ascender) * scale
    self.lineHeight = face.lineHeight(pixelSize: pixelSize)
    var lines: [Line] = []
    for (i, string) in lineTexts.enumerated() {
      let shaped = runs(string.trimmingTrailingSpaces)
      lines.append(Line(runs: shaped, width: width(shaped), x: 0, baseline: ascender + Double(i) * lineHeight))
    }
    let widest = lines.map(\.width).max() ?? 0
    let box = maxWidth.map { min($0, widest) } ?? widest
    let rightToLeft = lines.first?.runs.first(where: { $0.script != "Zyyy" })?.isRightToLeft ?? false
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

  /// A paragraph cut into lines no wider than `maxWidth`: greedily, at the last
  /// space that fits; a word wider than a line breaks after its last character that
  /// fits (at least one a line).
  static func wrap(_ paragraph: String, maxWidth: Double?, measure: (String) -> Double) -> [String] {
    guard let maxWidth, measure(paragraph.trimmingTrailingSpaces) > maxWidth else { return [paragraph] }
    let scalars = Array(paragraph.unicodeScalars)
    func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
    var lines: [String] = []
    var start = 0
    while start < scalars.count {
      // Skip the spaces a break leaves at the start of a line.
      while start < scalars.count && scalars[start] == " " { start += 1 }
      guard start < scalars.count else { break }
      if measure(string(start..<scalars.count).trimmingTrailingSpaces) <= maxWidth {
        lines.append(string(start..<scalars.count))
        break
      }
      // The longest run of whole words that fits; else the longest run of characters.
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
}

extension String {
  /// The string without the spaces at its end.
  var trimmingTrailingSpaces: String {
    var scalars = Array(unicodeScalars)
    while scalars.last?.properties.isWhitespace == true { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }
}
