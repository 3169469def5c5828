import Foundation

/// What a comparison of a render with its reference leaves out, beside the
/// limits it checks: masked regions, and (in the anti-aliasing mode) differing
/// pixels that pixelmatch's detector calls anti-aliasing. The same
/// options in `glass-gpu goldens` (`--anti-aliasing`, `--mask`, `--mask-rect`)
/// and the snapshot strategy (`antiAliasing:`, `masks:`).
public struct ComparisonOptions: Sendable, Equatable {
  /// The anti-aliasing mode: a pixel that differs does not count when
  /// pixelmatch's anti-aliased pixel detector (`AntiAliasedPixels`, after
  /// Vysniauskas 2009) calls it anti-aliasing in either image: a blend pixel
  /// between two areas that are flat in both images. An edge between flat areas
  /// (a shape on a plain colour, a glyph's edge on a plain colour) moved by part
  /// of a pixel passes; a change inside a flat area (a colour, a line, a dot, a
  /// stroke's core) does not, nor does any change where neither side is flat (a
  /// photo, a blur, glass's lens and rim). The other limits apply to the pixels
  /// that count. The same rule for every backend: it reads only the two images.
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

  /// Reads `x,y,width,height` in points (finite numbers, a positive width and
  /// height); throws naming the text and the form.
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

extension ComparisonMask {
  /// Reads one mask as a mask file writes it: `x,y,width,height` in points (a
  /// line that starts with a digit, a sign or a point), else a layer's or view's
  /// JSON path (`layers[3]`, `body.children[1]`).
  public static func parsing(_ text: String) throws -> ComparisonMask {
    guard let first = text.first else {
      throw GlassError(
        .invalidParameter, "the mask is empty; write x,y,width,height in points, or a layer's or view's JSON path")
    }
    return first.isNumber || "+-.".contains(first) ? try rect(parsing: text) : .path(text)
  }

  /// The masks of the mask file at `path`, one a line (`parsing(_:)`); blank
  /// lines and `#` comments are skipped (`ListFile`). Throws naming the file and
  /// the line at fault.
  public static func list(contentsOf path: String) throws -> [ComparisonMask] {
    try ListFile.lines(of: path, what: "the mask file").map { line in
      do {
        return try parsing(line.text)
      } catch let error as GlassError {
        throw error.located(file: path, line: line.line)
      }
    }
  }
}

extension ComparisonOptions {
  /// The masked pixels of `scene` (laid out, with `images`) at its scale, as
  /// rectangles on its canvas (each clipped to it); throws naming a path that
  /// names no layer or view, or a rectangle that lies wholly outside the canvas.
  public func maskedPixels(in scene: Scene, images: SceneImages) throws -> [PixelRect] {
    guard !masks.isEmpty else { return [] }
    let canvas = PixelRect(size: scene.pixelSize)
    var rects: [PixelRect] = []
    var laid: Scene?
    var views: [ResolvedView]?
    for mask in masks {
      switch mask {
      case .rect(let r):
        let pixels = Self.pixels(covering: r, scale: Double(scene.scale), canvas: canvas)
        guard !pixels.isEmpty else {
          throw GlassError(
            .invalidParameter,
            "the mask \(mask) lies outside the canvas (\(ParameterSpec.format(scene.size.width))x"
              + "\(ParameterSpec.format(scene.size.height)) pt); give x,y,width,height in points that overlap it")
        }
        rects.append(pixels)
      case .path(let path):
        if laid == nil { laid = try scene.laidOut(images: images) }
        if let index = Self.layerIndex(path), index < scene.layers.count, let laid, index < laid.layers.count {
          rects.append(
            Self.pixels(covering: laid.layers[index].maskFrame.insetBy(-1), scale: Double(scene.scale), canvas: canvas))
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
        rects.append(Self.pixels(covering: view.frame.insetBy(-1), scale: Double(scene.scale), canvas: canvas))
      }
    }
    return rects
  }

  /// The pixels of `canvas` that `frame` (points, at `scale`) touches: its
  /// edges rounded outwards, clipped to the canvas; empty when it misses it (or
  /// is not a finite rectangle).
  static func pixels(covering frame: PointRect, scale: Double, canvas: PixelRect) -> PixelRect {
    let edges = [frame.x * scale, frame.y * scale, frame.maxX * scale, frame.maxY * scale]
    guard edges.allSatisfy({ !$0.isNaN }) else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
    // Clipped in floating point first, so that no huge or infinite edge meets Int().
    func clip(_ value: Double, _ low: Int, _ high: Int) -> Double { min(max(value, Double(low)), Double(high)) }
    let x0 = Int(clip(edges[0], canvas.x, canvas.maxX).rounded(.down))
    let y0 = Int(clip(edges[1], canvas.y, canvas.maxY).rounded(.down))
    let x1 = Int(clip(edges[2], canvas.x, canvas.maxX).rounded(.up))
    let y1 = Int(clip(edges[3], canvas.y, canvas.maxY).rounded(.up))
    return PixelRect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
  }

  /// The index of `layers[N]` (N in decimal digits), or nil for any other path.
  static func layerIndex(_ path: String) -> Int? {
    guard path.hasPrefix("layers["), path.hasSuffix("]") else { return nil }
    let digits = path.dropFirst("layers[".count).dropLast()
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(digits)
  }
}

extension ImageComparison {
  /// Compares `a` (the render) with `b` (the reference) leaving out the pixels
  /// in `masked` and, with `antiAliasing`, the differing pixels that
  /// pixelmatch's detector calls anti-aliasing (`AntiAliasedPixels`,
  /// `ComparisonOptions.antiAliasing`); `ignored` counts them.
  public init(
    _ a: RGBAImage, _ b: RGBAImage, masked: [PixelRect], antiAliasing: Bool, ignored: inout Int
  ) throws {
    guard a.size == b.size else {
      throw GlassError(
        .invalidParameter, "the images differ in size: \(a.size) and \(b.size); compare images of one size")
    }
    let isMasked = Self.maskFlags(masked, size: a.size)
    var left = 0
    try self.init(
      a, b,
      including: { x, y in
        if isMasked[y * a.width + x] {
          left += 1
          return false
        }
        if antiAliasing && a.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) && AntiAliasedPixels.explain(a, b, x: x, y: y)
        {
          left += 1
          return false
        }
        return true
      })
    ignored = left
  }

  /// One flag a pixel of an image of `size`, true where a rectangle of `masked`
  /// covers it (row by row): many masks cost one pass, and a lookup after.
  static func maskFlags(_ masked: [PixelRect], size: PixelSize) -> [Bool] {
    var flags = [Bool](repeating: false, count: size.pixelCount)
    let whole = PixelRect(size: size)
    for rect in masked {
      let r = rect.intersection(whole)
      guard !r.isEmpty else { continue }
      for y in r.y..<r.maxY {
        for x in r.x..<r.maxX { flags[y * size.width + x] = true }
      }
    }
    return flags
  }

  /// `a` with every pixel that differs from `b` and that pixelmatch's detector
  /// calls anti-aliasing (`AntiAliasedPixels`, `ComparisonOptions.antiAliasing`)
  /// replaced by `b`'s: what a comparison in the anti-aliasing mode compares
  /// with `b`. Images of one size.
  public static func explainingAntiAliasing(_ a: RGBAImage, against b: RGBAImage) -> RGBAImage {
    precondition(a.size == b.size, "images of one size")
    var explained: [(x: Int, y: Int)] = []
    for y in 0..<a.height {
      for x in 0..<a.width where a.pixel16(x: x, y: y) != b.pixel16(x: x, y: y) {
        if AntiAliasedPixels.explain(a, b, x: x, y: y) { explained.append((x, y)) }
      }
    }
    guard !explained.isEmpty else { return a }
    var out = a
    switch (a.samples, b.samples) {
    case (.eight(var values), .eight(let other)):
      out.samples = .eight([])
      for (x, y) in explained {
        let i = 4 * (y * a.width + x)
        for c in 0..<4 { values[i + c] = other[i + c] }
      }
      out.samples = .eight(values)
    case (.eight(var values), .sixteen):
      out.samples = .eight([])
      for (x, y) in explained {
        let i = 4 * (y * a.width + x)
        let q = b.pixel16(x: x, y: y)
        for c in 0..<4 { values[i + c] = UInt8((UInt32(q[c]) * 255 + 32767) / 65535) }
      }
      out.samples = .eight(values)
    case (.sixteen(var values), _):
      out.samples = .sixteen([])
      for (x, y) in explained {
        let i = 4 * (y * a.width + x)
        let q = b.pixel16(x: x, y: y)
        for c in 0..<4 { values[i + c] = q[c] }
      }
      out.samples = .sixteen(values)
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
