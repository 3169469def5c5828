import Foundation
import GLESGlass
import GlassTestSupport
import Testing

/// The demo's procedural icons and flowers photo: the shape of their pixels.
@Suite struct ProceduralAssetTests {
  /// The 8-bit samples of `image`, four per pixel.
  func bytes(_ image: RGBAImage) -> [UInt8] {
    guard case .eight(let values) = image.samples else {
      Issue.record("expected an 8-bit image")
      return []
    }
    return values
  }

  @Test(arguments: ProceduralIcons.all.map(\.name))
  func iconIsAWhiteGlyphOnTransparency(name: String) throws {
    let icon = try #require(ProceduralIcons.all.first { $0.name == name })
    let size = 64
    let image = icon.draw(size)
    #expect(image.width == size && image.height == size)
    let v = bytes(image)
    try #require(v.count == 4 * size * size)
    func alpha(_ x: Int, _ y: Int) -> UInt8 { v[4 * (y * size + x) + 3] }
    // The corners are empty: the glyph keeps inside its inset.
    for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1), (3, 3), (size - 4, size - 4)] {
      #expect(alpha(x, y) == 0, "\(name): pixel (\(x), \(y)) is not transparent")
    }
    var opaque = 0
    for i in stride(from: 0, to: v.count, by: 4) where v[i + 3] > 0 {
      #expect(v[i] == 255 && v[i + 1] == 255 && v[i + 2] == 255, "\(name): a covered pixel is not white")
      if v[i + 3] == 255 { opaque += 1 }
    }
    #expect(opaque > 0, "\(name): no fully covered pixel")
  }

  /// Assets/icons, which `make assets` writes at 96 px.
  static let iconFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets/icons")

  @Test("each icon in Assets/icons has the pixels its code draws at 96 px", arguments: ProceduralIcons.all.map(\.name))
  func iconAssetMatchesItsCode(name: String) throws {
    let icon = try #require(ProceduralIcons.all.first { $0.name == name })
    let file = try PNGCodec.read(path: Self.iconFolder.appendingPathComponent("\(name).png").path).image
    let comparison = try ImageComparison(file, icon.draw(96))
    #expect(
      comparison.maxDifference == 0,
      "\(name): Assets/icons/\(name).png is stale (run make assets): \(comparison.summary)")
  }

  @Test func flowersAreOpaqueAndVaried() {
    let image = ProceduralPhotos.flowers(width: 96, height: 64)
    #expect(image.width == 96 && image.height == 64)
    let v = bytes(image)
    #expect(v.count == 4 * 96 * 64)
    var colours = Set<UInt32>()
    for i in stride(from: 0, to: v.count, by: 4) {
      #expect(v[i + 3] == 255)
      colours.insert(UInt32(v[i]) << 16 | UInt32(v[i + 1]) << 8 | UInt32(v[i + 2]))
    }
    #expect(colours.count > 100)
  }

  @Test func flowersAreDeterministic() {
    #expect(ProceduralPhotos.flowers(width: 40, height: 30) == ProceduralPhotos.flowers(width: 40, height: 30))
  }

  @Test(arguments: [(1, 1), (2, 300), (300, 2), (7, 5)])
  func flowersAtOddSizes(width: Int, height: Int) {
    let image = ProceduralPhotos.flowers(width: width, height: height)
    #expect(image.width == width && image.height == height)
    #expect(bytes(image).enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
  }

  @Test func iconsAtOddSizes() {
    for icon in ProceduralIcons.all {
      for size in [1, 7, 33] {
        let image = icon.draw(size)
        #expect(image.width == size && image.height == size, "\(icon.name) at \(size)")
      }
    }
  }
}
