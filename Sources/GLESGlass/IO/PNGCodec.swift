import CPNG
import Foundation

/// PNG in and out through libpng: every PNG libpng can read becomes RGBA at 8 or
/// 16 bits; outputs are RGBA, written by `OutputFile` (a temporary file renamed into place).
public enum PNGCodec {
  /// The default compression level of `write`: 1, glass-gpu's fast encoder
  /// (fast_png.c: Paeth rows, Huffman codes per band of rows, runs of zeros),
  /// four times faster than libdeflate's level 1 for 5 % more bytes on a rendered
  /// 1080p frame (`glass-gpu-bench encode`). Level 0 stores; 2 to 12 are libdeflate's.
  public static let defaultCompression = 1

  /// The level that selects glass-gpu's fast encoder.
  public static let fastCompression = 1

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
    /// Bytes of compressed image data the file holds (its IDAT chunks).
    public var compressedBytes: Int

    /// Samples per pixel in the file: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA, 1 palette.
    var channels: Int {
      switch colorType {
      case 2: 3
      case 4: 2
      case 6: 4
      default: 1
      }
    }

    /// The fewest bytes the image data inflates to: every row's samples, packed.
    public var minimumInflatedBytes: Int {
      let rowBits = size.width.multipliedReportingOverflow(by: channels * bitDepth)
      guard !rowBits.overflow else { return .max }
      let row = (rowBits.partialValue + 7) / 8
      let total = row.multipliedReportingOverflow(by: size.height)
      return total.overflow ? .max : total.partialValue
    }

    /// The most bytes `compressedBytes` of deflate data can inflate to: deflate
    /// codes at best 258 bytes in 2 bits, 1032:1, plus a little for block headers.
    public var maximumInflatedBytes: Int {
      let (bytes, overflow) = compressedBytes.multipliedReportingOverflow(by: 1032)
      return overflow ? .max : bytes + 4096
    }
  }

  /// Reads and decodes the PNG file at `path`; errors name the file.
  public static func read(path: String, maxPixels: Int = defaultMaxPixels) throws -> Decoded {
    try read(path: path, maxPixels: maxPixels, checkingHeader: { _ in })
  }

  /// Reads the PNG file at `path`, runs `check` on its header (what is made of
  /// the image can then be refused before any pixel is decoded), and decodes it.
  public static func read(
    path: String, maxPixels: Int, checkingHeader check: (Header) throws -> Void
  ) throws
    -> Decoded
  {
    let data = try readFile(path, maxPixels: maxPixels)
    let header = try header(of: data, name: path)
    try checkPixelLimit(header.size, maxPixels: maxPixels, file: path)
    try checkDataSize(header, name: path)
    try check(header)
    return try decode(data, name: path, maxPixels: maxPixels)
  }

  /// The largest PNG file, in bytes, that can hold an image of `maxPixels` pixels:
  /// 16-bit RGBA stored uncompressed, and room for metadata.
  static func maximumFileBytes(maxPixels: Int) -> Int {
    let (bytes, overflow) = min(maxPixels, maximumMaxPixels).multipliedReportingOverflow(by: 9)
    return overflow ? .max : bytes + (64 << 20)
  }

  /// Reads a PNG file whole, refusing one larger than any PNG of `maxPixels`
  /// pixels can be; errors say what is wrong with the path.
  static func readFile(_ path: String, maxPixels: Int) throws -> [UInt8] {
    try readFile(path, maxBytes: maximumFileBytes(maxPixels: maxPixels), what: "a PNG of at most \(amount(maxPixels))")
  }

  /// Opens `path` for reading, and gives its size, when it is a regular file of at
  /// most `maxBytes` bytes; else throws, saying what is wrong with the path:
  /// missing, unreadable, a folder, a device, a FIFO or a socket (which would
  /// block or never end), or larger than `what` can be. Every input file a scene
  /// names (images, fonts) and every scene file is checked by it before it is read.
  static func openRegularFile(_ path: String, maxBytes: Int, what: String) throws -> (descriptor: Int32, size: Int) {
    if let problem = FilePaths.problem(with: path) { throw GlassError(.fileUnreadable, problem) }
    var info = stat()
    guard stat(path, &info) == 0 else {
      let reason = errno
      if reason == ENOENT || reason == ENOTDIR {
        throw GlassError(.fileUnreadable, "no such file; check the path", file: path)
      }
      throw GlassError(
        .fileUnreadable, "cannot be read; check the path and its permissions",
        cause: String(cString: strerror(reason)), file: path)
    }
    try checkRegular(info, path)
    guard Int(info.st_size) <= maxBytes else {
      throw GlassError(
        .fileUnreadable,
        "the file is \(byteAmount(Int(info.st_size))), larger than \(what) can be; check the path", file: path)
    }
    // Without blocking, and checked again once open: a FIFO put in its place
    // since would otherwise block here for ever.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw GlassError(
        .fileUnreadable, "cannot be read; check its permissions", cause: String(cString: strerror(errno)), file: path)
    }
    do {
      guard fstat(descriptor, &info) == 0 else {
        throw GlassError(.fileUnreadable, "cannot be read", cause: String(cString: strerror(errno)), file: path)
      }
      try checkRegular(info, path)
    } catch {
      close(descriptor)
      throw error
    }
    return (descriptor, Int(info.st_size))
  }

  /// Throws unless `info` is a regular file's, saying what it is instead.
  private static func checkRegular(_ info: stat, _ path: String) throws {
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw GlassError(.fileUnreadable, "it is a folder, not a file; name a file", file: path)
    case S_IFCHR:
      throw GlassError(.fileUnreadable, "it is a character device, not a regular file; name a file", file: path)
    case S_IFBLK: throw GlassError(.fileUnreadable, "it is a block device, not a regular file; name a file", file: path)
    case S_IFIFO:
      throw GlassError(.fileUnreadable, "it is a FIFO (named pipe), not a regular file; name a file", file: path)
    case S_IFSOCK: throw GlassError(.fileUnreadable, "it is a socket, not a regular file; name a file", file: path)
    default: throw GlassError(.fileUnreadable, "it is not a regular file; name a file", file: path)
    }
  }

  /// Reads a whole regular file of at most `maxBytes` bytes (`what` says what a
  /// file that large cannot be); errors say what is wrong with the path
  /// (`openRegularFile`).
  static func readFile(_ path: String, maxBytes: Int = .max, what: String = "") throws -> [UInt8] {
    let (descriptor, size) = try openRegularFile(path, maxBytes: maxBytes, what: what)
    defer { close(descriptor) }
    // Read to the end (the file may have changed size since stat), never past the limit.
    var bytes = [UInt8]()
    bytes.reserveCapacity(size)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        throw GlassError(.fileUnreadable, "cannot be read", cause: String(cString: strerror(errno)), file: path)
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
      guard bytes.count <= maxBytes else {
        throw GlassError(
          .fileUnreadable, "the file grew while it was read, past \(byteAmount(maxBytes))", file: path)
      }
    }
    return bytes
  }

  /// Reads only the header of PNG data.
  public static func header(of data: [UInt8], name: String) throws -> Header {
    var info = cpng_info()
    var message = [CChar](repeating: 0, count: 512)
    let status = data.withUnsafeBufferPointer { bytes in
      cpng_read_header(bytes.baseAddress, bytes.count, &info, &message, message.count)
    }
    guard status == 0 else {
      throw GlassError(.invalidImage, "\(String(cBuffer: message)); it is not a readable PNG file", file: name)
    }
    return Header(
      size: PixelSize(width: Int(info.width), height: Int(info.height)),
      bitDepth: Int(info.bit_depth), colorType: Int(info.color_type),
      interlaced: info.interlaced != 0, hasTransparencyChunk: info.has_trns != 0,
      compressedBytes: Int(clamping: info.idat_bytes))
  }

  /// Throws `invalidImage` when the file's image data cannot fill its header's
  /// size however it inflates: a tiny file claiming a huge image is refused before
  /// anything is allocated for its pixels.
  static func checkDataSize(_ header: Header, name: String) throws {
    guard header.minimumInflatedBytes > header.maximumInflatedBytes else { return }
    let data =
      header.compressedBytes == 0 ? "no image data" : "only \(byteAmount(header.compressedBytes)) of image data"
    throw GlassError(
      .invalidImage,
      "the header says \(header.size) pixels but the file holds \(data), which cannot fill them; "
        + "the PNG data is truncated or damaged", file: name)
  }

  /// `812 bytes`, `3.1 KB`, `52 MB`.
  static func byteAmount(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) bytes" }
    let units = ["KB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1000
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return (value >= 10 ? String(Int(value.rounded())) : String(format: "%.1f", value)) + " " + units[unit]
  }

  /// Which decoder runs: the fast path where it applies (the default), or one alone
  /// (the fuzzer compares them).
  public enum Decoder: Sendable {
    /// The fast path for plain 8/16-bit RGB(A) files, libpng for the rest.
    case automatic
    /// The fast path only; `decode` returns nil for a file it does not handle.
    case fastOnly
    /// libpng only.
    case libpngOnly

    var c: cpng_decoder {
      switch self {
      case .automatic: CPNG_DECODER_AUTO
      case .fastOnly: CPNG_DECODER_FAST
      case .libpngOnly: CPNG_DECODER_LIBPNG
      }
    }
  }

  /// Decodes PNG data to RGBA. The pixel limit is checked from the header, before
  /// the pixels are allocated.
  public static func decode(_ data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels) throws -> Decoded {
    guard let decoded = try decode(data, name: name, maxPixels: maxPixels, depth: nil, decoder: .automatic) else {
      preconditionFailure("the automatic decoder always decides")
    }
    return decoded
  }

  /// Decodes at `depth`, or at the file's depth when nil (libpng scales 16-bit
  /// samples down for an 8-bit decode: a check on `RGBAImage.eightBit`), with
  /// `decoder`; nil only when `.fastOnly` declines the file.
  public static func decode(
    _ data: [UInt8], name: String, maxPixels: Int, depth requested: RGBAImage.Depth?, decoder: Decoder
  ) throws
    -> Decoded?
  {
    let header = try header(of: data, name: name)
    try checkPixelLimit(header.size, maxPixels: maxPixels, file: name)
    try checkDataSize(header, name: name)
    let depth: RGBAImage.Depth = requested ?? (header.bitDepth == 16 ? .sixteen : .eight)
    var message = [CChar](repeating: 0, count: 512)
    var warnings = [CChar](repeating: 0, count: 2048)
    let count = 4 * header.size.pixelCount
    func run(_ out: UnsafeMutableRawBufferPointer) -> Int32 {
      data.withUnsafeBufferPointer { bytes in
        cpng_decode(
          bytes.baseAddress, bytes.count, Int32(depth.rawValue), decoder.c, out.baseAddress, out.count,
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
    if status == 1 { return nil }
    guard status == 0 else {
      throw GlassError(.invalidImage, "\(String(cBuffer: message)); the PNG data is damaged", file: name)
    }
    let warningText = String(cBuffer: warnings)
    return Decoded(
      image: RGBAImage(size: header.size, samples: samples), header: header,
      warnings: warningText.isEmpty ? [] : warningText.components(separatedBy: "; "))
  }

  /// Throws `imageTooLarge`, located in `file`, when the image file's `size` is
  /// over `maxPixels`.
  public static func checkPixelLimit(_ size: PixelSize, maxPixels: Int, file: String) throws {
    do {
      try checkPixelLimit(size, maxPixels: maxPixels, what: "the image")
    } catch let error as GlassError {
      throw error.located(file: file)
    }
  }

  /// Throws `imageTooLarge` when `size` is over `maxPixels`.
  public static func checkPixelLimit(_ size: PixelSize, maxPixels: Int, what: String) throws {
    let limit = min(maxPixels, maximumMaxPixels)
    let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
    guard overflow || pixels > limit else { return }
    // Raising the limit helps up to what the library can hold.
    let raisable = !overflow && pixels <= maximumMaxPixels
    throw GlassError(
      .imageTooLarge,
      "\(what): \(size) is \(amount(overflow ? Int.max : pixels, near: limit)), over the limit of "
        + "\(amount(limit, near: overflow ? Int.max : pixels)); "
        + (raisable ? "raise the pixel limit if you mean it" : "that is more than glass-gpu can hold in memory"),
      hint: raisable ? .raiseMaxPixels(needed: pixels) : nil)
  }

  /// The largest `maxPixels` accepted: 2^31 pixels (16 GiB at 16 bits per channel).
  public static let maximumMaxPixels = 1 << 31

  /// `12 megapixels`, or `91 pixels` below a hundredth of a megapixel; in whole
  /// pixels (`1200 pixels`, `100,100,000 pixels`) when it is within a factor 2 of
  /// `other`, so that two amounts compared in one message never read the same.
  static func amount(_ pixels: Int, near other: Int? = nil) -> String {
    let value = Double(pixels) / 1_000_000
    if let other, pixels != other, max(pixels, other) / 2 < min(pixels, other) {
      let digits = Array(String(pixels))
      guard digits.count > 5 else { return "\(pixels) pixels" }
      let grouped = stride(from: digits.count, to: 0, by: -3).reversed().map { end in
        String(digits[max(0, end - 3)..<end])
      }
      return grouped.joined(separator: ",") + " pixels"
    }
    if value < 0.01 { return "\(pixels) pixels" }
    return (value >= 10 ? String(Int(value.rounded())) : String(format: "%.2g", value)) + " megapixels"
  }

  /// How rows are filtered before libdeflate (PNG filter types 0, 1 and 2), at
  /// compression 0 and 2 to 12; the fast encoder (compression 1) always uses Paeth.
  public enum RowFilter: Int, Sendable, CaseIterable {
    /// Rows as they are: what compression 0 uses.
    case none = 0
    /// Each byte minus the byte one pixel to its left.
    case sub = 1
    /// Each byte minus the byte one row above: libdeflate's levels' default
    /// (smaller and faster to deflate than Sub on rendered images).
    case up = 2
  }

  /// The PNG encoders: what `compression` chooses, named, for the benchmark and
  /// the tests that compare them.
  public enum Encoder: Sendable, Equatable {
    /// glass-gpu's fast encoder (compression 1): Paeth rows, then Huffman codes
    /// built per band of about `bandBytes` filtered bytes (0: the default, 256
    /// KiB) and runs of zeros.
    case fast(bandBytes: Int = 0)
    /// libdeflate at `level` (0 stored to 12), rows filtered by `filter`.
    case libdeflate(level: Int, filter: RowFilter)
    /// libpng's own writer at zlib `level` (0 to 9), its filters its own
    /// choice: not used for output, timed beside the others by the benchmark.
    case libpng(level: Int)
  }

  /// Whether the fast encoder's Paeth filter may use AVX2 where the CPU has it
  /// (the default); off, it runs SSE2. Both write the same bytes: the tests and
  /// the fuzzer compare them. Process-wide.
  public static var fastEncoderUsesAVX2: Bool {
    get { cpng_fast_simd() != 0 }
    set { cpng_fast_set_simd(newValue ? 1 : 0) }
  }

  /// The PNG file of `image`, at its own depth, in memory, from `encoder`.
  public static func encode(_ image: RGBAImage, with encoder: Encoder) throws -> [UInt8] {
    if case .libdeflate(let level, _) = encoder, !(0...12).contains(level) {
      throw GlassError(.invalidParameter, "compression \(level) is out of range; give 0 to 12")
    }
    var bytes: [UInt8] = []
    try OutputFile.encode(image, with: encoder, name: "the PNG") { bytes = Array($0) }
    return bytes
  }

  /// The PNG file of `image`, at its own depth, in memory: the bytes `write`
  /// writes (with `filter` .up, the default). Level 1 is glass-gpu's fast encoder,
  /// whose rows are Paeth-filtered whatever `filter` says; 0 is stored, 2 to 12
  /// libdeflate's levels.
  public static func encode(
    _ image: RGBAImage, compression: Int = defaultCompression, filter: RowFilter = .up
  ) throws
    -> [UInt8]
  {
    guard (0...12).contains(compression) else {
      throw GlassError(.invalidParameter, "compression \(compression) is out of range; give 0 to 12")
    }
    var bytes: [UInt8] = []
    try OutputFile.encode(image, compression: compression, filter: filter, name: "the PNG") { bytes = Array($0) }
    return bytes
  }

  /// Writes `image` as an RGBA PNG at its own depth. The file appears complete or
  /// not at all (see `OutputFile`, in OutputFile.swift, for links, devices and
  /// temporaries). `compression` is 0 (stored), 1 (glass-gpu's fast encoder, the
  /// default) or a libdeflate level, 2 to 12 (smallest).
  public static func write(_ image: RGBAImage, to path: String, compression: Int = defaultCompression) throws {
    try OutputFile(path: path).write(image, compression: compression)
  }
}
