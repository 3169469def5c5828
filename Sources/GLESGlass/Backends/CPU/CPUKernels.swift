import Dispatch
import Foundation

/// The primitives on the CPU, written against the same formulas as the GLSL files
/// (named in each comment). Images are rows of `SIMD4<Float>` premultiplied linear
/// pixels; every stored value is rounded to binary16, as an RGBA16F texture would.
enum CPUKernels {
  /// A read-only view of a linear image.
  struct Source {
    let pixels: UnsafePointer<SIMD4<Float>>
    let width: Int
    let height: Int
  }

  /// Where a pass writes and how: premultiplied linear (binary16-rounded) or
  /// sRGB-encoded 8 or 16 bits.
  struct Target: @unchecked Sendable {
    let format: ImageFormat
    let width: Int
    let linear: UnsafeMutablePointer<SIMD4<Float>>?
    let bytes: UnsafeMutablePointer<UInt8>?
    let words: UnsafeMutablePointer<UInt16>?
    /// Composite premultiplied over the target (GL blending ONE, ONE_MINUS_SRC_ALPHA).
    var blend = false
    /// The 8-bit encode's tables, read once here rather than through the global's
    /// accessor at every pixel.
    let encode8 = SRGB.encode8Tables

    /// `store` of `count` pixels to 8-bit sRGB, without blending, from `x` in row
    /// `y`: the same values, with the format and blend decided once for the row
    /// (the last pass of every frame writes the whole canvas this way).
    @inline(__always)
    func storeSRGB8Row(_ pixels: UnsafePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
      let out = bytes.unsafelyUnwrapped + 4 * (y * width + x)
      let tables = encode8
      for i in 0..<count {
        var c = OutputEncoding.straight(pixels[i])
        // floor(a * 255 + 0.5) for a in [0, 1]: the value is positive, so the
        // conversion's truncation is the floor (no call into libm's floorf,
        // which the x86-64 baseline has no instruction for).
        let alpha = UInt8(truncatingIfNeeded: Int32(c.w * 255 + 0.5))
        if alpha == 0 { c = .zero }
        let p = out + 4 * i
        p[0] = tables.encode(c.x)
        p[1] = tables.encode(c.y)
        p[2] = tables.encode(c.z)
        p[3] = alpha
      }
    }

    /// The output stage of `common.glsl` (`emit`), then the blend.
    @inline(__always)
    func store(_ value: SIMD4<Float>, x: Int, y: Int) {
      let index = y * width + x
      switch format {
      case .linearHalf:
        let p = linear.unsafelyUnwrapped + index
        p.pointee = Half.round(blend ? value + p.pointee * (1 - value.w) : value)
      case .srgb8:
        let p = bytes.unsafelyUnwrapped + 4 * index
        var c = OutputEncoding.straight(value)
        if (c.w * 255 + 0.5).rounded(.down) == 0 { c = .zero }
        p[0] = encode8.encode(c.x)
        p[1] = encode8.encode(c.y)
        p[2] = encode8.encode(c.z)
        p[3] = UInt8((c.w * 255 + 0.5).rounded(.down))
      case .srgb16:
        let p = words.unsafelyUnwrapped + 4 * index
        var c = OutputEncoding.straight(value)
        if (c.w * 65535 + 0.5).rounded(.down) == 0 { c = .zero }
        p[0] = SRGB.encode16(c.x)
        p[1] = SRGB.encode16(c.y)
        p[2] = SRGB.encode16(c.z)
        p[3] = UInt16((c.w * 65535 + 0.5).rounded(.down))
      }
    }
  }

  /// Index of input column/row `i` under an addressing: the mirrored canvas maps
  /// to image pixels; an image is mirrored at its own edges.
  static func indexMap(_ addressing: SourceAddressing, axis: Convolve.Axis, inputSize: PixelSize) -> (Int) -> Int {
    switch (addressing, axis) {
    case (.canvas(let canvas), .horizontal): return canvas.imageColumn
    case (.canvas(let canvas), .vertical): return canvas.imageRow
    case (.image, .horizontal): return { reflectIndex($0, count: inputSize.width) }
    case (.image, .vertical): return { reflectIndex($0, count: inputSize.height) }
    }
  }

  /// The cores to split work across (asking the system each time is slow).
  static let cores = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))

  /// Worker threads `parallelRows` uses on this thread: nil for `cores`, set by
  /// `CPUThreads.run` (a renderer made with `cpuThreads`).
  @TaskLocal static var threads: Int?

  /// Runs `body` over `rows`, split across the cores (or `threads`).
  static func parallelRows(_ rows: Range<Int>, cost: Int, _ body: (Range<Int>) -> Void) {
    let workers = threads ?? cores
    let tasks = cost < 32_768 || rows.count < 2 || workers == 1 ? 1 : min(rows.count, workers * 4)
    if tasks == 1 {
      body(rows)
      return
    }
    let chunk = (rows.count + tasks - 1) / tasks
    withoutActuallyEscaping(body) { body in
      // The tasks write disjoint rows; the caller waits for all of them. With a
      // thread count set, `workers` threads take every `workers`-th task each.
      let work = UncheckedSendable(body)
      let runners = threads.map { min($0, tasks) } ?? tasks
      DispatchQueue.concurrentPerform(iterations: runners) { runner in
        for task in stride(from: runner, to: tasks, by: runners) {
          let start = rows.lowerBound + task * chunk
          let end = min(rows.upperBound, start + chunk)
          if start < end { work.value(start..<end) }
        }
      }
    }
  }

  // MARK: mirror_extend.glsl

  /// Copies each canvas pixel from its mirrored image pixel, converting depth only.
  static func mirrorExtend(_ p: MirrorExtend, source: RGBAImage, rect: PixelRect, target: Target) {
    let columns = (rect.x..<rect.maxX).map { p.canvas.imageColumn($0 + p.offset.x) }
    for y in rect.y..<rect.maxY {
      let row = p.canvas.imageRow(y + p.offset.y)
      for (i, x) in (rect.x..<rect.maxX).enumerated() {
        let value = source.pixel16(x: columns[i], y: row)
        let index = 4 * (y * target.width + x)
        switch (target.format, source.depth) {
        case (.srgb16, _):
          for c in 0..<4 { target.words.unsafelyUnwrapped[index + c] = value[c] }
        case (_, .eight):
          for c in 0..<4 { target.bytes.unsafelyUnwrapped[index + c] = UInt8(value[c] / 257) }
        case (_, .sixteen):
          for c in 0..<4 { target.bytes.unsafelyUnwrapped[index + c] = RGBAImage.eightBit(value[c]) }
        }
      }
    }
  }

  // MARK: downsample.glsl

  /// Halves the resolution with [1 3 3 1] / 8 per axis. The input position of
  /// output pixel t is `2t + 1 + offset`, the middle of input pixels 2t + offset
  /// and 2t + 1 + offset; the taps are the pixels from `2t - 1 + offset` to `2t + 2 + offset`.
  static func downsample(_ p: Downsample, source: Source, rect: PixelRect, target: Target) {
    precondition(
      p.map.scale == 2 && p.map.offsetX.rounded() == p.map.offsetX
        && p.map.offsetY.rounded() == p.map.offsetY, "downsample maps whole pixels")
    let size = PixelSize(width: source.width, height: source.height)
    let mapX = indexMap(p.addressing, axis: .horizontal, inputSize: size)
    let mapY = indexMap(p.addressing, axis: .vertical, inputSize: size)
    let offsetX = Int(p.map.offsetX)
    let offsetY = Int(p.map.offsetY)
    // Input columns of each output column, four each.
    var columns = [Int](repeating: 0, count: 4 * rect.width)
    for i in 0..<rect.width {
      for k in 0..<4 { columns[4 * i + k] = mapX(2 * (rect.x + i) - 1 + offsetX + k) }
    }
    let firstRow = 2 * rect.y - 1 + offsetY
    let rowCount = 2 * rect.height + 2
    let rows = (0..<rowCount).map { mapY(firstRow + $0) }
    // Horizontal pass into a band of rows, then the vertical pass.
    var band = [SIMD4<Float>](repeating: .zero, count: rowCount * rect.width)
    let width = rect.width
    band.withUnsafeMutableBufferPointer { bandBuffer in
      let band = UncheckedSendable(bandBuffer.baseAddress.unsafelyUnwrapped)
      columns.withUnsafeBufferPointer { columns in
        parallelRows(0..<rowCount, cost: rowCount * width * 4) { range in
          for r in range {
            let input = source.pixels + rows[r] * source.width
            let out = band.value + r * width
            for i in 0..<width {
              let c = 4 * i
              let a = input[columns[c]] + input[columns[c + 3]]
              let b = input[columns[c + 1]] + input[columns[c + 2]]
              out[i] = (a + 3 * b) * 0.125
            }
          }
        }
      }
      parallelRows(0..<rect.height, cost: rect.height * width * 4) { range in
        for j in range {
          let r0 = band.value + 2 * j * width
          let r1 = r0 + width
          let r2 = r1 + width
          let r3 = r2 + width
          for i in 0..<width {
            let value = ((r0[i] + r3[i]) + 3 * (r1[i] + r2[i])) * 0.125
            target.store(value, x: rect.x + i, y: rect.y + j)
          }
        }
      }
    }
  }

  // MARK: convolve.glsl

  /// `out(p) = w0 f(p) + sum_i w_i (f(p + i axis) + f(p - i axis))`, input pixel
  /// `p = output + offset`.
  static func convolve(_ p: Convolve, source: Source, rect: PixelRect, target: Target) {
    let size = PixelSize(width: source.width, height: source.height)
    let mapX = indexMap(p.addressing, axis: .horizontal, inputSize: size)
    let mapY = indexMap(p.addressing, axis: .vertical, inputSize: size)
    let radius = p.radius
    let weights = p.weights
    let taps = 2 * radius + 1
    switch p.axis {
    case .horizontal:
      // For each output column, its taps' input columns: centre, then +i, -i.
      var columns = [Int](repeating: 0, count: taps * rect.width)
      for i in 0..<rect.width {
        let x = rect.x + i + p.offset.x
        columns[taps * i] = mapX(x)
        for k in 1...max(1, radius) where k <= radius {
          columns[taps * i + 2 * k - 1] = mapX(x + k)
          columns[taps * i + 2 * k] = mapX(x - k)
        }
      }
      columns.withUnsafeBufferPointer { columns in
        weights.withUnsafeBufferPointer { w in
          parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * taps) { range in
            for y in range {
              let input = source.pixels + mapY(y + p.offset.y) * source.width
              for i in 0..<rect.width {
                let c = taps * i
                var sum = w[0] * input[columns[c]]
                for k in stride(from: 1, through: radius, by: 1) {
                  sum += w[k] * (input[columns[c + 2 * k - 1]] + input[columns[c + 2 * k]])
                }
                target.store(sum, x: rect.x + i, y: y)
              }
            }
          }
        }
      }
    case .vertical:
      let columns = (rect.x..<rect.maxX).map { mapX($0 + p.offset.x) }
      columns.withUnsafeBufferPointer { columns in
        weights.withUnsafeBufferPointer { w in
          parallelRows(rect.y..<rect.maxY, cost: rect.pixelCount * taps) { range in
            var sums = [SIMD4<Float>](repeating: .zero, count: rect.width)
            for y in range {
              let yy = y + p.offset.y
              let centre = source.pixels + mapY(yy) * source.width
              for i in 0..<rect.width { sums[i] = w[0] * centre[columns[i]] }
              for k in stride(from: 1, through: radius, by: 1) {
                let down = source.pixels + mapY(yy + k) * source.width
                let up = source.pixels + mapY(yy - k) * source.width
                let weight = w[k]
                for i in 0..<rect.width {
                  let c = columns[i]
                  sums[i] += weight * (down[c] + up[c])
                }
              }
              for i in 0..<rect.width { target.store(sums[i], x: rect.x + i, y: y) }
            }
          }
        }
      }
    }
  }

  // MARK: upsample.glsl

  /// One bilinear tap at `(t + 0.5) * scale + offset`, mirrored at the input's edges.
  static func upsample(_ p: Upsample, source: Source, rect: PixelRect, target: Target) {
    struct Tap {
      var i0: Int
      var i1: Int
      var f: Float
    }
    func taps(_ range: Range<Int>, offset: Double, count: Int) -> [Tap] {
      range.map { t in
        let s = (Double(t) + 0.5) * p.map.scale + offset - 0.5
        let i = Int(s.rounded(.down))
        return Tap(i0: reflectIndex(i, count: count), i1: reflectIndex(i + 1, count: count), f: Float(s - Double(i)))
      }
    }
    let xs = taps(rect.x..<rect.maxX, offset: p.map.offsetX, count: source.width)
    let ys = taps(rect.y..<rect.maxY, offset: p.map.offsetY, count: source.height)
    xs.withUnsafeBufferPointer { xs in
      parallelRows(0..<rect.height, cost: rect.pixelCount * 4) { range in
        for j in range {
          let tap = ys[j]
          let row0 = source.pixels + tap.i0 * source.width
          let row1 = source.pixels + tap.i1 * source.width
          let fy = tap.f
          for i in 0..<rect.width {
            let x = xs[i]
            let top = row0[x.i0] + x.f * (row0[x.i1] - row0[x.i0])
            let bottom = row1[x.i0] + x.f * (row1[x.i1] - row1[x.i0])
            target.store(top + fy * (bottom - top), x: rect.x + i, y: rect.y + j)
          }
        }
      }
    }
  }
}

/// The final output stage shared by the CPU kernels; `common.glsl`
/// `encodeStraightSRGB` does the same before its sRGB encode.
enum OutputEncoding {
  /// Premultiplied linear -> straight linear colour and alpha, clamped to [0, 1].
  @inline(__always)
  static func straight(_ p: SIMD4<Float>) -> SIMD4<Float> {
    let a = min(max(p.w, 0), 1)
    if a == 1 {
      // Opaque: dividing by 1 changes nothing.
      return p.replacing(with: 0, where: p .< 0).replacing(with: 1, where: p .> 1)
    }
    guard a > 0 else { return .zero }
    var c = p / a
    c = c.replacing(with: 0, where: c .< 0).replacing(with: 1, where: c .> 1)
    c.w = a
    return c
  }
}

extension Half {
  /// `round` on each lane, the four at once: the same bits as `round(_: Float)`
  /// lane by lane (HalfTests checks it on every class of value), without its
  /// branches. Normal results round the Float's mantissa to 10 bits; subnormal
  /// ones are multiples of 2^-24, rounded to nearest even by adding and taking
  /// away 1.5 * 2^23 (exact below 2^22), their sign put back (so -0 stays -0).
  @inline(__always)
  static func round(_ v: SIMD4<Float>) -> SIMD4<Float> {
    let bits = unsafeBitCast(v, to: SIMD4<UInt32>.self)
    let sign = bits & 0x8000_0000
    let magnitude = bits & 0x7FFF_FFFF
    let normal = (magnitude &+ 0x0FFF &+ ((magnitude &>> 13) & 1)) & 0xFFFF_E000
    let magic: Float = 12_582_912
    let scaled = ((v * 16_777_216 + magic) - magic) * (1 / 16_777_216)
    let subnormal = unsafeBitCast(scaled, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF
    var result = sign | normal.replacing(with: subnormal, where: magnitude .< 0x3880_0000)
    result.replace(with: sign | 0x7F80_0000, where: magnitude .>= 0x477F_F000)
    result.replace(with: bits, where: magnitude .> 0x7F80_0000)
    return unsafeBitCast(result, to: SIMD4<Float>.self)
  }
}
