import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// `glassEffectUnion(id:)`: Apple's weather icons, four 80×80 glass icons 20 pt
/// apart with union ids "1", "1", "2", "2", are two 180×80 capsules.
@Suite("Glass: glassEffectUnion")
struct GlassUnionTests {
  static let icons = ["cloud", "sun", "moon", "stars"]

  /// The four icons in a container: capsules, each with its icon on it.
  static func weather(ids: [String?] = ["1", "1", "2", "2"], content: Bool = true) -> GlassContainer {
    GlassContainer(
      spacing: 20,
      glass: (0..<4).map { i in
        GlassLayer(
          glass: .regular, shape: .capsule, frame: PointRect(x: 30 + Double(i) * 100, y: 40, width: 80, height: 80),
          content: content ? GlassContent(source: icons[i], padding: 20) : nil, unionID: ids[i])
      })
  }

  static func scene(_ layers: [Layer]) -> Scene {
    Scene(
      size: PointSize(width: 460, height: 160), scale: 1, background: .image("photo", contentMode: .fill),
      layers: layers)
  }

  static let images: [String: RGBAImage] = {
    var images = ["photo": ProceduralImages.landscape(width: 230, height: 80)]
    for (index, name) in icons.enumerated() { images[name] = ProceduralIcons.all[index].draw(40) }
    return images
  }()

  @Test("the union of the weather icons is two 180x80 capsules, with each icon where it was")
  func frames() {
    let united = Self.weather().unitedGlass
    let bodies = united.filter { $0.glass.variant != .identity }
    #expect(
      bodies.map(\.frame) == [
        PointRect(x: 30, y: 40, width: 180, height: 80), PointRect(x: 230, y: 40, width: 180, height: 80),
      ])
    #expect(bodies.allSatisfy { $0.shape == .capsule && $0.content == nil })
    let contents = united.filter { $0.glass.variant == .identity }
    #expect(contents.map(\.content?.source) == Self.icons)
    #expect(contents.map(\.frame) == Self.weather().glass.map(\.frame))
  }

  @Test("different variants, shape kinds or ids do not unite; a union of one is the glass itself")
  func membership() {
    var container = Self.weather(ids: ["a", "a", "b", nil], content: false)
    container.glass[1].glass = .clear
    #expect(container.unitedGlass == container.glass)
    container = Self.weather(ids: ["a", "a", "a", "a"], content: false)
    container.glass[2].shape = .roundedRect(cornerRadius: 12)
    container.glass[3].shape = .roundedRect(cornerRadius: 30)
    let united = container.unitedGlass
    #expect(
      united.map(\.frame) == [
        PointRect(x: 30, y: 40, width: 180, height: 80), PointRect(x: 230, y: 40, width: 180, height: 80),
      ])
    // Rounded rectangles of different radii are one kind: the first member's radius wins.
    #expect(united[1].shape == .roundedRect(cornerRadius: 12))
  }

  @Test("on the CPU a union renders exactly as one glass of its shape over the members' frames, icons on top")
  func rendersAsOneOnCPU() throws {
    try Self.rendersAsOne(on: .cpu)
  }

  @Test(
    "on the GPU a union renders exactly as one glass of its shape over the members' frames, icons on top",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func rendersAsOneOnGPU() throws {
    try Self.rendersAsOne(on: .gpu)
  }

  static func rendersAsOne(on backend: TestBackend) throws {
    let union = try backend.render(Self.scene([.container(Self.weather())]), images: Self.images)
    // Written by hand: the two capsules, then the icons on identity glass.
    let explicit = GlassContainer(
      spacing: 20,
      glass: [
        GlassLayer(frame: PointRect(x: 30, y: 40, width: 180, height: 80)),
        GlassLayer(frame: PointRect(x: 230, y: 40, width: 180, height: 80)),
      ]
        + (0..<4).map { i in
          GlassLayer(
            glass: .identity, frame: PointRect(x: 30 + Double(i) * 100, y: 40, width: 80, height: 80),
            content: GlassContent(source: Self.icons[i], padding: 20))
        })
    let single = try backend.render(Self.scene([.container(explicit)]), images: Self.images)
    #expect(union == single, "\(backend): the union differs from the capsules written out")
    // And it is not the four separate icons.
    let apart = try backend.render(
      Self.scene([.container(Self.weather(ids: [nil, nil, nil, nil]))]), images: Self.images)
    #expect(union != apart)
  }

  @Test("glassEffectUnion reads, writes and validates in the scene format and the Swift API")
  func format() throws {
    let scene = Self.scene([.container(Self.weather())])
    let back = try Scene(json: Array(scene.json.utf8))
    #expect(back == scene)
    #expect(scene.json.contains(#""glassEffectUnion":"1""#) || scene.json.contains(#""glassEffectUnion": "1""#))
    let built = Color.clear.frame(x: 0, y: 0, width: 10, height: 10).glassEffect().glassEffectUnion(id: 7)
    #expect(built.glassLayer.unionID == "7")
    let bad = SceneJSON.scene(
      width: 100, height: 100,
      layers: #"""
        {"type": "glassContainer", "glass": [
          {"frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "glassEffectUnion": ""}]}
        """#)
    let error = #expect(throws: GlassError.self) { try Scene(json: Array(bad.utf8)) }
    #expect(error?.jsonPath == "layers[0].glass[0].glassEffectUnion", "\(String(describing: error))")
  }
}
