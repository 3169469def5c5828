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
public protocol SceneElement {
  /// The layers this element draws, back to front.
  var layers: [Layer] { get }
}

/// Collects scene elements into layers.
@resultBuilder
public enum SceneBuilder {
  /// Layers of each element, in order.
  public static func buildBlock(_ parts: [Layer]...) -> [Layer] { parts.flatMap { $0 } }
  /// One element.
  public static func buildExpression(_ element: some SceneElement) -> [Layer] { element.layers }
  /// An optional element.
  public static func buildOptional(_ part: [Layer]?) -> [Layer] { part ?? [] }
  /// The first branch of an if.
  public static func buildEither(first part: [Layer]) -> [Layer] { part }
  /// The second branch of an if.
  public static func buildEither(second part: [Layer]) -> [Layer] { part }
  /// A for loop.
  public static func buildArray(_ parts: [[Layer]]) -> [Layer] { parts.flatMap { $0 } }
}

extension Layer: SceneElement {
  /// The layer itself.
  public var layers: [Layer] { [self] }
}

extension Scene {
  /// A scene of `width` x `height` points at `scale`, its layers built in order.
  public init(
    width: Double, height: Double, scale: Int = 2, background: Background = .fill(.color(.white)),
    @SceneBuilder content: () -> [Layer]
  ) {
    self.init(size: PointSize(width: width, height: height), scale: scale, background: background, layers: content())
  }
}

extension Scene {
  /// The scene with a state named `name`, its layers built in order (the first
  /// state is also the scene's own layers when it has none).
  public func state(_ name: String, @SceneBuilder content: () -> [Layer]) -> Scene {
    var copy = self
    copy.states.append(SceneState(name, layers: content()))
    if copy.layers.isEmpty { copy.layers = copy.states[0].layers }
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

/// Something with a frame that can take glass or a material behind it.
public protocol FramedElement: SceneElement {
  /// Its frame, in points.
  var frame: PointRect { get }
  /// The image drawn on glass when this element becomes glass, if any.
  var glassContent: GlassContent? { get }
}

extension FramedElement {
  /// `glassEffect(_:in:)`: this element's frame becomes glass of `shape`, with the
  /// element (an image) drawn on it; `optics` overrides optical parameters by name.
  public func glassEffect(
    _ glass: Glass = .regular, in shape: Shape = .capsule, optics: [String: Double] = [:]
  ) -> GlassLayer {
    GlassLayer(
      glass: glass, shape: shape, frame: frame, content: glassContent, optics: GlassOptics.Overrides(optics))
  }

  /// `.background(_:in:)` with a material: a material panel of `shape` behind this element.
  public func background(_ material: Material, in shape: Shape = .rect) -> MaterialBacked {
    MaterialBacked(material: MaterialLayer(material: material, shape: shape, frame: frame), front: layers)
  }
}

/// An element with a material panel behind it.
public struct MaterialBacked: SceneElement {
  /// The panel.
  public var material: MaterialLayer
  /// What is drawn on it.
  public var front: [Layer]

  /// The panel, then the element.
  public var layers: [Layer] { [.material(material)] + front }
}

/// `Image`: a PNG (a path relative to the scene file) in a frame.
public struct Image: FramedElement {
  /// The layer being built.
  public var layer: ImageLayer
  /// Space between the frame and the image when it is drawn on glass.
  public var contentPadding = 0.0

  /// An image; give it a frame.
  public init(_ path: String) {
    layer = ImageLayer(source: path, frame: PointRect(x: 0, y: 0, width: 0, height: 0))
  }

  /// The image layer.
  public var layers: [Layer] { [.image(layer)] }
  /// The frame, in points.
  public var frame: PointRect { layer.frame }
  /// Drawn on glass, fitted inside the padding.
  public var glassContent: GlassContent? { GlassContent(source: layer.source, padding: contentPadding) }

  /// Places the image, in points.
  public func frame(x: Double = 0, y: Double = 0, width: Double, height: Double) -> Image {
    var copy = self
    copy.layer.frame = PointRect(x: x, y: y, width: width, height: height)
    return copy
  }

  /// `aspectRatio(contentMode:)`.
  public func aspectRatio(contentMode: ContentMode) -> Image {
    var copy = self
    copy.layer.contentMode = contentMode
    return copy
  }

  /// `clipShape(_:)`.
  public func clipShape(_ shape: Shape) -> Image {
    var copy = self
    copy.layer.clipShape = shape
    return copy
  }

  /// `padding(_:)`: space around the image when it is drawn on glass, in points.
  public func padding(_ points: Double) -> Image {
    var copy = self
    copy.contentPadding = points
    return copy
  }

  /// `backgroundExtensionEffect()`: mirrored, blurred copies of the image fill the
  /// room around its frame (points).
  public func backgroundExtensionEffect(
    leading: Double = 0, trailing: Double = 0, top: Double = 0, bottom: Double = 0,
    sigma: Double = BackgroundExtension.defaultSigma
  ) -> Image {
    var copy = self
    copy.layer.backgroundExtension = BackgroundExtension(
      leading: leading, trailing: trailing, top: top, bottom: bottom, sigma: sigma)
    return copy
  }
}

/// A shape with a fill in a frame: what `Rectangle().fill(.blue).frame(...)` makes.
public struct FilledShape: FramedElement {
  /// The layer being built.
  public var layer: ShapeLayer

  /// A clear fill draws nothing.
  public var layers: [Layer] {
    if case .color(let c) = layer.fill, c.opacity == 0 { return [] }
    return [.shape(layer)]
  }
  /// The frame, in points.
  public var frame: PointRect { layer.frame }
  /// No content on glass.
  public var glassContent: GlassContent? { nil }

  /// Places the shape, in points.
  public func frame(x: Double = 0, y: Double = 0, width: Double, height: Double) -> FilledShape {
    var copy = self
    copy.layer.frame = PointRect(x: x, y: y, width: width, height: height)
    return copy
  }

  /// `containerShape(_:)`: the shape a concentric rectangle is resolved against.
  public func containerShape(_ container: ContainerShape) -> FilledShape {
    var copy = self
    copy.layer.containerShape = container
    return copy
  }
}

/// The SwiftUI shapes as views: `.fill(_:)` makes a filled shape.
public protocol ShapeElement {
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
  /// A colour fills its frame; `Color.clear` draws nothing (useful under glass).
  public var layers: [Layer] { [] }
  /// A colour has no frame until `frame(...)` gives it one.
  public var frame: PointRect { PointRect(x: 0, y: 0, width: 0, height: 0) }
  /// No content on glass.
  public var glassContent: GlassContent? { nil }

  /// The colour filling a rectangle, in points.
  public func frame(x: Double = 0, y: Double = 0, width: Double, height: Double) -> FilledShape {
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

/// `GlassEffectContainer(spacing:)`: the glass inside samples the backdrop once.
public struct GlassEffectContainer: SceneElement {
  /// The container.
  public var container: GlassContainer
  /// Non-glass layers written inside the container, drawn after it.
  private var others: [Layer]

  /// A container of the glass built in `content` (other layers draw after it).
  public init(spacing: Double = 0, @SceneBuilder content: () -> [Layer]) {
    var glass: [GlassLayer] = []
    var others: [Layer] = []
    for layer in content() {
      if case .glass(let g) = layer { glass.append(g) } else { others.append(layer) }
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
}
