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
