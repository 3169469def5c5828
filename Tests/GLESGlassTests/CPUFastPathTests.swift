import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The CPU backend's row fast paths (a solid box's inside, an image under a clip
/// that covers it) write what the per-pixel formula writes, bit for bit: random
/// boxes at fractional positions, inside, across and outside the pass, images at
/// offsets, blended targets and opacities that must take the slow path.
@Suite("CPU backend: fast paths")
struct CPUFastPathTests {
  struct Canvas {
    var pixels: [SIMD4<Float>]
    let width: Int
    let height: Int

    init(width: Int, height: Int, seed: UInt64) {
      var generator = SplitMix(state: seed)
      self.width = width
      self.height = height
      pixels = (0..<(width * height)).map { _ in
        SIMD4((0..<4).map { _ in Half.round(Float(generator.next() % 1000) / 1000) })
      }
    }
  }

  func run(_ canvas: inout Canvas, blend: Bool, _ body: (CPUKernels.Target) -> Void) {
    let width = canvas.width
    canvas.pixels.withUnsafeMutableBufferPointer { buffer in
      var target = CPUKernels.Target(
        format: .linearHalf, width: width, linear: buffer.baseAddress, bytes: nil, words: nil)
      target.blend = blend
      body(target)
    }
  }

  /// A box at a random fractional place, sometimes past the canvas.
  static func box(_ g: inout SplitMix, _ w: Int, _ h: Int) -> ShapeGeometry {
    func unit() -> Float { Float(g.next() % 10_000) / 10_000 }
    let center = SIMD2(unit() * Float(w + 20) - 10, unit() * Float(h + 20) - 10)
    let half = SIMD2(1 + unit() * Float(w) / 2, 1 + unit() * Float(h) / 2)
    let radii: SIMD4<Float> = g.next() % 4 == 0 ? SIMD4(repeating: 3) : .zero
    return ShapeGeometry(roundedBoxCenter: center, halfSize: half, radii: radii)
  }

  @Test("fill: a solid box's inside written a row at a time is the per-pixel formula, bit for bit")
  func fill() {
    var g = SplitMix(state: 11)
    for round in 0..<200 {
      let (w, h) = (40 + Int(g.next() % 60), 30 + Int(g.next() % 40))
      let shape = Self.box(&g, w, h)
      let paint = Paint.solid(SIMD4(0.25, 0.5, Float(g.next() % 100) / 99, 1) * (round % 3 == 0 ? 0.7 : 1))
      let blend = g.next() % 3 == 0
      let rect = PixelRect(x: Int(g.next() % 10), y: Int(g.next() % 10), width: w - 12, height: h - 12)
      var fast = Canvas(width: w, height: h, seed: UInt64(round))
      var expected = fast
      run(&fast, blend: blend) {
        CPUKernels.fill(FillShape(shape: shape, paint: paint), mask: nil, rect: rect, target: $0)
      }
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX {
          let value =
            paint.color(SIMD2(Float(x) + 0.5, Float(y) + 0.5)) * shape.coverage(Float(x) + 0.5, Float(y) + 0.5)
          let old = expected.pixels[y * w + x]
          expected.pixels[y * w + x] = Half.round(blend ? value + old * (1 - value.w) : value)
        }
      }
      let same = zip(fast.pixels, expected.pixels).allSatisfy { a, b in
        (0..<4).allSatisfy { a[$0].bitPattern == b[$0].bitPattern }
      }
      #expect(same, "round \(round): \(shape) blend \(blend) rect \(rect)")
    }
  }

  @Test("drawImage: an image under a clip that covers it, written a row at a time, is the per-pixel formula")
  func drawImage() {
    var g = SplitMix(state: 12)
    for round in 0..<200 {
      let (w, h) = (40 + Int(g.next() % 60), 30 + Int(g.next() % 40))
      let image = Canvas(width: 20 + Int(g.next() % 50), height: 10 + Int(g.next() % 40), seed: UInt64(1000 + round))
      let origin = PixelPoint(x: Int(g.next() % UInt64(w)) - 10, y: Int(g.next() % UInt64(h)) - 10)
      let clip = Self.box(&g, w, h)
      let opacity: Float = g.next() % 4 == 0 ? 0.5 : 1
      let blend = g.next() % 3 == 0
      let rect = PixelRect(x: Int(g.next() % 8), y: Int(g.next() % 8), width: w - 10, height: h - 10)
      var fast = Canvas(width: w, height: h, seed: UInt64(round))
      var expected = fast
      let p = DrawImage(origin: origin, clip: clip, opacity: opacity)
      image.pixels.withUnsafeBufferPointer { pixels in
        let source = CPUKernels.Source(pixels: pixels.baseAddress!, width: image.width, height: image.height)
        run(&fast, blend: blend) { CPUKernels.drawImage(p, source: source, rect: rect, target: $0) }
      }
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX {
          let (ix, iy) = (x - origin.x, y - origin.y)
          let inside = ix >= 0 && iy >= 0 && ix < image.width && iy < image.height
          let c = inside ? image.pixels[iy * image.width + ix] : .zero
          let value = c * (clip.coverage(Float(x) + 0.5, Float(y) + 0.5) * opacity)
          let old = expected.pixels[y * w + x]
          expected.pixels[y * w + x] = Half.round(blend ? value + old * (1 - value.w) : value)
        }
      }
      let same = zip(fast.pixels, expected.pixels).allSatisfy { a, b in
        (0..<4).allSatisfy { a[$0].bitPattern == b[$0].bitPattern }
      }
      #expect(same, "round \(round): clip \(clip) origin \(origin) opacity \(opacity) blend \(blend)")
    }
  }
}
