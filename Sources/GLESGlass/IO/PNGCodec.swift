import CPNG
import Foundation

/// PNG in and out through libpng: every PNG libpng can read becomes RGBA at 8 or
/// 16 bits; outputs are RGBA, written to a temporary file and renamed into place.
public enum PNGCodec {
  /// The default compression level of `write`: libdeflate level 1, as small as zlib at
  /// level 2 (on photos) and about twice as fast as libdeflate level 2, for 2 % more bytes.
  public static let defaultCompression = 1

  /// The default largest image, in pixels, a decode accepts: 100 megapixels.
  public static let defaultMaxPixels = 100_000_000

  /// What `decode` returns: the image, and what libpng warned about.
  public struct Decoded: Sendable {
    /// The pixels, RGBA at the file's depth (16 bits for 16-bit files, else 8).
    public var image: RGBAImage
    /// The colour type, bit depth and interlacing of the file.
    public var header: Header
    /// Warnings libpng gave while reading (a bad ICC profile, say).
    public var warnings: [String]
  }

  /// What a PNG header says.
  public struct Header: Sendable, Equatable {
    /// Size in pixels.
    public var size: PixelSize
    /// Bits per sample in the file: 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    /// The PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    public var colorType: Int
    /// True for Adam7 interlacing.
    public var interlaced: Bool
    /// True when a tRNS chunk gives transparency.
    public var hasTransparencyChunk: Bool
  }

  /// Reads and decodes the PNG file at `path`; errors name the file.
  public static func read(path: String, maxPixels: Int = defaultMaxPixels) throws -> Decoded {
    try decode(try readFile(path), name: path, maxPixels: maxPixels)
  }

  /// Reads a whole file, with errors that say what is wrong with the path.
  static func readFile(_ path: String) throws -> [UInt8] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw GlassError(.fileUnreadable, "\(path): no such file; check the path")
    }
    guard !isFolder.boolValue else {
      throw GlassError(.fileUnreadable, "\(path) is a folder, not a PNG file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw GlassError(.fileUnreadable, "\(path): cannot be read; check its permissions")
    }
    return [UInt8](data)
  }

  /// Reads only the header of PNG data.
  public static func header(of data: [UInt8], name: String) throws -> Header {
    var info = cpng_info()
    var message = [CChar](repeating: 0, count: 512)
    let status = data.withUnsafeBufferPointer { bytes in
      cpng_read_header(bytes.baseAddress, bytes.count, &info, &message, message.count)
    }
    guard status == 0 else {
      throw GlassError(.invalidImage, "\(name): \(String(cBuffer: message)); it is not a readable PNG file")
    }
    return Header(
      size: PixelSize(width: Int(info.width), height: Int(info.height)),
      bitDepth: Int(info.bit_depth), colorType: Int(info.color_type),
      interlaced: info.interlaced != 0, hasTransparencyChunk: info.has_trns != 0)
  }

  /// Decodes PNG data to RGBA. The pixel limit is checked from the header, before
  /// the pixels are allocated.
  public static func decode(_ data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels) throws -> Decoded {
    let header = try header(of: data, name: name)
    try checkPixelLimit(header.size, maxPixels: maxPixels, what: name)
    let depth: RGBAImage.Depth = header.bitDepth == 16 ? .sixteen : .eight
    var message = [CChar](repeating: 0, count: 512)
    var warnings = [CChar](repeating: 0, count: 2048)
    let count = 4 * header.size.pixelCount
    func run(_ out: UnsafeMutableRawBufferPointer) -> Int32 {
      data.withUnsafeBufferPointer { bytes in
        cpng_decode(
          bytes.baseAddress, bytes.count, Int32(depth.rawValue), out.baseAddress, out.count,
          &message, message.count, &warnings, warnings.count)
      }
    }
    let samples: RGBAImage.Samples
    let status: Int32
    switch depth {
    case .eight:
      var values = [UInt8](repeating: 0, count: count)
      status = values.withUnsafeMutableBytes(run)
      samples = .eight(values)
    case .sixteen:
      var values = [UInt16](repeating: 0, count: count)
      status = values.withUnsafeMutableBytes(run)
      samples = .sixteen(values)
    }
    guard status == 0 else {
      throw GlassError(.invalidImage, "\(name): \(String(cBuffer: message)); the PNG data is damaged")
    }
    let warningText = String(cBuffer: warnings)
    return Decoded(
      image: RGBAImage(size: header.size, samples: samples), header: header,
      warnings: warningText.isEmpty ? [] : warningText.components(separatedBy: "; "))
  }

  /// Throws `imageTooLarge` when `size` is over `maxPixels`.
  public static func checkPixelLimit(_ size: PixelSize, maxPixels: Int, what: String) throws {
    let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
    guard overflow || pixels > maxPixels else { return }
    throw GlassError(
      .imageTooLarge,
      "\(what): \(size) is \(megapixels(overflow ? Int.max : pixels)) megapixels, over the limit of "
        + "\(megapixels(maxPixels)) megapixels; raise it with --max-pixels if you mean it")
  }

  static func megapixels(_ pixels: Int) -> String {
    let value = Double(pixels) / 1_000_000
    return value >= 10 ? String(Int(value.rounded())) : String(format: "%.2g", value)
  }

  /// Writes `image` as an RGBA PNG at its own depth. The file appears complete or
  /// not at all: it is written to a temporary name beside `path`, then renamed.
  /// `compression` is a libdeflate level, 0 (stored) to 12 (smallest); rows use
  /// the Sub filter.
  public static func write(_ image: RGBAImage, to path: String, compression: Int = defaultCompression) throws {
    precondition((0...12).contains(compression), "compression is validated by the caller")
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw GlassError(.outputFailure, "cannot write \(path): the folder \(folder) does not exist")
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw GlassError(.outputFailure, "cannot write \(path): it is a folder; name a file")
    }
    let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var message = [CChar](repeating: 0, count: 512)
    let status: Int32
    let width = UInt32(image.width)
    let height = UInt32(image.height)
    switch image.samples {
    case .eight(let values):
      status = values.withUnsafeBytes {
        cpng_encode_file(
          temporary, $0.baseAddress, width, height, 8, 4 * image.width, Int32(compression), &message, message.count)
      }
    case .sixteen(let values):
      status = values.withUnsafeBytes {
        cpng_encode_file(
          temporary, $0.baseAddress, width, height, 16, 8 * image.width, Int32(compression), &message,
          message.count)
      }
    }
    guard status == 0 else {
      unlink(temporary)
      throw GlassError(
        .outputFailure, "cannot write \(path); check the folder's permissions and free space",
        cause: String(cBuffer: message))
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw GlassError(.outputFailure, "cannot write \(path)", cause: reason)
    }
  }
}

extension PNGCodec {
  /// Throws `outputFailure` when `path` cannot be an output file: its folder is
  /// missing, or it names a folder. Checked before any work is done.
  public static func checkWritable(_ path: String) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw GlassError(.outputFailure, "cannot write \(path): the folder \(folder) does not exist")
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw GlassError(.outputFailure, "cannot write \(path): it is a folder; name a file")
    }
    guard FileManager.default.isWritableFile(atPath: folder) else {
      throw GlassError(.outputFailure, "cannot write \(path): the folder \(folder) is not writable")
    }
  }
}
