import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The animated PNG writer, read back by a reader written here from the APNG
/// specification (chunk walk, CRC-32 bit by bit, sequence numbers, frame
/// rectangles), with libpng decoding each frame's data.
@Suite("Animated PNG")
struct AnimatedPNGTests {
  struct Chunk {
    var type: String
    var data: [UInt8]
  }

  /// CRC-32 of PNG chunks, bit by bit (the writer uses a table).
  static func crc(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xffff_ffff
    for byte in bytes {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = (c >> 1) ^ (c & 1 == 1 ? 0xedb8_8320 : 0) }
    }
    return ~c
  }

  static func u32(_ d: [UInt8], _ at: Int) -> Int {
    Int(d[at]) << 24 | Int(d[at + 1]) << 16 | Int(d[at + 2]) << 8 | Int(d[at + 3])
  }

  static func be32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
  }

  /// The chunks of a file, each CRC checked.
  static func chunks(_ file: [UInt8]) throws -> [Chunk] {
    #expect(Array(file.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature")
    var chunks: [Chunk] = []
    var at = 8
    while at < file.count {
      let length = u32(file, at)
      let body = Array(file[(at + 4)..<(at + 8 + length)])
      #expect(UInt32(u32(file, at + 8 + length)) == crc(body), "CRC of chunk \(chunks.count)")
      chunks.append(Chunk(type: String(decoding: body.prefix(4), as: UTF8.self), data: Array(body.dropFirst(4))))
      at += 12 + length
    }
    #expect(at == file.count)
    return chunks
  }

  /// A PNG file of one frame's data: the IHDR with the frame's size, its data as IDAT.
  static func standalone(ihdr: [UInt8], width: Int, height: Int, data: [[UInt8]]) -> [UInt8] {
    func chunk(_ type: String, _ d: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + d
      return be32(d.count) + body + be32(Int(crc(body)))
    }
    let header = be32(width) + be32(height) + Array(ihdr.dropFirst(8))
    return [137, 80, 78, 71, 13, 10, 26, 10] + chunk("IHDR", header) + data.flatMap { chunk("IDAT", $0) }
      + chunk("IEND", [])
  }

  /// Plays a file: every frame composited as the specification says (dispose
  /// none, blend source: the rectangle replaces those pixels).
  static func play(_ file: [UInt8]) throws -> (frames: [RGBAImage], plays: Int, delays: [(Int, Int)]) {
    let chunks = try chunks(file)
    #expect(chunks.first?.type == "IHDR" && chunks.last?.type == "IEND")
    let ihdr = try #require(chunks.first).data
    let width = u32(ihdr, 0)
    let height = u32(ihdr, 4)
    let actl = try #require(chunks.first { $0.type == "acTL" }, "an acTL chunk")
    let acTLIndex = try #require(chunks.firstIndex { $0.type == "acTL" })
    let dataIndex = try #require(chunks.firstIndex { $0.type == "IDAT" })
    #expect(acTLIndex < dataIndex, "acTL comes before the image data")
    var canvas = RGBAImage(size: PixelSize(width: width, height: height), depth: .eight)
    var frames: [RGBAImage] = []
    var delays: [(Int, Int)] = []
    var sequence = 0
    var control: [UInt8]?
    var data: [[UInt8]] = []
    func finishFrame() throws {
      guard let fc = control else { return }
      let (w, h, x, y) = (u32(fc, 4), u32(fc, 8), u32(fc, 12), u32(fc, 16))
      #expect(fc[24] == 0 && fc[25] == 0, "dispose none, blend source")
      #expect(x + w <= width && y + h <= height)
      let png = standalone(ihdr: ihdr, width: w, height: h, data: data)
      let part = try PNGCodec.decode(png, name: "frame \(frames.count)").image.converted(to: .eight)
      canvas.copy(PixelRect(x: 0, y: 0, width: w, height: h), from: part, to: PixelPoint(x: x, y: y))
      frames.append(canvas)
      delays.append((Int(fc[20]) << 8 | Int(fc[21]), Int(fc[22]) << 8 | Int(fc[23])))
      data = []
    }
    for chunk in chunks {
      switch chunk.type {
      case "fcTL":
        try finishFrame()
        #expect(u32(chunk.data, 0) == sequence, "fcTL sequence")
        sequence += 1
        control = chunk.data
      case "IDAT":
        #expect(frames.isEmpty && control != nil, "IDAT belongs to frame 0, after its fcTL")
        data.append(chunk.data)
      case "fdAT":
        #expect(u32(chunk.data, 0) == sequence, "fdAT sequence")
        sequence += 1
        data.append(Array(chunk.data.dropFirst(4)))
      default: break
      }
    }
    try finishFrame()
    #expect(frames.count == u32(actl.data, 0), "acTL's frame count")
    return (frames, u32(actl.data, 4), delays)
  }

  @Test("frames read back exactly: changed rectangles only, sequence numbers, delays, frame 0 as the default image")
  func roundTrip() throws {
    let base = ProceduralImages.landscape(width: 40, height: 30)
    var moved = base
    moved.copy(
      PixelRect(x: 0, y: 0, width: 6, height: 5), from: ProceduralImages.checker(width: 6, height: 5),
      to: PixelPoint(x: 20, y: 11))
    let frames = [base, moved, moved, base]
    var animation = try AnimatedPNG(size: base.size, frameCount: frames.count, fps: 30)
    var file: [UInt8] = []
    var pieces: [Int] = []
    for frame in frames {
      let bytes = try animation.append(frame)
      file += bytes
      pieces.append(bytes.count)
    }
    file += animation.end()
    // Each frame gives its own bytes only: frames after the first add about their
    // changed rectangle, not the file so far.
    #expect(pieces[2] < 200 && pieces[3] < pieces[0], "\(pieces)")
    let played = try Self.play(file)
    #expect(played.frames.count == 4 && played.plays == 0)
    for (i, (got, want)) in zip(played.frames, frames).enumerated() {
      let same = got.samples == want.samples
      #expect(same, "frame \(i)")
    }
    #expect(played.delays.allSatisfy { $0 == (1, 30) })
    // The second frame carries only the changed rectangle, the third one pixel.
    let controls = try Self.chunks(file).filter { $0.type == "fcTL" }.map(\.data)
    #expect(
      controls.map { [Self.u32($0, 4), Self.u32($0, 8), Self.u32($0, 12), Self.u32($0, 16)] } == [
        [40, 30, 0, 0], [6, 5, 20, 11], [1, 1, 0, 0], [6, 5, 20, 11],
      ])
    // A viewer without APNG shows frame 0.
    let first = try PNGCodec.decode(file, name: "apng").image.converted(to: .eight).samples == base.samples
    #expect(first, "a plain PNG reader sees frame 0")
    // A rate that is not whole: delays in milliseconds.
    let slow = try AnimatedPNG(size: base.size, frameCount: 1, fps: 24.5)
    #expect(slow.delayNumerator == 41 && slow.delayDenominator == 1000)
    #expect(throws: GlassError.self) { try AnimatedPNG(size: base.size, frameCount: 0, fps: 30) }
    var wrongSize = try AnimatedPNG(size: base.size, frameCount: 1, fps: 30)
    #expect(throws: GlassError.self) {
      _ = try wrongSize.append(RGBAImage(size: PixelSize(width: 2, height: 2), depth: .eight))
    }
  }

  @Test("glass-gpu animate --format apng writes the frames animate writes as PNGs, as one file")
  func commandLine() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = AnimationTests.morph(animation: .linear(duration: 0.1))
    scene.scale = 1
    scene.background = .fill(.color(.teal))
    for (name, image) in AnimationTests.images where name != "photo" {
      try Data(PNGCodec.encode(image)).write(to: folder.appendingPathComponent(name))
    }
    let path = folder.appendingPathComponent("morph.json").path
    try scene.json.write(toFile: path, atomically: true, encoding: .utf8)
    let frames = folder.appendingPathComponent("frames").path
    #expect(try runCLI(["animate", path, "-o", frames, "--fps", "30", "--backend", "cpu", "--quiet"]).status == 0)
    let apng = folder.appendingPathComponent("morph.png").path
    let run = try runCLI(["animate", path, "--format", "apng", "-o", apng, "--fps", "30", "--backend", "cpu"])
    #expect(run.status == 0, "\(run.stderr)")
    let played = try Self.play(Array(try Data(contentsOf: URL(fileURLWithPath: apng))))
    #expect(played.frames.count == 4)
    for (i, frame) in played.frames.enumerated() {
      let png = try PNGCodec.read(path: frames + String(format: "/frame-%04d.png", i)).image
      let same = frame.samples == png.samples
      #expect(same, "frame \(i)")
    }
    // A loop: 0.1 s held at 30 fps is 3 frames; there (4 frames), held, back
    // (3 more), held: 16 frames, ending where it started.
    let loop = folder.appendingPathComponent("loop.png").path
    let looped = try runCLI([
      "animate", path, "--format", "apng", "-o", loop, "--fps", "30", "--backend", "cpu", "--round-trip", "--hold",
      "0.1",
    ])
    #expect(looped.status == 0, "\(looped.stderr)")
    let loopFrames = try Self.play(Array(try Data(contentsOf: URL(fileURLWithPath: loop)))).frames
    #expect(loopFrames.count == 16)
    if loopFrames.count == 16 {
      let ends = [0, 2, 3, 15].map { loopFrames[$0].samples == played.frames[0].samples }
      let far = [6, 7, 8, 9].map { loopFrames[$0].samples == played.frames[3].samples }
      let between =
        loopFrames[11].samples != played.frames[0].samples && loopFrames[11].samples != played.frames[3].samples
      #expect(ends.allSatisfy { $0 } && far.allSatisfy { $0 } && between, "\(ends) \(far) \(between)")
    }
    let missing = try runCLI(["animate", path, "--format", "apng"])
    #expect(missing.status != 0 && missing.stderr.contains("-o FILE.png"), "\(missing.stderr)")
    // A failure leaves no file behind.
    let bad = folder.appendingPathComponent("bad.png").path
    let failed = try runCLI(["animate", path, "--format", "apng", "-o", bad, "--from", "nowhere", "--to", "expanded"])
    #expect(failed.status == 1 && !FileManager.default.fileExists(atPath: bad), "\(failed.stderr)")
  }
}
