import Foundation

/// The byte budgets of a renderer's caches (`RenderCaches`).
public struct CacheBudgets: Sendable, Hashable {
  /// Open font faces, each charged its file's size and 64 KiB.
  public var fontBytes = 64 << 20
  /// fontconfig's answers (a family's file, a fallback for some characters).
  public var fontMatchBytes = 1 << 20
  /// Glyph coverage, per face, size, glyph and quarter-pixel offset.
  public var glyphBytes = 4 << 20
  /// Text masks, as the renders drew them (4 bytes a pixel).
  public var textMaskBytes = 12 << 20
  /// Text laid out in points (its shaped lines), as layout measured it and
  /// lowering draws it, per text and width.
  public var textLayoutBytes = 4 << 20
  /// Paragraphs shaped once, whole (`ShapedParagraph`: glyphs and where they
  /// may break), per text, face and weight: what a text measured within several
  /// widths, or repeated in a batch, is measured and drawn from.
  public var shapedTextBytes = 16 << 20
  /// Icons' coverage, per name and size.
  public var iconBytes = 4 << 20
  /// Decoded images and copies fitted to frames (`ImageCache`).
  public var imageBytes = 256 << 20
  /// Sources a backend keeps converted for later renders of the same images (the
  /// GPU's textures, the CPU's linear images; the "textures" cache), each charged
  /// its converted pixels and the image it holds.
  public var textureBytes = 96 << 20

  /// The defaults: 64 MiB of fonts, 1 MiB of matches, 4 MiB of glyphs, 12 MiB of
  /// text masks, 4 MiB of text layouts, 16 MiB of shaped text, 4 MiB of icons,
  /// 256 MiB of images, 96 MiB of textures.
  public init() {}

  /// Glyphs and text masks together (`glass-gpu batch --text-cache`): setting it
  /// gives a quarter to glyphs, the rest to masks.
  public var textBytes: Int {
    get { glyphBytes + textMaskBytes }
    set {
      glyphBytes = max(0, newValue) / 4
      textMaskBytes = max(0, newValue) - glyphBytes
    }
  }
}

/// A renderer's caches: font faces and fontconfig's answers, glyphs, text masks,
/// icons, decoded and fitted images, and (attached by the renderer) the sources
/// its backend keeps converted. Each is an `LRUCache` with a byte budget that
/// drops the least recently used entry first, so memory stays within the budgets
/// however many distinct texts, positions and images a batch renders. Each
/// admits on second use (`CacheAdmission`): what a render uses waits on
/// probation (a quarter of the budget, at most 1,024 entries), where later
/// renders still find it, and is kept for good only when it comes back, so a
/// batch of distinct scenes does not fill the budgets with what no job draws
/// twice: its caches stop growing once their probations are full, but for the
/// keys they remember (`glass-gpu-bench batch --memory`). A `Renderer` or a
/// `BatchRenderer` makes one and passes it down through prepare and lowering;
/// nothing of it is process-global. Thread-safe: a batch prepares on several
/// threads.
public final class RenderCaches: @unchecked Sendable {
  /// What each cache may hold.
  public let budgets: CacheBudgets
  /// Faces and fontconfig's answers.
  public let fonts: FontCache
  /// Decoded images and copies fitted to frames.
  public let images: ImageCache
  let glyphs: LRUCache<TextRaster.Key, TextRaster.Glyph>
  let textMasks: LRUCache<TextMaskKey, TextMask?>
  let textLayouts: LRUCache<TextLayoutKey, ContentLayout>
  let shapedText: LRUCache<ShapedTextKey, ShapedParagraph>
  let icons: LRUCache<IconKey, [UInt8]>
  private let lock = NSLock()
  private var attached: [@Sendable () -> CacheStats] = []

  /// Caches within `budgets`.
  public init(budgets: CacheBudgets = CacheBudgets()) {
    self.budgets = budgets
    fonts = FontCache(faceBytes: budgets.fontBytes, matchBytes: budgets.fontMatchBytes)
    images = ImageCache(capacityBytes: budgets.imageBytes)
    glyphs = LRUCache("glyphs", budgetBytes: budgets.glyphBytes)
    textMasks = LRUCache("text masks", budgetBytes: budgets.textMaskBytes)
    textLayouts = LRUCache("text layouts", budgetBytes: budgets.textLayoutBytes)
    shapedText = LRUCache("shaped text", budgetBytes: budgets.shapedTextBytes)
    icons = LRUCache("icons", budgetBytes: budgets.iconBytes)
  }

  /// What every cache holds and has done, in a fixed order: fonts, font matches,
  /// glyphs, text masks, text layouts, shaped text, icons, images, then textures
  /// when a GPU renderer keeps them.
  public var stats: [CacheStats] {
    let more = lock.withLock { attached }
    return fonts.stats + [
      glyphs.stats, textMasks.stats, textLayouts.stats, shapedText.stats, icons.stats, images.stats,
    ]
      + more.map { $0() }
  }

  /// `text`, one paragraph, shaped whole in `face` at `weight`: from the cache
  /// when it was shaped already, else shaped now and kept.
  func shapedParagraph(_ text: String, face: FontFace, weight: FontWeight) -> ShapedParagraph {
    let key = ShapedTextKey(text: text, face: face.serial, weight: weight)
    return shapedText.value(forKey: key, bytes: { $0.bytes + text.utf8.count }) {
      ShapedParagraph(text, face: face, weight: weight)
    }
  }

  /// `content` laid out within `maxWidth` points (nil or infinity: one line per
  /// paragraph), its fonts found relative to `directory`: from the cache when
  /// this text was laid out within this width already (layout measures a text,
  /// lowering draws that same layout), else laid out now and kept. Errors are
  /// `ContentLayout`'s, not kept.
  func contentLayout(_ content: TextContent, maxWidth: Double?, directory: String) throws -> ContentLayout {
    let width = maxWidth.flatMap { $0.isInfinite ? nil : $0 }
    let key = TextLayoutKey(content, maxWidth: width, directory: directory)
    return try textLayouts.value(forKey: key, bytes: { $0.bytes + key.bytes }) {
      try ContentLayout(content, maxWidth: width, directory: directory, caches: self)
    }
  }

  /// The stats of the cache named `name` (`CacheStats.name`), if there is one.
  public func stats(named name: String) -> CacheStats? {
    stats.first { $0.name == name }
  }

  /// Adds a cache kept elsewhere (the GPU backend's textures) to `stats`.
  func attach(_ stats: @escaping @Sendable () -> CacheStats) {
    lock.withLock { attached.append(stats) }
  }

  /// The caches that text laid out during `body` uses when it is given none:
  /// `Scene.laidOut` and `TextContent.size` called in `body` measure with these.
  public func use<T>(_ body: () throws -> T) rethrows -> T {
    try Self.$current.withValue(self, operation: body)
  }

  /// The caches bound by `use`, if any.
  @TaskLocal static var current: RenderCaches?

  /// `caches`, else those bound by `use`, else new ones that live for one call.
  /// Only the public entry points whose caches are optional call it, once, where
  /// they are entered (`Scene.laidOut`, `Scene.resolvedViews`, `Renderer.prepare`,
  /// `TextContent.size`, `TextRaster.mask`, `Font.face`), and each says so; what
  /// they call takes the caches as a required parameter, so nothing inside the
  /// library makes caches of its own.
  static func given(_ caches: RenderCaches?) -> RenderCaches { caches ?? current ?? RenderCaches() }
}
