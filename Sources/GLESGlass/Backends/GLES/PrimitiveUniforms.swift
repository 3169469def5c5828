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

/// `common.glsl` BLEND_OVER: a pass that composites over its target reads what
/// the target held from a copy of it, bound to texture unit `destination`.
struct BlendOverUniforms<Primitive: ShaderUniforms>: ShaderUniforms {
  var primitive: Primitive
  /// The copy's texture unit; nil for a pass that replaces its target (no BLEND_OVER).
  var destination: Int?

  func encode(into encoder: inout UniformEncoder) {
    primitive.encode(into: &encoder)
    if let destination { encoder.set("u_destination", .sampler(unit: Int32(destination), integer: false)) }
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
    if let origin = parameters.mask {
      encoder.set("u_mask", .sampler(unit: 0, integer: false))
      encoder.set("u_maskOrigin", .ivec2(Int32(origin.x), Int32(origin.y)))
    }
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
    encoder.set("u_opacity", .float(parameters.opacity))
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
  /// How many backdrop images are bound (units 0 ..< inputs).
  var inputs: Int
  /// The program computes the shadow alone (SHADOW_ONLY): it reads no backdrop
  /// and no appearance, only the shapes and their shadows.
  var shadowOnly = false

  /// The length of the per-member arrays of the program that draws `composite`:
  /// 1 for a single shape, `GlassComposite.maximumMembers` for a group
  /// (`glass.glsl`'s MAX_MEMBERS).
  static func capacity(_ composite: GlassComposite) -> Int {
    composite.members.count == 1 ? 1 : GlassComposite.maximumMembers
  }

  /// The program's #define for `composite`.
  static func define(_ composite: GlassComposite) -> String { "MAX_MEMBERS \(capacity(composite))" }

  func encode(into encoder: inout UniformEncoder) {
    let p = parameters
    if Self.capacity(p) > 1 {
      encoder.set("u_count", .int(Int32(p.members.count)))
      encoder.set("u_blendRadius", .float(p.blendRadius))
    }
    let padding = [SIMD4<Float>](repeating: .zero, count: Self.capacity(p) - p.members.count)
    func array(_ name: String, _ values: [SIMD4<Float>]) { encoder.set(name, .vec4Array(values + padding)) }
    array("u_shape", p.members.map { SIMD4(Float($0.shape.kind.rawValue), $0.shape.exponent, 0, 0) })
    array(
      "u_box", p.members.map { SIMD4($0.shape.center.x, $0.shape.center.y, $0.shape.halfSize.x, $0.shape.halfSize.y) })
    array("u_radii", p.members.map(\.shape.radii))
    array(
      "u_shadow",
      p.members.map { SIMD4($0.shadowOpacity, $0.shadowSigma, $0.shadowOffset.x, $0.shadowOffset.y) })
    if shadowOnly { return }
    for unit in 0..<GlassComposite.maximumSources {
      // Unused samplers share the last bound unit: they are never read.
      encoder.set("u_source\(unit)", .sampler(unit: Int32(min(unit, max(inputs - 1, 0))), integer: false))
    }
    encoder.set("u_backdropOrigin", .ivec2(Int32(p.backdropOrigin.x), Int32(p.backdropOrigin.y)))
    let looks = p.members.map(GlassMemberLook.init)
    array("u_bend", looks.map(\.bend))
    array("u_adjust", looks.map(\.adjust))
    array("u_tint", looks.map(\.tint))
    array("u_rim", looks.map(\.rim))
    array("u_sources", looks.map(\.sources))
    array("u_glow", looks.map(\.glow))
    array("u_edge", looks.map(\.edge))
    array("u_face", looks.map(\.face))
  }
}
