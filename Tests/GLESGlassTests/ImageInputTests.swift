import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Image inputs in PNG, JPEG and WebP (`ImageDecoding`): decoded as Pillow
/// decodes them, turned upright by their EXIF orientation, told apart by content,
/// refused from the header when too large, and refused, naming the file, when
/// damaged.
@Suite("Image inputs: PNG, JPEG and WebP")
struct ImageInputTests {
  // MARK: Files made here, without the library's decoders

  /// A 64 x 32 image of four flat colours, one a quadrant: red top left, green
  /// top right, blue bottom left, yellow bottom right.
  static let quadrantColours: [SIMD4<UInt8>] = [
    [220, 30, 30, 255], [30, 200, 40, 255], [40, 60, 230, 255], [240, 200, 20, 255],
  ]
  static let quadrants = RGBAImage(width: 64, height: 32) { x, y in
    quadrantColours[(x >= 32 ? 1 : 0) + (y >= 16 ? 2 : 0)]
  }

  /// An EXIF block's TIFF data whose IFD0 holds one entry, the orientation
  /// (tag 0x0112, SHORT, count 1), written from the TIFF 6.0 layout.
  static func tiff(orientation: Int, bigEndian: Bool, type: Int = 3) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
    let value = type == 3 ? u16(orientation) + u16(0) : u32(orientation)
    return Array((bigEndian ? "MM" : "II").utf8) + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(type) + u32(1)
      + value + u32(0)
  }

  /// `jpeg` with an APP1 `Exif` marker holding `tiff` right after its SOI.
  static func withExif(jpeg: [UInt8], _ tiff: [UInt8]) -> [UInt8] {
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 255)] + payload + jpeg[2...]
  }

  /// `webp` (an extended file, as glass-gpu writes) with an `EXIF` chunk holding
  /// `tiff` (after `Exif\0\0` when `prefixed`, as some writers put it) at its
  /// end, the RIFF size and the VP8X flag set to match.
  static func withExif(webp: [UInt8], _ tiff: [UInt8], prefixed: Bool = false) -> [UInt8] {
    let payload = (prefixed ? Array("Exif".utf8) + [0, 0] : []) + tiff
    var file = webp + Array("EXIF".utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    file.replaceSubrange(4..<8, with: le32(file.count - 8))
    #expect(String(decoding: file[12..<16], as: UTF8.self) == "VP8X")
    file[20] |= 0x08
    return file
  }

  static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 255) } }

  /// A baseline JPEG's markers for a `width` x `height` grey image, up to and
  /// with its scan header, then `data` bytes of zeros: a quantisation table,
  /// the frame header, Huffman tables of one 1-bit code each, the scan header.
  static func jpegHeaders(width: Int, height: Int, data: Int = 0) -> [UInt8] {
    var b: [UInt8] = [0xFF, 0xD8]
    b += [0xFF, 0xDB, 0, 67, 0] + [UInt8](repeating: 1, count: 64)
    b += [0xFF, 0xC0, 0, 11, 8, UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255)]
    b += [1, 1, 0x11, 0]
    let oneCode: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]
    b += [0xFF, 0xC4, 0, 38, 0x00] + oneCode + [0x10] + oneCode
    b += [0xFF, 0xDA, 0, 8, 1, 1, 0x00, 0, 63, 0]
    return b + [UInt8](repeating: 0, count: data)
  }

  /// A lossless WebP's headers for a `width` x `height` image (the VP8L
  /// signature, sizes minus one in 14 bits each) and nothing after them.
  static func webpHeaders(width: Int, height: Int) -> [UInt8] {
    let bits = (width - 1) | (height - 1) << 14
    let chunk: [UInt8] = [0x2F] + le32(bits)
    return Array("RIFF".utf8) + le32(4 + 8 + chunk.count + 1) + Array("WEBPVP8L".utf8) + le32(chunk.count) + chunk + [0]
  }

  static func write(_ bytes: [UInt8], _ folder: URL, _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// The largest channel difference of two 8-bit images of one size.
  static func maxDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    guard case .eight(let x) = a.samples, case .eight(let y) = b.samples, x.count == y.count else { return 256 }
    return zip(x, y).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
  }

  // MARK: Against Pillow

  /// What `pillow_codecs.py inputs` wrote.
  struct PillowInput: Decodable {
    var file: String
    var width: Int
    var height: Int
    var orientation: Int
  }

  static func pillowInputs(_ python: String, in folder: URL) throws -> [PillowInput] {
    let output = try PythonTools.pillowCodecs(python, ["inputs", folder.path], in: folder)
    return try JSONDecoder().decode([PillowInput].self, from: output)
  }

  /// Checks each file's decode against Pillow's (`NAME.rgba`, upright by
  /// `ImageOps.exif_transpose`); returns how many were checked.
  static func checkAgainstPillow(_ inputs: [PillowInput], in folder: URL) throws -> Int {
    for input in inputs {
      let path = folder.appendingPathComponent(input.file).path
      let decoded = try ImageDecoding.read(path: path)
      let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + ".rgba")))
      let expected = RGBAImage(size: PixelSize(width: input.width, height: input.height), samples: .eight(raw))
      #expect(decoded.image.size == expected.size, "\(input.file)")
      #expect(decoded.header.size == expected.size, "\(input.file)")
      #expect(decoded.header.orientation.rawValue == input.orientation, "\(input.file)")
      // Both sides run libjpeg-turbo's accurate IDCT and fancy upsampling, and
      // libwebp: they agree exactly here; 2/255 allows another build's IDCT.
      let difference = maxDifference(decoded.image, expected)
      #expect(difference <= 2, "\(input.file): \(difference)/255 from Pillow's decode")
    }
    return inputs.count
  }

  @Test(
    "JPEG (baseline, 4:4:4, progressive, grey) and WebP (lossy, alpha, lossless) written by Pillow decode as Pillow decodes them",
    .enabled(if: PythonTools.pillow.isAvailable, PythonTools.pillow.skipReason))
  func decodesAsPillow() throws {
    guard let python = PythonTools.pillow.require() else { return }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputs = try Self.pillowInputs(python, in: folder).filter { !$0.file.hasPrefix("orientation-") }
    #expect(try Self.checkAgainstPillow(inputs, in: folder) == 7)
    // A CMYK JPEG and an animated WebP are refused, naming the file.
    for (name, message) in [("cmyk.jpg", "CMYK JPEG"), ("animated.webp", "animated WebP")] {
      let path = folder.appendingPathComponent(name).path
      let error = #expect(throws: GlassError.self) { try ImageDecoding.read(path: path) }
      #expect(error?.code == .invalidImage && error?.file == path, "\(name)")
      #expect(error?.message.contains(message) == true, "\(name): \(error?.message ?? "")")
    }
  }

  @Test(
    "all eight EXIF orientations, in both byte orders, in JPEG and WebP, match Pillow's ImageOps.exif_transpose",
    .enabled(if: PythonTools.pillow.isAvailable, PythonTools.pillow.skipReason))
  func orientationsAsPillow() throws {
    guard let python = PythonTools.pillow.require() else { return }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputs = try Self.pillowInputs(python, in: folder).filter { $0.file.hasPrefix("orientation-") }
    #expect(Set(inputs.map(\.orientation)) == Set(1...8))
    #expect(try Self.checkAgainstPillow(inputs, in: folder) == 32)
  }

  // MARK: Orientation from the EXIF specification

  /// EXIF 2.3, tag 0x0112: for each value, the side of the shown image where the
  /// stored image's 0th row goes, and the side where its 0th column goes.
  enum Side: Equatable {
    case top, bottom, left, right
    var opposite: Side {
      switch self {
      case .top: .bottom
      case .bottom: .top
      case .left: .right
      case .right: .left
      }
    }
  }
  static let exifTable: [Int: (row0: Side, column0: Side)] = [
    1: (.top, .left), 2: (.top, .right), 3: (.bottom, .right), 4: (.bottom, .left),
    5: (.left, .top), 6: (.right, .top), 7: (.right, .bottom), 8: (.left, .bottom),
  ]

  /// Checks that each stored corner of `quadrants` shows at the corner the EXIF
  /// table puts it in.
  static func checkCorners(_ image: RGBAImage, orientation: Int, _ what: String) {
    guard let (row0, column0) = exifTable[orientation] else { return }
    let swapped = orientation >= 5
    #expect(image.size == (swapped ? PixelSize(width: 32, height: 64) : PixelSize(width: 64, height: 32)), "\(what)")
    guard case .eight(let values) = image.samples else { return }
    for (firstRow, firstColumn) in [(true, true), (true, false), (false, true), (false, false)] {
      let stored = quadrantColours[(firstColumn ? 0 : 1) + (firstRow ? 0 : 2)]
      let sides = [firstRow ? row0 : row0.opposite, firstColumn ? column0 : column0.opposite]
      let vertical = sides.first { $0 == .top || $0 == .bottom } ?? .top
      let horizontal = sides.first { $0 == .left || $0 == .right } ?? .left
      let x = horizontal == .left ? 3 : image.width - 4
      let y = vertical == .top ? 3 : image.height - 4
      let i = 4 * (y * image.width + x)
      let shown = SIMD4(values[i], values[i + 1], values[i + 2], values[i + 3])
      let off = (0..<4).map { abs(Int(shown[$0]) - Int(stored[$0])) }.max() ?? 0
      #expect(
        off <= 12,
        Comment(
          rawValue: "\(what): the stored corner \(firstRow ? "top" : "bottom")-\(firstColumn ? "left" : "right") "
            + "shows \(shown) at \(vertical)-\(horizontal), expected \(stored)"))
    }
  }

  @Test(
    "each EXIF orientation puts the stored corners where the EXIF table says (JPEG and WebP, both byte orders, SHORT and LONG)"
  )
  func orientationsFromTheSpecification() throws {
    let jpeg = try ImageEncoding(quality: 100).encoded(Self.quadrants, as: .jpeg)
    let webp = try ImageEncoding(quality: 100).encoded(Self.quadrants, as: .webp)
    for orientation in 1...8 {
      for bigEndian in [false, true] {
        let tiff = Self.tiff(orientation: orientation, bigEndian: bigEndian)
        let order = bigEndian ? "MM" : "II"
        let files: [(String, [UInt8])] = [
          ("JPEG \(order)", Self.withExif(jpeg: jpeg, tiff)),
          (
            "JPEG \(order) LONG",
            Self.withExif(jpeg: jpeg, Self.tiff(orientation: orientation, bigEndian: bigEndian, type: 4))
          ),
          ("WebP \(order)", Self.withExif(webp: webp, tiff)),
          ("WebP \(order) Exif-prefixed", Self.withExif(webp: webp, tiff, prefixed: true)),
        ]
        for (what, file) in files {
          let decoded = try ImageDecoding.decode(file, name: what)
          #expect(decoded.header.orientation.rawValue == orientation, "\(what) \(orientation)")
          Self.checkCorners(decoded.image, orientation: orientation, "\(what), orientation \(orientation)")
        }
      }
    }
    // Out of range, another type, or cut short: the image as stored.
    for tiff in [
      Self.tiff(orientation: 0, bigEndian: false), Self.tiff(orientation: 9, bigEndian: true),
      Self.tiff(orientation: 6, bigEndian: false, type: 5),
      Array(Self.tiff(orientation: 6, bigEndian: false).prefix(19)),
    ] {
      let decoded = try ImageDecoding.decode(Self.withExif(jpeg: jpeg, tiff), name: "odd")
      #expect(decoded.header.orientation == .up)
      Self.checkCorners(decoded.image, orientation: 1, "odd EXIF")
    }
  }

  @Test("EXIF, marker and chunk parsing survives every truncation and random bytes, and finds nothing in them")
  func hostileMetadata() throws {
    let tiff = Self.tiff(orientation: 6, bigEndian: true)
    #expect(ImageDecoding.exifOrientation(tiff) == .right)
    for length in 0..<tiff.count {
      // Cut before the entry's value (bytes 18 and 19): no orientation; cut
      // after it, the value's padding and the next-IFD offset are not needed.
      let found = ImageDecoding.exifOrientation(Array(tiff.prefix(length)))
      #expect(found == (length >= 20 ? .right : nil), "cut at \(length)")
    }
    // An IFD offset and an entry count that point past the end.
    var far = tiff
    far.replaceSubrange(4..<8, with: [0x7F, 0xFF, 0xFF, 0xFF])
    #expect(ImageDecoding.exifOrientation(far) == nil)
    var many = tiff
    many.replaceSubrange(8..<10, with: [0xFF, 0xFF])
    #expect(ImageDecoding.exifOrientation(many) == .right)
    let jpeg = Self.withExif(jpeg: try ImageEncoding(quality: 80).encoded(Self.quadrants, as: .jpeg), tiff)
    let webp = Self.withExif(webp: try ImageEncoding(quality: 80).encoded(Self.quadrants, as: .webp), tiff)
    for length in stride(from: 0, through: 200, by: 1) {
      _ = JPEGMarkers(Array(jpeg.prefix(length)))
      _ = WebPChunks(Array(webp.prefix(length)))
    }
    var random = SplitMix(state: 7)
    for _ in 0..<2000 {
      let bytes = (0..<Int(random.next() % 96)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      _ = ImageDecoding.exifOrientation(Array("MM".utf8) + [0, 42] + bytes)
      _ = ImageDecoding.exifOrientation(Array("II".utf8) + [42, 0] + bytes)
      _ = JPEGMarkers([0xFF, 0xD8] + bytes)
      _ = WebPChunks(Array("RIFF\0\0\0\0WEBP".utf8) + bytes)
      _ = ImageDecoding.profileWarning(bytes)
    }
    #expect(JPEGMarkers(jpeg).exif == tiff)
    #expect(WebPChunks(webp).exif == tiff)
  }

  // MARK: Limits and damage

  @Test(
    "the pixel limit is read from the header: a 65500 x 65500 JPEG and a 16383 x 16383 WebP with no data are refused before decoding"
  )
  func pixelLimitFromTheHeader() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let jpeg = Self.jpegHeaders(width: 65500, height: 65500)
    let webp = Self.webpHeaders(width: 16383, height: 16383)
    for (name, file, limit) in [
      ("huge.jpg", jpeg, PNGCodec.maximumMaxPixels), ("huge.jpg", jpeg, PNGCodec.defaultMaxPixels),
      ("huge.webp", webp, PNGCodec.defaultMaxPixels),
    ] {
      let header = try ImageDecoding.header(of: file, name: name)
      #expect(header.size.pixelCount > limit, "\(name)")
      let error = #expect(throws: GlassError.self) { try ImageDecoding.decode(file, name: name, maxPixels: limit) }
      #expect(error?.code == .imageTooLarge && error?.file == name, "\(name): \(String(describing: error))")
    }
    // Under the limit, a Huffman-coded JPEG whose data cannot fill its header's
    // size (at least one bit per 32 x 32 pixels) is refused before its pixels
    // are allocated (20000 x 20000: 1.6 GB); the data that can is decoded
    // (and here found damaged, as it is: zeros).
    let empty = Self.jpegHeaders(width: 20000, height: 20000)
    let error = #expect(throws: GlassError.self) { try ImageDecoding.decode(empty, name: "e.jpg", maxPixels: 1 << 30) }
    #expect(
      error?.code == .invalidImage && error?.message.contains("cannot fill them") == true,
      "\(String(describing: error))")
    let small = Self.jpegHeaders(width: 64, height: 64, data: 1)
    let damaged = #expect(throws: GlassError.self) { try ImageDecoding.decode(small, name: "s.jpg") }
    #expect(damaged?.message.contains("cannot fill them") == false, "\(String(describing: damaged))")
    // Through a scene and the CLI: the file and the limit named, exit 1.
    _ = try Self.write(webp, folder, "huge.webp")
    try #"{"version": 1, "size": {"width": 40, "height": 30}, "background": {"image": "huge.webp"}}"#
      .write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
    for arguments in [
      ["render", "scene.json", "-o", "out.png"],
      ["extend", "huge.webp", "-o", "out.png", "--leading", "8", "--trailing", "8"],
    ] {
      let result = try TestProcess.runGlassGPU(arguments + ["--backend", "cpu"], in: folder)
      #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
      #expect(result.stderr.contains("huge.webp") && result.stderr.contains("over the limit"), "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  @Test("a truncated or damaged JPEG or WebP is an error naming the file, never a crash or a half-grey image")
  func truncatedAndDamaged() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = ProceduralImages.landscape(width: 96, height: 64)
    for format in [ImageEncoding.Format.jpeg, .webp] {
      let file = try ImageEncoding(quality: 85).encoded(image, as: format)
      #expect(try ImageDecoding.decode(file, name: "whole").image.size == image.size)
      for cut in [file.count / 4, file.count / 2, file.count - 40, file.count - 2, file.count - 1] {
        let path = try Self.write(Array(file.prefix(cut)), folder, "cut-\(cut).\(format.fileExtension)")
        let error = #expect(throws: GlassError.self, "\(format) cut at \(cut) of \(file.count)") {
          try ImageDecoding.read(path: path)
        }
        #expect(error?.code == .invalidImage && error?.file == path, "\(String(describing: error))")
        let text = error?.message ?? ""
        #expect(text.contains("truncated or damaged") || text.contains("not a readable"), "\(text)")
      }
      // Bytes changed at random: an error or an image of the header's size, never a crash.
      var random = SplitMix(state: format == .jpeg ? 1 : 2)
      var refused = 0
      for _ in 0..<300 {
        var damaged = file
        for _ in 0..<(1 + Int(random.next() % 4)) {
          damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
        }
        do {
          let decoded = try ImageDecoding.decode(damaged, name: "damaged")
          #expect(decoded.image.size == decoded.header.size)
        } catch let error as GlassError {
          #expect(error.file == "damaged")
          refused += 1
        }
      }
      #expect(refused > 0, "\(format): no damaged file refused")
    }
  }

  @Test("the format comes from the first bytes, not the name; a file that is none of the three is refused, naming them")
  func formatByContent() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = ProceduralImages.gradient(width: 24, height: 16)
    let files: [(String, [UInt8], ImageEncoding.Format)] = [
      ("really-a-jpeg.png", try ImageEncoding().encoded(image, as: .jpeg), .jpeg),
      ("really-a-webp.jpg", try ImageEncoding().encoded(image, as: .webp), .webp),
      ("really-a-png.webp", try PNGCodec.encode(image), .png),
      ("no-extension", try ImageEncoding().encoded(image, as: .jpeg), .jpeg),
    ]
    for (name, bytes, format) in files {
      let decoded = try ImageDecoding.read(path: try Self.write(bytes, folder, name))
      #expect(decoded.header.format == format && decoded.image.size == image.size, "\(name)")
    }
    for (name, bytes) in [
      ("text.png", Array("hello, world".utf8)), ("empty.jpg", []), ("riff.webp", Array("RIFF\0\0\0\0WAVE".utf8)),
    ] {
      let path = try Self.write(bytes, folder, name)
      let error = #expect(throws: GlassError.self) { try ImageDecoding.read(path: path) }
      #expect(error?.file == path && error?.message.contains("not a PNG, JPEG or WebP file") == true, "\(name)")
    }
  }

  // MARK: Where images are read

  @Test(
    "a scene with a JPEG background and a WebP image renders as with PNGs of the same decoded pixels; a turned JPEG lays out upright"
  )
  func scenesReadJPEGAndWebP() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = ProceduralImages.landscape(width: 120, height: 80)
    let icon = ProceduralImages.noise(width: 20, height: 20, seed: 3, alpha: true)
    let jpeg = try ImageEncoding(quality: 92).encoded(photo, as: .jpeg)
    let webp = try ImageEncoding(quality: 92).encoded(icon, as: .webp)
    _ = try Self.write(jpeg, folder, "photo.jpg")
    _ = try Self.write(webp, folder, "icon.webp")
    // The decoded pixels, written as PNGs: the same scene must render the same.
    let decodedPhoto = try ImageDecoding.decode(jpeg, name: "photo.jpg").image
    #expect(LossyOutputTests.psnr(photo, decodedPhoto) > 30)
    try PNGCodec.write(decodedPhoto, to: folder.appendingPathComponent("photo.png").path)
    try PNGCodec.write(
      try ImageDecoding.decode(webp, name: "icon.webp").image, to: folder.appendingPathComponent("icon.png").path)
    func scene(_ background: String, _ image: String) -> String {
      #"{"version": 1, "size": {"width": 100, "height": 60}, "scale": 2, "background": {"image": "\#(background)"}, "#
        + #""layers": [{"type": "image", "source": "\#(image)", "frame": {"x": 10, "y": 10, "width": 30, "height": 30}},"#
        + #"{"type": "glass", "shape": "capsule", "frame": {"x": 50, "y": 15, "width": 40, "height": 24}}]}"#
    }
    try scene("photo.jpg", "icon.webp").write(
      to: folder.appendingPathComponent("lossy.json"), atomically: true, encoding: .utf8)
    try scene("photo.png", "icon.png").write(
      to: folder.appendingPathComponent("png.json"), atomically: true, encoding: .utf8)
    for name in ["lossy", "png"] {
      let result = try TestProcess.runGlassGPU(
        ["render", "\(name).json", "-o", "\(name).png", "--backend", "cpu"], in: folder)
      #expect(result.status == 0, "\(name): \(result.stderr)")
    }
    let a = try PNGCodec.read(path: folder.appendingPathComponent("lossy.png").path).image
    let b = try PNGCodec.read(path: folder.appendingPathComponent("png.png").path).image
    #expect(a == b, "the render with JPEG and WebP differs from the render with their pixels as PNG")

    // A JPEG stored 48 x 32 and turned (orientation 6, 90° clockwise) is a
    // 32 x 48 image: a view tree sizes its Image by the upright size.
    let turned = Self.withExif(
      jpeg: try ImageEncoding(quality: 95).encoded(Self.quadrants, as: .jpeg),
      Self.tiff(orientation: 6, bigEndian: false))
    _ = try Self.write(turned, folder, "turned.jpg")
    let file = SceneFile(
      scene: Scene(width: 200, height: 200, scale: 1) { Image("turned.jpg") }, directory: folder.path)
    let views = try file.scene.resolvedViews(images: file.loadImages())
    let frame = try #require(views.first { $0.kind == "image" }?.frame)
    #expect(frame.width == 32 && frame.height == 64, "\(frame)")
  }

  @Test("extend reads a WebP as it reads the PNG of the same pixels, and a turned JPEG upright")
  func extendReadsWebPAndJPEG() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let webp = try ImageEncoding(quality: 90).encoded(ProceduralImages.landscape(width: 64, height: 40), as: .webp)
    _ = try Self.write(webp, folder, "photo.webp")
    try PNGCodec.write(
      try ImageDecoding.decode(webp, name: "w").image, to: folder.appendingPathComponent("photo.png").path)
    let turned = Self.withExif(
      jpeg: try ImageEncoding(quality: 95).encoded(Self.quadrants, as: .jpeg),
      Self.tiff(orientation: 8, bigEndian: true))
    _ = try Self.write(turned, folder, "turned.jpg")
    for input in ["photo.webp", "photo.png", "turned.jpg"] {
      let result = try TestProcess.runGlassGPU(
        [
          "extend", input, "-o", "\(input).out.png", "--leading", "16", "--trailing", "8", "--sigma", "4", "--backend",
          "cpu",
        ],
        in: folder)
      #expect(result.status == 0, "\(input): \(result.stderr)")
    }
    let fromWebP = try PNGCodec.read(path: folder.appendingPathComponent("photo.webp.out.png").path).image
    let fromPNG = try PNGCodec.read(path: folder.appendingPathComponent("photo.png.out.png").path).image
    #expect(fromWebP == fromPNG)
    #expect(fromWebP.size == PixelSize(width: 64 + 24, height: 40))
    let upright = try PNGCodec.read(path: folder.appendingPathComponent("turned.jpg.out.png").path).image
    #expect(upright.size == PixelSize(width: 32 + 24, height: 64))
  }

  @Test(
    "an embedded RGB profile that is not sRGB is warned about, naming it; sRGB's, a grey one and a damaged one are not")
  func profilesThatAreNotSRGB() throws {
    let sRGB = LossyDecoder.sRGBProfile
    #expect(ImageDecoding.profileWarning(sRGB) == nil)
    // Display P3's red colorant at D50 instead of sRGB's, and a description to match.
    var p3 = sRGB
    func tag(_ name: String) -> Int? {
      let count = p3[128..<132].reduce(0) { $0 << 8 | Int($1) }
      for i in 0..<count where String(decoding: p3[132 + 12 * i..<136 + 12 * i], as: UTF8.self) == name {
        return p3[136 + 12 * i..<140 + 12 * i].reduce(0) { $0 << 8 | Int($1) }
      }
      return nil
    }
    let red = try #require(tag("rXYZ"))
    for (k, value) in [0.5151, 0.2412, -0.0011].enumerated() {
      let fixed = UInt32(bitPattern: Int32((value * 65536).rounded()))
      p3.replaceSubrange(
        red + 8 + 4 * k..<red + 12 + 4 * k, with: (0..<4).map { UInt8((fixed >> (24 - 8 * $0)) & 255) })
    }
    let desc = try #require(tag("desc"))
    p3.replaceSubrange(desc + 12..<desc + 12 + 10, with: Array("Display P3".utf8))
    p3[desc + 22] = 0
    let warning = try #require(ImageDecoding.profileWarning(p3))
    #expect(
      warning.contains("\"Display P3\"") && warning.contains("not sRGB") && warning.contains("without conversion"))
    var grey = p3
    grey.replaceSubrange(16..<20, with: Array("GRAY".utf8))
    #expect(ImageDecoding.profileWarning(grey) == nil)
    for length in [0, 100, 131, 200, 500] { #expect(ImageDecoding.profileWarning(Array(p3.prefix(length))) == nil) }

    // A JPEG carrying it: the render warns, naming the image, and renders.
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let jpeg = try ImageEncoding(quality: 90).encoded(Self.quadrants, as: .jpeg)
    let start = try #require(jpeg.firstRange(of: sRGB))
    var tagged = jpeg
    tagged.replaceSubrange(start, with: p3)
    _ = try Self.write(tagged, folder, "p3.jpg")
    try #"{"version": 1, "size": {"width": 64, "height": 32}, "background": {"image": "p3.jpg"}}"#
      .write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
    let result = try TestProcess.runGlassGPU(["render", "scene.json", "-o", "out.png", "--backend", "cpu"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains("p3.jpg: the embedded colour profile (\"Display P3\") is not sRGB"), "\(result.stderr)")
  }
}
