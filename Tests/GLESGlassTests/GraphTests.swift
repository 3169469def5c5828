import Testing

@testable import GLESGlass

@Suite("Render graph: compile stages and the lowering of the extension effect")
struct GraphTests {
  let image = RGBAImage(size: PixelSize(width: 8, height: 4), depth: .eight)

  func downsample() -> Primitive {
    .downsample(Downsample(addressing: .image, map: PixelMap(scale: 2, offsetX: 0, offsetY: 0)))
  }

  @Test("a pass whose result nothing reads is culled; lifetimes span first to last use")
  func cullAndLifetimes() throws {
    var graph = RenderGraph()
    let source = graph.importSource(image, as: .linearHalf, rects: [PixelRect(size: image.size)])
    let output = graph.makeOutput(size: PixelSize(width: 4, height: 2), format: .srgb8)
    let a = graph.makeTransient("a", size: PixelSize(width: 4, height: 2), format: .linearHalf)
    let unused = graph.makeTransient("unused", size: PixelSize(width: 4, height: 2), format: .linearHalf)
    let b = graph.makeTransient("b", size: PixelSize(width: 4, height: 2), format: .linearHalf)
    let all = PixelRect(x: 0, y: 0, width: 4, height: 2)
    graph.addPass("a", downsample(), inputs: [source], output: a, rect: all)
    graph.addPass("unused", downsample(), inputs: [source], output: unused, rect: all)
    graph.addPass(
      "b", .upsample(Upsample(map: PixelMap(scale: 1, offsetX: 0, offsetY: 0))), inputs: [a], output: b, rect: all)
    graph.addPass(
      "out", .upsample(Upsample(map: PixelMap(scale: 1, offsetX: 0, offsetY: 0))), inputs: [b], output: output,
      rect: all)
    let compiled = try graph.compile()
    #expect(compiled.passes.map(\.name) == ["a", "b", "out"])
    #expect(compiled.lifetimes[a] == 0...1)
    #expect(compiled.lifetimes[b] == 1...2)
    #expect(compiled.lifetimes[unused] == nil)
    #expect(compiled.writtenRects == [all])
  }

  @Test("a write that a later write to the same image follows stays when that image is read")
  func partialWritesKept() throws {
    var graph = RenderGraph()
    let source = graph.importSource(image, as: .linearHalf, rects: [PixelRect(size: image.size)])
    let output = graph.makeOutput(size: PixelSize(width: 4, height: 2), format: .srgb8)
    let left = PixelRect(x: 0, y: 0, width: 2, height: 2)
    let right = PixelRect(x: 2, y: 0, width: 2, height: 2)
    graph.addPass("left", downsample(), inputs: [source], output: output, rect: left)
    graph.addPass("right", downsample(), inputs: [source], output: output, rect: right)
    let compiled = try graph.compile()
    #expect(compiled.passes.map(\.name) == ["left", "right"])
    #expect(compiled.writtenRects == [left, right])
  }

  @Test("validation refuses reading before writing, writing outside the image, and the source as output")
  func validation() {
    var readEarly = RenderGraph()
    let output = readEarly.makeOutput(size: PixelSize(width: 4, height: 2), format: .srgb8)
    let never = readEarly.makeTransient("never", size: PixelSize(width: 4, height: 2), format: .linearHalf)
    readEarly.addPass(
      "x", downsample(), inputs: [never], output: output, rect: PixelRect(x: 0, y: 0, width: 4, height: 2))
    #expect(throws: GlassError.self) { try readEarly.compile() }

    var outside = RenderGraph()
    let source = outside.importSource(image, as: .linearHalf, rects: [])
    let out2 = outside.makeOutput(size: PixelSize(width: 4, height: 2), format: .srgb8)
    outside.addPass("x", downsample(), inputs: [source], output: out2, rect: PixelRect(x: 2, y: 0, width: 4, height: 2))
    #expect(throws: GlassError.self) { try outside.compile() }

    var intoSource = RenderGraph()
    let s = intoSource.importSource(image, as: .linearHalf, rects: [])
    _ = intoSource.makeOutput(size: PixelSize(width: 4, height: 2), format: .srgb8)
    intoSource.addPass("x", downsample(), inputs: [s], output: s, rect: PixelRect(x: 0, y: 0, width: 4, height: 2))
    #expect(throws: GlassError.self) { try intoSource.compile() }
  }

  @Test(
    "strips never overlap, and with the image they tile the canvas",
    arguments: [
      (PixelSize(width: 10, height: 6), [3, 4, 0, 0]), (PixelSize(width: 10, height: 6), [3, 4, 2, 5]),
      (PixelSize(width: 1, height: 1), [40, 0, 7, 0]), (PixelSize(width: 7, height: 5), [0, 0, 0, 9]),
    ])
  func stripsTile(size: PixelSize, insets: [Int]) {
    let effect = BackgroundExtensionEffect(
      .init(leadingPixels: insets[0], trailingPixels: insets[1], topPixels: insets[2], bottomPixels: insets[3]))
    let canvas = effect.canvasSize(for: size)
    var covered = [Int](repeating: 0, count: canvas.pixelCount)
    let rects =
      effect.strips(for: size).map(\.rect) + [
        PixelRect(x: insets[0], y: insets[2], width: size.width, height: size.height)
      ]
    for rect in rects {
      #expect(PixelRect(size: canvas).contains(rect))
      for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { covered[y * canvas.width + x] += 1 } }
    }
    #expect(covered.allSatisfy { $0 == 1 })
  }

  @Test(
    "work regions hold the strip plus the margin, and start at the canvas edges they touch",
    arguments: [0.5, 3, 8, 24, 64])
  func workRegions(sigma: Double) {
    let effect = BackgroundExtensionEffect(
      .init(leadingPixels: 50, trailingPixels: 37, topPixels: 11, bottomPixels: 0, sigmaPixels: sigma))
    let size = PixelSize(width: 101, height: 63)
    let canvas = effect.canvasSize(for: size)
    let plan = effect.blurPlan(for: size)
    let m = plan.marginPixels
    // Per axis: either the whole mirrored period [0, lcm(count, scale)), exact at
    // both ends, or the strip plus the margin, except at a canvas edge, where the
    // region starts or ends on the edge.
    func check(_ lo: Int, _ hi: Int, _ start: Int, _ end: Int, _ count: Int, _ what: String) {
      #expect((end - start) % plan.scale == 0, "\(what): whole coarse pixels")
      if start == 0 && end % count == 0 && end >= count {
        return
      }
      #expect(lo == 0 ? start == 0 : start <= lo - m, "\(what): low side")
      #expect(hi == count ? end >= count : end >= hi + m, "\(what): high side")
    }
    for (name, strip) in effect.strips(for: size) {
      let region = BackgroundExtensionEffect.workRegion(for: strip, canvas: canvas, plan: plan)
      check(strip.x, strip.maxX, region.x, region.maxX, canvas.width, "\(name) x")
      check(strip.y, strip.maxY, region.y, region.maxY, canvas.height, "\(name) y")
    }
  }

  @Test("a large sigma on a small canvas works on one mirrored period, not the whole margin")
  func periodicRegion() {
    let effect = BackgroundExtensionEffect(
      .init(leadingPixels: 300, trailingPixels: 0, topPixels: 0, bottomPixels: 0, sigmaPixels: 1000))
    let size = PixelSize(width: 1, height: 1)
    let plan = effect.blurPlan(for: size)
    let strip = effect.strips(for: size)[0].rect
    let region = BackgroundExtensionEffect.workRegion(for: strip, canvas: effect.canvasSize(for: size), plan: plan)
    #expect(plan.marginPixels > 4000)
    #expect(region.height == plan.scale, "one row of canvas, one coarse pixel of rows")
    #expect(region.width <= 301 * plan.scale)
  }

  @Test("strips that span the same rows or columns share textures, in parts that do not overlap", arguments: [2.0, 24])
  func packing(sigma: Double) {
    let effect = BackgroundExtensionEffect(
      .init(leadingPixels: 50, trailingPixels: 37, topPixels: 11, bottomPixels: 9, sigmaPixels: sigma))
    let size = PixelSize(width: 101, height: 63)
    let canvas = effect.canvasSize(for: size)
    let plan = effect.blurPlan(for: size)
    let strips = effect.strips(for: size)
    let regions = strips.map { BackgroundExtensionEffect.workRegion(for: $0.rect, canvas: canvas, plan: plan) }
    let groups = BackgroundExtensionEffect.pack(strips, regions, plan: plan)
    #expect(groups.map { $0.map(\.name) } == [["leading", "trailing"], ["top", "bottom"]])
    for group in groups {
      let atlas = GaussianBlurEffect.atlasSize(group)
      let parts = group.map { $0.atlasRect(0) }
      #expect(parts.allSatisfy { PixelRect(size: atlas).contains($0) })
      #expect(parts[0].intersection(parts[1]).isEmpty)
      for member in group {
        #expect(member.atlas.x % plan.scale == 0 && member.atlas.y % plan.scale == 0)
      }
    }
  }

  @Test("the uploaded footprint covers every image pixel a region maps to")
  func footprint() {
    let canvas = MirrorCanvas(
      canvasSize: PixelSize(width: 60, height: 20), imageOrigin: PixelPoint(x: 25, y: 3),
      imageSize: PixelSize(width: 9, height: 11))
    let region = PixelRect(x: -30, y: -5, width: 50, height: 12)
    let rects = BackgroundExtensionEffect.footprint(of: [region], in: canvas)
    for y in region.y..<region.maxY {
      for x in region.x..<region.maxX {
        let p = PixelRect(x: canvas.imageColumn(x), y: canvas.imageRow(y), width: 1, height: 1)
        #expect(rects.contains { $0.contains(p) }, "canvas (\(x), \(y))")
      }
    }
  }

  @Test("sigma 0 lowers to exact mirrored copies; no blur pass", arguments: [0.0, 2.0, 24.0])
  func lowering(sigma: Double) throws {
    let effect = BackgroundExtensionEffect(.init(leadingPixels: 8, trailingPixels: 8, sigmaPixels: sigma))
    let compiled = try effect.lower(image, depth: .eight).compile()
    let names = Set(compiled.passes.map(\.primitive.name))
    if sigma == 0 {
      #expect(names == ["mirror_extend"])
    } else if sigma < 2 * BlurPlan.minimumCoarseSigma {
      #expect(names == ["convolve"])
    } else {
      #expect(names == ["downsample", "convolve", "upsample"])
    }
    #expect(compiled.graph.copies.count == 1)
  }
}

@Suite("GLES variants")
struct GLESVariantTests {
  @Test("the accuracy cases named inside do exercise the clamp-only canvas mirroring", arguments: [5.0, 8, 24])
  func insideCanvasIsCovered(sigma: Double) throws {
    let image = RGBAImage(size: PixelSize(width: 200, height: 64), depth: .eight)
    let effect = BackgroundExtensionEffect(.init(leadingPixels: 40, trailingPixels: 40, sigmaPixels: sigma))
    let compiled = try effect.lower(image, depth: .eight).compile()
    var inside = 0
    for pass in compiled.passes {
      if case .downsample(let p) = pass.primitive, case .canvas(let canvas) = p.addressing,
        GLESState.tapsInsideCanvas(pass.rect, p.map, canvas)
      {
        inside += 1
      }
    }
    #expect(inside == 2, "both strips' first halving reads inside the canvas")
  }
}
