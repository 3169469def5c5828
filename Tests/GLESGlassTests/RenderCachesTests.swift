import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The one cache type: least recently used first out, within a byte budget,
/// checked against a plain list that shares no code with it (admitting
/// everything; admission on second use is `CacheAdmissionTests`').
@Suite("Caches: the least-recently-used cache")
struct LRUCacheTests {
  /// The overhead every entry is charged.
  static let overhead = LRUCache<Int, Int>.entryOverhead

  @Test("a full cache drops the entry used longest ago, a lookup or an insert counting as a use")
  func leastRecentlyUsed() {
    let cache = LRUCache<String, Int>("test", budgetBytes: 3 * (100 + Self.overhead), admission: .everything)
    for key in ["a", "b", "c"] { cache.insert(0, forKey: key, bytes: 100) }
    #expect(cache.value(forKey: "a") == 0)
    let (stored, evicted) = cache.insert(1, forKey: "d", bytes: 100)
    #expect(stored && evicted == [0])
    #expect(cache.keysFromOldest == ["c", "a", "d"])
    cache.insert(2, forKey: "c", bytes: 100)  // replaced: now the newest
    cache.insert(3, forKey: "e", bytes: 100)
    #expect(cache.keysFromOldest == ["d", "c", "e"])
    let stats = cache.stats
    #expect(stats.entries == 3 && stats.bytes == 3 * (100 + Self.overhead) && stats.evictions == 2)
    #expect(stats.hits == 1 && stats.misses == 0)
  }

  @Test("an entry over the whole budget is not stored and evicts nothing; a budget of 0 keeps nothing")
  func tooLarge() {
    let cache = LRUCache<Int, Int>("test", budgetBytes: 1000, admission: .everything)
    cache.insert(1, forKey: 1, bytes: 500)
    #expect(cache.insert(2, forKey: 2, bytes: 1000) == (false, []))
    #expect(cache.keysFromOldest == [1])
    let none = LRUCache<Int, Int>("test", budgetBytes: 0, admission: .everything)
    #expect(none.insert(1, forKey: 1, bytes: 0).stored == false)
    #expect(none.value(forKey: 1) == nil && none.stats.misses == 1)
  }

  @Test("eviction stops at an entry the owner may not drop, and the new entry is then not stored")
  func pinned() {
    let cache = LRUCache<Int, Int>("test", budgetBytes: 2 * (10 + Self.overhead), admission: .everything)
    cache.insert(7, forKey: 1, bytes: 10)
    cache.insert(8, forKey: 2, bytes: 10)
    let refused = cache.insert(9, forKey: 3, bytes: 10, canEvict: { $0 != 7 })
    #expect(refused.stored == false && refused.evicted.isEmpty)
    let allowed = cache.insert(9, forKey: 3, bytes: 10, canEvict: { $0 != 8 })
    #expect(allowed.stored && allowed.evicted == [7])
    #expect(cache.keysFromOldest == [2, 3])
  }

  @Test("ten thousand random operations: the same entries, in the same order, as a plain list, within the budget")
  func againstAModel() {
    let budget = 5000
    let cache = LRUCache<Int, Int>("test", budgetBytes: budget, admission: .everything)
    // The model: (key, value, charge), oldest first.
    var model: [(key: Int, value: Int, charge: Int)] = []
    var random = SplitMix(state: 21)
    for step in 0..<10_000 {
      let key = Int(random.next() % 40)
      if random.next() % 3 == 0 {
        let found = cache.value(forKey: key)
        if let at = model.firstIndex(where: { $0.key == key }) {
          #expect(found == model[at].value, "step \(step)")
          model.append(model.remove(at: at))
        } else {
          #expect(found == nil, "step \(step)")
        }
      } else {
        let bytes = Int(random.next() % 1200)
        let charge = bytes + Self.overhead
        cache.insert(step, forKey: key, bytes: bytes)
        model.removeAll { $0.key == key }
        if charge <= budget {
          while model.reduce(0, { $0 + $1.charge }) + charge > budget { model.removeFirst() }
          model.append((key, step, charge))
        }
      }
      #expect(cache.bytes <= budget)
    }
    #expect(cache.keysFromOldest == model.map(\.key))
    #expect(cache.bytes == model.reduce(0) { $0 + $1.charge })
  }

  @Test("threads asking for one key at once share one value; the budget holds under contention")
  func threads() {
    final class Box: @unchecked Sendable {}
    final class Seen: @unchecked Sendable {
      let lock = NSLock()
      var boxes: Set<ObjectIdentifier> = []
      var overBudget = 0
    }
    let cache = LRUCache<Int, Box>("test", budgetBytes: 20 * (100 + Self.overhead), admission: .everything)
    let seen = Seen()
    // Eight threads make the value of one key at once (each make is slow): one is kept, all get it.
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let box = cache.value(forKey: -1, bytes: { _ in 100 }) {
        Thread.sleep(forTimeInterval: 0.01)
        return Box()
      }
      seen.lock.withLock { _ = seen.boxes.insert(ObjectIdentifier(box)) }
    }
    #expect(seen.boxes.count == 1)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      var random = SplitMix(state: UInt64(thread))
      for _ in 0..<2000 {
        _ = cache.value(forKey: Int(random.next() % 64), bytes: { _ in 100 }) { Box() }
        if cache.bytes > 20 * (100 + Self.overhead) { seen.lock.withLock { seen.overBudget += 1 } }
      }
    }
    #expect(seen.overBudget == 0)
    #expect(cache.count <= 20)
    #expect(cache.stats.hits + cache.stats.misses == 8 + 8 * 2000)
  }
}

/// A renderer's caches: each within its budget whatever the work, the least
/// recently used dropped first, and renders the same with every cache emptied.
@Suite("Caches: a renderer's caches")
struct RenderCachesTests {
  /// A scene with a label, an icon beside it, at `x`, and glass under it.
  static func label(_ text: String, x: Double, systemImage: String = "star.fill") throws -> Scene {
    try Scene(
      json: Array(
        SceneJSON.scene(
          width: 240, height: 80, scale: 2, background: "#30508f",
          layers: #"""
            {"type": "glass", "frame": {"x": \#(x), "y": 10}, "content": {"text": "\#(text)", "systemImage": "\#(systemImage)"}},
            {"type": "text", "text": "\#(text)", "frame": {"x": \#(x + 3.3), "y": 50}}
            """#
        ).utf8))
  }

  /// Small budgets: a few masks, glyphs and icons, two faces.
  static var small: CacheBudgets {
    var budgets = CacheBudgets()
    budgets.glyphBytes = 6 << 10
    budgets.textMaskBytes = 256 << 10
    budgets.iconBytes = 2 << 10
    budgets.fontBytes = 2 << 20
    budgets.fontMatchBytes = 1 << 10
    return budgets
  }

  @Test(
    "many distinct texts at distinct positions keep every cache within its budget, and the masks held are what it counts"
  )
  func withinBudgets() throws {
    let caches = RenderCaches(budgets: Self.small)
    let renderer = try Renderer(backend: .cpu, caches: caches)
    var timings = RenderTimings()
    for i in 0..<120 {
      _ = try renderer.render(try Self.label("Frame \(i)", x: 7 + Double(i) * 0.37), images: [:], timings: &timings)
      for stats in caches.stats {
        #expect(stats.bytes <= stats.budgetBytes, "after \(i + 1) renders: \(stats)")
      }
    }
    // Counted independently of the cache's own sum: the pixels of the masks it holds.
    let held = caches.textMasks.keysFromOldest.compactMap { caches.textMasks.removeValue(forKey: $0) }
    let pixels = held.reduce(0) { $0 + ($1?.mask.size.pixelCount ?? 0) * 4 }
    #expect(pixels > 0 && pixels <= Self.small.textMaskBytes, "\(pixels) bytes of masks held")
    for name in ["glyphs", "text masks"] {
      #expect((caches.stats(named: name)?.evictions ?? 0) > 0, "\(name): the budget was reached and evictions made")
    }
  }

  @Test(
    "with room for two masks kept for good (each too large for the probation, so kept from its second render), the one used longest ago is the one dropped"
  )
  func evictsLeastRecentlyUsed() throws {
    func scene(_ text: String) throws -> Scene {
      try Scene(
        json: Array(
          SceneJSON.scene(
            width: 200, height: 60, scale: 1, background: "white",
            layers: #"{"type": "text", "text": "\#(text)", "frame": {"x": 4, "y": 4}}"#
          ).utf8))
    }
    var budgets = CacheBudgets()
    let one = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    _ = try one.render(try scene("Alpha"), images: [:], timings: &timings)
    let mask = try #require(one.caches.stats(named: "text masks")).bytes
    // Room for two masks of about that size, not three; the probation, a quarter
    // of it, holds none: a mask is kept when it comes back.
    budgets.textMaskBytes = mask * 5 / 2
    let renderer = try Renderer(backend: .cpu, caches: RenderCaches(budgets: budgets))
    for text in ["Alpha", "Bravo", "Alpha", "Bravo", "Alpha", "Charl", "Charl"] {
      _ = try renderer.render(try scene(text), images: [:], timings: &timings)
    }
    #expect(renderer.caches.textMasks.keysFromOldest.map(\.text.string) == ["Alpha", "Charl"])
  }

  @Test("a render with every cache emptied by tiny budgets is byte for byte the render with warm caches")
  func sameWithCachesEvicted() throws {
    var tiny = CacheBudgets()
    tiny.fontBytes = 0
    tiny.fontMatchBytes = 0
    tiny.glyphBytes = 0
    tiny.textMaskBytes = 0
    tiny.textLayoutBytes = 0
    tiny.shapedTextBytes = 0
    tiny.iconBytes = 0
    tiny.imageBytes = 0
    tiny.textureBytes = 0
    let cold = try Renderer(backend: .cpu, caches: RenderCaches(budgets: tiny))
    let small = try Renderer(backend: .cpu, caches: RenderCaches(budgets: Self.small))
    let warm = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    let first = try Self.label("Évian ÄÖ 1234", x: 11.3, systemImage: "heart.fill")
    let reference = try warm.render(first, images: [:], timings: &timings)
    #expect(try warm.render(first, images: [:], timings: &timings) == reference, "warm, drawn from its caches")
    #expect(try cold.render(first, images: [:], timings: &timings) == reference, "nothing cached")
    _ = try small.render(first, images: [:], timings: &timings)
    for i in 0..<30 {
      _ = try small.render(
        try Self.label("Other \(i)", x: Double(i), systemImage: "bolt.fill"), images: [:], timings: &timings)
    }
    #expect(try small.render(first, images: [:], timings: &timings) == reference, "after its entries were evicted")
    #expect(cold.caches.stats.allSatisfy { $0.entries == 0 && $0.bytes == 0 }, "\(cold.caches.stats)")
  }

  @Test("two renderers' caches are their own: a second renderer starts empty")
  func owned() throws {
    let a = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    _ = try a.render(try Self.label("Owned", x: 10), images: [:], timings: &timings)
    #expect(
      a.caches.stats.filter { $0.entries > 0 }.map(\.name) == [
        "fonts", "font matches", "glyphs", "text masks", "text layouts", "shaped text", "icons", "textures",
      ])
    let b = try Renderer(backend: .cpu)
    #expect(b.caches.stats.allSatisfy { $0.entries == 0 }, "\(b.caches.stats)")
  }

  @Test(
    "on the CPU the kept linear sources change no pixel: parts of one image read by later renders are converted then, other images are not mistaken for it, and the budget holds"
  )
  func keptLinearSources() throws {
    // Held as a batch holds them: one SceneImages (and its fitted copies) per image.
    let photo = SceneImages(["photo": ProceduralImages.landscape(width: 300, height: 100)])
    let other = SceneImages(["photo": ProceduralImages.noise(width: 300, height: 100, seed: 4)])
    func scene(_ x: Double) throws -> Scene {
      try Scene(
        json: Array(
          #"""
          {"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "background": "#203040",
           "layers": [{"type": "image", "source": "photo", "frame": {"x": \#(x), "y": 0, "width": 300, "height": 100}},
                      {"type": "glass", "frame": {"x": 40, "y": 30, "width": 120, "height": 40}}]}
          """#.utf8))
    }
    var budgets = CacheBudgets()
    budgets.textureBytes = 0
    let fresh = try Renderer(backend: .cpu, caches: RenderCaches(budgets: budgets))
    let keeping = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    // The left part of the photo, then its right part, then the left again; then
    // another image: each the same as a renderer that keeps nothing.
    for (x, images) in [(0.0, photo), (-100, photo), (0, photo), (0, other)] {
      let kept = try keeping.render(scene(x), images: images, timings: &timings)
      let reference = try fresh.render(scene(x), images: images, timings: &timings)
      #expect(kept == reference, "x \(x)")
    }
    let textures = try #require(keeping.caches.stats(named: "textures"))
    // The photo's fitted copies (one per visible window) and the other image's.
    #expect(textures.entries == 3 && textures.hits == 1, "\(textures)")
    #expect(textures.bytes <= textures.budgetBytes)
    #expect(fresh.caches.stats(named: "textures")?.entries == 0)
  }

  @Test("a kept linear source converts the rects a later import adds, and keeps those it converted")
  func keptSourceRects() throws {
    let backend = CPUBackend()
    let image = ProceduralImages.landscape(width: 40, height: 30)
    let descriptor = ImageDescriptor(size: image.size, format: .linearHalf)
    /// The binary16 premultiplied linear value of pixel (x, y), from its own conversion.
    func expected(_ x: Int, _ y: Int) -> SIMD4<Float> {
      var bits = [UInt16](repeating: 0, count: 4)
      bits.withUnsafeMutableBufferPointer {
        PremultipliedLinear.convert(image, rect: PixelRect(x: x, y: y, width: 1, height: 1), into: $0.baseAddress!)
      }
      return SIMD4(bits.map { Half.float(bits: $0) })
    }
    let left = PixelRect(x: 0, y: 0, width: 10, height: 30)
    let right = PixelRect(x: 25, y: 5, width: 15, height: 20)
    let first = try backend.upload(RenderGraph.SourceImport(image: image, rects: [left]), as: descriptor)
    first.materialize()
    let second = try backend.upload(RenderGraph.SourceImport(image: image, rects: [right, left]), as: descriptor)
    #expect(first === second, "the same storage is the same kept source")
    #expect(second.pending?.rects == [right], "only the new rect is converted")
    second.materialize()
    for rect in [left, right] {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { #expect(second.linear[y * 40 + x] == expected(x, y), "(\(x), \(y))") }
      }
    }
    let third = try backend.upload(RenderGraph.SourceImport(image: image, rects: [right]), as: descriptor)
    #expect(third === first && third.pending == nil, "nothing left to convert")
    // Another image is another source, even of the same size.
    let other = try backend.upload(
      RenderGraph.SourceImport(image: ProceduralImages.gradient(width: 40, height: 30), rects: [left]), as: descriptor)
    #expect(other !== first)
    #expect(backend.keptSourceStats().entries == 2)
  }

  @Test(
    "on the GPU the kept source textures are a cache of the renderer's within its budget, the oldest dropped first",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func keptTextures() throws {
    var budgets = CacheBudgets()
    // Each label's mask is a source of the graph: a budget for a few of them.
    budgets.textureBytes = 1 << 20
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let renderer = try Renderer(backend: .gpu, caches: RenderCaches(budgets: budgets))
    defer { renderer.close() }
    var timings = RenderTimings()
    for i in 0..<40 {
      let scene = try Self.label("Texture \(i)", x: 3 + Double(i) * 0.5)
      let image = try renderer.render(scene, images: [:], timings: &timings)
      let textures = try #require(renderer.caches.stats(named: "textures"))
      #expect(textures.bytes <= textures.budgetBytes)
      if i % 13 == 0 {
        let cpu = try Renderer(backend: .cpu).render(scene, images: [:], timings: &timings)
        // The scene parity bar: the caches change no pixel on either backend.
        _ = SceneRenderingTests.bar.check(try ImageComparison(image, cpu), "render \(i)")
      }
    }
    let textures = try #require(renderer.caches.stats(named: "textures"))
    #expect(textures.evictions > 0 && textures.entries > 0, "\(textures)")
    #expect(try renderer.gles?.objectCounts().keptSources == textures.entries)
  }
}

/// The automatic content colour reads the backdrop with the extension's own mirror rule.
@Suite("Text: the backdrop under automatic content")
struct BackdropLuminanceTests {
  @Test(
    "content over an extension's inset wider than the image reads the repeated mirror copies (light over a dark image)")
  func wideInset() throws {
    // A 40 pt black image at x 200 extended 200 pt to the left: x 0 to 160 shows its
    // second and later mirrored copies, all black, over a white background.
    let scene = try Scene(
      json: Array(
        SceneJSON.scene(
          width: 300, height: 100, scale: 1, background: "white",
          layers: #"""
            {"type": "image", "source": "black.png", "frame": {"x": 200, "y": 0, "width": 40, "height": 100},
             "backgroundExtensionEffect": {"leading": 200, "sigma": 0}},
            {"type": "glass", "glass": "clear", "frame": {"x": 10, "y": 20}, "content": {"text": "HHHH", "font": "title"}}
            """#
        ).utf8)
    ).laidOut(images: SceneImages([:]))
    let black = RGBAImage(width: 40, height: 100) { _, _ in SIMD4(0, 0, 0, 255) }
    let image = try TestBackend.cpu.render(scene, images: ["black.png": black])
    guard case .glass(let glass) = scene.layers[1] else { throw GlassError(.invalidScene, "not glass") }
    let frame = glass.frame
    #expect(frame.maxX < 160, "the glass lies over the second copy and beyond: \(frame)")
    // The backdrop there is black.
    #expect(image.pixel16(x: 3, y: 50).x / 257 < 10)
    var brightest = 0
    for y in Int(frame.y + 18)..<Int(frame.maxY - 18) {
      for x in Int(frame.x + 20)..<Int(frame.maxX - 20) {
        brightest = max(brightest, Int(image.pixel16(x: x, y: y).x / 257))
      }
    }
    #expect(brightest > 215, "the text is light over the black copies: its brightest red is \(brightest)")
  }
}

/// The caches' sizes through the command line: the batch report's last line and
/// its budgets from `--text-cache` and `--image-cache`.
@Suite("Caches: the command line")
struct CacheCommandLineTests {
  /// A manifest of `count` inline jobs, each with a text of its own.
  static func manifest(_ count: Int) -> String {
    (0..<count).map { i in
      let scene = SceneJSON.scene(
        width: 120, height: 40, scale: 1, background: "white",
        layers: #"{"type": "text", "text": "Job \#(i)", "frame": {"x": \#(3 + i), "y": 5}}"#)
      return #"{"output": "\#(i).png", "scene": \#(scene)}"#
    }.joined(separator: "\n") + "\n"
  }

  /// The caches line of a batch run with `options`, by cache name.
  static func caches(_ options: [String]) throws -> [String: [String: Double]] {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(Self.manifest(6).utf8).write(to: root.appendingPathComponent("jobs.jsonl"))
    let result = try runCLI(
      ["batch", "--manifest", "jobs.jsonl", "-o", "out", "--backend", "cpu", "--quiet", "--report", "r.jsonl"]
        + options, in: root)
    try #require(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOf: root.appendingPathComponent("r.jsonl"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 7, "six jobs, then the caches")
    let last = try #require(lines.last)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    return try #require(object["caches"] as? [String: [String: Double]], "\(last)")
  }

  @Test(
    "the report ends with each cache's entries, bytes, budget and evictions; --text-cache and --image-cache set budgets"
  )
  func reportAndOptions() throws {
    let standard = try Self.caches([])
    #expect(standard["text masks"]?["budget_bytes"] == Double(12 << 20))
    #expect(standard["glyphs"]?["budget_bytes"] == Double(4 << 20))
    #expect(standard["images"]?["budget_bytes"] == Double(256 << 20))
    #expect(standard["text masks"]?["entries"] == 6, "one mask a job")
    for (name, numbers) in standard {
      #expect((numbers["bytes"] ?? 1) <= (numbers["budget_bytes"] ?? 0), "\(name)")
    }
    let none = try Self.caches(["--text-cache", "0", "--image-cache", "3"])
    #expect(none["text masks"]?["budget_bytes"] == 0 && none["text masks"]?["entries"] == 0)
    #expect(none["glyphs"]?["budget_bytes"] == 0 && none["glyphs"]?["entries"] == 0)
    #expect(none["images"]?["budget_bytes"] == Double(3 << 20))
    let one = try Self.caches(["--text-cache", "1"])
    #expect(one["text masks"]?["budget_bytes"] == Double(3 << 18))
    #expect(one["glyphs"]?["budget_bytes"] == Double(1 << 18))
  }
}
