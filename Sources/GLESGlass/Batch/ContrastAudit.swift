import Foundation

/// One text or icon of a scene and the contrast it has with what is rendered
/// behind it (`ContrastAudit`).
public struct ContrastFinding: Sendable, Hashable {
  /// What the audit could measure of a text.
  public enum Visibility: Sendable, Hashable {
    /// Its glyphs cover pixels of the canvas: `ratio` is their contrast.
    case measured
    /// Its glyphs lie wholly beyond the canvas's edges.
    case offCanvas
    /// It draws no glyph at all: an empty or blank text, an opacity of 0 or a
    /// clear colour.
    case drawsNothing
  }

  /// The text ("" for an icon alone) and its icon's name, if any.
  public var text: String
  /// The icon's name, if any.
  public var systemImage: String?
  /// Where it is written: the text's own JSON path (`body.children[0]`,
  /// `body.children[2].label`), or the layer's (`layers[2]`,
  /// `layers[2].content`, `layers[3].glass[1].content`).
  public var path: String
  /// The frame it is drawn in, in points.
  public var frame: PointRect
  /// The WCAG 2 contrast ratio of its ink with the pixels behind it (1 … 21; 1
  /// when nothing was measured).
  public var ratio: Double
  /// The ratio it needs: 4.5 for body text, 3 for large text (WCAG's 24 and
  /// bold 18.66 CSS pixels, taken as points) and for an icon alone.
  public var required: Double
  /// Whether its ink was measured, lies off the canvas, or does not exist.
  public var visibility = Visibility.measured
  /// The view or layer drawn after it whose frame holds its ink, when it fails:
  /// what may hide it (nil: none).
  public var coveredBy: String?
  /// False when its glyphs lie wholly off the canvas: there is nothing to
  /// measure, and it passes.
  public var isOnCanvas: Bool { visibility != .offCanvas }
  /// Whether it meets `required` (or has no ink on the canvas to measure).
  public var passes: Bool { visibility != .measured || ratio >= required }
}

/// WCAG 2 contrast of every text and icon of a scene with the pixels actually
/// rendered behind it (glass, a material or the backdrop), as the scene is laid
/// out in its environment.
///
/// The scene is rendered twice: as it is, and with its text and icons taken out
/// (every frame stays where layout put it). Each text's ink is where its glyphs
/// are: its coverage mask as laid out and drawn (`ContentLayout.mask`, the
/// same layout and box the renderer draws), clipped to the canvas, less the
/// pixels a text drawn after it also covers. Of those, the pixels its glyphs
/// cover most (the mask's highest coverage: whole glyph pixels, not the
/// anti-aliased edges; those within a quarter of it when the highest are
/// fewer than a tenth) are measured: the ink in the first render, the backdrop
/// at the same pixels in the second, each averaged in linear light. The ratio is
/// (L1 + 0.05) / (L2 + 0.05) of their relative luminances, L1 the lighter. A
/// text whose glyphs all lie beyond the canvas is off the canvas; one with no
/// glyph (blank, opacity 0, a clear colour) draws nothing: both pass, and are
/// reported as such. A text hidden by what is drawn after it measures 1:1 and
/// fails, naming what covers it.
public enum ContrastAudit {
  /// WCAG 2's ratio for body text.
  public static let bodyRatio = 4.5
  /// WCAG 2's ratio for large text and for graphics such as icons.
  public static let largeRatio = 3.0

  /// One text to audit, in drawing order.
  struct Item {
    var content: TextContent
    /// The layer's frame (the finding's), and the box the text is drawn in.
    var frame: PointRect
    var box: PointRect
    /// Placed across by its own alignment (a text layer), else centred.
    var alignedByText: Bool
    var opacity: Double
    var layerIndex: Int
    var path: String
  }

  /// Audits `scene` (its images in `images`) on `renderer`.
  public static func audit(_ scene: Scene, images: SceneImages, renderer: Renderer) throws -> [ContrastFinding] {
    let (laid, bodySources, _) = try scene.laidOutWithSources(images: images, caches: renderer.caches)
    let bodyStart = laid.layers.count - bodySources.count
    /// Where layer `index` (and, in a container, its glass `glass`) was written.
    func source(_ index: Int, glass: Int? = nil) -> ViewLayout.LayerSource {
      guard index >= bodyStart else {
        let at = "layers[\(index)]" + (glass.map { ".glass[\($0)]" } ?? "")
        return ViewLayout.LayerSource(path: at, contentPath: at + ".content")
      }
      let made = bodySources[index - bodyStart]
      guard let glass else { return made }
      return made.glass.indices.contains(glass) ? made.glass[glass] : made
    }
    var items: [Item] = []
    /// Takes text content out of a layer, noting it (image content stays).
    func take(_ content: inout GlassContent?, frame: PointRect, layer index: Int, glass: Int? = nil) {
      guard let c = content, let text = c.text else { return }
      let from = source(index, glass: glass)
      items.append(
        Item(
          content: text, frame: frame, box: frame.insetBy(c.padding), alignedByText: false, opacity: c.opacity,
          layerIndex: index, path: from.contentPath ?? from.path))
      content = nil
    }
    var kept: [Layer] = []
    for (index, layer) in laid.layers.enumerated() {
      switch layer {
      case .text(let t):
        items.append(
          Item(
            content: t.text, frame: t.frame, box: t.frame, alignedByText: true, opacity: t.opacity, layerIndex: index,
            path: source(index).path))
      case .glass(var l):
        take(&l.content, frame: l.frame, layer: index)
        kept.append(.glass(l))
      case .material(var l):
        take(&l.content, frame: l.frame, layer: index)
        kept.append(.material(l))
      case .shape(var l):
        take(&l.content, frame: l.frame, layer: index)
        kept.append(.shape(l))
      case .container(var c):
        for i in c.glass.indices { take(&c.glass[i].content, frame: c.glass[i].frame, layer: index, glass: i) }
        kept.append(.container(c))
      case .image: kept.append(layer)
      }
    }
    var without = laid
    without.layers = kept
    var timings = RenderTimings()
    let with = try renderer.render(laid, images: images, timings: &timings)
    let bare = try renderer.render(without, images: images, timings: &timings)
    let scale = Double(laid.scale)
    let canvas = PixelRect(x: 0, y: 0, width: with.width, height: with.height)
    let masks = try items.map { item -> (rect: PixelRect, coverage: [UInt8])? in
      guard item.opacity > 0, !(item.content.foregroundStyle.map(isClear) ?? false) else { return nil }
      return try mask(item, scale: scale, directory: images.directory, caches: renderer.caches)
    }
    return items.indices.map { index in
      let item = items[index]
      let font = item.content.font
      let large = font.size >= 24 || (font.size >= 18.66 && font.weight.value >= FontWeight.bold.value)
      let iconAlone = item.content.string.isEmpty
      var finding = ContrastFinding(
        text: item.content.string, systemImage: item.content.systemImage, path: item.path, frame: item.frame,
        ratio: 1, required: large || iconAlone ? largeRatio : bodyRatio)
      guard let drawn = masks[index] else {
        finding.visibility = .drawsNothing
        return finding
      }
      let ink = inkPixels(drawn, on: canvas, under: masks[(index + 1)...])
      guard !ink.isEmpty else {
        finding.visibility = .offCanvas
        return finding
      }
      finding.ratio = ratio(with, bare, at: ink)
      if !finding.passes {
        // What is drawn after it over its ink's centre, topmost first.
        let cx = Double(ink.reduce(0) { $0 + $1.x }) / Double(ink.count) / scale
        let cy = Double(ink.reduce(0) { $0 + $1.y }) / Double(ink.count) / scale
        let over = laid.layers.indices.last { j in
          guard j > item.layerIndex, let f = frame(of: laid.layers[j]) else { return false }
          return f.x <= cx && cx <= f.maxX && f.y <= cy && cy <= f.maxY
        }
        finding.coveredBy = over.map { source($0).path }
      }
      return finding
    }
  }

  /// Whether a fill has no colour that shows.
  static func isClear(_ fill: Fill) -> Bool {
    switch fill {
    case .color(let c): c.opacity == 0
    case .linearGradient(let g, _, _), .radialGradient(let g, _, _, _): g.stops.allSatisfy { $0.color.opacity == 0 }
    }
  }

  /// A layer's frame (a container's: around its glass; nil without glass).
  static func frame(of layer: Layer) -> PointRect? {
    switch layer {
    case .image(let l): return l.frame
    case .shape(let l): return l.frame
    case .material(let l): return l.frame
    case .glass(let l): return l.frame
    case .text(let l): return l.frame
    case .container(let c):
      guard let first = c.glass.first?.frame else { return nil }
      return c.glass.dropFirst().reduce(first) { $0.union($1.frame) }
    }
  }

  /// The text's coverage on the canvas as the renderer draws it
  /// (`SceneLowering.lowerContent`: the same layout, from the same caches, in the
  /// same box and alignment); nil when it has no glyph.
  static func mask(
    _ item: Item, scale: Double, directory: String, caches: RenderCaches
  ) throws -> (rect: PixelRect, coverage: [UInt8])? {
    let text = item.content
    let layout: ContentLayout
    do {
      layout = try caches.contentLayout(text, maxWidth: text.lineBreakWidth ?? item.box.width, directory: directory)
    } catch let error as GlassError {
      throw error.located(GlassError.Location(jsonPath: item.path))
    }
    guard
      let drawn = layout.mask(
        in: item.box, scale: scale, alignment: item.alignedByText ? text.alignment : nil, caches: caches),
      drawn.coverage.contains(where: { $0 > 0 })
    else { return nil }
    return drawn
  }

  /// The canvas pixels `mask` inks whole, less those a mask drawn after it
  /// (`later`) covers at all: of the pixels on `canvas` it covers, those at its
  /// highest coverage there, or within a quarter of it when those are fewer
  /// than a tenth. Empty when it covers no pixel of the canvas.
  static func inkPixels(
    _ mask: (rect: PixelRect, coverage: [UInt8]), on canvas: PixelRect,
    under later: ArraySlice<(rect: PixelRect, coverage: [UInt8])?>
  ) -> [(x: Int, y: Int)] {
    let visible = mask.rect.intersection(canvas)
    guard !visible.isEmpty else { return [] }
    let hiding = later.compactMap { $0 }.filter { !$0.rect.intersection(visible).isEmpty }
    func hidden(_ x: Int, _ y: Int) -> Bool {
      hiding.contains { m in
        x >= m.rect.x && x < m.rect.maxX && y >= m.rect.y && y < m.rect.maxY
          && m.coverage[(y - m.rect.y) * m.rect.width + (x - m.rect.x)] > 0
      }
    }
    var covered: [(x: Int, y: Int, coverage: UInt8)] = []
    for y in visible.y..<visible.maxY {
      for x in visible.x..<visible.maxX {
        let c = mask.coverage[(y - mask.rect.y) * mask.rect.width + (x - mask.rect.x)]
        if c > 0 && !hidden(x, y) { covered.append((x, y, c)) }
      }
    }
    guard let top = covered.map(\.coverage).max() else { return [] }
    let whole = covered.filter { $0.coverage == top }
    let chosen =
      whole.count * 10 >= covered.count ? whole : covered.filter { Int($0.coverage) * 4 >= Int(top) * 3 }
    return chosen.map { ($0.x, $0.y) }
  }

  /// The contrast of the ink in `with` against `bare` at `pixels`, each averaged
  /// in linear light.
  static func ratio(_ with: RGBAImage, _ bare: RGBAImage, at pixels: [(x: Int, y: Int)]) -> Double {
    func luminance(_ image: RGBAImage) -> Double {
      var sum = SIMD3<Double>(0, 0, 0)
      for p in pixels {
        let c = SIMD4<Double>(image.pixel16(x: p.x, y: p.y)) / 65535
        sum += SIMD3(SRGB.decode(c.x), SRGB.decode(c.y), SRGB.decode(c.z))
      }
      let mean = sum / Double(pixels.count)
      return 0.2126 * mean.x + 0.7152 * mean.y + 0.0722 * mean.z
    }
    let ink = luminance(with)
    let back = luminance(bare)
    return (max(ink, back) + 0.05) / (min(ink, back) + 0.05)
  }
}
