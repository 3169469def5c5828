import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

@Suite("Math: the formulas both backends share")
struct MathTests {
  @Test("reflectIndex follows -i-1 below 0 and 2n-1-i above n-1, period 2n")
  func reflectRule() {
    for n in [1, 2, 3, 7] {
      // Build the mirrored sequence by hand: ... c b a | a b c | c b a | a b c ...
      var expected: [Int: Int] = [:]
      for i in 0..<n { expected[i] = i }
      for i in n..<(4 * n) { expected[i] = expected[2 * n - 1 - i] ?? expected[i - 2 * n] ?? -1 }
      for i in (-4 * n)..<0 { expected[i] = expected[-i - 1] ?? -1 }
      for i in (-4 * n)..<(4 * n) {
        #expect(reflectIndex(i, count: n) == expected[i], "n=\(n) i=\(i)")
      }
    }
    #expect(reflectIndex(-1, count: 5) == 0)
    #expect(reflectIndex(5, count: 5) == 4)
    #expect(reflectIndex(10, count: 5) == 0)
  }

  @Test("the mirrored canvas repeats the image, and mirrors itself outside its edges")
  func mirrorCanvas() {
    // Image of width 3 at x = 5 in a canvas of width 12: inset wider than the image.
    let canvas = MirrorCanvas(
      canvasSize: PixelSize(width: 12, height: 1), imageOrigin: PixelPoint(x: 5, y: 0),
      imageSize: PixelSize(width: 3, height: 1))
    let columns = (0..<12).map(canvas.imageColumn)
    // ... c b a | a b c | c b a ...: canvas 5,6,7 are the image; 4 is a, 3 b, 2 c, 1 c, 0 b.
    #expect(columns == [1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0])
    // Outside the canvas, the canvas mirrors: -1 -> 0, 12 -> 11.
    #expect(canvas.imageColumn(-1) == columns[0])
    #expect(canvas.imageColumn(-3) == columns[2])
    #expect(canvas.imageColumn(12) == columns[11])
    #expect(canvas.imageColumn(14) == columns[9])
  }

  @Test("encode8 rounds exactly like floor(encode(l) * 255 + 0.5) in Double")
  func encode8Exact() {
    var values: [Float] = (0...200_000).map { Float($0) / 200_000 }
    // Values right at and around each rounding threshold.
    for code in 1..<256 {
      let t = Float(SRGB.decode((Double(code) - 0.5) / 255))
      values += [t.nextDown, t, t.nextUp]
    }
    values += [-1, -0.0, 1.5, .infinity]
    for value in values {
      let expected = UInt8((SRGB.encode(Double(value)) * 255 + 0.5).rounded(.down))
      #expect(SRGB.encode8(value) == expected, "value \(value)")
    }
  }

  @Test("every 8-bit code decodes and encodes back to itself")
  func srgbRoundTrip() {
    for code in 0..<256 {
      #expect(SRGB.encode8(SRGB.decode8[code]) == UInt8(code))
      #expect(SRGB.encode16(SRGB.decode16[code * 257]) == UInt16(code * 257))
    }
  }

  @Test("Half.round and Half.bits agree with Swift's Float16 conversion")
  func halfRounding() {
    var values: [Float] = [0, 1, 0.5, 65504, 1e-8, 6.1e-5, 5.96e-8, 3e-8, 0.1, 0.3333333, 2.5e-6]
    var seed: UInt32 = 12345
    for _ in 0..<20000 {
      seed = seed &* 1_664_525 &+ 1_013_904_223
      values.append(Float(bitPattern: (seed >> 2) & 0x477F_FFFF))  // finite, within half range mostly
    }
    for value in values where value.isFinite && abs(value) <= 65504 {
      let reference = Float16(value)
      #expect(Half.round(value) == Float(reference), "value \(value)")
      #expect(Half.bits(value) == reference.bitPattern, "value \(value)")
      #expect(Half.float(bits: reference.bitPattern) == Float(reference))
    }
  }

  @Test("the four-lane Half.round gives the bits of the one-lane one on every class of value, signs and NaN included")
  func halfRoundingFourLanes() {
    var values: [Float] = [
      0, -0, 1, -1, 0.5, 65504, -65504, 65519.99, 65520, 1e-8, -1e-8, 6.1e-5, 6.103515625e-5, 5.96e-8, -5.96e-8, 3e-8,
      2.98e-8, -2.98e-8, 1e-30, -1e-30, .infinity, -.infinity, .nan, -.nan, .greatestFiniteMagnitude, 1e20, -1e20,
      .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
    ]
    var seed: UInt32 = 99
    for _ in 0..<40000 {
      seed = seed &* 1_664_525 &+ 1_013_904_223
      values.append(Float(bitPattern: seed))  // every class: sign, exponent and mantissa random
    }
    while values.count % 4 != 0 { values.append(0) }
    for start in stride(from: 0, to: values.count, by: 4) {
      let lanes = SIMD4(values[start], values[start + 1], values[start + 2], values[start + 3])
      let four = Half.round(lanes)
      for k in 0..<4 {
        let one = Half.round(lanes[k])
        let same =
          one.isNaN ? four[k].isNaN && four[k].bitPattern == lanes[k].bitPattern : four[k].bitPattern == one.bitPattern
        #expect(same, "\(lanes[k]) (\(String(lanes[k].bitPattern, radix: 16))): \(four[k]) against \(one)")
      }
    }
  }

  @Test("reflectIndex and MirrorCanvas follow the definition, written apart from them")
  func mirrorAgainstDefinition() {
    for n in [1, 2, 3, 5, 8] {
      for i in -50...50 { #expect(reflectIndex(i, count: n) == Definition.mirror(i, count: n), "n=\(n) i=\(i)") }
    }
    let canvas = MirrorCanvas(
      canvasSize: PixelSize(width: 31, height: 9), imageOrigin: PixelPoint(x: 12, y: 2),
      imageSize: PixelSize(width: 5, height: 4))
    for x in -70...70 {
      #expect(canvas.imageColumn(x) == Definition.imageIndex(canvasIndex: x, canvas: 31, origin: 12, count: 5))
    }
    for y in -30...30 {
      #expect(canvas.imageRow(y) == Definition.imageIndex(canvasIndex: y, canvas: 9, origin: 2, count: 4))
    }
  }

  @Test("Gaussian weights are the definition's: exp(-i^2 / (2 sigma^2)), normalised, to ceil(4 sigma)")
  func gaussianAgainstDefinition() {
    for sigma in [0.3, 0.5, 1, 1.7, 2, 3.99, 7.1, 24] {
      let radius = GaussianKernel.radius(sigma: sigma)
      let definition = Definition.gaussian(sigma: sigma)
      #expect(radius == definition.radius, "sigma \(sigma)")
      let weights = GaussianKernel.halfWeights(sigma: sigma, radius: radius)
      for i in 0...radius {
        let expected = definition.weights[definition.radius + i]
        #expect(abs(weights[i] - expected) <= 1e-12 * expected, "sigma \(sigma) tap \(i)")
      }
      // The variance of the taps is sigma^2, to within what sampling and the
      // truncation at 4 sigma change (under 1 % from sigma 1 on).
      let variance = (0...radius).reduce(0.0) { (sum: Double, i: Int) -> Double in
        sum + 2 * Double(i * i) * weights[i]
      }
      if sigma >= 1 { #expect(abs(variance / (sigma * sigma) - 1) < 0.01, "sigma \(sigma): variance \(variance)") }
    }
  }

  @Test("the sRGB curves and tables are the IEC 61966-2-1 formula, written apart from them")
  func srgbAgainstDefinition() {
    for i in 0...4096 {
      let v = Double(i) / 4096
      #expect(abs(SRGB.decode(v) - Definition.srgbToLinear(v)) < 1e-15, "decode \(v)")
      #expect(abs(SRGB.encode(v) - Definition.linearToSRGB(v)) < 1e-15, "encode \(v)")
      #expect(Int(SRGB.encode16(Float(v))) == Definition.code(Definition.linearToSRGB(Double(Float(v))), bits: 16))
    }
    for code in 0..<256 {
      #expect(Double(SRGB.decode8[code]) == Double(Float(Definition.srgbToLinear(Double(code) / 255))), "code \(code)")
      // The middle of each code's interval encodes back to it.
      let middle = Float(Definition.srgbToLinear(Double(code) / 255))
      #expect(Int(SRGB.encode8(middle)) == code, "code \(code)")
    }
    for code in stride(from: 0, to: 65536, by: 7) {
      #expect(
        Double(SRGB.decode16[code]) == Double(Float(Definition.srgbToLinear(Double(code) / 65535))), "code \(code)")
    }
  }

  @Test("Gaussian weights sum to one, and the radius is ceil(4 sigma)")
  func gaussian() {
    for sigma in [0.3, 0.5, 2, 3.99, 7.1] {
      let radius = GaussianKernel.radius(sigma: sigma)
      #expect(radius == Int((4 * sigma).rounded(.up)))
      let w = GaussianKernel.halfWeights(sigma: sigma, radius: radius)
      #expect(abs(w[0] + 2 * w.dropFirst().reduce(0, +) - 1) < 1e-12)
      #expect(zip(w, w.dropFirst()).allSatisfy { $0 > $1 })
    }
  }

  @Test("every allowed blur plan keeps the coarse sigma in range and the total variance exact")
  func blurPlan() {
    let low = BlurPlan.minimumCoarseSigma
    let high = BlurPlan.maximumCoarseSigma
    for sigma in [0.5, 2, 2.99, 3, 3.01, 3.99, 4, 5.99, 6, 7.99, 8, 24, 64, 150, 2000] {
      let allowed = BlurPlan.allowedLevels(sigmaPixels: sigma)
      #expect(!allowed.isEmpty && allowed.count <= 2, "sigma \(sigma): \(allowed)")
      #expect(allowed.contains(0) == (sigma < high), "sigma \(sigma): direct only below \(high)")
      #expect(BlurPlan(sigmaPixels: sigma).levels == allowed.last)
      for levels in allowed {
        let plan = BlurPlan(sigmaPixels: sigma, levels: levels)
        if levels == 0 {
          #expect(abs(plan.coarseSigma - sigma) < 1e-12)
        } else {
          let ratio = sigma / Double(plan.scale)
          #expect(ratio >= low && ratio < high, "sigma \(sigma): sigma / 2^k = \(ratio)")
          let scale2 = Double(plan.scale * plan.scale)
          let total = plan.coarseSigma * plan.coarseSigma * scale2 + 0.5 * (scale2 - 1)
          #expect(abs(total - sigma * sigma) < 1e-9 * sigma * sigma)
        }
        #expect(plan.radius <= BlurPlan.maximumRadius)
        let sum = Double(plan.weights[0]) + 2 * plan.weights.dropFirst().reduce(0) { $0 + Double($1) }
        #expect(abs(sum - 1) < 1e-6)
      }
    }
    #expect(BlurPlan(sigmaPixels: 0).isIdentity)
  }
}
