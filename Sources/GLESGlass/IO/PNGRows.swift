import CPNG
import Foundation

/// The rows of a PNG file, decoded band by band as they are read (libpng, row by
/// row): the decoded image never lies in memory whole. Gives the same samples as
/// `PNGCodec.decode` at the same depth. Interlaced files cannot be read this way.
struct PNGRows: ImageRowSource {
  /// The PNG file's bytes.
  let data: [UInt8]
  /// The file's name, for errors.
  let name: String
  let size: PixelSize
  let depth: RGBAImage.Depth
  /// Rows per band: about 4 MB of samples, at least one row.
  var bandRows: Int
  /// What libpng warned about, once read.
  private(set) var warnings: [String] = []

  /// The rows of `data`, whose header is `header`, at `depth`.
  init(data: [UInt8], header: PNGCodec.Header, depth: RGBAImage.Depth, name: String) {
    precondition(!header.interlaced, "an interlaced PNG is decoded whole")
    self.data = data
    self.name = name
    size = header.size
    self.depth = depth
    let rowBytes = 4 * (depth.rawValue / 8) * max(size.width, 1)
    bandRows = max(1, min(size.height, (4 << 20) / rowBytes))
  }

  mutating func readBands(_ body: (Range<Int>, UnsafeRawBufferPointer) throws -> Void) throws {
    var message = [CChar](repeating: 0, count: 512)
    let name = name
    func damaged() -> GlassError {
      GlassError(.invalidImage, "\(String(cBuffer: message)); the PNG data is damaged", file: name)
    }
    let rowBytes = 4 * (depth.rawValue / 8) * size.width
    let band = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * bandRows, alignment: 16)
    defer { band.deallocate() }
    let (size, depth, bandRows) = (self.size, self.depth, self.bandRows)
    warnings = try data.withUnsafeBufferPointer { bytes in
      guard let reader = cpng_rows_open(bytes.baseAddress, bytes.count, Int32(depth.rawValue), &message, message.count)
      else { throw damaged() }
      defer { cpng_rows_close(reader) }
      var y = 0
      while y < size.height {
        let count = min(bandRows, size.height - y)
        guard cpng_rows_read(reader, band.baseAddress, UInt32(count), &message, message.count) == 0 else {
          throw damaged()
        }
        try body(y..<y + count, UnsafeRawBufferPointer(rebasing: band[0..<count * rowBytes]))
        y += count
      }
      guard cpng_rows_finish(reader, &message, message.count) == 0 else { throw damaged() }
      let text = String(cString: cpng_rows_warnings(reader))
      return text.isEmpty ? [] : text.components(separatedBy: "; ")
    }
  }
}
