import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The fast PNG encoder (compression 1, fast_png.c) against libpng: every file it
/// writes, libpng (whose inflate is zlib's) decodes to exactly the input, at 8
/// and 16 bits, for sizes from 1x1 to rows over a stored block (65535 bytes),
/// contents from noise (stored) to flat areas (zero runs), and bands from one row
/// to the whole image. `make fuzz` runs the same check on random images
/// (Fuzz/Sources/fuzz-encode).
@Suite("Fast PNG encoder")
struct FastPNGEncoderTests {
  /// Seeded contents: noise, a photograph, a gradient, flat rectangles, sparse bytes.
  static func contents(width: Int, height: Int, seed: UInt64) -> [(String, RGBAImage)] {
    var generator = SplitMix(state: seed)
    var flat = [UInt8](repeating: 0, count: width * height * 4)
    for _ in 0..<4 {
      let x0 = Int(generator.next() % UInt64(width))
      let y0 = Int(generator.next() % UInt64(height))
      let colour = (0..<4).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      for y in y0..<height {
        for x in x0..<width { for c in 0..<4 { flat[(y * width + x) * 4 + c] = colour[c] } }
      }
    }
    let sparse = (0..<(width * height * 4)).map { i in i % 97 == 0 ? UInt8(truncatingIfNeeded: i / 97 + 1) : 0 }
    let size = PixelSize(width: width, height: height)
    return [
      ("noise", ProceduralImages.noise(width: width, height: height, seed: seed, alpha: true)),
      ("photo", ProceduralPhotos.flowers(width: width, height: height)),
      ("gradient", ProceduralImages.gradient(width: width, height: height)),
      ("flat", RGBAImage(size: size, samples: .eight(flat))),
      ("sparse", RGBAImage(size: size, samples: .eight(sparse))),
    ]
  }

  /// 16 bits from 8: each sample times 257 plus a seeded low byte, so both bytes vary.
  static func sixteen(_ image: RGBAImage, seed: UInt64) -> RGBAImage {
    guard case .eight(let values) = image.samples else { return image }
    var generator = SplitMix(state: seed)
    return RGBAImage(
      size: image.size,
      samples: .sixteen(values.map { UInt16($0) * 257 ^ UInt16(truncatingIfNeeded: generator.next() & 0x3F) }))
  }

  func check(_ image: RGBAImage, band: Int, _ label: String) throws -> [UInt8] {
    let file = try PNGCodec.encode(image, with: .fast(bandBytes: band))
    let decoded = try #require(
      try PNGCodec.decode(file, name: label, maxPixels: 1 << 26, depth: image.depth, decoder: .libpngOnly))
    #expect(decoded.image == image, "\(label): libpng decodes other samples")
    #expect(decoded.header.colorType == 6 && decoded.header.bitDepth == image.depth.rawValue, "\(label)")
    #expect(decoded.warnings.isEmpty, "\(label): \(decoded.warnings)")
    return file
  }

  @Test(
    "every file decodes through libpng to exactly the input: 8 and 16 bits, 1x1 to 4097x3 and 16385x2, bands of one row to the whole image",
    arguments: [(1, 1), (2, 1), (1, 7), (4097, 3), (16385, 2), (33, 65), (300, 120)])
  func libpngReadsEveryFile(_ width: Int, _ height: Int) throws {
    for (name, image) in Self.contents(width: width, height: height, seed: UInt64(width * 31 + height)) {
      for band in [0, 1, 5000] {
        let label = "\(name) \(width)x\(height) band \(band)"
        let file = try check(image, band: band, "\(label) 8-bit")
        _ = try check(Self.sixteen(image, seed: UInt64(band)), band: band, "\(label) 16-bit")
        // Noise is stored (no larger than the rows and their block headers); a
        // photograph or flat colour is coded smaller than its rows.
        let rows = height * (width * 4 + 1)
        if name == "noise" {
          #expect(file.count <= rows + 6 * height * ((width * 4 + 65535) / 65535) + 200, "\(label): \(file.count)")
        } else if name == "flat" && band == 0 && width * height >= 1000 {
          #expect(file.count < rows / 4, "\(label): \(file.count) bytes of \(rows)")
        }
      }
    }
  }

  @Test("zlib's inflate (Python's zlib module) accepts every stream, Adler-32 checked, at the rows' length")
  func zlibInflates() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (width, height) in [(1, 1), (4097, 3), (301, 67)] {
      for (name, image) in Self.contents(width: width, height: height, seed: 7) {
        for (depth, picture) in [(8, image), (16, Self.sixteen(image, seed: 5))] {
          let path = folder.appendingPathComponent("\(name)-\(width)x\(height)-\(depth).png").path
          try Data(PNGCodec.encode(picture, with: .fast(bandBytes: width == 301 ? 3000 : 0)))
            .write(to: URL(fileURLWithPath: path))
          paths.append(path)
        }
      }
    }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("codecs/inflate_check.py").path
    let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + paths, timeout: 120)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").filter { $0.contains(": ok ") }.count == paths.count)
  }

  @Test("AVX2 and SSE2 write the same bytes")
  func simdPathsAgree() throws {
    let image = ProceduralPhotos.flowers(width: 301, height: 67)
    for picture in [image, Self.sixteen(image, seed: 3)] {
      let wide = try PNGCodec.encode(picture, with: .fast())
      let saved = PNGCodec.fastEncoderUsesAVX2
      PNGCodec.fastEncoderUsesAVX2 = false
      let narrow = try PNGCodec.encode(picture, with: .fast())
      PNGCodec.fastEncoderUsesAVX2 = saved
      #expect(wide == narrow, "\(picture.depth)")
    }
  }

  /// 16 bits from 8 as libpng widens them: each sample times 257, both bytes equal.
  static func widened(_ image: RGBAImage) -> RGBAImage {
    guard case .eight(let values) = image.samples else { return image }
    return RGBAImage(size: image.size, samples: .sixteen(values.map { UInt16($0) * 257 }))
  }

  @Test(
    "an 8-bit image widened to 16 bits (pair bands, with matches) decodes exactly, one sample off the pairs too, 1x1 to 16385x2, bands of one row to the whole image",
    arguments: [(1, 1), (3, 2), (4097, 3), (16385, 2), (33, 65), (300, 120)])
  func widenedDecodesExactly(_ width: Int, _ height: Int) throws {
    for (name, image) in Self.contents(width: width, height: height, seed: UInt64(width * 7 + height)) {
      for band in [0, 1, 5000] {
        let wide = Self.widened(image)
        _ = try check(wide, band: band, "\(name) \(width)x\(height) band \(band) widened")
        // One sample whose bytes differ: its band is coded without matches, the others with.
        guard case .sixteen(var values) = wide.samples else { continue }
        values[values.count / 2] ^= 1
        _ = try check(
          RGBAImage(size: wide.size, samples: .sixteen(values)), band: band,
          "\(name) \(width)x\(height) band \(band) widened, one sample off")
      }
    }
  }

  @Test(
    "an 8-bit photo and frame widened to 16 bits take at most 1.25 times libdeflate level 2's bytes (not twice the 8-bit file)"
  )
  func widenedSize() throws {
    let file = try SceneFile(
      path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/scenes/landmarks.json").path)
    var scene = file.scene
    scene.scale = 1
    var timings = RenderTimings()
    let frame = try Renderer(backend: .cpu).render(scene, images: file.loadImages(), timings: &timings)
    for (name, image) in [("photo", ProceduralPhotos.flowers(width: 640, height: 427)), ("Landmarks", frame)] {
      let wide = Self.widened(image)
      let fast = try PNGCodec.encode(wide, with: .fast())
      let level2 = try PNGCodec.encode(wide, with: .libdeflate(level: 2, filter: .up))
      #expect(Double(fast.count) <= 1.25 * Double(level2.count), "\(name): \(fast.count) vs \(level2.count)")
      let decoded = try #require(
        try PNGCodec.decode(fast, name: name, maxPixels: 1 << 26, depth: .sixteen, decoder: .libpngOnly))
      #expect(decoded.image == wide, "\(name)")
    }
  }

  @Test(
    "a stream buffer smaller than the image needs (a wrong bound) fails with a message and no overflow; its bound succeeds"
  )
  func endChecked() throws {
    let photo = ProceduralPhotos.flowers(width: 301, height: 67)
    let images = [
      ("noise", ProceduralImages.noise(width: 301, height: 67, seed: 3, alpha: true)), ("photo", photo),
      ("widened photo", Self.widened(photo)), ("16-bit photo", Self.sixteen(photo, seed: 2)),
    ]
    // The bytes around the stream in the file: the head, IDAT's length, type and CRC, IEND.
    let around = 8 + 25 + 13 + 16 + 44 + 8 + 4 + 12
    for (name, image) in images {
      for band in [0, 3000] {
        let whole = try PNGCodec.encodeFast(image, streamCapacity: 0, bandBytes: band)
        #expect(
          whole == (try PNGCodec.encode(image, with: .fast(bandBytes: band))), "\(name): the bound is the default")
        let stream = whole.count - around
        for capacity in [1, 2, 100, stream / 2, stream - 1] {
          #expect(throws: GlassError.self, "\(name) band \(band), \(capacity) bytes for \(stream)") {
            _ = try PNGCodec.encodeFast(image, streamCapacity: capacity, bandBytes: band)
          }
        }
      }
    }
  }

  @Test("compression 1 is the fast encoder; at most 1.25 times libdeflate level 1's bytes on a rendered frame")
  func defaultAndSize() throws {
    let file = try SceneFile(
      path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/scenes/landmarks.json").path)
    var scene = file.scene
    scene.scale = 1
    var timings = RenderTimings()
    let image = try Renderer(backend: .cpu).render(scene, images: file.loadImages(), timings: &timings)
    let fast = try PNGCodec.encode(image, with: .fast())
    #expect(try PNGCodec.encode(image) == fast)
    #expect(try PNGCodec.encode(image, compression: 1) == fast)
    let libdeflate = try PNGCodec.encode(image, with: .libdeflate(level: 1, filter: .up))
    #expect(Double(fast.count) <= 1.25 * Double(libdeflate.count), "\(fast.count) vs \(libdeflate.count)")
    #expect(try PNGCodec.decode(fast, name: "landmarks").image == image)
  }
}
