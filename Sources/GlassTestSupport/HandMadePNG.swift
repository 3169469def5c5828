/// PNG files made byte by byte, for inputs no encoder would write: a header that
/// claims any size, then any chunks, each with its length and CRC.
public enum HandMadePNG {
  /// The signature, IHDR, `chunks` (type, data) in order, then IEND.
  public static func bytes(
    width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false,
    chunks: [(String, [UInt8])]
  ) -> [UInt8] {
    let header = bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
    var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10] + chunk("IHDR", header)
    for (type, data) in chunks { bytes += chunk(type, data) }
    return bytes + chunk("IEND", [])
  }

  /// A valid 3×2 16-bit grey header, then a `type` chunk whose length field says
  /// 1,788,712,298 bytes and whose data is 40 bytes, and nothing more: 81 bytes
  /// that libpng 1.6.39 once answered by allocating the claimed length (fuzz-png).
  public static func lyingChunk(_ type: String) -> [UInt8] {
    let header = bytes(width: 3, height: 2, bitDepth: 16, colorType: 0, chunks: [])
    return Array(header.dropLast(12)) + [0x6A, 0x9D, 0x95, 0x6A] + Array(type.utf8) + Array(repeating: 0x6A, count: 40)
  }

  /// A zlib stream of five stored zero bytes: valid data, far too short for a large header.
  public static let tinyZlib: [UInt8] = [
    0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF, 0, 0, 0, 0, 0, 0x00, 0x05, 0x00, 0x01,
  ]

  /// One chunk: length, type, data, CRC-32 of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
  }

  /// The CRC-32 of PNG chunks (ISO 3309), bit by bit.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return ~c
  }

  static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }
}
