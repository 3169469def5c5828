import Foundation

/// What the automatic content colour is: Apple's glass shows its content light
/// over a dark backdrop and dark over a light one, and so does content here when
/// it has no `foregroundStyle`.
///
/// The backdrop's linear luminance is estimated on the CPU from the scene itself,
/// the same on both backends: at 15 points of the content's box (5 across, 3
/// down) the background, then every layer under the content's layer (shapes and
/// images by their pixels, an image's extension by the image mirrored at its
/// edge by the extension's mirror rule, materials by their tint and its
/// strength, glass by its body as both backends shade it, `GlassOptics.shade`,
/// in the look decided for it), then the layer's own glass body, material tint
/// or shape fill, composited in linear light over white. Over
/// `threshold` (0.179, where black and white text have the same WCAG contrast)
/// the content is `dark`, under it `light`.
public enum ContentStyle {
  /// Content on a light backdrop: black.
  public static let dark = Color.black
  /// Content on a dark backdrop: white.
  public static let light = Color.white
  /// The linear luminance at which the automatic colour turns from light to dark.
  public static let threshold = 0.179

  /// The automatic colour over a backdrop of linear luminance `luminance`.
  public static func automatic(overLuminance luminance: Double) -> Color {
    luminance > threshold ? dark : light
  }
}

extension Fill {
  /// The fill with every colour's opacity multiplied by `opacity`.
  func opacity(_ opacity: Double) -> Fill {
    switch self {
    case .color(let c): .color(c.opacity(opacity))
    case .linearGradient(let g, let s, let e):
      .linearGradient(
        Gradient(stops: g.stops.map { .init(color: $0.color.opacity(opacity), location: $0.location) }), startPoint: s,
        endPoint: e)
    case .radialGradient(let g, let c, let r0, let r1):
      .radialGradient(
        Gradient(stops: g.stops.map { .init(color: $0.color.opacity(opacity), location: $0.location) }), center: c,
        startRadius: r0, endRadius: r1)
    }
  }

  /// The linear luminance of the fill's colours, averaged over its stops.
  var linearLuminance: Double {
    let colors: [Color]
    switch self {
    case .color(let c): colors = [c]
    case .linearGradient(let g, _, _), .radialGradient(let g, _, _, _): colors = g.stops.map(\.color)
    }
    let sum = colors.reduce(0.0) { sum, c in
      sum + 0.2126 * SRGB.decode(c.red) + 0.7152 * SRGB.decode(c.green) + 0.0722 * SRGB.decode(c.blue)
    }
    return colors.isEmpty ? 0 : sum / Double(colors.count)
  }
}

extension SceneLowering {
  /// What lies directly under a layer's content: its own glass tint, material or
  /// shape fill, composited over what is under the layer.
  enum ContentGround {
    case glass(Glass, GlassOptics)
    case material(Material)
    case shape(ShapeGeometry, Paint)
    case none
  }

  /// Draws `content` in `frame` (points), over everything drawn so far: an image
  /// fitted and centred, or text (centred, or placed across by its alignment when
  /// `alignedByText`, as a text layer is) as a coverage mask times its paint (the glyphs'
  /// coverage computed on the CPU, corrected for the paint's luminance, and
  /// composited by a masked fill on either backend). `layerIndex` is the index of
  /// the layer it belongs to (the backdrop under it decides the automatic colour);
  /// `at` is the content's JSON path, for errors.
  func lowerContent(
    _ content: GlassContent, in frame: PointRect, alignedByText: Bool = false, layerIndex: Int,
    ground: ContentGround, at: String, name: String, canvas: ImageHandle, into graph: inout RenderGraph
  ) throws {
    guard content.opacity > 0 else { return }
    let box = frame.insetBy(content.padding)
    switch content.kind {
    case .image(let path):
      let pixels = pixelFrame(box)
      guard !pixels.isEmpty else { return }
      let rect = pixels.intersection(canvasRect)
      guard !rect.isEmpty else { return }
      let window = rect.offsetBy(-pixels.x, -pixels.y)
      let source = try importFitted(path, frame: pixels.size, mode: .fit, window: window, into: &graph)
      graph.addPass(
        name,
        .drawImage(
          DrawImage(
            origin: PixelPoint(x: rect.x, y: rect.y), clip: Shape.rect.geometry(in: pointFrame(pixels), scale: scale),
            opacity: Float(min(max(content.opacity, 0), 1)))), inputs: [source],
        output: canvas, rect: rect, blend: true)
    case .text(let text):
      let fill = try text.foregroundStyle ?? .color(automaticColor(under: layerIndex, in: box, ground: ground))
      let key = TextMaskKey(
        text: text, box: box, scale: scale, alignment: alignedByText ? text.alignment : nil,
        directory: images.directory, luminance: fill.linearLuminance)
      let keyBytes = text.string.utf8.count + images.directory.utf8.count
      let drawn = try caches.textMasks.value(
        forKey: key, bytes: { ($0.map { $0.rect.pixelCount * 4 } ?? 0) + keyBytes }
      ) {
        let layout: ContentLayout
        do {
          // Text that layout measured is drawn as it was measured: the same layout,
          // from the caches. Other text wraps within its box.
          layout = try caches.contentLayout(
            text, maxWidth: text.lineBreakWidth ?? box.width, directory: images.directory)
        } catch let error as GlassError {
          throw error.located(GlassError.Location(jsonPath: at))
        }
        return layout.mask(in: box, scale: scale, alignment: key.alignment, caches: caches).map { rect, coverage in
          let corrected = TextRaster.corrected(coverage, luminance: key.luminance)
          return (
            rect,
            RGBAImage(width: rect.width, height: rect.height) { x, y in
              SIMD4(255, 255, 255, corrected[y * rect.width + x])
            }
          )
        }
      }
      guard let (rect, mask) = drawn else { return }
      let visible = rect.intersection(canvasRect)
      guard !visible.isEmpty else { return }
      let source = graph.importSource(
        mask, as: .linearHalf, rects: [visible.offsetBy(-rect.x, -rect.y)], name: "\(name) mask")
      graph.addPass(
        name,
        .fill(
          FillShape(
            shape: Shape.rect.geometry(in: pointFrame(rect), scale: scale),
            paint: paint(fill.opacity(min(max(content.opacity, 0), 1)), in: box), mask: PixelPoint(x: rect.x, y: rect.y)
          )),
        inputs: [source], output: canvas, rect: visible, blend: true)
    }
  }

  /// The automatic colour of content in `box` (points) on layer `layerIndex`
  /// over `ground`: by the estimated luminance behind it (`ContentStyle`); with
  /// `adaptiveGlass` off, content on glass and materials takes the colour
  /// scheme's label colour instead (black in light, white in dark), as nothing
  /// there adapts to the backdrop.
  func automaticColor(under layerIndex: Int, in box: PointRect, ground: ContentGround) throws -> Color {
    switch ground {
    case .glass, .material:
      if !scene.environment.adaptiveGlass {
        return scene.environment.colorScheme == .dark ? ContentStyle.light : ContentStyle.dark
      }
    case .shape, .none:
      break
    }
    return ContentStyle.automatic(overLuminance: try backdropLuminance(under: layerIndex, in: box, ground: ground))
  }

  /// The linear luminance behind content in `box` (points) on layer `layerIndex`:
  /// see `ContentStyle`.
  func backdropLuminance(under layerIndex: Int, in box: PointRect, ground: ContentGround) throws -> Double {
    func over(_ top: SIMD4<Float>, _ bottom: SIMD4<Float>) -> SIMD4<Float> { top + bottom * (1 - top.w) }
    func tint(_ color: Color, _ strength: Double, _ coverage: Float) -> SIMD4<Float> {
      color.opacity(strength).premultipliedLinear * coverage
    }
    func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> SIMD4<Float> {
      guard x >= 0, y >= 0, x < image.width, y < image.height else { return .zero }
      let p = image.pixel16(x: x, y: y)
      let a = Float(p.w) / 65535
      return SIMD4(
        Float(SRGB.decode(Double(p.x) / 65535)) * a, Float(SRGB.decode(Double(p.y) / 65535)) * a,
        Float(SRGB.decode(Double(p.z) / 65535)) * a, a)
    }
    let whole = PointRect(x: 0, y: 0, width: scene.size.width, height: scene.size.height)
    var background: RGBAImage?
    if case .image(let path, let mode) = scene.background {
      background = try images.fitted(path, to: scene.pixelSize, mode: mode, window: canvasRect).image
    }
    // 5 × 3 points of the box; each layer below is set up once (its shape, image,
    // look and optics) and composited at every point, bottom to top, so a scene
    // of n overlapping layers costs n set-ups per estimate, not 15 n.
    let columns = 5
    let rows = 3
    var points: [(p: SIMD2<Float>, ix: Int, iy: Int)] = []
    points.reserveCapacity(columns * rows)
    for j in 0..<rows {
      for i in 0..<columns {
        let px = (box.x + box.width * (Double(i) + 0.5) / Double(columns)) * scale
        let py = (box.y + box.height * (Double(j) + 0.5) / Double(rows)) * scale
        points.append((SIMD2(Float(px), Float(py)), Int(px.rounded(.down)), Int(py.rounded(.down))))
      }
    }
    var colors: [SIMD4<Float>] = points.map { point in
      switch scene.background {
      case .fill(let f): paint(f, in: whole).color(point.p)
      case .image: background.map { pixel($0, point.ix, point.iy) } ?? .zero
      }
    }
    let samples = points.map(\.p)
    for (index, layer) in scene.layers.prefix(layerIndex).enumerated() {
      switch layer {
      case .shape(let l):
        let shape = l.shape.geometry(in: l.frame, scale: scale, container: l.containerShape)
        let fill = paint(l.fill, in: l.frame)
        for k in points.indices {
          let p = points[k].p
          colors[k] = over(fill.color(p) * shape.coverage(p.x, p.y), colors[k])
        }
      case .image(let l):
        guard let window = imageWindow(l) else { break }
        let frame = pixelFrame(l.frame)
        let clip = l.clipShape.geometry(in: pointFrame(frame), scale: scale)
        let image = try fitted(l, window: window).image
        let effect = l.backgroundExtension.map { extensionEffect($0) }
        for k in points.indices {
          let (p, ix, iy) = points[k]
          var x = ix - frame.x
          var y = iy - frame.y
          var coverage = clip.coverage(p.x, p.y)
          if let effect {
            // In the extension's insets: the image mirrored at its edge (unblurred).
            let insets = effect.parameters
            if x >= -insets.leadingPixels && x < frame.width + insets.trailingPixels && y >= -insets.topPixels
              && y < frame.height + insets.bottomPixels && !(x >= 0 && y >= 0 && x < frame.width && y < frame.height)
            {
              // The extension's own mapping, which repeats the mirrored image
              // where an inset is wider than it.
              let mirror = MirrorCanvas(
                canvasSize: effect.canvasSize(for: frame.size),
                imageOrigin: PixelPoint(x: insets.leadingPixels, y: insets.topPixels), imageSize: frame.size)
              x = mirror.imageColumn(x + insets.leadingPixels)
              y = mirror.imageRow(y + insets.topPixels)
              coverage = 1
            }
          }
          colors[k] = over(pixel(image, x - window.x, y - window.y) * coverage, colors[k])
        }
      case .material(let l):
        let shape = l.shape.geometry(in: l.frame, scale: scale, container: l.containerShape)
        let style = MaterialStyle.of(l.material, in: scene.environment)
        for k in points.indices {
          let p = points[k].p
          colors[k] = over(tint(style.tint, style.opacity, shape.coverage(p.x, p.y)), colors[k])
        }
      case .glass(let l):
        let optics = try backdropOptics(at: index)
        glassFace(l, nil, optics: optics[0], at: samples, over: &colors)
      case .container(let container):
        let optics = try backdropOptics(at: index)
        for (g, o) in zip(container.unitedGlass, optics) {
          glassFace(g, container.containerShape, optics: o, at: samples, over: &colors)
        }
      case .text:
        break
      }
    }
    var sum = 0.0
    for k in points.indices {
      let p = points[k].p
      var c = colors[k]
      switch ground {
      case .glass(let glass, let optics):
        if glass.variant != .identity { c = optics.shade(c, glass: glass) }
      case .material(let material):
        let style = MaterialStyle.of(material, in: scene.environment)
        c = over(tint(style.tint, style.opacity, 1), c)
      case .shape(let shape, let paint):
        c = over(paint.color(p) * shape.coverage(p.x, p.y), c)
      case .none:
        break
      }
      // Over white, as a viewer shows a transparent canvas.
      let r = Double(c.x + (1 - c.w))
      let g = Double(c.y + (1 - c.w))
      let b = Double(c.z + (1 - c.w))
      sum += 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    return sum / Double(columns * rows)
  }

  /// A glass layer's body (`optics`, in its look) over `colors` at `points`
  /// (`GlassOptics.shade`), by its coverage at each.
  private func glassFace(
    _ layer: GlassLayer, _ container: ContainerShape?, optics: GlassOptics, at points: [SIMD2<Float>],
    over colors: inout [SIMD4<Float>]
  ) {
    guard layer.glass.variant != .identity else { return }
    let shape = layer.shape.geometry(in: layer.frame, scale: scale, container: layer.containerShape ?? container)
    for (k, p) in points.enumerated() {
      let coverage = shape.coverage(p.x, p.y)
      guard coverage > 0 else { continue }
      let c = colors[k]
      colors[k] = c + (optics.shade(c, glass: layer.glass) - c) * coverage
    }
  }
}

/// A text mask as a render made it (coverage corrected for the paint, white with
/// the coverage as alpha) and where it lies on the canvas; nil when nothing is drawn.
typealias TextMask = (rect: PixelRect, mask: RGBAImage)

/// Everything that decides a text mask, its key in `RenderCaches.textMasks`: a
/// scene rendered again, a batch of similar scenes or the frames of an animation
/// lay out and rasterise each text once while the cache keeps it.
struct TextMaskKey: Hashable {
  var text: TextContent
  var box: PointRect
  var scale: Double
  var alignment: TextAlignment?
  var directory: String
  var luminance: Double
}
