/// The mirror rule of DESIGN.md, `…cba|abc…` (`GL_MIRRORED_REPEAT`, OpenCV
/// `BORDER_REFLECT`): index `-i-1` below 0 and `2n-1-i` above `n-1`, repeating with
/// period `2n`. `common.glsl` has the same function as `reflectIndex`.
@inlinable
public func reflectIndex(_ i: Int, count n: Int) -> Int {
  precondition(n > 0, "reflectIndex needs a non-empty range")
  let period = 2 * n
  var m = i % period
  if m < 0 { m += period }
  return m < n ? m : period - 1 - m
}

/// The extended canvas of the background extension effect: an image placed at
/// `imageOrigin` inside a larger canvas, every canvas pixel a mirrored copy of an
/// image pixel. Outside the canvas the canvas itself is mirrored (the rule of the
/// blur's edge). Units are pixels.
public struct MirrorCanvas: Hashable, Sendable {
  /// Canvas size in pixels.
  public var canvasSize: PixelSize
  /// Top-left of the image inside the canvas, in pixels.
  public var imageOrigin: PixelPoint
  /// Image size in pixels.
  public var imageSize: PixelSize

  /// Makes the mapping of an image placed at `imageOrigin` in a canvas.
  public init(canvasSize: PixelSize, imageOrigin: PixelPoint, imageSize: PixelSize) {
    self.canvasSize = canvasSize
    self.imageOrigin = imageOrigin
    self.imageSize = imageSize
  }

  /// Image column of canvas column `x` (any integer, inside the canvas or not).
  ///
  ///     x -> reflect(x, canvas width) - origin.x -> reflect(_, image width)
  @inlinable
  public func imageColumn(_ x: Int) -> Int {
    reflectIndex(reflectIndex(x, count: canvasSize.width) - imageOrigin.x, count: imageSize.width)
  }

  /// Image row of canvas row `y`; see `imageColumn(_:)`.
  @inlinable
  public func imageRow(_ y: Int) -> Int {
    reflectIndex(reflectIndex(y, count: canvasSize.height) - imageOrigin.y, count: imageSize.height)
  }
}
