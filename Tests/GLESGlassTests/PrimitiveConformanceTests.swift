import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Each primitive on each backend against its formula, evaluated in Double from
/// the same binary16 source values the backends start from. The expectations
/// come from `Definition` (the mirror rule, the Gaussian and the sRGB curves
/// written from DESIGN.md), never from GLESGlass's own math. Outputs are 16-bit
/// sRGB, so the comparison sees past 8-bit rounding: within 3 of 65535 (the GPU
/// encodes with `pow`; float32 sums differ from Double in the last bits).
///
/// The bilinear primitives too: they were allowed 64 of 65535 on the GPU while a
/// shader's samplers were lowp, the GLSL ES default, and Mesa computed with what
/// a lookup returned in binary16 (a tap at 3/4 between 0 and 1 gave 0.74951, one
/// binary16 step low); `common.glsl` declares them highp.
@Suite("Primitives: each one against its formula, on each backend")
struct PrimitiveConformanceTests {
  /// Sources with every kind of pixel: colour noise and translucent alpha.
  static let source = ProceduralImages.noise(width: 23, height: 17, seed: 11, alpha: true)
  static let canvas = MirrorCanvas(
    canvasSize: PixelSize(width: 61, height: 40), imageOrigin: PixelPoint(x: 19, y: 11),
    imageSize: PixelSize(width: 23, height: 17))

  /// The premultiplied linear values both backends read, as Double, from the
  /// definition (`Definition`, no GLESGlass math): the sRGB decode of each 8-bit
  /// code in Double, to Float, times alpha (code / 255 in Float), rounded to binary16.
  static func linear(_ image: RGBAImage) -> [SIMD4<Double>] {
    guard case .eight(let codes) = image.samples else { preconditionFailure("an 8-bit source") }
    return (0..<image.size.pixelCount).map { i in
      let alpha = Float(codes[4 * i + 3]) / 255
      func premultiplied(_ code: UInt8) -> Double {
        Double(Float16(Float(Definition.srgbToLinear(Double(code) / 255)) * alpha))
      }
      return SIMD4(
        premultiplied(codes[4 * i]), premultiplied(codes[4 * i + 1]), premultiplied(codes[4 * i + 2]),
        Double(Float16(alpha)))
    }
  }

  /// A premultiplied linear value as the 16-bit output stage stores it.
  static func encode16(_ p: SIMD4<Double>) -> SIMD4<UInt16> {
    let codes = Definition.straightCodes(p, bits: 16)
    return SIMD4(UInt16(codes[0]), UInt16(codes[1]), UInt16(codes[2]), UInt16(codes[3]))
  }

  /// The mirror rule of DESIGN.md, from `Definition`.
  static func mirror(_ i: Int, _ n: Int) -> Int { Definition.mirror(i, count: n) }

  /// Compares an output with expected 16-bit values, within `tolerance` codes.
  static func check(_ output: RGBAImage, _ expected: (Int, Int) -> SIMD4<UInt16>, rect: PixelRect, tolerance: Int = 3) {
    var worst = 0
    var at = PixelPoint(x: -1, y: -1)
    for y in rect.y..<rect.maxY {
      for x in rect.x..<rect.maxX {
        let got = output.pixel16(x: x, y: y)
        let want = expected(x, y)
        // A fully transparent pixel has no colour.
        let channels = want[3] == 0 && got[3] == 0 ? 3..<4 : 0..<4
        for c in channels where abs(Int(got[c]) - Int(want[c])) > worst {
          worst = abs(Int(got[c]) - Int(want[c]))
          at = PixelPoint(x: x, y: y)
        }
      }
    }
    #expect(worst <= tolerance, "off by \(worst)/65535 at (\(at.x), \(at.y))")
  }

  /// The source image copied exactly into a transient image of the graph (a
  /// one-tap convolution), so that a primitive can read it with `.image`
  /// addressing: the copy's pixel (x, y) is canvas pixel (x + origin.x, y + origin.y).
  static func copyOfCanvas(into graph: inout RenderGraph, region: PixelRect) -> ImageHandle {
    let source = graph.importSource(
      PrimitiveConformanceTests.source, as: .linearHalf, rects: [PixelRect(size: PrimitiveConformanceTests.source.size)]
    )
    let copy = graph.makeTransient("copy", size: region.size, format: .linearHalf)
    graph.addPass(
      "copy",
      .convolve(
        Convolve(
          addressing: .canvas(canvas), axis: .horizontal, offset: PixelPoint(x: region.x, y: region.y), weights: [1])),
      inputs: [source], output: copy, rect: PixelRect(size: region.size))
    return copy
  }

  /// The canvas value at any integer position, mirrored (`Definition.imageIndex`).
  static func canvasValue(_ values: [SIMD4<Double>], _ x: Int, _ y: Int) -> SIMD4<Double> {
    values[imageRow(y) * canvas.imageSize.width + imageColumn(x)]
  }

  /// The image column canvas column `x` shows.
  static func imageColumn(_ x: Int) -> Int {
    Definition.imageIndex(
      canvasIndex: x, canvas: canvas.canvasSize.width, origin: canvas.imageOrigin.x, count: canvas.imageSize.width)
  }

  /// The image row canvas row `y` shows.
  static func imageRow(_ y: Int) -> Int {
    Definition.imageIndex(
      canvasIndex: y, canvas: canvas.canvasSize.height, origin: canvas.imageOrigin.y, count: canvas.imageSize.height)
  }

  /// The codes of `image` at `depth`, converted by the definition (8 -> 16 bits is
  /// `v * 65535 / 255`, 16 -> 8 bits `round(v * 255 / 65535)`), four per pixel.
  static func codes(_ image: RGBAImage, at depth: RGBAImage.Depth) -> [Int] {
    Definition.unitChannels(image).map { Definition.code($0, bits: depth == .eight ? 8 : 16) }
  }

  /// The codes stored for pixel (x, y) of `image`, at its own depth.
  static func stored(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Int] {
    let i = 4 * (y * image.width + x)
    switch image.samples {
    case .eight(let v): return (0..<4).map { Int(v[i + $0]) }
    case .sixteen(let v): return (0..<4).map { Int(v[i + $0]) }
    }
  }

  static func mirrorExtend(_ backend: TestBackend) throws {
    for (input, depth) in [
      (PrimitiveConformanceTests.source, RGBAImage.Depth.eight), (PrimitiveConformanceTests.source, .sixteen),
      (PrimitiveConformanceTests.source.converted(to: .sixteen), .eight),
      (PrimitiveConformanceTests.source.converted(to: .sixteen), .sixteen),
    ] {
      var graph = RenderGraph()
      let source = graph.importSource(input, as: .encoded(input.depth), rects: [PixelRect(size: input.size)])
      let output = graph.makeOutput(size: PrimitiveConformanceTests.canvas.canvasSize, format: .encoded(depth))
      let offset = PixelPoint(x: -5, y: 3)
      let all = PixelRect(size: PrimitiveConformanceTests.canvas.canvasSize)
      graph.addPass(
        "mirror", .mirrorExtend(MirrorExtend(canvas: PrimitiveConformanceTests.canvas, offset: offset)),
        inputs: [source], output: output,
        rect: all)
      let result = try backend.execute(graph)
      #expect(result.depth == depth)
      let expected = codes(input, at: depth)
      var mismatches = 0
      for y in 0..<all.height {
        for x in 0..<all.width {
          let i = 4 * (imageRow(y + offset.y) * input.width + imageColumn(x + offset.x))
          if stored(result, x, y) != Array(expected[i..<i + 4]) { mismatches += 1 }
        }
      }
      #expect(mismatches == 0, "\(input.depth.rawValue) -> \(depth.rawValue) bits: \(mismatches) pixels differ")
    }
  }

  /// The bound for the bilinear primitives on `backend`: every primitive's (see
  /// the suite's note).
  static func bilinearTolerance(_ backend: TestBackend) -> Int { 3 }

  static func downsample(_ backend: TestBackend) throws {
    let values = PrimitiveConformanceTests.linear(PrimitiveConformanceTests.source)
    let weights = [1.0, 3, 3, 1].map { $0 / 8 }
    // Regions reaching outside the canvas (arithmetic mirroring) and inside it,
    // and one over the whole canvas whose taps within half a pixel of its edges
    // clamp to the centres of edge pixels that are mirrored copies of the image
    // (where softpipe's own mirrored filtering read the neighbour texel).
    let regions = [
      (PixelPoint(x: -7, y: -5), PixelSize(width: 40, height: 30)),
      (PixelPoint(x: 4, y: 2), PixelSize(width: 40, height: 30)),
      (PixelPoint(x: -8, y: -6), PixelSize(width: 72, height: 52)),
    ]
    for (origin, size) in regions {
      var graph = RenderGraph()
      let source = graph.importSource(
        PrimitiveConformanceTests.source, as: .linearHalf,
        rects: [PixelRect(size: PrimitiveConformanceTests.source.size)])
      let half = PixelSize(width: size.width / 2, height: size.height / 2)
      let output = graph.makeOutput(size: half, format: .srgb16)
      graph.addPass(
        "down",
        .downsample(
          Downsample(
            addressing: .canvas(PrimitiveConformanceTests.canvas),
            map: PixelMap(scale: 2, offsetX: Double(origin.x), offsetY: Double(origin.y)))),
        inputs: [source], output: output, rect: PixelRect(size: half))
      let result = try backend.execute(graph)
      PrimitiveConformanceTests.check(
        result,
        { x, y in
          var sum = SIMD4<Double>.zero
          for j in 0..<4 {
            for i in 0..<4 {
              let cx = 2 * x - 1 + origin.x + i
              let cy = 2 * y - 1 + origin.y + j
              sum += weights[i] * weights[j] * PrimitiveConformanceTests.canvasValue(values, cx, cy)
            }
          }
          return PrimitiveConformanceTests.encode16(sum)
        }, rect: PixelRect(size: half), tolerance: bilinearTolerance(backend))
    }
    // Over an image of the graph, mirrored at its own edges.
    let region = PixelRect(x: 3, y: 1, width: 26, height: 18)
    var graph = RenderGraph()
    let copy = PrimitiveConformanceTests.copyOfCanvas(into: &graph, region: region)
    let half = PixelSize(width: 13, height: 9)
    let output = graph.makeOutput(size: half, format: .srgb16)
    graph.addPass(
      "down", .downsample(Downsample(addressing: .image, map: PixelMap(scale: 2, offsetX: 0, offsetY: 0))),
      inputs: [copy], output: output, rect: PixelRect(size: half))
    let result = try backend.execute(graph)
    PrimitiveConformanceTests.check(
      result,
      { x, y in
        var sum = SIMD4<Double>.zero
        for j in 0..<4 {
          for i in 0..<4 {
            let u = mirror(2 * x - 1 + i, region.width) + region.x
            let v = mirror(2 * y - 1 + j, region.height) + region.y
            sum += weights[i] * weights[j] * PrimitiveConformanceTests.canvasValue(values, u, v)
          }
        }
        return PrimitiveConformanceTests.encode16(sum)
      }, rect: PixelRect(size: half), tolerance: bilinearTolerance(backend))
  }

  static func convolve(_ backend: TestBackend) throws {
    let values = PrimitiveConformanceTests.linear(PrimitiveConformanceTests.source)
    // Taps 0 ... 7 of the Gaussian of sigma 1.7 (any symmetric kernel would do).
    let gaussian = Definition.gaussian(sigma: 1.7)
    let weights = (0...7).map { Float(gaussian.weights[gaussian.radius + $0]) }
    for axis in [Convolve.Axis.horizontal, .vertical] {
      for addressing in [SourceAddressing.canvas(PrimitiveConformanceTests.canvas), .image] {
        let region = PixelRect(x: -9, y: -4, width: 50, height: 33)
        var graph = RenderGraph()
        let input: ImageHandle
        let offset: PixelPoint
        if case .canvas = addressing {
          input = graph.importSource(
            PrimitiveConformanceTests.source, as: .linearHalf,
            rects: [PixelRect(size: PrimitiveConformanceTests.source.size)])
          offset = PixelPoint(x: region.x, y: region.y)
        } else {
          input = PrimitiveConformanceTests.copyOfCanvas(into: &graph, region: region)
          offset = PixelPoint(x: 0, y: 0)
        }
        let output = graph.makeOutput(size: region.size, format: .srgb16)
        graph.addPass(
          "convolve", .convolve(Convolve(addressing: addressing, axis: axis, offset: offset, weights: weights)),
          inputs: [input], output: output, rect: PixelRect(size: region.size))
        let result = try backend.execute(graph)
        func at(_ x: Int, _ y: Int) -> SIMD4<Double> {
          if case .canvas = addressing {
            return PrimitiveConformanceTests.canvasValue(values, x + region.x, y + region.y)
          }
          return PrimitiveConformanceTests.canvasValue(
            values, mirror(x, region.width) + region.x, mirror(y, region.height) + region.y)
        }
        PrimitiveConformanceTests.check(
          result,
          { x, y in
            var sum = Double(weights[0]) * at(x, y)
            for k in 1..<weights.count {
              let (dx, dy) = axis == .horizontal ? (k, 0) : (0, k)
              sum += Double(weights[k]) * (at(x + dx, y + dy) + at(x - dx, y - dy))
            }
            return PrimitiveConformanceTests.encode16(sum)
          }, rect: PixelRect(size: region.size))
      }
    }
  }

  static func upsample(_ backend: TestBackend) throws {
    let values = PrimitiveConformanceTests.linear(PrimitiveConformanceTests.source)
    let region = PixelRect(x: 2, y: 3, width: 21, height: 14)
    var graph = RenderGraph()
    let copy = PrimitiveConformanceTests.copyOfCanvas(into: &graph, region: region)
    let size = PixelSize(width: 45, height: 31)
    let output = graph.makeOutput(size: size, format: .srgb16)
    // An odd offset, as the last pass of a region with an odd origin has.
    let map = PixelMap(scale: 0.5, offsetX: -1.5, offsetY: 0.5)
    graph.addPass(
      "up", .upsample(Upsample(map: map)), inputs: [copy], output: output, rect: PixelRect(size: size))
    let result = try backend.execute(graph)
    PrimitiveConformanceTests.check(
      result,
      { x, y in
        func taps(_ t: Int, _ offset: Double, _ count: Int) -> [(Int, Double)] {
          let s = (Double(t) + 0.5) * 0.5 + offset - 0.5
          let i = Int(s.rounded(.down))
          let f = s - Double(i)
          return [(mirror(i, count), 1 - f), (mirror(i + 1, count), f)]
        }
        var sum = SIMD4<Double>.zero
        for (v, wy) in taps(y, map.offsetY, region.height) {
          for (u, wx) in taps(x, map.offsetX, region.width) {
            sum += wx * wy * PrimitiveConformanceTests.canvasValue(values, u + region.x, v + region.y)
          }
        }
        return PrimitiveConformanceTests.encode16(sum)
      }, rect: PixelRect(size: size), tolerance: bilinearTolerance(backend))
  }

  @Test("mirror_extend copies every canvas pixel from its mirrored image pixel, exactly (CPU)")
  func mirrorExtendCPU() throws { try Self.mirrorExtend(.cpu) }

  @Test(
    "mirror_extend copies every canvas pixel from its mirrored image pixel, exactly (GPU)",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func mirrorExtendGPU() throws { try Self.mirrorExtend(.gpu) }

  @Test("downsample is [1 3 3 1] / 8 per axis, over the mirrored canvas and over an image (CPU)")
  func downsampleCPU() throws { try Self.downsample(.cpu) }

  @Test(
    "downsample is [1 3 3 1] / 8 per axis, over the mirrored canvas and over an image (GPU)",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func downsampleGPU() throws { try Self.downsample(.gpu) }

  @Test("convolve is the symmetric kernel along its axis, over the canvas and over an image (CPU)")
  func convolveCPU() throws { try Self.convolve(.cpu) }

  @Test(
    "convolve is the symmetric kernel along its axis, over the canvas and over an image (GPU)",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func convolveGPU() throws { try Self.convolve(.gpu) }

  @Test("upsample is one bilinear tap, 3/4 and 1/4 per axis, mirrored at the image's edges (CPU)")
  func upsampleCPU() throws { try Self.upsample(.cpu) }

  @Test(
    "upsample is one bilinear tap, 3/4 and 1/4 per axis, mirrored at the image's edges (GPU)",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func upsampleGPU() throws { try Self.upsample(.gpu) }
}
