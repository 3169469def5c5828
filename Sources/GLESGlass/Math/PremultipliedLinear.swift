/// Source pixels as every blur reads them: sRGB decoded to linear light,
/// premultiplied by alpha, rounded to binary16. Both backends start from exactly
/// these values: the GPU uploads the bits, the CPU widens them to Float.
///
///     rgb' = decode(rgb) * a,  a' = a        (a in [0, 1])
public enum PremultipliedLinear {
  /// Binary16 bits of the linear value of each 8-bit code (alpha 1).
  static let opaque8: [UInt16] = SRGB.decode8.map(Half.bits)
  /// Binary16 bits of each 8-bit alpha.
  static let alpha8: [UInt16] = (0..<256).map { Half.bits(Float($0) / 255) }

  /// Writes the binary16 bits of `rect` of `image`, four per pixel, rows of
  /// `rect.width` pixels, into `out`; large rectangles are split across cores.
  public static func convert(_ image: RGBAImage, rect: PixelRect, into out: UnsafeMutablePointer<UInt16>) {
    precondition(PixelRect(size: image.size).contains(rect), "rect inside the image")
    let target = UncheckedSendable(out)
    CPUKernels.parallelRows(0..<rect.height, cost: rect.pixelCount) { rows in
      let band = PixelRect(x: rect.x, y: rect.y + rows.lowerBound, width: rect.width, height: rows.count)
      convertRows(image, rect: band, into: target.value + 4 * rows.lowerBound * rect.width)
    }
  }

  private static func convertRows(_ image: RGBAImage, rect: PixelRect, into out: UnsafeMutablePointer<UInt16>) {
    let width = image.width
    switch image.samples {
    case .eight(let values):
      values.withUnsafeBufferPointer { src in
        opaque8.withUnsafeBufferPointer { linear in
          alpha8.withUnsafeBufferPointer { alphaBits in
            let decode = SRGB.decode8
            for row in 0..<rect.height {
              var s = 4 * ((rect.y + row) * width + rect.x)
              var d = 4 * row * rect.width
              for _ in 0..<rect.width {
                let a = src[s + 3]
                if a == 255 {
                  out[d] = linear[Int(src[s])]
                  out[d + 1] = linear[Int(src[s + 1])]
                  out[d + 2] = linear[Int(src[s + 2])]
                } else {
                  let alpha = Float(a) / 255
                  out[d] = Half.bits(decode[Int(src[s])] * alpha)
                  out[d + 1] = Half.bits(decode[Int(src[s + 1])] * alpha)
                  out[d + 2] = Half.bits(decode[Int(src[s + 2])] * alpha)
                }
                out[d + 3] = alphaBits[Int(a)]
                s += 4
                d += 4
              }
            }
          }
        }
      }
    case .sixteen(let values):
      values.withUnsafeBufferPointer { src in
        SRGB.decode16.withUnsafeBufferPointer { decode in
          for row in 0..<rect.height {
            var s = 4 * ((rect.y + row) * width + rect.x)
            var d = 4 * row * rect.width
            for _ in 0..<rect.width {
              let alpha = Float(src[s + 3]) / 65535
              out[d] = Half.bits(decode[Int(src[s])] * alpha)
              out[d + 1] = Half.bits(decode[Int(src[s + 1])] * alpha)
              out[d + 2] = Half.bits(decode[Int(src[s + 2])] * alpha)
              out[d + 3] = Half.bits(alpha)
              s += 4
              d += 4
            }
          }
        }
      }
    }
  }
}
