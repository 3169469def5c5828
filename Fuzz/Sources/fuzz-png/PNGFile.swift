// PNG files built by hand: chunks with their CRCs, zlib streams of stored deflate
// blocks, and the images the structured inputs describe.

/// Chunks, CRCs and zlib streams.
enum PNGFile {
  /// The eight bytes every PNG file starts with.
  static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

  /// CRC-32 (ISO-HDLC), as PNG chunks use it.
  static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  static func be32(_ bytes: [UInt8], at i: Int) -> UInt32 {
    UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
  }

  /// One chunk: length, type, data, CRC of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(UInt32(data.count)) + body + be32(crc(body[...]))
  }

  /// `file` with the CRC of every whole chunk it holds set right; the rest as it was.
  static func fixingCRCs(_ file: [UInt8]) -> [UInt8] {
    var out = file
    var pos = 8
    while pos + 12 <= out.count {
      let length = Int(be32(out, at: pos))
      guard length <= out.count - pos - 12 else { break }
      let crc = crc(out[(pos + 4)..<(pos + 8 + length)])
      out.replaceSubrange((pos + 8 + length)..<(pos + 12 + length), with: be32(crc))
      pos += 12 + length
    }
    return out
  }

  /// A zlib stream of stored (uncompressed) deflate blocks holding `data`.
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let count = min(65535, data.count - start)
      let final: UInt8 = start + count == data.count ? 1 : 0
      out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += data[start..<(start + count)]
      start += count
    } while start < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return out + be32(b << 16 | a)
  }
}

/// An image described by a fuzz input, and the valid PNG file that holds it.
///
/// Input layout: byte 0 width - 1 (mod 48), byte 1 height - 1 (mod 48), byte 2 the
/// colour type (mod 5: grey, RGB, palette, grey + alpha, RGBA), byte 3 the bit
/// depth (mod the depths that type allows), byte 4 flags, bytes 5 and 6 the tRNS
/// values; the rest is the raw image data, filter bytes and all.
///
/// Flags: 1 Adam7, 2 a tRNS chunk, 4 the image data split into IDAT chunks of 7
/// bytes, 8 ancillary chunks (gAMA, sRGB, pHYs, tEXt, tIME, cHRM) before the
/// data, 16 the raw data cut or padded to the size the image needs and every
/// filter byte taken mod 5 (so most inputs decode), 32 a short palette, 64
/// ancillary chunks after the data, 128 a suggested palette in an RGB file.
struct StructuredPNG {
  var file: [UInt8]

  static let colorTypes = [0, 2, 3, 4, 6]
  static let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
  static let channels: [Int: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]

  init(_ input: [UInt8]) {
    var header = [UInt8](repeating: 0, count: 7)
    for (i, b) in input.prefix(7).enumerated() { header[i] = b }
    let raw = Array(input.dropFirst(7))
    let width = Int(header[0]) % 48 + 1
    let height = Int(header[1]) % 48 + 1
    let colorType = Self.colorTypes[Int(header[2]) % 5]
    let allowed = Self.depths[colorType] ?? [8]
    let bitDepth = allowed[Int(header[3]) % allowed.count]
    let flags = header[4]
    let interlaced = flags & 1 != 0
    let bitsPerPixel = (Self.channels[colorType] ?? 1) * bitDepth

    var data = raw
    if flags & 16 != 0 {
      // Rows as the image needs them: pass by pass for Adam7, filter bytes mod 5.
      var rows: [(start: Int, bytes: Int)] = []
      var offset = 0
      for (xs, ys, dx, dy) in Self.passes(interlaced) {
        let w = width > xs ? (width - xs + dx - 1) / dx : 0
        let h = height > ys ? (height - ys + dy - 1) / dy : 0
        guard w > 0 && h > 0 else { continue }
        let rowBytes = 1 + (w * bitsPerPixel + 7) / 8
        for _ in 0..<h {
          rows.append((offset, rowBytes))
          offset += rowBytes
        }
      }
      data = (0..<offset).map { $0 < raw.count ? raw[$0] : 0 }
      for row in rows { data[row.start] %= 5 }
    }

    var file = PNGFile.signature
    file += PNGFile.chunk(
      "IHDR",
      PNGFile.be32(UInt32(width)) + PNGFile.be32(UInt32(height)) + [
        UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0,
      ])
    let ancillary =
      PNGFile.chunk("gAMA", PNGFile.be32(45455)) + PNGFile.chunk("sRGB", [0])
      + PNGFile.chunk("pHYs", PNGFile.be32(2835) + PNGFile.be32(2835) + [1])
      + PNGFile.chunk("tEXt", Array("Comment\u{0}fuzz".utf8))
      + PNGFile.chunk("tIME", [7, 233, 1, 2, 3, 4, 5])
      + PNGFile.chunk(
        "cHRM", [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000].flatMap { PNGFile.be32(UInt32($0)) })
    if flags & 8 != 0 { file += ancillary }
    if colorType == 3 || flags & 128 != 0 {
      let entries = flags & 32 != 0 ? Int(header[5]) % (1 << min(bitDepth, 8)) + 1 : 256
      file += PNGFile.chunk(
        "PLTE",
        (0..<entries).flatMap { i in
          [UInt8(truncatingIfNeeded: i * 37), UInt8(truncatingIfNeeded: i * 91 + 5), UInt8(truncatingIfNeeded: i * 13)]
        })
    }
    if flags & 2 != 0 {
      let t5 = header[5]
      let t6 = header[6]
      switch colorType {
      case 0:
        file += PNGFile.chunk("tRNS", [t5 & (bitDepth == 16 ? 0xFF : 0), t6 & UInt8((1 << min(bitDepth, 8)) - 1)])
      case 2: file += PNGFile.chunk("tRNS", [0, t5, 0, t6, 0, t5 ^ t6])
      case 3:
        file += PNGFile.chunk("tRNS", (0..<(Int(t6) % 16 + 1)).map { UInt8(truncatingIfNeeded: $0 * 29 + Int(t5)) })
      default: file += PNGFile.chunk("tRNS", [t5, t6])  // not allowed with alpha: libpng ignores it, with a warning
      }
    }
    let zlib = PNGFile.zlibStored(data)
    if flags & 4 != 0 {
      var start = 0
      while start < zlib.count {
        let end = min(start + 7, zlib.count)
        file += PNGFile.chunk("IDAT", Array(zlib[start..<end]))
        start = end
      }
    } else {
      file += PNGFile.chunk("IDAT", zlib)
    }
    if flags & 64 != 0 { file += ancillary }
    file += PNGFile.chunk("IEND", [])
    self.file = file
  }

  /// The Adam7 passes (x start, y start, x step, y step), or one pass of every pixel.
  static func passes(_ interlaced: Bool) -> [(Int, Int, Int, Int)] {
    guard interlaced else { return [(0, 0, 1, 1)] }
    return [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
  }
}
