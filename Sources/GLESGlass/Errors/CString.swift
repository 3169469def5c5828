extension String {
  /// The text of a NUL-terminated C buffer (UTF-8; bad bytes repaired).
  init(cBuffer buffer: [CChar]) {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    self = String(decoding: bytes, as: UTF8.self)
  }
}
