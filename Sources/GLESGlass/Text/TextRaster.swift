import CText
import Foundation

/// Glyph coverage, rasterised by FreeType on the CPU once per face, size, glyph
/// and quarter-pixel horizontal offset while the renderer's glyph cache
/// (`RenderCaches`) keeps it (outlines unhinted, as Apple draws them), and a
/// text's coverage mask made from them. Both backends composite the same
/// mask, so text has the same pixels on the GPU and the CPU.
public enum TextRaster {
  /// A glyph's coverage: `width` x `height` bytes, its top-left pixel at (left,
  /// -top) from the pen on the baseline (y down).
  struct Glyph: Sendable {
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    var coverage: [UInt8]
  }

  /// A glyph image in `RenderCaches.glyphs`: the face (by its serial), the size,
  /// the glyph and the quarter-pixel offset.
  struct Key: Hashable {
    var face: UInt64
    var sizeBits: UInt64
    var glyph: UInt32
    var quarter: Int
  }

  /// Horizontal positions are rounded to quarter pixels; baselines to whole pixels.
  static let subpixelSteps = 4

  /// The glyph `id` of `face` at `pixelSize`, shifted right by `quarter` / 4 pixel,
  /// from `cache` or rasterised into it.
  static func glyph(
    _ face: FontFace, _ id: UInt32, pixelSize: Double, quarter: Int, cache: LRUCache<Key, Glyph>
  ) -> Glyph {
    let key = Key(face: face.serial, sizeBits: pixelSize.bitPattern, glyph: id, quarter: quarter)
    return cache.value(forKey: key, bytes: { $0.coverage.count }) {
      render(face, id, pixelSize: pixelSize, quarter: quarter)
    }
  }

  private static func render(_ face: FontFace, _ id: UInt32, pixelSize: Double, quarter: Int) -> Glyph {
    face.lock.lock()
    defer { face.lock.unlock() }
    let ft = face.ftFace
    let empty = Glyph(left: 0, top: 0, width: 0, height: 0, coverage: [])
    guard FT_Set_Char_Size(ft, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0,
      FT_Load_Glyph(ft, id, ctext_load_no_hinting | ctext_load_no_bitmap) == 0, let slot = ft.pointee.glyph
    else { return empty }
    if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
      FT_Outline_Translate(&slot.pointee.outline, FT_Pos(quarter * 64 / subpixelSteps), 0)
    }
    guard FT_Render_Glyph(slot, FT_Render_Mode(UInt32(ctext_render_normal))) == 0 else { return empty }
    let bitmap = slot.pointee.bitmap
    let width = Int(bitmap.width)
    let height = Int(bitmap.rows)
    guard width > 0, height > 0, let buffer = bitmap.buffer else {
      return Glyph(left: 0, top: 0, width: 0, height: 0, coverage: [])
    }
    var coverage = [UInt8](repeating: 0, count: width * height)
    let pitch = Int(bitmap.pitch)
    for row in 0..<height {
      let source = pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch
      for column in 0..<width { coverage[row * width + column] = buffer[source + column] }
    }
    return Glyph(
      left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: width, height: height,
      coverage: coverage)
  }

  /// A text's coverage: the layout's glyphs placed with the layout's top-left at
  /// `origin` (canvas pixels, any fraction), composited "over" where they overlap.
  /// `rect` is where the mask lies on the canvas; nil when nothing is drawn. The
  /// glyphs come from `caches` (nil: those bound by `RenderCaches.use`, else new
  /// ones for this call alone).
  public static func mask(
    _ layout: TextLayout, origin: SIMD2<Double>, caches: RenderCaches? = nil
  ) -> (rect: PixelRect, coverage: [UInt8])? {
    let cache = RenderCaches.given(caches).glyphs
    struct Placed {
      var glyph: Glyph
      var x: Int
      var y: Int
    }
    var placed: [Placed] = []
    let baseY = origin.y.rounded()
    for line in layout.lines {
      let baseline = Int((baseY + line.baseline).rounded())
      var pen = origin.x + line.x
      for run in line.runs {
        let scale = layout.pixelSize / Double(run.face.unitsPerEm)
        for g in run.glyphs {
          let x = pen + Double(g.xOffset) * scale
          let y = Double(baseline) - Double(g.yOffset) * scale
          let steps = (x * Double(subpixelSteps)).rounded()
          let whole = Int((steps / Double(subpixelSteps)).rounded(.down))
          let quarter = Int(steps) - whole * subpixelSteps
          let glyph = Self.glyph(run.face, g.id, pixelSize: layout.pixelSize, quarter: quarter, cache: cache)
          if glyph.width > 0 {
            placed.append(Placed(glyph: glyph, x: whole + glyph.left, y: Int(y.rounded()) - glyph.top))
          }
          pen += Double(g.xAdvance) * scale
        }
      }
    }
    guard !placed.isEmpty else { return nil }
    let x0 = placed.map(\.x).min() ?? 0
    let y0 = placed.map(\.y).min() ?? 0
    let x1 = placed.map { $0.x + $0.glyph.width }.max() ?? 0
    let y1 = placed.map { $0.y + $0.glyph.height }.max() ?? 0
    let rect = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    var coverage = [UInt8](repeating: 0, count: rect.pixelCount)
    for p in placed {
      for row in 0..<p.glyph.height {
        let target = (p.y - y0 + row) * rect.width + (p.x - x0)
        for column in 0..<p.glyph.width {
          let a = Int(coverage[target + column])
          let b = Int(p.glyph.coverage[row * p.glyph.width + column])
          // a over b, in coverage: a + b (1 - a).
          coverage[target + column] = UInt8(a + (b * (255 - a) + 127) / 255)
        }
      }
    }
    return (rect, coverage)
  }

  /// How much the coverage correction moves coverage toward what blending the
  /// sRGB values would give (0: none, plain linear light; 1: all the way).
  public static let correctionStrength = 1.0

  /// Coverage corrected for compositing in linear light with a paint of linear
  /// luminance `luminance`: blending in linear light thins dark text on a light
  /// ground (half coverage of black over white lands at linear 0.5, sRGB 188)
  /// and fattens light text on a dark one, against what sRGB-space blending and
  /// the eye expect. Skia and Core Text correct the mask by the paint's luminance
  /// (Skia's contrast and gamma tables); this does the same with one formula:
  /// the coverage that, blended in linear light against the contrasting extreme,
  /// gives what blending the sRGB values would,
  ///
  ///     dark text:  c' = 1 - lin(1 - c)      light text: c' = lin(c)
  ///     c' = (1 - Y) dark + Y light,  Y = the paint's linear luminance
  ///
  /// moved `correctionStrength` of the way from c. A table of 256 values per
  /// luminance, computed in Double.
  public static func corrected(_ coverage: [UInt8], luminance: Double) -> [UInt8] {
    let y = min(max(luminance, 0), 1)
    func lin(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    let table = (0..<256).map { i -> UInt8 in
      let c = Double(i) / 255
      let target = (1 - y) * (1 - lin(1 - c)) + y * lin(c)
      let v = c + (target - c) * correctionStrength
      return UInt8((min(max(v, 0), 1) * 255).rounded())
    }
    return coverage.map { table[Int($0)] }
  }
}
