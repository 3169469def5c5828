import CText
import Foundation

/// A paragraph shaped once, whole, so that its lines can be measured and drawn
/// from its glyphs instead of being shaped again for every width a layout tries.
///
/// HarfBuzz marks each cluster before which breaking the text could change the
/// result (`HB_GLYPH_FLAG_UNSAFE_TO_BREAK`); before every other cluster,
/// breaking the text there and shaping each side on its own gives exactly the
/// glyphs of the whole on each side. So a piece of a paragraph of one run (one
/// script, one face) cut at two such places, and that makes one run of the same
/// script and face on its own, *is* the piece of the paragraph's glyphs: its
/// width, its clusters and its glyphs are what `TextShaper.shape` would give
/// it, to the bit. `slice` gives those pieces; for any other piece (cut inside
/// a cluster, next to a kerning pair or a ligature, in a paragraph of several
/// scripts or faces) it gives nil, and the piece is shaped on its own as before.
/// Either way a line is what it would be shaped on its own: `TextLayout`'s
/// contract is unchanged, and Latin text is shaped about once per paragraph.
final class ShapedParagraph: @unchecked Sendable {
  /// The paragraph's scalars.
  let scalars: [Unicode.Scalar]
  /// Its runs, as `TextShaper.shape` gives them (in visual order): the text
  /// shaped on its own.
  let runs: [ShapedRun]
  /// Its one run, when it has one and `face` has every character of it; nil
  /// otherwise (every piece is then shaped on its own).
  let run: ShapedRun?
  /// Whether a cut before scalar `i` (`0 ... count`) keeps the glyphs on both
  /// sides: the paragraph's ends, and the start of every cluster HarfBuzz does
  /// not mark unsafe to break.
  let safe: [Bool]
  /// `units[i]`: the advance, in font units, of the glyphs of the clusters
  /// before scalar `i`.
  let units: [Int]
  /// The scalars where clusters start, in order, and each cluster's advance
  /// in font units.
  let clusterStarts: [Int]
  let clusterUnits: [Int]
  /// `scripted[i]`: how many of the scalars before `i` are of a script (not
  /// common, inherited or unknown).
  let scripted: [Int]
  /// Whether the run is of no script (digits and punctuation alone).
  let isCommon: Bool
  /// Whether no cluster advances backwards (`lineEnd`'s premise).
  let advancesForward: Bool
  /// The face it was shaped in.
  let face: FontFace
  /// `contentEnd[i]`: where a piece ending at `i` ends without the whitespace
  /// at its end.
  let contentEnd: [Int]
  /// What pieces that are not pieces of its glyphs measure, shaped on their
  /// own, by range and pixel size (a layout asks again for the same few: the
  /// pieces at a kerning pair); guarded by `lock` (a batch shares its caches).
  private var alone: [PieceKey: TextLayout.Measured] = [:]
  /// The pieces shaped on their own kept at most.
  static let aloneLimit = 16
  private struct PieceKey: Hashable {
    var range: Range<Int>
    var pixelSize: Double
  }
  private let lock = NSLock()

  /// Shapes `text` in `face` at `weight` (`TextShaper.shape`).
  init(_ text: String, face: FontFace, weight: FontWeight) {
    scalars = Array(text.unicodeScalars)
    self.face = face
    let count = scalars.count
    var ends = [Int](repeating: 0, count: count + 1)
    for i in 0..<count { ends[i + 1] = scalars[i].properties.isWhitespace ? ends[i] : i + 1 }
    contentEnd = ends
    let runs = TextShaper.shape(text, face: face, weight: weight)
    self.runs = runs
    // One run whose every character is the face's: a piece of it makes one run
    // of that face on its own too (no fallback can be found for a shorter piece).
    guard runs.count == 1, let only = runs.first, only.face === face,
      scalars.allSatisfy({ face.hasGlyph(for: $0) })
    else {
      run = nil
      (safe, units, clusterStarts, clusterUnits, scripted, isCommon) = ([], [], [], [], [], false)
      advancesForward = false
      return
    }
    run = only
    var advance = [Int](repeating: 0, count: count)
    var starts = [Bool](repeating: false, count: count + 1)
    for glyph in only.glyphs where glyph.cluster >= 0 && glyph.cluster < count {
      starts[glyph.cluster] = true
      advance[glyph.cluster] += Int(glyph.xAdvance)
    }
    var sums = [0]
    sums.reserveCapacity(count + 1)
    for value in advance { sums.append(sums[sums.count - 1] + value) }
    units = sums
    clusterStarts = (0..<count).filter { starts[$0] }
    clusterUnits = clusterStarts.map { advance[$0] }
    advancesForward = clusterUnits.allSatisfy { $0 >= 0 }
    safe = (0...count).map { $0 == 0 || $0 == count || (starts[$0] && !only.unsafeToBreak.contains($0)) }
    let funcs = hb_unicode_funcs_get_default()
    let neutral: Set<UInt32> = [HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue]
    var counted = [0]
    counted.reserveCapacity(count + 1)
    for scalar in scalars {
      let isScripted = !neutral.contains(hb_unicode_script(funcs, scalar.value).rawValue)
      counted.append(counted[counted.count - 1] + (isScripted ? 1 : 0))
    }
    scripted = counted
    isCommon = only.script == "Zyyy"
  }

  /// The scalars of `range` as a string.
  func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }

  /// `range` without the whitespace at its end.
  func withoutTrailingSpaces(_ range: Range<Int>) -> Range<Int> {
    range.lowerBound..<max(range.lowerBound, contentEnd[range.upperBound])
  }

  /// What `range` measures shaped on its own: `measured`'s where it is a
  /// piece, else `shape`d (once: kept by range).
  func measure(
    _ range: Range<Int>, pixelSize: Double, clusters: [Double], shape: (String) -> TextLayout.Measured
  ) -> TextLayout.Measured {
    if let piece = measured(range, pixelSize: pixelSize, clusters: clusters) { return piece }
    let key = PieceKey(range: range, pixelSize: pixelSize)
    if let known = lock.withLock({ alone[key] }) { return known }
    let made = shape(string(range))
    // Kept up to a bound (its bytes are charged when the paragraph is cached).
    lock.withLock { if alone.count < Self.aloneLimit { alone[key] = made } }
    return made
  }

  /// Whether `range` shaped on its own is the piece of the paragraph's glyphs:
  /// cut where breaking is safe, and one run of the same script on its own (a
  /// piece with a character of a script takes it; a piece of digits and
  /// punctuation alone in a Latin paragraph is of no script).
  func isPiece(_ range: Range<Int>) -> Bool {
    guard run != nil, !range.isEmpty, safe[range.lowerBound], safe[range.upperBound] else { return false }
    return isCommon || scripted[range.upperBound] > scripted[range.lowerBound]
  }

  /// `range`'s width shaped on its own (`measured`'s), nil when it is not a piece.
  func width(of range: Range<Int>, pixelSize: Double) -> Double? {
    guard isPiece(range) else { return nil }
    return Double(units[range.upperBound] - units[range.lowerBound]) * pixelSize / Double(face.unitsPerEm)
  }

  /// Each cluster's advance at `pixelSize`, pixels, in order (for `measured`).
  func clusterAdvances(pixelSize: Double) -> [Double] {
    let scale = pixelSize / Double(face.unitsPerEm)
    return clusterUnits.map { Double($0) * scale }
  }

  /// What `range` measures shaped on its own (its width is `TextLayout.Measured`'s
  /// of its runs, to the bit; its clusters' advances, `clusters` from
  /// `clusterAdvances`, to rounding), from the paragraph's advances; nil when it
  /// is not a piece.
  func measured(_ range: Range<Int>, pixelSize: Double, clusters: [Double]) -> TextLayout.Measured? {
    guard isPiece(range) else { return nil }
    let upem = Double(face.unitsPerEm)
    // The clusters that start in the range (a piece starts and ends on cluster starts).
    func firstStart(atLeast value: Int) -> Int {
      var low = 0
      var high = clusterStarts.count
      while low < high {
        let middle = (low + high) / 2
        if clusterStarts[middle] < value { low = middle + 1 } else { high = middle }
      }
      return low
    }
    return TextLayout.Measured(
      width: Double(units[range.upperBound] - units[range.lowerBound]) * pixelSize / upem,
      clusters: clusters[firstStart(atLeast: range.lowerBound)..<firstStart(atLeast: range.upperBound)])
  }

  /// Where `TextLayout.wrapRanges` ends the line that starts at `start` (after
  /// the spaces a break leaves) within `maxWidth`, worked out from the
  /// paragraph's advances in one pass: a piece's width is the sum of its
  /// clusters' advances, so where no cluster advances backwards (no advance
  /// below 0) a longer line is never narrower, and the longest run of whole
  /// words that fits, or prefix of a word, is the last before the first that
  /// does not. Nil (the caller works the line out the general way) when it
  /// would need a piece that is not one (`isPiece`), or the paragraph is not of
  /// one run. `contentEnd[i]`: where a line ending at `i` ends without its
  /// trailing whitespace.
  func lineEnd(from start: Int, maxWidth: Double, pixelSize: Double) -> Int? {
    guard run != nil, advancesForward else { return nil }
    let count = scalars.count
    let upem = Double(face.unitsPerEm)
    /// start..<end less its trailing spaces, measured as `TextLayout.Measured` would; nil: not a piece.
    func width(_ end: Int) -> Double? {
      let range = start..<max(start, contentEnd[end])
      guard range.isEmpty || isPiece(range) else { return nil }
      return Double(units[range.upperBound] - units[range.lowerBound]) * pixelSize / upem
    }
    // Whole words: the break before the first that does not fit.
    var end: Int?
    var candidate = start + 1
    while candidate <= count {
      if candidate == count || scalars[candidate] == " " {
        guard let w = width(candidate) else { return nil }
        if w > maxWidth { break }
        end = candidate
      }
      candidate += 1
    }
    if var stop = end {
      while stop < count && stop > start && scalars[stop - 1] == " " { stop -= 1 }
      return stop
    }
    // Not one word fits: the longest prefix of the first word that fits, one
    // character at least.
    var word = start + 1
    while word < count && scalars[word] != " " { word += 1 }
    var stop = start + 1
    var next = start + 2
    while next < word {
      guard let w = width(next) else { return nil }
      if w > maxWidth { break }
      stop = next
      next += 1
    }
    return stop
  }

  /// The runs `range` shaped on its own has, from the paragraph's glyphs (their
  /// clusters counted from the piece's start); nil when it is not a piece.
  func slice(_ range: Range<Int>) -> [ShapedRun]? {
    guard let run, isPiece(range) else { return nil }
    var glyphs: [ShapedGlyph] = []
    for glyph in run.glyphs where range.contains(glyph.cluster) {
      var piece = glyph
      piece.cluster -= range.lowerBound
      glyphs.append(piece)
    }
    return [
      ShapedRun(
        face: run.face, glyphs: glyphs, scalars: 0..<range.count, isRightToLeft: run.isRightToLeft, script: run.script)
    ]
  }

  /// About how many bytes it holds (for `RenderCaches.shapedText`).
  var bytes: Int {
    128 + scalars.count * 38 + runs.reduce(0) { $0 + 64 + $1.glyphs.count * 40 + $1.unsafeToBreak.count * 16 }
      + Self.aloneLimit * 96
  }
}

/// What a shaped paragraph depends on: its text, the face (by its serial, unique
/// in the process) and the weight its fallbacks are found at. Not its size:
/// HarfBuzz shapes in font units.
struct ShapedTextKey: Hashable {
  var text: String
  var face: UInt64
  var weight: FontWeight
}
