import Foundation

/// What a comparison of a render with its reference leaves out, beside the
/// limits it checks: masked regions, and (in the anti-aliasing mode) pixels
/// whose difference an edge that moved by less than a pixel explains. The same
/// options in `glass-gpu goldens` (`--anti-aliasing`, `--mask`, `--mask-rect`)
/// and the snapshot strategy (`antiAliasing:`, `masks:`).
public struct ComparisonOptions: Sendable, Equatable {
  /// The anti-aliasing mode: a pixel that differs does not count when a shift
  /// of an edge by less than a pixel explains it
  /// (`ImageComparison.subPixelShiftExplains`): its value in each image lies
  /// within the range of the other image's 3 x 3 neighbourhood (per channel,
  /// widened by 1/255), or it sits on an edge in both and differs by at most
  /// half the edge's contrast. A quarter-pixel move of glass passes; a move of
  /// two pixels, or a change of colour, does not. The same rule for every
  /// backend: it reads only the two images.
  public var antiAliasing = false
  /// Regions whose pixels are not compared.
  public var masks: [ComparisonMask] = []

  /// Compares everything, exactly as the limits say.
  public init(antiAliasing: Bool = false, masks: [ComparisonMask] = []) {
    self.antiAliasing = antiAliasing
    self.masks = masks
  }

  /// True when nothing is left out.
  public var isPlain: Bool { !antiAliasing && masks.isEmpty }
}

/// A region a comparison leaves out (Playwright's `mask`).
public enum ComparisonMask: Sendable, Hashable, CustomStringConvertible {
  /// A rectangle in points.
  case rect(PointRect)
  /// A layer or view by its JSON path in the scene (`layers[3]`,
  /// `body.children[1].children[0]`): its frame as laid out, grown by 1 pt for
  /// its anti-aliased edge.
  case path(String)

  /// How the command line writes it.
  public var description: String {
    switch self {
    case .rect(let r):
      "rect \([r.x, r.y, r.width, r.height].map(ParameterSpec.format).joined(separator: ","))"
    case .path(let p): p
    }
  }

  /// Reads `x,y,width,height` in points; throws naming the text and the form.
  public static func rect(parsing text: String) throws -> ComparisonMask {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3],
      [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0
    else {
      throw GlassError(
        .invalidParameter,
        "the mask rectangle \"\(text)\" is not x,y,width,height in points with a positive width and height, "
          + "such as 10,20,100,44")
    }
    return .rect(PointRect(x: x, y: y, width: w, height: h))
  }
}

extension ComparisonOptions {
  /// The masked pixels of `scene` (laid out, with `images`) at its scale, as
  /// rectangles on its canvas; throws naming a path that names no layer or view.
  public func maskedPixels(in scene: Scene, images: SceneImages) throws -> [PixelRect] {
    guard !masks.isEmpty else { return [] }
    let scale = Double(scene.scale)
    var frames: [PointRect] = []
    var laid: Scene?
    var views: [ResolvedView]?
    for mask in masks {
      switch mask {
      case .rect(let r): frames.append(r)
      case .path(let path):
        if laid == nil { laid = try scene.laidOut(images: images) }
        if let index = Self.layerIndex(path), index < scene.layers.count, let layer = laid?.layers[index] {
          frames.append(layer.maskFrame.insetBy(-1))
          continue
        }
        if views == nil { views = try scene.resolvedViews(images: images) }
        guard let view = views?.first(where: { $0.path == path }) else {
          let count = scene.layers.count
          throw GlassError(
            .invalidParameter,
            "the mask \(path) names no layer or view of the scene; name a layer (layers[0] to layers[\(max(count - 1, 0))]"
              + (count == 0 ? ", none here" : "") + ") or a view by its JSON path (body.children[0], as "
              + "glass-gpu layout prints them)")
        }
        frames.append(view.frame.insetBy(-1))
      }
    }
    return frames.map { f in
      let x0 = Int((f.x * scale).rounded(.down))
      let y0 = Int((f.y * scale).rounded(.down))
      let x1 = Int((f.maxX * scale).rounded(.up))
      let y1 = Int((f.maxY * scale).rounded(.up))
      return PixelRect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
    }
  }

  /// The index of `layers[N]`, or nil for any other path.
  static func layerIndex(_ path: String) -> Int? {
    guard path.hasPrefix("layers["), path.hasSuffix("]") else { return nil }
    return Int(path.dropFirst("layers[".count).dropLast())
  }
}

extension ImageComparison {
  /// Compares `a` (the render) with `b` (the reference) leaving out the pixels
  /// in `masked` and, with `antiAliasing`, the pixels a sub-pixel shift
  /// explains (`ComparisonOptions.antiAliasing`); `ignored` counts them.
  public init(
    _ a: RGBAImage, _ b: RGBAImage, masked: [PixelRect], antiAliasing: Bool, ignored: inout Int
  ) throws {
    guard a.size == b.size else {
      throw GlassError(
        .invalidParameter, "the images differ in size: \(a.size) and \(b.size); compare images of one size")
    }
    var left = 0
    try self.init(
      a, b,
      including: { x, y in
        if masked.contains(where: { x >= $0.x && y >= $0.y && x < $0.maxX && y < $0.maxY }) {
          left += 1
          return false
        }
        if antiAliasing && a.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) && Self.subPixelShiftExplains(a, b, x, y) {
          left += 1
          return false
        }
        return true
      })
    ignored = left
  }

  /// True when the difference of `a` and `b` at (x, y) is one a shift of less
  /// than a pixel explains (`ComparisonOptions.antiAliasing`): each image's
  /// pixel lies within the range of the other's 3 x 3 neighbourhood, or the
  /// pixel sits on an edge in both images and differs, channel by channel, by at
  /// most half the edge's contrast (the smaller of the two neighbourhoods'
  /// ranges) plus 1/255. An edge of contrast C moved by s pixels changes the
  /// pixels on it by at most s C; glass's lens near its rim turns a sub-pixel
  /// move into larger moves of what it shows, which the first test misses and
  /// the second allows.
  static func subPixelShiftExplains(_ a: RGBAImage, _ b: RGBAImage, _ x: Int, _ y: Int) -> Bool {
    if shiftExplains(a, b, x, y) && shiftExplains(b, a, x, y) { return true }
    let ra = neighbourhood(a, x, y)
    let rb = neighbourhood(b, x, y)
    let contrast = pointwiseMin(ra.high &- ra.low, rb.high &- rb.low)
    let p = SIMD4<Int32>(truncatingIfNeeded: a.pixel16(x: x, y: y))
    let q = SIMD4<Int32>(truncatingIfNeeded: b.pixel16(x: x, y: y))
    let d = pointwiseMax(p &- q, q &- p)
    return all(d &* 2 .<= contrast &+ 514)
  }

  /// The per-channel range of `image`'s 3 x 3 neighbourhood of (x, y), on the 16-bit scale.
  static func neighbourhood(_ image: RGBAImage, _ x: Int, _ y: Int) -> (low: SIMD4<Int32>, high: SIMD4<Int32>) {
    var low = SIMD4<Int32>(repeating: .max)
    var high = SIMD4<Int32>(repeating: .min)
    for v in max(y - 1, 0)...min(y + 1, image.height - 1) {
      for u in max(x - 1, 0)...min(x + 1, image.width - 1) {
        let q = SIMD4<Int32>(truncatingIfNeeded: image.pixel16(x: u, y: v))
        low = pointwiseMin(low, q)
        high = pointwiseMax(high, q)
      }
    }
    return (low, high)
  }

  /// True when `a`'s pixel at (x, y) lies, channel by channel, within the range
  /// of `b`'s 3 x 3 neighbourhood there widened by 1/255.
  static func shiftExplains(_ a: RGBAImage, _ b: RGBAImage, _ x: Int, _ y: Int) -> Bool {
    let p = SIMD4<Int32>(truncatingIfNeeded: a.pixel16(x: x, y: y))
    let (low, high) = neighbourhood(b, x, y)
    let step = SIMD4<Int32>(repeating: 257)
    return all(p .>= low &- step) && all(p .<= high &+ step)
  }

  /// `a` with every pixel that a sub-pixel shift explains (see
  /// `ComparisonOptions.antiAliasing`) replaced by `b`'s: what a comparison in
  /// the anti-aliasing mode compares with `b`. Images of one size.
  public static func explainingShifts(_ a: RGBAImage, against b: RGBAImage) -> RGBAImage {
    precondition(a.size == b.size, "images of one size")
    var out = a
    let w = a.width
    for y in 0..<a.height {
      for x in 0..<w where a.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) {
        guard subPixelShiftExplains(a, b, x, y) else { continue }
        let i = 4 * (y * w + x)
        switch (out.samples, b.samples) {
        case (.eight(var values), .eight(let other)):
          out.samples = .eight([])
          for c in 0..<4 { values[i + c] = other[i + c] }
          out.samples = .eight(values)
        case (.sixteen(var values), _):
          out.samples = .sixteen([])
          let q = b.pixel16(x: x, y: y)
          for c in 0..<4 { values[i + c] = q[c] }
          out.samples = .sixteen(values)
        case (.eight(var values), .sixteen):
          out.samples = .eight([])
          let q = b.pixel16(x: x, y: y)
          for c in 0..<4 { values[i + c] = UInt8((UInt32(q[c]) * 255 + 32767) / 65535) }
          out.samples = .eight(values)
        }
      }
    }
    return out
  }

  /// A copy of `image` with the pixels of `masked` painted magenta (opaque
  /// #FF00FF, as Playwright's masks are drawn), so that what is masked shows in
  /// a snapshot and never changes it.
  public static func paintingMasks(_ masked: [PixelRect], over image: RGBAImage) -> RGBAImage {
    guard !masked.isEmpty else { return image }
    func paint<T: SIMDScalar>(_ values: inout [T], _ magenta: SIMD4<T>) {
      let whole = PixelRect(size: image.size)
      for rect in masked {
        let r = rect.intersection(whole)
        guard !r.isEmpty else { continue }
        for y in r.y..<r.maxY {
          for x in r.x..<r.maxX {
            let i = 4 * (y * image.width + x)
            for c in 0..<4 { values[i + c] = magenta[c] }
          }
        }
      }
    }
    var out = image
    switch image.samples {
    case .eight(var values):
      out.samples = .eight([])
      paint(&values, SIMD4<UInt8>(255, 0, 255, 255))
      out.samples = .eight(values)
    case .sixteen(var values):
      out.samples = .sixteen([])
      paint(&values, SIMD4<UInt16>(65535, 0, 65535, 65535))
      out.samples = .sixteen(values)
    }
    return out
  }

}

extension Layer {
  /// The frame a mask of the layer covers: its own, a container's members' union.
  var maskFrame: PointRect {
    switch self {
    case .image(let l): return l.frame
    case .shape(let l): return l.frame
    case .material(let l): return l.frame
    case .glass(let l): return l.frame
    case .text(let l): return l.frame
    case .container(let c):
      guard let first = c.glass.first?.frame else { return PointRect(x: 0, y: 0, width: 0, height: 0) }
      var x0 = first.x
      var y0 = first.y
      var x1 = first.maxX
      var y1 = first.maxY
      for f in c.glass.map(\.frame) {
        x0 = min(x0, f.x)
        y0 = min(y0, f.y)
        x1 = max(x1, f.maxX)
        y1 = max(y1, f.maxY)
      }
      return PointRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
  }
}
