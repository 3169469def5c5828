import Foundation

/// Text content measured in points and drawn as a coverage mask at a scale.
///
/// The text is laid out once, in points (a `TextLayout` whose pixel is a point),
/// so where lines break does not depend on the scale; drawing scales the layout
/// and rasterises its glyphs at the scale's pixel size. A label's icon is a square
/// `iconScale` times the font size, `iconSpacing` times the font size before the
/// text (after it for right-to-left text), centred on the first line; an icon alone
/// is that square. The whole block is centred in the box it is drawn in.
struct ContentLayout {
  /// An icon's side, in font sizes.
  static let iconScale = 1.2
  /// The space between a label's icon and its text, in font sizes.
  static let iconSpacing = 0.4

  /// The text in points; nil for an empty string.
  let text: TextLayout?
  /// The icon's drawing and its name; nil without one.
  let icon: (name: String, draw: @Sendable (Int) -> RGBAImage)?
  /// The icon's square, in points from the block's top-left.
  let iconFrame: PointRect
  /// The text's top-left, in points from the block's top-left.
  let textOrigin: PointOffset
  /// The block's size, in points.
  let size: PointSize
  /// Whether its leading edge is the right one: the layout runs right to left
  /// (`TextContent.layoutDirection`) or the text's first paragraph does.
  let readsRightToLeft: Bool

  /// About how many bytes the layout holds: its glyphs and lines (for the cache
  /// of layouts, `RenderCaches.textLayouts`).
  var bytes: Int {
    let lines = text?.lines ?? []
    let glyphs = lines.reduce(0) { sum, line in sum + line.runs.reduce(0) { $0 + $1.glyphs.count } }
    return 256 + lines.count * 96 + glyphs * 40
  }

  /// Lays out `content` within `maxWidth` points (nil: no wrapping), its fonts from
  /// `caches`. Errors carry
  /// the JSON path of the field at fault relative to the content (`font`,
  /// `systemImage`, `text`).
  init(_ content: TextContent, maxWidth: Double?, directory: String, caches: RenderCaches) throws {
    let count = content.string.unicodeScalars.count
    guard count <= TextLayout.maximumLength else {
      throw GlassError(
        .invalidScene,
        "the text has \(count) characters (Unicode scalars); at most \(TextLayout.maximumLength) are laid out, "
          + "so split it into several texts",
        at: GlassError.Location(jsonPath: "text"))
    }
    if let name = content.systemImage {
      guard let draw = SystemImage.named(name) else {
        throw GlassError(
          .invalidScene,
          "unknown systemImage \"\(JSONNode.shortened(name))\"; the icons are \(SystemImage.nameList)",
          at: GlassError.Location(jsonPath: "systemImage"))
      }
      icon = (name, draw)
    } else {
      icon = nil
    }
    let font = content.font
    guard font.size.isFinite, font.size > 0, font.size <= Font.maximumSize else {
      throw GlassError(
        .invalidScene,
        "\(ParameterSpec.format(font.size)) is out of range; give a font size from 1 to "
          + "\(ParameterSpec.format(Font.maximumSize)) pt",
        at: GlassError.Location(jsonPath: "font.size"))
    }
    let face: FontFace
    do {
      face = try font.face(directory: directory, fonts: caches.fonts)
    } catch let error as GlassError {
      let field: String
      switch font.source {
      case .system: field = "font"
      case .family: field = "font.family"
      case .file: field = "font.file"
      }
      throw error.located(GlassError.Location(jsonPath: field))
    }
    let side = icon == nil ? 0 : font.size * Self.iconScale
    let gap = icon == nil || content.string.isEmpty ? 0 : font.size * Self.iconSpacing
    let text =
      content.string.isEmpty
      ? nil
      : TextLayout(
        content.string, face: face, pixelSize: font.size, weight: font.weight,
        maxWidth: maxWidth.map { max(0, $0 - side - gap) }, lineLimit: content.lineLimit,
        alignment: content.alignment, layoutDirection: content.layoutDirection,
        paragraphs: { caches.shapedParagraph($0, face: face, weight: font.weight) })
    self.text = text
    readsRightToLeft =
      content.layoutDirection == .rightToLeft
      || (text?.lines.first?.runs.first(where: { $0.script != "Zyyy" })?.isRightToLeft ?? false)
    let block = Self.block(
      side: side, gap: gap, text: text.map { (width: $0.width, height: $0.height, lineHeight: $0.lineHeight) })
    let iconX = readsRightToLeft ? (text?.width ?? 0) + gap : 0
    iconFrame = PointRect(x: iconX, y: block.iconTop, width: side, height: side)
    textOrigin = PointOffset(x: readsRightToLeft ? 0 : side + gap, y: block.textTop)
    size = block.size
  }

  /// Where the icon (a square of `side`) and the text of `text`'s size start
  /// down the block, and the block's size: the icon's centre on the first
  /// line's middle, whichever starts higher at 0; `gap` between them across.
  static func block(
    side: Double, gap: Double, text: (width: Double, height: Double, lineHeight: Double)?
  ) -> (iconTop: Double, textTop: Double, size: PointSize) {
    let middle = text.map { $0.lineHeight / 2 } ?? side / 2
    var iconTop = middle - side / 2
    var textTop = 0.0
    if iconTop < 0 {
      textTop = -iconTop
      iconTop = 0
    }
    let size = PointSize(
      width: side + gap + (text?.width ?? 0), height: max(iconTop + side, textTop + (text?.height ?? 0)))
    return (iconTop, textTop, size)
  }

  /// The size `content` laid out within `maxWidth` has, and whether its text is
  /// cut short, as `init` would make it, to the bit, without making its lines
  /// (`TextLayout.measure`): what layout asks of a text under a proposal. Its
  /// paragraphs are shaped once, with `caches`. Throws as `init` does.
  static func measure(
    _ content: TextContent, maxWidth: Double?, directory: String, caches: RenderCaches
  ) throws -> (size: PointSize, truncated: Bool) {
    let font = content.font
    guard font.size.isFinite, font.size > 0, font.size <= Font.maximumSize else {
      throw GlassError(.invalidScene, "the font size is out of range", at: GlassError.Location(jsonPath: "font.size"))
    }
    let face = try font.face(directory: directory, fonts: caches.fonts)
    let hasIcon = content.systemImage != nil
    let side = hasIcon ? font.size * Self.iconScale : 0
    let gap = !hasIcon || content.string.isEmpty ? 0 : font.size * Self.iconSpacing
    guard !content.string.isEmpty else { return (block(side: side, gap: gap, text: nil).size, false) }
    let width = maxWidth.flatMap { $0.isInfinite ? nil : $0 }
    let text = TextLayout.measure(
      content.string, face: face, pixelSize: font.size, weight: font.weight,
      maxWidth: width.map { max(0, $0 - side - gap) }, lineLimit: content.lineLimit
    ) { caches.shapedParagraph($0, face: face, weight: font.weight) }
    let block = block(
      side: side, gap: gap,
      text: (text.width, text.height, face.lineHeight(pixelSize: font.size)))
    return (block.size, text.truncated)
  }

  /// The block's coverage in `box` (points) at `scale` pixels a point, centred
  /// vertically and placed across by `alignment` (nil: centred): the text's glyphs
  /// (`TextRaster.mask`, baselines on whole pixels) and the icon (on whole
  /// pixels), composited "over", the glyphs and icons from `caches`. `rect` is
  /// where the mask lies on the canvas; nil when nothing is drawn.
  func mask(
    in box: PointRect, scale: Double, alignment: TextAlignment? = nil, caches: RenderCaches
  ) -> (
    rect: PixelRect, coverage: [UInt8]
  )? {
    let free = box.width - size.width
    let left: Double
    switch (alignment, readsRightToLeft) {
    case (nil, _), (.center?, _): left = box.x + free / 2
    case (.leading?, false), (.trailing?, true): left = box.x
    case (.trailing?, false), (.leading?, true): left = box.x + free
    }
    let top = box.y + (box.height - size.height) / 2
    var parts: [(rect: PixelRect, coverage: [UInt8])] = []
    if let text,
      let drawn = TextRaster.mask(
        text.scaled(by: scale), origin: SIMD2((left + textOrigin.x) * scale, (top + textOrigin.y) * scale),
        caches: caches)
    {
      parts.append(drawn)
    }
    if let icon {
      let n = Int((iconFrame.width * scale).rounded())
      if n > 0 {
        let x = Int(((left + iconFrame.x) * scale).rounded())
        let y = Int(((top + iconFrame.y) * scale).rounded())
        parts.append((PixelRect(x: x, y: y, width: n, height: n), Self.icon(icon.name, icon.draw, n, caches.icons)))
      }
    }
    guard let first = parts.first else { return nil }
    guard parts.count > 1 else { return first }
    let rect = parts.dropFirst().reduce(first.rect) { $0.union($1.rect) }
    var coverage = [UInt8](repeating: 0, count: rect.pixelCount)
    for part in parts {
      for row in 0..<part.rect.height {
        let target = (part.rect.y - rect.y + row) * rect.width + (part.rect.x - rect.x)
        for column in 0..<part.rect.width {
          let a = Int(coverage[target + column])
          let b = Int(part.coverage[row * part.rect.width + column])
          coverage[target + column] = UInt8(a + (b * (255 - a) + 127) / 255)
        }
      }
    }
    return (rect, coverage)
  }
}

/// An icon in `RenderCaches.icons`: its name and size in pixels.
struct IconKey: Hashable {
  var name: String
  var size: Int
}

extension ContentLayout {
  /// An icon's coverage at `size` pixels, drawn once while `cache` keeps it.
  static func icon(
    _ name: String, _ draw: @Sendable (Int) -> RGBAImage, _ size: Int, _ cache: LRUCache<IconKey, [UInt8]>
  ) -> [UInt8] {
    cache.value(forKey: IconKey(name: name, size: size), bytes: { $0.count + name.utf8.count }) {
      let image = draw(size)
      var coverage = [UInt8](repeating: 0, count: size * size)
      for y in 0..<size {
        for x in 0..<size { coverage[y * size + x] = UInt8(image.pixel16(x: x, y: y).w / 257) }
      }
      return coverage
    }
  }
}

/// What a text's layout depends on: the fields that shape and break it (not its
/// paint), the width it breaks within (nil: none), and the folder its font files
/// are found in.
struct TextLayoutKey: Hashable {
  var string: String
  var systemImage: String?
  var font: Font
  var lineLimit: Int?
  var alignment: TextAlignment
  var maxWidth: Double?
  var directory: String

  init(_ content: TextContent, maxWidth: Double?, directory: String) {
    string = content.string
    systemImage = content.systemImage
    font = content.font
    lineLimit = content.lineLimit
    alignment = content.alignment
    self.maxWidth = maxWidth
    self.directory = directory
  }

  /// The key's own bytes, charged to its entry.
  var bytes: Int { string.utf8.count + directory.utf8.count + (systemImage?.utf8.count ?? 0) }
}
