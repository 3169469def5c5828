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

  /// The primitive's name, as in its GLSL file.
  public var name: String {
    switch self {
    case .mirrorExtend: "mirror_extend"
    case .downsample: "downsample"
    case .convolve: "convolve"
    case .upsample: "upsample"
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
