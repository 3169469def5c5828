import Foundation

/// The anti-aliased pixel detector of pixelmatch (Mapbox, `antialiased` and
/// `hasManySiblings` in index.js, versions 5 to 7.1; after V. Vysniauskas,
/// "Anti-aliased Pixel and Intensity Slope Detector", 2009), the rule of the
/// comparisons' anti-aliasing mode (`ComparisonOptions.antiAliasing`).
///
/// A pixel of `image` at P is anti-aliased, against the `other` image, when:
///
///     1. at most 2 of its 8 neighbours in `image` are as bright as it (the same
///        colour, or another of the same brightness Y), counting an edge or
///        corner pixel's missing neighbours as one more;
///     2. among its neighbours there are both a brighter one and a darker one
///        (brightness delta Y(P) - Y(N) below and above 0), and
///     3. the darkest or the brightest of them (the first met, scanning columns
///        left to right, each top to bottom) has more than 2 equal neighbours in
///        `image` AND more than 2 at the same place in `other`: it lies in a flat
///        area in both images, so P is a blend of that area and something else.
///
/// Y is the luma of the gamma-encoded colour (YIQ's, Kotsarenko and Ramos:
/// `0.29889531 R + 0.58662247 G + 0.11448223 B`, 0 to 255) after blending the
/// pixel over white (`255 + (C - 255) * alpha`); a 16-bit sample counts as
/// `value / 257`. A difference between two images is anti-aliasing when the
/// pixel is anti-aliased in either image against the other (pixelmatch's
/// `antialiased(img1, ..., img2) || antialiased(img2, ..., img1)`).
///
/// What it does and does not explain: an edge between two flat areas (a shape's
/// fill against a plain background, a glyph's edge on a plain colour) moved by
/// part of a pixel changes only blend pixels, which it explains; a pixel whose
/// neighbours are all textured (a photo, a blur, glass's lens) has no flat
/// neighbour and is never explained, nor is a pixel with 3 or more equal
/// neighbours (the core of a stroke, a dot's inside, a flat area that changed
/// colour).
public enum AntiAliasedPixels {
  /// True when the difference of `a` and `b` at (x, y) is anti-aliasing: the
  /// pixel is anti-aliased in `a` against `b`, or in `b` against `a`. Images of
  /// one size (any depths).
  public static func explain(_ a: RGBAImage, _ b: RGBAImage, x: Int, y: Int) -> Bool {
    precondition(a.size == b.size, "images of one size")
    return isAntiAliased(a, x: x, y: y, other: b) || isAntiAliased(b, x: x, y: y, other: a)
  }

  /// True when `image`'s pixel at (x, y) is anti-aliased against `other` (the
  /// three conditions above).
  public static func isAntiAliased(_ image: RGBAImage, x: Int, y: Int, other: RGBAImage) -> Bool {
    let x0 = max(x - 1, 0)
    let y0 = max(y - 1, 0)
    let x2 = min(x + 1, image.width - 1)
    let y2 = min(y + 1, image.height - 1)
    var equal = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
    let centre = image.pixel16(x: x, y: y)
    let brightness = luma(centre)
    var darkest = 0.0
    var brightest = 0.0
    var darkestAt = (x: 0, y: 0)
    var brightestAt = (x: 0, y: 0)
    for u in x0...x2 {
      for v in y0...y2 where u != x || v != y {
        let neighbour = image.pixel16(x: u, y: v)
        let delta = neighbour == centre ? 0 : brightness - luma(neighbour)
        if delta == 0 {
          equal += 1
          if equal > 2 { return false }
        } else if delta < darkest {
          darkest = delta
          darkestAt = (u, v)
        } else if delta > brightest {
          brightest = delta
          brightestAt = (u, v)
        }
      }
    }
    guard darkest != 0 && brightest != 0 else { return false }
    return
      (hasManyEqualNeighbours(image, darkestAt.x, darkestAt.y)
      && hasManyEqualNeighbours(other, darkestAt.x, darkestAt.y))
      || (hasManyEqualNeighbours(image, brightestAt.x, brightestAt.y)
        && hasManyEqualNeighbours(other, brightestAt.x, brightestAt.y))
  }

  /// True when more than 2 of the 8 neighbours of (x, y) in `image` equal it in
  /// all four channels (a missing neighbour at the edge counts as one).
  static func hasManyEqualNeighbours(_ image: RGBAImage, _ x: Int, _ y: Int) -> Bool {
    let x0 = max(x - 1, 0)
    let y0 = max(y - 1, 0)
    let x2 = min(x + 1, image.width - 1)
    let y2 = min(y + 1, image.height - 1)
    var equal = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
    let centre = image.pixel16(x: x, y: y)
    for u in x0...x2 {
      for v in y0...y2 where u != x || v != y {
        if image.pixel16(x: u, y: v) == centre { equal += 1 }
        if equal > 2 { return true }
      }
    }
    return false
  }

  /// YIQ's Y of a pixel blended over white, 0 to 255 (see the type's comment).
  static func luma(_ p: SIMD4<UInt16>) -> Double {
    var r = Double(p[0]) / 257
    var g = Double(p[1]) / 257
    var b = Double(p[2]) / 257
    if p[3] < 65535 {
      let alpha = Double(p[3]) / 65535
      r = 255 + (r - 255) * alpha
      g = 255 + (g - 255) * alpha
      b = 255 + (b - 255) * alpha
    }
    return r * 0.29889531 + g * 0.58662247 + b * 0.11448223
  }
}
