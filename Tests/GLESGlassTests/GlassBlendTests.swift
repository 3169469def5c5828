import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// `GlassEffectContainer(spacing:)`: glass whose edges come within the spacing
/// blends into one body (Math/GlassProfile.swift); farther apart it renders as it
/// would alone.
@Suite("Glass: blending in a container")
struct GlassBlendTests {
  static let photo = ProceduralImages.landscape(width: 200, height: 80)
  static let images = ["photo": photo]

  static func scene(
    _ layers: [Layer], width: Double = 400, height: Double = 160,
    background: Background = .image(
      "photo", contentMode: .fill)
  ) -> Scene {
    Scene(size: PointSize(width: width, height: height), scale: 1, background: background, layers: layers)
  }

  static func capsule(
    x: Double, y: Double = 40, width: Double = 120, height: Double = 80, _ glass: Glass = .regular,
    optics: [String: Double] = [:]
  )
    -> GlassLayer
  {
    GlassLayer(
      glass: glass, shape: .capsule, frame: PointRect(x: x, y: y, width: width, height: height),
      optics: GlassOptics.Overrides(optics))
  }

  /// The frosts `apart` is checked at: none, a direct blur of 3 px, the
  /// default (7 pt, two levels down the pyramid) and 20 pt (three levels down).
  static let frosts = [0.0, 3, 7, 20]

  // MARK: Separate when apart

  /// Two capsules far apart, spacing 40, with a frost of `frost` points: in one
  /// container, and each in a container of its own (far enough that neither
  /// reads the other's pixels). The second capsule sits at odd pixels on both
  /// axes, so that the backdrop it blurs alone starts elsewhere than the one it
  /// blurs with the first: a frost whose pyramid followed the region it blurs
  /// differed there by 1/255 at 7 and 20 pt.
  static func apart(frost: Double, on backend: TestBackend) throws -> (together: RGBAImage, separate: RGBAImage) {
    let a = capsule(x: 20, y: 36, optics: ["frost": frost])
    let b = capsule(x: 293, y: 43, optics: ["frost": frost])
    let together = try backend.render(
      scene([.container(GlassContainer(spacing: 40, glass: [a, b]))], width: 430), images: Self.images)
    let separate = try backend.render(
      scene(
        [.container(GlassContainer(spacing: 40, glass: [a])), .container(GlassContainer(spacing: 40, glass: [b]))],
        width: 430), images: Self.images)
    return (together, separate)
  }

  /// Two capsules 42 pt apart (beyond the spacing of 40 by two pixels): the same
  /// with spacing 40 as with spacing 0, where nothing blends (one backdrop, one
  /// frost, blurred over the same region either way).
  static func justApart(on backend: TestBackend) throws -> (blending: RGBAImage, plain: RGBAImage) {
    let glass = [capsule(x: 40), capsule(x: 202)]
    return (
      try backend.render(scene([.container(GlassContainer(spacing: 40, glass: glass))]), images: Self.images),
      try backend.render(scene([.container(GlassContainer(spacing: 0, glass: glass))]), images: Self.images)
    )
  }

  @Test(
    "on the CPU, glass farther apart than the spacing renders exactly as it does alone, at every frost",
    arguments: frosts)
  func apartOnCPU(frost: Double) throws {
    let (together, separate) = try Self.apart(frost: frost, on: .cpu)
    let c = try ImageComparison(together, separate)
    #expect(c.maxDifference == 0, "frost \(frost): \(c.summary), worst at \(String(describing: c.worstPixel))")
  }

  @Test("on the CPU, glass just beyond the spacing renders exactly as with no spacing")
  func justApartOnCPU() throws {
    let (blending, plain) = try Self.justApart(on: .cpu)
    let d = try ImageComparison(blending, plain)
    #expect(d.maxDifference == 0, "\(d.summary), worst at \(String(describing: d.worstPixel))")
  }

  @Test(
    "on the GPU, glass farther apart than the spacing renders within 1/255 of itself alone, at every frost",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: frosts)
  func apartOnGPU(frost: Double) throws {
    let (together, separate) = try Self.apart(frost: frost, on: .gpu)
    let c = try ImageComparison(together, separate)
    #expect(c.maxDifference <= 1, "frost \(frost): \(c.summary)")
  }

  @Test(
    "on the GPU, glass just beyond the spacing renders within 1/255 of itself with no spacing",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func justApartOnGPU() throws {
    let (blending, plain) = try Self.justApart(on: .gpu)
    let d = try ImageComparison(blending, plain)
    #expect(d.maxDifference <= 1, "\(d.summary)")
  }

  @Test("shapes are grouped by the gap between their edges, measured on the shapes themselves")
  func groups() {
    func circle(_ x: Float, _ y: Float, _ r: Float) -> ShapeGeometry {
      ShapeGeometry(ellipseCenter: SIMD2(x, y), halfSize: SIMD2(r, r))
    }
    // Two circles of radius 30 whose centres are 100 apart on a diagonal: the gap
    // is 40, though their boxes are only 10.7 apart on each axis.
    let a = circle(0, 0, 30)
    let b = circle(70.71, 70.71, 30)
    #expect(abs(a.separation(from: b) - 40) < 0.05)
    #expect(GlassEffect.blendGroups([a, b], blendRadius: 38.9) == [[0], [1]])
    #expect(GlassEffect.blendGroups([a, b], blendRadius: 39.1) == [[0, 1]])
    // Overlapping shapes are one body even with no spacing; a chain links.
    let c = circle(130, 130, 30)
    let d = circle(400, 0, 30)
    #expect(GlassEffect.blendGroups([a, d, b, c], blendRadius: 50) == [[0, 2, 3], [1]])
    #expect(GlassEffect.blendGroups([a, circle(50, 0, 30)], blendRadius: 0) == [[0, 1]])
    // A capsule beside a rounded rectangle: the straight edges' gap.
    let capsule = ShapeGeometry(roundedBoxCenter: SIMD2(60, 20), halfSize: SIMD2(60, 20), radii: SIMD4(repeating: 20))
    let rect = ShapeGeometry(roundedBoxCenter: SIMD2(60, 72.5), halfSize: SIMD2(60, 20), radii: SIMD4(repeating: 8))
    #expect(abs(capsule.separation(from: rect) - 12.5) < 0.05)
  }

  @Test("glass on top of the same glass folds into it exactly, body and shadow: where matched glass grows from")
  func coincident() throws {
    let a = Self.capsule(x: 60)
    var b = a
    b.glass = Glass(.regular, tint: .orange)
    b.optics = GlassOptics.Overrides(["shadowOpacity": 0.3])
    let one = try TestBackend.cpu.render(
      Self.scene([.container(GlassContainer(spacing: 40, glass: [a]))]), images: Self.images)
    let two = try TestBackend.cpu.render(
      Self.scene([.container(GlassContainer(spacing: 40, glass: [a, b]))]), images: Self.images)
    #expect(one == two)
    // Moved by a point, it shows.
    b.frame.x += 1
    let moved = try TestBackend.cpu.render(
      Self.scene([.container(GlassContainer(spacing: 40, glass: [a, b]))]), images: Self.images)
    #expect(moved != one)
  }

  // MARK: No swelling

  /// Glass that shows its coverage: white tint over black, nothing else.
  static func flat(_ frame: PointRect, _ shape: GLESGlass.Shape) -> GlassLayer {
    GlassLayer(
      glass: Glass(.regular, tint: .white), shape: shape, frame: frame,
      optics: GlassOptics.Overrides([
        "tintIntensity": 1, "rimWidth": 0, "shadowOpacity": 0, "lightening": 0, "saturation": 1, "dimming": 0,
        "contourOpacity": 0,
      ]))
  }

  /// Coverage of each pixel, from the red channel (white on black).
  static func coverage(_ image: RGBAImage) -> [Double] {
    guard case .eight(let v) = image.samples else { return [] }
    return stride(from: 0, to: v.count, by: 4).map { Definition.srgbToLinear(Double(v[$0]) / 255) }
  }

  /// Checks that the rendered silhouette is the plain union of `shapes` within
  /// 1 px, by the oracle's distances; returns the coverage.
  @discardableResult
  static func checkSilhouette(
    _ layers: [GlassLayer], spacing: Double, on backend: TestBackend, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [Double] {
    let s = scene([.container(GlassContainer(spacing: spacing, glass: layers))], background: .fill(.color(.black)))
    let image = try backend.render(s, images: Self.images)
    let cov = coverage(image)
    let oracles = layers.map { ShapeOracle($0.shape, in: $0.frame, scale: 1) }
    var wrong: [String] = []
    for y in 0..<image.height {
      for x in 0..<image.width {
        let d = oracles.map { $0.distance(Double(x) + 0.5, Double(y) + 0.5) }.min() ?? 1
        let inside = cov[y * image.width + x] >= 0.5
        if (d < -1 && !inside) || (d > 1 && inside) { wrong.append("(\(x), \(y)) d \(d)") }
      }
    }
    #expect(
      wrong.isEmpty, "\(label): \(wrong.count) pixels off the union by over 1 px: \(wrong.prefix(5))",
      sourceLocation: sourceLocation)
    return cov
  }

  static func noSwelling(on backend: TestBackend) throws {
    // A circle nested in a capsule, near its edge.
    try checkSilhouette(
      [
        flat(PointRect(x: 40, y: 30, width: 300, height: 100), .capsule),
        flat(PointRect(x: 250, y: 45, width: 70, height: 70), .circle),
      ], spacing: 40, on: backend, "nested")
    // Two capsules overlapping by half their width.
    try checkSilhouette(
      [
        flat(PointRect(x: 40, y: 40, width: 160, height: 80), .capsule),
        flat(PointRect(x: 120, y: 40, width: 160, height: 80), .capsule),
      ], spacing: 40, on: backend, "capsules overlapping by half")
    // Two circles overlapping by half their diameter.
    try checkSilhouette(
      [
        flat(PointRect(x: 100, y: 30, width: 100, height: 100), .circle),
        flat(PointRect(x: 150, y: 30, width: 100, height: 100), .circle),
      ], spacing: 40, on: backend, "circles overlapping by half")
    // The planted contrast: two circles 12 pt apart do grow a neck, so the oracle
    // sees a blend where there is one.
    let cov = try coverage(
      backend.render(
        scene(
          [
            .container(
              GlassContainer(
                spacing: 40,
                glass: [
                  flat(PointRect(x: 100, y: 30, width: 100, height: 100), .circle),
                  flat(PointRect(x: 212, y: 30, width: 100, height: 100), .circle),
                ]))
          ], background: .fill(.color(.black))), images: Self.images))
    #expect(cov[80 * 400 + 206] > 0.99, "no neck between circles 12 pt apart with spacing 40")
  }

  @Test("on the CPU, nested and half-overlapping glass keeps the outline of the plain union within 1 px")
  func noSwellingOnCPU() throws {
    try Self.noSwelling(on: .cpu)
  }

  @Test(
    "on the GPU, nested and half-overlapping glass keeps the outline of the plain union within 1 px",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func noSwellingOnGPU() throws {
    try Self.noSwelling(on: .gpu)
  }

  // MARK: No seams

  /// Two capsules 8 pt apart, spacing 40: one body with a neck.
  static func necked(_ a: Glass = .regular, _ b: Glass = .regular, optics: [String: Double] = [:]) -> Scene {
    let glass = [capsule(x: 60, a), capsule(x: 188, b)].map {
      var layer = $0
      layer.optics = GlassOptics.Overrides(optics)
      return layer
    }
    return scene([.container(GlassContainer(spacing: 40, glass: glass))], background: .fill(.color(.black)))
  }

  /// The largest step of a row's value between neighbouring columns, inside
  /// `columns`.
  static func largestStep(_ values: [Double], _ columns: Range<Int>) -> Double {
    columns.dropFirst().map { abs(values[$0] - values[$0 - 1]) }.max() ?? 0
  }

  @Test("across a neck the rim is one continuous band and the lens one continuous field")
  func noSeams() throws {
    // The rim alone, white on black: along the top of the body, the brightest
    // rim pixel in each column, from the first cap to the last.
    let rim = try TestBackend.cpu.render(
      Self.necked(optics: ["shadowOpacity": 0, "lightening": 0, "frost": 0, "oppositeRimOpacity": 0.7]),
      images: Self.images)
    guard case .eight(let v) = rim.samples else { return }
    let w = rim.width
    let top: [Double] = (0..<w).map { (x: Int) -> Double in
      (0..<80).map { (y: Int) -> Double in Double(v[(y * w + x) * 4 + 1]) }.max() ?? 0
    }
    // The neck lies between the capsules, x 180 ... 188; the caps' own rim
    // curves over 60 ... 100 and 268 ... 308.
    let neck = Self.largestStep(top, 168..<201)
    let caps = max(Self.largestStep(top, 62..<100), Self.largestStep(top, 270..<306))
    #expect(top[184] > 100, "the neck has a rim on top: \(top[176..<196])")
    #expect(neck <= caps, "the rim steps by \(neck) across the neck, by \(caps) at most round the caps")
    // The lens: over a diagonal ramp, the bent backdrop inside the body along
    // the row 6 px under the neck's top edge changes smoothly.
    let ramp = Background.fill(
      .linearGradient(Gradient(colors: [.black, .white]), startPoint: .topLeading, endPoint: .bottomTrailing))
    var lensScene = Self.necked(optics: ["shadowOpacity": 0, "rimWidth": 0, "lightening": 0, "frost": 0])
    lensScene.background = ramp
    let lens = try TestBackend.cpu.render(lensScene, images: Self.images)
    guard case .eight(let l) = lens.samples else { return }
    let white = Glass(.regular, tint: .white)
    let field = Self.coverage(
      try TestBackend.cpu.render(
        Self.necked(white, white, optics: ["tintIntensity": 1, "shadowOpacity": 0, "rimWidth": 0, "lightening": 0]),
        images: Self.images))
    // The neck's top edge at its centre column.
    guard let edge = (0..<160).first(where: { field[$0 * w + 184] >= 0.5 }) else {
      Issue.record("no neck")
      return
    }
    let row = edge + 6
    let values = (0..<w).map { Double(l[(row * w + $0) * 4 + 1]) }
    let inside = (150..<220).filter { field[row * w + $0] > 0.999 }
    let step = Self.largestStep(values, (inside.first ?? 0)..<(inside.last ?? 0))
    let flat = Self.largestStep(values, 120..<150)
    #expect(step <= max(flat, 1) * 3, "the lens steps by \(step) across the neck, the ramp by \(flat) per pixel")
    print("neck: rim step \(neck) (caps \(caps)); lens step \(step) (ramp \(flat)) on row \(row)")
  }

  // MARK: Appearance

  @Test("glass of two tints blends its colour across the neck")
  func crossFade() throws {
    let image = try TestBackend.cpu.render(
      Self.necked(Glass(.regular, tint: .red), Glass(.regular, tint: .blue), optics: ["rimWidth": 0]),
      images: Self.images)
    guard case .eight(let v) = image.samples else { return }
    let w = image.width
    let red = (150..<220).map { Double(v[(80 * w + $0) * 4]) }
    let blue = (150..<220).map { Double(v[(80 * w + $0) * 4 + 2]) }
    // Red falls and blue rises monotonically (within a code) across the neck.
    #expect(zip(red, red.dropFirst()).allSatisfy { $1 <= $0 + 1 }, "\(red)")
    #expect(zip(blue, blue.dropFirst()).allSatisfy { $1 >= $0 - 1 }, "\(blue)")
    #expect(red.first! - red.last! > 60 && blue.last! - blue.first! > 60, "\(red) \(blue)")
  }

  @Test(
    "the GPU renders blended glass within the scene parity bar of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func parity() throws {
    var clear = Self.capsule(x: 176, y: 60, width: 90, height: 60, .clear)
    clear.shape = .circle
    let scenes = [
      Self.scene(
        [
          .container(
            GlassContainer(
              spacing: 40, glass: [Self.capsule(x: 40), clear, Self.capsule(x: 250, Glass(.regular, tint: .orange))]))
        ]),
      Self.necked(Glass(.regular, tint: .red), Glass(.regular, tint: .blue)),
    ]
    for (index, scene) in scenes.enumerated() {
      let gpu = try TestBackend.gpu.render(scene, images: Self.images)
      let cpu = try TestBackend.cpu.render(scene, images: Self.images)
      SceneRenderingTests.bar.check(try ImageComparison(gpu, cpu), "blend scene \(index)")
    }
  }

  @Test("a body of more shapes than one pass takes is an error naming the container")
  func tooMany() throws {
    let glass = (0..<17).map { Self.capsule(x: 10 + Double($0) * 20, width: 30) }
    let scene = Self.scene([.container(GlassContainer(spacing: 10, glass: glass))], width: 400)
    let error = #expect(throws: GlassError.self) { try TestBackend.cpu.render(scene, images: Self.images) }
    #expect(error?.jsonPath == "layers[0]", "\(String(describing: error))")
    #expect(error?.message.contains("at most 16") == true, "\(String(describing: error))")
  }
}

/// A blended group's pass is cut into cells that draw only the members that can
/// change them (`GlassEffect.cells`): the pixels are those of the whole pass.
@Suite("Glass: a group's pass cut into cells")
struct GlassCellTests {
  static let photo = ProceduralImages.landscape(width: 160, height: 90)

  /// A member of regular glass with its shadow, at scale 2, offset as given.
  static func member(_ shape: ShapeGeometry, shadowOffset: SIMD2<Float> = SIMD2(0, 12)) -> GlassMember {
    var m = GlassEffect.member(
      Glass(.regular), optics: GlassOptics(.regular), shape: shape, frame: PointRect(x: 0, y: 0, width: 1, height: 1),
      scale: 2)
    m.shadowOffset = shadowOffset
    return m
  }

  static func capsule(_ x: Float, _ y: Float, _ w: Float = 200, _ h: Float = 120) -> ShapeGeometry {
    ShapeGeometry(roundedBoxCenter: SIMD2(x, y), halfSize: SIMD2(w / 2, h / 2), radii: SIMD4(repeating: h / 2))
  }

  /// Groups that cut differently: eight capsules in two rows (the benchmark's),
  /// a chain of circles closer than the radius (left-out members fold before the
  /// first kept one), nested and half-overlapping shapes of every kind, shadows
  /// cast far off, and a neck across a gap wider than two cells, away from both
  /// shapes' own bounds (the blend's dip, `GlassComposite.memberBodyBounds`).
  static let groups: [(name: String, members: [GlassMember], blendRadius: Float)] = [
    ("a neck across a 40 px gap", [member(capsule(200, 200)), member(capsule(440, 200))], 80),
    (
      "eight capsules", (0..<8).map { i in member(capsule(130 + Float(i % 4) * 220, 100 + Float(i / 4) * 140)) },
      40
    ),
    (
      "a chain of circles",
      (0..<6).map { i in
        member(ShapeGeometry(ellipseCenter: SIMD2(80 + Float(i) * 70, 200), halfSize: SIMD2(30, 30)))
      }, 40
    ),
    (
      "every kind, nested and overlapping",
      [
        member(ShapeGeometry(ellipseCenter: SIMD2(150, 150), halfSize: SIMD2(110, 70)), shadowOffset: SIMD2(30, 40)),
        member(ShapeGeometry(ellipseCenter: SIMD2(150, 150), halfSize: SIMD2(40, 40))),
        member(
          ShapeGeometry(
            roundedBoxCenter: SIMD2(330, 160), halfSize: SIMD2(90, 60), radii: SIMD4(10, 40, 20, 60),
            exponent: ShapeGeometry.continuousExponent), shadowOffset: SIMD2(-40, 20)),
        member(capsule(520, 170, 180, 80)),
        member(capsule(760, 140, 60, 200), shadowOffset: SIMD2(0, 0)),
        member(ShapeGeometry(ellipseCenter: SIMD2(850, 300), halfSize: SIMD2(50, 25))),
      ], 40
    ),
  ]

  /// Single shapes, whose pass is cut only into the body's part and the band only
  /// the shadow reaches: a capsule with the default shadow, an ellipse whose
  /// shadow falls far to one side, and a continuous rounded box with a wide
  /// contour and a shadow cast up and left.
  static let singles: [(name: String, members: [GlassMember], blendRadius: Float)] = [
    ("a capsule", [member(capsule(300, 180))], 0),
    (
      "an ellipse with its shadow far off",
      [member(ShapeGeometry(ellipseCenter: SIMD2(400, 200), halfSize: SIMD2(90, 60)), shadowOffset: SIMD2(120, 30))],
      0
    ),
    (
      "a continuous box with a wide contour",
      [
        {
          var m = member(
            ShapeGeometry(
              roundedBoxCenter: SIMD2(500, 210), halfSize: SIMD2(150, 90), radii: SIMD4(repeating: 40),
              exponent: ShapeGeometry.continuousExponent), shadowOffset: SIMD2(-20, -16))
          m.contourOpacity = 0.8
          m.contourWidth = 6
          return m
        }()
      ], 0
    ),
  ]

  /// The group over the photo, lowered with cells of `cell` pixels, and the
  /// band only the shadow reaches drawn apart when `splitsShadow`.
  static func render(
    _ members: [GlassMember], blendRadius: Float, cell: Int, splitsShadow: Bool = true, on backend: TestBackend
  ) throws
    -> RGBAImage
  {
    let size = PixelSize(width: 960, height: 400)
    var graph = RenderGraph()
    let backdrop = ImageResampler.fit(photo, to: size, mode: .fill)
    let source = graph.importSource(backdrop, as: .linearHalf, rects: [PixelRect(size: size)])
    let canvas = graph.makeTransient("canvas", size: size, format: .linearHalf)
    let output = graph.makeOutput(size: size, format: .encoded(.eight))
    graph.addPass(
      "photo", .copy(Copy(offset: PixelPoint(x: 0, y: 0))), inputs: [source], output: canvas,
      rect: PixelRect(size: size))
    var glass = GlassEffect(
      GlassComposite(members: members, blendRadius: blendRadius, backdropOrigin: PixelPoint(x: 0, y: 0)))
    glass.cellPixels = cell
    glass.splitsShadow = splitsShadow
    glass.lower([source], to: EffectDestination(canvas, blend: true), into: &graph)
    graph.addPass(
      "encode", .copy(Copy(offset: PixelPoint(x: 0, y: 0))), inputs: [canvas], output: output,
      rect: PixelRect(size: size))
    return try backend.execute(graph)
  }

  /// Each group cut (cells of 16 and 64 px, and one cell with the shadow's band
  /// apart) against its whole pass, one program over every pixel.
  static func check(on backend: TestBackend, bar: Double) throws {
    for group in groups + singles {
      let whole = try render(
        group.members, blendRadius: group.blendRadius, cell: 1 << 20, splitsShadow: false, on: backend)
      for cell in [16, 64, 1 << 20] {
        let cut = try render(group.members, blendRadius: group.blendRadius, cell: cell, on: backend)
        let c = try ImageComparison(cut, whole)
        #expect(c.maxDifference <= bar, "\(group.name), cells of \(cell) px on \(backend): \(c.summary)")
      }
    }
  }

  @Test("a single shape's pass draws the band only its shadow reaches apart: most of its pixels")
  func shadowBand() {
    for single in Self.singles {
      let composite = GlassComposite(members: single.members, backdropOrigin: PixelPoint(x: 0, y: 0))
      let rect = GlassEffect.writeBounds(single.members[0])
      let pieces = GlassEffect.shadowSplit(composite, rect)
      // The pieces tile the pass; all but the first are the shadow's alone.
      #expect(pieces.map(\.pixelCount).reduce(0, +) == rect.pixelCount, "\(single.name): \(pieces)")
      for (i, a) in pieces.enumerated() {
        for b in pieces[(i + 1)...] { #expect(a.intersection(b).isEmpty, "\(single.name): \(a) and \(b) overlap") }
      }
      #expect(!composite.showsShadowOnly(in: pieces[0]))
      #expect(pieces.dropFirst().allSatisfy { composite.showsShadowOnly(in: $0) }, "\(single.name): \(pieces)")
      let band = pieces.dropFirst().map(\.pixelCount).reduce(0, +)
      #expect(Double(band) > 0.5 * Double(rect.pixelCount), "\(single.name): \(band) of \(rect.pixelCount) px")
    }
  }

  @Test("on the CPU a group cut into cells renders byte for byte as the whole pass")
  func cpu() throws {
    try Self.check(on: .cpu, bar: 0)
  }

  /// The GPU runs the cells that keep one member with the program without loops;
  /// its arithmetic may round differently, within 1/255.
  @Test(
    "on the GPU a group cut into cells renders as the whole pass, within 1/255",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func gpu() throws {
    try Self.check(on: .gpu, bar: 1)
  }

  @Test("cells keep few members: the eight capsules draw about two a pixel, not eight")
  func fewMembers() {
    let group = Self.groups[1]
    let composite = GlassComposite(
      members: group.members, blendRadius: group.blendRadius, backdropOrigin: PixelPoint(x: 0, y: 0))
    let bounds = group.members.map(GlassEffect.writeBounds).reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) {
      $0.union($1)
    }
    let cells = GlassEffect.cells(composite, in: bounds)
    let area = cells.map(\.rect.pixelCount).reduce(0, +)
    let single = cells.filter { $0.members.count == 1 }.map(\.rect.pixelCount).reduce(0, +)
    // The cells tile the pass exactly.
    #expect(area == bounds.pixelCount)
    let drawn = cells.map { Double($0.rect.pixelCount * $0.members.count) }.reduce(0, +) / Double(area)
    print(
      "eight capsules: \(cells.count) cells, \(Double(single) / Double(area)) of the pixels draw one member, \(drawn) members a pixel, at most \(cells.map(\.members.count).max() ?? 0)"
    )
    // Measured with the default shadow (sigma 24 px at scale 2) and 16 px cells:
    // 202 cells, 53 % of the pixels drawing one member, 1.64 members a pixel on
    // average and 5 at the most, against 8 in the whole pass (32 px cells: 121
    // cells, 37 %, 2.0 and 6).
    #expect(Double(single) / Double(area) > 0.45, "\(single) of \(area) px in cells of one member")
    #expect(drawn < 2, "\(drawn) members a pixel")
    #expect(cells.allSatisfy { $0.members.count <= 5 })
    #expect(cells.count <= 225, "\(cells.count) passes")
  }
}
