import Foundation

/// One text or icon of a scene and the contrast it has with what is rendered
/// behind it (`ContrastAudit`).
public struct ContrastFinding: Sendable, Hashable {
  /// The text ("" for an icon alone) and its icon's name, if any.
  public var text: String
  /// The icon's name, if any.
  public var systemImage: String?
  /// Where it is written: the view's JSON path (`body.children[0]`), or the
  /// layer's (`layers[2]`, `layers[2].content`).
  public var path: String
  /// The frame it is drawn in, in points.
  public var frame: PointRect
  /// The WCAG 2 contrast ratio of its ink with the pixels behind it (1 … 21).
  public var ratio: Double
  /// The ratio it needs: 4.5 for body text, 3 for large text (WCAG's 24 and
  /// bold 18.66 CSS pixels, taken as points) and for an icon alone.
  public var required: Double
  /// False when it is off the canvas: its frame lies wholly off it, or its
  /// frame crosses the canvas's edge and it drew nothing. There is nothing to
  /// measure (its `ratio` is 1) and it passes.
  public var isOnCanvas = true
  /// Whether it meets `required` (or is off the canvas).
  public var passes: Bool { !isOnCanvas || ratio >= required }
}

/// WCAG 2 contrast of every text and icon of a scene with the pixels actually
/// rendered behind it (glass, a material or the backdrop), as the scene is laid
/// out in its environment.
///
/// The scene is rendered twice: as it is, and with its text and icons taken out
/// (every frame stays where layout put it). In each text's box, the pixels the
/// text changed by more than 2/255 are its ink; the most changed tenth of them
/// give the ink's colour, and the pixels of that colour (within 3/255: the
/// glyphs' whole pixels, not their anti-aliased edges) are measured: the ink in
/// the first render, the backdrop at the same pixels in the second, each
/// averaged in linear light. The ratio is (L1 + 0.05) / (L2 + 0.05) of their
/// relative luminances, L1 the lighter. A text that changes no pixel by more
/// than 2/255 has ratio 1: it cannot be seen, and fails, unless its frame
/// crosses the canvas's edge (its ink lies beyond it). Such a text, and one
/// whose frame lies wholly off the canvas, is reported as off the canvas and
/// passes.
/// Texts are assumed not to overlap one another.
public enum ContrastAudit {
  /// WCAG 2's ratio for body text.
  public static let bodyRatio = 4.5
  /// WCAG 2's ratio for large text and for graphics such as icons.
  public static let largeRatio = 3.0

  /// Audits `scene` (its images in `images`) on `renderer`.
  public static func audit(_ scene: Scene, images: SceneImages, renderer: Renderer) throws -> [ContrastFinding] {
    let laid = try scene.laidOut(images: images, caches: renderer.caches)
    let views = try scene.resolvedViews(images: images, caches: renderer.caches)
    var without = laid
    var items: [(content: TextContent, frame: PointRect, path: String)] = []
    let bodyStart = scene.layers.count
    func path(of index: Int, frame: PointRect, content: Bool) -> String {
      if index >= bodyStart {
        // A view's layer: the innermost view whose frame holds the text's centre.
        let hit = views.last { v in
          v.frame.x <= frame.midX && frame.midX <= v.frame.maxX && v.frame.y <= frame.midY
            && frame.midY <= v.frame.maxY
        }
        return hit?.path ?? "body"
      }
      return "layers[\(index)]" + (content ? ".content" : "")
    }
    /// Takes text content out of a layer, noting it (image content stays).
    func take(_ content: inout GlassContent?, frame: PointRect, layer index: Int) {
      guard let text = content?.text else { return }
      items.append((text, frame, path(of: index, frame: frame, content: true)))
      content = nil
    }
    var kept: [Layer] = []
    for (index, layer) in laid.layers.enumerated() {
      switch layer {
      case .text(let t):
        items.append((t.text, t.frame, path(of: index, frame: t.frame, content: false)))
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
        for i in c.glass.indices { take(&c.glass[i].content, frame: c.glass[i].frame, layer: index) }
        kept.append(.container(c))
      case .image: kept.append(layer)
      }
    }
    without.layers = kept
    var timings = RenderTimings()
    let with = try renderer.render(laid, images: images, timings: &timings)
    let bare = try renderer.render(without, images: images, timings: &timings)
    let scale = Double(laid.scale)
    return items.map { item in
      let measured = Self.ratio(with, bare, in: item.frame, scale: scale)
      let ratio = measured ?? 1
      let font = item.content.font
      let large = font.size >= 24 || (font.size >= 18.66 && font.weight.value >= FontWeight.bold.value)
      let iconAlone = item.content.string.isEmpty
      let f = item.frame
      let w = laid.size.width
      let h = laid.size.height
      // Off the canvas: its frame wholly, or its ink, when it drew nothing and
      // its frame crosses the canvas's edge.
      let whollyOff = !(f.maxX > 0 && f.maxY > 0 && f.x < w && f.y < h)
      let crossesEdge = f.x < 0 || f.y < 0 || f.maxX > w || f.maxY > h
      let onCanvas = !whollyOff && !(measured == nil && crossesEdge)
      return ContrastFinding(
        text: item.content.string, systemImage: item.content.systemImage, path: item.path, frame: item.frame,
        ratio: ratio, required: large || iconAlone ? largeRatio : bodyRatio, isOnCanvas: onCanvas)
    }
  }

  /// The contrast of what `with` adds to `bare` in `frame` (points at `scale`);
  /// nil when it changes no pixel there by more than 2/255.
  static func ratio(_ with: RGBAImage, _ bare: RGBAImage, in frame: PointRect, scale: Double) -> Double? {
    let x0 = max(0, Int((frame.x * scale).rounded(.down)))
    let y0 = max(0, Int((frame.y * scale).rounded(.down)))
    let x1 = min(with.width, Int((frame.maxX * scale).rounded(.up)))
    let y1 = min(with.height, Int((frame.maxY * scale).rounded(.up)))
    var changed: [(difference: Double, ink: SIMD4<Double>, back: SIMD4<Double>)] = []
    if x0 < x1 && y0 < y1 {
      for y in y0..<y1 {
        for x in x0..<x1 {
          let a = SIMD4<Double>(with.pixel16(x: x, y: y)) / 65535
          let b = SIMD4<Double>(bare.pixel16(x: x, y: y)) / 65535
          let d = max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
          if d > 2.0 / 255 { changed.append((d, a, b)) }
        }
      }
    }
    guard !changed.isEmpty else { return nil }
    changed.sort { $0.difference > $1.difference }
    // The ink's colour: the mean of the most changed tenth (whole glyph pixels).
    let top = changed.prefix(max(1, changed.count / 10))
    let inkColor = top.reduce(SIMD4<Double>(0, 0, 0, 0)) { $0 + $1.ink } / Double(top.count)
    // The pixels the ink covers whole: those of the ink's colour, within 3/255.
    let whole = changed.filter { p in
      let d = p.ink - inkColor
      return max(Swift.abs(d.x), Swift.abs(d.y), Swift.abs(d.z)) <= 3.0 / 255
    }
    let pixels = whole.isEmpty ? Array(top) : whole
    func luminance(_ pick: (SIMD4<Double>, SIMD4<Double>) -> SIMD4<Double>) -> Double {
      var sum = SIMD3<Double>(0, 0, 0)
      for p in pixels {
        let c = pick(p.ink, p.back)
        sum += SIMD3(SRGB.decode(c.x), SRGB.decode(c.y), SRGB.decode(c.z))
      }
      let mean = sum / Double(pixels.count)
      return 0.2126 * mean.x + 0.7152 * mean.y + 0.0722 * mean.z
    }
    let ink = luminance { a, _ in a }
    let back = luminance { _, b in b }
    return (max(ink, back) + 0.05) / (min(ink, back) + 0.05)
  }
}
