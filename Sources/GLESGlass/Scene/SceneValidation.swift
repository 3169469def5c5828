import Foundation

extension Scene {
  /// The largest canvas side, in points.
  public static let maximumSidePoints = 16_384.0
  /// The largest side of a layer's frame, in points (a frame may reach past the canvas).
  public static let maximumFrameSidePoints = 4 * maximumSidePoints
  /// A frame's x and y, in points (`SceneFormat.signedPoints`).
  static let framePositions = -maximumFrameSidePoints...maximumFrameSidePoints
  /// A frame's width and height, in points (`SceneFormat.points`).
  static let frameSides = 0...maximumFrameSidePoints
  /// Corner radii and a radial gradient's radii, in points.
  static let radii: ClosedRange<Double> = 0...100_000
  /// A container's spacing and content's padding, in points.
  static let spacings: ClosedRange<Double> = 0...10_000
  /// A gradient's unit points.
  static let unitPoints: ClosedRange<Double> = -10...10

  /// Throws `invalidScene` for the first value out of range, naming its JSON path
  /// (`layers[2].frame.width`) and the range. Scenes read from JSON are validated
  /// already; scenes built in Swift are validated before they render.
  public func validate() throws {
    let v = SceneValidator()
    try v.check("size", "width", size.width, SceneFormat.sizeFields)
    try v.check("size", "height", size.height, SceneFormat.sizeFields)
    guard SceneFormat.scales.contains(Double(scale)) else { throw v.fail("scale", "\(scale) is not 1, 2 or 3") }
    switch background {
    case .fill(let fill): try v.fill("background", fill)
    case .image(let path, _): try v.path("background.image", path)
    }
    var names: Set<String> = []
    for state in states {
      guard !state.name.isEmpty && state.name.utf8.count <= 256 else {
        throw v.fail("states", "a state's name is \(state.name.isEmpty ? "empty" : "over 256 bytes"); name it")
      }
      guard names.insert(state.name).inserted else {
        throw v.fail("states.\(JSONNode.shortened(state.name))", "a second state of this name; name states apart")
      }
      try validate(state.layers, at: "states.\(JSONNode.shortened(state.name)).", v)
    }
    // After the states: a file's layers may be a copy of its first state's.
    try validate(layers, at: "", v)
    if let transition {
      for (field, name) in [("from", transition.from), ("to", transition.to)] where !names.contains(name) {
        let list =
          states.isEmpty ? "the scene has no states" : "its states are \(states.map(\.name).joined(separator: ", "))"
        throw v.fail("transition.\(field)", "no state \"\(JSONNode.shortened(name))\"; \(list)")
      }
      try transition.animation.validate(at: "transition.animation")
      // Layers that do not pair fail here, not at the first frame between the states.
      try checkTransition(transition)
    }
  }

  /// Checks `layers`, written at `prefix` (`states.a.`, `body.children[0].`).
  func validate(_ layers: [Layer], at prefix: String, _ v: SceneValidator) throws {
    for (i, layer) in layers.enumerated() {
      let at = "\(prefix)layers[\(i)]"
      switch layer {
      case .image(let l):
        try v.path("\(at).source", l.source)
        try v.frame("\(at).frame", l.frame)
        if l.clipShape.needsContainer {
          throw v.fail(
            "\(at).clipShape",
            "an image layer has no container shape, so its clip cannot have concentric corners; use a roundedRect or fixed corners"
          )
        }
        try v.shape("\(at).clipShape", l.clipShape, container: nil)
        if let e = l.backgroundExtension {
          // The limits are in pixels: in points they shrink with the scale.
          let fields = SceneFormat.backgroundExtensionFields
          let values = [
            ("leading", e.leading), ("trailing", e.trailing), ("top", e.top), ("bottom", e.bottom), ("sigma", e.sigma),
          ]
          for (name, value) in values {
            try v.check("\(at).backgroundExtensionEffect", name, value, fields, scale: Double(scale))
          }
        }
      case .shape(let l):
        try v.frame("\(at).frame", l.frame, fit: l.fit)
        try v.shape("\(at).shape", l.shape, container: l.containerShape)
        try v.fill("\(at).fill", l.fill)
        try v.container("\(at).containerShape", l.containerShape)
        try v.content("\(at).content", l.content)
      case .material(let l):
        try v.frame("\(at).frame", l.frame, fit: l.fit)
        try v.shape("\(at).shape", l.shape, container: l.containerShape)
        try v.container("\(at).containerShape", l.containerShape)
        try v.content("\(at).content", l.content)
      case .text(let l):
        try v.frame("\(at).frame", l.frame, fit: l.fit)
        try v.check(at, "opacity", l.opacity, SceneFormat.spec(.text).fields)
        try v.text(at, l.text)
      case .glass(let l):
        try v.glass(at, l, container: nil)
      case .container(let c):
        try v.check(at, "spacing", c.spacing, SceneFormat.spec(.glassContainer).fields)
        try v.container("\(at).containerShape", c.containerShape)
        var ids: Set<String> = []
        for (j, glass) in c.glass.enumerated() {
          try v.glass("\(at).glass[\(j)]", glass, container: c.containerShape)
          if let id = glass.effectID, !ids.insert(id).inserted {
            throw v.fail(
              "\(at).glass[\(j)].glassEffectID",
              "a second glass with the id \"\(JSONNode.shortened(id))\" in this container; ids pair glass between states, so give each its own"
            )
          }
        }
      }
    }
  }

  /// Every image the scene reads: its JSON path and its path relative to the scene file.
  public var imageReferences: [(jsonPath: String, path: String)] {
    var refs: [(String, String)] = []
    if case .image(let path, _) = background { refs.append(("background.image", path)) }
    for (i, layer) in layers.enumerated() {
      switch layer {
      case .image(let l): refs.append(("layers[\(i)].source", l.source))
      case .glass(let g): if let path = g.content?.source { refs.append(("layers[\(i)].content.image", path)) }
      case .shape(let l): if let path = l.content?.source { refs.append(("layers[\(i)].content.image", path)) }
      case .material(let l): if let path = l.content?.source { refs.append(("layers[\(i)].content.image", path)) }
      case .container(let c):
        for (j, g) in c.glass.enumerated() {
          if let path = g.content?.source { refs.append(("layers[\(i)].glass[\(j)].content.image", path)) }
        }
      case .text: break
      }
    }
    if let body { refs += body.imageReferences(at: "body") }
    for state in states {
      if let body = state.body { refs += body.imageReferences(at: "states.\(JSONNode.shortened(state.name)).body") }
    }
    return refs
  }
}

/// Range checks with JSON paths.
struct SceneValidator {
  func fail(_ path: String, _ message: String) -> GlassError {
    GlassError(.invalidScene, message, at: GlassError.Location(jsonPath: path))
  }

  func check(_ path: String, _ value: Double, _ range: ClosedRange<Double>, _ unit: String) throws {
    guard value.isFinite, range.contains(value) else {
      // Negative only where no negative value is allowed: -1e308 on -100 … 100 is out of range.
      let what = value < 0 && range.lowerBound >= 0 ? "is negative" : "is out of range"
      throw fail(
        path,
        "\(ParameterSpec.format(value)) \(what); give a value from \(ParameterSpec.format(range.lowerBound)) to \(ParameterSpec.format(range.upperBound))"
          + (unit.isEmpty ? "" : " \(unit)")
      )
    }
  }

  func path(_ at: String, _ path: String) throws {
    guard !path.isEmpty else { throw fail(at, "the image path is empty; give a PNG path relative to the scene file") }
  }

  /// A number field of the table (`fields`) at `at.name`, in its range; with
  /// `scale`, a range in pixels checked in points.
  func check(_ at: String, _ name: String, _ value: Double, _ fields: [SceneFormat.Field], scale: Double = 1) throws {
    let bounds = SceneFormat.bounds(fields, name)
    let path = at.isEmpty ? name : "\(at).\(name)"
    if let problem = (scale == 1 ? bounds : bounds.dividingMaximum(by: scale)).problem(with: value) {
      throw fail(path, problem)
    }
  }

  func frame(_ at: String, _ frame: PointRect, fit: ContentFit? = nil) throws {
    let fields = SceneFormat.frameFields
    try check(at, "x", frame.x, fields)
    try check(at, "y", frame.y, fields)
    try check(at, "width", frame.width, fields)
    try check(at, "height", frame.height, fields)
    // The padding a side sized to the text keeps, where it was written (`fitPadding`).
    if let fit {
      try check("\(at).fitPadding", "horizontal", fit.horizontalPadding, SceneFormat.fitPaddingFields)
      try check("\(at).fitPadding", "vertical", fit.verticalPadding, SceneFormat.fitPaddingFields)
    }
  }

  func content(_ at: String, _ content: GlassContent?) throws {
    guard let content else { return }
    let fields: [SceneFormat.Field]
    switch content.kind {
    case .image(let source):
      try path("\(at).image", source)
      fields = SceneFormat.imageContentFields
    case .text(let text):
      try self.text(at, text)
      fields = SceneFormat.textContentFields
    }
    try check(at, "padding", content.padding, fields)
    try check(at, "opacity", content.opacity, fields)
  }

  /// Text content's values; whether its font can be had is checked where it is
  /// laid out (the scene file's folder is needed for a font file).
  func text(_ at: String, _ text: TextContent) throws {
    let fields = SceneFormat.layerTextFields
    let count = text.string.unicodeScalars.count
    guard case .string(let maximumLength)? = fields.first(where: { $0.name == "text" })?.value,
      case .integer(let lineLimits)? = fields.first(where: { $0.name == "lineLimit" })?.value
    else { preconditionFailure("SceneFormat: text is a string, lineLimit a whole number") }
    guard count <= maximumLength else {
      throw fail(
        "\(at).text",
        "the text has \(count) characters (Unicode scalars); at most \(maximumLength) are laid out, so split it into several texts"
      )
    }
    if let name = text.systemImage, SystemImage.named(name) == nil {
      throw fail(
        "\(at).systemImage",
        "unknown systemImage \"\(JSONNode.shortened(name))\"; the icons are \(SystemImage.nameList)")
    }
    try check("\(at).font", "size", text.font.size, SceneFormat.fontFields)
    if let limit = text.lineLimit, !lineLimits.contains(limit) {
      throw fail(
        "\(at).lineLimit",
        "\(limit) lines is out of range; give a whole number from \(lineLimits.lowerBound) to \(lineLimits.upperBound), or no limit"
      )
    }
    if let style = text.foregroundStyle { try fill("\(at).foregroundStyle", style) }
  }

  func color(_ at: String, _ color: Color) throws {
    let fields = SceneFormat.colorFields
    try check(at, "red", color.red, fields)
    try check(at, "green", color.green, fields)
    try check(at, "blue", color.blue, fields)
    try check(at, "opacity", color.opacity, fields)
  }

  func fill(_ at: String, _ fill: Fill) throws {
    func stops(_ path: String, _ gradient: Gradient) throws {
      let counts = SceneFormat.gradientColorCounts
      guard counts.contains(gradient.stops.count) else {
        throw fail(
          "\(path).stops",
          "a gradient has \(counts.lowerBound) to \(counts.upperBound) colours, not \(gradient.stops.count)")
      }
      for (i, stop) in gradient.stops.enumerated() {
        try color("\(path).stops[\(i)].color", stop.color)
        try check("\(path).stops[\(i)]", "location", stop.location, SceneFormat.gradientStopFields)
      }
    }
    func unit(_ path: String, _ p: UnitPoint) throws {
      try check(path, "x", p.x, SceneFormat.unitPointFields)
      try check(path, "y", p.y, SceneFormat.unitPointFields)
    }
    switch fill {
    case .color(let c): try color(at, c)
    case .linearGradient(let g, let start, let end):
      try stops("\(at).linearGradient", g)
      try unit("\(at).linearGradient.startPoint", start)
      try unit("\(at).linearGradient.endPoint", end)
    case .radialGradient(let g, let center, let r0, let r1):
      try stops("\(at).radialGradient", g)
      try unit("\(at).radialGradient.center", center)
      try check("\(at).radialGradient", "startRadius", r0, SceneFormat.radialGradientFields)
      try check("\(at).radialGradient", "endRadius", r1, SceneFormat.radialGradientFields)
      guard r0 <= r1 else {
        throw fail(
          "\(at).radialGradient.startRadius",
          "\(ParameterSpec.format(r0)) is larger than endRadius \(ParameterSpec.format(r1)); the gradient runs outward from startRadius"
        )
      }
    }
  }

  func shape(_ at: String, _ shape: Shape, container: ContainerShape?) throws {
    switch shape {
    case .rect, .capsule, .circle, .ellipse: break
    case .roundedRect(let r, _): try check(at, "cornerRadius", r, SceneFormat.shapeFields(.roundedRect))
    case .unevenRoundedRect(let r, _):
      let fields = SceneFormat.shapeFields(.unevenRoundedRect)
      let radii = [r.topLeading, r.topTrailing, r.bottomTrailing, r.bottomLeading]
      for (name, value) in zip(SceneFormat.cornerNames, radii) { try check(at, name, value, fields) }
    case .concentric(let corners, _):
      // A fixed corner takes the range of a minimum.
      let fields = SceneFormat.concentricMinimumFields
      for (name, corner) in zip(SceneFormat.cornerNames, corners.all) {
        switch corner {
        case .fixed(let r):
          if let problem = SceneFormat.bounds(fields, "minimum").problem(with: r) {
            throw fail("\(at).corners.\(name)", problem)
          }
        case .concentric(let m): try check("\(at).corners.\(name)", "minimum", m, fields)
        }
      }
      if corners.needsContainer && container == nil {
        throw fail(
          at,
          "a concentricRectangle needs a container shape; add \"containerShape\": {\"frame\": ..., \"cornerRadius\": ...} to its layer or its glassContainer"
        )
      }
    }
  }

  func container(_ at: String, _ shape: ContainerShape?) throws {
    guard let shape else { return }
    try frame("\(at).frame", shape.frame)
    try check(at, "cornerRadius", shape.cornerRadius, SceneFormat.containerShapeFields)
  }

  func glass(_ at: String, _ layer: GlassLayer, container: ContainerShape?) throws {
    try frame("\(at).frame", layer.frame, fit: layer.fit)
    try shape("\(at).shape", layer.shape, container: layer.containerShape ?? container)
    try self.container("\(at).containerShape", layer.containerShape)
    if let tint = layer.glass.tint { try color("\(at).glass.tint", tint) }
    if let t = layer.glass.touchPoint {
      let fields = SceneFormat.objectFields(SceneFormat.glassFields, "touchPoint")
      try check("\(at).glass.touchPoint", "x", t.x, fields)
      try check("\(at).glass.touchPoint", "y", t.y, fields)
    }
    if let id = layer.unionID, id.isEmpty || id.utf8.count > 256 {
      throw fail("\(at).glassEffectUnion", "the union id is \(id.isEmpty ? "empty" : "over 256 bytes"); name the union")
    }
    if let id = layer.effectID, id.isEmpty || id.utf8.count > 256 {
      throw fail("\(at).glassEffectID", "the id is \(id.isEmpty ? "empty" : "over 256 bytes"); name the glass")
    }
    try self.content("\(at).content", layer.content)
    for (name, value) in layer.optics.values.sorted(by: { $0.key < $1.key }) {
      guard let spec = GlassOptics.parameterTable.first(where: { $0.name == name }) else {
        throw fail("\(at).optics.\(name)", "unknown optical parameter")
      }
      try check("\(at).optics.\(name)", value, spec.minimum...spec.maximum, spec.unit)
    }
  }
}
