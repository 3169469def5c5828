import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The `Effect` protocol and its effects taken one by one, outside a scene: the
/// one Gaussian blur lowering against the exact blur, validation, the input
/// margin each declares, and where each writes.
@Suite("Effects")
struct EffectTests {
  /// A graph that blurs the whole of `image` by `sigma` with `GaussianBlurEffect`
  /// into an 8-bit output.
  static func blurGraph(_ image: RGBAImage, sigma: Double) -> RenderGraph {
    var graph = RenderGraph()
    let source = graph.importSource(image, as: .linearHalf, rects: [PixelRect(size: image.size)])
    let output = graph.makeOutput(size: image.size, format: .encoded(.eight))
    GaussianBlurEffect(sigmaPixels: sigma).lower([source], to: EffectDestination(output, blend: false), into: &graph)
    return graph
  }

  /// Sigmas across the plans: direct (0.8, 2.5), one level down (6) and two (13);
  /// 0 is the identity.
  static let sigmas = [0, 0.8, 2.5, 6, 13]

  /// 64x48 (a multiple of every plan's scale here) of noise with alpha: premultiplied
  /// blurring and the mirrored edges both show.
  static let image = ProceduralImages.noise(width: 64, height: 48, seed: 7, alpha: true)

  static func checkBlur(sigma: Double, on backend: TestBackend) throws {
    let output = try backend.execute(Self.blurGraph(Self.image, sigma: sigma))
    let exact = ExactOracle.gaussianBlur(Self.image, sigma: sigma)
    let c = try ImageComparison(output, exact)
    // The blur contract: every output within 1/255 of the exact blur.
    #expect(c.maxDifference <= 1, "sigma \(sigma) on \(backend): \(c.summary)")
  }

  @Test("the one blur lowering blurs a whole image within 1/255 of the exact Gaussian on the CPU", arguments: sigmas)
  func blurCPU(sigma: Double) throws {
    try Self.checkBlur(sigma: sigma, on: .cpu)
  }

  @Test(
    "the one blur lowering blurs a whole image within 1/255 of the exact Gaussian on the GPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: sigmas)
  func blurGPU(sigma: Double) throws {
    try Self.checkBlur(sigma: sigma, on: .gpu)
  }

  @Test("a blur of sigma 0 is its input, with no pass; a blur declares its plan's margin")
  func blurIdentityAndMargin() throws {
    var graph = RenderGraph()
    let source = graph.importSource(Self.image, as: .linearHalf, rects: [PixelRect(size: Self.image.size)])
    let same = GaussianBlurEffect(sigmaPixels: 0).lower(source, name: "frost", into: &graph)
    #expect(same == source)
    #expect(graph.passes.isEmpty)
    let blurred = GaussianBlurEffect(sigmaPixels: 6).lower(source, name: "frost", into: &graph)
    #expect(blurred != source)
    #expect(graph[blurred].descriptor.size == Self.image.size)
    for sigma in [0.5, 3, 6, 24, 100] {
      let effect = GaussianBlurEffect(sigmaPixels: sigma)
      #expect(
        effect.inputMarginPixels(for: PixelSize(width: 1, height: 1)) == BlurPlan(sigmaPixels: sigma).marginPixels)
      // The margin holds the kernel: at least 4 sigma.
      #expect(Double(effect.inputMarginPixels(for: PixelSize(width: 1, height: 1))) >= 4 * sigma)
    }
  }

  @Test("effects refuse parameters out of range, naming the parameter")
  func validation() throws {
    for sigma in [-1, .nan, .infinity, 2001] {
      #expect(throws: GlassError.self) { try GaussianBlurEffect(sigmaPixels: sigma).validate() }
    }
    try GaussianBlurEffect(sigmaPixels: 2000).validate()
    let error = try #require(throws: GlassError.self) { try GaussianBlurEffect(sigmaPixels: -1).validate() }
    #expect(error.code == .invalidParameter && error.message.hasPrefix("sigma is -1 px, out of range"))

    let circle = ShapeGeometry(ellipseCenter: SIMD2(20, 20), halfSize: SIMD2(10, 10))
    var member = GlassMember(shape: circle)
    member.refraction = 20
    try GlassEffect(GlassComposite(members: [member], backdropOrigin: PixelPoint(x: 0, y: 0))).validate()
    let tooMany = Array(repeating: member, count: GlassComposite.maximumMembers + 1)
    var badSource = member
    badSource.source = GlassComposite.maximumSources
    var badBevel = member
    badBevel.bevelWidth = .nan
    for members in [[], tooMany, [badSource], [member, badBevel]] {
      let effect = GlassEffect(GlassComposite(members: members, backdropOrigin: PixelPoint(x: 0, y: 0)))
      #expect(throws: GlassError.self) { try effect.validate() }
    }
    let badRadius = GlassEffect(
      GlassComposite(members: [member, member], blendRadius: -1, backdropOrigin: PixelPoint(x: 0, y: 0)))
    #expect(throws: GlassError.self) { try badRadius.validate() }
  }

  @Test("glass declares its deepest pull as its margin: red's with dispersion, plus two pixels")
  func glassMargin() {
    let circle = ShapeGeometry(ellipseCenter: SIMD2(20, 20), halfSize: SIMD2(10, 10))
    var a = GlassMember(shape: circle)
    a.refraction = 20
    var b = a
    b.refraction = 30
    b.dispersion = 0.06
    let size = PixelSize(width: 1, height: 1)
    #expect(
      GlassEffect(GlassComposite(members: [a], backdropOrigin: PixelPoint(x: 0, y: 0))).inputMarginPixels(for: size)
        == 22)
    // 30 * 1.06 + 2 = 33.8, rounded up.
    #expect(
      GlassEffect(GlassComposite(members: [a, b], backdropOrigin: PixelPoint(x: 0, y: 0))).inputMarginPixels(for: size)
        == 34)
  }

  /// Glass lowered with its destination's origin moved by (dx, dy) renders as the
  /// same glass moved by hand, and writes nothing outside the bounds.
  @Test("an effect's pixels land at its destination's origin, and only inside its bounds")
  func destination() throws {
    let size = PixelSize(width: 64, height: 48)
    let backdrop = ProceduralImages.landscape(width: 96, height: 80)
    func render(
      center: SIMD2<Float>, backdropOrigin: PixelPoint, origin: PixelPoint, bounds: PixelRect?
    ) throws
      -> RGBAImage
    {
      var member = GlassMember(shape: ShapeGeometry(ellipseCenter: center, halfSize: SIMD2(14, 11)))
      member.bevelWidth = 6
      member.refraction = 8
      member.rimWidth = 2
      member.rimOpacity = 0.7
      member.light = SIMD2(-0.7071, -0.7071)
      member.shadowOpacity = 0.2
      member.shadowSigma = 4
      member.shadowOffset = SIMD2(0, 3)
      var graph = RenderGraph()
      let source = graph.importSource(backdrop, as: .linearHalf, rects: [PixelRect(size: backdrop.size)])
      let output = graph.makeOutput(size: size, format: .encoded(.eight))
      // A grey canvas, the glass over it, encoded.
      let canvas = graph.makeTransient("canvas", size: size, format: .linearHalf)
      let whole = PixelRect(size: size)
      let rect = ShapeGeometry(
        roundedBoxCenter: SIMD2(32, 24), halfSize: SIMD2(32, 24), radii: .zero)
      graph.addPass(
        "grey", .fill(FillShape(shape: rect, paint: .solid(SIMD4(0.2, 0.2, 0.2, 1)))), inputs: [], output: canvas,
        rect: whole)
      GlassEffect(GlassComposite(members: [member], backdropOrigin: backdropOrigin)).lower(
        [source], to: EffectDestination(canvas, origin: origin, bounds: bounds, blend: true), into: &graph)
      graph.addPass(
        "encode", .copy(Copy(offset: PixelPoint(x: 0, y: 0))), inputs: [canvas], output: output, rect: whole)
      return try TestBackend.cpu.execute(graph)
    }
    let byHand = try render(
      center: SIMD2(30, 22), backdropOrigin: PixelPoint(x: -16, y: -16), origin: PixelPoint(x: 0, y: 0), bounds: nil)
    let moved = try render(
      center: SIMD2(20, 17), backdropOrigin: PixelPoint(x: -26, y: -21), origin: PixelPoint(x: 10, y: 5), bounds: nil)
    let c = try ImageComparison(byHand, moved)
    #expect(c.maxDifference == 0, "moved by the destination's origin against moved by hand: \(c.summary)")
    let grey = try render(
      center: SIMD2(30, 22), backdropOrigin: PixelPoint(x: -16, y: -16), origin: PixelPoint(x: 0, y: 0),
      bounds: PixelRect(x: 0, y: 0, width: 0, height: 0))
    #expect(try ImageComparison(byHand, grey).maxDifference > 20, "the glass draws something")
    // Bounded to the left half: the left half as before, the right half untouched.
    let half = PixelRect(x: 0, y: 0, width: 32, height: 48)
    let bounded = try render(
      center: SIMD2(30, 22), backdropOrigin: PixelPoint(x: -16, y: -16), origin: PixelPoint(x: 0, y: 0), bounds: half)
    for y in 0..<size.height {
      for x in 0..<size.width {
        let expected = x < 32 ? byHand.pixel16(x: x, y: y) : grey.pixel16(x: x, y: y)
        #expect(bounded.pixel16(x: x, y: y) == expected, "pixel (\(x), \(y))")
        if bounded.pixel16(x: x, y: y) != expected { return }
      }
    }
  }
}
