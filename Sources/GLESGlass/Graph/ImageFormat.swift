/// How a graph image stores its pixels. Both backends store each format alike, so
/// that they round alike.
public enum ImageFormat: Hashable, Sendable, CustomStringConvertible {
  /// Premultiplied linear light, binary16 per channel (GL `RGBA16F`). Every
  /// intermediate of a blur.
  case linearHalf
  /// sRGB-encoded, straight alpha, 8 bits per channel (GL `RGBA8`).
  case srgb8
  /// sRGB-encoded, straight alpha, 16 bits per channel (GL `RGBA16UI`).
  case srgb16

  /// The encoded format of an image depth.
  public static func encoded(_ depth: RGBAImage.Depth) -> ImageFormat {
    depth == .eight ? .srgb8 : .srgb16
  }

  /// Bytes per pixel.
  public var bytesPerPixel: Int { self == .srgb8 ? 4 : 8 }

  /// `linear-half`, `srgb8` or `srgb16`.
  public var description: String {
    switch self {
    case .linearHalf: "linear-half"
    case .srgb8: "srgb8"
    case .srgb16: "srgb16"
    }
  }
}

/// The size and format of a graph image; the key of the transient image pool.
public struct ImageDescriptor: Hashable, Sendable, CustomStringConvertible {
  /// Size in pixels.
  public var size: PixelSize
  /// Storage format.
  public var format: ImageFormat

  /// Makes a descriptor.
  public init(size: PixelSize, format: ImageFormat) {
    self.size = size
    self.format = format
  }

  /// Bytes of pixel storage.
  public var byteCount: Int { size.pixelCount * format.bytesPerPixel }

  /// `WIDTHxHEIGHT format`.
  public var description: String { "\(size) \(format)" }
}
