import CPNG
import Foundation

extension PNGCodec {
  /// The fast encoder's file of `image` with its zlib stream written into a
  /// buffer of `streamCapacity` bytes (0: the bound the encoder computes), for
  /// the tests of its end check: a capacity under what the image needs throws,
  /// and nothing is written past the buffer.
  static func encodeFast(_ image: RGBAImage, streamCapacity: Int, bandBytes: Int = 0) throws -> [UInt8] {
    var message = [CChar](repeating: 0, count: 512)
    var png: UnsafeMutablePointer<UInt8>?
    var size = 0
    let rowBytes = image.width * 4 * image.depth.rawValue / 8
    func run(_ pixels: UnsafeRawBufferPointer) -> Int32 {
      cpng_encode_fast_capacity(
        pixels.baseAddress, UInt32(image.width), UInt32(image.height), Int32(image.depth.rawValue), rowBytes,
        bandBytes, streamCapacity, &png, &size, &message, message.count)
    }
    let status: Int32
    switch image.samples {
    case .eight(let values): status = values.withUnsafeBytes(run)
    case .sixteen(let values): status = values.withUnsafeBytes(run)
    }
    defer { cpng_free(png) }
    guard status == 0, let png else {
      throw GlassError(.outputFailure, "cannot encode the image", cause: String(cBuffer: message))
    }
    return Array(UnsafeBufferPointer(start: png, count: size))
  }
}
