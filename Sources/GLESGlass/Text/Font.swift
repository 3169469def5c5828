import CText
import Foundation

/// A font file opened once for the process: HarfBuzz's face for shaping (its own
/// OpenType functions, so shaping is exactly `hb-shape`'s) and FreeType's face for
/// outlines. Shaping works in font units (the HarfBuzz font's scale is the units
/// per em); a size in pixels only scales the result, so one face serves every size.
/// Rasterising takes the face's lock: a FreeType face is used by one thread at a time.
public final class FontFace: @unchecked Sendable {
  /// The file.
  public let path: String
  /// The face within the file (a collection holds several).
  public let index: Int
  /// Font units per em.
  public let unitsPerEm: Int
  /// The family and style names, as the font gives them.
  public let familyName: String
  /// See `familyName`.
  public let styleName: String
  /// Typographic ascender, descender (negative) and line gap, font units.
  public let ascender: Int
  /// See `ascender`.
  public let descender: Int
  /// See `ascender`.
  public let lineGap: Int

  let hbFont: OpaquePointer
  let ftFace: FT_Face
  let lock = NSLock()
  /// Unique in the process: glyphs are cached by it (an address could be reused
  /// by a face opened after this one is freed).
  let serial = FontFace.nextSerial()
  /// The cache that opened it, where shaping finds fallback faces; nil for a face
  /// opened on its own.
  weak var fonts: FontCache?

  /// Opens `path`: a file that is not a regular readable file of at most
  /// `Font.maximumFileBytes` (`PNGCodec.openRegularFile`: a FIFO would block
  /// FreeType for ever), or is not a font, throws.
  init(path: String, index: Int = 0) throws {
    close(try PNGCodec.openRegularFile(path, maxBytes: Font.maximumFileBytes, what: Font.fileDescription).descriptor)
    var face: FT_Face?
    let error = FontLibrary.shared.withLibrary { FT_New_Face($0, path, FT_Long(index), &face) }
    guard error == 0, let face else {
      throw GlassError(
        .fileUnreadable, "\(path) is not a font FreeType can read (error \(error)); give a TrueType or OpenType file")
    }
    guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
      FontLibrary.shared.withLibrary { _ in _ = FT_Done_Face(face) }
      throw GlassError(.fileUnreadable, "\(path) is a bitmap font; give a scalable TrueType or OpenType font")
    }
    let blob = hb_blob_create_from_file_or_fail(path)
    guard let blob else {
      FontLibrary.shared.withLibrary { _ in _ = FT_Done_Face(face) }
      throw GlassError(.fileUnreadable, "cannot read the font file \(path)")
    }
    let hbFace = hb_face_create(blob, UInt32(index))
    hb_blob_destroy(blob)
    let upem = Int(hb_face_get_upem(hbFace))
    let font = hb_font_create(hbFace)
    hb_face_destroy(hbFace)
    guard let font else {
      FontLibrary.shared.withLibrary { _ in _ = FT_Done_Face(face) }
      throw GlassError(.fileUnreadable, "HarfBuzz cannot open \(path)")
    }
    hb_font_set_scale(font, Int32(upem), Int32(upem))
    self.path = path
    self.index = index
    self.unitsPerEm = upem
    self.hbFont = font
    self.ftFace = face
    familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
    styleName = face.pointee.style_name.map { String(cString: $0) } ?? ""
    // The typographic metrics (OS/2 when it asks for them, else hhea), as
    // HarfBuzz reads them.
    var extents = hb_font_extents_t()
    hb_font_get_h_extents(font, &extents)
    ascender = Int(extents.ascender)
    descender = Int(extents.descender)
    lineGap = Int(extents.line_gap)
  }

  deinit {
    hb_font_destroy(hbFont)
    let face = ftFace
    FontLibrary.shared.withLibrary { _ in _ = FT_Done_Face(face) }
  }

  private static let serialLock = NSLock()
  nonisolated(unsafe) private static var lastSerial: UInt64 = 0

  private static func nextSerial() -> UInt64 {
    serialLock.withLock {
      lastSerial += 1
      return lastSerial
    }
  }

  /// Whether the font has a glyph for `scalar`.
  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0
  }

  /// The line height at `pixelSize`: ascender - descender + line gap, in pixels.
  public func lineHeight(pixelSize: Double) -> Double {
    Double(ascender - descender + lineGap) * pixelSize / Double(unitsPerEm)
  }
}

/// The process's FreeType library, and fontconfig's answers, uncached: the
/// faces and matches a renderer keeps are in its `FontCache`. The FreeType
/// library is a process resource that does not grow with the work.
final class FontLibrary: @unchecked Sendable {
  static let shared = FontLibrary()

  private let lock = NSLock()
  private var library: FT_Library?

  private init() {
    var library: FT_Library?
    if FT_Init_FreeType(&library) == 0 { self.library = library }
  }

  /// Runs `body` with the library, one thread at a time (FreeType creates and
  /// frees faces through it).
  func withLibrary<T>(_ body: (FT_Library?) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(library)
  }

  /// The face of `path`, opened now (a `FontCache` keeps the faces it opens).
  func face(path: String, index: Int = 0) throws -> FontFace {
    try FontFace(path: path, index: index)
  }

  /// The file fontconfig matches to a family and weight, if it has that family
  /// (fontconfig always answers with some font; a match whose family differs is
  /// no match).
  func match(family: String, weight: FontWeight, italic: Bool = false) -> (path: String, index: Int)? {
    Self.fontconfig(family: family, weight: weight, italic: italic)
  }

  /// A font that has every character of `scalars`, from fontconfig's fallback
  /// order for sans-serif text (nil when none has them all).
  func fallback(for scalars: [Unicode.Scalar], weight: FontWeight) -> (path: String, index: Int)? {
    Self.fontconfig(fallbackFor: scalars, weight: weight)
  }

  private static func fontconfig(
    fallbackFor scalars: [Unicode.Scalar], weight: FontWeight
  ) -> (
    path: String, index: Int
  )? {
    guard FcInit() != 0, let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    let charset = FcCharSetCreate()
    defer { FcCharSetDestroy(charset) }
    for scalar in scalars { FcCharSetAddChar(charset, scalar.value) }
    _ = "sans-serif".withCString {
      FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
    }
    FcPatternAddCharSet(pattern, FC_CHARSET, charset)
    FcPatternAddInteger(pattern, FC_WEIGHT, weight.fontconfigWeight)
    FcPatternAddBool(pattern, FC_SCALABLE, FcBool(1))
    FcConfigSubstitute(nil, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let set = FcFontSort(nil, pattern, FcBool(1), nil, &result) else { return nil }
    defer { FcFontSetDestroy(set) }
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      var fontCharset: OpaquePointer?
      guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch, let fontCharset,
        scalars.allSatisfy({ FcCharSetHasChar(fontCharset, $0.value) != 0 })
      else { continue }
      var file: UnsafeMutablePointer<FcChar8>?
      guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
      var index: Int32 = 0
      _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
      return (String(cString: file), Int(index))
    }
    return nil
  }

  private static func fontconfig(family: String, weight: FontWeight, italic: Bool) -> (path: String, index: Int)? {
    guard FcInit() != 0, let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    _ = family.withCString {
      FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
    }
    FcPatternAddInteger(pattern, FC_WEIGHT, weight.fontconfigWeight)
    FcPatternAddInteger(pattern, FC_SLANT, italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
    FcPatternAddBool(pattern, FC_SCALABLE, FcBool(1))
    FcConfigSubstitute(nil, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    // Only a font of the family asked for (any of its names) counts.
    var names: [String] = []
    var n: Int32 = 0
    var name: UnsafeMutablePointer<FcChar8>?
    while FcPatternGetString(match, FC_FAMILY, n, &name) == FcResultMatch, let name {
      names.append(String(cString: name))
      n += 1
    }
    guard names.contains(where: { $0.caseInsensitiveCompare(family) == .orderedSame }) else { return nil }
    var file: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
    var index: Int32 = 0
    _ = FcPatternGetInteger(match, FC_INDEX, 0, &index)
    return (String(cString: file), Int(index))
  }
}

/// SwiftUI's `Font.Weight`.
public enum FontWeight: String, Sendable, Hashable, CaseIterable, Codable {
  case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

  /// The OpenType weight class (100 ... 900).
  public var value: Int {
    switch self {
    case .ultraLight: 100
    case .thin: 200
    case .light: 300
    case .regular: 400
    case .medium: 500
    case .semibold: 600
    case .bold: 700
    case .heavy: 800
    case .black: 900
    }
  }

  /// fontconfig's weight for it.
  var fontconfigWeight: Int32 { Int32(FcWeightFromOpenType(Int32(value))) }
}
