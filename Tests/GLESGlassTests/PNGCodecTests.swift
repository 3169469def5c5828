import Foundation
import Testing

@testable import GLESGlass

/// The PNG fixtures of Fixtures/, written by Fixtures/make_fixtures.py. Their
/// pixels follow a formula of (x, y) that this file recomputes independently of
/// libpng; keep the two in step (Fixtures/README.md describes the formula).
enum PNGFixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// One good fixture: what its file holds.
  struct Good: Sendable, CustomTestStringConvertible {
    var kind: String
    var colorType: Int
    var bitDepth: Int
    var transparencyChunk: Bool
    var interlaced: Bool
    var width: Int
    var height: Int

    var name: String {
      var name = kind + (interlaced ? "_adam7" : "")
      if width != 13 || height != 7 { name += "_\(width)x\(height)" }
      return name + ".png"
    }
    var path: String { PNGFixtures.path(name) }
    var testDescription: String { name }

    /// The same image without interlacing.
    var twin: Good {
      var twin = self
      twin.interlaced = false
      return twin
    }
  }

  // kind -> (colour type, bit depth, tRNS); as KINDS in make_fixtures.py.
  static let kinds: [(String, Int, Int, Bool)] = [
    ("grey1", 0, 1, false), ("grey2", 0, 2, false), ("grey4", 0, 4, false), ("grey8", 0, 8, false),
    ("grey16", 0, 16, false), ("greyalpha8", 4, 8, false), ("greyalpha16", 4, 16, false),
    ("rgb8", 2, 8, false), ("rgb16", 2, 16, false), ("rgba8", 6, 8, false), ("rgba16", 6, 16, false),
    ("palette1", 3, 1, false), ("palette2", 3, 2, false), ("palette4", 3, 4, false), ("palette8", 3, 8, false),
    ("palette4_trns", 3, 4, true), ("grey2_trns", 0, 2, true), ("grey8_trns", 0, 8, true),
    ("grey16_trns", 0, 16, true), ("rgb8_trns", 2, 8, true), ("rgb16_trns", 2, 16, true),
  ]
  static let interlacedKinds = [
    "rgba8", "grey4", "palette8", "rgb16", "grey1", "greyalpha16", "rgb8_trns", "palette4_trns",
  ]
  static let extraSizes = [(1, 1), (3, 2)]
  static let extraSizedKinds = [
    "grey1", "grey16", "greyalpha8", "rgb8", "rgb16", "rgba8", "rgba16", "palette1", "palette8", "grey8_trns",
    "rgb16_trns", "palette4_trns",
  ]
  static let extraSizedInterlacedKinds = ["rgba8", "rgb16", "palette4_trns"]

  static func good(_ kind: String, interlaced: Bool = false, width: Int = 13, height: Int = 7) -> Good {
    guard let (_, colorType, bitDepth, trns) = kinds.first(where: { $0.0 == kind }) else {
      preconditionFailure("unknown fixture kind \(kind)")
    }
    return Good(
      kind: kind, colorType: colorType, bitDepth: bitDepth, transparencyChunk: trns, interlaced: interlaced,
      width: width, height: height)
  }

  static let all: [Good] = {
    var all = kinds.map { good($0.0) }
    all += interlacedKinds.map { good($0, interlaced: true) }
    for (width, height) in extraSizes {
      all += extraSizedKinds.map { good($0, width: width, height: height) }
      all += extraSizedInterlacedKinds.map { good($0, interlaced: true, width: width, height: height) }
    }
    return all
  }()

  static let interlaced = all.filter(\.interlaced)
  static let sixteenBit = all.filter { $0.bitDepth == 16 }

  /// Bad files and the error code reading each must give.
  static let bad: [(String, GlassError.Code)] = [
    ("empty.png", .invalidImage), ("not_a_png.png", .invalidImage), ("truncated.png", .invalidImage),
    ("corrupt_zlib.png", .invalidImage), ("bad_crc.png", .invalidImage), ("huge_header.png", .imageTooLarge),
  ]

  // MARK: The pattern, as make_fixtures.py documents it.

  static func sample(_ x: Int, _ y: Int, _ c: Int, bits: Int) -> Int {
    ((37 * x + 91 * y + 53 * c + 11) * 4099) % (1 << bits)
  }

  static func paletteEntry(_ k: Int) -> [Int] {
    [(41 * k + 7) % 256, (83 * k + 101) % 256, (29 * k + 200) % 256]
  }

  static func paletteAlpha(_ k: Int) -> Int { (67 * k + 3) % 256 }

  /// The RGBA values the decoder must give for `fixture`: 16-bit for 16-bit files,
  /// else 8-bit; grey copied to R, G and B; sub-8-bit grey scaled by replicating
  /// its bits (v * 255 / (2^bits - 1)); opaque where the file has no alpha; alpha 0
  /// where a tRNS colour matches.
  static func expected(_ fixture: Good) -> RGBAImage {
    let bits = fixture.bitDepth
    let opaque = bits == 16 ? 65535 : 255
    let scale = bits < 8 ? 255 / ((1 << bits) - 1) : 1
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][fixture.colorType, default: 0]
    func stored(_ x: Int, _ y: Int) -> [Int] { (0..<channels).map { sample(x, y, $0, bits: bits) } }
    let key = stored(fixture.width / 2, fixture.height / 2)
    var values: [Int] = []
    for y in 0..<fixture.height {
      for x in 0..<fixture.width {
        let s = stored(x, y)
        let transparent = fixture.transparencyChunk && s == key
        switch fixture.colorType {
        case 0: values += [s[0] * scale, s[0] * scale, s[0] * scale, transparent ? 0 : opaque]
        case 4: values += [s[0], s[0], s[0], s[1]]
        case 2: values += s + [transparent ? 0 : opaque]
        case 6: values += s
        default:
          let index = s[0]
          let alpha = fixture.transparencyChunk && index < (1 << bits) - 3 ? paletteAlpha(index) : 255
          values += paletteEntry(index) + [alpha]
        }
      }
    }
    let size = PixelSize(width: fixture.width, height: fixture.height)
    if bits == 16 {
      return RGBAImage(size: size, samples: .sixteen(values.map { UInt16($0) }))
    }
    return RGBAImage(size: size, samples: .eight(values.map { UInt8($0) }))
  }

  /// The summed lengths of a file's IDAT chunks, read from the chunk headers
  /// (4-byte big-endian length, 4-byte type, data, 4-byte CRC) after the signature.
  static func idatBytes(_ path: String) throws -> Int {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var offset = 8
    var total = 0
    while offset + 8 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == "IDAT" { total += length }
      offset += 12 + length
    }
    return total
  }

  /// A new, empty temporary folder.
  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("PNGCodecTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    return url
  }
}

/// Says where two images first differ, for a readable failure.
private func firstDifference(_ a: RGBAImage, _ b: RGBAImage) -> String {
  guard a.size == b.size else { return "sizes \(a.size) and \(b.size)" }
  guard a.depth == b.depth else { return "depths \(a.depth) and \(b.depth)" }
  for y in 0..<a.height {
    for x in 0..<a.width where a.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) {
      return "pixel (\(x), \(y)): \(a.pixel16(x: x, y: y)) vs \(b.pixel16(x: x, y: y)) (16-bit scale)"
    }
  }
  return "no difference"
}

@Suite("PNGCodec")
struct PNGCodecTests {
  // MARK: Good files

  @Test("the Fixtures folder holds exactly the fixtures these tests know")
  func fixtureListIsComplete() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: PNGFixtures.folder.path)
      .filter { $0.hasSuffix(".png") }
    let known = PNGFixtures.all.map(\.name) + PNGFixtures.bad.map(\.0) + ["bad_icc.png"]
    #expect(Set(names) == Set(known))
    #expect(known.count == Set(known).count)
  }

  @Test("a good PNG decodes to the expected RGBA values", arguments: PNGFixtures.all)
  func decodesGoodFixture(_ fixture: PNGFixtures.Good) throws {
    let decoded = try PNGCodec.read(path: fixture.path)
    let expected = PNGFixtures.expected(fixture)
    #expect(decoded.image.size == PixelSize(width: fixture.width, height: fixture.height))
    #expect(decoded.image.depth == (fixture.bitDepth == 16 ? .sixteen : .eight))
    #expect(
      decoded.header
        == PNGCodec.Header(
          size: PixelSize(width: fixture.width, height: fixture.height), bitDepth: fixture.bitDepth,
          colorType: fixture.colorType, interlaced: fixture.interlaced,
          hasTransparencyChunk: fixture.transparencyChunk,
          compressedBytes: try PNGFixtures.idatBytes(fixture.path)))
    let same = decoded.image == expected  // not inside #expect: it would print every sample
    #expect(same, "\(fixture.name): \(firstDifference(decoded.image, expected))")
    #expect(decoded.warnings.isEmpty)
  }

  @Test("header(of:) reads the header alone", arguments: PNGFixtures.all)
  func readsHeader(_ fixture: PNGFixtures.Good) throws {
    let data = try PNGCodec.readFile(fixture.path)
    let header = try PNGCodec.header(of: data, name: fixture.name)
    #expect(header.size == PixelSize(width: fixture.width, height: fixture.height))
    #expect(header.bitDepth == fixture.bitDepth)
    #expect(header.colorType == fixture.colorType)
    #expect(header.interlaced == fixture.interlaced)
    #expect(header.hasTransparencyChunk == fixture.transparencyChunk)
  }

  @Test("an Adam7 file decodes equal to its non-interlaced twin", arguments: PNGFixtures.interlaced)
  func interlacedMatchesTwin(_ fixture: PNGFixtures.Good) throws {
    let interlaced = try PNGCodec.read(path: fixture.path)
    let plain = try PNGCodec.read(path: fixture.twin.path)
    #expect(interlaced.header.interlaced)
    #expect(!plain.header.interlaced)
    let same = interlaced.image == plain.image
    #expect(same, "\(fixture.name): \(firstDifference(interlaced.image, plain.image))")
  }

  @Test("a bad ICC profile is a warning, not an error")
  func badICCProfileWarns() throws {
    let decoded = try PNGCodec.read(path: PNGFixtures.path("bad_icc.png"))
    #expect(!decoded.warnings.isEmpty)
    #expect(decoded.warnings.contains { $0.contains("iCCP") }, "\(decoded.warnings)")
    #expect(decoded.image == PNGFixtures.expected(PNGFixtures.good("rgb8")))
  }

  @Test("16-bit values scaled to 8 bits match libpng's own 8-bit decode", arguments: PNGFixtures.sixteenBit)
  func sixteenBitScalesLikeLibpng(_ fixture: PNGFixtures.Good) throws {
    let decoded = try PNGCodec.read(path: fixture.path)
    guard case .sixteen(let wide) = PNGFixtures.expected(fixture).samples else {
      Issue.record("expected 16-bit samples")
      return
    }
    let narrow = wide.map { UInt8((UInt32($0) * 255 + 32895) >> 16) }
    let eight = RGBAImage(size: decoded.image.size, samples: .eight(narrow))
    #expect(decoded.image.converted(to: .eight) == eight)
    #expect(decoded.image.converted(to: .eight).converted(to: .sixteen).converted(to: .eight) == eight)

    // libpng asked for 8 bits (png_set_scale_16) gives the same values.
    let data = try PNGCodec.readFile(fixture.path)
    let libpng = try PNGCodec.decode(
      data, name: fixture.path, maxPixels: 1 << 20, depth: .eight, decoder: .automatic)
    #expect(libpng?.image == eight)
  }

  // MARK: Bad files

  @Test("a bad file throws the right error, naming the file", arguments: PNGFixtures.bad)
  func badFileThrows(_ name: String, _ code: GlassError.Code) throws {
    let error = #expect(throws: GlassError.self) { try PNGCodec.read(path: PNGFixtures.path(name)) }
    #expect(error?.code == code, "\(name): \(String(describing: error))")
    #expect(error?.file == PNGFixtures.path(name), "\(String(describing: error))")
    #expect(error?.description.hasPrefix(PNGFixtures.path(name) + ": ") == true, "\(String(describing: error))")
  }

  @Test("every truncation of a good file is invalidImage, never a crash or a success")
  func everyTruncationThrows() throws {
    for name in ["rgba8.png", "palette4_trns_adam7.png"] {
      let data = try PNGCodec.readFile(PNGFixtures.path(name))
      for count in 0..<data.count {
        let error = #expect(throws: GlassError.self, "\(name) cut to \(count) bytes") {
          try PNGCodec.decode(Array(data.prefix(count)), name: "cut.png")
        }
        #expect(error?.code == .invalidImage, "\(name) cut to \(count) bytes: \(String(describing: error))")
        #expect(error?.description.contains("cut.png") == true)
      }
    }
  }

  @Test("the pixel limit is checked against width times height")
  func pixelLimit() throws {
    let path = PNGFixtures.path("rgba8.png")  // 13 x 7 = 91 pixels
    #expect(try PNGCodec.read(path: path, maxPixels: 91).image.size == PixelSize(width: 13, height: 7))
    let error = #expect(throws: GlassError.self) { try PNGCodec.read(path: path, maxPixels: 90) }
    #expect(error?.code == .imageTooLarge)
    #expect(error?.description.contains("rgba8.png") == true)
  }

  @Test("a 100000 x 100000 header is refused from the header, without allocating")
  func hugeHeaderRefusedQuickly() throws {
    let path = PNGFixtures.path("huge_header.png")
    let header = try PNGCodec.header(of: try PNGCodec.readFile(path), name: "huge_header.png")
    #expect(header.size == PixelSize(width: 100_000, height: 100_000))
    let start = ContinuousClock.now
    let error = #expect(throws: GlassError.self) { try PNGCodec.read(path: path) }
    #expect(ContinuousClock.now - start < .seconds(2))
    #expect(error?.code == .imageTooLarge)
    #expect(error?.message.contains("10000") == true, "\(String(describing: error))")
  }

  @Test("a missing path is fileUnreadable, naming it")
  func missingPathThrows() {
    let path = PNGFixtures.path("no_such_file.png")
    let error = #expect(throws: GlassError.self) { try PNGCodec.read(path: path) }
    #expect(error?.code == .fileUnreadable)
    #expect(error?.description.contains("no_such_file.png") == true)
  }

  @Test("a folder path is fileUnreadable, naming it")
  func folderPathThrows() throws {
    let folder = try PNGFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("looks_like.png").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let error = #expect(throws: GlassError.self) { try PNGCodec.read(path: path) }
    #expect(error?.code == .fileUnreadable)
    #expect(error?.description.contains("looks_like.png") == true)
  }

  // MARK: Writing

  /// An image whose channel values cover the whole range, high and low bytes alike.
  static func pattern(_ depth: RGBAImage.Depth, width: Int = 29, height: Int = 11) -> RGBAImage {
    let count = 4 * width * height
    let size = PixelSize(width: width, height: height)
    switch depth {
    case .eight:
      return RGBAImage(size: size, samples: .eight((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }))
    case .sixteen:
      return RGBAImage(
        size: size, samples: .sixteen((0..<count).map { UInt16(truncatingIfNeeded: $0 &* 40503 &+ 1234) }))
    }
  }

  @Test(
    "every row filter of the libdeflate path round-trips at 8 and 16 bits, odd sizes included; write writes what encode gives",
    arguments: PNGCodec.RowFilter.allCases)
  func filtersRoundTrip(_ filter: PNGCodec.RowFilter) throws {
    for depth in [RGBAImage.Depth.eight, .sixteen] {
      for (width, height) in [(1, 1), (7, 5), (33, 2), (2, 19)] {
        let image = Self.pattern(depth, width: width, height: height)
        let bytes = try PNGCodec.encode(image, compression: 2, filter: filter)
        let back = try PNGCodec.decode(bytes, name: "\(filter) \(depth) \(width)x\(height)")
        #expect(back.image == image, "\(filter), \(depth), \(width)x\(height): \(firstDifference(back.image, image))")
        // Each filter makes its own stream (a filter ignored would not).
        if filter != .up && height > 1 {
          #expect(try bytes != PNGCodec.encode(image, compression: 2, filter: .up), "\(filter) encodes as up")
        }
      }
    }
    let folder = try PNGFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = Self.pattern(.eight, width: 40, height: 30)
    let path = folder.appendingPathComponent("w.png").path
    try PNGCodec.write(image, to: path)
    #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == PNGCodec.encode(image))
  }

  @Test(
    "write then read gives the same image, leaving only the file behind",
    arguments: [RGBAImage.Depth.eight, .sixteen], [0, 1, 2, 9])
  func writeRoundTrips(_ depth: RGBAImage.Depth, compression: Int) throws {
    let folder = try PNGFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = PNGFixtures.expected(PNGFixtures.good(depth == .eight ? "rgba8" : "rgba16"))
    for (index, image) in [Self.pattern(depth), fixture, Self.pattern(depth, width: 1, height: 1)].enumerated() {
      let path = folder.appendingPathComponent("out\(index).png").path
      try PNGCodec.write(image, to: path, compression: compression)
      let back = try PNGCodec.read(path: path)
      let same = back.image == image
      #expect(same, "\(firstDifference(back.image, image))")
      #expect(back.header.colorType == 6)
      #expect(back.header.bitDepth == depth.rawValue)
      #expect(back.warnings.isEmpty)
    }
    // Overwriting an existing file replaces it.
    let path = folder.appendingPathComponent("out0.png").path
    let other = Self.pattern(depth, width: 5, height: 3)
    try PNGCodec.write(other, to: path, compression: compression)
    #expect(try PNGCodec.read(path: path).image == other)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["out0.png", "out1.png", "out2.png"])
  }

  @Test("writing into missing folders makes them; a file in the way is outputFailure and creates nothing")
  func writeIntoMissingFolder() throws {
    let folder = try PNGFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("missing/deeper/out.png").path
    try PNGCodec.write(Self.pattern(.eight), to: path)
    #expect(try PNGCodec.read(path: path).image == Self.pattern(.eight))
    let blocker = folder.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    let error = #expect(throws: GlassError.self) {
      try PNGCodec.write(Self.pattern(.eight), to: blocker.path + "/sub/out.png")
    }
    #expect(error?.code == .outputFailure)
    #expect(error?.message.contains("out.png") == true && error?.message.contains("is a file") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["file", "missing"])
  }

  @Test("writing over a folder is outputFailure and leaves the folder alone")
  func writeOverFolderThrows() throws {
    let folder = try PNGFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("taken.png").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let error = #expect(throws: GlassError.self) { try PNGCodec.write(Self.pattern(.sixteen), to: path) }
    #expect(error?.code == .outputFailure)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.png"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
  }
}
