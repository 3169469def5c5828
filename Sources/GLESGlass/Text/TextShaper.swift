import CText

/// One glyph as HarfBuzz placed it, in font units of its face (the HarfBuzz font's
/// scale is the face's units per em): multiply by pixel size / units per em.
public struct ShapedGlyph: Hashable, Sendable {
  /// The glyph id in its face.
  public var id: UInt32
  /// The index, in the text's Unicode scalars, of the first character of its cluster.
  public var cluster: Int
  /// How far the pen moves after it, font units.
  public var xAdvance: Int32
  /// See `xAdvance`.
  public var yAdvance: Int32
  /// Where it is drawn from the pen, font units (y up, as HarfBuzz gives it).
  public var xOffset: Int32
  /// See `xOffset`.
  public var yOffset: Int32
}

/// A run of text in one script, direction and face, shaped by HarfBuzz; its glyphs
/// in visual order (left to right, as HarfBuzz returns them, right-to-left runs
/// already reversed).
public struct ShapedRun: Sendable {
  /// The face that has its characters.
  public var face: FontFace
  /// Its glyphs, left to right.
  public var glyphs: [ShapedGlyph]
  /// Its characters: indices in the text's Unicode scalars.
  public var scalars: Range<Int>
  /// Whether it reads right to left.
  public var isRightToLeft: Bool
  /// Its ISO 15924 script tag, such as "Latn" or "Arab".
  public var script: String
  /// The clusters (indices in the text's Unicode scalars) before which HarfBuzz
  /// says breaking the text and shaping each side on its own could give other
  /// glyphs (`HB_GLYPH_FLAG_UNSAFE_TO_BREAK`): everywhere else, a piece of the
  /// text shaped on its own is the piece of these glyphs.
  var unsafeToBreak: Set<Int> = []

  /// Its advance at `pixelSize`, pixels.
  public func advance(pixelSize: Double) -> Double {
    Double(glyphs.reduce(0) { $0 + Int($1.xAdvance) }) * pixelSize / Double(face.unitsPerEm)
  }
}

/// Shapes text with HarfBuzz: the text is cut into runs of one script (characters
/// common to all scripts, such as spaces and punctuation, join the run around
/// them) and one face (the first face that has the characters: the font asked for,
/// else fontconfig's fallback for them), each run shaped with its script and the
/// direction HarfBuzz gives that script, the whole text as context. Kerning,
/// ligatures, joining, reordering and marks are HarfBuzz's; nothing here moves a
/// glyph. Runs are placed in the paragraph's direction (that of its first strong
/// run); the Unicode Bidi Algorithm's nesting is not implemented.
public enum TextShaper {
  /// The runs of `text` in `face` (falling back for characters it lacks, at
  /// `weight`), in visual order. Fallback faces come from the `FontCache` that
  /// opened `face`; for a face opened on its own, from one made for this call.
  public static func shape(_ text: String, face: FontFace, weight: FontWeight = .regular) -> [ShapedRun] {
    let scalars = Array(text.unicodeScalars)
    guard !scalars.isEmpty else { return [] }
    let runs = itemize(scalars, face: face, weight: weight, fonts: fonts(of: face))
    let codepoints = scalars.map(\.value)
    var shaped: [ShapedRun] = []
    for run in runs {
      guard let buffer = hb_buffer_create() else { continue }
      defer { hb_buffer_destroy(buffer) }
      hb_buffer_add_utf32(
        buffer, codepoints, Int32(codepoints.count), UInt32(run.range.lowerBound), Int32(run.range.count))
      hb_buffer_set_script(buffer, run.script)
      hb_buffer_set_direction(buffer, hb_script_get_horizontal_direction(run.script))
      hb_buffer_guess_segment_properties(buffer)
      hb_shape(run.face.hbFont, buffer, nil, 0)
      var count: UInt32 = 0
      let infos = hb_buffer_get_glyph_infos(buffer, &count)
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
      var glyphs: [ShapedGlyph] = []
      var unsafe: Set<Int> = []
      glyphs.reserveCapacity(Int(count))
      if let infos, let positions {
        for i in 0..<Int(count) {
          // hb_glyph_info_get_glyph_flags is a macro: the flags are the mask's low bits.
          if infos[i].mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0 { unsafe.insert(Int(infos[i].cluster)) }
          glyphs.append(
            ShapedGlyph(
              id: infos[i].codepoint, cluster: Int(infos[i].cluster), xAdvance: positions[i].x_advance,
              yAdvance: positions[i].y_advance, xOffset: positions[i].x_offset, yOffset: positions[i].y_offset))
        }
      }
      shaped.append(
        ShapedRun(
          face: run.face, glyphs: glyphs, scalars: run.range,
          isRightToLeft: hb_script_get_horizontal_direction(run.script) == HB_DIRECTION_RTL,
          script: tag(run.script), unsafeToBreak: unsafe))
    }
    // The paragraph reads in the direction of its first run with a strong script.
    if let first = shaped.first(where: { $0.script != "Zyyy" }), first.isRightToLeft { shaped.reverse() }
    return shaped
  }

  /// Where `face`'s fallbacks are found: the cache that opened it, else one
  /// made for this call.
  static func fonts(of face: FontFace) -> FontCache {
    face.fonts ?? FontCache(faceBytes: CacheBudgets().fontBytes, matchBytes: CacheBudgets().fontMatchBytes)
  }

  /// A run before shaping.
  struct Item {
    var range: Range<Int>
    var script: hb_script_t
    var face: FontFace
  }

  /// Cuts the text into runs of one script and one face.
  static func itemize(_ scalars: [Unicode.Scalar], face: FontFace, weight: FontWeight, fonts: FontCache) -> [Item] {
    let funcs = hb_unicode_funcs_get_default()
    // Scripts: common and inherited characters take the script of the run they are
    // in (the one before; at the start, the first real one after).
    var scripts = scalars.map { hb_unicode_script(funcs, $0.value) }
    let neutral: Set<UInt32> = [HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue]
    let firstReal = scripts.first { !neutral.contains($0.rawValue) } ?? HB_SCRIPT_COMMON
    var current = firstReal
    for i in scripts.indices {
      if neutral.contains(scripts[i].rawValue) { scripts[i] = current } else { current = scripts[i] }
    }
    // Faces: the font asked for where it has the character; else a fallback that
    // has the whole stretch of characters it lacks, from `fonts`.
    var faces: [FontFace] = Array(repeating: face, count: scalars.count)
    var i = 0
    while i < scalars.count {
      guard !face.hasGlyph(for: scalars[i]) else {
        i += 1
        continue
      }
      var j = i
      while j < scalars.count && scripts[j] == scripts[i] && !face.hasGlyph(for: scalars[j]) { j += 1 }
      let missing = Array(scalars[i..<j]).filter { !$0.properties.isWhitespace }
      if let found = fonts.fallback(for: missing, weight: weight),
        let fallback = try? fonts.face(path: found.path, index: found.index)
      {
        for k in i..<j { faces[k] = fallback }
        // Spaces and marks between its characters stay in the fallback's run.
        var k = j
        while k < scalars.count && scripts[k] == scripts[i] && fallback.hasGlyph(for: scalars[k])
          && (scalars[k].properties.isWhitespace || hb_unicode_script(funcs, scalars[k].value) == HB_SCRIPT_INHERITED)
        {
          faces[k] = fallback
          k += 1
        }
        i = k
      } else {
        i = j
      }
    }
    var items: [Item] = []
    var start = 0
    for k in 1...scalars.count {
      if k == scalars.count || scripts[k] != scripts[start] || faces[k] !== faces[start] {
        items.append(Item(range: start..<k, script: scripts[start], face: faces[start]))
        start = k
      }
    }
    return items
  }

  /// The four-letter tag of a HarfBuzz script.
  static func tag(_ script: hb_script_t) -> String {
    let t = hb_script_to_iso15924_tag(script)
    let bytes = [UInt8(t >> 24), UInt8(t >> 16 & 0xff), UInt8(t >> 8 & 0xff), UInt8(t & 0xff)]
    return String(decoding: bytes, as: UTF8.self)
  }
}
