import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// A container's glass is grouped into blend groups without testing every pair
/// (`GlassEffect.blendGroups`), and a group too large for one pass is refused as
/// soon as it forms: the groups are those of a brute-force oracle that links
/// every pair by the definition and finds the connected sets by a search of
/// its own.
@Suite("Glass grouping")
struct GlassGroupingTests {
  /// The definition of a link, every pair tested: the boxes' gap under the
  /// reach (or touching), and the shapes' gap under it (`separation`, the
  /// library's measure of the gap between two shapes).
  static func oracle(_ shapes: [ShapeGeometry], blendRadius: Float) -> [[Int]] {
    let reach = blendRadius > 0 ? Double(blendRadius) + 1 : 0
    var neighbours = Array(repeating: [Int](), count: shapes.count)
    for i in shapes.indices {
      for j in shapes.indices where j > i {
        let a = shapes[i]
        let b = shapes[j]
        // The boxes' edges, in pixels as the shapes hold them (Float).
        func low(_ s: ShapeGeometry) -> SIMD2<Double> { SIMD2<Double>(s.center - s.halfSize) }
        func high(_ s: ShapeGeometry) -> SIMD2<Double> { SIMD2<Double>(s.center + s.halfSize) }
        let dx = max(low(a).x - high(b).x, low(b).x - high(a).x, 0)
        let dy = max(low(a).y - high(b).y, low(b).y - high(a).y, 0)
        let boxGap = (dx * dx + dy * dy).squareRoot()
        guard boxGap < reach || boxGap == 0, a.separation(from: b) < reach else { continue }
        neighbours[i].append(j)
        neighbours[j].append(i)
      }
    }
    // Connected sets by a depth-first search, in the order of their first member.
    var seen = Array(repeating: false, count: shapes.count)
    var groups: [[Int]] = []
    for start in shapes.indices where !seen[start] {
      var group: [Int] = []
      var stack = [start]
      seen[start] = true
      while let i = stack.popLast() {
        group.append(i)
        for j in neighbours[i] where !seen[j] {
          seen[j] = true
          stack.append(j)
        }
      }
      groups.append(group.sorted())
    }
    return groups
  }

  /// Random shapes: circles, ellipses, capsules and rounded boxes of sizes from
  /// a pixel to most of the area, thin ones among them, some overlapping.
  static func shapes(_ count: Int, in side: Float, random: inout SplitMix) -> [ShapeGeometry] {
    (0..<count).map { _ in
      let center = SIMD2(Float(random.uniform(0, Double(side))), Float(random.uniform(0, Double(side))))
      let scale = [1, 4, 12, 40, Double(side) / 3][Int(random.next() % 5)]
      var half = SIMD2(Float(random.uniform(0.5, 1) * scale), Float(random.uniform(0.5, 1) * scale))
      if random.next() % 6 == 0 { half.x = 0.5 }
      switch random.next() % 3 {
      case 0: return ShapeGeometry(ellipseCenter: center, halfSize: half)
      case 1:
        let r = min(half.x, half.y)
        return ShapeGeometry(roundedBoxCenter: center, halfSize: half, radii: SIMD4(repeating: r))
      default:
        let r = Float(random.uniform(0, Double(min(half.x, half.y))))
        return ShapeGeometry(roundedBoxCenter: center, halfSize: half, radii: SIMD4(r, 0, r / 2, r))
      }
    }
  }

  @Test("random sets of shapes: the same groups as the brute-force oracle, in the same order", arguments: 0..<40)
  func sameGroupsAsTheOracle(seed: Int) {
    var random = SplitMix(state: UInt64(seed) &+ 0xBEEF)
    let count = [2, 10, 60, 150][seed % 4]
    let side: Float = [200, 600, 2_000][seed % 3]
    let shapes = Self.shapes(count, in: side, random: &random)
    let blendRadius = Float([0, 0, 3, 12, 40][seed % 5])
    let expected = Self.oracle(shapes, blendRadius: blendRadius)
    #expect(GlassEffect.blendGroups(shapes, blendRadius: blendRadius) == expected, "seed \(seed)")
    // With a limit, refused exactly when a group is over it, else the same groups.
    let limit = GlassComposite.maximumMembers
    let limited = GlassEffect.blendGroups(shapes, blendRadius: blendRadius, maximumMembers: limit)
    let over = expected.contains { $0.count > limit }
    #expect(over ? limited == nil : limited == expected, "seed \(seed): largest \(expected.map(\.count).max() ?? 0)")
  }

  @Test("a group of 17 overlapping shapes is refused, 16 are one group; far-apart shapes are never refused")
  func refusal() {
    func circle(_ x: Float, _ y: Float) -> ShapeGeometry {
      ShapeGeometry(ellipseCenter: SIMD2(x, y), halfSize: SIMD2(20, 20))
    }
    let limit = GlassComposite.maximumMembers
    let sixteen = (0..<limit).map { circle(Float($0) * 5, 0) }
    #expect(GlassEffect.blendGroups(sixteen, blendRadius: 0, maximumMembers: limit) == [Array(0..<limit)])
    #expect(GlassEffect.blendGroups(sixteen + [circle(80, 0)], blendRadius: 0, maximumMembers: limit) == nil)
    // A chain links end to end: its last link makes the group too large.
    let chain = (0...limit).map { circle(Float($0) * 39, 0) }
    #expect(GlassEffect.blendGroups(chain, blendRadius: 0, maximumMembers: limit) == nil)
    // 3,000 shapes apart, each its own group.
    let apart = (0..<3_000).map { circle(Float($0 % 60) * 50, Float($0 / 60) * 50) }
    #expect(GlassEffect.blendGroups(apart, blendRadius: 4, maximumMembers: limit)?.count == 3_000)
  }

  @Test("a container of 3,000 overlapping glass shapes is refused, naming the limit and the container")
  func refusedThroughTheCommand() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let glass = (0..<3_000).map { i in
      #"{"frame": {"x": \#(100 + i % 7), "y": \#(80 + i % 5), "width": 40, "height": 40}}"#
    }
    let scene = folder.appendingPathComponent("crowd.json").path
    try Data(
      SceneJSON.scene(
        width: 300, height: 200,
        layers: #"{"type": "glassContainer", "spacing": 0, "glass": [\#(glass.joined(separator: ","))]}"#
      ).utf8
    ).write(to: URL(fileURLWithPath: scene))
    let run = try TestProcess.runGlassGPU(["validate", scene])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(
      run.stderr.contains("crowd.json: layers[0]: more than \(GlassComposite.maximumMembers) glass shapes"),
      "\(run.stderr)")
  }
}
