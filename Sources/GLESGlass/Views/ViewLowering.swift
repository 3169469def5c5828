import Foundation

extension ViewLayout {
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
