import Foundation

/// Lays a view tree out on a canvas and lowers it to the layers the renderer
/// draws (docs/layout.md).
///
/// Building turns each view into layout nodes (`LayoutRule`s: its content's,
/// then one per layout modifier, innermost first) and a drawing that refers to
/// them; laying out gives every node a frame; lowering walks the drawing in
/// paint order and makes layers at those frames, their edges snapped to device
/// pixels. Text is measured here, once per proposal, with the fonts of `caches`;
/// images are sized by their headers (`imageSize`).
struct ViewLayout {
  /// The folder font files and images are relative to.
  let directory: String
  /// Fonts and shaped text.
  let caches: RenderCaches
  /// An image's size in pixels, by its path in the scene (nil: not loaded).
  let imageSize: (String) -> PixelSize?
  /// Pixels per point, for snapping.
  let scale: Double
  /// The environment: its type size sizes the default font, its layout
  /// direction mirrors the layout (the tree's fonts and colours are resolved
  /// before, `EnvironmentResolver`).
  var environment = EnvironmentValues()

  /// What a laid-out tree is: its views' frames and its layers.
  struct Result {
    /// Every view in layout, parents before children, frames snapped.
    var views: [ResolvedView]
    /// The layers, back to front.
    var layers: [Layer]
    /// Where each layer came from, in the same order.
    var sources: [LayerSource]
  }

  /// Where a layer that layout made was written: the JSON path of its view,
  /// of the text it carries as content, and for a container each glass's.
  struct LayerSource: Hashable {
    /// The view (or absolute layer) the layer draws.
    var path: String
    /// The text it carries as content (a button's title: the label's path);
    /// nil when it carries none or is a text itself.
    var contentPath: String?
    /// For a container, the source of each of its glass, in order.
    var glass: [LayerSource] = []
    /// Whether the layer was written as a layer (`"type": "layers"`), so
    /// that its fields are the file's.
    var isWritten = false

    /// `error`, found at the layer's `field` (`.glass[2].frame.x`, `.content`,
    /// "" for the layer), at the view it came from: a written layer's own
    /// field, else the glass's or the text's view, with the field named in the
    /// message (`laid out, its frame.x: …`).
    func relocated(_ error: GlassError, field: String) -> GlassError {
      guard !isWritten else {
        return GlassError(
          error.code, error.message, cause: error.cause, at: GlassError.Location(jsonPath: path + field),
          hint: error.hint)
      }
      var field = field
      var at = path
      if field.hasPrefix(".glass["), let close = field.firstIndex(of: "]"),
        let index = Int(field[field.index(field.startIndex, offsetBy: 7)..<close]), glass.indices.contains(index)
      {
        return glass[index].relocated(error, field: String(field[field.index(after: close)...]))
      }
      if field.hasPrefix(".content"), let contentPath {
        at = contentPath
        field.removeFirst(".content".count)
      }
      if field.hasPrefix(".") { field.removeFirst() }
      let message = field.isEmpty ? error.message : "laid out, its \(field): \(error.message)"
      return GlassError(
        error.code, message, cause: error.cause, at: GlassError.Location(jsonPath: at), hint: error.hint)
    }
  }

  /// Lays `root` (written at `path`) out in `canvas` less `safeArea`, and lowers it.
  func resolve(_ root: ViewNode, at path: String, canvas: PointSize, safeArea: EdgeInsets) throws -> Result {
    var builder = Builder(layout: self)
    var env = Environment()
    env.font = EnvironmentResolver(environment: environment).font(.body)
    let built = try builder.build(root, at: path, env: env, axis: nil, depth: Depth())
    let canvasRect = PointRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    let bounds = PointRect(
      x: safeArea.leading, y: safeArea.top, width: max(0, canvas.width - safeArea.leading - safeArea.trailing),
      height: max(0, canvas.height - safeArea.top - safeArea.bottom))
    var frames = Frames(scale: scale)
    // Right to left: the layout's mirror image across the canvas.
    if environment.layoutDirection == .rightToLeft { frames.mirrorWidth = canvas.width }
    if built.inLayout {
      built.node.layout(in: bounds, canvas: canvasRect) { node, view in frames.add(node, view, snapped: true) }
    }
    for placed in builder.positioned {
      let proposal = ProposedViewSize(width: placed.width, height: placed.height)
      let size = placed.node.sizeThatFits(proposal)
      let frame = PointRect(
        x: placed.x, y: placed.y, width: placed.width ?? size.width, height: placed.height ?? size.height)
      placed.node.place(at: frame, proposal: proposal) { node, view in frames.add(node, view, snapped: false) }
    }
    var emitted = Lowering.Emitted()
    try Lowering(frames: frames).emit(built.drawing, into: &emitted)
    try Self.check(emitted, scale: scale)
    return Result(views: frames.views, layers: emitted.layers, sources: emitted.sources)
  }

  /// Throws the first value of the layers layout made that a scene file's
  /// layers could not have (`Scene.validate`'s checks), at the path of the
  /// view it came from, not at a layer the file does not have: a value the
  /// Swift API let through (a container's spacing, a colour out of range, a
  /// layer of `.layers`).
  static func check(_ emitted: Lowering.Emitted, scale: Double) throws {
    let holder = Scene(size: PointSize(width: 1, height: 1), scale: Int(scale))
    let validator = SceneValidator()
    for (layer, source) in zip(emitted.layers, emitted.sources) {
      do {
        try holder.validate([layer], at: "", validator)
      } catch let error as GlassError {
        throw source.relocated(error, field: error.jsonPath.map { String($0.dropFirst("layers[0]".count)) } ?? "")
      }
    }
  }

  // MARK: Environment

  /// What a view inherits from the modifiers around it.
  struct Environment {
    var font = Font.body
    var fontWeight: FontWeight?
    var foregroundStyle: Fill?
    var lineLimit: Int?
    var alignment = TextAlignment.leading
    var buttonStyle: ButtonStyle?
    var tint: Color?
    var textFieldStyle = TextFieldStyle.plain
    var containerShape: ContainerShape?

    /// The environment with `modifier` applied, when it is an environment modifier.
    func applying(_ modifier: ViewModifierNode) -> Environment {
      var env = self
      switch modifier {
      case .font(let font):
        env.font = font
        env.fontWeight = nil
      case .fontWeight(let weight): env.fontWeight = weight
      case .foregroundStyle(let fill): env.foregroundStyle = fill
      case .lineLimit(let limit): env.lineLimit = limit
      case .multilineTextAlignment(let alignment): env.alignment = alignment
      case .buttonStyle(let style): env.buttonStyle = style
      case .tint(let color): env.tint = color
      case .textFieldStyle(let style): env.textFieldStyle = style
      case .containerShape(let shape): env.containerShape = shape
      default: break
      }
      return env
    }

    /// `text` with the fields it did not write taken from here.
    func resolve(_ text: TextContent, explicit: TextFields) -> TextContent {
      var text = text
      if !explicit.contains(.font) {
        let weight = explicit.contains(.weight) ? text.font.weight : nil
        text.font = font
        if let weight = weight ?? fontWeight { text.font.weight = weight }
      }
      if !explicit.contains(.foregroundStyle) { text.foregroundStyle = foregroundStyle }
      if !explicit.contains(.lineLimit) { text.lineLimit = lineLimit }
      if !explicit.contains(.alignment) { text.alignment = alignment }
      return text
    }
  }

  // MARK: Building

  /// What a view lowers to, referring to layout nodes for frames.
  indirect enum Drawing {
    case nothing
    case shape(LayoutNode, Shape, ShapeStyle, ContainerShape?)
    case image(LayoutNode, ImageLayer)
    /// Text, with the measures its size came from.
    case text(LayoutNode, TextContent, TextMeasures)
    /// Layers at absolute points, written at `path`.
    case layers([Layer], path: String)
    case sequence([Drawing])
    case glass(LayoutNode, GlassLayer, Drawing)
    /// A container written at `path`.
    case container(GlassContainer, path: String, Drawing)
    case glassAttributes([ViewModifierNode], Drawing)
  }

  /// A view built: its outermost layout node, whether that node takes part in
  /// its parent's layout (not when placed at absolute points or made of
  /// absolute layers), and its drawing.
  struct Built {
    var node: LayoutNode
    var inLayout: Bool
    var drawing: Drawing
  }

  /// A view placed at absolute points: laid out on its own.
  struct Positioned {
    var node: LayoutNode
    var x: Double
    var y: Double
    var width: Double?
    var height: Double?
  }

  /// Space between a glass button's label and its capsule, in points.
  static let buttonPadding = EdgeInsets(
    top: ButtonStyle.verticalPadding, leading: ButtonStyle.horizontalPadding, bottom: ButtonStyle.verticalPadding,
    trailing: ButtonStyle.horizontalPadding)
  /// Space between a text field's text and its edges, in points.
  static let textFieldPadding = EdgeInsets(top: 7, leading: 8, bottom: 7, trailing: 8)
  /// A rounded-border text field's corner radius and border width, in points.
  static let textFieldCornerRadius = 6.0
  static let textFieldBorderWidth = 0.5
  /// The border's colour (iOS's `separator`) and the placeholder's
  /// (`placeholderText`); in light, the rounded values this renderer has
  /// always drawn (0.29 and 0.3 opacity, UIKit's 73/255 and 76/255 to within 1/255).
  static let textFieldBorder = Color(
    light: Color(red: 60 / 255, green: 60 / 255, blue: 67 / 255, opacity: 0.29), dark: .separator)
  static let placeholderColor = Color(
    light: Color(red: 60 / 255, green: 60 / 255, blue: 67 / 255, opacity: 0.3), dark: .placeholderText)

  /// How deep a view lies: in views (`ViewNode.maximumDepth`) and in levels of
  /// layout (`ViewNode.maximumLayoutDepth`): the levels above its outermost
  /// node, or, once its modifiers are counted, those down to its content.
  struct Depth {
    var views = 0
    var levels = 0

    /// A view inside this one (a child, a label, a modifier's view).
    var nested: Depth { Depth(views: views + 1, levels: levels) }
  }

  struct Builder {
    let layout: ViewLayout
    var positioned: [Positioned] = []

    init(layout: ViewLayout) { self.layout = layout }

    func fail(_ path: String, _ message: String) -> GlassError {
      GlassError(.invalidScene, message, at: GlassError.Location(jsonPath: path))
    }

    /// The children of a container, with groups opened: each child of a group
    /// takes the group's modifiers after its own (SwiftUI applies a group's
    /// modifiers to each of its children).
    func flatten(
      _ children: [ViewNode], at path: String, outer: [(ViewModifierNode, String)] = []
    )
      -> [(node: ViewNode, path: String, outer: [(ViewModifierNode, String)])]
    {
      var result: [(ViewNode, String, [(ViewModifierNode, String)])] = []
      for (i, child) in children.enumerated() {
        let childPath = "\(path).children[\(i)]"
        if case .group(let inner) = child.content {
          let mods = child.modifiers.enumerated().map { ($0.element, "\(childPath).modifiers[\($0.offset)]") }
          result += flatten(inner, at: childPath, outer: mods + outer)
        } else {
          result.append((child, childPath, outer))
        }
      }
      return result
    }

    /// Builds `node`, written at `path`, in `env`, inside a stack of `axis` (nil:
    /// not directly in a stack); `outer` are a group's modifiers, applied after
    /// the view's own.
    mutating func build(
      _ node: ViewNode, at path: String, env parent: Environment, axis: Axis?, depth outside: Depth,
      outer: [(ViewModifierNode, String)] = []
    ) throws -> Built {
      guard outside.views < ViewNode.maximumDepth else {
        throw fail(path, "the view tree is deeper than \(ViewNode.maximumDepth) views here; flatten it")
      }
      // Refused before any node is made: layout recurses once per level.
      var depth = outside
      if case .textField = node.content { depth.levels += 2 }
      depth.levels += node.modifiers.count + outer.count + 1
      guard depth.levels <= ViewNode.maximumLayoutDepth else {
        throw fail(path, ViewNode.layoutDepthProblem(depth.levels))
      }
      let modifiers = node.modifiers.enumerated().map { ($0.element, "\(path).modifiers[\($0.offset)]") } + outer
      // An environment modifier applies to the content and to whatever the
      // modifiers inside it add (an overlay's view); the innermost one wins.
      var envs = [parent]
      var env = parent
      for (modifier, _) in modifiers.reversed() {
        env = env.applying(modifier)
        envs.append(env)
      }
      envs.reverse()  // envs[i]: what the modifier at i and those inside it see; envs[0]: the content's.
      var built = try buildContent(node.content, at: path, env: envs[0], axis: axis, depth: depth)
      for (index, (modifier, modifierPath)) in modifiers.enumerated() {
        // A view the modifier holds (an overlay's) lies below the modifier.
        let below = Depth(views: outside.views, levels: outside.levels + modifiers.count - index)
        built = try apply(
          modifier, at: modifierPath, to: built, env: envs[index + 1], inner: envs[0], depth: below)
      }
      return built
    }

    mutating func buildContent(
      _ content: ViewContent, at path: String, env: Environment, axis: Axis?, depth: Depth
    ) throws -> Built {
      func leaf(_ rule: any LayoutRule, _ kind: String, _ drawing: (LayoutNode) -> Drawing) -> Built {
        let node = LayoutNode(rule, kind: kind, path: path)
        return Built(node: node, inLayout: true, drawing: drawing(node))
      }
      switch content {
      case .vstack(let alignment, let spacing, let children):
        try checkSpacing(spacing, at: "\(path).spacing")
        return try stack(
          StackLayout.vertical(alignment: alignment, spacing: spacing), "vstack", .vertical, children, path, env,
          depth)
      case .hstack(let alignment, let spacing, let children):
        try checkSpacing(spacing, at: "\(path).spacing")
        return try stack(
          StackLayout.horizontal(alignment: alignment, spacing: spacing), "hstack", .horizontal, children, path, env,
          depth)
      case .zstack(let alignment, let children):
        return try stack(ZStackLayout(alignment: alignment), "zstack", nil, children, path, env, depth)
      case .group(let children):
        return try stack(ZStackLayout(alignment: .center), "group", nil, children, path, env, depth)
      case .glassEffectContainer(let spacing, let children):
        guard Scene.spacings.contains(spacing) else {
          throw fail(
            "\(path).spacing",
            "\(ParameterSpec.format(spacing)) is not a container's spacing; give 0 to "
              + "\(ParameterSpec.format(Scene.spacings.upperBound)) points")
        }
        var built = try stack(
          ZStackLayout(alignment: .center), "glassEffectContainer", nil, children, path, env, depth)
        built.drawing = .container(
          GlassContainer(spacing: spacing, glass: [], containerShape: env.containerShape), path: path, built.drawing)
        return built
      case .spacer(let minLength):
        if let minLength, !minLength.isFinite {
          throw fail("\(path).minLength", "\(ParameterSpec.format(minLength)) is not a length; give a number of points")
        }
        return leaf(SpacerLayout(minLength: minLength, axis: axis), "spacer") { _ in .nothing }
      case .text(let text, let explicit):
        let resolved = env.resolve(text, explicit: explicit)
        let measures = try measuredText(resolved, at: path)
        return leaf(measures.rule, "text") { .text($0, resolved, measures) }
      case .image(let source):
        guard let pixels = layout.imageSize(source.path) else {
          throw fail("\(path).image", "the image \(source.path) was not loaded; load it with SceneFile.loadImages")
        }
        guard source.scale.isFinite && source.scale > 0 else {
          throw fail(
            "\(path).scale", "\(ParameterSpec.format(source.scale)) is not a scale; give pixels per point above 0")
        }
        let size = PointSize(
          width: Double(pixels.width) / source.scale, height: Double(pixels.height) / source.scale)
        let rule: any LayoutRule = source.isResizable ? FlexibleLeafLayout(ideal: size) : FixedLeafLayout(size)
        let image = ImageLayer(source: source.path, frame: PointRect(x: 0, y: 0, width: 0, height: 0))
        return leaf(rule, "image") { .image($0, image) }
      case .shape(let shape, let style):
        let paint = style ?? .fill(env.foregroundStyle ?? .color(.primary))
        return leaf(FlexibleLeafLayout(), shape.kind == "rect" ? "color" : shape.kind) {
          .shape($0, shape, paint, env.containerShape)
        }
      case .button(let label):
        var labelEnv = env
        if env.buttonStyle == .glassProminent, labelEnv.foregroundStyle == nil {
          labelEnv.foregroundStyle = .color(.white)
        } else if env.buttonStyle == nil, labelEnv.foregroundStyle == nil {
          labelEnv.foregroundStyle = .color(env.tint ?? ButtonStyle.accentColor)
        }
        let inner = try build(label, at: "\(path).label", env: labelEnv, axis: nil, depth: depth.nested)
        guard let style = env.buttonStyle else {
          let node = LayoutNode(PaddingLayout(EdgeInsets()), kind: "button", path: path, children: [inner.node])
          return Built(node: node, inLayout: true, drawing: inner.drawing)
        }
        let node = LayoutNode(
          PaddingLayout(ViewLayout.buttonPadding), kind: "button", path: path, children: [inner.node])
        var glass = Glass.regular.interactive()
        if style == .glassProminent {
          glass = glass.tint(env.tint ?? ButtonStyle.accentColor)
        } else if let tint = env.tint {
          glass = glass.tint(tint)
        }
        let template = GlassLayer(glass: glass, shape: .capsule, frame: PointRect(x: 0, y: 0, width: 0, height: 0))
        return Built(node: node, inLayout: true, drawing: .glass(node, template, inner.drawing))
      case .textField(let field):
        let shown =
          field.text.isEmpty
          ? field.placeholder : field.isSecure ? String(repeating: "•", count: field.text.count) : field.text
        var text = env.resolve(TextContent(shown), explicit: [])
        text.lineLimit = 1
        text.alignment = .leading
        if field.text.isEmpty { text.foregroundStyle = .color(ViewLayout.placeholderColor) }
        let measures = try measuredText(text, at: path)
        let textNode = LayoutNode(measures.rule, kind: "text", path: path)
        let padded = LayoutNode(
          PaddingLayout(ViewLayout.textFieldPadding), kind: "padding", path: path, children: [textNode])
        let node = LayoutNode(
          FlexFrameLayout(minWidth: 0, maxWidth: .infinity, alignment: .leading), kind: "textField", path: path,
          children: [padded])
        var drawings: [Drawing] = []
        if env.textFieldStyle == .roundedBorder {
          let radius = ViewLayout.textFieldCornerRadius
          drawings.append(
            .shape(
              node, .roundedRect(cornerRadius: radius, style: .continuous), .fill(.color(ViewLayout.textFieldBorder)),
              nil))
          drawings.append(
            .shape(node, .roundedRect(cornerRadius: radius, style: .continuous), .fill(.color(.systemBackground)), nil))
        }
        drawings.append(.text(textNode, text, measures))
        return Built(node: node, inLayout: true, drawing: .sequence(drawings))
      case .layers(let layers):
        return Built(
          node: LayoutNode(FixedLeafLayout(PointSize(width: 0, height: 0)), kind: "layers", path: path),
          inLayout: false, drawing: .layers(layers, path: path))
      }
    }

    func checkSpacing(_ spacing: Double?, at path: String) throws {
      guard let spacing else { return }
      guard spacing.isFinite, spacing >= 0, spacing <= Scene.maximumFrameSidePoints else {
        throw fail(
          path,
          "\(ParameterSpec.format(spacing)) is not a spacing; give a number of points from 0 to "
            + "\(ParameterSpec.format(Scene.maximumFrameSidePoints)) (or leave it out for the default)")
      }
    }

    mutating func stack(
      _ rule: any LayoutRule, _ kind: String, _ axis: Axis?, _ children: [ViewNode], _ path: String,
      _ env: Environment, _ depth: Depth
    ) throws -> Built {
      var nodes: [LayoutNode] = []
      var drawings: [Drawing] = []
      for (child, childPath, outer) in flatten(children, at: path) {
        let built = try build(child, at: childPath, env: env, axis: axis, depth: depth.nested, outer: outer)
        if built.inLayout { nodes.append(built.node) }
        drawings.append(built.drawing)
      }
      return Built(
        node: LayoutNode(rule, kind: kind, path: path, children: nodes), inLayout: true, drawing: .sequence(drawings))
    }

    /// A text's measures: its size under each proposal, measured with the
    /// layout's fonts and caches (its ideal size is one line per paragraph; a
    /// width wraps it). The ideal size is measured here, so a font that cannot be
    /// had or an unknown icon fails at the text's path before layout.
    func measuredText(_ text: TextContent, at path: String) throws -> TextMeasures {
      let directory = layout.directory
      let caches = layout.caches
      let ideal: PointSize
      do {
        ideal = try caches.contentLayout(text, maxWidth: nil, directory: directory).size
      } catch let error as GlassError {
        throw error.located(GlassError.Location(jsonPath: path))
      }
      return TextMeasures(ideal: ideal) { width in
        try? caches.contentLayout(text, maxWidth: width, directory: directory)
      }
    }

    mutating func apply(
      _ modifier: ViewModifierNode, at path: String, to built: Built, env: Environment, inner: Environment,
      depth: Depth
    ) throws -> Built {
      func wrap(_ rule: any LayoutRule, _ kind: String, extra: [LayoutNode] = []) throws -> Built {
        guard built.inLayout else {
          throw fail(
            path,
            "\(kind) after frame(x:y:) or on absolute layers has nothing to lay out; write it before frame(x:y:)")
        }
        var wrapped = built
        wrapped.node = LayoutNode(rule, kind: kind, path: path, children: [built.node] + extra)
        return wrapped
      }
      /// The view, an image, with `change` made to its image layer.
      func onImage(_ refusal: String, _ change: (inout ImageLayer) -> Void) throws -> Built {
        guard case .image(let node, var image) = built.drawing else { throw fail(path, refusal) }
        change(&image)
        var wrapped = built
        wrapped.drawing = .image(node, image)
        return wrapped
      }
      switch modifier {
      case .padding(let insets):
        for (edge, value) in [
          ("top", insets.top), ("leading", insets.leading), ("bottom", insets.bottom), ("trailing", insets.trailing),
        ] where !(value.isFinite && abs(value) <= Scene.maximumFrameSidePoints) {
          throw fail("\(path).padding", "the \(edge) padding \(ParameterSpec.format(value)) is not a number of points")
        }
        return try wrap(PaddingLayout(insets), "padding")
      case .frame(let width, let height, let alignment):
        for (name, value) in [("width", width), ("height", height)] {
          if let value, !(value.isFinite && value >= 0 && value <= Scene.maximumFrameSidePoints) {
            throw fail(
              "\(path).frame.\(name)",
              "\(ParameterSpec.format(value)) is not a \(name); give 0 to \(ParameterSpec.format(Scene.maximumFrameSidePoints)) points"
            )
          }
        }
        return try wrap(FrameLayout(width: width, height: height, alignment: alignment), "frame")
      case .flexibleFrame(let frame):
        try checkFlexible(frame, at: "\(path).frame")
        return try wrap(frame.rule, "frame")
      case .position(let x, let y, let width, let height):
        for (name, value) in [("x", x), ("y", y)] where !value.isFinite {
          throw fail("\(path).frame.\(name)", "\(name) is not a finite number of points")
        }
        guard built.inLayout else { throw fail(path, "the view is already placed at absolute points") }
        positioned.append(Positioned(node: built.node, x: x, y: y, width: width, height: height))
        var placed = built
        placed.inLayout = false
        return placed
      case .fixedSize(let horizontal, let vertical):
        return try wrap(FixedSizeLayout(horizontal: horizontal, vertical: vertical), "fixedSize")
      case .layoutPriority(let priority):
        guard priority.isFinite else { throw fail("\(path).layoutPriority", "give a finite priority") }
        return try wrap(LayoutPriorityLayout(priority), "layoutPriority")
      case .offset(let x, let y):
        guard x.isFinite, y.isFinite else { throw fail("\(path).offset", "give finite x and y, in points") }
        return try wrap(OffsetLayout(x: x, y: y), "offset")
      case .aspectRatio(let ratio, let mode):
        if let ratio, !(ratio.isFinite && ratio > 0) {
          throw fail(
            "\(path).aspectRatio",
            "\(ParameterSpec.format(ratio)) is not a width-to-height ratio; give a positive number")
        }
        var wrapped = try wrap(AspectRatioLayout(ratio, contentMode: mode), "aspectRatio")
        if case .image(let node, var image) = built.drawing {
          image.contentMode = mode
          wrapped.drawing = .image(node, image)
        }
        return wrapped
      case .overlay(let view, let alignment), .background(let view, let alignment):
        let isOverlay: Bool
        if case .overlay = modifier { isOverlay = true } else { isOverlay = false }
        let name = isOverlay ? "overlay" : "background"
        let secondary = try build(view, at: "\(path).\(name).content", env: env, axis: nil, depth: depth.nested)
        guard secondary.inLayout else {
          throw fail(
            "\(path).\(name).content", "an \(name)'s view is placed in the view's frame; remove its frame(x:y:)")
        }
        var wrapped = try wrap(SecondaryLayout(alignment: alignment), name, extra: [secondary.node])
        wrapped.drawing = .sequence(
          isOverlay ? [built.drawing, secondary.drawing] : [secondary.drawing, built.drawing])
        return wrapped
      case .ignoresSafeArea(let edges):
        built.node.ignoredSafeAreaEdges.formUnion(edges)
        return built
      case .glassEffect(let glass, let shape, let optics):
        var wrapped = built
        let template = GlassLayer(
          glass: glass, shape: shape, frame: PointRect(x: 0, y: 0, width: 0, height: 0), optics: optics,
          containerShape: inner.containerShape)
        wrapped.drawing = .glass(built.node, template, built.drawing)
        return wrapped
      case .glassEffectID, .glassEffectUnion, .glassEffectTransition:
        var wrapped = built
        wrapped.drawing = .glassAttributes([modifier], built.drawing)
        return wrapped
      case .clipShape(let shape):
        return try onImage("clipShape applies to an image here; give other views their shape directly") {
          $0.clipShape = shape
        }
      case .backgroundExtensionEffect(let ext):
        return try onImage("backgroundExtensionEffect applies to an image") { $0.backgroundExtension = ext }
      case .font, .fontWeight, .foregroundStyle, .lineLimit, .multilineTextAlignment, .buttonStyle, .tint,
        .textFieldStyle, .containerShape:
        return built
      }
    }

    func checkFlexible(_ f: FlexibleFrame, at path: String) throws {
      let fields: [(String, Double?)] = [
        ("minWidth", f.minWidth), ("idealWidth", f.idealWidth), ("maxWidth", f.maxWidth), ("minHeight", f.minHeight),
        ("idealHeight", f.idealHeight), ("maxHeight", f.maxHeight),
      ]
      for (name, value) in fields {
        guard let value else { continue }
        let isMax = name.hasPrefix("max")
        guard value >= 0, value.isFinite || (isMax && value == .infinity), !value.isNaN else {
          throw fail(
            "\(path).\(name)",
            "\(ParameterSpec.format(value)) is not a length; give a number of points from 0\(isMax ? ", or \"infinity\"" : "")"
          )
        }
      }
    }
  }

  /// The sizes a text has taken under the widths it was offered, and the width
  /// each was measured within. Lines break greedily (`TextLayout`: each line the
  /// longest run of words that fits), so a text wrapped within `w` whose widest
  /// line is `m` wraps the same way within any width from `m` to `w`: one
  /// measure answers that whole range (not so a text cut short with "…", whose
  /// last line fills its width). Lowering draws the text within the width its
  /// final size was measured within (`lineBreakWidth(within:)`), so what is
  /// drawn is the layout that was measured, taken from the caches. Used from the
  /// one thread that lays its tree out.
  final class TextMeasures: @unchecked Sendable {
    private var known: [(least: Double, most: Double, size: PointSize, measuredWithin: Double)] = []
    private let ideal: PointSize
    private let measure: (Double) -> ContentLayout?

    /// Measures with the ideal size known; `measure` lays the text out within a width.
    init(ideal: PointSize, measure: @escaping (Double) -> ContentLayout?) {
      self.ideal = ideal
      self.measure = measure
      known = [(ideal.width, .infinity, ideal, .infinity)]
    }

    /// The leaf rule: the ideal size under an unspecified width or one at least
    /// the ideal width, else the text wrapped within the width offered.
    var rule: MeasuredLeafLayout {
      MeasuredLeafLayout { proposal in self.measured(within: proposal.width).size }
    }

    /// The size within `width` (nil: unspecified) and the width it was measured within.
    private func measured(within width: Double?) -> (size: PointSize, measuredWithin: Double) {
      guard let width, width < ideal.width else { return (ideal, .infinity) }
      if let entry = known.first(where: { $0.least <= width && width <= $0.most }) {
        return (entry.size, entry.measuredWithin)
      }
      guard let layout = measure(width) else { return (ideal, .infinity) }
      // A text cut short with "…" fills the width it had: that width alone.
      let exactly = layout.text?.isTruncated ?? false
      known.append((exactly ? width : min(layout.size.width, width), width, layout.size, width))
      return (layout.size, width)
    }

    /// The width the text's size under a proposal of `width` was measured within
    /// (infinity: one line per paragraph).
    func lineBreakWidth(within width: Double?) -> Double { measured(within: width).measuredWithin }
  }

  // MARK: Frames and lowering

  /// Every laid-out node's frame, snapped or as given.
  struct Frames {
    let scale: Double
    /// The canvas's width when the layout runs right to left: every frame is
    /// mirrored across it (x' = width − x − w); nil: left to right.
    var mirrorWidth: Double?
    var views: [ResolvedView] = []
    var byNode: [ObjectIdentifier: (exact: PointRect, drawn: PointRect)] = [:]

    init(scale: Double) { self.scale = scale }

    /// `rect` mirrored when the layout runs right to left.
    func mirrored(_ rect: PointRect) -> PointRect {
      guard let width = mirrorWidth else { return rect }
      return PointRect(x: width - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
    }

    mutating func add(_ node: LayoutNode, _ view: ResolvedView, snapped: Bool) {
      var view = view
      view.frame = mirrored(view.frame)
      let drawn = snapped ? LayoutNode.snap(view.frame, pixelScale: scale) : view.frame
      byNode[ObjectIdentifier(node)] = (view.frame, drawn)
      var resolved = view
      resolved.frame = drawn
      views.append(resolved)
    }

    func drawn(_ node: LayoutNode) -> PointRect { byNode[ObjectIdentifier(node)]?.drawn ?? .zero }
    func exact(_ node: LayoutNode) -> PointRect { byNode[ObjectIdentifier(node)]?.exact ?? .zero }
  }

  struct Lowering {
    let frames: Frames

    /// The frame `node` is drawn at, when it lies where a layer's frame may
    /// (`Scene.framePositions`, `Scene.frameSides`); else an error at the view's
    /// path (layout can carry a view past them: a tall stack, a large offset).
    func checked(_ frame: PointRect, of node: LayoutNode) throws -> PointRect {
      let edges = [
        ("x", frame.x, Scene.framePositions), ("y", frame.y, Scene.framePositions),
        ("width", frame.width, Scene.frameSides), ("height", frame.height, Scene.frameSides),
      ]
      for (name, value, range) in edges where !range.contains(value) {
        throw GlassError(
          .invalidScene,
          "laid out, the view's \(name) is \(ParameterSpec.format(value)) pt, outside the "
            + "\(ParameterSpec.format(range.lowerBound)) … \(ParameterSpec.format(range.upperBound)) pt a drawn "
            + "frame may have; make the views before it smaller or move it nearer the canvas",
          at: GlassError.Location(jsonPath: node.path))
      }
      return frame
    }

    /// Right to left, a shape's leading corners are on the right.
    func mirrored(_ shape: Shape) -> Shape {
      guard frames.mirrorWidth != nil else { return shape }
      switch shape {
      case .rect, .capsule, .circle, .ellipse, .roundedRect: return shape
      case .unevenRoundedRect(let r, let style):
        return .unevenRoundedRect(
          CornerRadii(
            topLeading: r.topTrailing, topTrailing: r.topLeading, bottomTrailing: r.bottomLeading,
            bottomLeading: r.bottomTrailing), style: style)
      case .concentric(let c, let isUniform):
        var m = c
        (m.topLeading, m.topTrailing, m.bottomLeading, m.bottomTrailing) = (
          c.topTrailing, c.topLeading, c.bottomTrailing, c.bottomLeading
        )
        return .concentric(m, isUniform: isUniform)
      }
    }

    /// Right to left, a container shape lies at its mirrored place.
    func mirrored(_ container: ContainerShape?) -> ContainerShape? {
      guard var container, frames.mirrorWidth != nil else { return container }
      container.frame = frames.mirrored(container.frame)
      return container
    }

    /// Right to left, a gradient runs from the mirrored unit points (leading is the right side).
    func mirrored(_ fill: Fill) -> Fill {
      guard frames.mirrorWidth != nil else { return fill }
      func flip(_ p: UnitPoint) -> UnitPoint { UnitPoint(x: 1 - p.x, y: p.y) }
      switch fill {
      case .color: return fill
      case .linearGradient(let g, let start, let end):
        return .linearGradient(g, startPoint: flip(start), endPoint: flip(end))
      case .radialGradient(let g, let center, let r0, let r1):
        return .radialGradient(g, center: flip(center), startRadius: r0, endRadius: r1)
      }
    }

    /// Layers made so far, each with where it came from.
    struct Emitted {
      var layers: [Layer] = []
      var sources: [LayerSource] = []

      mutating func append(_ layer: Layer, _ source: LayerSource) {
        layers.append(layer)
        sources.append(source)
      }

      mutating func append(_ other: Emitted) {
        layers += other.layers
        sources += other.sources
      }
    }

    /// Appends the layers of `drawing` to `out`, in paint order. Without
    /// recursion: a chain of a thousand modifiers nests a thousand drawings, so
    /// the walk keeps its own stack (each wrapper's content is made in a buffer
    /// of its own, then finished into the one below it).
    func emit(_ drawing: Drawing, into out: inout Emitted) throws {
      enum Task {
        /// Emit this drawing into the top buffer.
        case visit(Drawing)
        /// The top buffer is this wrapper's content: finish it into the one below.
        case finish(Drawing)
      }
      var tasks: [Task] = [.visit(drawing)]
      var buffers = [out]
      while let task = tasks.popLast() {
        switch task {
        case .visit(let drawing):
          switch drawing {
          case .nothing, .shape, .image, .text, .layers:
            try emitLeaf(drawing, into: &buffers[buffers.count - 1])
          case .sequence(let parts):
            tasks += parts.reversed().map(Task.visit)
          case .glass(_, _, let inner), .container(_, _, let inner), .glassAttributes(_, let inner):
            tasks.append(.finish(drawing))
            tasks.append(.visit(inner))
            buffers.append(Emitted())
          }
        case .finish(let wrapper):
          let content = buffers.removeLast()
          try finish(wrapper, content, into: &buffers[buffers.count - 1])
        }
      }
      out = buffers[0]
    }

    /// A drawing with no drawing inside it: its layer, if it has one.
    func emitLeaf(_ drawing: Drawing, into out: inout Emitted) throws {
      switch drawing {
      case .nothing, .sequence, .glass, .container, .glassAttributes: break
      case .shape(let node, let shape, let style, let container):
        let frame = try checked(frames.drawn(node), of: node)
        let (shape, container) = (mirrored(shape), mirrored(container))
        switch style {
        case .fill(let fill):
          if case .color(let c) = fill, c.opacity == 0 { return }
          out.append(
            .shape(ShapeLayer(shape: shape, frame: frame, fill: mirrored(fill), containerShape: container)),
            LayerSource(path: node.path))
        case .material(let material):
          out.append(
            .material(MaterialLayer(material: material, shape: shape, frame: frame, containerShape: container)),
            LayerSource(path: node.path))
        }
      case .image(let node, var image):
        image.frame = try checked(frames.drawn(node), of: node)
        out.append(.image(image), LayerSource(path: node.path))
      case .text(let node, var text, let measures):
        // Drawn at its snapped place, at the size it was measured at and broken
        // into the lines it was measured with.
        let exact = frames.exact(node)
        let drawn = frames.drawn(node)
        text.lineBreakWidth = measures.lineBreakWidth(within: node.placedProposal?.width)
        let frame = try checked(
          PointRect(x: drawn.x, y: drawn.y, width: exact.width, height: exact.height), of: node)
        out.append(.text(TextLayer(text, frame: frame)), LayerSource(path: node.path))
      case .layers(let absolute, let path):
        for (index, layer) in absolute.enumerated() {
          let at = "\(path).layers[\(index)]"
          var glass: [LayerSource] = []
          if case .container(let c) = layer {
            glass = c.glass.indices.map {
              LayerSource(path: "\(at).glass[\($0)]", contentPath: "\(at).glass[\($0)].content")
            }
          }
          out.append(layer, LayerSource(path: at, contentPath: "\(at).content", glass: glass, isWritten: true))
        }
      }
    }

    /// A wrapper (glass, a container, glass attributes) finished over its
    /// `content`, already emitted, into `out`.
    func finish(_ wrapper: Drawing, _ content: Emitted, into out: inout Emitted) throws {
      switch wrapper {
      case .nothing, .shape, .image, .text, .layers, .sequence: out.append(content)
      case .glass(let node, var glass, _):
        glass.frame = try checked(frames.drawn(node), of: node)
        glass.shape = mirrored(glass.shape)
        glass.containerShape = mirrored(glass.containerShape)
        // Text centred on its glass (within a pixel) rides on it, as a button's
        // title does: it moves and fades with the glass. When several texts
        // ride on it (a badge's symbol on its hexagon), the first is the
        // glass's content and each other is the content of an identity glass
        // of the same frame after it (a companion), as a union's members keep
        // theirs: companions take the glass's id with `#1`, `#2`… and its
        // transition, so they come and go with it. Each keeps its text's path.
        let pixel = 1 / frames.scale
        let riders = zip(content.layers, content.sources).compactMap { layer, source -> (TextLayer, LayerSource)? in
          guard case .text(let text) = layer, text.opacity == 1,
            abs(text.frame.midX - glass.frame.midX) <= pixel, abs(text.frame.midY - glass.frame.midY) <= pixel,
            glass.frame.width >= text.frame.width
          else { return nil }
          return (text, source)
        }
        if !riders.isEmpty && riders.count == content.layers.count {
          func onGlass(_ text: TextLayer) -> GlassContent {
            GlassContent(text.text, padding: (glass.frame.width - text.frame.width) / 2)
          }
          glass.content = onGlass(riders[0].0)
          out.append(.glass(glass), LayerSource(path: node.path, contentPath: riders[0].1.path))
          for (rider, source) in riders.dropFirst() {
            var companion = GlassLayer(glass: .identity, frame: glass.frame, content: onGlass(rider))
            companion.effectTransition = glass.effectTransition
            out.append(.glass(companion), LayerSource(path: node.path, contentPath: source.path))
          }
          return
        }
        out.append(.glass(glass), LayerSource(path: node.path))
        out.append(content)
      case .container(var container, let path, _):
        container.containerShape = mirrored(container.containerShape)
        var others = Emitted()
        var glassSources: [LayerSource] = []
        for (layer, source) in zip(content.layers, content.sources) {
          switch layer {
          case .glass(let g):
            container.glass.append(g)
            glassSources.append(source)
          case .container(let c):
            container.glass += c.glass
            glassSources += source.glass
          case .image, .shape, .material, .text: others.append(layer, source)
          }
        }
        out.append(.container(container), LayerSource(path: path, glass: glassSources))
        out.append(others)
      case .glassAttributes(let attributes, _):
        var content = content
        Self.applyToFirstGlass(attributes, in: &content.layers)
        out.append(content)
      }
    }

    /// Sets the glass attributes on the first glass of `layers` (a modifier such
    /// as `glassEffectID` names the glass of the view it is written on).
    static func applyToFirstGlass(_ attributes: [ViewModifierNode], in layers: inout [Layer]) {
      func set(_ glass: inout GlassLayer, companion: Int = 0) {
        for attribute in attributes {
          switch attribute {
          case .glassEffectID(let id): glass.effectID = companion == 0 ? id : "\(id)#\(companion)"
          case .glassEffectUnion(let id): if companion == 0 { glass.unionID = id }
          case .glassEffectTransition(let t): glass.effectTransition = t
          default: break
          }
        }
      }
      /// The glass at `first` and its companions after it (identity glass of its
      /// frame carrying content), in `glass`.
      func setWithCompanions(_ glass: inout [GlassLayer], from first: Int) {
        set(&glass[first])
        var k = first + 1
        while k < glass.count && glass[k].glass == .identity && glass[k].frame == glass[first].frame
          && glass[k].content != nil && glass[k].effectID == nil
        {
          set(&glass[k], companion: k - first)
          k += 1
        }
      }
      for index in layers.indices {
        switch layers[index] {
        case .glass:
          var run: [GlassLayer] = []
          var end = index
          while end < layers.count, case .glass(let g) = layers[end] {
            run.append(g)
            end += 1
          }
          setWithCompanions(&run, from: 0)
          for (offset, g) in run.enumerated() { layers[index + offset] = .glass(g) }
          return
        case .container(var c) where !c.glass.isEmpty:
          setWithCompanions(&c.glass, from: 0)
          layers[index] = .container(c)
          return
        default: continue
        }
      }
    }
  }
}

extension PointRect {
  /// The empty rectangle at the origin.
  static let zero = PointRect(x: 0, y: 0, width: 0, height: 0)
}
