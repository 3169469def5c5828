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

/// A map from keys to values that holds at most `budgetBytes`, dropping the least
/// recently used entries to make room: the one cache type of the renderer's caches
/// (`RenderCaches`). Each entry is charged the bytes its owner names plus
/// `entryOverhead` (the key, the slot), so that a cache of small entries is bounded
/// too. A lookup or an insert makes an entry the most recently used. Every method
/// takes the cache's lock: it can be shared by threads.
///
/// The entries form a doubly linked list through their slots, newest first, so a
/// lookup, an insert and an eviction each cost O(1).
final class LRUCache<Key: Hashable, Value>: @unchecked Sendable {
  /// Bytes charged to each entry beyond its payload: a dictionary slot, a list
  /// node and a small key.
  static var entryOverhead: Int { 64 }

  private struct Node {
    var key: Key
    var value: Value
    var bytes: Int
    /// The next older and next newer entry's slot, or -1.
    var older: Int
    var newer: Int
  }

  /// The cache's name in its stats.
  let name: String
  /// The most bytes held.
  let budgetBytes: Int
  private let lock = NSLock()
  private var slots: [Node?] = []
  private var freeSlots: [Int] = []
  private var index: [Key: Int] = [:]
  private var newest = -1
  private var oldest = -1
  private var heldBytes = 0
  private var evictions = 0
  private var hits = 0
  private var misses = 0

  /// An empty cache of at most `budgetBytes` (0 or less: it keeps nothing).
  init(_ name: String, budgetBytes: Int) {
    self.name = name
    self.budgetBytes = max(0, budgetBytes)
  }

  /// The value of `key`, now the most recently used; nil (a miss) when absent.
  func value(forKey key: Key) -> Value? {
    lock.withLock {
      guard let slot = index[key], let node = slots[slot] else {
        misses += 1
        return nil
      }
      hits += 1
      touch(slot)
      return node.value
    }
  }

  /// Whether `key` has an entry; neither a hit nor a miss, and no use.
  func contains(_ key: Key) -> Bool {
    lock.withLock { index[key] != nil }
  }

  /// Stores `value` under `key` charged `bytes` (plus `entryOverhead`), as the most
  /// recently used, replacing the key's old entry. Makes room by dropping the least
  /// recently used entries while `canEvict` allows the oldest one to go. Returns
  /// whether it was stored (not when it alone is over the budget, or when the
  /// entries it may not evict leave no room) and the values evicted, for an owner
  /// that must free what they hold.
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
        touch(slot)
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

  /// Removes every entry, returning their values (not evictions).
  @discardableResult
  func removeAll() -> [Value] {
    lock.withLock {
      let values = slots.compactMap { $0?.value }
      slots.removeAll()
      freeSlots.removeAll()
      index.removeAll()
      newest = -1
      oldest = -1
      heldBytes = 0
      return values
    }
  }

  /// The keys from the least recently used to the most (for tests).
  var keysFromOldest: [Key] {
    lock.withLock {
      var keys: [Key] = []
      var slot = oldest
      while slot >= 0, let node = slots[slot] {
        keys.append(node.key)
        slot = node.newer
      }
      return keys
    }
  }

  /// Entries held now.
  var count: Int { lock.withLock { index.count } }

  /// Bytes held now.
  var bytes: Int { lock.withLock { heldBytes } }

  /// What it holds and has done.
  var stats: CacheStats {
    lock.withLock {
      CacheStats(
        name: name, entries: index.count, bytes: heldBytes, budgetBytes: budgetBytes, evictions: evictions,
        hits: hits, misses: misses)
    }
  }

  // MARK: The list; the lock is held.

  /// `insert` with the lock held.
  private func store(
    _ value: Value, forKey key: Key, bytes: Int, canEvict: (Value) -> Bool
  ) -> (stored: Bool, evicted: [Value]) {
    let charge = max(0, bytes) + Self.entryOverhead
    if let slot = index[key] { remove(slot) }
    guard charge <= budgetBytes else { return (false, []) }
    var evicted: [Value] = []
    while heldBytes + charge > budgetBytes, oldest >= 0, let node = slots[oldest], canEvict(node.value) {
      evicted.append(node.value)
      remove(oldest)
      evictions += 1
    }
    guard heldBytes + charge <= budgetBytes else { return (false, evicted) }
    let slot: Int
    let node = Node(key: key, value: value, bytes: charge, older: newest, newer: -1)
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = node
    } else {
      slot = slots.count
      slots.append(node)
    }
    if newest >= 0 { slots[newest]?.newer = slot }
    newest = slot
    if oldest < 0 { oldest = slot }
    index[key] = slot
    heldBytes += charge
    return (true, evicted)
  }

  /// Unlinks the entry at `slot` and frees the slot.
  private func remove(_ slot: Int) {
    guard let node = slots[slot] else { return }
    if node.older >= 0 { slots[node.older]?.newer = node.newer } else { oldest = node.newer }
    if node.newer >= 0 { slots[node.newer]?.older = node.older } else { newest = node.older }
    slots[slot] = nil
    freeSlots.append(slot)
    index[node.key] = nil
    heldBytes -= node.bytes
  }

  /// Makes the entry at `slot` the newest.
  private func touch(_ slot: Int) {
    guard slot != newest, var node = slots[slot] else { return }
    if node.older >= 0 { slots[node.older]?.newer = node.newer } else { oldest = node.newer }
    if node.newer >= 0 { slots[node.newer]?.older = node.older }
    node.older = newest
    node.newer = -1
    slots[slot] = node
    if newest >= 0 { slots[newest]?.newer = slot }
    newest = slot
  }
}
