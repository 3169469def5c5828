/// The closed set of primitives every effect is lowered into. Each has one GLSL
/// file in Sources/Shaders, one CPU kernel in Backends/CPU, and one uniform struct
/// in Backends/GLES. The output format of a pass picks its output stage: store
/// premultiplied linear (`linearHalf`), or unpremultiply and sRGB-encode.
public enum Primitive: Hashable, Sendable {
  /// Copies canvas pixels from their mirrored image pixels, untouched.
  case mirrorExtend(MirrorExtend)
  /// Halves the resolution with the binomial filter [1 3 3 1] / 8 per axis.
  case downsample(Downsample)
  /// A symmetric 1-D convolution along one axis.
  case convolve(Convolve)
  /// Doubles the resolution by bilinear interpolation (weights 3/4, 1/4).
  case upsample(Upsample)
  /// A colour or gradient times a shape's anti-aliased coverage (and a mask's).
  case fill(FillShape)
  /// An image placed 1:1, times its clip shape's coverage.
  case drawImage(DrawImage)
  /// The glass body and its shadow, from a frosted backdrop image.
  case glass(GlassComposite)
  /// Pixels of the input, mirrored at its edges, through the output stage.
  case copy(Copy)

  /// The primitive's name, as in its GLSL file.
  public var name: String {
    switch self {
    case .mirrorExtend: "mirror_extend"
    case .downsample: "downsample"
    case .convolve: "convolve"
    case .upsample: "upsample"
    case .fill: "fill"
    case .drawImage: "draw_image"
    case .glass: "glass"
    case .copy: "copy"
    }
  }
}

/// How a pass reads its input.
public enum SourceAddressing: Hashable, Sendable {
  /// The input is the source image, read as the mirrored canvas around it: pass
  /// positions are canvas pixels.
  case canvas(MirrorCanvas)
  /// The input is an image of the graph, mirrored at its own edges: pass positions
  /// are its pixels.
  case image
}

/// An affine map from an output pixel's centre to a position in the input, per
/// axis: `input = (output + 0.5) * scale + offset`, in input pixels (or canvas
/// pixels for canvas addressing).
public struct PixelMap: Hashable, Sendable {
  /// Input pixels per output pixel.
  public var scale: Double
  /// Offset added after scaling, per axis.
  public var offsetX: Double
  /// Offset added after scaling, per axis.
  public var offsetY: Double

  /// Makes a map.
  public init(scale: Double, offsetX: Double, offsetY: Double) {
    self.scale = scale
    self.offsetX = offsetX
    self.offsetY = offsetY
  }
}

/// Parameters of `Primitive.mirrorExtend`: output pixel + `offset` is a canvas pixel.
public struct MirrorExtend: Hashable, Sendable {
  /// The canvas around the image.
  public var canvas: MirrorCanvas
  /// Output pixel -> canvas pixel.
  public var offset: PixelPoint
}

/// Parameters of `Primitive.downsample`; `map.scale` is 2.
public struct Downsample: Hashable, Sendable {
  /// How the input is read.
  public var addressing: SourceAddressing
  /// Output pixel centre -> centre of its 2x2 input block.
  public var map: PixelMap
}

/// Parameters of `Primitive.convolve`.
public struct Convolve: Hashable, Sendable {
  /// The axis of a 1-D convolution.
  public enum Axis: Hashable, Sendable {
    /// Along rows.
    case horizontal
    /// Along columns.
    case vertical
  }

  /// How the input is read.
  public var addressing: SourceAddressing
  /// Along which axis.
  public var axis: Axis
  /// Output pixel + `offset` is the input pixel at the kernel's centre.
  public var offset: PixelPoint
  /// Weights of taps `0 ... radius`; the kernel is symmetric.
  public var weights: [Float]

  /// Tap radius.
  public var radius: Int { weights.count - 1 }
}

/// Parameters of `Primitive.upsample`; `map.scale` is 1/2.
public struct Upsample: Hashable, Sendable {
  /// Output pixel centre -> input position of its bilinear tap.
  public var map: PixelMap
}

/// Parameters of `Primitive.copy`: output pixel + `offset` is the input pixel
/// (mirrored at the input's edges).
public struct Copy: Hashable, Sendable {
  /// Output pixel -> input pixel.
  public var offset: PixelPoint
}

/// Parameters of `Primitive.fill`: `paint` times the coverage of `shape`.
public struct FillShape: Hashable, Sendable {
  /// The shape, in target pixels.
  public var shape: ShapeGeometry
  /// The colour or gradient, in target pixels.
  public var paint: Paint
  /// With a mask: the target pixel of the mask's top-left pixel. The pass then
  /// reads one input, the mask, whose alpha multiplies the coverage (0 outside it):
  /// text is a paint times its glyphs' coverage.
  public var mask: PixelPoint? = nil
}

/// A colour or gradient in pixels, premultiplied linear: what `FillShape` paints.
public struct Paint: Hashable, Sendable {
  /// The kind of paint.
  public enum Kind: Int32, Hashable, Sendable {
    /// One colour.
    case solid = 0
    /// Along the line from `geometry.xy` to `geometry.zw`.
    case linear = 1
    /// By distance from `geometry.xy`, from radius `geometry.z` to `geometry.w`.
    case radial = 2
  }

  /// The most stops a gradient may have.
  public static let maximumStops = 8

  /// The kind.
  public var kind: Kind
  /// Premultiplied linear colours, one per stop (one for a solid colour).
  public var colors: [SIMD4<Float>]
  /// Stop locations, increasing, in [0, 1].
  public var locations: [Float]
  /// Linear: start xy, end zw; radial: centre xy, start and end radius (pixels).
  public var geometry: SIMD4<Float>

  /// One colour.
  public static func solid(_ color: SIMD4<Float>) -> Paint {
    Paint(kind: .solid, colors: [color], locations: [0], geometry: .zero)
  }

  /// The gradient parameter at pixel position p, before clamping.
  @inlinable
  public func parameter(_ p: SIMD2<Float>) -> Float {
    if kind == .linear {
      let d = SIMD2(geometry.z - geometry.x, geometry.w - geometry.y)
      let length2 = d.x * d.x + d.y * d.y
      return length2 > 0 ? ((p.x - geometry.x) * d.x + (p.y - geometry.y) * d.y) / length2 : 0
    }
    let span = geometry.w - geometry.z
    let dx = p.x - geometry.x
    let dy = p.y - geometry.y
    let r = (dx * dx + dy * dy).squareRoot() - geometry.z
    return span > 0 ? r / span : (r >= 0 ? 1 : 0)
  }

  /// The colour at pixel position p: `fill.glsl` `paintColor`.
  @inlinable
  public func color(_ p: SIMD2<Float>) -> SIMD4<Float> {
    if kind == .solid { return colors[0] }
    let t = min(max(parameter(p), 0), 1)
    if t <= locations[0] { return colors[0] }
    for i in 1..<colors.count {
      let l0 = locations[i - 1]
      let l1 = locations[i]
      if t <= l1 {
        let f = l1 > l0 ? (t - l0) / (l1 - l0) : 1
        return colors[i - 1] + (colors[i] - colors[i - 1]) * f
      }
    }
    return colors[colors.count - 1]
  }
}

/// Parameters of `Primitive.drawImage`: the input image with its top-left pixel at
/// `origin` of the target, times the coverage of `clip`.
public struct DrawImage: Hashable, Sendable {
  /// Target pixel of the image's top-left pixel.
  public var origin: PixelPoint
  /// The clip shape, in target pixels.
  public var clip: ShapeGeometry
  /// A factor on every pixel (1: the image as it is).
  public var opacity: Float = 1
}

/// Parameters of `Primitive.glass`, in pixels: a group of glass shapes that
/// render as one body (`glass.glsl` has the formulas). The members' signed
/// distances are folded into one field by a smooth minimum of radius
/// `blendRadius`, shrunk where their gradients agree (`GlassProfile`); the bevel,
/// lens, rim and shadow are those of the blended field, and each member's
/// appearance is cross-faded by the same weights. A group of one member is that
/// member's glass exactly. A material is the same primitive with one member and no
/// bevel, rim, shadow or glow.
///
/// A pass reads one frosted backdrop per distinct frost of its members (at most
/// `maximumSources`), all of the same size, starting at `backdropOrigin`.
public struct GlassComposite: Hashable, Codable, Sendable {
  /// The most members one pass blends.
  public static let maximumMembers = 16
  /// The most backdrop images one pass reads.
  public static let maximumSources = 4

  /// The shapes, in paint order; at least one.
  public var members: [GlassMember]
  /// Radius of the smooth minimum between members, pixels (0: a plain union).
  public var blendRadius: Float = 0
  /// Target pixel of the backdrop images' top-left pixel.
  public var backdropOrigin: PixelPoint

  /// A group.
  public init(members: [GlassMember], blendRadius: Float = 0, backdropOrigin: PixelPoint) {
    self.members = members
    self.blendRadius = blendRadius
    self.backdropOrigin = backdropOrigin
  }

  /// One shape with nothing set but where the backdrop lies.
  public init(shape: ShapeGeometry, backdropOrigin: PixelPoint) {
    self.init(members: [GlassMember(shape: shape)], backdropOrigin: backdropOrigin)
  }
}

/// One shape of a `GlassComposite`: its geometry and its optics, in pixels.
public struct GlassMember: Hashable, Codable, Sendable {
  /// The glass shape, in target pixels.
  public var shape: ShapeGeometry
  /// Which of the pass's backdrop images it sees through (its frost).
  public var source: Int = 0
  /// Width of the bevel band, pixels.
  public var bevelWidth: Float = 0
  /// Inward pull at the rim, pixels.
  public var refraction: Float = 0
  /// Relative red/blue spread of the pull.
  public var dispersion: Float = 0
  /// Width of the specular glint, pixels: it fades to nothing this far inside.
  public var rimWidth: Float = 0
  /// Saturation (1: unchanged).
  public var saturation: Float = 1
  /// Light added: the share of the headroom of the brightest channel.
  public var lightening: Float = 0
  /// Darkening.
  public var dimming: Float = 0
  /// Tint: linear rgb, and its strength in w.
  public var tint: SIMD4<Float> = .zero
  /// Glint brightness facing the light.
  public var rimOpacity: Float = 0
  /// Glint brightness facing away.
  public var oppositeRimOpacity: Float = 0
  /// Unit vector toward the light (y down).
  public var light: SIMD2<Float> = .zero
  /// Opacity of the dark contour just outside the edge.
  public var contourOpacity: Float = 0
  /// Width of the dark contour, pixels.
  public var contourWidth: Float = 0
  /// Grey of the contour, linear (0: black).
  public var contourGray: Float = 0
  /// Face transfer (`GlassProfile.faceTransfer`): emission, transmittance, lift,
  /// chroma gain.
  public var face: SIMD4<Float> = SIMD4(0, 1, 0, 1)
  /// How much of the face transfer replaces the body (0: none, the light look).
  public var faceAmount: Float = 0
  /// Shadow opacity.
  public var shadowOpacity: Float = 0
  /// Shadow Gaussian sigma, pixels (positive).
  public var shadowSigma: Float = 1
  /// Shadow offset, pixels.
  public var shadowOffset: SIMD2<Float> = .zero
  /// Glow opacity.
  public var glowOpacity: Float = 0
  /// Glow Gaussian sigma, pixels (positive).
  public var glowSigma: Float = 1
  /// Glow centre, target pixels.
  public var glowCenter: SIMD2<Float> = .zero

  /// A member with nothing set but the shape.
  public init(shape: ShapeGeometry) {
    self.shape = shape
  }
}
