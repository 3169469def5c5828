/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Makes a size from a width and a height in pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Width times height.
  public var pixelCount: Int { width * height }

  /// `WIDTHxHEIGHT`.
  public var description: String { "\(width)x\(height)" }
}

/// A point in pixels, y down.
public struct PixelPoint: Hashable, Codable, Sendable {
  /// Column, in pixels.
  public var x: Int
  /// Row, in pixels.
  public var y: Int

  /// Makes a point from a column and a row.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}

/// A rectangle of whole pixels, y down, half-open: `x ..< x + width`.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
  /// Left column.
  public var x: Int
  /// Top row.
  public var y: Int
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Makes a rectangle from its top-left corner and size.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The rectangle at the origin with this size.
  public init(size: PixelSize) {
    self.init(x: 0, y: 0, width: size.width, height: size.height)
  }

  /// One past the right column.
  public var maxX: Int { x + width }
  /// One past the bottom row.
  public var maxY: Int { y + height }
  /// The size of the rectangle.
  public var size: PixelSize { PixelSize(width: width, height: height) }
  /// True when the rectangle holds no pixel.
  public var isEmpty: Bool { width <= 0 || height <= 0 }
  /// Width times height (0 when empty).
  public var pixelCount: Int { isEmpty ? 0 : width * height }

  /// True when `other` lies inside this rectangle.
  public func contains(_ other: PixelRect) -> Bool {
    other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
  }

  /// The overlap of two rectangles, empty when they do not meet.
  public func intersection(_ other: PixelRect) -> PixelRect {
    let x0 = max(x, other.x)
    let y0 = max(y, other.y)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  /// `x,y WIDTHxHEIGHT`.
  public var description: String { "\(x),\(y) \(width)x\(height)" }
}
