import Foundation

/// The scene primitives on the CPU: `fill.glsl`, `draw_image.glsl` and `glass.glsl`,
/// in the same order of operations, in `Float`. Pixel centres are at +0.5, as
/// `gl_FragCoord` is.
extension CPUKernels {
  // MARK: fill.glsl

  /// `paint(p) * coverage(p)`.
  static func fill(_ p: FillShape, mask: Source?, rect: PixelRect, target: Target) {
    // A solid square-cornered box, unblended: its inside is one value.
    let inner =
      mask == nil && p.mask == nil && p.paint.kind == .solid ? interior(p.shape, rect, target) : rect.x..<rect.x
    let value = Half.round(p.paint.colors[0])
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * 8) { rows in
      for y in rows {
        let cy = Float(y) + 0.5
        func general(_ xs: Range<Int>) {
          for x in xs {
            let point = SIMD2(Float(x) + 0.5, cy)
            var coverage = p.shape.coverage(point.x, point.y)
            if let mask, let origin = p.mask {
              // The mask's alpha, 0 outside it.
              let mx = x - origin.x
              let my = y - origin.y
              let inside = mx >= 0 && my >= 0 && mx < mask.width && my < mask.height
              coverage *= inside ? mask.pixels[my * mask.width + mx].w : 0
            }
            target.store(p.paint.color(point) * coverage, x: x, y: y)
          }
        }
        let span = covered(inner, p.shape, cy)
        general(rect.x..<span.lowerBound)
        if !span.isEmpty {
          let row = target.linear.unsafelyUnwrapped + y * target.width
          for x in span { row[x] = value }  // store(color * 1): the colour, rounded
        }
        general(span.upperBound..<rect.maxX)
      }
    }
  }

  /// The columns of `rect` a square-cornered box `shape` may cover fully in every
  /// row, when `target` takes plain stores (linear, no blend): a span to try with
  /// `covered`; empty otherwise, and for any other shape.
  static func interior(_ shape: ShapeGeometry, _ rect: PixelRect, _ target: Target) -> Range<Int> {
    guard shape.kind == .roundedBox, shape.radii == .zero, !target.blend, target.format == .linearHalf else {
      return rect.x..<rect.x
    }
    let b = shape.bounds
    let lower = max(rect.x, Int(b.minX.rounded(.up)))
    let upper = min(rect.maxX, Int(b.maxX.rounded(.down)))
    return lower < upper ? lower..<upper : rect.x..<rect.x
  }

  /// `span` when the box `shape` covers every pixel of it in the row at `cy`
  /// (coverage exactly 1), else an empty span at its start. Only the two ends are
  /// measured: inside a square-cornered box the distance is max(|x - cx| - hx,
  /// |y - cy| - hy), and |x - cx|, rounded or not, is largest at an end of any
  /// run of columns, so the ends' coverage bounds every pixel's between.
  static func covered(_ span: Range<Int>, _ shape: ShapeGeometry, _ cy: Float) -> Range<Int> {
    guard !span.isEmpty, shape.coverage(Float(span.lowerBound) + 0.5, cy) == 1,
      shape.coverage(Float(span.upperBound - 1) + 0.5, cy) == 1
    else { return span.lowerBound..<span.lowerBound }
    return span
  }

  // MARK: draw_image.glsl

  /// The image's pixel (transparent outside it) times the clip's coverage and the
  /// opacity.
  static func drawImage(_ p: DrawImage, source: Source, rect: PixelRect, target: Target) {
    // Where the clip covers fully, at opacity 1 and inside the image: the image's
    // pixels, rounded, a row at a time.
    let candidate = p.opacity == 1 ? interior(p.clip, rect, target) : rect.x..<rect.x
    let lower = max(candidate.lowerBound, p.origin.x)
    let upper = min(candidate.upperBound, p.origin.x + source.width)
    let inner = lower < upper ? lower..<upper : rect.x..<rect.x
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * 4) { rows in
      for y in rows {
        let iy = y - p.origin.y
        func general(_ xs: Range<Int>) {
          for x in xs {
            let ix = x - p.origin.x
            var c = SIMD4<Float>.zero
            if ix >= 0 && iy >= 0 && ix < source.width && iy < source.height {
              c = source.pixels[iy * source.width + ix]
            }
            target.store(c * (p.clip.coverage(Float(x) + 0.5, Float(y) + 0.5) * p.opacity), x: x, y: y)
          }
        }
        let span = iy >= 0 && iy < source.height ? covered(inner, p.clip, Float(y) + 0.5) : rect.x..<rect.x
        general(rect.x..<span.lowerBound)
        if !span.isEmpty {
          let row = target.linear.unsafelyUnwrapped + y * target.width
          let pixels = source.pixels + iy * source.width - p.origin.x
          for x in span { row[x] = Half.round(pixels[x]) }  // store(c * (1 * 1))
        }
        general(span.upperBound..<rect.maxX)
      }
    }
  }

  // MARK: glass.glsl

  /// `glass.glsl` `backdrop`: bilinear from four texels, clamped to the image.
  @inline(__always)
  static func backdrop(_ source: Source, _ origin: PixelPoint, _ s: SIMD2<Float>) -> SIMD4<Float> {
    let tx = s.x - Float(origin.x) - 0.5
    let ty = s.y - Float(origin.y) - 0.5
    let fx0 = tx.rounded(.down)
    let fy0 = ty.rounded(.down)
    let fx = tx - fx0
    let fy = ty - fy0
    let ix = Int(fx0)
    let iy = Int(fy0)
    let ax = min(max(ix, 0), source.width - 1)
    let ay = min(max(iy, 0), source.height - 1)
    let bx = min(max(ix + 1, 0), source.width - 1)
    let by = min(max(iy + 1, 0), source.height - 1)
    let c00 = source.pixels[ay * source.width + ax]
    let c10 = source.pixels[ay * source.width + bx]
    let c01 = source.pixels[by * source.width + ax]
    let c11 = source.pixels[by * source.width + bx]
    let top = c00 + (c10 - c00) * fx
    let bottom = c01 + (c11 - c01) * fx
    return top + (bottom - top) * fy
  }

  /// `glass.glsl` `gaussianEdge`: `0.5 erfc(u / sqrt 2)` by Abramowitz and Stegun 7.1.26.
  @inline(__always)
  static func gaussianEdge(_ u: Float) -> Float {
    let z = abs(u) * 0.707_106_78
    let t = 1 / (1 + 0.327_591_1 * z)
    let poly =
      t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))))
    let tail = 0.5 * poly * expf(-z * z)
    return u >= 0 ? tail : 1 - tail
  }

  /// `glass.glsl` `backdrop`: the backdrop images weighted by `w` (the first alone
  /// when its weight is 1).
  @inline(__always)
  static func backdrop(
    _ sources: [Source], _ w: SIMD4<Float>, _ origin: PixelPoint, _ s: SIMD2<Float>
  )
    -> SIMD4<Float>
  {
    if w.x == 1 { return backdrop(sources[0], origin, s) }
    var c = SIMD4<Float>.zero
    for j in 0..<min(sources.count, 4) where w[j] > 0 { c += backdrop(sources[j], origin, s) * w[j] }
    return c
  }

  /// The glass body of a group and its shadow; see `glass.glsl` and
  /// `GlassProfile` for the formulas.
  static func glass(_ p: GlassComposite, sources: [Source], rect: PixelRect, target: Target) {
    if p.showsShadowOnly(in: rect) {
      // No body or contour reaches these pixels: the shadow alone, as
      // glassPixel computes it there.
      parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * 8 * p.members.count) { rows in
        for y in rows {
          for x in rect.x..<rect.maxX {
            let shadow = glassShadow(p, SIMD2(Float(x) + 0.5, Float(y) + 0.5))
            target.store(SIMD4(0, 0, 0, shadow), x: x, y: y)
          }
        }
      }
      return
    }
    let looks = p.members.map(GlassMemberLook.init)
    let cost = rect.pixelCount * 32 * p.members.count
    parallelRows(rect.y..<rect.maxY, cost: cost) { rows in
      for y in rows {
        for x in rect.x..<rect.maxX {
          target.store(glassPixel(p, looks, sources, SIMD2(Float(x) + 0.5, Float(y) + 0.5)), x: x, y: y)
        }
      }
    }
  }

  /// The group's one shadow at p: the blended field of the members that cast
  /// one, each at its offset, folded as the body is (`glass.glsl` shadowAt).
  @inline(__always)
  static func glassShadow(_ g: GlassComposite, _ p: SIMD2<Float>) -> Float {
    let members = g.members
    let k = g.blendRadius
    var sd: Float = 0
    var sn = SIMD2<Float>.zero
    var first = 0
    var haveNormal = false
    var opacity: Float = 0
    var sigma: Float = 0
    var any = false
    for (i, m) in members.enumerated() where m.shadowOpacity > 0 {
      let q = p - m.shadowOffset
      let si = m.shape.distance(q.x, q.y)
      if !any {
        sd = si
        first = i
        opacity = m.shadowOpacity
        sigma = m.shadowSigma
        any = true
      } else if si < sd + k {
        if !haveNormal {
          let q0 = p - members[first].shadowOffset
          sn = members[first].shape.normal(q0.x, q0.y)
          haveNormal = true
        }
        let ni = m.shape.normal(q.x, q.y)
        let (blended, w) = GlassProfile.smoothMin(sd, si, GlassProfile.blendRadius(k, sn, ni))
        sd = blended
        if w <= 0 {
          sn = ni
          opacity = m.shadowOpacity
          sigma = m.shadowSigma
        } else if w < 1 {
          sn = GlassProfile.blendNormal(sn, ni, w)
          opacity = m.shadowOpacity + (opacity - m.shadowOpacity) * w
          sigma = m.shadowSigma + (sigma - m.shadowSigma) * w
        }
      }
    }
    return any ? opacity * gaussianEdge(sd / sigma) : 0
  }

  @inline(__always)
  static func glassPixel(
    _ g: GlassComposite, _ looks: [GlassMemberLook], _ sources: [Source], _ p: SIMD2<Float>
  ) -> SIMD4<Float> {
    let members = g.members
    let count = members.count
    let k = g.blendRadius
    // The blended field: distance, normal and appearance.
    var d = members[0].shape.distance(p.x, p.y)
    var n = SIMD2<Float>.zero
    var haveNormal = false
    var look = looks[0]
    if count > 1 {
      for i in 1..<count {
        let di = members[i].shape.distance(p.x, p.y)
        if di >= d + k { continue }
        // The first member's normal, once another one comes within reach.
        if !haveNormal {
          n = members[0].shape.normal(p.x, p.y)
          haveNormal = true
        }
        let ni = members[i].shape.normal(p.x, p.y)
        let (blended, w) = GlassProfile.smoothMin(d, di, GlassProfile.blendRadius(k, n, ni))
        d = blended
        if w <= 0 {
          n = ni
          look = looks[i]
        } else if w < 1 {
          n = GlassProfile.blendNormal(n, ni, w)
          look = look.blended(with: looks[i], weight: w)
        }
      }
    }
    let coverage = min(max(0.5 - d, 0), 1)
    let shadow = coverage < 1 ? glassShadow(g, p) : 0
    var body = SIMD4<Float>.zero
    if coverage > 0 {
      let depth = -d
      let bevel = look.bend.x
      let rimWidth = look.bend.w
      if !haveNormal && depth < max(bevel, rimWidth) + 1 { n = members[0].shape.normal(p.x, p.y) }
      let pull = GlassProfile.pull(depth: depth, bevelWidth: bevel, refraction: look.bend.y)
      let origin = g.backdropOrigin
      body = backdrop(sources, look.sources, origin, p - n * pull)
      let dispersion = look.bend.z
      if dispersion > 0 && pull > 0 {
        body.x = backdrop(sources, look.sources, origin, p - n * (pull * (1 + dispersion))).x
        body.z = backdrop(sources, look.sources, origin, p - n * (pull * (1 - dispersion))).z
      }
      let rgb = GlassProfile.shade(SIMD3(body.x, body.y, body.z), alpha: body.w, look)
      body = SIMD4(rgb, body.w)
      if rimWidth > 0 {
        let lit = n.x * look.rim.z + n.y * look.rim.w
        let r = GlassProfile.glint(
          depth: depth, width: rimWidth, lit: lit, litOpacity: look.rim.x, oppositeOpacity: look.rim.y)
        body = body + (GlassProfile.glintColor(body) - body) * r
      }
      let glow = look.glow
      if glow.x > 0 {
        let q = (p - SIMD2(glow.z, glow.w)) / glow.y
        body = body + (SIMD4(repeating: 1) - body) * (glow.x * expf(-0.5 * (q.x * q.x + q.y * q.y)))
      }
    }
    var outside = shadow * (1 - coverage)
    var gray: Float = 0
    let contour = look.adjust.w
    if contour > 0 && coverage < 1 {
      let ring = min(max(0.5 - d + look.edge.x, 0), 1) - coverage
      let edge = (1 - shadow) * contour * ring
      outside += edge
      gray = look.edge.y * edge
    }
    return body * coverage + SIMD4(gray, gray, gray, outside)
  }
}

// MARK: copy.glsl

extension CPUKernels {
  /// The input pixel at output + offset, mirrored at the input's edges.
  static func copy(_ p: Copy, source: Source, rect: PixelRect, target: Target) {
    // Rows whose source columns need no mirroring: no index arithmetic per pixel.
    // The final pass of every frame (to 8-bit sRGB) is such a copy of the canvas.
    let inside = rect.x + p.offset.x >= 0 && rect.maxX + p.offset.x <= source.width
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount) { rows in
      for y in rows {
        let sy = reflectIndex(y + p.offset.y, count: source.height)
        if inside {
          let row = source.pixels + sy * source.width + p.offset.x
          if target.format == .srgb8 && !target.blend {
            target.storeSRGB8Row(row + rect.x, count: rect.width, x: rect.x, y: y)
            continue
          }
          for x in rect.x..<rect.maxX { target.store(row[x], x: x, y: y) }
          continue
        }
        for x in rect.x..<rect.maxX {
          let sx = reflectIndex(x + p.offset.x, count: source.width)
          target.store(source.pixels[sy * source.width + sx], x: x, y: y)
        }
      }
    }
  }
}
