/// SwiftUI's `backgroundExtensionEffect()`: an image extended under a leading
/// sidebar, a trailing inspector and, where the safe area leaves room, the top and
/// bottom, by mirrored copies of its own edges that are blurred while the image
/// itself stays sharp.
///
/// The contract (DESIGN.md): the canvas repeats the image by mirroring with the
/// edge pixel repeated (periodic when an inset is wider than the image); it is
/// blurred by a Gaussian of `sigmaPixels` over premultiplied linear light, with
/// the same mirror rule at the canvas edge; inside its frame the image is copied
/// unchanged; the output is sRGB-encoded.
///
///     +--------+-----------------+-----------+
///     |        |       top       |           |
///     |leading +-----------------+ trailing  |
///     |        |      image      |           |
///     |        +-----------------+           |
///     |        |     bottom      |           |
///     +--------+-----------------+-----------+
public struct BackgroundExtensionEffect: Effect, Hashable {
  /// What the effect is asked to do; all values in pixels.
  public struct Parameters: Hashable, Codable, Sendable {
    /// Width of the extension on the leading (left) side, in pixels.
    public var leadingPixels: Int
    /// Width of the extension on the trailing (right) side, in pixels.
    public var trailingPixels: Int
    /// Height of the extension above the image, in pixels.
    public var topPixels: Int
    /// Height of the extension below the image, in pixels.
    public var bottomPixels: Int
    /// Standard deviation of the blur of the mirrored copies, in pixels.
    public var sigmaPixels: Double

    /// Makes parameters; top, bottom and sigma have defaults.
    public init(
      leadingPixels: Int, trailingPixels: Int, topPixels: Int = 0, bottomPixels: Int = 0,
      sigmaPixels: Double = BackgroundExtensionEffect.defaultSigmaPixels
    ) {
      self.leadingPixels = leadingPixels
      self.trailingPixels = trailingPixels
      self.topPixels = topPixels
      self.bottomPixels = bottomPixels
      self.sigmaPixels = sigmaPixels
    }
  }

  /// The default blur, in pixels.
  public static let defaultSigmaPixels = 24.0
  /// The largest inset, in pixels.
  public static let maximumInsetPixels = 65_536.0
  /// The largest sigma, in pixels.
  public static let maximumSigmaPixels = GaussianBlurEffect.maximumSigmaPixels

  /// The parameters, declared once: validation, the CLI help and the docs use them.
  public static let parameterTable: [ParameterSpec] = [
    ParameterSpec(
      name: "leading", unit: "px", minimum: 0, maximum: maximumInsetPixels, defaultValue: nil,
      summary: "Width of the extension under a leading sidebar"),
    ParameterSpec(
      name: "trailing", unit: "px", minimum: 0, maximum: maximumInsetPixels, defaultValue: nil,
      summary: "Width of the extension under a trailing inspector"),
    ParameterSpec(
      name: "top", unit: "px", minimum: 0, maximum: maximumInsetPixels, defaultValue: 0,
      summary: "Height of the extension above the image"),
    ParameterSpec(
      name: "bottom", unit: "px", minimum: 0, maximum: maximumInsetPixels, defaultValue: 0,
      summary: "Height of the extension below the image"),
    ParameterSpec(
      name: "sigma", unit: "px", minimum: 0, maximum: maximumSigmaPixels, defaultValue: defaultSigmaPixels,
      summary: "Standard deviation of the Gaussian blur of the mirrored copies; 0 copies them sharp"),
  ]

  /// The parameters.
  public var parameters: Parameters

  /// An effect with these parameters.
  public init(_ parameters: Parameters) {
    self.parameters = parameters
  }

  /// Throws `invalidParameter`, naming the option, for a value out of range.
  public func validate() throws {
    try Self.spec("leading").check(Double(parameters.leadingPixels))
    try Self.spec("trailing").check(Double(parameters.trailingPixels))
    try Self.spec("top").check(Double(parameters.topPixels))
    try Self.spec("bottom").check(Double(parameters.bottomPixels))
    try Self.spec("sigma").check(parameters.sigmaPixels)
  }

  /// The size of the output: the image plus the insets.
  public func canvasSize(for imageSize: PixelSize) -> PixelSize {
    PixelSize(
      width: parameters.leadingPixels + imageSize.width + parameters.trailingPixels,
      height: parameters.topPixels + imageSize.height + parameters.bottomPixels)
  }

  /// How the blur is carried out on an image of `imageSize`: of the allowed pyramid
  /// levels, the one with the least estimated work for this canvas.
  public func blurPlan(for imageSize: PixelSize) -> BlurPlan {
    let canvas = canvasSize(for: imageSize)
    let strips = strips(for: imageSize).map(\.rect)
    let plans = BlurPlan.allowedLevels(sigmaPixels: parameters.sigmaPixels).map {
      BlurPlan(sigmaPixels: parameters.sigmaPixels, levels: $0)
    }
    return plans.min { Self.estimatedCost($0, strips, canvas) < Self.estimatedCost($1, strips, canvas) }
      ?? BlurPlan(sigmaPixels: parameters.sigmaPixels)
  }

  /// Estimated work of a plan, in nanoseconds of llvmpipe on two cores (measured
  /// with GLASS_GPU_TRACE): a halving costs about 15 ns per output pixel, 19 when
  /// its taps must mirror at the canvas edge by arithmetic; a convolution tap about
  /// 4 ns per pixel; a pass about 0.15 ms however small. Only comparisons between
  /// plans of one canvas matter.
  static func estimatedCost(_ plan: BlurPlan, _ strips: [PixelRect], _ canvas: PixelSize) -> Double {
    guard !plan.isIdentity else { return 0 }
    let taps = Double(2 * plan.radius + 1)
    let pass = 150_000.0
    var cost = 0.0
    for strip in strips {
      let region = workRegion(for: strip, canvas: canvas, plan: plan)
      if plan.levels == 0 {
        let rows = Double(strip.width * min(region.height, strip.height + 2 * plan.radius))
        cost += (rows + Double(strip.pixelCount)) * taps * 4 + 2 * pass
        continue
      }
      let area = Double(region.pixelCount)
      let inside = region.x >= 0 && region.y >= 0 && region.maxX <= canvas.width && region.maxY <= canvas.height
      cost += area / 4 * (inside ? 15 : 19)
      for level in stride(from: 2, through: plan.levels, by: 1) { cost += area / Double(1 << (2 * level)) * 15 }
      // The coarse blur covers the strip's columns (rows for top and bottom strips)
      // and its rows grown by the kernel, at the coarse level.
      let scale = Double(plan.scale)
      let coarse = (Double(strip.width) / scale + 2) * (Double(strip.height) / scale + 2 + Double(plan.radius))
      cost += 2 * coarse * taps * 4
      cost += Double(2 * plan.levels + 2) * pass
    }
    return cost
  }

  /// The parts of the canvas the effect writes, each with a name: up to four
  /// strips that never overlap (the corners belong to the leading and trailing ones).
  public func strips(for imageSize: PixelSize) -> [(name: String, rect: PixelRect)] {
    let p = parameters
    let canvas = canvasSize(for: imageSize)
    let strips: [(String, PixelRect)] = [
      ("leading", PixelRect(x: 0, y: 0, width: p.leadingPixels, height: canvas.height)),
      (
        "trailing",
        PixelRect(x: p.leadingPixels + imageSize.width, y: 0, width: p.trailingPixels, height: canvas.height)
      ),
      ("top", PixelRect(x: p.leadingPixels, y: 0, width: imageSize.width, height: p.topPixels)),
      (
        "bottom",
        PixelRect(x: p.leadingPixels, y: p.topPixels + imageSize.height, width: imageSize.width, height: p.bottomPixels)
      ),
    ]
    return strips.filter { !$0.1.isEmpty }
  }

  /// Lowers the effect on `image` into a render graph whose output has `depth`,
  /// with the blur carried out by `plan` (by default the cheapest for the canvas).
  public func lower(_ image: RGBAImage, depth: RGBAImage.Depth, plan: BlurPlan? = nil) -> RenderGraph {
    let canvasSize = canvasSize(for: image.size)
    let mapping = MirrorCanvas(
      canvasSize: canvasSize, imageOrigin: PixelPoint(x: parameters.leadingPixels, y: parameters.topPixels),
      imageSize: image.size)
    let plan = plan ?? blurPlan(for: image.size)
    let strips = strips(for: image.size)
    var graph = RenderGraph()
    let output = graph.makeOutput(size: canvasSize, format: .encoded(depth))
    graph.copyToOutput(image, rect: PixelRect(size: image.size), origin: mapping.imageOrigin)
    guard !strips.isEmpty else { return graph }

    if plan.isIdentity {
      let source = graph.importSource(
        image, as: .encoded(image.depth), rects: Self.footprint(of: strips.map(\.rect), in: mapping))
      for strip in strips {
        graph.addPass(
          "\(strip.name) mirror", .mirrorExtend(MirrorExtend(canvas: mapping, offset: PixelPoint(x: 0, y: 0))),
          inputs: [source], output: output, rect: strip.rect)
      }
      return graph
    }

    let regions = strips.map { Self.workRegion(for: $0.rect, canvas: canvasSize, plan: plan) }
    let source = graph.importSource(
      image, as: .linearHalf,
      rects: Self.footprint(of: regions.map { $0.insetBy(-2) }, in: mapping))
    for group in Self.pack(strips, regions, plan: plan) {
      GaussianBlurEffect.lower(
        group, plan: plan, source: source, addressing: .canvas(mapping), to: EffectDestination(output, blend: false),
        into: &graph)
    }
    return graph
  }

  /// The margin of image a strip's blur reads, by the plan for `imageSize`.
  public func inputMarginPixels(for imageSize: PixelSize) -> Int {
    blurPlan(for: imageSize).marginPixels
  }

  /// Lowers the strips around the image `inputs[0]` (imported as `.linearHalf`,
  /// whole) into the destination, the extended canvas's top-left pixel at its
  /// origin, writing only inside its bounds: the effect as one layer of a scene.
  /// The image itself is not drawn.
  public func lower(_ inputs: [ImageHandle], to destination: EffectDestination, into graph: inout RenderGraph) {
    precondition(inputs.count == 1, "the extension reads its image")
    let source = inputs[0]
    let imageSize = graph[source].descriptor.size
    let canvasSize = canvasSize(for: imageSize)
    let mapping = MirrorCanvas(
      canvasSize: canvasSize, imageOrigin: PixelPoint(x: parameters.leadingPixels, y: parameters.topPixels),
      imageSize: imageSize)
    let plan = blurPlan(for: imageSize)
    // Only the parts of the strips inside the bounds are blurred.
    let visible = destination.bounds.map { $0.offsetBy(-destination.origin.x, -destination.origin.y) }
    let strips = strips(for: imageSize).compactMap { strip -> (name: String, rect: PixelRect)? in
      let rect = visible.map { strip.rect.intersection($0) } ?? strip.rect
      return rect.isEmpty ? nil : (strip.name, rect)
    }
    let regions = strips.map { Self.workRegion(for: $0.rect, canvas: canvasSize, plan: plan) }
    for group in Self.pack(strips, regions, plan: plan) {
      GaussianBlurEffect.lower(
        group, plan: plan, source: source, addressing: .canvas(mapping), to: destination, into: &graph)
    }
  }

  /// The canvas rectangle a strip's blur works on: the strip grown by the blur's
  /// margin, except at a canvas edge, where the mirror rule holds exactly at every
  /// pyramid level once the region starts there and its size is a multiple of
  /// `plan.scale`. The region may reach outside the canvas; those pixels are the
  /// canvas mirrored.
  ///
  /// When the margin is long against the canvas (a large sigma on a small image),
  /// a shorter region serves: the mirrored canvas is symmetric about every multiple
  /// of its size, so `[0, lcm(size, scale))` is exact at both ends, whatever the
  /// sigma.
  static func workRegion(for strip: PixelRect, canvas: PixelSize, plan: BlurPlan) -> PixelRect {
    func span(_ lo: Int, _ hi: Int, _ count: Int) -> (Int, Int) {
      let margin = plan.marginPixels
      let scale = plan.scale
      func roundUp(_ v: Int) -> Int { (v + scale - 1) / scale * scale }
      let (start, length): (Int, Int)
      if lo == 0 {
        (start, length) = (0, hi == count && count % scale == 0 ? count : roundUp(hi + margin))
      } else if hi == count {
        let long = roundUp(count - lo + margin)
        (start, length) = (count - long, long)
      } else {
        (start, length) = (lo - margin, roundUp(hi - lo + 2 * margin))
      }
      let periodic = count / gcd(count, scale) * scale
      return periodic < length ? (0, periodic) : (start, length)
    }
    let (x, width) = span(strip.x, strip.maxX, canvas.width)
    let (y, height) = span(strip.y, strip.maxY, canvas.height)
    return PixelRect(x: x, y: y, width: width, height: height)
  }

  private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

  /// The leading and trailing strips share textures side by side, and the top and
  /// bottom strips one above the other, when their regions span the same rows (or
  /// columns). Their passes then write one texture, so a GPU runs them without
  /// switching framebuffers. The shared texture's outer edges are the regions'
  /// canvas edges, where mirroring is exact; where the two regions meet, both sides
  /// are margin (the inner sides of these strips never touch a canvas edge), which
  /// no output pixel reaches. Any other pair could put a canvas edge against its
  /// neighbour, so other strips get textures of their own.
  static func pack(
    _ strips: [(name: String, rect: PixelRect)], _ regions: [PixelRect], plan: BlurPlan
  )
    -> [[GaussianBlurEffect.Region]]
  {
    func member(_ i: Int, at atlas: PixelPoint = PixelPoint(x: 0, y: 0)) -> GaussianBlurEffect.Region {
      GaussianBlurEffect.Region(name: strips[i].name, strip: strips[i].rect, region: regions[i], atlas: atlas)
    }
    let index = { (name: String) in strips.firstIndex { $0.name == name } }
    var groups: [[GaussianBlurEffect.Region]] = []
    var packed = Set<Int>()
    // The sides that meet must be margin: at least `margin` beyond the strip.
    let margin = plan.marginPixels
    if let l = index("leading"), let t = index("trailing"),
      regions[l].y == regions[t].y && regions[l].height == regions[t].height,
      regions[l].maxX - strips[l].rect.maxX >= margin, strips[t].rect.x - regions[t].x >= margin
    {
      groups.append([member(l), member(t, at: PixelPoint(x: regions[l].width, y: 0))])
      packed.formUnion([l, t])
    }
    if let t = index("top"), let b = index("bottom"),
      regions[t].x == regions[b].x && regions[t].width == regions[b].width,
      regions[t].maxY - strips[t].rect.maxY >= margin, strips[b].rect.y - regions[b].y >= margin
    {
      groups.append([member(t), member(b, at: PixelPoint(x: 0, y: regions[t].height))])
      packed.formUnion([t, b])
    }
    for i in strips.indices where !packed.contains(i) { groups.append([member(i)]) }
    return groups
  }

  /// The image rectangles behind canvas rectangles (any position, mirrored): for
  /// each, the image columns and rows it maps to, and their neighbours, as runs,
  /// crossed. A bilinear tap clamped to the centre of an edge pixel of the canvas
  /// reads that pixel's image texel and, with weight 0, the next one in the
  /// image's own direction, which is not always behind the canvas rectangle; a
  /// texel no one uploaded may hold a NaN, and 0 times NaN is NaN.
  static func footprint(of canvasRects: [PixelRect], in mapping: MirrorCanvas) -> [PixelRect] {
    func runs(_ range: Range<Int>, count: Int, map: (Int) -> Int) -> [Range<Int>] {
      var used = [Bool](repeating: false, count: count)
      var remaining = count
      for i in range where remaining > 0 {
        let j = map(i)
        for k in max(0, j - 1)...min(count - 1, j + 1) where !used[k] {
          used[k] = true
          remaining -= 1
        }
      }
      var result: [Range<Int>] = []
      var start: Int?
      for i in 0...count {
        if i < count && used[i] {
          if start == nil { start = i }
        } else if let s = start {
          result.append(s..<i)
          start = nil
        }
      }
      return result
    }
    var rects: [PixelRect] = []
    for rect in canvasRects {
      let columns = runs(rect.x..<rect.maxX, count: mapping.imageSize.width, map: mapping.imageColumn)
      let rows = runs(rect.y..<rect.maxY, count: mapping.imageSize.height, map: mapping.imageRow)
      for r in rows {
        for c in columns {
          let piece = PixelRect(x: c.lowerBound, y: r.lowerBound, width: c.count, height: r.count)
          if !rects.contains(where: { $0.contains(piece) }) { rects.append(piece) }
        }
      }
    }
    return rects
  }
}

extension PixelRect {
  /// The rectangle moved by (dx, dy).
  func offsetBy(_ dx: Int, _ dy: Int) -> PixelRect {
    PixelRect(x: x + dx, y: y + dy, width: width, height: height)
  }

  /// The rectangle shrunk by `d` on every side (grown when negative).
  func insetBy(_ d: Int) -> PixelRect {
    PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
  }
}
