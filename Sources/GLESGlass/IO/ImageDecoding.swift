import CLossy
import Foundation

/// Image inputs: PNG (libpng), JPEG (libjpeg-turbo) and WebP (libwebp), told
/// apart by their first bytes, never by the file's name. Every decode reads the
/// headers first and checks the size against the pixel limit before a pixel is
/// allocated; JPEG and WebP are then decoded whole, to 8-bit RGBA, and turned
/// upright by their EXIF orientation.
///
/// Colour: every input is taken as sRGB. An embedded ICC profile is not
/// converted; a JPEG's or WebP's RGB profile that is not sRGB (Display P3, Adobe
/// RGB) gives a warning saying so.
///
/// Damage: a file that ends early or whose data is corrupt is an error naming it.
/// libjpeg-turbo's warnings (a truncated file, a corrupt entropy-coded segment)
/// count as errors: it would otherwise fill what it could not read with grey.
public enum ImageDecoding {
  /// The EXIF orientation of a JPEG or WebP (tag 0x0112 of IFD0): how the stored
  /// pixels are turned to be shown, with the names of `CGImagePropertyOrientation`.
  ///
  ///     1 up           2 upMirrored     3 down        4 downMirrored
  ///     5 leftMirrored 6 right          7 rightMirrored 8 left
  ///
  /// 5 to 8 swap width and height. Pixel (x, y) of the shown image, w x h the
  /// stored size, comes from stored pixel: 1 (x, y); 2 (w-1-x, y); 3 (w-1-x,
  /// h-1-y); 4 (x, h-1-y); 5 (y, x); 6 (y, h-1-x); 7 (w-1-y, h-1-x); 8 (w-1-y, x).
  public enum Orientation: Int, Sendable, CaseIterable {
    /// As stored.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180 degrees.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Transposed: mirrored across the main diagonal.
    case leftMirrored = 5
    /// Turned 90 degrees clockwise to be shown.
    case right = 6
    /// Transposed across the other diagonal.
    case rightMirrored = 7
    /// Turned 90 degrees counterclockwise to be shown.
    case left = 8

    /// True when the shown image is the stored one turned a quarter: width and
    /// height swap.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The size shown for a stored `size`.
    public func shownSize(_ size: PixelSize) -> PixelSize {
      swapsAxes ? PixelSize(width: size.height, height: size.width) : size
    }
  }

  /// What an image file's headers say, read before any pixel is decoded.
  public struct Header: Sendable, Equatable {
    /// The format, from the file's first bytes.
    public var format: ImageEncoding.Format
    /// Size in pixels as shown (after the EXIF orientation).
    public var size: PixelSize
    /// Size in pixels as stored in the file.
    public var storedSize: PixelSize
    /// The EXIF orientation (`up` for a PNG, and for a file without one).
    public var orientation: Orientation
    /// Bits per channel of the decoded image: 16 for a 16-bit PNG, else 8.
    public var depth: RGBAImage.Depth
    /// The PNG header, for a PNG.
    public var png: PNGCodec.Header?
    /// What the headers warn about (an embedded colour profile that is not sRGB).
    public var warnings: [String]
  }

  /// A decoded image, its header, and what the decoders warned about.
  public struct Decoded: Sendable {
    /// The pixels, upright, RGBA at the header's depth.
    public var image: RGBAImage
    /// What the headers said.
    public var header: Header
    /// Warnings, each saying who gave it (`libpng: …`) or what it is about.
    public var warnings: [String]
  }

  /// The format of image data, from its first bytes: PNG's signature, JPEG's
  /// SOI marker and a marker after it, or a RIFF container of WEBP. Nil for
  /// anything else.
  public static func format(of data: some Collection<UInt8>) -> ImageEncoding.Format? {
    let head = Array(data.prefix(12))
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if head.count == 12 && head[0..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual("WEBP".utf8) {
      return .webp
    }
    return nil
  }

  /// Reads and decodes the image file at `path`; errors name the file.
  public static func read(path: String, maxPixels: Int = PNGCodec.defaultMaxPixels) throws -> Decoded {
    try read(path: path, maxPixels: maxPixels, checkingHeader: { _ in })
  }

  /// Reads the image file at `path`, checks its header (the pixel limit, data
  /// that can fill it), runs `check` on it (what is made of the image can then be
  /// refused before any pixel is decoded), and decodes it.
  public static func read(
    path: String, maxPixels: Int, checkingHeader check: (Header) throws -> Void
  ) throws -> Decoded {
    let data = try readFile(path, maxPixels: maxPixels)
    let header = try checkedHeader(of: data, name: path, maxPixels: maxPixels)
    try check(header)
    return try decode(data, header: header, name: path)
  }

  /// Reads an image file whole, refusing one larger than any image of
  /// `maxPixels` pixels can be stored in; errors say what is wrong with the path.
  static func readFile(_ path: String, maxPixels: Int) throws -> [UInt8] {
    try PNGCodec.readFile(
      path, maxBytes: PNGCodec.maximumFileBytes(maxPixels: maxPixels),
      what: "an image of at most \(PNGCodec.amount(maxPixels))")
  }

  /// The header of image data, checked: a format glass-gpu reads, within
  /// `maxPixels`, with data that can fill it.
  static func checkedHeader(of data: [UInt8], name: String, maxPixels: Int) throws -> Header {
    let header = try self.header(of: data, name: name)
    try PNGCodec.checkPixelLimit(header.storedSize, maxPixels: maxPixels, file: name)
    if let png = header.png { try PNGCodec.checkDataSize(png, name: name) }
    if header.format == .jpeg { try JPEGMarkers(data).checkDataSize(header.storedSize, name: name) }
    return header
  }

  /// Decodes image data; the pixel limit is checked from the header before the
  /// pixels are allocated.
  public static func decode(
    _ data: [UInt8], name: String, maxPixels: Int = PNGCodec.defaultMaxPixels
  ) throws -> Decoded {
    try decode(data, header: checkedHeader(of: data, name: name, maxPixels: maxPixels), name: name)
  }

  /// Reads only the headers of image data: the format, the size, the
  /// orientation. Throws `invalidImage` for data that is not a PNG, JPEG or WebP
  /// glass-gpu can read.
  public static func header(of data: [UInt8], name: String) throws -> Header {
    switch format(of: data) {
    case .png:
      let png = try PNGCodec.header(of: data, name: name)
      return Header(
        format: .png, size: png.size, storedSize: png.size, orientation: .up,
        depth: png.bitDepth == 16 ? .sixteen : .eight, png: png, warnings: [])
    case .jpeg:
      return try jpegHeader(data, name: name)
    case .webp:
      return try webpHeader(data, name: name)
    case nil:
      let start = data.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
      throw GlassError(
        .invalidImage,
        "it is not a PNG, JPEG or WebP file (it starts with \(data.isEmpty ? "nothing: it is empty" : start)); "
          + "give an image in one of those formats", file: name)
    }
  }

  private static func jpegHeader(_ data: [UInt8], name: String) throws -> Header {
    var width: UInt32 = 0
    var height: UInt32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let status = data.withUnsafeBufferPointer {
      clossy_jpeg_header(
        $0.baseAddress, $0.count, &width, &height, &subsampling, &colorspace, &message, message.count)
    }
    guard status == 0 else {
      throw GlassError(
        .invalidImage, "libjpeg-turbo: \(String(cBuffer: message)); it is not a readable JPEG file", file: name)
    }
    // TurboJPEG's colour spaces: 0 RGB, 1 YCbCr, 2 grey, 3 CMYK, 4 YCCK.
    if colorspace == 3 || colorspace == 4 {
      throw GlassError(
        .invalidImage, "it is a CMYK JPEG, which glass-gpu does not read; convert it to RGB (sRGB)", file: name)
    }
    let markers = JPEGMarkers(data)
    let stored = PixelSize(width: Int(width), height: Int(height))
    let orientation = markers.exif.flatMap(exifOrientation) ?? .up
    return Header(
      format: .jpeg, size: orientation.shownSize(stored), storedSize: stored, orientation: orientation,
      depth: .eight, png: nil, warnings: markers.profile.flatMap(profileWarning).map { [$0] } ?? [])
  }

  private static func webpHeader(_ data: [UInt8], name: String) throws -> Header {
    var width: UInt32 = 0
    var height: UInt32 = 0
    var alpha: Int32 = 0
    var animated: Int32 = 0
    var kind: Int32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let status = data.withUnsafeBufferPointer {
      clossy_webp_header($0.baseAddress, $0.count, &width, &height, &alpha, &animated, &kind, &message, message.count)
    }
    guard status == 0 else {
      throw GlassError(
        .invalidImage, "libwebp: \(String(cBuffer: message)); it is not a readable WebP file", file: name)
    }
    guard animated == 0 else {
      throw GlassError(
        .invalidImage, "it is an animated WebP; give a still image (PNG, JPEG or WebP)", file: name)
    }
    let chunks = WebPChunks(data)
    let stored = PixelSize(width: Int(width), height: Int(height))
    let orientation = chunks.exif.flatMap(exifOrientation) ?? .up
    return Header(
      format: .webp, size: orientation.shownSize(stored), storedSize: stored, orientation: orientation,
      depth: .eight, png: nil, warnings: chunks.profile.flatMap(profileWarning).map { [$0] } ?? [])
  }

  /// Decodes data whose header has been checked.
  static func decode(_ data: [UInt8], header: Header, name: String) throws -> Decoded {
    switch header.format {
    case .png:
      let decoded = try PNGCodec.decode(data, name: name, maxPixels: PNGCodec.maximumMaxPixels)
      return Decoded(image: decoded.image, header: header, warnings: decoded.warnings.map { "libpng: \($0)" })
    case .jpeg, .webp:
      let size = header.storedSize
      let count = 4 * size.pixelCount
      var message = [CChar](repeating: 0, count: 512)
      var status: Int32 = -1
      let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        status = data.withUnsafeBufferPointer { bytes in
          header.format == .jpeg
            ? clossy_decode_jpeg_into(
              bytes.baseAddress, bytes.count, buffer.baseAddress, UInt32(size.width), UInt32(size.height),
              &message, message.count)
            : clossy_decode_webp_into(
              bytes.baseAddress, bytes.count, buffer.baseAddress, UInt32(size.width), UInt32(size.height),
              &message, message.count)
        }
        initialized = status == 0 ? count : 0
      }
      guard status == 0 else {
        let library = header.format == .jpeg ? "libjpeg-turbo" : "libwebp"
        throw GlassError(
          .invalidImage,
          "\(library): \(String(cBuffer: message)); the \(header.format.displayName) data is truncated or damaged",
          file: name)
      }
      let image = RGBAImage(size: size, samples: .eight(pixels)).oriented(header.orientation)
      return Decoded(image: image, header: header, warnings: header.warnings)
    }
  }

  // MARK: Metadata, parsed here (bounds checked at every step: files are hostile)

  /// The orientation in TIFF data (an EXIF block without its `Exif\0\0` prefix):
  /// tag 0x0112 of IFD0, a SHORT (or LONG) of 1 to 8; nil when there is none,
  /// it is out of range, or the data is truncated or malformed.
  static func exifOrientation(_ tiff: [UInt8]) -> Orientation? {
    guard tiff.count >= 8 else { return nil }
    let little: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= tiff.count else { return nil }
      let (a, b) = (Int(tiff[at]), Int(tiff[at + 1]))
      return little ? a | b << 8 : a << 8 | b
    }
    func u32(_ at: Int) -> Int? {
      guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
      return high << 16 | low
    }
    guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
    for entry in 0..<count {
      let at = ifd + 2 + 12 * entry
      guard let tag = u16(at), let type = u16(at + 2), let values = u32(at + 4) else { return nil }
      guard tag == 0x0112 else { continue }
      let value: Int?
      switch type {
      case 3: value = values >= 1 ? u16(at + 8) : nil
      case 4: value = values >= 1 ? u32(at + 8) : nil
      default: value = nil
      }
      return value.flatMap(Orientation.init(rawValue:))
    }
    return nil
  }

  /// A warning when an ICC profile describes RGB that is not sRGB: its colorants
  /// (rXYZ, gXYZ, bXYZ) are not sRGB's at D50 within 0.005, or, without
  /// colorants, its description does not say sRGB. Nil for sRGB, a grey
  /// profile, or a profile too damaged to tell (decoders ignore those too).
  static func profileWarning(_ profile: [UInt8]) -> String? {
    func u32(_ at: Int) -> Int? {
      guard at >= 0, at + 4 <= profile.count else { return nil }
      return profile[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    func text(_ at: Int) -> String? {
      guard at >= 0, at + 4 <= profile.count else { return nil }
      return String(decoding: profile[at..<at + 4], as: UTF8.self)
    }
    guard text(16) == "RGB ", let tagCount = u32(128), tagCount <= 1000 else { return nil }
    var tags: [String: Range<Int>] = [:]
    for i in 0..<tagCount {
      let entry = 132 + 12 * i
      guard let signature = text(entry), let offset = u32(entry + 4), let length = u32(entry + 8),
        offset + length <= profile.count
      else { return nil }
      tags[signature] = offset..<offset + length
    }
    // The description: a v2 'desc' (ASCII) or a v4 'mluc' (UTF-16, first record).
    var description: String?
    if let desc = tags["desc"], desc.count >= 12 {
      if text(desc.lowerBound) == "desc", let length = u32(desc.lowerBound + 8), length <= desc.count - 12 {
        // ASCII, its count including a terminating NUL.
        let text = profile[desc.lowerBound + 12..<desc.lowerBound + 12 + length].prefix { $0 != 0 }
        description = String(decoding: text, as: UTF8.self)
      } else if text(desc.lowerBound) == "mluc", let records = u32(desc.lowerBound + 8), records >= 1,
        let length = u32(desc.lowerBound + 20), let offset = u32(desc.lowerBound + 24),
        offset + length <= desc.count
      {
        let units = stride(from: desc.lowerBound + offset, to: desc.lowerBound + offset + length - 1, by: 2).map {
          UInt16(profile[$0]) << 8 | UInt16(profile[$0 + 1])
        }
        description = String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
      }
    }
    let shown = (description ?? "").unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
      .prefix(64).map(String.init).joined().trimmingCharacters(in: .whitespaces)
    let sRGB: [String: [Double]] = [
      "rXYZ": [0.4361, 0.2225, 0.0139], "gXYZ": [0.3851, 0.7169, 0.0971], "bXYZ": [0.1431, 0.0606, 0.7142],
    ]
    var isSRGB = true
    var hasColorants = true
    for (tag, expected) in sRGB {
      guard let range = tags[tag], range.count >= 20, text(range.lowerBound) == "XYZ " else {
        hasColorants = false
        break
      }
      for k in 0..<3 {
        guard let raw = u32(range.lowerBound + 8 + 4 * k) else { return nil }
        let value = Double(Int32(truncatingIfNeeded: raw)) / 65536
        if abs(value - expected[k]) > 0.005 { isSRGB = false }
      }
    }
    if !hasColorants { isSRGB = (description ?? "").contains("sRGB") }
    guard !isSRGB else { return nil }
    let named = shown.isEmpty ? "" : " (\"\(shown)\")"
    return "the embedded colour profile\(named) is not sRGB; its colours are read as sRGB, without conversion"
  }
}

/// The markers of a JPEG up to its first scan: the EXIF block, the ICC profile,
/// the frame header's kind and where the entropy-coded data starts. Truncated
/// or malformed marker data ends the walk; what was found before it is kept.
struct JPEGMarkers {
  /// The TIFF data of the first APP1 `Exif` marker.
  var exif: [UInt8]?
  /// The APP2 `ICC_PROFILE` chunks, joined in order of their sequence numbers.
  var profile: [UInt8]?
  /// The SOFn marker's second byte (0xC0 baseline, 0xC2 progressive, ...).
  var frameMarker: UInt8?
  /// The offset of the first byte after the first SOS segment.
  var scanStart: Int?
  /// The file's size in bytes.
  var dataCount: Int

  init(_ data: [UInt8]) {
    dataCount = data.count
    var chunks: [(Int, ArraySlice<UInt8>)] = []
    var at = 2
    while at + 4 <= data.count {
      // Fill bytes (0xFF) may pad before a marker.
      guard data[at] == 0xFF else { break }
      let marker = data[at + 1]
      if marker == 0xFF {
        at += 1
        continue
      }
      if marker == 0xD9 { break }
      // Markers without a length: TEM and RSTn.
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        at += 2
        continue
      }
      let length = Int(data[at + 2]) << 8 | Int(data[at + 3])
      guard length >= 2, at + 2 + length <= data.count else { break }
      let payload = data[at + 4..<at + 2 + length]
      switch marker {
      case 0xE1 where exif == nil && payload.starts(with: Array("Exif".utf8) + [0, 0]):
        exif = Array(payload.dropFirst(6))
      case 0xE2 where payload.count >= 14 && payload.starts(with: Array("ICC_PROFILE".utf8) + [0]):
        chunks.append((Int(payload[payload.startIndex + 12]), payload.dropFirst(14)))
      case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
        if frameMarker == nil { frameMarker = marker }
      case 0xDA:
        scanStart = at + 2 + length
      default: break
      }
      if marker == 0xDA { break }
      at += 2 + length
    }
    if !chunks.isEmpty {
      profile = chunks.sorted { $0.0 < $1.0 }.flatMap(\.1)
    }
  }

  /// Throws `invalidImage` when a Huffman-coded JPEG's entropy-coded data
  /// cannot fill `size`: every 8 x 8 block of a component costs at least one bit
  /// (its DC code) and a block of the most subsampled component (sampling 1 of
  /// at most 4) covers at most 32 x 32 pixels, so the data after the first scan
  /// header holds at least ceil(w/32) * ceil(h/32) bits. A tiny file claiming a
  /// huge image is refused before its pixels are allocated. Arithmetic-coded
  /// files can code a block in less than a bit: no bound for them.
  func checkDataSize(_ size: PixelSize, name: String) throws {
    guard let frameMarker, [0xC0, 0xC1, 0xC2, 0xC3].contains(frameMarker), let scanStart else { return }
    let available = dataCount - scanStart
    let (across, down) = ((size.width + 31) / 32, (size.height + 31) / 32)
    let (bits, overflow) = across.multipliedReportingOverflow(by: down)
    guard overflow || available < (bits + 7) / 8 else { return }
    throw GlassError(
      .invalidImage,
      "the header says \(size) pixels but the file holds only \(PNGCodec.byteAmount(available)) of image data, "
        + "which cannot fill them; the JPEG data is truncated or damaged", file: name)
  }
}

/// The chunks of a WebP's RIFF container: the EXIF block and the ICC profile.
/// A truncated or malformed chunk ends the walk; what was found before it is kept.
struct WebPChunks {
  /// The TIFF data of the `EXIF` chunk (an `Exif\0\0` prefix, which some writers
  /// add, removed).
  var exif: [UInt8]?
  /// The `ICCP` chunk.
  var profile: [UInt8]?

  init(_ data: [UInt8]) {
    var at = 12
    while at + 8 <= data.count {
      let fourCC = String(decoding: data[at..<at + 4], as: UTF8.self)
      let size = data[at + 4..<at + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
      guard size <= data.count - at - 8 else { break }
      let payload = data[at + 8..<at + 8 + size]
      switch fourCC {
      case "EXIF" where exif == nil:
        exif = Array(payload.starts(with: Array("Exif".utf8) + [0, 0]) ? payload.dropFirst(6) : payload)
      case "ICCP" where profile == nil:
        profile = Array(payload)
      default: break
      }
      at += 8 + size + (size & 1)
    }
  }
}

extension RGBAImage {
  /// The image turned upright by an EXIF orientation (`ImageDecoding.Orientation`
  /// gives each case's formula).
  public func oriented(_ orientation: ImageDecoding.Orientation) -> RGBAImage {
    guard orientation != .up, size.pixelCount > 0 else { return self }
    let (w, h) = (width, height)
    let shown = orientation.shownSize(size)
    // Shown pixel (x, y) comes from stored pixel sx + sy * w.
    func source(_ x: Int, _ y: Int) -> Int {
      switch orientation {
      case .up: x + y * w
      case .upMirrored: (w - 1 - x) + y * w
      case .down: (w - 1 - x) + (h - 1 - y) * w
      case .downMirrored: x + (h - 1 - y) * w
      case .leftMirrored: y + x * w
      case .right: y + (h - 1 - x) * w
      case .rightMirrored: (w - 1 - y) + (h - 1 - x) * w
      case .left: (w - 1 - y) + x * w
      }
    }
    // Each formula is affine in x and y: a step per shown column and per shown row.
    let origin = source(0, 0)
    let (column, row) = (source(1, 0) - origin, source(0, 1) - origin)
    func turned<T>(_ values: [T]) -> [T] {
      values.withUnsafeBufferPointer { input in
        [T](unsafeUninitializedCapacity: values.count) { out, count in
          var to = 0
          for y in 0..<shown.height {
            var from = 4 * (origin + y * row)
            for _ in 0..<shown.width {
              out.initializeElement(at: to, to: input[from])
              out.initializeElement(at: to + 1, to: input[from + 1])
              out.initializeElement(at: to + 2, to: input[from + 2])
              out.initializeElement(at: to + 3, to: input[from + 3])
              to += 4
              from += 4 * column
            }
          }
          count = values.count
        }
      }
    }
    switch samples {
    case .eight(let values): return RGBAImage(size: shown, samples: .eight(turned(values)))
    case .sixteen(let values): return RGBAImage(size: shown, samples: .sixteen(turned(values)))
    }
  }
}
