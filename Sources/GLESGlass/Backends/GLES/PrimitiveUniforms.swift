/// The uniforms of each primitive's GLSL file, one struct per primitive. The
/// GLES backend checks each against the linked program (`GLProgram.apply`).

/// `common.glsl` SOURCE_CANVAS: the mirrored canvas around the source image.
struct MirrorCanvasUniforms: ShaderUniforms {
  var canvas: MirrorCanvas

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_canvasSize", .vec2(Float(canvas.canvasSize.width), Float(canvas.canvasSize.height)))
    encoder.set("u_imageOrigin", .vec2(Float(canvas.imageOrigin.x), Float(canvas.imageOrigin.y)))
    encoder.set("u_imageSize", .vec2(Float(canvas.imageSize.width), Float(canvas.imageSize.height)))
  }
}

/// `mirror_extend.glsl`.
struct MirrorExtendUniforms: ShaderUniforms {
  var parameters: MirrorExtend
  var integerSource: Bool

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: integerSource))
    encoder.set("u_offset", .ivec2(Int32(parameters.offset.x), Int32(parameters.offset.y)))
    MirrorCanvasUniforms(canvas: parameters.canvas).encode(into: &encoder)
  }
}

/// `downsample.glsl`.
struct DownsampleUniforms: ShaderUniforms {
  var parameters: Downsample

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_scale", .vec2(Float(parameters.map.scale), Float(parameters.map.scale)))
    encoder.set("u_offset", .vec2(Float(parameters.map.offsetX), Float(parameters.map.offsetY)))
    if case .canvas(let canvas) = parameters.addressing {
      MirrorCanvasUniforms(canvas: canvas).encode(into: &encoder)
    }
  }
}

/// `convolve.glsl`.
struct ConvolveUniforms: ShaderUniforms {
  var parameters: Convolve

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_offset", .ivec2(Int32(parameters.offset.x), Int32(parameters.offset.y)))
    let axis: (Int32, Int32) = parameters.axis == .horizontal ? (1, 0) : (0, 1)
    encoder.set("u_axis", .ivec2(axis.0, axis.1))
    encoder.set("u_radius", .int(Int32(parameters.radius)))
    var weights = parameters.weights
    weights += [Float](repeating: 0, count: BlurPlan.maximumRadius + 1 - weights.count)
    encoder.set("u_weights", .floatArray(weights))
    if case .canvas(let canvas) = parameters.addressing {
      MirrorCanvasUniforms(canvas: canvas).encode(into: &encoder)
    }
  }
}

/// `upsample.glsl`.
struct UpsampleUniforms: ShaderUniforms {
  var parameters: Upsample

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_scale", .vec2(Float(parameters.map.scale), Float(parameters.map.scale)))
    encoder.set("u_offset", .vec2(Float(parameters.map.offsetX), Float(parameters.map.offsetY)))
  }
}

/// `common.glsl` SHAPE: a shape's distance function.
struct ShapeUniforms: ShaderUniforms {
  var shape: ShapeGeometry

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_shapeKind", .int(shape.kind.rawValue))
    encoder.set("u_shapeBox", .vec4(SIMD4(shape.center.x, shape.center.y, shape.halfSize.x, shape.halfSize.y)))
    encoder.set("u_shapeRadii", .vec4(shape.radii))
    encoder.set("u_shapeExponent", .float(shape.exponent))
  }
}

/// `fill.glsl`.
struct FillUniforms: ShaderUniforms {
  var parameters: FillShape
  /// FULL_COVERAGE: the shape's uniforms are not in the program.
  var fullCoverage: Bool

  func encode(into encoder: inout UniformEncoder) {
    let paint = parameters.paint
    encoder.set("u_paintKind", .int(paint.kind.rawValue))
    encoder.set("u_stopCount", .int(Int32(paint.colors.count)))
    let padding = Paint.maximumStops - paint.colors.count
    encoder.set("u_colors", .vec4Array(paint.colors + [SIMD4<Float>](repeating: .zero, count: padding)))
    encoder.set("u_locations", .floatArray(paint.locations + [Float](repeating: 1, count: padding)))
    encoder.set("u_geometry", .vec4(paint.geometry))
    if !fullCoverage { ShapeUniforms(shape: parameters.shape).encode(into: &encoder) }
  }
}

/// `draw_image.glsl`.
struct DrawImageUniforms: ShaderUniforms {
  var parameters: DrawImage
  /// FULL_COVERAGE: the clip's uniforms are not in the program.
  var fullCoverage: Bool

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_origin", .ivec2(Int32(parameters.origin.x), Int32(parameters.origin.y)))
    if !fullCoverage { ShapeUniforms(shape: parameters.clip).encode(into: &encoder) }
  }
}

/// `copy.glsl`.
struct CopyUniforms: ShaderUniforms {
  var parameters: Copy

  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_offset", .ivec2(Int32(parameters.offset.x), Int32(parameters.offset.y)))
  }
}

/// `glass.glsl`.
struct GlassUniforms: ShaderUniforms {
  var parameters: GlassComposite

  func encode(into encoder: inout UniformEncoder) {
    let p = parameters
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_backdropOrigin", .ivec2(Int32(p.backdropOrigin.x), Int32(p.backdropOrigin.y)))
    encoder.set("u_bend", .vec4(SIMD4(p.bevelWidth, p.refraction, p.dispersion, p.rimWidth)))
    encoder.set("u_adjust", .vec4(SIMD4(p.saturation, p.lightening, p.dimming, 0)))
    encoder.set("u_tint", .vec4(p.tint))
    encoder.set("u_rim", .vec4(SIMD4(p.rimOpacity, p.oppositeRimOpacity, p.light.x, p.light.y)))
    encoder.set("u_shadow", .vec4(SIMD4(p.shadowOpacity, p.shadowSigma, p.shadowOffset.x, p.shadowOffset.y)))
    encoder.set("u_glow", .vec4(SIMD4(p.glowOpacity, p.glowSigma, p.glowCenter.x, p.glowCenter.y)))
    ShapeUniforms(shape: p.shape).encode(into: &encoder)
  }
}
