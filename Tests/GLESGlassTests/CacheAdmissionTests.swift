import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Admission on second use (`CacheAdmission`): an entry seen once waits on
/// probation; 2Q keeps it for good when its key comes back after it was dropped
/// (a bounded ghost list remembers the keys), a segmented LRU when a lookup finds
/// it on probation; checked against a model of lists that shares no code with
/// `LRUCache`.
@Suite("Caches: admission on second use")
struct CacheAdmissionTests {
  static let overhead = LRUCache<Int, Int>.entryOverhead

  /// A 2Q cache of `budget` entries of 100 bytes, `probation` of them on
  /// probation, remembering `ghost` keys.
  static func cache(budget: Int, probation: Int, ghost: Int) -> LRUCache<String, Int> {
    LRUCache(
      "test", budgetBytes: budget * (100 + overhead),
      admission: .twoQueue(probationBytes: probation * (100 + overhead), probationEntries: 1000, ghostKeys: ghost))
  }

  @Test(
    "2Q: an entry seen once waits on probation, where lookups find it; dropped unused and inserted again, it is kept for good, and entries seen once never displace it"
  )
  func twoQueue() {
    let cache = Self.cache(budget: 4, probation: 2, ghost: 8)
    cache.insert(1, forKey: "a", bytes: 100)
    cache.insert(2, forKey: "b", bytes: 100)
    #expect(cache.value(forKey: "a") == 1, "a scene used again finds what it left on probation")
    #expect(cache.probationKeys == ["b", "a"], "a hit refreshes an entry on probation, and keeps it there")
    cache.insert(3, forKey: "c", bytes: 100)  // drops b, the least recently used: its key is remembered
    #expect(cache.probationKeys == ["a", "c"] && cache.ghostCount == 1)
    cache.insert(2, forKey: "b", bytes: 100)  // b comes back: kept for good
    #expect(cache.probationKeys == ["a", "c"] && cache.keysFromOldest == ["a", "c", "b"])
    // A thousand entries seen once: they go through probation, two at a time.
    for i in 0..<1000 { cache.insert(i, forKey: "once \(i)", bytes: 100) }
    #expect(cache.keysFromOldest == ["once 998", "once 999", "b"])
    #expect(cache.value(forKey: "b") == 2)
    #expect(cache.bytes == 3 * (100 + Self.overhead))
    let stats = cache.stats
    #expect(stats.evictions == 1001 && stats.hits == 2 && stats.misses == 0)
  }

  @Test("2Q: a key is remembered for as many drops as the ghost list holds, then is new again")
  func ghostForgets() {
    let cache = Self.cache(budget: 4, probation: 1, ghost: 8)
    cache.insert(1, forKey: "a", bytes: 100)
    cache.insert(2, forKey: "b", bytes: 100)  // drops a
    for i in 0..<7 { cache.insert(i, forKey: "x\(i)", bytes: 100) }  // drops b, x0 ... x5: 8 keys with a
    cache.insert(1, forKey: "a", bytes: 100)
    #expect(
      cache.probationKeys == ["x6"] && cache.keysFromOldest == ["x6", "a"], "a, dropped 8 drops ago, is remembered")
    for i in 7..<16 { cache.insert(i, forKey: "x\(i)", bytes: 100) }  // 9 drops
    cache.insert(2, forKey: "b", bytes: 100)
    #expect(cache.probationKeys == ["b"], "b, forgotten after 8 more drops, waits on probation again")
  }

  @Test("an entry larger than the probation is not kept the first time, and in 2Q kept the second")
  func largerThanProbation() {
    let cache = Self.cache(budget: 8, probation: 1, ghost: 4)
    #expect(cache.insert(1, forKey: "big", bytes: 300).stored == false)
    #expect(cache.count == 0)
    #expect(cache.insert(1, forKey: "big", bytes: 300).stored)
    #expect(cache.keysFromOldest == ["big"] && cache.probationKeys.isEmpty)
  }

  @Test("the ghost list holds at most its capacity, forgetting the oldest key first")
  func ghostBounded() {
    var ghost = GhostKeys(capacity: 3)
    for key in ["a", "b", "c", "d"] { ghost.insert(key) }
    #expect(ghost.count == 3)
    #expect(!ghost.contains("a") && ghost.contains("b") && ghost.contains("d"))
    ghost.insert("b")  // a key twice: it stays until its last copy goes
    ghost.insert("e")
    ghost.insert("f")
    #expect(ghost.count == 3 && ghost.contains("b") && !ghost.contains("c"))
    // A cache that saw 100,000 distinct keys once remembers its ghost list's worth.
    let cache = Self.cache(budget: 4, probation: 2, ghost: 4096)
    for i in 0..<100_000 { cache.insert(i, forKey: "k\(i)", bytes: 100) }
    #expect(cache.ghostCount == 4096)
    #expect(cache.count == 2)
    var none = GhostKeys(capacity: 0)
    none.insert("a")
    #expect(none.count == 0 && !none.contains("a"))
  }

  @Test(
    "a segmented cache (keys that are addresses) keeps an entry for good when a lookup finds it on probation, and remembers no key"
  )
  func segmented() {
    let cache = LRUCache<Int, Int>("textures", budgetBytes: 4000, admission: .sources(budgetBytes: 4000))
    #expect(cache.firstUseBytes == 1000)
    cache.insert(1, forKey: 1, bytes: 500)
    cache.insert(2, forKey: 2, bytes: 500)  // drops 1
    cache.insert(1, forKey: 1, bytes: 500)  // an address seen before may be another image's now
    #expect(cache.probationKeys == [1] && cache.keysFromOldest == [1], "on probation again, not kept")
    #expect(cache.value(forKey: 1) == 1 && cache.probationKeys.isEmpty, "a hit keeps it")
    #expect(cache.keysFromOldest == [1])
    #expect(cache.insert(3, forKey: 3, bytes: 1000).stored == false, "over the probation: not kept")
    #expect(cache.insert(3, forKey: 3, bytes: 1000).stored == false, "nor the second time: no key is remembered")
  }

  @Test(
    "ten thousand random operations: the same entries, in the same segments and order, as a model of lists (2Q and segmented)",
    arguments: [true, false])
  func againstAModel(_ twoQueue: Bool) {
    struct Entry {
      var key: Int
      var value: Int
      var charge: Int
    }
    let budget = 6000
    let probationBytes = 1500
    let probationEntries = 5
    let ghostCapacity = twoQueue ? 12 : 0
    let cache = LRUCache<Int, Int>(
      "test", budgetBytes: budget,
      admission: twoQueue
        ? .twoQueue(probationBytes: probationBytes, probationEntries: probationEntries, ghostKeys: ghostCapacity)
        : .segmented(probationBytes: probationBytes, probationEntries: probationEntries))
    var probation: [Entry] = []  // least recently used first
    var protected: [Entry] = []
    var ghost: [Int] = []  // oldest first
    func remember(_ key: Int) {
      guard ghostCapacity > 0 else { return }
      ghost.append(key)
      if ghost.count > ghostCapacity { ghost.removeFirst() }
    }
    var random = SplitMix(state: 35)
    var bothUsed = false
    for step in 0..<10_000 {
      let key = Int(random.next() % 60)
      if random.next() % 3 == 0 {
        let found = cache.value(forKey: key)
        if let at = protected.firstIndex(where: { $0.key == key }) {
          #expect(found == protected[at].value, "step \(step)")
          protected.append(protected.remove(at: at))
        } else if let at = probation.firstIndex(where: { $0.key == key }) {
          #expect(found == probation[at].value, "step \(step)")
          let entry = probation.remove(at: at)
          if twoQueue { probation.append(entry) } else { protected.append(entry) }
        } else {
          #expect(found == nil, "step \(step)")
        }
      } else {
        let bytes = Int(random.next() % 900)
        let entry = Entry(key: key, value: step, charge: bytes + Self.overhead)
        cache.insert(step, forKey: key, bytes: bytes)
        var onProbation: Bool
        if let at = protected.firstIndex(where: { $0.key == key }) {
          protected.remove(at: at)
          onProbation = false
        } else if let at = probation.firstIndex(where: { $0.key == key }) {
          probation.remove(at: at)
          onProbation = true
        } else {
          onProbation = !ghost.contains(key)
        }
        if entry.charge > budget || (onProbation && entry.charge > probationBytes) {
          if onProbation { remember(key) }
          continue
        }
        if onProbation {
          while probation.reduce(0, { $0 + $1.charge }) + entry.charge > probationBytes
            || probation.count >= probationEntries
          {
            remember(probation.removeFirst().key)
          }
        }
        while (probation + protected).reduce(0, { $0 + $1.charge }) + entry.charge > budget {
          if !probation.isEmpty { remember(probation.removeFirst().key) } else { protected.removeFirst() }
        }
        if onProbation { probation.append(entry) } else { protected.append(entry) }
      }
      #expect(cache.bytes <= budget)
      bothUsed = bothUsed || (!protected.isEmpty && !probation.isEmpty)
    }
    #expect(cache.probationKeys == probation.map(\.key))
    #expect(cache.keysFromOldest == (probation + protected).map(\.key))
    #expect(cache.bytes == (probation + protected).reduce(0) { $0 + $1.charge })
    #expect(cache.ghostCount == ghost.count)
    #expect(bothUsed, "both segments held entries at once")
  }
}

/// A batch of distinct scenes (each with its own background, text and place)
/// spends no cache's budget on what it sees once, while what it reuses is kept
/// (issue 35: peak memory grew 1.76x from 2,000 jobs to 20,000).
@Suite("Caches: a batch of distinct scenes")
struct DistinctScenesCacheTests {
  /// Job `k`: a 64x48 pt canvas whose background is `"bg"`, a text and a glass
  /// label of its own at positions of its own.
  static func scene(_ k: Int) throws -> Scene {
    let x = 1 + Double(k % 7) * 0.37
    return try Scene(
      json: Array(
        SceneJSON.scene(
          width: 64, height: 48, scale: 1, background: #"{"image": "bg"}"#,
          layers: #"""
            {"type": "text", "text": "Frame \#(k)", "font": "caption2", "frame": {"x": \#(x), "y": 2}},
            {"type": "glass", "frame": {"x": \#(x + 0.5), "y": 20},
             "content": {"text": "\#(k)", "systemImage": "star.fill", "font": "caption2"}}
            """#
        ).utf8))
  }

  /// Job `k`'s background: an image of its own (its own pixel storage).
  static func background(_ k: Int) -> SceneImages {
    SceneImages(["bg": ProceduralImages.noise(width: 32, height: 24, seed: UInt64(k) + 1)])
  }

  /// Budgets an eighth of the defaults': the distinct scenes below pass each.
  static var budgets: CacheBudgets {
    var budgets = CacheBudgets()
    budgets.textMaskBytes = 256 << 10
    budgets.textLayoutBytes = 64 << 10
    budgets.imageBytes = 1 << 20
    budgets.textureBytes = 2 << 20
    return budgets
  }

  @Test(
    "after 200 distinct scenes, text masks and sources hold at most their probation, a quarter of the budget, and keep none of them for good"
  )
  func distinctScenesStayOnProbation() throws {
    let caches = RenderCaches(budgets: Self.budgets)
    let renderer = try Renderer(backend: .cpu, caches: caches)
    var timings = RenderTimings()
    for k in 0..<200 {
      _ = try renderer.render(try Self.scene(k), images: Self.background(k), timings: &timings)
    }
    let masks = try #require(caches.stats(named: "text masks"))
    let textures = try #require(caches.stats(named: "textures"))
    #expect(masks.bytes <= masks.budgetBytes / 4 && masks.hits == 0, "\(masks)")
    #expect(textures.bytes <= textures.budgetBytes / 4 && textures.hits == 0, "\(textures)")
    #expect(caches.textMasks.keysFromOldest.count == caches.textMasks.probationKeys.count, "none kept for good")
    #expect(masks.evictions > 0 && textures.evictions > 0, "the scenes passed the probation: \(masks), \(textures)")
  }

  @Test(
    "an image every job shows, under labels of their own, is kept from the second job on and hit by every later one")
  func sharedImageKept() throws {
    let caches = RenderCaches(budgets: Self.budgets)
    let renderer = try Renderer(backend: .cpu, caches: caches)
    var timings = RenderTimings()
    let shared = Self.background(0)
    for k in 0..<120 { _ = try renderer.render(try Self.scene(k), images: shared, timings: &timings) }
    let textures = try #require(caches.stats(named: "textures"))
    // The background hit by every job after the first (the labels' masks, sources
    // too, are each job's own).
    #expect(textures.hits == 119, "\(textures)")
    // The glyphs and the icon every label shares are kept too: few misses.
    let glyphs = try #require(caches.stats(named: "glyphs"))
    #expect(glyphs.hits > 10 * glyphs.misses, "\(glyphs)")
  }

  @Test("a scene rendered a second time misses in no cache")
  func warmRenderHits() throws {
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    let scene = try Self.scene(7)
    let images = Self.background(7)
    _ = try renderer.render(scene, images: images, timings: &timings)
    let first = renderer.caches.stats
    _ = try renderer.render(scene, images: images, timings: &timings)
    let second = renderer.caches.stats
    for (a, b) in zip(first, second) {
      #expect(b.misses == a.misses, "\(b.name): \(a) then \(b)")
    }
    // Glyphs and icons are not looked up again: the masks they made are found.
    for name in ["text masks", "text layouts", "textures"] {
      let (a, b) = (first.first { $0.name == name }, second.first { $0.name == name })
      #expect((b?.hits ?? 0) > (a?.hits ?? 0), "\(name) is hit")
    }
  }
}
