import Foundation

/// A named state of a scene: its layers.
public struct SceneState: Hashable, Sendable {
  /// The state's name.
  public var name: String
  /// The layers, back to front.
  public var layers: [Layer]
  /// The state's view tree, drawn after its layers (nil: none).
  public var body: ViewNode?

  /// Makes a state.
  public init(_ name: String, layers: [Layer], body: ViewNode? = nil) {
    self.name = name
    self.layers = layers
    self.body = body
  }
}

/// A transition between two states along a timing curve (`withAnimation`).
public struct SceneTransition: Hashable, Sendable {
  /// The state at time 0.
  public var from: String
  /// The state once the curve has settled.
  public var to: String
  /// The timing curve.
  public var animation: TimingCurve

  /// Makes a transition.
  public init(from: String, to: String, animation: TimingCurve = .default) {
    self.from = from
    self.to = to
    self.animation = animation
  }
}

/// `glassEffectTransition(_:)`: how glass that is in only one of two states
/// appears or disappears.
public enum GlassEffectTransition: String, Hashable, Sendable, CaseIterable {
  /// Grows out of (or shrinks into) the nearest glass that stays, when that glass
  /// is within the container's spacing; otherwise `materialize`. The default.
  case matchedGeometry
  /// Stays in place while its lensing, frost, rim, tint, shadow and content ramp
  /// in (or out) with the curve.
  case materialize
  /// No animation: the glass is there in every frame of the state it is in, and
  /// appears at the first frame after the start or disappears at the last.
  case identity
}

/// Interpolates a scene between two of its states (DESIGN.md, "Time"): an
/// animation is a function from time to a static scene, and every frame is an
/// ordinary render. At time 0 (or before) the frame is the first state exactly;
/// from the curve's settle time on, the second exactly.
///
/// Layers pair by position and must be of one kind; glass inside containers pairs
/// by `glassEffectID`, and glass without an id by position among the glass
/// without one. Between the states a layer's frame, corner radii, colours
/// (solid, and gradients with as many stops), tint, optics (the variants'
/// resolved values), opacity and a container's spacing follow the curve's
/// progress `p` (a spring's may overshoot 1 and bounce; a value stays within the
/// range `validate()` checks, so every moment of a valid scene validates).
///
/// Text that layout measured (`TextContent.lineBreakWidth`) breaks into the
/// lines of the state the moment is nearer to: lines do not reflow frame by
/// frame as the frame's width moves between the two.
///
/// Text (a text layer, a label, a button's title, text on glass, a material or a
/// shape) interpolates its frame, opacity and `foregroundStyle` when only those
/// differ. Text that changes otherwise (its string, icon, font, line limit or
/// alignment, or automatic colour against a paint), and content that changes
/// kind, comes or goes, **fades through at the midpoint**: the first state's
/// fades out while p goes from 0 to 1/2 (opacity times 1 − 2p) and the second's
/// fades in from 1/2 to 1 (times 2p − 1); only one is drawn at a time, and which
/// one depends on p alone. A text never gets narrower than it is in the state it
/// is drawn from, so it does not wrap where neither state wraps it: a text
/// layer's frame keeps at least the smaller of its two sizes (and while fading
/// through, its own size at the moving position), and text content's padding
/// gives way (down to 0) when its layer's frame is narrower than the text needs.
///
/// What cannot be interpolated and has no opacity (an image layer's source, a
/// shape's kind, a material) is the second state's from the first frame after the
/// start.
extension Scene {
  /// The state named `name` as a static scene.
  public func state(_ name: String) throws -> Scene {
    guard let state = states.first(where: { $0.name == name }) else { throw unknownState(name, at: nil) }
    var scene = self
    scene.layers = state.layers
    scene.body = state.body
    scene.states = []
    scene.transition = nil
    return scene
  }

  /// The frame of the scene's `transition` at `time` seconds. Lay the scene out
  /// first (`laidOut`, as `AnimationRenderer` does), so that the moment
  /// interpolates sized frames and text keeps the lines it was measured with.
  public func frame(at time: Double) throws -> Scene {
    guard let transition else {
      throw GlassError(
        .invalidScene, "the scene has no transition; give one with \"transition\" or name the states",
        at: GlassError.Location(jsonPath: "transition"))
    }
    return try frame(at: time, of: transition)
  }

  /// The frame of a transition at `time` seconds.
  public func frame(at time: Double, of transition: SceneTransition) throws -> Scene {
    try transition.animation.validate(at: "transition.animation")
    let transition = transition.inEnvironment(environment)
    guard time.isFinite else {
      throw GlassError(.invalidParameter, "time \(time) is not a number of seconds; give a finite time")
    }
    let a = try stateForTransition(transition.from, at: "transition.from")
    let b = try stateForTransition(transition.to, at: "transition.to")
    if time <= 0 { return a }
    if time >= transition.animation.settleTime { return b }
    let p = transition.animation.progress(at: time)
    var scene = b
    scene.layers = try Self.interpolate(a.layers, b.layers, p, names: (transition.from, transition.to))
    return scene
  }

  /// Throws the error a frame of `transition` would throw, for any time: a
  /// state it names is missing, its curve cannot run, or the two states' layers
  /// do not pair (a position whose kind changes, glass without an id that comes
  /// or goes). `validate()` runs it for the scene's own transition.
  public func checkTransition(_ transition: SceneTransition) throws {
    try transition.animation.validate(at: "transition.animation")
    let a = try stateForTransition(transition.from, at: "transition.from")
    let b = try stateForTransition(transition.to, at: "transition.to")
    // Pairing does not depend on the progress; a time strictly between the ends
    // is what reaches it.
    _ = try Self.interpolate(a.layers, b.layers, 0.5, names: (transition.from, transition.to))
  }

  /// The number of frames of a transition at `fps` frames per second, the first
  /// at time 0 and the last at or after the settle time.
  public static func frameCount(of transition: SceneTransition, fps: Double) -> Int {
    Int((transition.animation.settleTime * fps - 1e-9).rounded(.up)) + 1
  }

  private func stateForTransition(_ name: String, at path: String) throws -> Scene {
    guard states.contains(where: { $0.name == name }) else { throw unknownState(name, at: path) }
    return try state(name)
  }

  private func unknownState(_ name: String, at path: String?) -> GlassError {
    let known = states.map(\.name)
    let list = known.isEmpty ? "the scene has no states" : "its states are \(known.joined(separator: ", "))"
    return GlassError(
      .invalidScene, "no state \"\(JSONNode.shortened(name))\"; \(list)",
      at: path.map { GlassError.Location(jsonPath: $0) })
  }

  // MARK: Interpolation

  static func interpolate(_ a: [Layer], _ b: [Layer], _ p: Double, names: (String, String)) throws -> [Layer] {
    guard a.count == b.count else {
      throw GlassError(
        .invalidScene,
        "state \"\(names.0)\" has \(a.count) layers and \"\(names.1)\" \(b.count); layers pair by position, so "
          + "give both states the same layers (glass inside a container may come and go)",
        at: GlassError.Location(jsonPath: "states.\(names.1).layers"))
    }
    return try zip(a, b).enumerated().map { index, pair in
      let at = "states.\(names.1).layers[\(index)]"
      switch pair {
      case (.image(let x), .image(var y)):
        y.frame = lerp(x.frame, y.frame, p)
        return .image(y)
      case (.shape(let x), .shape(var y)):
        let own = y.frame
        y.frame = lerp(x.frame, y.frame, p)
        y.shape = lerp(x.shape, y.shape, p)
        y.fill = lerp(x.fill, y.fill, p) ?? y.fill
        y.content = lerp(x.content, in: x.frame, y.content, in: own, p, frame: y.frame)
        return .shape(y)
      case (.material(let x), .material(var y)):
        let own = y.frame
        y.frame = lerp(x.frame, y.frame, p)
        y.shape = lerp(x.shape, y.shape, p)
        y.content = lerp(x.content, in: x.frame, y.content, in: own, p, frame: y.frame)
        return .material(y)
      case (.text(let x), .text(let y)):
        return .text(lerp(x, y, p))
      case (.glass(let x), .glass(let y)):
        return .glass(lerp(x, y, p))
      case (.container(let x), .container(let y)):
        return .container(try interpolate(x, y, p, at: at))
      case (.image, _), (.shape, _), (.material, _), (.text, _), (.glass, _), (.container, _):
        throw GlassError(
          .invalidScene,
          "layer \(index) is a \(pair.0.kindName) in state \"\(names.0)\" and a \(pair.1.kindName) here; layers "
            + "pair by position, so keep each position's kind",
          at: GlassError.Location(jsonPath: at))
      }
    }
  }

  /// A container between two states: glass pairs by id (or position), and glass
  /// in one state only comes or goes by its transition.
  static func interpolate(
    _ a: GlassContainer, _ b: GlassContainer, _ p: Double, at: String
  ) throws
    -> GlassContainer
  {
    var result = b
    result.spacing = lerp(a.spacing, b.spacing, p, in: Scene.spacings)
    let unnamedA = a.glass.filter { $0.effectID == nil }
    let unnamedB = b.glass.filter { $0.effectID == nil }
    guard unnamedA.count == unnamedB.count else {
      throw GlassError(
        .invalidScene,
        "\(unnamedB.count) glass shapes here have no glassEffectID and \(unnamedA.count) in the other state; "
          + "glass without an id pairs by position, so give glass that comes or goes a glassEffectID",
        at: GlassError.Location(jsonPath: "\(at).glass"))
    }
    let idsA = Set(a.glass.compactMap(\.effectID))
    let idsB = Set(b.glass.compactMap(\.effectID))
    // Glass that stays, by id, in each state: the neighbours glass comes from.
    let staying = idsA.intersection(idsB)
    var unnamedIndex = 0
    var glass: [GlassLayer] = []
    for layer in b.glass {
      guard let id = layer.effectID else {
        glass.append(lerp(unnamedA[unnamedIndex], layer, p))
        unnamedIndex += 1
        continue
      }
      if let from = a.glass.first(where: { $0.effectID == id }) {
        glass.append(lerp(from, layer, p))
      } else if let g = appearing(layer, in: b, staying: staying, source: a, p: p) {
        glass.append(g)
      }
    }
    // Glass that goes, after the rest.
    for layer in a.glass {
      guard let id = layer.effectID, !idsB.contains(id) else { continue }
      if let g = appearing(layer, in: a, staying: staying, source: b, p: 1 - p) { glass.append(g) }
    }
    result.glass = glass
    return result
  }

  /// Glass that is only in `container` (its own state), at progress `p` of its
  /// appearance (1: fully there): grown out of its nearest staying neighbour as
  /// that neighbour is in `source` (the other state), or materialized.
  static func appearing(
    _ layer: GlassLayer, in container: GlassContainer, staying: Set<String>, source: GlassContainer, p: Double
  ) -> GlassLayer? {
    let kind = layer.effectTransition ?? .matchedGeometry
    if kind == .identity { return p > 0 ? layer : nil }
    guard p > 0 else { return nil }
    if kind == .matchedGeometry, let neighbour = nearestStaying(layer, in: container, staying: staying),
      let start = source.glass.first(where: { $0.effectID == neighbour.effectID })
    {
      // It starts as a copy of the neighbour, without content, and becomes itself.
      var seed = start
      seed.effectID = layer.effectID
      seed.unionID = layer.unionID
      seed.shape = layer.shape
      seed.content = layer.content.map {
        var c = $0
        c.opacity = 0
        return c
      }
      return lerp(seed, layer, p)
    }
    return materialized(layer, min(max(p, 0), 1))
  }

  /// The staying glass nearest to `layer` whose edge is within the container's
  /// spacing of it (measured on the shapes, in points).
  static func nearestStaying(_ layer: GlassLayer, in container: GlassContainer, staying: Set<String>) -> GlassLayer? {
    let shape = layer.shape.geometry(in: layer.frame, scale: 1, container: layer.containerShape)
    var best: (GlassLayer, Double)?
    for other in container.glass {
      guard let id = other.effectID, staying.contains(id) else { continue }
      let gap = shape.separation(
        from: other.shape.geometry(in: other.frame, scale: 1, container: other.containerShape))
      guard gap <= max(container.spacing, 0) else { continue }
      if gap < best?.1 ?? .infinity { best = (other, gap) }
    }
    return best?.0
  }

  /// Glass with its lensing, frost, rim, tint, shadow, glow and content scaled
  /// by `m` (0: none of it, 1: all of it), in place.
  static func materialized(_ layer: GlassLayer, _ m: Double) -> GlassLayer {
    var g = layer
    let optics = GlassOptics(layer.glass.variant, overrides: layer.optics)
    var values: [String: Double] = [:]
    for name in GlassOptics.parameterTable.map(\.name) { values[name] = optics[name] }
    for name in [
      "refraction", "frost", "dispersion", "lightening", "dimming", "tintIntensity", "rimOpacity",
      "oppositeRimOpacity", "contourOpacity", "shadowOpacity", "glowOpacity",
    ] {
      values[name] = (values[name] ?? 0) * m
    }
    values["saturation"] = 1 + ((values["saturation"] ?? 1) - 1) * m
    g.optics = GlassOptics.Overrides(values)
    g.content?.opacity *= m
    return g
  }

  // MARK: Values

  static func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }

  /// A value between two states kept within the range `validate()` checks it
  /// against: a curve that overshoots (a bouncy spring) would carry a value near
  /// the end of its range past it, and that moment would be refused.
  static func lerp(_ a: Double, _ b: Double, _ p: Double, in range: ClosedRange<Double>) -> Double {
    min(max(lerp(a, b, p), range.lowerBound), range.upperBound)
  }

  static func lerp(_ a: PointRect, _ b: PointRect, _ p: Double) -> PointRect {
    PointRect(
      x: lerp(a.x, b.x, p, in: Scene.framePositions), y: lerp(a.y, b.y, p, in: Scene.framePositions),
      width: lerp(a.width, b.width, p, in: Scene.frameSides), height: lerp(a.height, b.height, p, in: Scene.frameSides))
  }

  static func lerp(_ a: Color, _ b: Color, _ p: Double) -> Color {
    func unit(_ v: Double) -> Double { min(max(v, 0), 1) }
    return Color(
      red: unit(lerp(a.red, b.red, p)), green: unit(lerp(a.green, b.green, p)), blue: unit(lerp(a.blue, b.blue, p)),
      opacity: unit(lerp(a.opacity, b.opacity, p)))
  }

  /// Shapes of one kind interpolate their radii; otherwise the second.
  static func lerp(_ a: Shape, _ b: Shape, _ p: Double) -> Shape {
    switch (a, b) {
    case (.roundedRect(let ra, _), .roundedRect(let rb, let style)):
      return .roundedRect(cornerRadius: lerp(ra, rb, p, in: Scene.radii), style: style)
    case (.unevenRoundedRect(let ra, _), .unevenRoundedRect(let rb, let style)):
      return .unevenRoundedRect(
        CornerRadii(
          topLeading: lerp(ra.topLeading, rb.topLeading, p, in: Scene.radii),
          topTrailing: lerp(ra.topTrailing, rb.topTrailing, p, in: Scene.radii),
          bottomTrailing: lerp(ra.bottomTrailing, rb.bottomTrailing, p, in: Scene.radii),
          bottomLeading: lerp(ra.bottomLeading, rb.bottomLeading, p, in: Scene.radii)), style: style)
    case (.rect, _), (.roundedRect, _), (.unevenRoundedRect, _), (.capsule, _), (.circle, _), (.ellipse, _),
      (.concentric, _):
      return b
    }
  }

  /// Solid colours interpolate; gradients of one kind with as many stops
  /// interpolate stop by stop and point by point; otherwise nil.
  static func lerp(_ a: Fill, _ b: Fill, _ p: Double) -> Fill? {
    func stops(_ x: Gradient, _ y: Gradient) -> Gradient? {
      guard x.stops.count == y.stops.count else { return nil }
      return Gradient(
        stops: zip(x.stops, y.stops).map {
          Gradient.Stop(color: lerp($0.color, $1.color, p), location: min(max(lerp($0.location, $1.location, p), 0), 1))
        })
    }
    func point(_ x: UnitPoint, _ y: UnitPoint) -> UnitPoint {
      UnitPoint(x: lerp(x.x, y.x, p, in: Scene.unitPoints), y: lerp(x.y, y.y, p, in: Scene.unitPoints))
    }
    switch (a, b) {
    case (.color(let x), .color(let y)): return .color(lerp(x, y, p))
    case (.linearGradient(let ga, let sa, let ea), .linearGradient(let gb, let sb, let eb)):
      return stops(ga, gb).map { .linearGradient($0, startPoint: point(sa, sb), endPoint: point(ea, eb)) }
    case (.radialGradient(let ga, let ca, let r0a, let r1a), .radialGradient(let gb, let cb, let r0b, let r1b)):
      let end = lerp(r1a, r1b, p, in: Scene.radii)
      return stops(ga, gb).map {
        .radialGradient($0, center: point(ca, cb), startRadius: min(max(lerp(r0a, r0b, p), 0), end), endRadius: end)
      }
    case (.color, _), (.linearGradient, _), (.radialGradient, _):
      return nil
    }
  }

  /// Glass between two states: frame, radii, tint and the resolved optics of the
  /// two variants, and its content (`lerp(_:in:_:in:_:frame:)`); the second's
  /// variant and the rest.
  static func lerp(_ a: GlassLayer, _ b: GlassLayer, _ p: Double) -> GlassLayer {
    var g = b
    g.frame = lerp(a.frame, b.frame, p)
    g.shape = lerp(a.shape, b.shape, p)
    if a.glass.tint != nil || b.glass.tint != nil {
      let ta = a.glass.tint ?? b.glass.tint.map { Color(red: $0.red, green: $0.green, blue: $0.blue, opacity: 0) }
      let tb = b.glass.tint ?? a.glass.tint.map { Color(red: $0.red, green: $0.green, blue: $0.blue, opacity: 0) }
      if let ta, let tb { g.glass.tint = lerp(ta, tb, p) }
    }
    if a.glass.variant != .identity && b.glass.variant != .identity {
      let oa = GlassOptics(a.glass.variant, overrides: a.optics)
      let ob = GlassOptics(b.glass.variant, overrides: b.optics)
      if oa != ob {
        var values: [String: Double] = [:]
        for spec in GlassOptics.parameterTable {
          let v = lerp(oa[spec.name] ?? 0, ob[spec.name] ?? 0, p)
          values[spec.name] = min(max(v, spec.minimum), spec.maximum)
        }
        g.optics = GlassOptics.Overrides(values)
      }
    }
    g.content = lerp(a.content, in: a.frame, b.content, in: b.frame, p, frame: g.frame)
    return g
  }

  /// Which state's content shows while one replaces the other, and how much of
  /// it: the first's fading out from p = 0 to 1/2, the second's fading in from 1/2 to 1.
  static func fadeThrough(_ p: Double) -> (second: Bool, opacity: Double) {
    p < 0.5 ? (false, min(max(1 - 2 * p, 0), 1)) : (true, min(max(2 * p - 1, 0), 1))
  }

  /// Text between two states when only its paint differs (nil otherwise): the
  /// paint interpolated (`lerp(_:_:_:)` of fills).
  static func lerp(_ a: TextContent, _ b: TextContent, _ p: Double) -> TextContent? {
    guard a.string == b.string, a.systemImage == b.systemImage, a.font == b.font, a.lineLimit == b.lineLimit,
      a.alignment == b.alignment
    else { return nil }
    var text = b
    // Lines break as in the state the moment is nearer to (each state's text
    // keeps the width layout measured it within).
    if p < 0.5 { text.lineBreakWidth = a.lineBreakWidth }
    switch (a.foregroundStyle, b.foregroundStyle) {
    case (nil, nil): break
    case (let x?, let y?):
      guard let fill = lerp(x, y, p) else { return nil }
      text.foregroundStyle = fill
    case (nil, _?), (_?, nil): return nil
    }
    return text
  }

  /// A text layer between two states: its frame and opacity follow the curve,
  /// and its text (`lerp(_:_:_:)` of text content) when only its paint changes;
  /// otherwise the texts fade through at the midpoint, each in its own state's
  /// size at the moving frame's position. The frame never gets narrower or
  /// shorter than the smaller of the two (a bouncy spring would wrap the text).
  static func lerp(_ a: TextLayer, _ b: TextLayer, _ p: Double) -> TextLayer {
    var t = b
    var frame = lerp(a.frame, b.frame, p)
    let opacity = min(max(lerp(a.opacity, b.opacity, p), 0), 1)
    if let text = lerp(a.text, b.text, p) {
      frame.width = max(frame.width, min(a.frame.width, b.frame.width))
      frame.height = max(frame.height, min(a.frame.height, b.frame.height))
      t.text = text
      t.opacity = opacity
    } else {
      let (second, fade) = fadeThrough(p)
      let own = second ? b : a
      frame.width = own.frame.width
      frame.height = own.frame.height
      t.text = own.text
      t.opacity = opacity * fade
    }
    t.frame = frame
    return t
  }

  /// A layer's content between two states, the layer's frame going from `fa` to
  /// `fb` and being `frame` now: the same image, or text whose paint alone
  /// changes, interpolates its padding, opacity (and paint); anything else fades
  /// through at the midpoint (content in one state only fades out or in). Text
  /// keeps the width it has in the narrower of its states (or its own, fading
  /// through): the padding gives way, down to 0, when `frame` is narrower.
  static func lerp(
    _ a: GlassContent?, in fa: PointRect, _ b: GlassContent?, in fb: PointRect, _ p: Double, frame: PointRect
  ) -> GlassContent? {
    /// `content` with its padding lowered so that `frame` less it is `room` points wide.
    func roomy(_ content: GlassContent, _ room: Double) -> GlassContent {
      guard content.text != nil else { return content }
      var c = content
      c.padding = max(0, min(c.padding, (frame.width - room) / 2))
      return c
    }
    if let ca = a, let cb = b {
      var c = cb
      c.padding = lerp(ca.padding, cb.padding, p, in: Scene.spacings)
      c.opacity = min(max(lerp(ca.opacity, cb.opacity, p), 0), 1)
      switch (ca.kind, cb.kind) {
      case (.image(let x), .image(let y)) where x == y:
        return c
      case (.text(let x), .text(let y)):
        if let text = lerp(x, y, p) {
          c.kind = .text(text)
          return roomy(c, min(fa.width - 2 * ca.padding, fb.width - 2 * cb.padding))
        }
      case (.image, _), (.text, _): break
      }
    }
    let (second, fade) = fadeThrough(p)
    guard var c = second ? b : a else { return nil }
    c.opacity *= fade
    return roomy(c, (second ? fb : fa).width - 2 * c.padding)
  }
}

extension Layer {
  /// The layer's kind, as the scene format names it.
  var kindName: String {
    switch self {
    case .image: "image"
    case .shape: "shape"
    case .material: "material"
    case .glass: "glass"
    case .container: "glassContainer"
    case .text: "text"
    }
  }
}
