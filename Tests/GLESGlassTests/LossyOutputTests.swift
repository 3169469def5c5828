import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// JPEG and WebP output: each decodes (libjpeg-turbo, libwebp, and Pillow, which
/// shares no code with glass-gpu's side) within a stated PSNR of the lossless PNG
/// of the same render at quality 90, carries the sRGB profile, and bad
/// combinations are clear errors that leave no file.
@Suite("JPEG and WebP output")
struct LossyOutputTests {
  /// The least PSNR, in dB over R, G and B, of quality 90 against the PNG, for
  /// both formats: the Landmarks frame measures about 41 (JPEG, 4:2:0) and 42 (WebP).
  static let minimumPSNR = 38.0

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Landmarks at scale 1, on the CPU backend.
  static func landmarks() throws -> RGBAImage {
    let file = try SceneFile(path: root.appendingPathComponent("Assets/scenes/landmarks.json").path)
    var scene = file.scene
    scene.scale = 1
    var timings = RenderTimings()
    return try Renderer(backend: .cpu).render(scene, images: file.loadImages(), timings: &timings)
  }

  /// PSNR of `b` against `a` over R, G and B, from the definition.
  static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    guard case .eight(let x) = a.samples, case .eight(let y) = b.samples, x.count == y.count else { return 0 }
    var squared = 0.0
    for i in x.indices where i % 4 != 3 {
      let d = Double(x[i]) - Double(y[i])
      squared += d * d
    }
    let mean = squared / Double(x.count / 4 * 3)
    return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
  }

  @Test("quality 90 decodes (libjpeg-turbo, libwebp) within the stated PSNR of the PNG, opaque, sRGB-tagged")
  func decodesClose() throws {
    let image = try Self.landmarks()
    for format in [ImageEncoding.Format.jpeg, .webp] {
      let file = try ImageEncoding(quality: 90).encoded(image, as: format)
      let decoded = try LossyDecoder.decode(file, format: format)
      #expect(decoded.size == image.size)
      let psnr = Self.psnr(image, decoded)
      #expect(psnr >= Self.minimumPSNR, "\(format): \(psnr) dB")
      #expect(psnr < 60, "\(format): \(psnr) dB, lossless? the quality is not applied")
      #expect(LossyDecoder.embeddedProfile(file) == LossyDecoder.sRGBProfile, "\(format)")
      // Quality changes the file: 40 is smaller, and further from the PNG.
      let low = try ImageEncoding(quality: 40).encoded(image, as: format)
      #expect(low.count < file.count, "\(format)")
      #expect(try Self.psnr(image, LossyDecoder.decode(low, format: format)) < psnr, "\(format)")
    }
    // Magic numbers: what the files are.
    #expect(try Array(ImageEncoding().encoded(image, as: .jpeg).prefix(3)) == [0xFF, 0xD8, 0xFF])
    let webp = try ImageEncoding().encoded(image, as: .webp)
    #expect(String(decoding: webp[0..<4], as: UTF8.self) == "RIFF")
    #expect(String(decoding: webp[8..<16], as: UTF8.self) == "WEBPVP8X")
  }

  @Test("the embedded profile is a well-formed ICC v2 sRGB profile: sRGB's colorants at D50 and its curve")
  func profile() throws {
    let p = LossyDecoder.sRGBProfile
    func u32(_ at: Int) -> Int { p[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    func s15f16(_ at: Int) -> Double { Double(Int32(bitPattern: UInt32(u32(at)))) / 65536 }
    func text(_ at: Int) -> String { String(decoding: p[at..<at + 4], as: UTF8.self) }
    #expect(u32(0) == p.count)
    #expect(text(12) == "mntr" && text(16) == "RGB " && text(20) == "XYZ " && text(36) == "acsp")
    #expect(p[8] == 2)
    var tags: [String: (Int, Int)] = [:]
    for i in 0..<u32(128) {
      let entry = 132 + 12 * i
      tags[text(entry)] = (u32(entry + 4), u32(entry + 8))
      #expect(u32(entry + 4) + u32(entry + 8) <= p.count, "\(text(entry)) ends inside the profile")
    }
    #expect(Set(tags.keys) == ["desc", "cprt", "wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"])
    // sRGB's primaries and D65 white, adapted to D50 (Bradford): the colorants
    // sum to the D50 white, and each is its primary's XYZ.
    let expected: [String: [Double]] = [
      "wtpt": [0.9642, 1, 0.8249], "rXYZ": [0.4361, 0.2225, 0.0139], "gXYZ": [0.3851, 0.7169, 0.0971],
      "bXYZ": [0.1431, 0.0606, 0.7142],
    ]
    for (tag, values) in expected {
      let (offset, _) = try #require(tags[tag])
      #expect(text(offset) == "XYZ ")
      for k in 0..<3 { #expect(abs(s15f16(offset + 8 + 4 * k) - values[k]) < 2e-4, "\(tag)[\(k)]") }
    }
    // The curve: sRGB's transfer function, from its definition.
    let (curve, _) = try #require(tags["rTRC"])
    #expect(text(curve) == "curv" && tags["gTRC"]! == tags["rTRC"]! && tags["bTRC"]! == tags["rTRC"]!)
    let points = u32(curve + 8)
    for i in stride(from: 0, to: points, by: 73) {
      let v = Double(i) / Double(points - 1)
      let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
      let stored = Double(Int(p[curve + 12 + 2 * i]) << 8 | Int(p[curve + 13 + 2 * i])) / 65535
      #expect(abs(stored - linear) < 1e-4, "curve at \(v)")
    }
  }

  @Test(
    "bad combinations are clear errors: 16-bit JPEG and WebP, quality 0 and 101, a transparent JPEG, a format the extension contradicts"
  )
  func badCombinations() throws {
    let frame = try Self.landmarks()
    let sixteen = frame.converted(to: .sixteen)
    for format in [ImageEncoding.Format.jpeg, .webp] {
      #expect(throws: GlassError.self) { try ImageEncoding().encoded(sixteen, as: format) }
      for quality in [0, 101] {
        let error = #expect(throws: GlassError.self) {
          try ImageEncoding(quality: quality).encoded(frame, as: format)
        }
        #expect(error?.code == .invalidParameter && error?.message.contains("give 1 (smallest) to 100") == true)
      }
    }
    let clear = ProceduralImages.noise(width: 8, height: 8, alpha: true)
    let transparent = #expect(throws: GlassError.self) { try ImageEncoding().encoded(clear, as: .jpeg) }
    #expect(transparent?.message.contains("transparent pixels, which JPEG cannot hold") == true)
    #expect(try LossyDecoder.decode(ImageEncoding().encoded(clear, as: .webp), format: .webp).size == clear.size)
    #expect(throws: GlassError.self) { try ImageEncoding(format: .jpeg).format(forPath: "a.png") }
    #expect(try ImageEncoding(format: .webp).format(forPath: "/dev/stdout") == .webp)
    #expect(try ImageEncoding().format(forPath: "A.JPEG") == .jpeg)

    // The CLI: exit 64 with the message, no file.
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = Self.root.appendingPathComponent("Assets/scenes/badges.json").path
    let cases: [([String], String)] = [
      (["-o", "x.jpg", "--depth", "16"], "JPEG output (x.jpg) holds 8 bits per channel, not 16"),
      (["-o", "x.webp", "--quality", "0"], "--quality is 0; give 1 (smallest) to 100 (best)"),
      (["-o", "x.jpg", "--quality", "101"], "--quality is 101; give 1 (smallest) to 100 (best)"),
      (["-o", "x.png", "--format", "jpeg"], "is named as PNG but the format asked for is JPEG"),
    ]
    for (arguments, message) in cases {
      let result = try TestProcess.runGlassGPU(["render", scene, "--backend", "cpu"] + arguments, in: folder)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("render writes each format by extension; Pillow decodes them within the stated PSNR of the PNG, sRGB")
  func pillowDecodes() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = Self.root.appendingPathComponent("Assets/scenes/landmarks.json").path
    for name in ["l.png", "l.jpg", "l.webp"] {
      let result = try TestProcess.runGlassGPU(["render", scene, "--backend", "cpu", "-o", name], in: folder)
      #expect(result.status == 0, "\(name): \(result.stderr)")
    }
    let jpeg = try [UInt8](Data(contentsOf: folder.appendingPathComponent("l.jpg")))
    #expect(jpeg.starts(with: [0xFF, 0xD8]))
    guard let python = Self.pillowPython else {
      let reason = "Pillow is not installed (apt-get install -y python3-pil, or make test)"
      if Browser.isRequired { Issue.record(Comment(rawValue: reason)) } else { print("skipped: \(reason)") }
      return
    }
    let script = Self.root.appendingPathComponent("Tests/codecs/lossy_check.py").path
    let result = try TestProcess.run(
      URL(fileURLWithPath: python), [script, "l.png", "l.jpg", "l.webp"], in: folder, timeout: 120)
    #expect(result.status == 0, "\(result.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stdout)")
    #expect(report["jpeg_format"] as? String == "JPEG" && report["webp_format"] as? String == "WEBP")
    for format in ["jpeg", "webp"] {
      let psnr = report["\(format)_psnr"] as? Double ?? 0
      #expect(psnr >= Self.minimumPSNR && psnr < 60, "\(format): \(psnr) dB by Pillow")
      #expect(report["\(format)_profile"] as? String == "sRGB IEC61966-2.1 (glass-gpu)", "\(format)")
      #expect(report["\(format)_size"] as? [Int] == [1920, 1080], "\(format)")
    }
  }

  @Test("batch writes JPEG and WebP by each output's name or --format; animate writes numbered .jpg and .webp frames")
  func batchAndAnimate() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scenes = Self.root.appendingPathComponent("Assets/scenes").path
    let manifest = [
      #"{"scene": "\#(scenes)/badges.json", "output": "m/badges.webp"}"#,
      #"{"scene": "\#(scenes)/badges.json", "output": "m/badges.jpg", "depth": 16}"#,
      #"{"scene": "\#(scenes)/badges.json", "output": "m/badges.png", "depth": 16}"#,
    ].joined(separator: "\n")
    try manifest.write(to: folder.appendingPathComponent("jobs.jsonl"), atomically: true, encoding: .utf8)
    let batch = try TestProcess.runGlassGPU(
      ["batch", "--manifest", "jobs.jsonl", "-o", "out", "--backend", "cpu", "--quiet"], in: folder)
    #expect(batch.status == 1, "the 16-bit JPEG job fails alone: \(batch.stderr)")
    #expect(
      batch.stderr.contains("JPEG output") && batch.stderr.contains("holds 8 bits per channel"), "\(batch.stderr)")
    let out = folder.appendingPathComponent("out/m")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["badges.png", "badges.webp"])
    let webp = try [UInt8](Data(contentsOf: out.appendingPathComponent("badges.webp")))
    let png = try PNGCodec.read(path: out.appendingPathComponent("badges.png").path).image.converted(to: .eight)
    // Badges is small type on flat colour, the hardest case for 4:2:0 chroma: 30 dB.
    #expect(try Self.psnr(png, LossyDecoder.decode(webp, format: .webp)) >= 30)

    let files = try TestProcess.runGlassGPU(
      ["batch", "\(scenes)/badges.json", "--format", "jpeg", "-o", "f", "--backend", "cpu", "--quiet"], in: folder)
    #expect(files.status == 0, "\(files.stderr)")
    let jpeg = try [UInt8](Data(contentsOf: folder.appendingPathComponent("f/badges.jpg")))
    #expect(try Self.psnr(png, LossyDecoder.decode(jpeg, format: .jpeg)) >= 30)
    // A one-letter output folder (Foundation traps on its parent: FilePaths.folder(of:)).
    #expect(
      try TestProcess.runGlassGPU(["batch", "\(scenes)/badges.json", "-o", "g", "--quiet"], in: folder).status == 0)

    for (format, ext) in [("jpeg", "jpg"), ("webp", "webp")] {
      let animate = try TestProcess.runGlassGPU(
        [
          "animate", "\(scenes)/morph.json", "--format", format, "--quality", "80", "--scale", "1", "--fps", "10",
          "--backend", "cpu", "--quiet", "-o", "frames-\(format)",
        ], in: folder)
      #expect(animate.status == 0, "\(animate.stderr)")
      let frames = try FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("frames-\(format)").path)
      #expect(!frames.isEmpty && frames.allSatisfy { $0.hasSuffix("." + ext) && AnimationRenderer.isFrameName($0) })
      let first = try [UInt8](Data(contentsOf: folder.appendingPathComponent("frames-\(format)/frame-0000.\(ext)")))
      #expect(try LossyDecoder.decode(first, format: format == "jpeg" ? .jpeg : .webp).width > 0)
    }
  }

  /// A Python with Pillow: Debian's (python3-pil), else one on PATH.
  static let pillowPython = Browser.python(importing: "PIL")

  // MARK: The quality asked is the quality written

  /// The JPEG markers of `file` up to its first scan, each as (marker, payload),
  /// and the bytes from that scan's header to the end.
  static func jpegSegments(_ file: [UInt8]) -> (segments: [(UInt8, [UInt8])], scan: [UInt8]) {
    var segments: [(UInt8, [UInt8])] = []
    var at = 2
    while at + 4 <= file.count, file[at] == 0xFF {
      let marker = file[at + 1]
      let length = Int(file[at + 2]) << 8 | Int(file[at + 3])
      if marker == 0xDA { return (segments, Array(file[at...])) }
      segments.append((marker, Array(file[at + 4..<min(file.count, at + 2 + length)])))
      at += 2 + length
    }
    return (segments, [])
  }

  /// The quantisation tables of a JPEG (DQT markers), by table number, in the
  /// file's zigzag order.
  static func quantisationTables(_ file: [UInt8]) -> [Int: [Int]] {
    var tables: [Int: [Int]] = [:]
    for (marker, payload) in jpegSegments(file).segments where marker == 0xDB {
      var at = 0
      while at < payload.count {
        let wide = payload[at] >> 4 == 1
        let id = Int(payload[at] & 15)
        let size = wide ? 128 : 64
        guard at + 1 + size <= payload.count else { break }
        tables[id] = (0..<64).map { k in
          wide ? Int(payload[at + 1 + 2 * k]) << 8 | Int(payload[at + 2 + 2 * k]) : Int(payload[at + 1 + k])
        }
        at += 1 + size
      }
    }
    return tables
  }

  /// The JPEG standard's example tables (ITU-T T.81 Annex K, K.1 luminance and
  /// K.2 chrominance), row by row.
  static let annexKLuminance = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
  ]
  static let annexKChrominance = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  ]

  /// Row-major index of each zigzag position (T.81 figure 5): the anti-diagonals
  /// in turn, odd ones walked down, even ones up.
  static let zigzag: [Int] = (0..<15).flatMap { d -> [Int] in
    let cells = (max(0, d - 7)...min(d, 7)).map { row in row * 8 + (d - row) }
    return d % 2 == 1 ? cells : cells.reversed()
  }

  /// The table libjpeg writes for `quality` (IJG's jpeg_quality_scaling and
  /// jpeg_add_quant_table, baseline): scale 5000/q below 50, else 200 - 2q
  /// percent, each entry (base * scale + 50) / 100 within 1...255; in zigzag order.
  static func ijgTable(_ base: [Int], quality: Int) -> [Int] {
    let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
    return zigzag.map { min(255, max(1, (base[$0] * scale + 50) / 100)) }
  }

  @Test("a JPEG's quantisation tables are the JPEG standard's tables scaled by IJG's formula for the quality asked")
  func jpegQualityTables() throws {
    #expect(Set(Self.zigzag) == Set(0..<64) && Self.zigzag.prefix(6) == [0, 1, 8, 16, 9, 2])
    let image = ProceduralImages.landscape(width: 48, height: 32)
    for quality in [1, 10, 24, 25, 49, 50, 51, 75, 85, ImageEncoding.defaultQuality, 95, 99, 100] {
      let file = try ImageEncoding(quality: quality).encoded(image, as: .jpeg)
      let tables = Self.quantisationTables(file)
      #expect(tables[0] == Self.ijgTable(Self.annexKLuminance, quality: quality), "quality \(quality): luminance")
      #expect(tables[1] == Self.ijgTable(Self.annexKChrominance, quality: quality), "quality \(quality): chrominance")
    }
  }

  @Test(
    "JPEG and WebP at quality q are the bytes libjpeg-turbo and libwebp write at q through Pillow, not those at q ± 5",
    .enabled(if: PythonTools.pillow.isAvailable, PythonTools.pillow.skipReason))
  func qualityAsPillowWritesIt() throws {
    guard let python = PythonTools.pillow.require() else { return }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = ProceduralImages.landscape(width: 97, height: 61)
    guard case .eight(let pixels) = image.samples else { return }
    try Data(pixels).write(to: folder.appendingPathComponent("image.rgba"))
    let qualities = [40, 75, ImageEncoding.defaultQuality]
    let asked = Set(qualities.flatMap { [$0 - 5, $0, $0 + 5] }).sorted().map(String.init)
    _ = try PythonTools.pillowCodecs(python, ["encode", "image.rgba", "97", "61", folder.path] + asked, in: folder)
    func pillow(_ quality: Int, _ ext: String) throws -> [UInt8] {
      [UInt8](try Data(contentsOf: folder.appendingPathComponent("q\(quality).\(ext)")))
    }
    // A JPEG's quantisation tables and entropy-coded data (Pillow writes its own
    // JFIF header and no profile); a WebP's VP8 bitstream chunk.
    func jpegCore(_ file: [UInt8]) -> [[UInt8]] {
      let (segments, scan) = Self.jpegSegments(file)
      return segments.filter { $0.0 == 0xDB || $0.0 == 0xC0 || $0.0 == 0xC4 }.map(\.1) + [scan]
    }
    func vp8(_ file: [UInt8]) -> [UInt8] {
      var at = 12
      while at + 8 <= file.count {
        let size = file[at + 4..<at + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
        if String(decoding: file[at..<at + 4], as: UTF8.self) == "VP8 " {
          return Array(file[at..<min(file.count, at + 8 + size)])
        }
        at += 8 + size + (size & 1)
      }
      return []
    }
    for quality in qualities {
      let jpeg = jpegCore(try ImageEncoding(quality: quality).encoded(image, as: .jpeg))
      let webp = vp8(try ImageEncoding(quality: quality).encoded(image, as: .webp))
      let (pillowJPEG, pillowWebP) = (jpegCore(try pillow(quality, "jpg")), vp8(try pillow(quality, "webp")))
      #expect(jpeg == pillowJPEG, "JPEG at \(quality) is not libjpeg-turbo's at \(quality)")
      #expect(!webp.isEmpty && webp == pillowWebP, "WebP at \(quality) is not libwebp's at \(quality)")
      for other in [quality - 5, quality + 5] {
        let (otherJPEG, otherWebP) = (jpegCore(try pillow(other, "jpg")), vp8(try pillow(other, "webp")))
        #expect(jpeg != otherJPEG, "JPEG at \(quality) equals Pillow's at \(other)")
        #expect(webp != otherWebP, "WebP at \(quality) equals Pillow's at \(other)")
      }
    }
  }
}
