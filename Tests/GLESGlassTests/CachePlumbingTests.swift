import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Whose caches text is laid out with: the library's own code passes its
/// renderer's caches down (a required parameter inside); the public calls that
/// take none use those bound by `RenderCaches.use`, else caches of their own for
/// that one call, as their documentation says.
@Suite("Caches: whose caches a call uses")
struct CachePlumbingTests {
  /// A scene whose texts are sized to their content, so laying it out measures them.
  static let scene = """
    {"version": 1, "size": {"width": 240, "height": 100}, "scale": 1, "background": "#FFFFFF",
     "layers": [
       {"type": "text", "text": "Measured once", "foregroundStyle": "#333333", "frame": {"x": 10, "y": 10}},
       {"type": "glass", "frame": {"x": 10, "y": 50}, "content": {"text": "Label", "systemImage": "star.fill"}}]}
    """

  /// Lookups (hits and misses) of the cache `name` in `caches`.
  static func lookups(_ caches: RenderCaches, _ name: String) -> Int {
    caches.stats(named: name).map { $0.hits + $0.misses } ?? 0
  }

  @Test("the contrast audit lays its scene out with its renderer's caches, not caches of its own")
  func auditUsesTheRenderersCaches() throws {
    let scene = try Scene(json: Array(Self.scene.utf8))
    let renderer = try Renderer(backend: .cpu)
    _ = try ContrastAudit.audit(scene, images: SceneImages([:]), renderer: renderer)
    let audited = Self.lookups(renderer.caches, "text layouts")
    // Layout, and the render the audit makes, each look the two texts up.
    #expect(audited >= 4, "\(renderer.caches.stats(named: "text layouts").map(String.init(describing:)) ?? "")")
    // The same calls inside another set of bound caches change nothing: the
    // audit does not fall back to what `use` binds.
    let bound = RenderCaches()
    _ = try bound.use { try ContrastAudit.audit(scene, images: SceneImages([:]), renderer: renderer) }
    #expect(Self.lookups(bound, "text layouts") == 0)
    #expect(Self.lookups(renderer.caches, "text layouts") > audited)
  }

  @Test(
    "a one-off layout without caches works: with caches bound by use it measures with them, else with its own for the call"
  )
  func oneOffLayout() throws {
    let scene = try Scene(json: Array(Self.scene.utf8))
    let alone = try scene.laidOut(images: SceneImages([:]))
    let bound = RenderCaches()
    let within = try bound.use { try scene.laidOut(images: SceneImages([:])) }
    #expect(alone == within, "the same layout, whichever caches")
    #expect(Self.lookups(bound, "text layouts") >= 2, "the bound caches measured the texts")
    let given = RenderCaches()
    let passed = try scene.laidOut(images: SceneImages([:]), caches: given)
    #expect(passed == alone && Self.lookups(given, "text layouts") >= 2)
  }

  @Test("TextContent.size measures with the caches it is given, and without any still measures")
  func contentSize() throws {
    let content = TextContent("Sized", font: .body)
    let caches = RenderCaches()
    let measured = try content.size(caches: caches)
    #expect(measured.width > 0 && measured.height > 0)
    #expect((caches.stats(named: "fonts")?.misses ?? 0) > 0, "its face was opened with the given caches")
    #expect(try content.size() == measured)
  }
}
