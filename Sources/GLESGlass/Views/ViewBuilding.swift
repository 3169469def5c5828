import Foundation

extension ViewLayout {
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
    /// Every text built, with its measures: whether each is drawn cut short.
    var texts: [(node: LayoutNode, measures: TextMeasures)] = []

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
          modifier, at: modifierPath, to: built, env: envs[index + 1], inner: envs[0], axis: axis, depth: below)
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
        let built = leaf(measures.rule, "text") { .text($0, resolved, measures) }
        texts.append((built.node, measures))
        return built
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
        // A resizable image is drawn stretched to its frame, as SwiftUI draws it (its
        // ratio is kept only by `aspectRatio` around it, which gives it a frame of
        // that ratio); one that is not is drawn at its own size, its frame's.
        let image = ImageLayer(
          source: source.path, frame: PointRect(x: 0, y: 0, width: 0, height: 0),
          contentMode: source.isResizable ? .stretch : .fill)
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
        texts.append((textNode, measures))
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
      let ideal: ContentLayout
      do {
        ideal = try caches.contentLayout(text, maxWidth: nil, directory: directory)
      } catch let error as GlassError {
        throw error.located(GlassError.Location(jsonPath: path))
      }
      return TextMeasures(ideal: ideal.size, truncated: ideal.text?.isTruncated ?? false) { width in
        try? ContentLayout.measure(text, maxWidth: width, directory: directory, caches: caches)
      }
    }

    /// `modifier` applied to `built`, a view inside a stack of `axis` (nil: none),
    /// which the view of an overlay or a background is inside too (a `Spacer`
    /// there takes that stack's axis, as SwiftUI builds the secondary view with
    /// the modified view's inputs).
    mutating func apply(
      _ modifier: ViewModifierNode, at path: String, to built: Built, env: Environment, inner: Environment,
      axis: Axis?, depth: Depth
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
        guard mode != .stretch else {
          throw fail("\(path).aspectRatio", "aspectRatio's contentMode is fit or fill")
        }
        return try wrap(AspectRatioLayout(ratio, contentMode: mode), "aspectRatio")
      case .overlay(let view, let alignment), .background(let view, let alignment):
        let isOverlay: Bool
        if case .overlay = modifier { isOverlay = true } else { isOverlay = false }
        let name = isOverlay ? "overlay" : "background"
        let secondary = try build(view, at: "\(path).\(name).content", env: env, axis: axis, depth: depth.nested)
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
  /// last line fills its width). A measure is the size alone
  /// (`ContentLayout.measure`: the lines broken, not made), from the text's
  /// paragraphs shaped once; lowering draws the text within the width its final
  /// size was measured within (`lineBreakWidth(within:)`), so what is drawn is
  /// the layout that was measured, made once from the same shaped paragraphs.
  /// Used from the one thread that lays its tree out.
  final class TextMeasures: @unchecked Sendable {
    private var known: [(least: Double, most: Double, size: PointSize, measuredWithin: Double, truncated: Bool)] = []
    private let ideal: PointSize
    private let measure: (Double) -> (size: PointSize, truncated: Bool)?

    /// Measures with the ideal size known (and whether it is cut short, by a
    /// line limit); `measure` measures the text within a width.
    init(ideal: PointSize, truncated: Bool, measure: @escaping (Double) -> (size: PointSize, truncated: Bool)?) {
      self.ideal = ideal
      self.measure = measure
      known = [(ideal.width, .infinity, ideal, .infinity, truncated)]
    }

    /// The leaf rule: the ideal size under an unspecified width or one at least
    /// the ideal width, else the text wrapped within the width offered.
    var rule: MeasuredLeafLayout {
      MeasuredLeafLayout { proposal in self.measured(within: proposal.width).size }
    }

    /// The size within `width` (nil: unspecified) and the width it was measured within.
    private func measured(within width: Double?) -> (size: PointSize, measuredWithin: Double, truncated: Bool) {
      guard let width, width < ideal.width else { return (ideal, .infinity, known[0].truncated) }
      if let entry = known.first(where: { $0.least <= width && width <= $0.most }) {
        return (entry.size, entry.measuredWithin, entry.truncated)
      }
      guard let measured = measure(width) else { return (ideal, .infinity, known[0].truncated) }
      // A text cut short with "…" fills the width it had: that width alone.
      let truncated = measured.truncated
      known.append((truncated ? width : min(measured.size.width, width), width, measured.size, width, truncated))
      return (measured.size, width, truncated)
    }

    /// The width the text's size under a proposal of `width` was measured within
    /// (infinity: one line per paragraph).
    func lineBreakWidth(within width: Double?) -> Double { measured(within: width).measuredWithin }

    /// Whether the text is cut short with "…" under a proposal of `width`.
    func isTruncated(within width: Double?) -> Bool { measured(within: width).truncated }
  }
}
