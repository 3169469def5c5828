import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The look of glass with the default optics, measured on renders (issue 11):
/// the reach of the lens, the glint, the contour, the shadow and saturation that
/// does not clip. Each test prints what it measured (in points and 8-bit sRGB
/// steps); the figures of the reference are in `../shared/reference/README.md`.
@Suite("Glass: the default look, measured")
struct GlassLookTests {
  // MARK: Scenes and pixels

  static func scene(
    width: Double, height: Double, scale: Int, background: Color, _ layers: [Layer]
  ) -> Scene {
    Scene(
      size: PointSize(width: width, height: height), scale: scale, background: .fill(.color(background)),
      layers: layers)
  }

  static func band(_ frame: PointRect, _ color: Color) -> Layer {
    .shape(ShapeLayer(shape: .rect, frame: frame, fill: .color(color)))
  }

  /// The brightest channel of a pixel, 0 ... 255.
  static func value(_ image: RGBAImage, _ x: Int, _ y: Int) -> Int {
    let p = image.rgba8(x, y)
    return max(p[0], max(p[1], p[2]))
  }

  /// HSV hue (degrees) and saturation (0 ... 1) of a pixel, in linear light
  /// (where saturation and lightening keep the hue) when `linear`.
  static func hueAndSaturation(_ p: SIMD4<Int>, linear: Bool = false) -> (hue: Double, saturation: Double) {
    func decode(_ v: Int) -> Double {
      let e = Double(v) / 255
      return linear ? Definition.srgbToLinear(e) : e
    }
    let r = decode(p[0])
    let g = decode(p[1])
    let b = decode(p[2])
    let top = max(r, g, b)
    let bottom = min(r, g, b)
    let chroma = top - bottom
    guard chroma > 0 else { return (0, 0) }
    var hue: Double
    if top == r {
      hue = (g - b) / chroma
    } else if top == g {
      hue = (b - r) / chroma + 2
    } else {
      hue = (r - g) / chroma + 4
    }
    hue *= 60
    if hue < 0 { hue += 360 }
    return (hue, chroma / top)
  }

  static func hueDistance(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
  }

  // MARK: The glint

  /// A regular capsule, 200 x 120 pt, over black at scale 3 (a pixel is 1/3 pt).
  static let glintScale = 3
  static let capsule = PointRect(x: 20, y: 40, width: 200, height: 120)

  /// The profile of the brightest channel down the column through the capsule's
  /// centre, from 2 pt above the top edge to `depth` pt inside it; and the body
  /// (at 30 pt inside, past the bevel's glint and the bend).
  static func topProfile(_ image: RGBAImage, column: Int) -> (values: [Int], body: Int) {
    let s = glintScale
    let top = Int(capsule.y) * s
    let values = ((top - 2 * s)..<(top + 6 * s)).map { value(image, column, $0) }
    return (values, value(image, column, top + 30 * s))
  }

  /// The width in points of the run of samples at or above half height between
  /// the body and the peak, around the peak.
  static func widthAtHalfHeight(_ values: [Int], body: Int, scale: Int) -> (peak: Int, width: Double) {
    let peak = values.max() ?? 0
    let half = Double(body) + Double(peak - body) / 2
    guard let at = values.firstIndex(of: peak) else { return (peak, 0) }
    var lo = at
    var hi = at
    while lo > 0 && Double(values[lo - 1]) >= half { lo -= 1 }
    while hi < values.count - 1 && Double(values[hi + 1]) >= half { hi += 1 }
    return (peak, Double(hi - lo + 1) / Double(scale))
  }

  @Test("the glint on a dark backdrop is a line at most 1 pt wide at half height, well above the body")
  func glintWidth() throws {
    let s = Self.glintScale
    let image = try TestBackend.cpu.render(
      Self.scene(width: 240, height: 200, scale: s, background: .black, [.glass(GlassLayer(frame: Self.capsule))]))
    let column = Int(Self.capsule.midX) * s
    let (values, body) = Self.topProfile(image, column: column)
    let (peak, width) = Self.widthAtHalfHeight(values, body: body, scale: s)
    print("glint (top wall, over black): body \(body)/255, peak \(peak)/255, \(width) pt at half height")
    #expect(width <= 1.0, "the glint is \(width) pt wide at half height: \(values)")
    #expect(width >= 0.25, "no glint at all: \(values)")
    #expect(peak - body >= 80, "the glint rises \(peak - body)/255 over the body: \(values)")

    // The wall facing away from the light: weaker, but there.
    let bottom = Int(Self.capsule.maxY) * s
    let under = ((bottom - 6 * s)..<(bottom + 2 * s)).map { Self.value(image, column, $0) }
    let opposite = (under.max() ?? 0) - body
    print("glint (bottom wall): rises \(opposite)/255 over the body, the top \(peak - body)/255")
    #expect(opposite >= (peak - body) / 4 && opposite < peak - body, "bottom \(opposite), top \(peak - body)")

    // The end of the capsule, level with its centre, faces neither: the glint
    // fades away round the ends.
    let row = Int(Self.capsule.midY) * s
    let left = Int(Self.capsule.x) * s
    let end = ((left - 2 * s)..<(left + 6 * s)).map { Self.value(image, $0, row) }
    let atEnd = (end.max() ?? 0) - body
    print("glint (leading end, at mid-height): rises \(atEnd)/255 over the body")
    #expect(atEnd <= (peak - body) / 8, "the glint does not fade round the end: \(end)")
  }

  @Test("the glint takes the hue of the glass face instead of greying it")
  func glintHue() throws {
    let s = Self.glintScale
    let image = try TestBackend.cpu.render(
      Self.scene(
        width: 240, height: 200, scale: s, background: Color(red: 0.1, green: 0.35, blue: 0.8),
        [.glass(GlassLayer(glass: Glass(.regular, tint: .orange), frame: Self.capsule))]))
    let column = Int(Self.capsule.midX) * s
    let top = Int(Self.capsule.y) * s
    let rows = (top..<(top + 2 * s))
    let brightest = try #require(rows.max { Self.value(image, column, $0) < Self.value(image, column, $1) })
    let glint = image.rgba8(column, brightest)
    let face = image.rgba8(column, top + 30 * s)
    let (glintHue, glintSaturation) = Self.hueAndSaturation(glint)
    let (faceHue, faceSaturation) = Self.hueAndSaturation(face)
    print(
      "glint on orange glass: \(glint) hue \(Int(glintHue)) deg, saturation \(glintSaturation); "
        + "face \(face) hue \(Int(faceHue)) deg, saturation \(faceSaturation)")
    #expect(Self.hueDistance(glintHue, faceHue) <= 6, "glint \(glint), face \(face)")
    #expect(glintSaturation >= 0.75 * faceSaturation, "the glint greys the face: \(glint) over \(face)")
    #expect(max(glint[0], glint[1], glint[2]) > max(face[0], face[1], face[2]), "glint \(glint), face \(face)")
  }

  // MARK: The lens

  /// Clear glass 360 x 120 pt over white with a black line 2 pt thick whose top
  /// lies `lineDepth` pt inside the glass.
  static func lensScene(lineDepth: Double, optics: [String: Double] = [:]) -> Scene {
    let glass = PointRect(x: 20, y: 40, width: 360, height: 120)
    return scene(
      width: 400, height: 200, scale: 2, background: .white,
      [
        band(PointRect(x: 0, y: glass.y + lineDepth, width: 400, height: 2), .black),
        .glass(GlassLayer(glass: .clear, frame: glass, optics: GlassOptics.Overrides(optics))),
      ])
  }

  /// The depths (points inside the top edge, pixel centres) down the centre
  /// column where the line shows, within `within` pt: green darker than 128
  /// (clear glass disperses, so near the rim red and blue see the line a little
  /// deeper and shallower than green does).
  static func lineImage(_ image: RGBAImage, within: Double) -> [Double] {
    let s = 2.0
    let top = 40 * s
    return (Int(top)..<Int(top + within * s)).filter { image.rgba8(200 * 2, $0)[1] < 128 }
      .map { (Double($0) + 0.5 - top) / s }
  }

  @Test("clear glass 120 pt tall shows a line 40 pt inside it again within its top 16 pt")
  func lensReach() throws {
    let image = try TestBackend.cpu.render(Self.lensScene(lineDepth: 40))
    let seen = Self.lineImage(image, within: 16)
    print("a line 40 pt inside clear glass shows at depths \(seen) pt")
    #expect(!seen.isEmpty, "the line 40 pt inside does not reach the top 16 pt")
    // Where it really is, it is still seen (the flat interior is not bent).
    #expect(!Self.lineImage(image, within: 44).filter { $0 >= 40 }.isEmpty)
    // The old lens (20 pt over a 14 pt bevel) never brought it to the rim: the
    // measurement can fail.
    let old = try TestBackend.cpu.render(Self.lensScene(lineDepth: 40, optics: ["refraction": 20, "bevelWidth": 14]))
    #expect(Self.lineImage(old, within: 16).isEmpty)
  }

  @Test("the lens of a 44 pt button samples no deeper than its centre line", arguments: [Glass.regular, .clear])
  func smallShapes(glass: Glass) throws {
    // Red down to the centre line of a 120 x 44 pt capsule, blue below it.
    let frame = PointRect(x: 40, y: 40, width: 120, height: 44)
    let image = try TestBackend.cpu.render(
      Self.scene(
        width: 200, height: 124, scale: 2, background: .white,
        [
          Self.band(PointRect(x: 0, y: 0, width: 200, height: frame.midY), Color(red: 1, green: 0, blue: 0)),
          Self.band(
            PointRect(x: 0, y: frame.midY, width: 200, height: 124 - frame.midY), Color(red: 0, green: 0, blue: 1)),
          .glass(GlassLayer(glass: glass, frame: frame, optics: GlassOptics.Overrides(["frost": 0]))),
        ]))
    // Just inside the top wall (0.5 to 2 pt deep) the glass shows red: a pull
    // past the centre line would show blue.
    let top = Int(frame.y) * 2
    for y in (top + 1)..<(top + 4) {
      let p = image.rgba8(Int(frame.midX) * 2, y)
      #expect(p[0] > p[2], "row \(y) shows \(p)")
    }
    let member = GlassEffect.member(
      glass, optics: GlassOptics(glass.variant), shape: Shape.capsule.geometry(in: frame, scale: 2, container: nil),
      frame: frame, scale: 2)
    #expect(member.refraction == 44 && member.bevelWidth == 40, "\(member.refraction), \(member.bevelWidth)")
  }

  // MARK: The contour and the shadow

  @Test("a dark contour lies just outside the edge and nowhere else")
  func contour() throws {
    let s = Self.glintScale
    func render(_ optics: [String: Double]) throws -> RGBAImage {
      try TestBackend.cpu.render(
        Self.scene(
          width: 240, height: 200, scale: s, background: .white,
          [.glass(GlassLayer(frame: Self.capsule, optics: GlassOptics.Overrides(optics)))]))
    }
    let image = try render(["shadowOpacity": 0])
    let column = Int(Self.capsule.midX) * s
    let top = Int(Self.capsule.y) * s
    let above = (1...8).map { Self.value(image, column, top - $0) }
    print("over white, from the edge outward (1/3 pt a pixel): \(above)")
    #expect((above.min() ?? 255) <= 235, "no contour: \(above)")
    #expect(above[4...].allSatisfy { $0 == 255 }, "the contour reaches past 1.5 pt: \(above)")
    let none = try render(["shadowOpacity": 0, "contourOpacity": 0])
    #expect((1...8).allSatisfy { Self.value(none, column, top - $0) == 255 })
  }

  @Test("the shadow darkens white by 5 % or more 6 pt under the glass and by under 2 % 40 pt under")
  func shadow() throws {
    let image = try TestBackend.cpu.render(
      Self.scene(width: 400, height: 240, scale: 2, background: .white, [.glass(GlassLayer(frame: Self.capsule))]))
    let column = Int(Self.capsule.midX) * 2
    let bottom = Self.capsule.maxY
    func darkening(_ below: Double) -> Double {
      let y = Int(((bottom + below) * 2).rounded(.down))
      return 1 - Double(Self.value(image, column, y)) / 255
    }
    let profile = [1.0, 6, 10, 20, 30, 40].map { String(format: "%g pt %.1f %%", $0, 100 * darkening($0)) }
    print("shadow under regular glass over white: \(profile.joined(separator: ", "))")
    #expect(darkening(1) >= 0.08 && darkening(1) <= 0.14)
    #expect(darkening(6) >= 0.05)
    #expect(darkening(40) < 0.02)
  }

  // MARK: Saturation

  @Test("saturation keeps hue and luminance and stops at the edge of the gamut")
  func saturationOracle() {
    var generator = SystemRandomNumberGenerator()
    var limited = 0
    var wrong: [String] = []
    for _ in 0..<20_000 {
      let alpha = Float.random(in: 0.05...1, using: &generator)
      let c =
        SIMD3<Float>(
          Float.random(in: 0...1, using: &generator), Float.random(in: 0...1, using: &generator),
          Float.random(in: 0...1, using: &generator)) * alpha
      let s = Float.random(in: 0...4, using: &generator)
      let out = GlassProfile.saturate(c, alpha: alpha, by: s)
      // From first principles: the factor is s, or the largest one (found by
      // bisection) that keeps every channel a tenth of the way inside
      // 0 ... alpha (lum / 10 ... alpha - (alpha - lum) / 10), if that is less.
      let lum = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
      func inGamut(_ f: Float) -> Bool {
        (0..<3).allSatisfy {
          let v = lum + (c[$0] - lum) * f
          return v >= lum / 10 - 1e-5 && v <= alpha - (alpha - lum) / 10 + 1e-5
        }
      }
      var factor = s
      if s > 1 && !inGamut(s) {
        var lo: Float = 1
        var hi = s
        for _ in 0..<40 {
          let mid = (lo + hi) / 2
          if inGamut(mid) { lo = mid } else { hi = mid }
        }
        factor = lo
        limited += 1
      }
      let expected = (0..<3).map { max(lum + (c[$0] - lum) * factor, 0) }
      if (0..<3).contains(where: { abs(out[$0] - expected[$0]) >= 2e-4 || out[$0] < 0 || out[$0] > alpha + 1e-5 }) {
        wrong.append("c \(c) alpha \(alpha) s \(s): \(out) against \(expected)")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) of 20000 wrong: \(wrong.prefix(3))")
    #expect(limited > 1000, "the gamut limit was reached \(limited) times")
  }

  @Test("clear glass over a vivid green keeps its hue instead of clipping a channel")
  func noClipping() throws {
    // sRGB (90, 170, 20): a plain saturation of 1.15 pushes blue below 0.
    let green = Color(red: 90.0 / 255, green: 170.0 / 255, blue: 20.0 / 255)
    let image = try TestBackend.cpu.render(
      Self.scene(
        width: 200, height: 120, scale: 1, background: green,
        [.glass(GlassLayer(glass: .clear, frame: PointRect(x: 20, y: 20, width: 160, height: 80)))]))
    let inside = image.rgba8(100, 60)
    let outside = image.rgba8(5, 5)
    let (h0, s0) = Self.hueAndSaturation(outside, linear: true)
    let (h1, s1) = Self.hueAndSaturation(inside, linear: true)
    print("clear glass over \(outside): \(inside), linear hue \(h0) -> \(h1) deg, saturation \(s0) -> \(s1)")
    #expect(Self.hueDistance(h0, h1) <= 1.5, "\(outside) -> \(inside)")
    #expect(inside[2] > 0, "blue clipped: \(inside)")
    // Plain saturation would have pushed blue below 0, and clipping it there
    // turns the hue (the oracle of the old formula, in linear light).
    let c = (0..<3).map { Definition.srgbToLinear(Double(outside[$0]) / 255) }
    let lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    #expect(lum + (c[2] - lum) * 1.15 < 0)
  }

  // MARK: Parity

  @Test(
    "the default look on the GPU is within the scene parity bar of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func parity() throws {
    let scene = Self.scene(
      width: 400, height: 220, scale: 2, background: .white,
      [
        Self.band(PointRect(x: 0, y: 60, width: 400, height: 8), Color(red: 0.9, green: 0.1, blue: 0.1)),
        Self.band(PointRect(x: 120, y: 0, width: 8, height: 220), Color(red: 0.95, green: 0.75, blue: 0)),
        Self.band(
          PointRect(x: 0, y: 150, width: 400, height: 30), Color(red: 90.0 / 255, green: 170.0 / 255, blue: 20.0 / 255)),
        .glass(GlassLayer(frame: PointRect(x: 20, y: 30, width: 220, height: 80))),
        .glass(GlassLayer(glass: .clear, frame: PointRect(x: 40, y: 120, width: 200, height: 60))),
        .glass(
          GlassLayer(
            glass: Glass(.regular, tint: .orange), shape: .rect(cornerRadius: 16),
            frame: PointRect(x: 270, y: 40, width: 110, height: 150))),
      ])
    let gpu = try TestBackend.gpu.render(scene)
    let cpu = try TestBackend.cpu.render(scene)
    SceneRenderingTests.bar.check(try ImageComparison(gpu, cpu), "default look parity")
  }
}
