/// Laid-out frames drawn over a render as a view debugger shows them
/// (`glass-gpu layout --outline`): each view's frame a 1-pixel outline, coloured
/// by its depth in the tree.
///
/// A frame in points covers the pixels `round(x * scale) ..< round(maxX * scale)`
/// across and the same down (halves up, as layout snaps edges): the outline is
/// the first and last column and row of that rectangle, so it lies inside the
/// frame, on its edge pixels. A frame with no width (or height) in pixels is drawn
/// as a line one pixel wide at its left (top) edge. Views are drawn in the order
/// given (parents before children), so where a child's edge lies on its parent's
/// the child's colour shows. Outlines are opaque; what lies off the image is not
/// drawn; every other pixel is left as it was.
public enum ViewOutline {
  /// The outline colours, sRGB, opaque; a view at depth `d` is drawn in
  /// `palette[d % palette.count]`: red, orange, green, cyan, blue, purple (Apple's
  /// system colours).
  public static let palette: [SIMD4<UInt8>] = [
    SIMD4(255, 59, 48, 255), SIMD4(255, 149, 0, 255), SIMD4(52, 199, 89, 255), SIMD4(50, 173, 230, 255),
    SIMD4(0, 122, 255, 255), SIMD4(175, 82, 222, 255),
  ]

  /// The colour of a view at `depth`.
  public static func color(depth: Int) -> SIMD4<UInt8> { palette[max(0, depth) % palette.count] }

  /// The pixels a frame in points covers at `scale` pixels per point, at least
  /// one wide and one high.
  public static func pixelRect(_ frame: PointRect, scale: Double) -> PixelRect {
    // Clamped well outside any image first, so that a frame far off the canvas
    // cannot overflow Int.
    let limit = Double(Int32.max)
    func edge(_ v: Double) -> Int { Int(min(max((v * scale + 0.5).rounded(.down), -limit), limit)) }
    let x = edge(frame.x)
    let y = edge(frame.y)
    return PixelRect(x: x, y: y, width: max(1, edge(frame.maxX) - x), height: max(1, edge(frame.maxY) - y))
  }

  /// `image` with each view's frame outlined (`scale`: the image's pixels per point).
  public static func draw(_ views: [ResolvedView], on image: RGBAImage, scale: Double) -> RGBAImage {
    let width = image.width
    let height = image.height
    // The part of `lower ..< upper` inside `0 ..< limit` (empty when none is).
    func clamped(_ lower: Int, _ upper: Int, _ limit: Int) -> Range<Int> {
      let start = min(max(lower, 0), limit)
      return start..<min(max(upper, start), limit)
    }
    // Calls `set` with the index of each pixel on the outline of each view, and its colour.
    func outlines(_ set: (Int, SIMD4<UInt8>) -> Void) {
      for view in views {
        let color = Self.color(depth: view.depth)
        let rect = pixelRect(view.frame, scale: scale)
        let columns = clamped(rect.x, rect.maxX, width)
        let rows = clamped(rect.y, rect.maxY, height)
        for x in columns {
          for y in [rect.y, rect.maxY - 1] where rows.contains(y) { set(y * width + x, color) }
        }
        for y in rows {
          for x in [rect.x, rect.maxX - 1] where columns.contains(x) { set(y * width + x, color) }
        }
      }
    }
    var image = image
    switch image.samples {
    case .eight(var values):
      image.samples = .eight([])
      outlines { i, color in
        for c in 0..<4 { values[4 * i + c] = color[c] }
      }
      image.samples = .eight(values)
    case .sixteen(var values):
      image.samples = .sixteen([])
      outlines { i, color in
        for c in 0..<4 { values[4 * i + c] = UInt16(color[c]) &* 257 }
      }
      image.samples = .sixteen(values)
    }
    return image
  }
}
