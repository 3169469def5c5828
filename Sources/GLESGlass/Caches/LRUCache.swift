import Foundation

/// What a cache holds and has done: the numbers the batch's report and
/// `--timings` print for each of a renderer's caches.
public struct CacheStats: Sendable, Equatable {
  /// The cache's name: `fonts`, `font matches`, `glyphs`, `text masks`, `icons`,
  /// `images` or `textures`.
  public var name: String
  /// Entries held now.
  public var entries: Int
  /// Bytes held now, each entry charged its payload plus `LRUCache.entryOverhead`.
  public var bytes: Int
  /// The most bytes it holds.
  public var budgetBytes: Int
  /// Entries dropped to make room, least recently used first.
  public var evictions: Int
  /// Lookups that found an entry.
  public var hits: Int
  /// Lookups that did not.
  public var misses: Int

  /// The numbers as one JSON object (without the name).
  var json: JSONValue {
    .object([
      ("entries", .number(Double(entries))), ("bytes", .number(Double(bytes))),
      ("budget_bytes", .number(Double(budgetBytes))), ("evictions", .number(Double(evictions))),
      ("hits", .number(Double(hits))), ("misses", .number(Double(misses))),
    ])
  }

  /// Every cache of `stats` by name, as one JSON object (`{"fonts": {...}, ...}`).
  public static func json(_ stats: [CacheStats]) -> String {
    JSONValue.object(stats.map { ($0.name, $0.json) }).compactText
  }
}

/// What a cache keeps of what it is given (`LRUCache`): everything, or, on
/// second use, what comes back. A new entry then waits on probation, a segment
/// of at most `probationBytes` and `probationEntries` of the budget, least
/// recently used out first; the rest of the budget is the protected segment,
/// for what was used twice:
///
///                 new key                     key in the ghost list
///     insert ---------------> probation       -------------------> protected
///                               |    ^                                 ^
///      twoQueue: a hit          |    | (a hit stays)                   |
///      refreshes it on          |    +---------                        |
///      probation                | dropped unused: its key's            |
///                               v hash to the ghost list               |
///      segmented: a hit moves it to protected ---------------------------+
///
/// So a run of distinct work (a batch whose every job has its own image and
/// label) cycles through probation, whose size it reaches within
/// `probationEntries` entries, and never displaces what is reused: memory
/// stops growing with the job count. A scene rendered twice hits the second
/// time (its entries are on probation).
enum CacheAdmission: Sendable, Hashable {
  /// Every entry is stored as the most recently used: a plain LRU.
  case everything
  /// 2Q (Johnson and Shasha, "2Q: a low overhead high performance buffer
  /// management replacement algorithm", VLDB 1994), its first queue an LRU: a
  /// hit on probation keeps the entry there (one job's several lookups of one
  /// text are one use, 2Q's correlated references); an entry dropped from
  /// probation leaves its key's hash in a FIFO of `ghostKeys`, and an insert of
  /// a key found there goes to protected. For keys that name content.
  case twoQueue(probationBytes: Int, probationEntries: Int, ghostKeys: Int)
  /// Segmented LRU (Karedla, Love and Wherry, "Caching strategies to improve
  /// disk system performance", IEEE Computer 1994): a hit on probation moves the
  /// entry to protected; no key is remembered. For keys that are addresses (a
  /// backend's kept sources, by their image's storage), which a dropped image's
  /// successor soon reuses: a ghost list would take it for a second use.
  case segmented(probationBytes: Int, probationEntries: Int)

  /// Entries on probation at most.
  static let probationEntries = 1024
  /// Keys the ghost list remembers: enough for what a few thousand jobs drop.
  static let ghostKeys = 4096

  /// The admission of a cache of `budgetBytes` keyed by content: 2Q with a
  /// quarter of the budget and 1024 entries on probation, 4096 keys remembered.
  static func secondUse(budgetBytes: Int) -> CacheAdmission {
    .twoQueue(probationBytes: max(0, budgetBytes) / 4, probationEntries: probationEntries, ghostKeys: ghostKeys)
  }

  /// The admission of a backend's kept sources: a segmented LRU with a quarter
  /// of the budget and 1024 entries on probation.
  static func sources(budgetBytes: Int) -> CacheAdmission {
    .segmented(probationBytes: max(0, budgetBytes) / 4, probationEntries: probationEntries)
  }

  /// The probation's bytes and entries; nil when everything is admitted.
  var probation: (bytes: Int, entries: Int)? {
    switch self {
    case .everything: nil
    case .twoQueue(let bytes, let entries, _), .segmented(let bytes, let entries): (bytes, entries)
    }
  }
}

/// A map from keys to values that holds at most `budgetBytes`, dropping the least
/// recently used entries to make room: the one cache type of the renderer's caches
/// (`RenderCaches`). Each entry is charged the bytes its owner names plus
/// `entryOverhead` (the key, the slot), so that a cache of small entries is bounded
/// too. A lookup or an insert makes an entry the most recently used of its
/// segment. What it admits is its `admission`'s rule: by default 2Q, a new
/// entry waiting on probation and kept for good when it comes back
/// (`CacheAdmission`). Every method takes the cache's lock: it can be shared by
/// threads.
///
/// Each segment's entries form a doubly linked list through their slots, newest
/// first, so a lookup, an insert and an eviction each cost O(1).
final class LRUCache<Key: Hashable, Value>: @unchecked Sendable {
  /// Bytes charged to each entry beyond its payload: a dictionary slot, a list
  /// node and a small key.
  static var entryOverhead: Int { 64 }

  private struct Node {
    var key: Key
    var value: Value
    var bytes: Int
    var segment: Segment
    /// The next older and next newer entry's slot in its segment, or -1.
    var older: Int
    var newer: Int
  }

  /// Which list an entry is in.
  private enum Segment: Int {
    case probation = 0
    case protected = 1
  }

  /// One segment's list, its bytes and its count.
  private struct Ends {
    var newest = -1
    var oldest = -1
    var bytes = 0
    var count = 0
  }

  /// The cache's name in its stats.
  let name: String
  /// The most bytes held.
  let budgetBytes: Int
  /// What it admits.
  let admission: CacheAdmission
  private let lock = NSLock()
  private var slots: [Node?] = []
  private var freeSlots: [Int] = []
  private var index: [Key: Int] = [:]
  private var ends = [Ends(), Ends()]
  private var ghost = GhostKeys(capacity: 0)
  private var evictions = 0
  private var hits = 0
  private var misses = 0

  /// An empty cache of at most `budgetBytes` (0 or less: it keeps nothing) that
  /// admits by `admission` (default: on second use, `CacheAdmission.secondUse`).
  init(_ name: String, budgetBytes: Int, admission: CacheAdmission? = nil) {
    self.name = name
    self.budgetBytes = max(0, budgetBytes)
    let admission = admission ?? .secondUse(budgetBytes: budgetBytes)
    self.admission = admission
    if case .twoQueue(_, _, let ghostKeys) = admission { ghost = GhostKeys(capacity: ghostKeys) }
  }

  /// The most bytes (payload and `entryOverhead`) an entry seen for the first
  /// time may be charged and be kept: the probation's size, or the budget.
  var firstUseBytes: Int {
    min(budgetBytes, admission.probation?.bytes ?? budgetBytes)
  }

  /// The value of `key`, now the most recently used of its segment (in a
  /// segmented cache, an entry on probation moves to protected: its second use);
  /// nil (a miss) when absent.
  func value(forKey key: Key) -> Value? {
    lock.withLock {
      guard let slot = index[key], let node = slots[slot] else {
        misses += 1
        return nil
      }
      hits += 1
      use(slot)
      return node.value
    }
  }

  /// Whether `key` has an entry; neither a hit nor a miss, and no use.
  func contains(_ key: Key) -> Bool {
    lock.withLock { index[key] != nil }
  }

  /// Stores `value` under `key` charged `bytes` (plus `entryOverhead`), as the most
  /// recently used of its segment: where the key's old entry was, else protected
  /// when the admission admits everything or the ghost list knows the key, else on
  /// probation. Makes room by dropping the least recently used entries (probation's
  /// first, then protected's) while `canEvict` allows the oldest one to go. Returns
  /// whether it was stored (not when it alone is over what its segment may hold,
  /// or when the entries it may not evict leave no room) and the values evicted,
  /// for an owner that must free what they hold.
  @discardableResult
  func insert(
    _ value: Value, forKey key: Key, bytes: Int, canEvict: (Value) -> Bool = { _ in true }
  ) -> (stored: Bool, evicted: [Value]) {
    lock.withLock { store(value, forKey: key, bytes: bytes, canEvict: canEvict) }
  }

  /// The value of `key`, or `make()`'s, stored charged `bytes(value)`. `make` runs
  /// outside the lock (opening a font takes a while); when another thread stored
  /// the key meanwhile, its value is the one returned, so that every caller
  /// shares one value.
  func value(forKey key: Key, bytes: (Value) -> Int, make: () throws -> Value) rethrows -> Value {
    if let hit = value(forKey: key) { return hit }
    let made = try make()
    let charge = bytes(made)
    // What is evicted is let go of after the lock: a value's deinit may take
    // another lock (a font face's, FreeType's).
    let (value, evicted): (Value, [Value]) = lock.withLock {
      if let slot = index[key], let node = slots[slot] {
        use(slot)
        return (node.value, [])
      }
      return (made, store(made, forKey: key, bytes: charge, canEvict: { _ in true }).evicted)
    }
    withExtendedLifetime(evicted) {}
    return value
  }

  /// Removes the entry of `key`, returning its value (not an eviction).
  @discardableResult
  func removeValue(forKey key: Key) -> Value? {
    lock.withLock {
      guard let slot = index[key], let node = slots[slot] else { return nil }
      remove(slot)
      return node.value
    }
  }

  /// Removes every entry, returning their values (not evictions), and forgets
  /// the keys it remembered.
  @discardableResult
  func removeAll() -> [Value] {
    lock.withLock {
      let values = slots.compactMap { $0?.value }
      slots.removeAll()
      freeSlots.removeAll()
      index.removeAll()
      ends = [Ends(), Ends()]
      ghost.removeAll()
      return values
    }
  }

  /// The keys in the order they would be dropped: those on probation from the
  /// least recently used to the most, then the protected ones likewise (for tests).
  var keysFromOldest: [Key] {
    lock.withLock {
      var keys: [Key] = []
      for segment in [Segment.probation, .protected] {
        var slot = ends[segment.rawValue].oldest
        while slot >= 0, let node = slots[slot] {
          keys.append(node.key)
          slot = node.newer
        }
      }
      return keys
    }
  }

  /// The keys on probation, oldest first (for tests).
  var probationKeys: [Key] {
    lock.withLock {
      var keys: [Key] = []
      var slot = ends[Segment.probation.rawValue].oldest
      while slot >= 0, let node = slots[slot] {
        keys.append(node.key)
        slot = node.newer
      }
      return keys
    }
  }

  /// Keys' hashes the ghost list holds now (for tests: at most its capacity).
  var ghostCount: Int { lock.withLock { ghost.count } }

  /// Entries held now.
  var count: Int { lock.withLock { index.count } }

  /// Bytes held now.
  var bytes: Int { lock.withLock { ends[0].bytes + ends[1].bytes } }

  /// What it holds and has done.
  var stats: CacheStats {
    lock.withLock {
      CacheStats(
        name: name, entries: index.count, bytes: ends[0].bytes + ends[1].bytes, budgetBytes: budgetBytes,
        evictions: evictions, hits: hits, misses: misses)
    }
  }

  // MARK: The lists; the lock is held.

  /// `insert` with the lock held.
  private func store(
    _ value: Value, forKey key: Key, bytes: Int, canEvict: (Value) -> Bool
  ) -> (stored: Bool, evicted: [Value]) {
    let charge = max(0, bytes) + Self.entryOverhead
    var segment = Segment.protected
    if let slot = index[key], let old = slots[slot] {
      segment = old.segment
      remove(slot)
    } else if admission.probation != nil, !ghost.contains(key) {
      segment = .probation
    }
    let probation = segment == .probation ? admission.probation ?? (.max, .max) : (bytes: Int.max, entries: Int.max)
    var evicted: [Value] = []
    guard charge <= budgetBytes, segment == .protected || charge <= probation.bytes, probation.entries > 0 else {
      // Seen now, kept on its next use.
      if segment == .probation { ghost.insert(key) }
      return (false, evicted)
    }
    /// Drops the oldest entry of `from` when the owner allows; false when it does not.
    func dropOldest(_ from: Segment) -> Bool {
      let oldest = ends[from.rawValue].oldest
      guard oldest >= 0, let node = slots[oldest], canEvict(node.value) else { return false }
      evicted.append(node.value)
      remove(oldest)
      evictions += 1
      if from == .probation { ghost.insert(node.key) }
      return true
    }
    if segment == .probation {
      let p = Segment.probation.rawValue
      while ends[p].bytes + charge > probation.bytes || ends[p].count >= probation.entries {
        guard dropOldest(.probation) else { return (false, evicted) }
      }
    }
    while ends[0].bytes + ends[1].bytes + charge > budgetBytes {
      guard dropOldest(.probation) || dropOldest(.protected) else { return (false, evicted) }
    }
    let slot: Int
    let node = Node(key: key, value: value, bytes: charge, segment: segment, older: -1, newer: -1)
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = node
    } else {
      slot = slots.count
      slots.append(node)
    }
    link(slot, segment)
    index[key] = slot
    return (true, evicted)
  }

  /// Makes the entry at `slot` the newest of its segment; in a segmented cache,
  /// one on probation the newest protected (its second use).
  private func use(_ slot: Int) {
    guard let node = slots[slot] else { return }
    var segment = node.segment
    if case .segmented = admission { segment = .protected }
    unlink(slot)
    link(slot, segment)
  }

  /// Appends the unlinked entry at `slot` to `segment` as its newest.
  private func link(_ slot: Int, _ segment: Segment) {
    guard var node = slots[slot] else { return }
    let s = segment.rawValue
    node.segment = segment
    node.older = ends[s].newest
    node.newer = -1
    slots[slot] = node
    if ends[s].newest >= 0 { slots[ends[s].newest]?.newer = slot }
    ends[s].newest = slot
    if ends[s].oldest < 0 { ends[s].oldest = slot }
    ends[s].bytes += node.bytes
    ends[s].count += 1
  }

  /// Takes the entry at `slot` out of its segment's list (its bytes and count too).
  private func unlink(_ slot: Int) {
    guard let node = slots[slot] else { return }
    let s = node.segment.rawValue
    if node.older >= 0 { slots[node.older]?.newer = node.newer } else { ends[s].oldest = node.newer }
    if node.newer >= 0 { slots[node.newer]?.older = node.older } else { ends[s].newest = node.older }
    ends[s].bytes -= node.bytes
    ends[s].count -= 1
  }

  /// Unlinks the entry at `slot` and frees the slot.
  private func remove(_ slot: Int) {
    guard let node = slots[slot] else { return }
    unlink(slot)
    slots[slot] = nil
    freeSlots.append(slot)
    index[node.key] = nil
  }
}

/// The hashes of the last `capacity` keys dropped from probation unused, oldest
/// out first: a hash held is a key seen before (a collision only admits an entry
/// early). At most `capacity` hashes, about 24 bytes each.
struct GhostKeys {
  private var ring: [Int] = []
  private var next = 0
  private var counts: [Int: Int] = [:]
  let capacity: Int

  init(capacity: Int) { self.capacity = max(0, capacity) }

  /// Hashes held now.
  var count: Int { ring.count }

  func contains<Key: Hashable>(_ key: Key) -> Bool { counts[key.hashValue] != nil }

  /// Remembers `key`, forgetting the oldest when full.
  mutating func insert<Key: Hashable>(_ key: Key) {
    guard capacity > 0 else { return }
    let hash = key.hashValue
    if ring.count < capacity {
      ring.append(hash)
    } else {
      let old = ring[next]
      if let n = counts[old] { counts[old] = n > 1 ? n - 1 : nil }
      ring[next] = hash
      next = (next + 1) % capacity
    }
    counts[hash, default: 0] += 1
  }

  mutating func removeAll() {
    ring.removeAll()
    counts.removeAll()
    next = 0
  }
}
