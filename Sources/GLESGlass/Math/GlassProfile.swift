import Foundation

/// The math of the glass body that both backends share: the bevel profile, and
/// the field of a group of glass shapes blended into one body. The CPU kernel
/// (`CPUKernels.glassPixel`) calls these; `glass.glsl` mirrors them line by line.
///
/// **Bevel.** At depth `t` pixels inside the edge, within a band of width `h`, the
/// backdrop is pulled inward along the normal by a quarter circle:
///
///     x    = clamp(1 - t / h, 0, 1)
///     pull = refraction * (1 - sqrt(1 - x^2))
///
/// **Blending.** The members' signed distances `d_i` are folded in paint order
/// with a quadratic smooth minimum of radius `k`, the container's spacing in
/// pixels, shrunk where the two gradients point the same way so that nested and
/// overlapping shapes do not swell and only a gap grows a neck:
///
///     t   = clamp((1/2 - dot(n_a, n_b)) / (3/2), 0, 1)
///     k'  = k * t^2 (3 - 2 t)
///     h   = max(k' - |a - b|, 0) / k'
///     d   = min(a, b) - k' * h^2 / 4
///     w   = clamp(1/2 + (b - a) / (2 k'), 0, 1)       the weight of a
///     n   = normalize(n_b + (n_a - n_b) * w)
///
/// `n` is the exact gradient of the smooth minimum for a constant radius. The
/// members' appearance (bend, colour, rim, which frosted backdrop, glow) is
/// cross-faded by the same `w`, so two glasses of different tints meet in a
/// gradient across the neck. Members whose edges stay `k` or more apart never
/// change each other's pixels (`h` is 0 wherever either covers a pixel); the
/// lowering renders such groups as separate passes.
///
/// **Lightening** adds the same light to every channel, a share of the headroom
/// of the brightest one, so the body grows brighter and milkier without losing
/// its colour (a mix toward white would grey it) and never passes white:
///
///     c' = c + max(alpha - max(c), 0) * lightening
///
/// **Saturation** keeps hue and luminance and never leaves the gamut: the
/// colour's distance from its grey `c - lum` is scaled by the saturation `s`, but
/// by no more than the largest factor that keeps every channel a tenth of the way
/// inside `0 ... alpha` (premultiplied), so a channel that would clip stops the
/// whole colour short of the edge of the gamut instead of changing its hue (and
/// no channel is pushed into the bottom of the sRGB curve, where a small
/// difference in linear light is many 8-bit steps):
///
///     lum = 0.2126 r + 0.7152 g + 0.0722 b,   e = c - lum
///     f   = min(s, 0.9 (alpha - lum) / max(e), 0.9 lum / -min(e))     (for s > 1)
///     c'  = lum + e * max(f, 1)
///
/// **Face transfer** (dark, tinted and Increase Contrast glass; off for the
/// light look, which lightening and saturation make). In the sRGB encoding of
/// the unpremultiplied colour `s`, with Rec. 709 luma `y`, the face is an
/// emission plus a share of the backdrop's luminance, lifted in the mid-tones,
/// plus its chroma scaled (the form of the colour model flutter_liquid_glass
/// fitted to Apple's captures; `GlassLook` has the values):
///
///     y  = dot(s, (0.2126, 0.7152, 0.0722))
///     s' = clamp(emission + transmittance * (y + lift * y * (1 - y)) + chromaGain * (s - y), 0, 1)
///     c' = c + (decode(s') * alpha - c) * amount
///
/// **Glint.** A specular line on the walls that face the light (`rimOpacity`) and,
/// weaker, those that face away (`oppositeRimOpacity`), falling linearly to
/// nothing at `rimWidth` inside the edge (so about half of it wide at half
/// height) and with the cosine between the wall's normal and the light, so it
/// fades round the ends of a capsule lit from above. It takes the hue of the glass
/// face: the body is mixed toward its own colour brought to full brightness
/// (white for a grey or black face):
///
///     r     = clamp(1 - depth / rimWidth, 0, 1) * (lit * max(l, 0) + opposite * max(-l, 0))
///     hue   = (c + 0.02 alpha + 1e-6) / (max(c) + 0.02 alpha + 1e-6),  l = dot(n, light)
///     body += ((hue, 1) - body) * r
///
/// **Contour.** A dark ring of width `w` just outside the edge, anti-aliased as
/// the edge is (its coverage is that of the shape grown by `w` less the shape's),
/// under which the shadow shows; its colour is a grey `g` (black but with
/// Increase Contrast over a dark backdrop, where it is white):
///
///     ring = clamp(1/2 - d + w, 0, 1) - coverage
///     out  = body * coverage + black * shadow * (1 - coverage) + (g, 1) * (1 - shadow) * contour * ring
///
/// The shadow is one shadow of the blended field: the members' distances and
/// normals at their shadow offsets folded the same way, with opacity and sigma
/// cross-faded. Two members with the same shape, place and look fold into
/// exactly one of them (their gradients agree, so `k'` is 0), body and shadow:
/// glass that grows out of a neighbour starts invisible.
public enum GlassProfile {
  /// Below this radius (pixels) the smooth minimum is a plain minimum.
  public static let minimumBlendRadius: Float = 1e-4

  /// The inward pull at `depth` pixels inside the edge.
  @inlinable @inline(__always)
  public static func pull(depth: Float, bevelWidth: Float, refraction: Float) -> Float {
    guard bevelWidth > 0 else { return 0 }
    let x = min(max(1 - depth / bevelWidth, 0), 1)
    return refraction * (1 - (1 - x * x).squareRoot())
  }

  /// A premultiplied linear colour `c` of opacity `alpha` lightened by `amount`
  /// (see above).
  @inlinable @inline(__always)
  public static func lighten(_ c: SIMD3<Float>, alpha: Float, by amount: Float) -> SIMD3<Float> {
    let top = max(c.x, max(c.y, c.z))
    return c + SIMD3(repeating: max(alpha - top, 0) * amount)
  }

  /// How far toward the edge of the gamut saturation may push a channel.
  public static let gamutShare: Float = 0.9

  /// The saturation of a premultiplied linear colour `c` of opacity `alpha` by
  /// `s`, at constant hue and luminance, held inside the gamut (see above).
  @inlinable @inline(__always)
  public static func saturate(_ c: SIMD3<Float>, alpha: Float, by s: Float) -> SIMD3<Float> {
    let lum = c.x * 0.2126 + c.y * 0.7152 + c.z * 0.0722
    let e = c - SIMD3(repeating: lum)
    var f = s
    if s > 1 {
      let high = max(e.x, max(e.y, e.z))
      let low = min(e.x, min(e.y, e.z))
      if high > 1e-6 { f = min(f, gamutShare * (alpha - lum) / high) }
      if low < -1e-6 { f = min(f, gamutShare * lum / -low) }
      f = max(f, 1)
    }
    let out = SIMD3(repeating: lum) + e * f
    return out.replacing(with: 0, where: out .< 0)
  }

  /// The sRGB encoding of a linear value, clamped to 0 ... 1, in `Float` as
  /// `glass.glsl`'s `encodeSRGB` computes it.
  @inlinable @inline(__always)
  public static func encodeSRGB(_ l: Float) -> Float {
    let c = min(max(l, 0), 1)
    return c <= 0.0031308 ? 12.92 * c : 1.055 * powf(c, 1 / 2.4) - 0.055
  }

  /// The linear value of an sRGB-encoded one, as `glass.glsl`'s `decodeSRGB`.
  @inlinable @inline(__always)
  public static func decodeSRGB(_ s: Float) -> Float {
    s <= 0.04045 ? s / 12.92 : powf((s + 0.055) / 1.055, 2.4)
  }

  /// The face transfer of a premultiplied linear colour `c` of opacity `alpha`
  /// (see above); `face` is emission, transmittance, lift and chroma gain,
  /// `amount` how much of it replaces `c`.
  @inlinable @inline(__always)
  public static func faceTransfer(
    _ c: SIMD3<Float>, alpha: Float, face: SIMD4<Float>, amount: Float
  ) -> SIMD3<Float> {
    guard amount > 0 && alpha > 0 else { return c }
    let s = SIMD3(encodeSRGB(c.x / alpha), encodeSRGB(c.y / alpha), encodeSRGB(c.z / alpha))
    let y = s.x * 0.2126 + s.y * 0.7152 + s.z * 0.0722
    let l = face.x + face.y * (y + face.z * y * (1 - y))
    var o = SIMD3(repeating: l) + (s - SIMD3(repeating: y)) * face.w
    o = o.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    let t = SIMD3(decodeSRGB(o.x), decodeSRGB(o.y), decodeSRGB(o.z)) * alpha
    return c + (t - c) * amount
  }

  /// The body's colour from the backdrop `c` (premultiplied linear, opacity
  /// `alpha`) seen through glass of `look`: lightened, saturated, the face
  /// transfer, tinted and dimmed, in that order, as both backends shade it.
  @inlinable @inline(__always)
  public static func shade(_ c: SIMD3<Float>, alpha: Float, _ look: GlassMemberLook) -> SIMD3<Float> {
    var rgb = lighten(c, alpha: alpha, by: look.adjust.y)
    rgb = saturate(rgb, alpha: alpha, by: look.adjust.x)
    rgb = faceTransfer(rgb, alpha: alpha, face: look.face, amount: look.edge.z)
    let tint = SIMD3(look.tint.x, look.tint.y, look.tint.z)
    rgb = rgb + (tint * alpha - rgb) * look.tint.w
    return rgb * (1 - look.adjust.z)
  }

  /// The colour the glint mixes the face toward: the face's own hue at full
  /// brightness, opaque (white for a grey, black or transparent face).
  @inlinable @inline(__always)
  public static func glintColor(_ c: SIMD4<Float>) -> SIMD4<Float> {
    let e = 0.02 * c.w + 1e-6
    let top = max(c.x, max(c.y, c.z))
    let hue = (SIMD3(c.x, c.y, c.z) + SIMD3(repeating: e)) / (top + e)
    return SIMD4(hue, 1)
  }

  /// The strength of the glint at `depth` pixels inside the edge, where the
  /// wall's normal meets the light at cosine `lit`.
  @inlinable @inline(__always)
  public static func glint(depth: Float, width: Float, lit: Float, litOpacity: Float, oppositeOpacity: Float) -> Float {
    let band = min(max(1 - depth / width, 0), 1)
    let toward = max(lit, 0)
    let away = max(-lit, 0)
    return band * (litOpacity * toward + oppositeOpacity * away)
  }

  /// The blend radius between two members whose gradients are `a` and `b`: all
  /// of `k` where they point against each other (a gap), none from where they
  /// meet at 60 degrees or less (overlapping or nested shapes), smoothly between.
  @inlinable @inline(__always)
  public static func blendRadius(_ k: Float, _ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float {
    let t = min(max((0.5 - (a.x * b.x + a.y * b.y)) / 1.5, 0), 1)
    return k * t * t * (3 - 2 * t)
  }

  /// The quadratic smooth minimum of `a` and `b` with radius `k`, and the weight
  /// of `a` in the blend (1 when `a` alone is the minimum).
  @inlinable @inline(__always)
  public static func smoothMin(_ a: Float, _ b: Float, _ k: Float) -> (distance: Float, weight: Float) {
    if k <= minimumBlendRadius { return a <= b ? (a, 1) : (b, 0) }
    let h = max(k - abs(a - b), 0) / k
    let w = min(max(0.5 + 0.5 * (b - a) / k, 0), 1)
    return (min(a, b) - k * h * h * 0.25, w)
  }

  /// The normal of the blend: `b + (a - b) * w`, normalised (kept as it is when
  /// it vanishes, at the exact centre of a symmetric neck).
  @inlinable @inline(__always)
  public static func blendNormal(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ w: Float) -> SIMD2<Float> {
    let n = b + (a - b) * w
    let length = (n.x * n.x + n.y * n.y).squareRoot()
    return length > 1e-6 ? n / length : n
  }
}

/// What the glass of one member looks like, as the blend carries it: eight
/// vectors that `glass.glsl` holds as `vec4`s.
public struct GlassMemberLook: Hashable, Sendable {
  /// bevelWidth, refraction, dispersion, rimWidth (pixels, pixels, 1, pixels).
  public var bend: SIMD4<Float>
  /// saturation, lightening, dimming, contour opacity.
  public var adjust: SIMD4<Float>
  /// Tint in linear rgb, and its strength.
  public var tint: SIMD4<Float>
  /// Lit glint opacity, opposite glint opacity, light direction xy.
  public var rim: SIMD4<Float>
  /// The weight of each backdrop image (one-hot for a member).
  public var sources: SIMD4<Float>
  /// Glow opacity, sigma (pixels), centre xy (pixels).
  public var glow: SIMD4<Float>
  /// Contour width (pixels), contour grey (linear), face transfer amount, unused.
  public var edge: SIMD4<Float>
  /// Face transfer: emission, transmittance, lift, chroma gain.
  public var face: SIMD4<Float>

  /// A member's appearance.
  public init(_ m: GlassMember) {
    bend = SIMD4(m.bevelWidth, m.refraction, m.dispersion, m.rimWidth)
    adjust = SIMD4(m.saturation, m.lightening, m.dimming, m.contourOpacity)
    tint = m.tint
    rim = SIMD4(m.rimOpacity, m.oppositeRimOpacity, m.light.x, m.light.y)
    var sources = SIMD4<Float>.zero
    sources[min(max(m.source, 0), 3)] = 1
    self.sources = sources
    glow = SIMD4(m.glowOpacity, m.glowSigma, m.glowCenter.x, m.glowCenter.y)
    edge = SIMD4(m.contourWidth, m.contourGray, m.faceAmount, 0)
    face = m.face
  }

  /// `b + (self - b) * w`, component by component.
  @inlinable @inline(__always)
  public func blended(with b: GlassMemberLook, weight w: Float) -> GlassMemberLook {
    var r = b
    r.bend = b.bend + (bend - b.bend) * w
    r.adjust = b.adjust + (adjust - b.adjust) * w
    r.tint = b.tint + (tint - b.tint) * w
    r.rim = b.rim + (rim - b.rim) * w
    r.sources = b.sources + (sources - b.sources) * w
    r.glow = b.glow + (glow - b.glow) * w
    r.edge = b.edge + (edge - b.edge) * w
    r.face = b.face + (face - b.face) * w
    return r
  }
}
