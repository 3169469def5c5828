/// An animated PNG (APNG, the W3C PNG specification's third edition) assembled
/// from frames that libpng encodes one by one: the first frame's IDAT chunks are
/// the default image (a viewer without APNG shows frame 0), and every later
/// frame's become `fdAT` chunks. A later frame holds only the rectangle of pixels
/// that changed since the one before, which replaces those pixels (dispose none,
/// blend source): glass moving over a still backdrop costs its own pixels only.
///
///     PNG signature, IHDR, acTL(frames, plays)
///     fcTL(0) IDAT...            frame 0
///     fcTL(n) fdAT(n+1)...       frame 1, 2, ...
///     IEND
///
/// The file is written as it is made: `append` gives the bytes each frame adds
/// (the signature and header come with frame 0), `end` the last chunk, so memory
/// holds one frame and the frame before it, whatever the number of frames.
public struct AnimatedPNG: Sendable {
  /// The frame size, in pixels.
  public let size: PixelSize
  /// How many frames the file declares.
  public let frameCount: Int
  /// How long each frame shows: `delayNumerator / delayDenominator` seconds.
  public let delayNumerator: UInt16
  /// See `delayNumerator`.
  public let delayDenominator: UInt16
  /// How often the animation plays; 0 loops for ever.
  public let plays: UInt32
  /// Frames appended.
  public private(set) var framesAppended = 0
  /// The next chunk sequence number (fcTL and fdAT share one sequence).
  private var sequence: UInt32 = 0
  /// The frame before, 8-bit.
  private var previous: [UInt8] = []

  /// An animation of `frameCount` frames of `size` at `fps` frames per second.
  public init(size: PixelSize, frameCount: Int, fps: Double, plays: UInt32 = 0) throws {
    guard frameCount >= 1 && frameCount <= Int(UInt32.max) else {
      throw GlassError(.invalidParameter, "an animated PNG needs 1 or more frames, not \(frameCount)")
    }
    guard fps.isFinite && fps > 0 && fps <= 1000 else {
      throw GlassError(.invalidParameter, "an animated PNG's rate is \(fps) fps; give above 0, at most 1000")
    }
    self.size = size
    self.frameCount = frameCount
    self.plays = plays
    // The delay as a fraction: whole frames per second exactly, others to 1/1000 s.
    if fps == fps.rounded() {
      (delayNumerator, delayDenominator) = (1, UInt16(fps))
    } else {
      (delayNumerator, delayDenominator) = (UInt16(max(1, (1000 / fps).rounded())), 1000)
    }
  }

  /// Appends the next frame (of the animation's size; 16-bit frames are rounded
  /// to 8) and returns the bytes it adds to the file, to be written after those
  /// of the frames before it.
  public mutating func append(_ frame: RGBAImage, compression: Int = PNGCodec.defaultCompression) throws -> [UInt8] {
    guard framesAppended < frameCount else {
      preconditionFailure("an animated PNG of \(frameCount) frames takes no more")
    }
    guard frame.size == size else {
      throw GlassError(.invalidParameter, "frame \(framesAppended) is \(frame.size), the animation \(size)")
    }
    let frame = frame.converted(to: .eight)
    guard case .eight(let samples) = frame.samples else { preconditionFailure("converted to 8 bits") }
    let rect = framesAppended == 0 ? PixelRect(size: size) : Self.changed(previous, samples, size: size)
    var part = RGBAImage(size: rect.size, depth: .eight)
    part.copy(rect, from: frame, to: PixelPoint(x: 0, y: 0))
    previous = samples
    let png = try PNGCodec.encode(part, compression: compression)
    let chunks = try Self.chunks(of: png)
    var bytes: [UInt8] = []
    if framesAppended == 0 {
      bytes = Array(png.prefix(8))
      // IHDR, then acTL, then whatever libpng put before the data (sRGB, ...).
      for chunk in chunks where chunk.type == "IHDR" { Self.append(chunk.type, chunk.data, to: &bytes) }
      Self.append("acTL", Self.be32(UInt32(frameCount)) + Self.be32(plays), to: &bytes)
      for chunk in chunks where !["IHDR", "IDAT", "IEND"].contains(chunk.type) {
        Self.append(chunk.type, chunk.data, to: &bytes)
      }
    }
    Self.append("fcTL", frameControl(rect), to: &bytes)
    for chunk in chunks where chunk.type == "IDAT" {
      if framesAppended == 0 {
        Self.append("IDAT", chunk.data, to: &bytes)
      } else {
        Self.append("fdAT", Self.be32(nextSequence()) + chunk.data, to: &bytes)
      }
    }
    framesAppended += 1
    return bytes
  }

  /// The bytes that end the file, once every declared frame has been appended.
  public func end() -> [UInt8] {
    precondition(framesAppended == frameCount, "\(framesAppended) of \(frameCount) frames appended")
    var bytes: [UInt8] = []
    Self.append("IEND", [], to: &bytes)
    return bytes
  }

  /// The fcTL of the next frame: the rectangle it replaces, its delay, dispose
  /// none, blend source.
  private mutating func frameControl(_ rect: PixelRect) -> [UInt8] {
    var data = Self.be32(nextSequence())
    data += Self.be32(UInt32(rect.width)) + Self.be32(UInt32(rect.height))
    data += Self.be32(UInt32(rect.x)) + Self.be32(UInt32(rect.y))
    data += Self.be16(delayNumerator) + Self.be16(delayDenominator)
    data += [0, 0]
    return data
  }

  private mutating func nextSequence() -> UInt32 {
    defer { sequence += 1 }
    return sequence
  }

  /// The smallest rectangle holding every pixel that differs between two frames;
  /// the top-left pixel when none does (a frame is at least 1x1).
  static func changed(_ a: [UInt8], _ b: [UInt8], size: PixelSize) -> PixelRect {
    var x0 = size.width
    var y0 = size.height
    var x1 = -1
    var y1 = -1
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        for y in 0..<size.height {
          let row = 4 * y * size.width
          var first = -1
          var last = -1
          for x in 0..<size.width {
            let i = row + 4 * x
            if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3] {
              if first < 0 { first = x }
              last = x
            }
          }
          guard first >= 0 else { continue }
          x0 = min(x0, first)
          x1 = max(x1, last)
          y0 = min(y0, y)
          y1 = max(y1, y)
        }
      }
    }
    guard x1 >= 0 else { return PixelRect(x: 0, y: 0, width: 1, height: 1) }
    return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
  }

  // MARK: Chunks

  /// The chunks of a PNG file, after its signature.
  static func chunks(of png: [UInt8]) throws -> [(type: String, data: ArraySlice<UInt8>)] {
    var chunks: [(String, ArraySlice<UInt8>)] = []
    var at = 8
    while at + 12 <= png.count {
      let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
      guard at + 12 + length <= png.count else { break }
      let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
      chunks.append((type, png[(at + 8)..<(at + 8 + length)]))
      at += 12 + length
    }
    guard chunks.last?.0 == "IEND" else {
      throw GlassError(.outputFailure, "the PNG encoder's output ends without IEND")
    }
    return chunks
  }

  /// Appends a chunk: length, type, data, CRC-32 of type and data.
  static func append(_ type: String, _ data: some Collection<UInt8>, to file: inout [UInt8]) {
    file += be32(UInt32(data.count))
    let body = Array(type.utf8) + Array(data)
    file += body
    file += be32(crc32(body))
  }

  static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
  }

  static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }

  /// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320 reflected), by table.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    return crc ^ 0xffff_ffff
  }

  private static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }
}
