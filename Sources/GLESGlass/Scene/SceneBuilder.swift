/// The SwiftUI-like way to build a `Scene`: views with modifiers in a result
/// builder, each becoming the same `Layer` values a scene file makes.
///
///     let scene = Scene(width: 480, height: 320) {
///       Image("photo.png").frame(x: 0, y: 0, width: 480, height: 320)
///       GlassEffectContainer(spacing: 40) {
///         Image("icons/star.png").padding(12).frame(x: 20, y: 20, width: 64, height: 64)
///           .glassEffect(.regular.tint(.orange).interactive(), in: .rect(cornerRadius: 16))
///       }
///       Color.clear.frame(x: 100, y: 200, width: 220, height: 64).glassEffect()
///       RoundedRectangle(cornerRadius: 24).fill(.white).frame(x: 20, y: 240, width: 200, height: 60)
///         .background(.ultraThinMaterial, in: .rect(cornerRadius: 24))
///     }
public protocol SceneElement: PrimitiveView {
  /// The layers this element draws at absolute points, back to front.
  var layers: [Layer] { get }
}

extension SceneElement {
  /// As a view: its layers at absolute points, taking no room in layout.
  public var viewNode: ViewNode { ViewNode(.layers(layers)) }
}

/// The builder of a scene's content: `ViewBuilder`, which takes views and the
/// elements placed at absolute points alike.
public typealias SceneBuilder = ViewBuilder

extension Layer: SceneElement {
  /// The layer itself.
  public var layers: [Layer] { [self] }
}

extension ViewNode {
  /// The layers of a node made only of absolute layers (the elements of the
  /// first Swift API, each placed with `frame(x:y:…)`), nil for a tree to lay out.
  var absoluteLayers: [Layer]? {
    guard modifiers.isEmpty else { return nil }
    switch content {
    case .layers(let layers): return layers
    case .group(let children):
      var all: [Layer] = []
      for child in children {
        guard let layers = child.absoluteLayers else { return nil }
        all += layers
      }
      return all
    default: return nil
    }
  }
}

extension Scene {
  /// A scene of `width` x `height` points at `scale`: its content built in order.
  /// Elements placed at absolute points (`frame(x:y:…)`) become its layers, as
  /// they always have; views to lay out become its `body`.
  public init(
    width: Double, height: Double, scale: Int = 2, background: Background = .fill(.color(.systemBackground)),
    safeAreaInsets: EdgeInsets = EdgeInsets(), @ViewBuilder content: () -> some View
  ) {
    self.init(size: PointSize(width: width, height: height), scale: scale, background: background)
    self.safeAreaInsets = safeAreaInsets
    let node = content().resolvedViewNode
    if let layers = node.absoluteLayers { self.layers = layers } else { body = node }
  }

  /// A scene whose content is a function of its state, as SwiftUI's is of a
  /// `@State` value: one state per name, its view tree built from its value
  /// (`["collapsed": false, "expanded": true]` makes `{ isExpanded in … }` read
  /// as Apple's samples do). The first state is what `render` draws.
  public init<Value>(
    width: Double, height: Double, scale: Int = 2, background: Background = .fill(.color(.systemBackground)),
    safeAreaInsets: EdgeInsets = EdgeInsets(), states: KeyValuePairs<String, Value>,
    @ViewBuilder content: (Value) -> some View
  ) {
    self.init(size: PointSize(width: width, height: height), scale: scale, background: background)
    self.safeAreaInsets = safeAreaInsets
    for (name, value) in states {
      let node = content(value).resolvedViewNode
      if let layers = node.absoluteLayers {
        self.states.append(SceneState(name, layers: layers))
      } else {
        self.states.append(SceneState(name, layers: [], body: node))
      }
    }
    if let first = self.states.first {
      layers = first.layers
      body = first.body
    }
  }
}

extension Scene {
  /// The scene with a state named `name`, its content built in order (the first
  /// state is also the scene's own content when it has none).
  public func state(_ name: String, @ViewBuilder content: () -> some View) -> Scene {
    var copy = self
    let node = content().resolvedViewNode
    if let layers = node.absoluteLayers {
      copy.states.append(SceneState(name, layers: layers))
    } else {
      copy.states.append(SceneState(name, layers: [], body: node))
    }
    if copy.layers.isEmpty && copy.body == nil {
      copy.layers = copy.states[0].layers
      copy.body = copy.states[0].body
    }
    return copy
  }

  /// The scene with a transition between two of its states: `withAnimation`.
  public func transition(from: String, to: String, animation: TimingCurve = .default) -> Scene {
    var copy = self
    copy.transition = SceneTransition(from: from, to: to, animation: animation)
    return copy
  }
}

extension Background {
  /// A colour background.
  public static func color(_ color: Color) -> Background { .fill(.color(color)) }
}

/// Something with a frame that can take glass or a material behind it: placed at
/// absolute points with `frame(x:y:…)` it draws layers there (`layers`); not
/// placed, it is a view laid out by its container (`viewNode`).
public protocol FramedElement: SceneElement {
  /// Its frame, in points, once placed.
  var frame: PointRect { get }
  /// The image drawn on glass when this element becomes glass, if any.
  var glassContent: GlassContent? { get }
  /// Whether `frame(x:y:…)` placed it at absolute points.
  var isPlaced: Bool { get }
  /// The sides of `frame` layout sizes to its text (nil: none; `Text`'s when
  /// placed without a width or a height).
  var fit: ContentFit? { get }
}

extension FramedElement {
  /// None: the frame is given in full.
  public var fit: ContentFit? { nil }
}

extension FramedElement {
  /// `glassEffect(_:in:)`: this element's frame becomes glass of `shape`, with the
  /// element (an image, text) drawn on it; `optics` overrides optical parameters by name.
  public func glassEffect(
    _ glass: Glass = .regular, in shape: Shape = .capsule, optics: [String: Double] = [:]
  ) -> GlassEffectElement {
    var layer = GlassLayer(
      glass: glass, shape: shape, frame: frame, content: glassContent, optics: GlassOptics.Overrides(optics))
    layer.fit = fit
    return GlassEffectElement(glassLayer: layer, source: isPlaced ? nil : viewNode)
  }

  /// `.background(_:in:)` with a material: a material panel of `shape` behind this element.
  public func background(_ material: Material, in shape: Shape = .rect) -> MaterialBacked {
    MaterialBacked(
      material: MaterialLayer(material: material, shape: shape, frame: frame), front: layers,
      source: isPlaced ? nil : viewNode)
  }
}

/// What `glassEffect` makes of an element: glass at its absolute frame when it
/// was placed (`glassLayer`), else the element as a view with glass in whatever
/// frame layout gives it.
public struct GlassEffectElement: SceneElement {
  /// The glass at the element's absolute frame.
  public var glassLayer: GlassLayer
  /// The element as a view, when it was not placed.
  var source: ViewNode?
  /// `glassEffectID` and the like, for the view.
  var attributes: [ViewModifierNode] = []

  /// The glass layer.
  public var layers: [Layer] { [.glass(glassLayer)] }

  /// The glass layer when placed; else the element with `glassEffect` and its attributes.
  public var viewNode: ViewNode {
    guard let source else { return ViewNode(.layers(layers)) }
    var node = source.modified(.glassEffect(glassLayer.glass, shape: glassLayer.shape, optics: glassLayer.optics))
    for attribute in attributes { node = node.modified(attribute) }
    return node
  }

  private func with(_ attribute: ViewModifierNode?, _ change: (inout GlassLayer) -> Void) -> GlassEffectElement {
    var copy = self
    change(&copy.glassLayer)
    if let attribute { copy.attributes.append(attribute) }
    return copy
  }

  /// `glassEffectUnion(id:)`: in a `GlassEffectContainer`, glass with the same id,
  /// variant and shape kind renders as one shape over all their frames.
  public func glassEffectUnion(id: (some Hashable & Sendable)?) -> GlassEffectElement {
    let value = id.map { "\($0)" }
    return with(value.map { .glassEffectUnion($0) }) { $0.unionID = value }
  }

  /// `glassEffectID(_:in:)`: pairs this glass with the glass of the same id in
  /// another state of the scene (the namespace is written before the id, `namespace.id`).
  public func glassEffectID(_ id: (some Hashable & Sendable)?, in namespace: String? = nil) -> GlassEffectElement {
    let value = id.map { value in namespace.map { "\($0).\(value)" } ?? "\(value)" }
    return with(value.map { .glassEffectID($0) }) { $0.effectID = value }
  }

  /// `glassEffectTransition(_:)`: how this glass comes and goes in a transition.
  public func glassEffectTransition(_ transition: GlassEffectTransition) -> GlassEffectElement {
    with(.glassEffectTransition(transition)) { $0.effectTransition = transition }
  }

  /// `containerShape(_:)`: the shape a concentric rectangle is resolved against.
  public func containerShape(_ container: ContainerShape) -> GlassEffectElement {
    with(.containerShape(container)) { $0.containerShape = container }
  }
}

/// What a modifier of an element makes: the layers it draws at absolute points
/// when the element was placed, else the element as a view with the modifier.
public struct ModifiedElement: SceneElement {
  /// The layers at absolute points.
  public var layers: [Layer]
  /// The element as a view, when it was not placed.
  var source: ViewNode?

  /// The layers when placed; else the view.
  public var viewNode: ViewNode { source ?? ViewNode(.layers(layers)) }
}

/// An element with a material panel behind it.
public struct MaterialBacked: SceneElement {
  /// The panel.
  public var material: MaterialLayer
  /// What is drawn on it.
  public var front: [Layer]
  /// The element as a view, when it was not placed.
  var source: ViewNode?

  /// The panel, then the element.
  public var layers: [Layer] { [.material(material)] + front }

  /// The layers when placed; else the element with the panel as its background.
  public var viewNode: ViewNode {
    guard let source else { return ViewNode(.layers(layers)) }
    return source.modified(
      .background(ViewNode(.shape(material.shape, style: .material(material.material))), alignment: .center))
  }
}

/// `Image`: a PNG, JPEG or WebP (a path relative to the scene file); `Image(systemName:)` is an icon.
public struct Image: FramedElement {
  /// The layer being built.
  public var layer: ImageLayer
  /// Space between the frame and the image when it is drawn on glass.
  public var contentPadding = 0.0
  /// Whether `frame(x:y:width:height:)` placed it.
  public private(set) var isPlaced = false
  /// `resizable()`.
  public private(set) var isResizable = false
  /// Pixels per point of the file.
  public var scale = 1.0
  /// The modifiers written on it, for the view.
  var viewModifiers: [ViewModifierNode] = []

  /// The SF Symbols name of `Image(systemName:)`, nil for a file.
  public private(set) var systemName: String?

  /// An image file; its size in points is its pixels over `scale`.
  public init(_ path: String, scale: Double = 1) {
    layer = ImageLayer(source: path, frame: PointRect(x: 0, y: 0, width: 0, height: 0))
    self.scale = scale
  }

  /// `Image(systemName:)`: an icon of `SystemImage.systemNames`, sized by its
  /// font (`font(_:)`), painted with the foreground style.
  public init(systemName: String) {
    layer = ImageLayer(source: "", frame: PointRect(x: 0, y: 0, width: 0, height: 0))
    self.systemName = systemName
  }

  private var icon: TextContent? { systemName.map { TextContent("", systemImage: $0) } }

  /// The image layer (an icon: a text layer).
  public var layers: [Layer] {
    if let icon { return [.text(TextLayer(icon, frame: layer.frame.insetBy(contentPadding)))] }
    return [.image(layer)]
  }
  /// The frame, in points.
  public var frame: PointRect { layer.frame }
  /// Drawn on glass, fitted inside the padding.
  public var glassContent: GlassContent? {
    if let icon { return GlassContent(icon, padding: contentPadding) }
    return GlassContent(source: layer.source, padding: contentPadding)
  }

  /// The image layer when placed; else the image view with its modifiers.
  public var viewNode: ViewNode {
    guard !isPlaced else { return ViewNode(.layers(layers)) }
    if let icon { return ViewNode(.text(icon, explicit: []), modifiers: viewModifiers) }
    return ViewNode(
      .image(ImageSource(path: layer.source, scale: scale, isResizable: isResizable)), modifiers: viewModifiers)
  }

  private func with(_ modifier: ViewModifierNode?, _ change: (inout Image) -> Void) -> Image {
    var copy = self
    change(&copy)
    if let modifier { copy.viewModifiers.append(modifier) }
    return copy
  }

  /// Places the image at absolute points.
  public func frame(x: Double, y: Double, width: Double, height: Double) -> Image {
    with(nil) {
      $0.layer.frame = PointRect(x: x, y: y, width: width, height: height)
      $0.isPlaced = true
    }
  }

  /// `resizable()`: the image takes the size it is offered.
  public func resizable() -> Image { with(nil) { $0.isResizable = true } }

  /// `aspectRatio(contentMode:)`.
  public func aspectRatio(contentMode: ContentMode) -> Image {
    with(.aspectRatio(nil, contentMode: contentMode)) { $0.layer.contentMode = contentMode }
  }

  /// `clipShape(_:)`.
  public func clipShape(_ shape: Shape) -> Image { with(.clipShape(shape)) { $0.layer.clipShape = shape } }

  /// `padding(_:)`, in points: placed, the space around the image when it is
  /// drawn on glass; as a view, padding.
  public func padding(_ points: Double) -> Image {
    with(.padding(EdgeInsets(all: points))) { $0.contentPadding = points }
  }

  /// `backgroundExtensionEffect()`: mirrored, blurred copies of the image fill the
  /// room around its frame (points).
  public func backgroundExtensionEffect(
    leading: Double = 0, trailing: Double = 0, top: Double = 0, bottom: Double = 0,
    sigma: Double = BackgroundExtension.defaultSigma
  ) -> Image {
    let ext = BackgroundExtension(leading: leading, trailing: trailing, top: top, bottom: bottom, sigma: sigma)
    return with(.backgroundExtensionEffect(ext)) { $0.layer.backgroundExtension = ext }
  }
}

/// A shape with a fill: what `Rectangle().fill(.blue)` makes.
public struct FilledShape: FramedElement {
  /// The layer being built.
  public var layer: ShapeLayer
  /// Whether `frame(x:y:width:height:)` placed it.
  public private(set) var isPlaced = false

  /// A clear fill draws nothing.
  public var layers: [Layer] {
    if case .color(let c) = layer.fill, c.opacity == 0 { return [] }
    return [.shape(layer)]
  }
  /// The frame, in points.
  public var frame: PointRect { layer.frame }
  /// No content on glass.
  public var glassContent: GlassContent? { nil }

  /// The layer when placed; else the shape, taking what it is offered.
  public var viewNode: ViewNode {
    guard !isPlaced else { return ViewNode(.layers(layers)) }
    let node = ViewNode(.shape(layer.shape, style: .fill(layer.fill)))
    return layer.containerShape.map { node.modified(.containerShape($0)) } ?? node
  }

  /// Places the shape at absolute points.
  public func frame(x: Double, y: Double, width: Double, height: Double) -> FilledShape {
    var copy = self
    copy.layer.frame = PointRect(x: x, y: y, width: width, height: height)
    copy.isPlaced = true
    return copy
  }

  /// `containerShape(_:)`: the shape a concentric rectangle is resolved against.
  public func containerShape(_ container: ContainerShape) -> FilledShape {
    var copy = self
    copy.layer.containerShape = container
    return copy
  }
}

/// The SwiftUI shapes as views: they take what they are offered, painted with the
/// foreground style; `.fill(_:)` paints them.
public protocol ShapeElement: PrimitiveView {
  /// The shape.
  var shape: Shape { get }
}

extension ShapeElement {
  /// `fill(_:)` with a colour.
  public func fill(_ color: Color) -> FilledShape { fill(Fill.color(color)) }

  /// `fill(_:)` with a colour or gradient.
  public func fill(_ fill: Fill) -> FilledShape {
    FilledShape(layer: ShapeLayer(shape: shape, frame: PointRect(x: 0, y: 0, width: 0, height: 0), fill: fill))
  }

  /// `fill(_:)` with a material.
  public func fill(_ material: Material) -> AnyView {
    AnyView(node: ViewNode(.shape(shape, style: .material(material))))
  }

  /// The shape in the foreground style.
  public var viewNode: ViewNode { ViewNode(.shape(shape, style: nil)) }
}

/// `Rectangle()`.
public struct Rectangle: ShapeElement {
  /// `.rect`.
  public var shape: Shape { .rect }
  /// A rectangle.
  public init() {}
}

/// `RoundedRectangle(cornerRadius:style:)`.
public struct RoundedRectangle: ShapeElement {
  /// The shape.
  public var shape: Shape

  /// A rounded rectangle.
  public init(cornerRadius: Double, style: RoundedCornerStyle = .circular) {
    shape = .roundedRect(cornerRadius: cornerRadius, style: style)
  }
}

/// `Capsule()`.
public struct Capsule: ShapeElement {
  /// `.capsule`.
  public var shape: Shape { .capsule }
  /// A capsule.
  public init() {}
}

/// `Circle()`.
public struct Circle: ShapeElement {
  /// `.circle`.
  public var shape: Shape { .circle }
  /// A circle.
  public init() {}
}

/// `Ellipse()`.
public struct Ellipse: ShapeElement {
  /// `.ellipse`.
  public var shape: Shape { .ellipse }
  /// An ellipse.
  public init() {}
}

/// `ConcentricRectangle(corners:isUniform:)`.
public struct ConcentricRectangle: ShapeElement {
  /// The shape.
  public var shape: Shape

  /// A concentric rectangle; its container shape comes from its layer or container.
  public init(corners: ConcentricCorners = ConcentricCorners(.concentric), isUniform: Bool = false) {
    shape = .concentric(corners, isUniform: isUniform)
  }
}

extension Color: FramedElement {
  /// A colour draws nothing until `frame(x:y:…)` places it; as a view it fills
  /// what it is offered.
  public var layers: [Layer] { [] }
  /// A colour has no frame until `frame(x:y:…)` gives it one.
  public var frame: PointRect { PointRect(x: 0, y: 0, width: 0, height: 0) }
  /// No content on glass.
  public var glassContent: GlassContent? { nil }
  /// A colour alone is never placed (`frame(x:y:…)` makes a filled rectangle).
  public var isPlaced: Bool { false }
  /// A rectangle of the colour.
  public var viewNode: ViewNode { ViewNode(.shape(.rect, style: .fill(.color(self)))) }

  /// The colour filling a rectangle at absolute points.
  public func frame(x: Double, y: Double, width: Double, height: Double) -> FilledShape {
    Rectangle().fill(self).frame(x: x, y: y, width: width, height: height)
  }
}

extension GlassLayer: SceneElement {
  /// The glass layer.
  public var layers: [Layer] { [.glass(self)] }

  /// `glassEffectUnion(id:)`: in a `GlassEffectContainer`, glass with the same id,
  /// variant and shape kind renders as one shape over all their frames.
  public func glassEffectUnion(id: (some Hashable & Sendable)?) -> GlassLayer {
    var copy = self
    copy.unionID = id.map { "\($0)" }
    return copy
  }

  /// `glassEffectID(_:in:)`: pairs this glass with the glass of the same id in
  /// another state of the scene (the namespace only keeps ids apart: it is
  /// written before the id, `namespace.id`, when given).
  public func glassEffectID(_ id: (some Hashable & Sendable)?, in namespace: String? = nil) -> GlassLayer {
    var copy = self
    copy.effectID = id.map { value in namespace.map { "\($0).\(value)" } ?? "\(value)" }
    return copy
  }

  /// `glassEffectTransition(_:)`: how this glass comes and goes in a transition.
  public func glassEffectTransition(_ transition: GlassEffectTransition) -> GlassLayer {
    var copy = self
    copy.effectTransition = transition
    return copy
  }

  /// `containerShape(_:)`: the shape a concentric rectangle is resolved against.
  public func containerShape(_ container: ContainerShape) -> GlassLayer {
    var copy = self
    copy.containerShape = container
    return copy
  }
}

extension MaterialLayer: SceneElement {
  /// The material layer.
  public var layers: [Layer] { [.material(self)] }
}

/// `GlassEffectContainer(spacing:)`: the glass inside samples the backdrop once,
/// together, and blends within `spacing` points. Its content laid out as a
/// `ZStack`'s; or, when everything in it is placed at absolute points, a
/// container of that glass (other layers draw after it).
public struct GlassEffectContainer: SceneElement {
  /// The container, for content placed at absolute points.
  public var container: GlassContainer
  /// Non-glass layers written inside the container, drawn after it.
  private var others: [Layer]
  /// The content, when it is laid out.
  private var children: [ViewNode]?

  /// A container of the glass built in `content`.
  public init(spacing: Double = 0, @ViewBuilder content: () -> some View) {
    let node = content().resolvedViewNode
    var glass: [GlassLayer] = []
    var others: [Layer] = []
    if let layers = node.absoluteLayers {
      for layer in layers {
        if case .glass(let g) = layer { glass.append(g) } else { others.append(layer) }
      }
      children = nil
    } else {
      children = VStack.children(AnyView(node: node))
    }
    container = GlassContainer(spacing: spacing, glass: glass)
    self.others = others
  }

  /// `containerShape(_:)` for the concentric rectangles inside.
  public func containerShape(_ shape: ContainerShape) -> GlassEffectContainer {
    var copy = self
    copy.container.containerShape = shape
    return copy
  }

  /// The container, then anything else written inside it.
  public var layers: [Layer] { [.container(container)] + others }

  /// The layers, or the container to lay out.
  public var viewNode: ViewNode {
    guard let children else { return ViewNode(.layers(layers)) }
    let node = ViewNode(.glassEffectContainer(spacing: container.spacing, children))
    return container.containerShape.map { node.modified(.containerShape($0)) } ?? node
  }
}
