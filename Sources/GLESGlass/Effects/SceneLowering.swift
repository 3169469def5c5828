import Foundation

/// Lowers a validated scene into a render graph. Layers composite in z-order over
/// a premultiplied linear canvas (binary16), each pass bounded to the pixels its
/// layer can touch; one last pass encodes the canvas to sRGB.
///
///     background  fill / drawImage                 whole canvas, replaces
///     image       [extension strips] + drawImage   its frame (+ insets), over
///     shape       fill                             its bounds, over
///     material    copy -> blur -> glass            its bounds, over
///     glass       copy -> blur -> glass [+ image]  bounds + shadow, over
///     container   one copy and blur for all its glass; glass never samples glass
///     encode      canvas -> sRGB output
struct SceneLowering {
  let scene: Scene
  /// The scene's images, and the copies fitted to their frames (made once each).
  let images: SceneImages
  let depth: RGBAImage.Depth
  /// Fonts, glyphs, text masks and icons, kept for later renders.
  let caches: RenderCaches
  /// The look of each glass layer and container, by layer index, decided once.
  let looks = LookMemo()

  /// The looks decided so far (`glassLook(at:)`), and the optics of each glass
  /// layer's or container's glass in its look (`backdropOptics(at:)`), by layer index.
  final class LookMemo {
    var values: [Int: GlassLook] = [:]
    var optics: [Int: [GlassOptics]] = [:]
  }

  var scale: Double { Double(scene.scale) }
  var canvasRect: PixelRect { PixelRect(size: scene.pixelSize) }

  /// The graph.
  ///
  /// The canvas is binary16 whatever the output depth. An sRGB8 canvas
  /// (`SRGB8_ALPHA8`, which blends in linear light) was measured: it is cheaper on
  /// llvmpipe, but llvmpipe's approximate sRGB encode and its half-precision
  /// filtering put up to 4/255 and 3 % of pixels over 1/255 between the backends,
  /// against 1/255 and none with binary16.
  func lower() throws -> RenderGraph {
    var graph = RenderGraph()
    let size = scene.pixelSize
    let canvas = graph.makeTransient("canvas", size: size, format: .linearHalf)
    let whole = PointRect(x: 0, y: 0, width: scene.size.width, height: scene.size.height)
    // The canvas is whole pixels (the size in points times the scale, rounded).
    let rectShape = Shape.rect.geometry(in: pointFrame(canvasRect), scale: scale)
    for rect in try backgroundRects() {
      switch scene.background {
      case .fill(let fill):
        graph.addPass(
          "background", .fill(FillShape(shape: rectShape, paint: paint(fill, in: whole))), inputs: [],
          output: canvas, rect: rect)
      case .image(let path, let mode):
        let source = try importFitted(path, frame: size, mode: mode, window: canvasRect, rect: rect, into: &graph)
        graph.addPass(
          "background", .drawImage(DrawImage(origin: PixelPoint(x: 0, y: 0), clip: rectShape)), inputs: [source],
          output: canvas, rect: rect)
      }
    }
    for (index, layer) in scene.layers.enumerated() {
      let name = "layer \(index)"
      switch layer {
      case .image(let layer): try lowerImage(layer, name: name, canvas: canvas, into: &graph)
      case .shape(let layer): try lowerShape(layer, index: index, name: name, canvas: canvas, into: &graph)
      case .material(let layer):
        try lowerGlass(
          [.material(layer)], name: name, layerIndex: index, contentPaths: ["layers[\(index)].content"],
          container: nil, canvas: canvas, into: &graph)
      case .glass(let layer):
        try lowerGlass(
          [.glass(layer)], name: name, layerIndex: index, contentPaths: ["layers[\(index)].content"],
          container: nil, canvas: canvas, into: &graph)
      case .container(let container):
        let united = container.unitedGlass
        // A union's members keep their content in order after the bodies; their
        // paths are named by the glass they came from where the count allows.
        let paths = united.indices.map { j in
          united.count == container.glass.count ? "layers[\(index)].glass[\(j)].content" : "layers[\(index)]"
        }
        try lowerGlass(
          united.map { .glass($0) }, name: name, layerIndex: index, contentPaths: paths,
          container: container.containerShape, spacing: container.spacing, at: "layers[\(index)]", canvas: canvas,
          into: &graph)
      case .text(let layer):
        try lowerContent(
          GlassContent(layer.text, padding: 0, opacity: layer.opacity), in: layer.frame, alignedByText: true,
          layerIndex: index,
          ground: .none, at: "layers[\(index)]", name: "\(name) text", canvas: canvas, into: &graph)
      }
    }
    let output = graph.makeOutput(size: size, format: .encoded(depth))
    graph.addPass(
      "encode", .copy(Copy(offset: PixelPoint(x: 0, y: 0))), inputs: [canvas], output: output, rect: canvasRect)
    return graph
  }

  /// Throws `imageTooLarge`, naming the layer, when an image must be fitted to more
  /// pixels than `maxPixels` (an extended image's whole frame; otherwise only the
  /// part of the frame on the canvas is made).
  func checkImageSizes(maxPixels: Int) throws {
    for (index, layer) in scene.layers.enumerated() {
      guard case .image(let l) = layer, l.backgroundExtension != nil else { continue }
      let frame = pixelFrame(l.frame)
      let (pixels, overflow) = frame.width.multipliedReportingOverflow(by: frame.height)
      guard overflow || pixels > maxPixels else { continue }
      let raisable = !overflow && pixels <= PNGCodec.maximumMaxPixels
      throw GlassError(
        .imageTooLarge,
        "an extended image is fitted to its whole frame, \(frame.size) pixels, over the limit "
          + "of \(maxPixels); make the frame smaller\(raisable ? " or raise the pixel limit" : "")",
        at: GlassError.Location(jsonPath: "layers[\(index)].frame"),
        hint: raisable ? .raiseMaxPixels(needed: pixels) : nil)
    }
  }

  /// The rows of the canvas the background shows through: all but those that an
  /// opaque layer spanning the whole width covers (an image whose fitted pixels
  /// are all opaque, extended or not, or an opaque rectangle fill on whole pixels).
  func backgroundRects() throws -> [PixelRect] {
    let size = scene.pixelSize
    var covered = [Bool](repeating: false, count: size.height)
    // Only layers below the first one that reads the canvas (glass and materials
    // copy what is behind them) can hide the background.
    layers: for layer in scene.layers {
      var rect: PixelRect?
      switch layer {
      case .glass, .material, .container:
        break layers
      case .image(let l) where l.clipShape == .rect:
        let frame = pixelFrame(l.frame)
        guard let window = imageWindow(l), try fitted(l, window: window).isOpaque else { break }
        if let e = l.backgroundExtension {
          let effect = extensionEffect(e)
          let extended = effect.canvasSize(for: frame.size)
          rect = PixelRect(
            x: frame.x - effect.parameters.leadingPixels, y: frame.y - effect.parameters.topPixels,
            width: extended.width, height: extended.height)
        } else {
          rect = frame
        }
      case .shape(let l) where l.shape == .rect:
        let frame = pixelFrame(l.frame)
        if l.fill.isOpaque && pointFrame(frame) == l.frame { rect = frame }
      default: break
      }
      // Rows of the canvas it covers; none when it lies above or below the canvas.
      guard let rect, rect.x <= 0, rect.maxX >= size.width else { continue }
      let rows = max(rect.y, 0)..<max(min(rect.maxY, size.height), max(rect.y, 0))
      for y in rows { covered[y] = true }
    }
    var rects: [PixelRect] = []
    var start: Int?
    for y in 0...size.height {
      if y < size.height && !covered[y] {
        if start == nil { start = y }
      } else if let s = start {
        rects.append(PixelRect(x: 0, y: s, width: size.width, height: y - s))
        start = nil
      }
    }
    return rects
  }

  /// The part of an image layer's fitted frame that is made: the part on the
  /// canvas, or the whole frame when it is extended (every image pixel can mirror
  /// into the insets); nil when nothing of it is made.
  func imageWindow(_ layer: ImageLayer) -> PixelRect? {
    let frame = pixelFrame(layer.frame)
    guard !frame.isEmpty else { return nil }
    if layer.backgroundExtension != nil { return PixelRect(size: frame.size) }
    let visible = frame.intersection(canvasRect)
    return visible.isEmpty ? nil : visible.offsetBy(-frame.x, -frame.y)
  }

  /// An image layer's image fitted to its frame, the part `window` of it.
  func fitted(_ layer: ImageLayer, window: PixelRect) throws -> SceneImages.Fitted {
    try images.fitted(layer.source, to: pixelFrame(layer.frame).size, mode: layer.contentMode, window: window)
  }

  /// Imports an image fitted to `frame`, the part `window` of it, as a source of
  /// the graph whose passes read `rect` of it (by default all): once however many
  /// passes read it.
  func importFitted(
    _ path: String, frame: PixelSize, mode: ContentMode, window: PixelRect, rect: PixelRect? = nil,
    into graph: inout RenderGraph
  ) throws -> ImageHandle {
    let fitted = try images.fitted(path, to: frame, mode: mode, window: window)
    return graph.importSource(
      fitted.image, as: .linearHalf, rects: [rect ?? PixelRect(size: fitted.image.size)], name: path,
      reuseKey: RenderGraph.SourceKey(SceneImages.FitKey(path: path, frame: frame, mode: mode, window: window)))
  }

  // MARK: Paint

  /// A fill in a frame, in pixels.
  func paint(_ fill: Fill, in frame: PointRect) -> Paint {
    func point(_ unit: UnitPoint) -> SIMD2<Float> {
      SIMD2(Float((frame.x + unit.x * frame.width) * scale), Float((frame.y + unit.y * frame.height) * scale))
    }
    func stops(_ gradient: Gradient) -> ([SIMD4<Float>], [Float]) {
      let stops = gradient.stops.sorted { $0.location < $1.location }
      return (stops.map(\.color.premultipliedLinear), stops.map { Float($0.location) })
    }
    switch fill {
    case .color(let color):
      return .solid(color.premultipliedLinear)
    case .linearGradient(let gradient, let start, let end):
      let (colors, locations) = stops(gradient)
      let a = point(start)
      let b = point(end)
      return Paint(kind: .linear, colors: colors, locations: locations, geometry: SIMD4(a.x, a.y, b.x, b.y))
    case .radialGradient(let gradient, let center, let startRadius, let endRadius):
      let (colors, locations) = stops(gradient)
      let c = point(center)
      return Paint(
        kind: .radial, colors: colors, locations: locations,
        geometry: SIMD4(c.x, c.y, Float(startRadius * scale), Float(endRadius * scale)))
    }
  }

  // MARK: Layers

  /// A frame in points snapped to whole pixels.
  func pixelFrame(_ frame: PointRect) -> PixelRect {
    let x0 = Int((frame.x * scale).rounded())
    let y0 = Int((frame.y * scale).rounded())
    let x1 = Int((frame.maxX * scale).rounded())
    let y1 = Int((frame.maxY * scale).rounded())
    return PixelRect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
  }

  /// An image layer's extension in pixels: insets rounded to whole pixels.
  func extensionEffect(_ ext: BackgroundExtension) -> BackgroundExtensionEffect {
    let px = { (points: Double) in Int((points * scale).rounded()) }
    return BackgroundExtensionEffect(
      .init(
        leadingPixels: px(ext.leading), trailingPixels: px(ext.trailing), topPixels: px(ext.top),
        bottomPixels: px(ext.bottom), sigmaPixels: ext.sigma * scale))
  }

  /// The same rectangle in points.
  func pointFrame(_ rect: PixelRect) -> PointRect {
    PointRect(
      x: Double(rect.x) / scale, y: Double(rect.y) / scale, width: Double(rect.width) / scale,
      height: Double(rect.height) / scale)
  }

  private func lowerImage(
    _ layer: ImageLayer, name: String, canvas: ImageHandle, into graph: inout RenderGraph
  )
    throws
  {
    guard let window = imageWindow(layer) else { return }
    let frame = pixelFrame(layer.frame)
    let fitted = try fitted(layer, window: window)
    let source = try importFitted(
      layer.source, frame: frame.size, mode: layer.contentMode, window: window, into: &graph)
    let origin = PixelPoint(x: frame.x + window.x, y: frame.y + window.y)
    if let ext = layer.backgroundExtension {
      let effect = extensionEffect(ext)
      // The strips of an opaque image replace what is under them (blending would
      // let the background through where binary16 rounds the blurred alpha below 1).
      let origin = PixelPoint(
        x: frame.x - effect.parameters.leadingPixels, y: frame.y - effect.parameters.topPixels)
      effect.lower(
        [source], to: EffectDestination(canvas, origin: origin, bounds: canvasRect, blend: !fitted.isOpaque),
        into: &graph)
    }
    let clip = layer.clipShape.geometry(in: pointFrame(frame), scale: scale)
    let rect = frame.intersection(canvasRect)
    guard !rect.isEmpty else { return }
    // An opaque image filling its pixels replaces what is under it: no blend to pay.
    let replaces = clip.coversFully(rect) && fitted.isOpaque
    graph.addPass(
      "\(name) image", .drawImage(DrawImage(origin: origin, clip: clip)), inputs: [source], output: canvas, rect: rect,
      blend: !replaces)
  }

  private func lowerShape(
    _ layer: ShapeLayer, index: Int, name: String, canvas: ImageHandle, into graph: inout RenderGraph
  ) throws {
    let shape = layer.shape.geometry(in: layer.frame, scale: scale, container: layer.containerShape)
    // A rectangle on whole pixels touches exactly its frame; other shapes their
    // bounds grown by a pixel for the anti-aliased edge.
    let aligned = pixelFrame(layer.frame)
    let bounds = !aligned.isEmpty && shape.coversFully(aligned) ? aligned : shape.pixelBounds()
    let rect = bounds.intersection(canvasRect)
    let fill = paint(layer.fill, in: layer.frame)
    if !rect.isEmpty {
      // An opaque fill covering every pixel it touches replaces them.
      let replaces = layer.fill.isOpaque && shape.coversFully(rect)
      graph.addPass(
        "\(name) fill", .fill(FillShape(shape: shape, paint: fill)), inputs: [], output: canvas, rect: rect,
        blend: !replaces)
    }
    if let content = layer.content {
      try lowerContent(
        content, in: layer.frame, layerIndex: index, ground: .shape(shape, fill), at: "layers[\(index)].content",
        name: "\(name) content", canvas: canvas, into: &graph)
    }
  }

  // MARK: Glass and materials

  /// A glass shape or material panel of a group that samples the backdrop once.
  enum Member {
    case glass(GlassLayer)
    case material(MaterialLayer)
  }

  /// One member resolved to pixels: its pass, the blur its backdrop needs, the
  /// canvas pixels it reads and writes, and content to draw on top.
  struct Resolved {
    var member: GlassMember?
    var frostPixels: Double
    var reads: PixelRect
    var writes: PixelRect
    var content: (content: GlassContent, frame: PointRect, ground: ContentGround)?
  }

  /// The look of the glass layer or container at `index`, decided once for all
  /// its glass (`GlassLook.decide`) over the estimated luminance of what is
  /// under the union of its frames.
  func glassLook(at index: Int) throws -> GlassLook {
    if let look = looks.values[index] { return look }
    let look = try decideGlassLook(at: index)
    looks.values[index] = look
    return look
  }

  /// The optics of the glass of the layer or container at `index` in its look,
  /// one for a glass layer, one per united glass of a container, worked out once
  /// (the backdrop estimate under each later layer composites them).
  func backdropOptics(at index: Int) throws -> [GlassOptics] {
    if let optics = looks.optics[index] { return optics }
    let look = try glassLook(at: index)
    let optics: [GlassOptics] =
      switch scene.layers[index] {
      case .glass(let layer): [self.optics(layer, look: look)]
      case .container(let container): container.unitedGlass.map { self.optics($0, look: look) }
      case .image, .shape, .material, .text: []
      }
    looks.optics[index] = optics
    return optics
  }

  private func decideGlassLook(at index: Int) throws -> GlassLook {
    let environment = scene.environment
    var glass: [GlassLayer] = []
    switch scene.layers[index] {
    case .glass(let layer): glass = [layer]
    case .container(let container): glass = container.unitedGlass
    case .image, .shape, .material, .text: break
    }
    let visible = glass.filter { $0.glass.variant != .identity }
    var look = GlassLook(environment)
    if let first = visible.first?.frame {
      var x0 = first.x
      var y0 = first.y
      var x1 = first.maxX
      var y1 = first.maxY
      for frame in visible.map(\.frame) {
        x0 = min(x0, frame.x)
        y0 = min(y0, frame.y)
        x1 = max(x1, frame.maxX)
        y1 = max(y1, frame.maxY)
      }
      let union = PointRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
      let variant: Glass.Variant = visible.contains { $0.glass.variant == .regular } ? .regular : .clear
      look = try GlassLook.decide(
        shortSide: min(union.width, union.height), variant: variant, environment: environment
      ) { try backdropLuminance(under: index, in: union, ground: .none) }
    }
    return look
  }

  /// A glass layer's optics in `look`: its variant's with its overrides, as
  /// glass of its size looks there.
  func optics(_ layer: GlassLayer, look: GlassLook) -> GlassOptics {
    GlassOptics(layer.glass.variant, overrides: layer.optics).applying(
      look, variant: layer.glass.variant, shortSide: min(layer.frame.width, layer.frame.height),
      isInteractive: layer.glass.isInteractive)
  }

  func resolve(_ member: Member, container: ContainerShape?, look: GlassLook) -> Resolved {
    switch member {
    case .material(let layer):
      let shape = layer.shape.geometry(in: layer.frame, scale: scale, container: layer.containerShape ?? container)
      let bounds = shape.pixelBounds().intersection(canvasRect.insetBy(-2))
      let style = MaterialStyle.of(layer.material, in: scene.environment)
      return Resolved(
        member: GlassEffect.member(style, shape: shape), frostPixels: style.blur * scale, reads: bounds,
        writes: bounds, content: layer.content.map { ($0, layer.frame, .material(layer.material)) })
    case .glass(let layer):
      let optics = optics(layer, look: look)
      let content = layer.content.map { ($0, layer.frame, ContentGround.glass(layer.glass, optics)) }
      guard layer.glass.variant != .identity else {
        return Resolved(
          member: nil, frostPixels: 0, reads: PixelRect(x: 0, y: 0, width: 0, height: 0),
          writes: PixelRect(x: 0, y: 0, width: 0, height: 0), content: content)
      }
      var shape = layer.shape.geometry(in: layer.frame, scale: scale, container: layer.containerShape ?? container)
      if layer.glass.isInteractive && layer.glass.isPressed { shape = shape.scaled(by: Float(optics.pressedScale)) }
      let member = GlassEffect.member(layer.glass, optics: optics, shape: shape, frame: layer.frame, scale: scale)
      // The backdrop it samples: its shape grown by the pull, no further from the
      // canvas than the pull reaches.
      let reach = Int(GlassEffect.reach(member).rounded(.up))
      let reads = GlassEffect.readBounds(member).intersection(canvasRect.insetBy(-reach - 1))
      return Resolved(
        member: member, frostPixels: optics.frost * scale, reads: reads, writes: GlassEffect.writeBounds(member),
        content: content)
    }
  }

  /// Glass shapes and material panels that sample the backdrop together: one copy
  /// of the canvas behind them all, one blur per distinct frost, then one glass
  /// pass per blend group (`GlassEffect.blendGroups`), in the order of each group's first
  /// member. `spacing` is the container's, in points; `at` its JSON path.
  private func lowerGlass(
    _ members: [Member], name: String, layerIndex: Int, contentPaths: [String], container: ContainerShape?,
    spacing: Double = 0, at: String = "", canvas: ImageHandle, into graph: inout RenderGraph
  ) throws {
    let look = try glassLook(at: layerIndex)
    let resolved = members.map { resolve($0, container: container, look: look) }
    let live = resolved.filter { $0.member != nil && !$0.writes.intersection(canvasRect).isEmpty }
    let sigmas = Array(Set(live.map(\.frostPixels))).sorted()
    let blurs = Dictionary(uniqueKeysWithValues: sigmas.map { ($0, GaussianBlurEffect(sigmaPixels: $0)) })
    if !live.isEmpty {
      let blendRadius = Float(spacing * scale)
      // Refused as soon as one group passes the limit, before the rest is grouped.
      guard
        let groups = GlassEffect.blendGroups(
          live.compactMap(\.member).map(\.shape), blendRadius: blendRadius,
          maximumMembers: GlassComposite.maximumMembers)
      else {
        throw GlassError(
          .invalidScene,
          "more than \(GlassComposite.maximumMembers) glass shapes blend into one body here; one body takes at most "
            + "\(GlassComposite.maximumMembers) shapes: move them apart, lower the spacing or split the container",
          at: GlassError.Location(jsonPath: at))
      }
      // Each group's distinct frosts, in the order of its inputs.
      let groupFrosts = groups.map { group in Array(Set(group.map { live[$0].frostPixels })).sorted() }
      for (group, frosts) in zip(groups, groupFrosts) {
        guard frosts.count <= GlassComposite.maximumSources else {
          throw GlassError(
            .invalidScene,
            "\(group.count) glass shapes with \(frosts.count) different frosts blend into one body here; one body "
              + "takes at most \(GlassComposite.maximumSources) frosts: "
              + "move them apart, lower the spacing or split the container",
            at: GlassError.Location(jsonPath: at))
        }
      }
      // The backdrop: every pixel any member reads, grown by the widest blur margin
      // and aligned to the canvas's grid of coarse pixels, so that a member's frost
      // is the same here as alone (`backdropRegion`). Beyond the canvas it is the
      // canvas mirrored. A member whose backdrop lies off the canvas still draws its
      // shadow: it reads the canvas under it.
      let reads = live.map { $0.reads.isEmpty ? $0.writes.intersection(canvasRect) : $0.reads }
      let region = GaussianBlurEffect.backdropRegion(
        covering: reads.dropFirst().reduce(reads[0]) { $0.union($1) }, for: Array(blurs.values))
      let backdrop = graph.makeTransient("\(name) backdrop", size: region.size, format: .linearHalf)
      graph.addPass(
        "\(name) backdrop", .copy(Copy(offset: PixelPoint(x: region.x, y: region.y))), inputs: [canvas],
        output: backdrop, rect: PixelRect(size: region.size))
      var frosted: [Double: ImageHandle] = [:]
      for sigma in sigmas {
        frosted[sigma] = (blurs[sigma] ?? GaussianBlurEffect(sigmaPixels: 0)).lower(
          backdrop, name: "\(name) frost", into: &graph)
      }
      for (group, frosts) in zip(groups, groupFrosts) {
        let members = group.compactMap { index -> GlassMember? in
          guard var member = live[index].member else { return nil }
          member.source = frosts.firstIndex(of: live[index].frostPixels) ?? 0
          return member
        }
        let glass = GlassEffect(
          GlassComposite(
            members: members, blendRadius: members.count > 1 ? blendRadius : 0,
            backdropOrigin: PixelPoint(x: region.x, y: region.y)))
        let label =
          group.count > 1
          ? "\(name) glass \(group.map(String.init).joined(separator: "+"))" : "\(name) glass \(group[0])"
        glass.lower(
          frosts.compactMap { frosted[$0] },
          to: EffectDestination(canvas, bounds: canvasRect, blend: true, name: label), into: &graph)
      }
    }
    for (index, member) in resolved.enumerated() {
      guard let content = member.content else { continue }
      try lowerContent(
        content.content, in: content.frame, layerIndex: layerIndex, ground: content.ground, at: contentPaths[index],
        name: "\(name) content \(index)", canvas: canvas, into: &graph)
    }
  }
}

extension PixelRect {
  /// The smallest rectangle holding both (either alone when the other is empty).
  func union(_ other: PixelRect) -> PixelRect {
    if other.isEmpty { return self }
    if isEmpty { return other }
    let x0 = min(x, other.x)
    let y0 = min(y, other.y)
    let x1 = max(maxX, other.maxX)
    let y1 = max(maxY, other.maxY)
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
