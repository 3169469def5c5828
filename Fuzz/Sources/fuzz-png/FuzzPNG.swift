import FuzzDriver
import GLESGlass

// libFuzzer target: PNG decoding, differential. An input that starts with the PNG
// signature is a file; it is decoded as it is and, when its chunk CRCs are wrong,
// again with them fixed (so mutations get past the CRC checks). Any other input
// describes an image (`StructuredPNG`) that is built into a valid file with the
// raw, filtered rows taken from the input, so the unfiltering and expansion paths
// see every filter, colour type, bit depth and interlacing.
//
// For each file, at 8 and at 16 bits per channel:
// - the fast path (`.fastOnly`) either declines (nil) or returns exactly the image
//   libpng (`.libpngOnly`) returns: same header, size and samples. The fast path
//   decoding a file that libpng refuses is a disagreement;
// - `.automatic` returns the fast path's image when it decodes, else libpng's
//   result, image or error;
// - the 8-bit decode equals the 16-bit decode converted to 8 bits
//   (`RGBAImage.converted(to:)`, libpng's `png_set_scale_16` rounding);
// - `decode` with no depth equals the decode at the file's own depth.
// Errors must be `GlassError`. A disagreement stops the fuzzer with both results.
//
// An input that starts as a JPEG (FF D8 FF) or a WebP (RIFF....WEBP) goes to the
// JPEG and WebP decoders (`ImageDecoding`: libjpeg-turbo, libwebp, and the EXIF,
// marker, chunk and ICC parsing of our own): each either refuses it with a
// `GlassError` or returns an image of the header's upright size, the same from
// `decode` and from `header` then `decode`.

/// A small pixel limit keeps executions fast; the limit check itself is shared.
let maxPixels = 1 << 18

/// One decode's outcome, comparable and printable.
enum Outcome: Equatable, CustomStringConvertible {
  case declined
  case image(PNGCodec.Header, RGBAImage)
  case error(String)

  init(_ body: () throws -> PNGCodec.Decoded?) {
    do {
      guard let decoded = try body() else {
        self = .declined
        return
      }
      self = .image(decoded.header, decoded.image)
    } catch let error as GlassError {
      self = .error(error.description)
    } catch {
      fatalError("fuzz-png: an error that is not a GlassError: \(error)")
    }
  }

  var image: RGBAImage? {
    if case .image(_, let image) = self { return image }
    return nil
  }

  var description: String {
    switch self {
    case .declined: return "declined"
    case .error(let message): return "error: \(message)"
    case .image(let header, let image): return "image \(header) \(image.depth) \(summary(image))"
    }
  }
}

/// Size, depth and the first differing sample, or a checksum.
func summary(_ image: RGBAImage) -> String {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  func mix(_ v: UInt64) { hash = (hash ^ v) &* 0x100_0000_01b3 }
  switch image.samples {
  case .eight(let v): v.forEach { mix(UInt64($0)) }
  case .sixteen(let v): v.forEach { mix(UInt64($0)) }
  }
  return "\(image.size) fnv1a \(String(hash, radix: 16))"
}

/// Where two images of one size first differ.
func firstDifference(_ a: RGBAImage, _ b: RGBAImage) -> String {
  guard a.size == b.size else { return "sizes \(a.size) and \(b.size)" }
  for y in 0..<a.height {
    for x in 0..<a.width where a.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) {
      return "first difference at (\(x), \(y)): \(a.pixel16(x: x, y: y)) vs \(b.pixel16(x: x, y: y)) (16-bit scale)"
    }
  }
  return "same samples, other depth"
}

func disagree(_ what: String, _ a: (String, Outcome), _ b: (String, Outcome)) -> Never {
  var detail = ""
  if let x = a.1.image, let y = b.1.image { detail = "\n  " + firstDifference(x, y) }
  fatalError("fuzz-png: disagreement: \(what)\n  \(a.0): \(a.1)\n  \(b.0): \(b.1)\(detail)")
}

/// The test function libFuzzer runs on each input.
let fuzzPNG: FuzzTest = { data, size in
  let input = FuzzDriver.bytes(data, size)
  if let format = ImageDecoding.format(of: input), format != .png {
    checkLossy(input)
  } else if input.starts(with: PNGFile.signature) {
    check(input)
    let fixed = PNGFile.fixingCRCs(input)
    if fixed != input { check(fixed) }
  } else {
    check(StructuredPNG(input).file)
  }
  return 0
}

/// Runs every decoder on `bytes` and stops the process where they disagree.
func check(_ bytes: [UInt8]) {
  let header = try? PNGCodec.header(of: bytes, name: "input")
  var libpngAt: [RGBAImage.Depth: Outcome] = [:]
  for depth in RGBAImage.Depth.allCases {
    func decode(_ decoder: PNGCodec.Decoder) -> Outcome {
      Outcome { try PNGCodec.decode(bytes, name: "input", maxPixels: maxPixels, depth: depth, decoder: decoder) }
    }
    let fast = decode(.fastOnly)
    let libpng = decode(.libpngOnly)
    let automatic = decode(.automatic)
    libpngAt[depth] = libpng
    switch (fast, libpng) {
    case (.declined, _):
      if automatic != libpng {
        disagree("automatic is not libpng at \(depth)", ("automatic", automatic), ("libpng", libpng))
      }
    case (.image, _):
      if fast != libpng { disagree("fast path and libpng at \(depth)", ("fast", fast), ("libpng", libpng)) }
      if automatic != fast {
        disagree("automatic is not the fast path at \(depth)", ("automatic", automatic), ("fast", fast))
      }
    case (.error, _):
      // The checks before either decoder runs (signature, header, limits) failed.
      if fast != libpng || automatic != libpng {
        disagree("an error before decoding at \(depth)", ("fast", fast), ("libpng", libpng))
      }
    }
    if case .image(let h, let image) = libpng {
      if h != header { fatalError("fuzz-png: decode's header \(h) is not header(of:)'s \(String(describing: header))") }
      if image.depth != depth || image.size != h.size {
        fatalError("fuzz-png: asked for \(depth), got \(image.depth) \(image.size) for header \(h)")
      }
    }
  }
  if let eight = libpngAt[.eight], let sixteen = libpngAt[.sixteen] {
    switch (eight, sixteen) {
    case (.image(_, let a), .image(_, let b)):
      if a != b.converted(to: .eight) {
        disagree("the 8-bit decode is not the 16-bit one scaled to 8 bits", ("8-bit", eight), ("16-bit", sixteen))
      }
    case (.error, .error), (.declined, .declined):
      break
    default:
      // libpng may refuse at one depth only if a limit depends on the depth; none does.
      disagree("libpng decodes at one depth only", ("8-bit", eight), ("16-bit", sixteen))
    }
  }
  if let header {
    let own: RGBAImage.Depth = header.bitDepth == 16 ? .sixteen : .eight
    let plain = Outcome {
      try PNGCodec.decode(bytes, name: "input", maxPixels: maxPixels, depth: nil, decoder: .automatic)
    }
    let explicit = Outcome {
      try PNGCodec.decode(bytes, name: "input", maxPixels: maxPixels, depth: own, decoder: .automatic)
    }
    if plain != explicit { disagree("no depth is not the file's own depth", ("nil", plain), ("\(own)", explicit)) }
  }
}

/// Decodes a JPEG or WebP input and stops the process where the decode breaks
/// its contract.
func checkLossy(_ bytes: [UInt8]) {
  func outcome(_ body: () throws -> ImageDecoding.Decoded) -> Result<ImageDecoding.Decoded, GlassError> {
    do {
      return .success(try body())
    } catch let error as GlassError {
      return .failure(error)
    } catch {
      fatalError("fuzz-png: an error that is not a GlassError: \(error)")
    }
  }
  let decoded = outcome { try ImageDecoding.decode(bytes, name: "input", maxPixels: maxPixels) }
  guard case .success(let result) = decoded else { return }
  let header = result.header
  if result.image.size != header.size || header.size != header.orientation.shownSize(header.storedSize) {
    fatalError("fuzz-png: decoded \(result.image.size) for header \(header)")
  }
  guard case .success(let again) = outcome({ try ImageDecoding.decode(bytes, name: "input", maxPixels: maxPixels) }),
    again.image == result.image, (try? ImageDecoding.header(of: bytes, name: "input")) == header
  else { fatalError("fuzz-png: a second decode of the same bytes differs") }
}
