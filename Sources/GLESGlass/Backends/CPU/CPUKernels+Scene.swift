import Foundation

/// The scene primitives on the CPU: `fill.glsl`, `draw_image.glsl` and `glass.glsl`,
/// in the same order of operations, in `Float`. Pixel centres are at +0.5, as
/// `gl_FragCoord` is.
extension CPUKernels {
  // MARK: fill.glsl

  /// `paint(p) * coverage(p)`.
  static func fill(_ p: FillShape, rect: PixelRect, target: Target) {
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * 8) { rows in
      for y in rows {
        let cy = Float(y) + 0.5
        for x in rect.x..<rect.maxX {
          let point = SIMD2(Float(x) + 0.5, cy)
          target.store(p.paint.color(point) * p.shape.coverage(point.x, point.y), x: x, y: y)
        }
      }
    }
  }

  // MARK: draw_image.glsl

  /// The image's pixel (transparent outside it) times the clip's coverage.
  static func drawImage(_ p: DrawImage, source: Source, rect: PixelRect, target: Target) {
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * 4) { rows in
      for y in rows {
        let iy = y - p.origin.y
        for x in rect.x..<rect.maxX {
          let ix = x - p.origin.x
          var c = SIMD4<Float>.zero
          if ix >= 0 && iy >= 0 && ix < source.width && iy < source.height { c = source.pixels[iy * source.width + ix] }
          target.store(c * p.clip.coverage(Float(x) + 0.5, Float(y) + 0.5), x: x, y: y)
        }
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

  /// The glass body and its shadow; see `glass.glsl` for the formulas.
  static func glass(_ p: GlassComposite, source: Source, rect: PixelRect, target: Target) {
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * 32) { rows in
      for y in rows {
        for x in rect.x..<rect.maxX {
          target.store(glassPixel(p, source, SIMD2(Float(x) + 0.5, Float(y) + 0.5)), x: x, y: y)
        }
      }
    }
  }

  @inline(__always)
  static func glassPixel(_ g: GlassComposite, _ source: Source, _ p: SIMD2<Float>) -> SIMD4<Float> {
    let shape = g.shape
    let d = shape.distance(p.x, p.y)
    let coverage = min(max(0.5 - d, 0), 1)
    var shadow: Float = 0
    if g.shadowOpacity > 0 && coverage < 1 {
      let sd = shape.distance(p.x - g.shadowOffset.x, p.y - g.shadowOffset.y)
      shadow = g.shadowOpacity * gaussianEdge(sd / g.shadowSigma)
    }
    var body = SIMD4<Float>.zero
    if coverage > 0 {
      let depth = -d
      var n = SIMD2<Float>.zero
      if depth < max(g.bevelWidth, g.rimWidth) + 1 { n = shape.normal(p.x, p.y) }
      var pull: Float = 0
      if g.bevelWidth > 0 {
        let x = min(max(1 - depth / g.bevelWidth, 0), 1)
        pull = g.refraction * (1 - (1 - x * x).squareRoot())
      }
      body = backdrop(source, g.backdropOrigin, p - n * pull)
      if g.dispersion > 0 && pull > 0 {
        body.x = backdrop(source, g.backdropOrigin, p - n * (pull * (1 + g.dispersion))).x
        body.z = backdrop(source, g.backdropOrigin, p - n * (pull * (1 - g.dispersion))).z
      }
      let lum = body.x * 0.2126 + body.y * 0.7152 + body.z * 0.0722
      var rgb = SIMD3(body.x, body.y, body.z)
      rgb = SIMD3(repeating: lum) + (rgb - SIMD3(repeating: lum)) * g.saturation
      rgb = rgb.replacing(with: 0, where: rgb .< 0)
      rgb = rgb + (SIMD3(repeating: body.w) - rgb) * g.lightening
      rgb = rgb * (1 - g.dimming)
      let tint = SIMD3(g.tint.x, g.tint.y, g.tint.z)
      rgb = rgb + (tint * body.w - rgb) * g.tint.w
      body = SIMD4(rgb, body.w)
      if g.rimWidth > 0 {
        let band = min(max(1 - depth / g.rimWidth, 0), 1)
        let lit = n.x * g.light.x + n.y * g.light.y
        let rim = band * (g.rimOpacity * max(lit, 0) + g.oppositeRimOpacity * max(-lit, 0))
        body = body + (SIMD4(repeating: 1) - body) * rim
      }
      if g.glowOpacity > 0 {
        let q = (p - g.glowCenter) / g.glowSigma
        body = body + (SIMD4(repeating: 1) - body) * (g.glowOpacity * expf(-0.5 * (q.x * q.x + q.y * q.y)))
      }
    }
    return body * coverage + SIMD4(0, 0, 0, shadow) * (1 - coverage)
  }
}

// MARK: copy.glsl

extension CPUKernels {
  /// The input pixel at output + offset, mirrored at the input's edges.
  static func copy(_ p: Copy, source: Source, rect: PixelRect, target: Target) {
    parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount) { rows in
      for y in rows {
        let sy = reflectIndex(y + p.offset.y, count: source.height)
        for x in rect.x..<rect.maxX {
          let sx = reflectIndex(x + p.offset.x, count: source.width)
          target.store(source.pixels[sy * source.width + sx], x: x, y: y)
        }
      }
    }
  }
}
