/// A Gaussian blur over premultiplied linear light, carried out by a `BlurPlan`:
/// direct at full resolution for a small sigma, down a pyramid, blurred and back
/// up for a larger one. This is the project's one blur lowering: the frost behind
/// glass and materials blurs a whole backdrop with it, and the background
/// extension blurs its strips with it (`lower(_:plan:source:addressing:to:into:)`).
///
/// The input is mirrored at its edges (or, with canvas addressing, read as the
/// mirrored canvas around a source image); a sigma of 0 returns the input.
public struct GaussianBlurEffect: Effect, Hashable {
  /// What the blur is asked to do.
  public struct Parameters: Hashable, Codable, Sendable {
    /// Standard deviation of the blur, in pixels.
    public var sigmaPixels: Double

    /// Parameters.
    public init(sigmaPixels: Double) {
      self.sigmaPixels = sigmaPixels
    }
  }

  /// The largest sigma, in pixels.
  public static let maximumSigmaPixels = 2_000.0

  /// The one parameter.
  public static let parameterTable: [ParameterSpec] = [
    ParameterSpec(
      name: "sigma", unit: "px", minimum: 0, maximum: maximumSigmaPixels, defaultValue: nil,
      summary: "Standard deviation of the Gaussian blur; 0 returns the input")
  ]

  /// The parameters.
  public var parameters: Parameters

  /// A blur of `sigmaPixels`.
  public init(sigmaPixels: Double) {
    parameters = Parameters(sigmaPixels: sigmaPixels)
  }

  /// Throws `invalidParameter` for a sigma that is not a number in range.
  public func validate() throws {
    try Self.spec("sigma").check(parameters.sigmaPixels)
  }

  /// The plan a whole image is blurred with: the deepest allowed level.
  public var plan: BlurPlan { BlurPlan(sigmaPixels: parameters.sigmaPixels) }

  /// The plan's margin, whatever the size of the input.
  public func inputMarginPixels(for inputSize: PixelSize) -> Int { plan.marginPixels }

  /// Blurs the whole of `inputs[0]` (its size a multiple of `plan.scale`) into the
  /// destination.
  public func lower(_ inputs: [ImageHandle], to destination: EffectDestination, into graph: inout RenderGraph) {
    precondition(inputs.count == 1, "a blur reads one image")
    let whole = PixelRect(size: graph[inputs[0]].descriptor.size)
    let region = Region(name: "blur", strip: whole, region: whole)
    Self.lower([region], plan: plan, source: inputs[0], addressing: .image, to: destination, into: &graph)
  }

  /// The region of a backdrop to blur with `blurs` so that each pixel of `reads`
  /// gets the same frost in it as in any other region holding it: `reads` grown
  /// by the widest margin, then outward to whole coarse pixels of the deepest
  /// plan on the grid of the coordinates `reads` is given in (canvas pixels).
  ///
  /// Why a pixel's frost then depends on the backdrop alone: a pyramid's levels
  /// start at the region's origin, now a multiple of every plan's `scale`, so a
  /// coarse pixel of level l always averages the same canvas pixels whatever
  /// the region; and a pixel's blur reads no farther than `scale * (radius + 3)
  /// - 3` pixels (the coarse taps, 1.5 coarse pixels down and 1 up), within
  /// the margin, so it never reaches the region's mirrored edge. Glass apart in
  /// a container then renders byte for byte as it does alone.
  static func backdropRegion(covering reads: PixelRect, for blurs: [GaussianBlurEffect]) -> PixelRect {
    let margin = blurs.map { $0.plan.marginPixels }.max() ?? 0
    let step = blurs.map(\.plan.scale).max() ?? 1
    let grown = reads.insetBy(-margin)
    // Floor and ceiling to multiples of `step`, negative coordinates included.
    func down(_ v: Int) -> Int { v >= 0 ? v / step * step : -((-v + step - 1) / step * step) }
    func up(_ v: Int) -> Int { -down(-v) }
    let x0 = down(grown.x)
    let y0 = down(grown.y)
    return PixelRect(x: x0, y: y0, width: up(grown.maxX) - x0, height: up(grown.maxY) - y0)
  }

  /// The blur of the whole of `input` as an image of its own: `input` itself for
  /// sigma 0, otherwise a new image of the graph.
  public func lower(_ input: ImageHandle, name: String, into graph: inout RenderGraph) -> ImageHandle {
    guard !plan.isIdentity else { return input }
    let output = graph.makeTransient(name, size: graph[input].descriptor.size, format: .linearHalf)
    let whole = PixelRect(size: graph[input].descriptor.size)
    let region = Region(name: name, strip: whole, region: whole)
    Self.lower(
      [region], plan: plan, source: input, addressing: .image, to: EffectDestination(output, blend: false),
      into: &graph)
    return output
  }

  // MARK: The lowering

  /// A part of the output to blur (`strip`), the input region its blur works on
  /// (`region`, the strip grown by the plan's margin, its size a multiple of
  /// `plan.scale`), and where that region sits in the intermediate images it
  /// shares with the other regions of its group (`atlas`), in full-resolution
  /// pixels. Positions are the source's: canvas pixels with canvas addressing.
  struct Region {
    var name: String
    var strip: PixelRect
    var region: PixelRect
    var atlas = PixelPoint(x: 0, y: 0)

    /// The region's part of its group's images at `level`.
    func atlasRect(_ level: Int) -> PixelRect {
      PixelRect(
        x: atlas.x >> level, y: atlas.y >> level, width: region.width >> level, height: region.height >> level)
    }
  }

  /// The size of a group's intermediate images at full resolution.
  static func atlasSize(_ group: [Region]) -> PixelSize {
    PixelSize(
      width: group.map { $0.atlas.x + $0.region.width }.max() ?? 0,
      height: group.map { $0.atlas.y + $0.region.height }.max() ?? 0)
  }

  /// Blurs each region's strip of `source`, read through `addressing`, into the
  /// destination (the source's pixel (0, 0) at its origin), the group's regions
  /// sharing intermediate images side by side.
  static func lower(
    _ group: [Region], plan: BlurPlan, source: ImageHandle, addressing: SourceAddressing,
    to destination: EffectDestination, into graph: inout RenderGraph
  ) {
    if plan.isIdentity {
      for r in group {
        guard let rect = destination.rect(r.strip, in: graph) else { continue }
        graph.addPass(
          "\(r.name) copy",
          .convolve(
            Convolve(
              addressing: addressing, axis: .horizontal,
              offset: PixelPoint(x: -destination.origin.x, y: -destination.origin.y), weights: [1])),
          inputs: [source], output: destination.image, rect: rect, blend: destination.blend)
      }
    } else if plan.levels == 0 {
      lowerDirect(group, plan: plan, source: source, addressing: addressing, to: destination, into: &graph)
    } else {
      lowerPyramid(group, plan: plan, source: source, addressing: addressing, to: destination, into: &graph)
    }
  }

  /// Small sigma: a horizontal then a vertical convolution at full resolution.
  private static func lowerDirect(
    _ group: [Region], plan: BlurPlan, source: ImageHandle, addressing: SourceAddressing,
    to destination: EffectDestination, into graph: inout RenderGraph
  ) {
    let name = group.map(\.name).joined(separator: "+")
    let rows = graph.makeTransient("\(name) rows", size: atlasSize(group), format: .linearHalf)
    for r in group {
      // Atlas pixel -> source pixel: minus the region's atlas offset, plus its origin.
      let shift = PixelPoint(x: r.region.x - r.atlas.x, y: r.region.y - r.atlas.y)
      let local = r.strip.offsetBy(-shift.x, -shift.y)
      let needed = PixelRect(
        x: local.x, y: local.y - plan.radius, width: local.width, height: local.height + 2 * plan.radius
      )
      .intersection(r.atlasRect(0))
      graph.addPass(
        "\(r.name) blur x",
        .convolve(Convolve(addressing: addressing, axis: .horizontal, offset: shift, weights: plan.weights)),
        inputs: [source], output: rows, rect: needed)
    }
    for r in group {
      guard let rect = destination.rect(r.strip, in: graph) else { continue }
      let shift = PixelPoint(
        x: r.atlas.x - r.region.x - destination.origin.x, y: r.atlas.y - r.region.y - destination.origin.y)
      graph.addPass(
        "\(r.name) blur y",
        .convolve(Convolve(addressing: .image, axis: .vertical, offset: shift, weights: plan.weights)),
        inputs: [rows], output: destination.image, rect: rect, blend: destination.blend)
    }
  }

  /// Larger sigma: down the pyramid, blur at the coarse level, back up, touching
  /// at each level going up only the pixels that reach the strips.
  private static func lowerPyramid(
    _ group: [Region], plan: BlurPlan, source: ImageHandle, addressing: SourceAddressing,
    to destination: EffectDestination, into graph: inout RenderGraph
  ) {
    let levels = plan.levels
    let name = group.map(\.name).joined(separator: "+")
    let atlas = atlasSize(group)
    func size(_ level: Int) -> PixelSize {
      PixelSize(width: atlas.width >> level, height: atlas.height >> level)
    }
    // Down: level 1 from the source, region by region; then level to level, whole.
    var down = graph.makeTransient("\(name) level 1", size: size(1), format: .linearHalf)
    for r in group {
      let offset = PixelPoint(x: r.region.x - r.atlas.x, y: r.region.y - r.atlas.y)
      graph.addPass(
        "\(r.name) down 1",
        .downsample(
          Downsample(
            addressing: addressing, map: PixelMap(scale: 2, offsetX: Double(offset.x), offsetY: Double(offset.y)))),
        inputs: [source], output: down, rect: r.atlasRect(1))
    }
    for level in stride(from: 2, through: levels, by: 1) {
      let next = graph.makeTransient("\(name) level \(level)", size: size(level), format: .linearHalf)
      graph.addPass(
        "\(name) down \(level)",
        .downsample(Downsample(addressing: .image, map: PixelMap(scale: 2, offsetX: 0, offsetY: 0))),
        inputs: [down], output: next, rect: PixelRect(size: size(level)))
      down = next
    }
    // The pixels each level must hold for each strip: the strip, halved outward
    // and grown by one pixel per level for the bilinear taps.
    let needed: [[PixelRect]] = group.map { r in
      var rects = [r.strip.offsetBy(r.atlas.x - r.region.x, r.atlas.y - r.region.y)]
      for level in stride(from: 1, through: levels, by: 1) {
        let finer = rects[level - 1]
        let x0 = finer.x >> 1 - 1
        let y0 = finer.y >> 1 - 1
        let x1 = (finer.maxX + 1) >> 1 + 1
        let y1 = (finer.maxY + 1) >> 1 + 1
        rects.append(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(r.atlasRect(level)))
      }
      return rects
    }
    // Blur at the coarse level.
    let rows = graph.makeTransient("\(name) blur x", size: size(levels), format: .linearHalf)
    for (r, rects) in zip(group, needed) {
      let coarse = rects[levels]
      let rowsNeeded = PixelRect(
        x: coarse.x, y: coarse.y - plan.radius, width: coarse.width, height: coarse.height + 2 * plan.radius
      ).intersection(r.atlasRect(levels))
      graph.addPass(
        "\(r.name) blur x",
        .convolve(
          Convolve(addressing: .image, axis: .horizontal, offset: PixelPoint(x: 0, y: 0), weights: plan.weights)),
        inputs: [down], output: rows, rect: rowsNeeded)
    }
    var up = graph.makeTransient("\(name) blur y", size: size(levels), format: .linearHalf)
    for (r, rects) in zip(group, needed) {
      graph.addPass(
        "\(r.name) blur y",
        .convolve(Convolve(addressing: .image, axis: .vertical, offset: PixelPoint(x: 0, y: 0), weights: plan.weights)),
        inputs: [rows], output: up, rect: rects[levels])
    }
    // Up: level to level, then into the destination.
    for level in stride(from: levels - 1, through: 1, by: -1) {
      let next = graph.makeTransient("\(name) up \(level)", size: size(level), format: .linearHalf)
      for (r, rects) in zip(group, needed) {
        graph.addPass(
          "\(r.name) up \(level)", .upsample(Upsample(map: PixelMap(scale: 0.5, offsetX: 0, offsetY: 0))),
          inputs: [up], output: next, rect: rects[level])
      }
      up = next
    }
    for r in group {
      guard let rect = destination.rect(r.strip, in: graph) else { continue }
      let offset = PixelPoint(
        x: r.atlas.x - r.region.x - destination.origin.x, y: r.atlas.y - r.region.y - destination.origin.y)
      graph.addPass(
        "\(r.name) up 0",
        .upsample(Upsample(map: PixelMap(scale: 0.5, offsetX: Double(offset.x) / 2, offsetY: Double(offset.y) / 2))),
        inputs: [up], output: destination.image, rect: rect, blend: destination.blend)
    }
  }
}
