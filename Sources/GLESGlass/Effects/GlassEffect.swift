import Foundation

/// `glassEffect(_:in:)` and materials: a group of shapes that render as one glass
/// body over frosted copies of the backdrop, in one `Primitive.glass` pass. Its
/// parameters are the pass's (`GlassComposite`, in pixels); `member(...)` turns a
/// layer's optics, in points, into a member. The formulas are in
/// `Math/GlassProfile.swift`, mirrored by `glass.glsl`.
///
///     backdrop -> frost (GaussianBlurEffect, one per distinct frost)
///              -> glass: blended field, lens, tint, rim, shadow   -> over the canvas
public struct GlassEffect: Effect, Hashable {
  /// The group, in pixels.
  public typealias Parameters = GlassComposite

  /// The optical parameters of a glass layer, in points (`GlassOptics`).
  public static var parameterTable: [ParameterSpec] { GlassOptics.parameterTable }

  /// The group.
  public var parameters: GlassComposite

  /// The glass of a group.
  public init(_ parameters: GlassComposite) {
    self.parameters = parameters
  }

  /// Throws `invalidParameter` for a group the pass cannot take: no member, more
  /// than `GlassComposite.maximumMembers`, a backdrop index beyond
  /// `GlassComposite.maximumSources`, or a length that is not a finite,
  /// non-negative number.
  public func validate() throws {
    let members = parameters.members
    guard !members.isEmpty && members.count <= GlassComposite.maximumMembers else {
      throw GlassError(
        .invalidParameter,
        "a glass body has \(members.count) shapes; give it 1 to \(GlassComposite.maximumMembers)")
    }
    for (i, m) in members.enumerated() {
      guard (0..<GlassComposite.maximumSources).contains(m.source) else {
        throw GlassError(
          .invalidParameter,
          "glass shape \(i) reads backdrop \(m.source); a body reads at most \(GlassComposite.maximumSources)")
      }
      let lengths: [(String, Float)] = [
        ("bevelWidth", m.bevelWidth), ("refraction", m.refraction), ("rimWidth", m.rimWidth),
        ("shadowSigma", m.shadowSigma), ("glowSigma", m.glowSigma),
      ]
      for (name, value) in lengths where !(value.isFinite && value >= 0) {
        throw GlassError(
          .invalidParameter, "glass shape \(i) has \(name) \(value); give a finite length of 0 or more pixels")
      }
    }
    guard parameters.blendRadius.isFinite && parameters.blendRadius >= 0 else {
      throw GlassError(
        .invalidParameter, "the blend radius is \(parameters.blendRadius); give a finite radius of 0 or more pixels")
    }
  }

  /// The deepest pull of any member's lens, red's with dispersion, plus the two
  /// pixels of its bilinear taps and anti-aliased edge.
  public func inputMarginPixels(for inputSize: PixelSize) -> Int {
    let reach = parameters.members.map { Self.reach($0) }.max() ?? 0
    return Int(reach.rounded(.up))
  }

  /// The pass: reads one frosted backdrop per member `source` (`inputs`, all of
  /// one size, the backdrop's top-left at `parameters.backdropOrigin`) and
  /// composites the body over the destination inside its bounds.
  public func lower(_ inputs: [ImageHandle], to destination: EffectDestination, into graph: inout RenderGraph) {
    precondition(
      !inputs.isEmpty && inputs.count <= GlassComposite.maximumSources
        && parameters.members.allSatisfy { $0.source < inputs.count }, "one backdrop per source")
    var composite = parameters
    let shift = destination.origin
    if shift != PixelPoint(x: 0, y: 0) {
      composite = Self.offset(composite, by: shift)
    }
    let bounds = parameters.members.map(Self.writeBounds).reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) {
      $0.union($1)
    }
    guard let rect = destination.rect(bounds, in: graph) else { return }
    graph.addPass(
      destination.name ?? "glass", .glass(composite), inputs: inputs, output: destination.image, rect: rect,
      blend: destination.blend)
  }

  // MARK: From layers to members

  /// A glass layer's member, in pixels at `scale`: its optics, its tint, its
  /// light, shadow and (pressed) glow. `shape` is its geometry, already scaled
  /// when it is pressed; `frame` and `touch` in points.
  static func member(
    _ glass: Glass, optics: GlassOptics, shape: ShapeGeometry, frame: PointRect, scale: Double
  ) -> GlassMember {
    var g = GlassMember(shape: shape)
    let half = Double(min(shape.halfSize.x, shape.halfSize.y))
    g.bevelWidth = Float(min(optics.bevelWidth * scale, half))
    g.refraction = Float(optics.refraction * scale)
    g.dispersion = Float(optics.dispersion)
    g.rimWidth = Float(optics.rimWidth * scale)
    g.saturation = Float(optics.saturation)
    g.lightening = Float(optics.lightening)
    g.dimming = Float(optics.dimming)
    if let tint = glass.tint {
      let t = tint.premultipliedLinear
      let strength = Float(optics.tintIntensity) * t.w
      g.tint = t.w > 0 ? SIMD4(t.x / t.w, t.y / t.w, t.z / t.w, strength) : .zero
    }
    g.rimOpacity = Float(optics.rimOpacity)
    g.oppositeRimOpacity = Float(optics.oppositeRimOpacity)
    let angle = optics.lightAngle * .pi / 180
    g.light = SIMD2(Float(-cos(angle)), Float(-sin(angle)))
    let shadowSigma = optics.shadowRadius * scale / 2
    if optics.shadowOpacity > 0 && shadowSigma > 0 {
      g.shadowOpacity = Float(optics.shadowOpacity)
      g.shadowSigma = Float(shadowSigma)
      g.shadowOffset = SIMD2(Float(optics.shadowOffsetX * scale), Float(optics.shadowOffsetY * scale))
    }
    if glass.isInteractive && glass.isPressed && optics.glowOpacity > 0 && optics.glowRadius > 0 {
      g.glowOpacity = Float(optics.glowOpacity)
      g.glowSigma = Float(optics.glowRadius * scale / 2)
      let touch = glass.touchPoint ?? PointOffset(x: frame.width / 2, y: frame.height / 2)
      g.glowCenter = SIMD2(Float((frame.x + touch.x) * scale), Float((frame.y + touch.y) * scale))
    }
    return g
  }

  /// A material panel's member: the blurred backdrop saturated and tinted, with
  /// no bevel, rim, shadow or glow.
  static func member(_ material: Material, shape: ShapeGeometry) -> GlassMember {
    let style = MaterialStyle.of(material)
    var member = GlassMember(shape: shape)
    member.saturation = Float(style.saturation)
    let tint = style.tint.premultipliedLinear
    member.tint = SIMD4(tint.x, tint.y, tint.z, Float(style.opacity))
    return member
  }

  /// How far a member's lens pulls, in pixels, plus two for the taps and the edge.
  static func reach(_ member: GlassMember) -> Double {
    Double(member.refraction) * (1 + Double(member.dispersion)) + 2
  }

  /// The pixels a member can change: its shape's, and its shadow's out to 4 sigma.
  static func writeBounds(_ member: GlassMember) -> PixelRect {
    var bounds = member.shape.pixelBounds()
    if member.shadowOpacity > 0 {
      let shadow = member.shape.offsetBy(member.shadowOffset.x, member.shadowOffset.y)
      bounds = bounds.union(shadow.pixelBounds(margin: 4 * Double(member.shadowSigma)))
    }
    return bounds
  }

  /// The backdrop pixels a member reads: its shape grown by its reach.
  static func readBounds(_ member: GlassMember) -> PixelRect {
    member.shape.pixelBounds(margin: reach(member))
  }

  /// The group moved by `shift` pixels.
  static func offset(_ composite: GlassComposite, by shift: PixelPoint) -> GlassComposite {
    var moved = composite
    let d = SIMD2(Float(shift.x), Float(shift.y))
    for i in moved.members.indices {
      moved.members[i].shape = moved.members[i].shape.offsetBy(d.x, d.y)
      moved.members[i].glowCenter += d
    }
    moved.backdropOrigin = PixelPoint(x: composite.backdropOrigin.x + shift.x, y: composite.backdropOrigin.y + shift.y)
    return moved
  }
}
