import CLossy
import CPNG
import Foundation

/// How an output image is written: PNG (lossless, 8 or 16 bits), JPEG or WebP
/// (lossy, 8 bits), each tagged sRGB.
///
/// The format comes from the output's extension (`.png`, `.jpg` or `.jpeg`,
/// `.webp`), or from `format` for a path without one of those (a device,
/// `/dev/stdout`); a `format` that contradicts the extension is an error.
public struct ImageEncoding: Sendable, Equatable {
  /// The file formats glass-gpu writes.
  public enum Format: String, Sendable, CaseIterable {
    /// PNG: lossless, 8 or 16 bits per channel, with alpha.
    case png
    /// JPEG (libjpeg-turbo): lossy, 8 bits, 4:2:0 chroma, no alpha.
    case jpeg
    /// WebP (libwebp): lossy, 8 bits, with alpha.
    case webp

    /// The extension of files of this format, without the dot.
    public var fileExtension: String {
      switch self {
      case .png: "png"
      case .jpeg: "jpg"
      case .webp: "webp"
      }
    }

    /// `PNG`, `JPEG`, `WebP`.
    public var displayName: String {
      switch self {
      case .png: "PNG"
      case .jpeg: "JPEG"
      case .webp: "WebP"
      }
    }

    /// The format a path's extension names (any case), or nil for another extension.
    public init?(pathExtension path: String) {
      switch (path as NSString).pathExtension.lowercased() {
      case "png", "apng": self = .png
      case "jpg", "jpeg": self = .jpeg
      case "webp": self = .webp
      default: return nil
      }
    }
  }

  /// The default `quality` of JPEG and WebP: 90.
  public static let defaultQuality = 90

  /// The format; nil takes it from the output's extension, else PNG.
  public var format: Format?
  /// PNG's compression level (`PNGCodec.encode`): 0 stored, 1 glass-gpu's fast
  /// encoder (the default), 2 to 12 libdeflate's levels.
  public var compression: Int
  /// JPEG's and WebP's quality, 1 (smallest) to 100 (best).
  public var quality: Int

  /// PNG at the default level, or the format of the output's extension.
  public init(
    format: Format? = nil, compression: Int = PNGCodec.defaultCompression, quality: Int = ImageEncoding.defaultQuality
  ) {
    self.format = format
    self.compression = compression
    self.quality = quality
  }

  /// PNG at `compression`, whatever the output's extension.
  public static func png(compression: Int = PNGCodec.defaultCompression) -> ImageEncoding {
    ImageEncoding(format: .png, compression: compression)
  }

  /// Throws `invalidParameter` for a compression or quality out of range.
  public func validate() throws {
    guard (0...12).contains(compression) else {
      throw GlassError(.invalidParameter, "compression \(compression) is out of range; give 0 to 12")
    }
    guard (1...100).contains(quality) else {
      throw GlassError(.invalidParameter, "quality \(quality) is out of range; give 1 (smallest) to 100 (best)")
    }
  }

  /// The format written to `path`: its extension's, `format`'s when it has none
  /// glass-gpu knows, else PNG. Throws `invalidParameter` when `format` and the
  /// extension disagree.
  public func format(forPath path: String) throws -> Format {
    let named = Format(pathExtension: path)
    switch (named, format) {
    case (let named?, let given?) where named != given:
      throw GlassError(
        .invalidParameter,
        "the output \(path) is named as \(named.displayName) but the format asked for is \(given.displayName); "
          + "name a .\(given.fileExtension) file, or leave the format to the extension")
    case (let named?, _): return named
    case (nil, let given?): return given
    case (nil, nil): return .png
    }
  }

  /// Throws `invalidParameter` when `format` cannot hold images of `depth`: JPEG
  /// and WebP hold 8 bits per channel.
  public static func check(_ format: Format, depth: RGBAImage.Depth, path: String? = nil) throws {
    guard depth == .sixteen, format != .png else { return }
    let output = path.map { " (\($0))" } ?? ""
    throw GlassError(
      .invalidParameter,
      "\(format.displayName) output\(output) holds 8 bits per channel, not 16; render 8 bits per channel, or write "
        + "a PNG", hint: .eightBitDepth)
  }

  /// Encodes `image` as `format` and hands the whole file to `body`. `name` names
  /// the output in errors.
  func encode(
    _ image: RGBAImage, as format: Format, name: String, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try validate()
    switch format {
    case .png:
      try PNGCodec.OutputFile.encode(image, compression: compression, name: name, body)
    case .jpeg, .webp:
      try Self.check(format, depth: image.depth, path: name)
      guard case .eight(let values) = image.samples else { preconditionFailure("checked: 8 bits") }
      var message = [CChar](repeating: 0, count: 512)
      var file: UnsafeMutablePointer<UInt8>?
      var size = 0
      let width = UInt32(image.width)
      let height = UInt32(image.height)
      let status = values.withUnsafeBufferPointer { pixels -> Int32 in
        if format == .jpeg {
          guard clossy_is_opaque(pixels.baseAddress, image.size.pixelCount) != 0 else { return 1 }
          return clossy_encode_jpeg(
            pixels.baseAddress, width, height, Int32(quality), &file, &size, &message, message.count)
        }
        return clossy_encode_webp(
          pixels.baseAddress, width, height, Int32(quality), &file, &size, &message, message.count)
      }
      defer { clossy_free(file) }
      if status == 1 {
        throw GlassError(
          .invalidParameter,
          "cannot write \(name): the image has transparent pixels, which JPEG cannot hold; "
            + "give the scene an opaque background, or write PNG or WebP")
      }
      guard status == 0, let file else {
        throw GlassError(.outputFailure, "cannot write \(name)", cause: String(cBuffer: message))
      }
      try body(UnsafeRawBufferPointer(start: file, count: size))
    }
  }

  /// The file of `image` as `format`, in memory.
  public func encoded(_ image: RGBAImage, as format: Format) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try encode(image, as: format, name: "the \(format.displayName)") { bytes = Array($0) }
    return bytes
  }
}

/// JPEG and WebP files decoded, and the colour profile they hold: what the tests
/// check glass-gpu's output with (libjpeg-turbo's and libwebp's own decoders).
public enum LossyDecoder {
  /// Decodes a JPEG or WebP file's bytes to 8-bit RGBA.
  public static func decode(_ data: [UInt8], format: ImageEncoding.Format) throws -> RGBAImage {
    var message = [CChar](repeating: 0, count: 512)
    var pixels: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    let status = data.withUnsafeBufferPointer { bytes -> Int32 in
      switch format {
      case .jpeg: clossy_decode_jpeg(bytes.baseAddress, bytes.count, &pixels, &width, &height, &message, message.count)
      case .webp: clossy_decode_webp(bytes.baseAddress, bytes.count, &pixels, &width, &height, &message, message.count)
      case .png: -2
      }
    }
    defer { clossy_free(pixels) }
    guard status == 0, let pixels else {
      throw GlassError(.invalidImage, "cannot decode the \(format.displayName)", cause: String(cBuffer: message))
    }
    let count = Int(width) * Int(height) * 4
    return RGBAImage(
      size: PixelSize(width: Int(width), height: Int(height)),
      samples: .eight(Array(UnsafeBufferPointer(start: pixels, count: count))))
  }

  /// The ICC profile a JPEG or WebP file holds, or nil.
  public static func embeddedProfile(_ data: [UInt8]) -> [UInt8]? {
    var profile: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status = data.withUnsafeBufferPointer { clossy_embedded_profile($0.baseAddress, $0.count, &profile, &size) }
    defer { clossy_free(profile) }
    guard status == 0, let profile else { return nil }
    return Array(UnsafeBufferPointer(start: profile, count: size))
  }

  /// The sRGB profile glass-gpu embeds.
  public static var sRGBProfile: [UInt8] {
    var size = 0
    guard let bytes = clossy_srgb_profile(&size) else { return [] }
    return Array(UnsafeBufferPointer(start: bytes, count: size))
  }
}
