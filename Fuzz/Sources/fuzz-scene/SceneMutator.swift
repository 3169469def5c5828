import GLESGlass

// A structure-aware mutator for scene files (libFuzzer's LLVMFuzzerCustomMutator).
// Byte mutations of JSON rarely make a scene that reads: a frame moved below the
// canvas is one well-placed "-" in a thousand bytes. So most mutations parse the
// input, change one to three values in the tree (a number to a boundary of the
// format, to the canvas's edge or just past it, its negative, another number of
// the scene or a step away; a string to a word of the format, and a text or a
// title to another text (scripts, marks, emoji, long words) or an edit of it;
// a member added, removed or copied from elsewhere; an array item duplicated or
// dropped) and write it back compactly. One mutation in three first changes the
// scene's states (SceneMutator.restructure: a scene becomes two states of itself,
// a state's layers are copied over another's, text comes in at one position of
// every state, the transition turns or gets another curve), so that states that
// still pair, with text that moves, recolours and changes, are common; and one in
// three of a scene with a view tree reshapes one of its views (wrapped in a
// stack, given modifiers at the edges of their ranges, made another kind:
// SceneViewMutations.swift). The rest
// are libFuzzer's own byte mutations (which also use the dictionary).

// libFuzzer's byte-level mutator, for inputs that are not JSON and one mutation in four.
@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// A small, seeded generator (SplitMix64): the same seed gives the same mutation.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// libFuzzer calls this to mutate an input (up to `maxSize` bytes) in place; returns the new size.
@_cdecl("LLVMFuzzerCustomMutator")
public func sceneCustomMutator(
  _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32
) -> Int {
  var rng = SplitMix(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  guard Int.random(in: 0..<4, using: &rng) != 0, var value = try? JSONValue.parse(bytes) else {
    return LLVMFuzzerMutate(data, size, maxSize)
  }
  var mutator = SceneMutator(rng: rng, numbers: [], strings: [], subtrees: [], edges: [])
  mutator.collect(value)
  mutator.collectEdges(value)
  var rounds = Int.random(in: 0..<3, using: &mutator.rng)
  if Int.random(in: 0..<3, using: &mutator.rng) == 0, let changed = mutator.restructure(value) {
    value = changed
    rounds -= 1
  }
  // A view of the body reshaped (SceneViewMutations.swift): one in three with a
  // body, one in eight without (a small tree is added).
  let hasBody: Bool
  if case .object(let members) = value { hasBody = members.contains { $0.key == "body" } } else { hasBody = false }
  if Int.random(in: 0..<(hasBody ? 3 : 8), using: &mutator.rng) == 0, let changed = mutator.restructureViews(value) {
    value = changed
    rounds -= 1
  }
  for _ in 0..<max(rounds + 1, 0) {
    let count = SceneMutator.nodeCount(value)
    var target = Int.random(in: 0..<count, using: &mutator.rng)
    value = mutator.mutate(value, target: &target, key: nil)
  }
  let out = Array(value.compactText.utf8)
  guard out.count <= maxSize else { return LLVMFuzzerMutate(data, size, maxSize) }
  for (i, byte) in out.enumerated() { data[i] = byte }
  return out.count
}

/// One mutation of a JSON tree.
struct SceneMutator {
  var rng: SplitMix
  /// Numbers, strings and subtrees of the input, to copy elsewhere.
  var numbers: [Double]
  var strings: [String]
  var subtrees: [JSONValue]
  /// The canvas's edges and values just past them, from the scene's `size`.
  var edges: [Double]

  /// Boundaries of the format's ranges and values that break arithmetic.
  static let interesting: [Double] = [
    0, -0.0, 1, -1, 0.5, -0.5, 0.25, 2, 3, 4, 7, 8, 12, 16, 20, 50, 100, 200, 255, 256, 500, 1000, 2000, 10_000,
    16_383, 16_384, 16_385, 21_845.34, 32_768, 65_535, 65_536, 65_537, -65_536, -65_537, 100_000, 100_001, 1e-9,
    -1e-9, 0.999_999_9, 1.000_000_1, 1e9, -1e9, 1e300, -1e300, 1.5, 0.3333333333333333,
  ]

  mutating func collect(_ value: JSONValue) {
    switch value {
    case .number(let v): numbers.append(v)
    case .string(let s): strings.append(s)
    case .array(let items):
      subtrees.append(value)
      items.forEach { collect($0) }
    case .object(let members):
      subtrees.append(value)
      members.forEach { collect($0.value) }
    default: break
    }
  }

  /// Coordinates at and beyond the canvas's edges, where layers start to fall off it.
  mutating func collectEdges(_ value: JSONValue) {
    guard case .object(let members) = value, let size = members.first(where: { $0.key == "size" })?.value,
      case .object(let sides) = size
    else { return }
    for case (_, .number(let v)) in sides {
      edges += [v, -v, v + 1, v - 1, -v - 1, v + 0.5, v * 2, -v * 2, v / 2]
    }
  }

  static func nodeCount(_ value: JSONValue) -> Int {
    switch value {
    case .array(let items): return 1 + items.reduce(0) { $0 + nodeCount($1) }
    case .object(let members): return 1 + members.reduce(0) { $0 + nodeCount($1.value) }
    default: return 1
    }
  }

  /// Mutates the node numbered `target` in a pre-order walk (counting down);
  /// `key` is the member name the value is under.
  mutating func mutate(_ value: JSONValue, target: inout Int, key: String?) -> JSONValue {
    if target == 0 {
      target = -1
      return change(value, key: key)
    }
    target -= 1
    switch value {
    case .array(var items):
      for i in items.indices where target >= 0 { items[i] = mutate(items[i], target: &target, key: key) }
      return .array(items)
    case .object(var members):
      for i in members.indices where target >= 0 {
        members[i] = (members[i].key, mutate(members[i].value, target: &target, key: members[i].key))
      }
      return .object(members)
    default:
      return value
    }
  }

  mutating func pick<T>(_ items: [T]) -> T? {
    items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &rng)]
  }

  mutating func scalar() -> JSONValue {
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: return .number(pick(Self.interesting) ?? 0)
    case 1: return .number(pick(numbers) ?? 1)
    case 2: return .string(pick(SceneVocabulary.values) ?? "")
    case 3: return .string(pick(strings) ?? "")
    case 4: return .bool(Bool.random(using: &rng))
    default: return pick(subtrees) ?? .null
    }
  }

  mutating func change(_ value: JSONValue, key: String?) -> JSONValue {
    switch value {
    case .number(let v):
      let step = [1, 0.5, 0.25, 1 / 3.0, 8, 100][Int.random(in: 0..<6, using: &rng)]
      let new: Double
      switch Int.random(in: 0..<10, using: &rng) {
      case 8, 9: new = pick(edges) ?? -v
      case 0: new = -v
      case 1: new = v + step
      case 2: new = v - step
      case 3: new = v * 2
      case 4: new = v / 2
      case 5: new = pick(numbers) ?? v
      case 6: new = (pick(numbers) ?? 0) + (pick(numbers) ?? 0)
      default: new = pick(Self.interesting) ?? v
      }
      return .number(new.isFinite ? new : v)
    case .string(let text) where key.map(Self.textKeys.contains) ?? false:
      return .string(edit(text))
    case .string:
      switch Int.random(in: 0..<6, using: &rng) {
      case 0, 1: return .string(pick(strings) ?? "")
      case 2: return .string(pick(Self.texts) ?? "")
      default: return .string(pick(SceneVocabulary.values) ?? "")
      }
    case .bool(let b):
      return Int.random(in: 0..<4, using: &rng) == 0 ? scalar() : .bool(!b)
    case .null:
      return scalar()
    case .array(var items):
      switch Int.random(in: 0..<4, using: &rng) {
      case 0 where !items.isEmpty: items.remove(at: Int.random(in: 0..<items.count, using: &rng))
      case 1 where !items.isEmpty:
        let i = Int.random(in: 0..<items.count, using: &rng)
        items.insert(items[i], at: Int.random(in: 0...items.count, using: &rng))
      case 2 where items.count > 1: items.swapAt(0, Int.random(in: 1..<items.count, using: &rng))
      default: items.append(pick(subtrees) ?? scalar())
      }
      return .array(items)
    case .object(var members):
      switch Int.random(in: 0..<4, using: &rng) {
      case 0 where !members.isEmpty: members.remove(at: Int.random(in: 0..<members.count, using: &rng))
      case 1 where !members.isEmpty:
        let i = Int.random(in: 0..<members.count, using: &rng)
        members[i].value = scalar()
      default:
        let key = pick(SceneVocabulary.keys) ?? "x"
        members.removeAll { $0.key == key }
        members.insert((key, scalar()), at: Int.random(in: 0...members.count, using: &rng))
      }
      return .object(members)
    }
  }
}
