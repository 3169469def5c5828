import FuzzDriver
import GLESGlass

// libFuzzer target: the fast PNG encoder (compression 1), differential. The input
// describes an image: its first bytes give the size (1x1 to 4097 wide, any
// height within 2^16 pixels), the depth (8 or 16 bits), the kind of content and
// the band size; the rest is the content's seed. Kinds: the input's own bytes as
// samples (noise, which the encoder stores), a photograph-like field (smooth
// gradients with grain and edges), sparse bytes on zeros (long runs), and flat
// rectangles (runs of one colour, zero after Paeth); at 16 bits, each kind also
// widened from 8 bits (both bytes of a sample equal), which the encoder codes
// with matches.
//
// For each image: the file the fast encoder writes (AVX2 and SSE2, which must be
// the same bytes), decoded by libpng alone (`.libpngOnly`, whose inflate is
// zlib's), equals the image sample for sample, at its own depth. A disagreement
// stops the fuzzer with the image's description.

/// The image an input describes.
func image(from input: [UInt8]) -> (RGBAImage, bandBytes: Int, kind: Int)? {
  guard input.count >= 6 else { return nil }
  let width = 1 + (Int(input[0]) | Int(input[1]) << 8) % 4097
  let height = max(1, min(1 + (Int(input[2]) | Int(input[3]) << 8) % 512, (1 << 16) / width))
  let sixteen = input[4] & 1 == 1
  let kind = Int(input[4] >> 1) % 4
  let bandBytes = input[5] == 0 ? 0 : Int(input[5]) * 97
  let seed = Array(input.dropFirst(6))
  let count = width * height * 4 * (sixteen ? 2 : 1)
  var bytes = [UInt8](repeating: 0, count: count)
  var state: UInt32 = seed.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 }
  func next() -> UInt32 {
    state ^= state << 13
    state ^= state >> 17
    state ^= state << 5
    return state
  }
  switch kind {
  case 0:
    for i in 0..<count { bytes[i] = seed.isEmpty ? UInt8(truncatingIfNeeded: next()) : seed[i % seed.count] }
  case 1:
    let fx = Double(next() % 97 + 1) / 3000
    let fy = Double(next() % 89 + 1) / 2000
    let edge = Int(next() % UInt32(width + 1))
    let channel = 4 * (sixteen ? 2 : 1)
    for y in 0..<height {
      for x in 0..<width {
        for c in 0..<channel {
          let smooth = 128 + 100 * (fx * Double(x * (c + 1)) + fy * Double(y)).truncatingRemainder(dividingBy: 1)
          let grain = Double(Int(next() % 9) - 4)
          let value = Int(smooth + grain) + (x > edge ? 60 : 0)
          bytes[(y * width + x) * channel + c] = UInt8(truncatingIfNeeded: value)
        }
      }
    }
  case 2:
    for (index, byte) in seed.enumerated() { bytes[(index * 131 + Int(byte) * 7) % count] = byte }
  default:
    for _ in 0..<(1 + seed.count / 8) {
      let x0 = Int(next() % UInt32(width))
      let y0 = Int(next() % UInt32(height))
      let w = 1 + Int(next() % UInt32(width - x0))
      let h = 1 + Int(next() % UInt32(height - y0))
      let colour = next()
      let pixel = 4 * (sixteen ? 2 : 1)
      for y in y0..<(y0 + h) {
        for x in x0..<(x0 + w) {
          for c in 0..<pixel { bytes[(y * width + x) * pixel + c] = UInt8(truncatingIfNeeded: colour >> (c % 4 * 8)) }
        }
      }
    }
  }
  let size = PixelSize(width: width, height: height)
  if sixteen {
    // Bit 5 of byte 4: widened, each sample's two bytes equal (v * 257, as libpng
    // widens an 8-bit file), which the encoder codes with matches (pair bands).
    let widened = input[4] & 0x20 != 0
    let samples = (0..<(count / 2)).map {
      widened ? UInt16(bytes[2 * $0]) * 257 : UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8
    }
    return (RGBAImage(size: size, samples: .sixteen(samples)), bandBytes, kind)
  }
  return (RGBAImage(size: size, samples: .eight(bytes)), bandBytes, kind)
}

func fail(_ what: String) -> Never {
  print("fuzz-encode: disagreement: \(what)")
  fatalError("fuzz-encode: disagreement")
}

let fuzzEncode: FuzzTest = { data, size in
  guard let (image, bandBytes, kind) = image(from: bytes(data, size)) else { return 0 }
  let what = "\(image.size) \(image.depth) kind \(kind) band \(bandBytes)"
  do {
    PNGCodec.fastEncoderUsesAVX2 = true
    let file = try PNGCodec.encode(image, with: .fast(bandBytes: bandBytes))
    PNGCodec.fastEncoderUsesAVX2 = false
    let narrow = try PNGCodec.encode(image, with: .fast(bandBytes: bandBytes))
    PNGCodec.fastEncoderUsesAVX2 = true
    if file != narrow { fail("\(what): AVX2 and SSE2 wrote different files") }
    guard
      let decoded = try PNGCodec.decode(
        file, name: "fuzz", maxPixels: 1 << 17, depth: image.depth, decoder: .libpngOnly)
    else { fail("\(what): libpng declined") }
    if decoded.image != image { fail("\(what): libpng decodes other samples") }
    if !decoded.warnings.isEmpty { fail("\(what): libpng warned: \(decoded.warnings)") }
  } catch {
    fail("\(what): \(error)")
  }
  return 0
}
