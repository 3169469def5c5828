import GLESGlass

// The mutator's view trees (SceneMutator.swift says when each runs). Byte and
// value mutations keep a tree's shape; layout's traps hide in shapes: a view
// wrapped in long modifier chains, negative padding larger than the view,
// contradictory or zero frames, spacers in overlays, nested stacks, glass on
// many views at once. So one mutation in three of a scene with a `body` (and one
// in eight of a scene without, which gets a small tree first) picks a view of
// the tree and wraps it in a stack with copies of itself, gives it one to four
// modifiers from the format's vocabulary with values at the edges of their
// ranges, or swaps its kind for another view kind.

extension SceneMutator {
  /// The view kinds the format has (`type`), leaves and containers.
  static let leafKinds = [
    "text", "spacer", "color", "rectangle", "capsule", "circle", "ellipse", "image", "label", "button", "textField",
    "roundedRectangle", "concentricRectangle",
  ]

  /// Lengths at the edges of layout: zero, tiny, negative beyond a view's size,
  /// fractional, the format's bounds.
  static let lengths: [Double] = [
    0, -0.0, 0.25, 0.5, 1, 8, 16, 44, 100, 390, -1, -8, -20, -100, -1000, 65_536, -65_536, 1e-9, 1 / 3.0,
  ]

  /// A modifier of the format (`{"name": value}`), its value drawn from `lengths`
  /// and the format's words.
  mutating func modifier() -> JSONValue {
    func length() -> JSONValue { .number(pick(Self.lengths) ?? 0) }
    func alignment() -> JSONValue {
      .string(pick(["center", "topLeading", "bottomTrailing", "leading", "top", "trailing", "bottom"]) ?? "center")
    }
    let value: (String, JSONValue)
    switch Int.random(in: 0..<16, using: &rng) {
    case 0: value = ("padding", length())
    case 1:
      value = (
        "padding",
        .object([("top", length()), ("leading", length()), ("bottom", length()), ("trailing", length())])
      )
    case 2: value = ("frame", .object([("width", .number(abs(pick(Self.lengths) ?? 0))), ("height", length())]))
    case 3:
      value = (
        "frame",
        .object([
          ("minWidth", .number(abs(pick(Self.lengths) ?? 0))),
          ("maxWidth", Bool.random(using: &rng) ? .string("infinity") : .number(abs(pick(Self.lengths) ?? 0))),
          ("minHeight", .number(abs(pick(Self.lengths) ?? 0))), ("alignment", alignment()),
        ])
      )
    case 4: value = ("fixedSize", .bool(Bool.random(using: &rng)))
    case 5: value = ("layoutPriority", .number(pick([-1, 0, 1, 2, 1e6, -1e6]) ?? 1))
    case 6: value = ("offset", .object([("x", length()), ("y", length())]))
    case 7:
      value = (
        "aspectRatio",
        .object([
          ("ratio", .number(pick([0.001, 0.5, 1, 1.5, 16 / 9.0, 100_000]) ?? 1)),
          ("contentMode", .string(Bool.random(using: &rng) ? "fit" : "fill")),
        ])
      )
    case 8: value = (Bool.random(using: &rng) ? "scaledToFit" : "scaledToFill", .bool(true))
    case 9: value = ("overlay", .object([("content", leaf()), ("alignment", alignment())]))
    case 10: value = ("background", .object([("content", leaf()), ("alignment", alignment())]))
    case 11: value = ("glassEffect", .bool(true))
    case 12: value = ("ignoresSafeArea", .bool(true))
    case 13: value = ("glassEffectID", .string(pick(["a", "b", "c"]) ?? "a"))
    case 14: value = ("lineLimit", .number(pick([1, 2, 100_000]) ?? 1))
    default: value = ("clipShape", .string(pick(["capsule", "circle", "rect"]) ?? "rect"))
    }
    return .object([value])
  }

  /// A small leaf view.
  mutating func leaf() -> JSONValue {
    let kind = pick(Self.leafKinds) ?? "color"
    switch kind {
    case "text": return .object([("type", .string(kind)), ("text", .string(pick(Self.texts) ?? "A"))])
    case "label":
      return .object([("type", .string(kind)), ("title", .string("Go")), ("systemImage", .string("star.fill"))])
    case "button": return .object([("type", .string(kind)), ("title", .string(pick(Self.texts) ?? "Go"))])
    case "textField": return .object([("type", .string(kind)), ("placeholder", .string("Name"))])
    case "image": return .object([("type", .string(kind)), ("systemName", .string("star.fill"))])
    case "color":
      return .object([("type", .string(kind)), ("color", .string(pick(["red", "blue", "#0008"]) ?? "red"))])
    case "roundedRectangle": return .object([("type", .string(kind)), ("cornerRadius", .number(12))])
    case "spacer":
      return Bool.random(using: &rng)
        ? .object([("type", .string(kind))])
        : .object([("type", .string(kind)), ("minLength", .number(abs(pick(Self.lengths) ?? 0)))])
    default: return .object([("type", .string(kind))])
    }
  }

  /// A small tree: a stack of a few leaves, one with modifiers.
  mutating func smallTree() -> JSONValue {
    var children: [JSONValue] = []
    for _ in 0..<Int.random(in: 1...4, using: &rng) { children.append(leaf()) }
    if var first = children.first, case .object(var members) = first {
      members.append(("modifiers", .array([modifier()])))
      first = .object(members)
      children[0] = first
    }
    return .object([
      ("type", .string(pick(["vstack", "hstack", "zstack", "glassEffectContainer"]) ?? "vstack")),
      ("children", .array(children)),
    ])
  }

  /// True when `value` is a view object (it has a string `type` of a view kind).
  static func isView(_ value: JSONValue) -> Bool {
    guard case .object(let members) = value, case .string(let kind)? = members.first(where: { $0.key == "type" })?.value
    else { return false }
    return leafKinds.contains(kind) || ["vstack", "hstack", "zstack", "group", "glassEffectContainer"].contains(kind)
  }

  /// How many views a tree holds (pre-order, as `changeView` counts).
  static func viewCount(_ value: JSONValue) -> Int {
    switch value {
    case .array(let items): return items.reduce(0) { $0 + viewCount($1) }
    case .object(let members): return (isView(value) ? 1 : 0) + members.reduce(0) { $0 + viewCount($1.value) }
    default: return 0
    }
  }

  /// The scene with one view of its `body` changed (a tree added first when it
  /// has none), or nil when the input is no scene object.
  mutating func restructureViews(_ scene: JSONValue) -> JSONValue? {
    guard case .object(var members) = scene else { return nil }
    guard let index = members.firstIndex(where: { $0.key == "body" }) else {
      members.append(("body", smallTree()))
      return .object(members)
    }
    let count = Self.viewCount(members[index].value)
    guard count > 0 else {
      members[index].value = smallTree()
      return .object(members)
    }
    var target = Int.random(in: 0..<count, using: &rng)
    members[index].value = changeView(members[index].value, target: &target)
    return .object(members)
  }

  /// Changes the view numbered `target` in a pre-order walk over views (counting down).
  mutating func changeView(_ value: JSONValue, target: inout Int) -> JSONValue {
    if Self.isView(value) {
      if target == 0 {
        target = -1
        return reshape(value)
      }
      target -= 1
    }
    switch value {
    case .array(var items):
      for i in items.indices where target >= 0 { items[i] = changeView(items[i], target: &target) }
      return .array(items)
    case .object(var members):
      for i in members.indices where target >= 0 {
        members[i] = (members[i].key, changeView(members[i].value, target: &target))
      }
      return .object(members)
    default:
      return value
    }
  }

  /// One change of a view: wrapped in a stack with copies of itself, given
  /// modifiers (a long chain one time in eight), or made another kind.
  mutating func reshape(_ view: JSONValue) -> JSONValue {
    guard case .object(var members) = view else { return view }
    switch Int.random(in: 0..<8, using: &rng) {
    case 0, 1:
      var children = [view]
      for _ in 0..<Int.random(in: 0...2, using: &rng) {
        children.insert(Bool.random(using: &rng) ? view : leaf(), at: Int.random(in: 0...children.count, using: &rng))
      }
      return .object([
        ("type", .string(pick(["vstack", "hstack", "zstack", "group", "glassEffectContainer"]) ?? "vstack")),
        ("children", .array(children)),
      ])
    case 2:
      // A long chain: layout's depth limit and every modifier's pass-through.
      var chain: [JSONValue] = []
      for _ in 0..<Int.random(in: 8...80, using: &rng) { chain.append(modifier()) }
      members.removeAll { $0.key == "modifiers" }
      members.append(("modifiers", .array(chain)))
      return .object(members)
    case 3:
      return leaf()
    default:
      var chain: [JSONValue] = []
      if let i = members.firstIndex(where: { $0.key == "modifiers" }), case .array(let items) = members[i].value {
        chain = items
        members.remove(at: i)
      }
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        chain.insert(modifier(), at: Int.random(in: 0...chain.count, using: &rng))
      }
      members.append(("modifiers", .array(chain)))
      return .object(members)
    }
  }
}
