import GLESGlass

// The mutator's text and states (SceneMutator.swift says when each runs): texts
// that stress shaping, wrapping and fallback fonts, edits of a text, and changes
// of a scene's states that keep them pairing, so that most mutated scenes with
// states still validate and reach the render path with text in both states.

extension SceneMutator {
  /// Members whose string is text drawn (a text's, a button's title).
  static let textKeys: Set<String> = ["text", "title"]

  /// Texts: short words that differ ("Show", "Hide"), ligatures and kerning pairs,
  /// new lines, right-to-left and complex scripts, combining marks, emoji
  /// sequences, invisible and control characters, a character no font has, and
  /// long words and paragraphs that wrap and truncate.
  static let texts: [String] = [
    "", " ", "Show", "Hide", "Go", "Done", "Frame 1", "Frame 12", "AV fi ffl To", "a\nb", "\n", "a\n\n\nb",
    "one two three four five six seven", "שלום עולם", "مرحبا بالعالم", "नमस्ते दुनिया", "漢字かなカナ", "ภาษาไทย",
    "e\u{301}\u{302}\u{303}", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈 flag", "\u{200D}", "\u{200F}abc", "\u{FEFF}", "\u{00AD}", "…", "\t",
    "\u{1}", "\u{FFFD}", "\u{10FFFF}", "\u{E000}", "ﷺ", "a\u{0300}\u{0300}\u{0300}\u{0300}\u{0300}\u{0300}",
    String(repeating: "W", count: 300), String(repeating: "ab ", count: 200), String(repeating: "مرحبا", count: 60),
  ]

  /// Animations: every named curve, springs near the bounces' limits, a curve that
  /// overshoots. Made at each use: a global of JSONValue (an indirect enum, its
  /// boxes' pointers in spare bits) reads as a leak to LeakSanitizer.
  static var animations: [JSONValue] {
    [
      .string("smooth"), .string("snappy"), .string("bouncy"), .string("spring"), .string("easeIn"),
      .string("easeOut"), .string("easeInOut"), .string("linear"),
      .object([("type", .string("spring")), ("duration", .number(0.5)), ("bounce", .number(0.9))]),
      .object([("type", .string("spring")), ("duration", .number(0.2)), ("bounce", .number(-0.9))]),
      .object([
        ("type", .string("timingCurve")), ("x1", .number(0.3)), ("y1", .number(-1.5)), ("x2", .number(0.7)),
        ("y2", .number(2.5)), ("duration", .number(0.4)),
      ]),
      .object([("type", .string("linear")), ("duration", .number(0.001))]),
    ]
  }

  /// `text` edited: another text, a text appended or inserted, cut, or doubled.
  mutating func edit(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    let other = pick(Self.texts) ?? ""
    switch Int.random(in: 0..<6, using: &rng) {
    case 0, 1: return other
    case 2: return text + other
    case 3:
      let at = Int.random(in: 0...scalars.count, using: &rng)
      var edited = scalars
      edited.insert(contentsOf: other.unicodeScalars, at: at)
      return String(String.UnicodeScalarView(edited))
    case 4: return String(String.UnicodeScalarView(scalars.prefix(scalars.count / 2)))
    default: return scalars.count < 2000 ? text + " " + text : text
    }
  }

  /// A change of the scene's states, or nil when the input is no scene object:
  /// - without states: the scene becomes two states of its layers and a transition;
  /// - a state's layers copied over another's (a new state when there is one);
  /// - a text layer, a label, a button or glass with text added at one position
  ///   of every state, each state's with its own string, place and colour;
  /// - the transition turned round, or given another curve.
  mutating func restructure(_ value: JSONValue) -> JSONValue? {
    guard case .object(var scene) = value else { return nil }
    guard case .object(var states)? = member(scene, "states"), !states.isEmpty else {
      guard let layers = member(scene, "layers") else { return nil }
      let state = JSONValue.object([("layers", layers)])
      set(&scene, "states", .object([("a", state), ("b", state)]))
      set(&scene, "transition", transition(from: "a", to: "b"))
      if Bool.random(using: &rng) { scene.removeAll { $0.key == "layers" } }
      return .object(scene)
    }
    switch Int.random(in: 0..<4, using: &rng) {
    case 0:
      let from = Int.random(in: 0..<states.count, using: &rng)
      if states.count == 1 {
        states.append((states[0].key + "2", states[from].value))
        set(&scene, "transition", transition(from: states[0].key, to: states[1].key))
      } else {
        states[Int.random(in: 0..<states.count, using: &rng)].value = states[from].value
      }
    case 1:
      let layer = textLayer()
      let index = Int.random(in: 0..<8, using: &rng)
      for i in states.indices {
        guard case .object(var state) = states[i].value, case .array(var layers)? = member(state, "layers") else {
          continue
        }
        layers.insert(vary(layer), at: min(index, layers.count))
        set(&state, "layers", .array(layers))
        states[i].value = .object(state)
      }
    case 2:
      guard case .object(var t)? = member(scene, "transition"), let from = member(t, "from"), let to = member(t, "to")
      else {
        let names = states.map(\.key)
        set(&scene, "transition", transition(from: names[0], to: names[names.count > 1 ? 1 : 0]))
        break
      }
      set(&t, "from", to)
      set(&t, "to", from)
      set(&scene, "transition", .object(t))
    default:
      let names = states.map(\.key)
      let from = pick(names) ?? "a"
      set(&scene, "transition", transition(from: from, to: pick(names) ?? from))
    }
    set(&scene, "states", .object(states))
    return .object(scene)
  }

  /// A transition between two states with a curve of `animations`.
  mutating func transition(from: String, to: String) -> JSONValue {
    .object([("from", .string(from)), ("to", .string(to)), ("animation", pick(Self.animations) ?? .string("smooth"))])
  }

  /// A layer that draws text: a text, a label, a button, or glass, a material or a
  /// shape with text content; sized to fit or in a frame that wraps.
  mutating func textLayer() -> JSONValue {
    let text = JSONValue.string(pick(Self.texts) ?? "Go")
    let frame = JSONValue.object(
      Bool.random(using: &rng)
        ? [("x", .number(4)), ("y", .number(4))]
        : [("x", .number(4)), ("y", .number(4)), ("width", .number(60)), ("height", .number(30))])
    let font: JSONValue = Bool.random(using: &rng) ? .string("caption") : .object([("size", .number(9))])
    let content = JSONValue.object([("text", text), ("font", font), ("padding", .number(4))])
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: return .object([("type", .string("text")), ("text", text), ("font", font), ("frame", frame)])
    case 1:
      return .object([
        ("type", .string("text")), ("text", text), ("systemImage", .string("flag.fill")), ("font", font),
        ("lineLimit", .number(1)), ("foregroundStyle", .string("white")), ("frame", frame),
      ])
    case 2:
      return .object([
        ("type", .string("button")), ("title", text), ("font", font),
        ("buttonStyle", .string(Bool.random(using: &rng) ? "glass" : "glassProminent")), ("frame", frame),
      ])
    case 3: return .object([("type", .string("glass")), ("frame", frame), ("content", content)])
    case 4:
      return .object([
        ("type", .string("material")), ("material", .string("thin")), ("frame", frame), ("content", content),
      ])
    default:
      return .object([
        ("type", .string("shape")), ("shape", .string("capsule")), ("fill", .string("black")), ("frame", frame),
        ("content", content),
      ])
    }
  }

  /// The layer with, one time in two, another string, place or colour: how a
  /// state's text differs from another's.
  mutating func vary(_ layer: JSONValue) -> JSONValue {
    guard case .object(var members) = layer else { return layer }
    for key in ["text", "title"] where member(members, key) != nil && Bool.random(using: &rng) {
      set(&members, key, .string(edit(pick(Self.texts) ?? "")))
    }
    if case .object(var frame)? = member(members, "frame"), Bool.random(using: &rng) {
      set(&frame, "x", .number(pick(edges) ?? Double(Int.random(in: -20...200, using: &rng))))
      set(&frame, "y", .number(Double(Int.random(in: -20...120, using: &rng))))
      set(&members, "frame", .object(frame))
    }
    if Bool.random(using: &rng) {
      let colour = pick(["white", "orange", "#ff000080", "black", "blue"]) ?? "white"
      if member(members, "content") == nil || member(members, "type") == .string("text") {
        set(&members, "foregroundStyle", .string(colour))
      }
    }
    return .object(members)
  }

  func member(_ members: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
    members.first { $0.key == key }?.value
  }

  /// Sets a member, in its place when it is there, else at the end.
  func set(_ members: inout [(key: String, value: JSONValue)], _ key: String, _ value: JSONValue) {
    if let i = members.firstIndex(where: { $0.key == key }) {
      members[i].value = value
    } else {
      members.append((key, value))
    }
  }
}
