/// A Liquid Glass composition: a canvas in points, a background and layers in
/// z-order. Built from a JSON scene file (`Scene(json:)`, format version 1) or with
/// the SwiftUI-like API (`Scene(width:height:) { ... }`); both make the same value.
public struct Scene: Hashable, Sendable {
  /// The scene format version this library reads and writes.
  public static let formatVersion = 1

  /// Canvas size, in points.
  public var size: PointSize
  /// Pixels per point: 1, 2 or 3.
  public var scale: Int
  /// What lies behind every layer.
  public var background: Background
  /// Layers, back to front.
  public var layers: [Layer]
  /// Named states, each a whole set of layers (`Scene.state(_:)`); a scene file
  /// with states and no `layers` renders its first state.
  public var states: [SceneState] = []
  /// The transition `glass-gpu animate` renders when it is given no states.
  public var transition: SceneTransition?
  /// A view tree laid out on the canvas (SwiftUI's layout, docs/layout.md) and
  /// drawn after `layers`; nil: none.
  public var body: ViewNode?
  /// The canvas's safe area insets, in points (a status bar, a home
  /// indicator): the body is laid out inside them unless it ignores them.
  public var safeAreaInsets = EdgeInsets()
  /// The appearance, accessibility settings, layout direction and text size it
  /// is rendered in, applied when it is laid out (`Scene.laidOut`).
  public var environment = EnvironmentValues()

  /// Makes a scene.
  public init(
    size: PointSize, scale: Int = 2, background: Background = .fill(.color(.systemBackground)), layers: [Layer] = []
  ) {
    self.size = size
    self.scale = scale
    self.background = background
    self.layers = layers
  }

  /// The canvas in pixels: the size in points times the scale, rounded.
  public var pixelSize: PixelSize {
    PixelSize(
      width: Int((size.width * Double(scale)).rounded()), height: Int((size.height * Double(scale)).rounded()))
  }
}

/// A size in points.
public struct PointSize: Hashable, Sendable {
  /// Width, in points.
  public var width: Double
  /// Height, in points.
  public var height: Double

  /// Makes a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// A point in points (x right, y down).
public struct PointOffset: Hashable, Sendable {
  /// x, in points.
  public var x: Double
  /// y, in points.
  public var y: Double

  /// Makes a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A rectangle in points (x right, y down).
public struct PointRect: Hashable, Sendable {
  /// Left edge, in points.
  public var x: Double
  /// Top edge, in points.
  public var y: Double
  /// Width, in points.
  public var width: Double
  /// Height, in points.
  public var height: Double

  /// Makes a rectangle.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Right edge.
  public var maxX: Double { x + width }
  /// Bottom edge.
  public var maxY: Double { y + height }
  /// Horizontal centre.
  public var midX: Double { x + width / 2 }
  /// Vertical centre.
  public var midY: Double { y + height / 2 }

  /// The rectangle shrunk by `d` points on every side.
  public func insetBy(_ d: Double) -> PointRect {
    PointRect(x: x + d, y: y + d, width: max(0, width - 2 * d), height: max(0, height - 2 * d))
  }

  /// The smallest rectangle holding both.
  public func union(_ other: PointRect) -> PointRect {
    let left = min(x, other.x)
    let top = min(y, other.y)
    return PointRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
  }
}

/// A position relative to a frame: (0, 0) top-leading, (1, 1) bottom-trailing.
public struct UnitPoint: Hashable, Sendable {
  /// Fraction of the width.
  public var x: Double
  /// Fraction of the height.
  public var y: Double

  /// Makes a unit point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The named unit points of SwiftUI, by name.
  public static let named: [String: UnitPoint] = [
    "topLeading": UnitPoint(x: 0, y: 0), "top": UnitPoint(x: 0.5, y: 0), "topTrailing": UnitPoint(x: 1, y: 0),
    "leading": UnitPoint(x: 0, y: 0.5), "center": UnitPoint(x: 0.5, y: 0.5), "trailing": UnitPoint(x: 1, y: 0.5),
    "bottomLeading": UnitPoint(x: 0, y: 1), "bottom": UnitPoint(x: 0.5, y: 1),
    "bottomTrailing": UnitPoint(x: 1, y: 1),
  ]
  /// (0.5, 0).
  public static let top = UnitPoint(x: 0.5, y: 0)
  /// (0.5, 1).
  public static let bottom = UnitPoint(x: 0.5, y: 1)
  /// (0, 0.5).
  public static let leading = UnitPoint(x: 0, y: 0.5)
  /// (1, 0.5).
  public static let trailing = UnitPoint(x: 1, y: 0.5)
  /// (0.5, 0.5).
  public static let center = UnitPoint(x: 0.5, y: 0.5)
  /// (0, 0).
  public static let topLeading = UnitPoint(x: 0, y: 0)
  /// (1, 0).
  public static let topTrailing = UnitPoint(x: 1, y: 0)
  /// (0, 1).
  public static let bottomLeading = UnitPoint(x: 0, y: 1)
  /// (1, 1).
  public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// An sRGB colour with straight alpha, each component in [0, 1].
public struct Color: Hashable, Sendable {
  /// Red, sRGB-encoded.
  public var red: Double
  /// Green, sRGB-encoded.
  public var green: Double
  /// Blue, sRGB-encoded.
  public var blue: Double
  /// Opacity.
  public var opacity: Double
  /// The colour's values in the other appearances (`Color(light:dark:)`, the
  /// system colours); nil: the same in every environment. The components
  /// above are the light, standard-contrast value; `resolved(in:)` picks.
  var appearances: Appearances?

  /// Makes a colour from sRGB components in [0, 1].
  public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.opacity = opacity
  }

  /// The colour with its opacity multiplied by `opacity`, in every appearance.
  public func opacity(_ opacity: Double) -> Color {
    var copy = self
    copy.opacity *= opacity
    copy.appearances = appearances.map {
      Appearances(
        dark: $0.dark?.opacity(opacity), increasedContrast: $0.increasedContrast?.opacity(opacity),
        darkIncreasedContrast: $0.darkIncreasedContrast?.opacity(opacity))
    }
    return copy
  }

  /// Premultiplied linear light, as the primitives take colours.
  public var premultipliedLinear: SIMD4<Float> {
    let a = Float(opacity)
    return SIMD4(
      Float(SRGB.decode(red)) * a, Float(SRGB.decode(green)) * a, Float(SRGB.decode(blue)) * a, a)
  }

  /// A colour from `0xRRGGBB`.
  public init(hex: UInt32, opacity: Double = 1) {
    self.init(
      red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255, blue: Double(hex & 0xFF) / 255,
      opacity: opacity)
  }
}

/// Colours along a gradient.
public struct Gradient: Hashable, Sendable {
  /// A colour at a location from 0 to 1.
  public struct Stop: Hashable, Sendable {
    /// The colour.
    public var color: Color
    /// Where, from 0 (start) to 1 (end).
    public var location: Double

    /// Makes a stop.
    public init(color: Color, location: Double) {
      self.color = color
      self.location = location
    }
  }

  /// The stops, in increasing location.
  public var stops: [Stop]

  /// Colours spread evenly from 0 to 1.
  public init(colors: [Color]) {
    let last = Double(max(colors.count - 1, 1))
    stops = colors.enumerated().map { Stop(color: $0.element, location: Double($0.offset) / last) }
  }

  /// Stops at given locations.
  public init(stops: [Stop]) {
    self.stops = stops
  }
}

/// How a shape or the background is painted.
public enum Fill: Hashable, Sendable {
  /// One colour.
  case color(Color)
  /// A gradient along the line from `startPoint` to `endPoint` of the frame.
  case linearGradient(Gradient, startPoint: UnitPoint, endPoint: UnitPoint)
  /// A gradient by distance from `center`, from `startRadius` to `endRadius` points.
  case radialGradient(Gradient, center: UnitPoint, startRadius: Double, endRadius: Double)

  /// True when every colour of the fill is fully opaque.
  public var isOpaque: Bool {
    switch self {
    case .color(let c): c.opacity == 1
    case .linearGradient(let g, _, _), .radialGradient(let g, _, _, _): g.stops.allSatisfy { $0.color.opacity == 1 }
    }
  }
}

/// How an image fits its frame (SwiftUI's `ContentMode`, `fit` and `fill`, and
/// `stretch` for an image layer alone).
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
  /// Scaled to cover the frame, cropped centred.
  case fill
  /// Scaled to fit inside the frame, centred; the rest stays clear.
  case fit
  /// Scaled on each axis to the frame, its ratio not kept: how SwiftUI draws a
  /// `resizable()` image in its frame. An image layer's (and a background
  /// image's) only: `aspectRatio` takes `fit` or `fill`.
  case stretch
}

/// What lies behind every layer.
public enum Background: Hashable, Sendable {
  /// A colour or gradient over the whole canvas.
  case fill(Fill)
  /// An image (a path relative to the scene file) over the whole canvas.
  case image(String, contentMode: ContentMode)
}

/// One layer of a scene.
public enum Layer: Hashable, Sendable {
  /// An image in a frame.
  case image(ImageLayer)
  /// A shape filled with a colour or gradient.
  case shape(ShapeLayer)
  /// A material panel.
  case material(MaterialLayer)
  /// A glass shape; alone, it samples the backdrop as a container of one.
  case glass(GlassLayer)
  /// Text, a label or an icon, on its own.
  case text(TextLayer)
  /// Glass shapes that sample the backdrop together.
  case container(GlassContainer)
}

/// An image in a frame; `backgroundExtensionEffect()` mirrors and blurs it into
/// the insets around it.
public struct ImageLayer: Hashable, Sendable {
  /// Image path (PNG, JPEG or WebP), relative to the scene file.
  public var source: String
  /// Where, in points.
  public var frame: PointRect
  /// How it fits the frame.
  public var contentMode: ContentMode
  /// The shape it is clipped to (`.rect`: none).
  public var clipShape: Shape
  /// The extension into the insets, if any.
  public var backgroundExtension: BackgroundExtension?

  /// Makes an image layer.
  public init(
    source: String, frame: PointRect, contentMode: ContentMode = .fill, clipShape: Shape = .rect,
    backgroundExtension: BackgroundExtension? = nil
  ) {
    self.source = source
    self.frame = frame
    self.contentMode = contentMode
    self.clipShape = clipShape
    self.backgroundExtension = backgroundExtension
  }
}

/// `backgroundExtensionEffect()` on an image layer: the room around the frame it
/// extends into, and the blur, all in points.
public struct BackgroundExtension: Hashable, Sendable {
  /// Width of the extension under a leading sidebar, in points.
  public var leading: Double
  /// Width of the extension under a trailing inspector, in points.
  public var trailing: Double
  /// Height of the extension above the image, in points.
  public var top: Double
  /// Height of the extension below the image, in points.
  public var bottom: Double
  /// Standard deviation of the blur, in points.
  public var sigma: Double

  /// The default blur, in points.
  public static let defaultSigma = 12.0

  /// Makes an extension.
  public init(
    leading: Double = 0, trailing: Double = 0, top: Double = 0, bottom: Double = 0,
    sigma: Double = BackgroundExtension.defaultSigma
  ) {
    self.leading = leading
    self.trailing = trailing
    self.top = top
    self.bottom = bottom
    self.sigma = sigma
  }
}

/// A shape filled with a colour or gradient: the flat parts of a UI.
public struct ShapeLayer: Hashable, Sendable {
  /// The shape.
  public var shape: Shape
  /// Where, in points.
  public var frame: PointRect
  /// The paint; gradients span the frame.
  public var fill: Fill
  /// The container shape a concentric rectangle is resolved against.
  public var containerShape: ContainerShape?
  /// Text or an image drawn on the shape.
  public var content: GlassContent?
  /// The sides of `frame` sized to the text content in layout (nil: none).
  public var fit: ContentFit?

  /// Makes a shape layer.
  public init(
    shape: Shape, frame: PointRect, fill: Fill, containerShape: ContainerShape? = nil, content: GlassContent? = nil
  ) {
    self.shape = shape
    self.frame = frame
    self.fill = fill
    self.containerShape = containerShape
    self.content = content
  }
}

/// A material panel: a blurred, saturated, tinted copy of what lies behind, in a shape.
public struct MaterialLayer: Hashable, Sendable {
  /// Which material.
  public var material: Material
  /// The shape.
  public var shape: Shape
  /// Where, in points.
  public var frame: PointRect
  /// The container shape a concentric rectangle is resolved against.
  public var containerShape: ContainerShape?
  /// Text or an image drawn on the panel.
  public var content: GlassContent?
  /// The sides of `frame` sized to the text content in layout (nil: none).
  public var fit: ContentFit?

  /// Makes a material layer.
  public init(
    material: Material, shape: Shape, frame: PointRect, containerShape: ContainerShape? = nil,
    content: GlassContent? = nil
  ) {
    self.material = material
    self.shape = shape
    self.frame = frame
    self.containerShape = containerShape
    self.content = content
  }
}

/// A shape with glass: the backdrop bent, frosted and lit, with optional content on top.
public struct GlassLayer: Hashable, Sendable {
  /// The glass.
  public var glass: Glass
  /// The shape (a capsule by default).
  public var shape: Shape
  /// Where, in points.
  public var frame: PointRect
  /// An image or text drawn on the glass, inside the frame less its padding.
  public var content: GlassContent?
  /// Values that replace the variant's optics.
  public var optics: GlassOptics.Overrides
  /// The container shape a concentric rectangle is resolved against.
  public var containerShape: ContainerShape?
  /// `glassEffectUnion(id:)`: in a container, glass with the same id, variant
  /// and shape kind is one shape over the members' frames (no effect alone).
  public var unionID: String?
  /// `glassEffectID(_:in:)`: pairs this glass with the glass of the same id in
  /// another state, so a transition moves and reshapes it.
  public var effectID: String?
  /// `glassEffectTransition(_:)`: how this glass appears or disappears in a
  /// transition (nil: `matchedGeometry`).
  public var effectTransition: GlassEffectTransition?
  /// The sides of `frame` sized to the text content in layout (nil: none).
  public var fit: ContentFit?

  /// Makes a glass layer.
  public init(
    glass: Glass = .regular, shape: Shape = .capsule, frame: PointRect, content: GlassContent? = nil,
    optics: GlassOptics.Overrides = GlassOptics.Overrides(), containerShape: ContainerShape? = nil,
    unionID: String? = nil
  ) {
    self.glass = glass
    self.shape = shape
    self.frame = frame
    self.content = content
    self.optics = optics
    self.containerShape = containerShape
    self.unionID = unionID
  }
}

/// The sides of a layer's frame that are sized to its text: those a frame written
/// with a position alone leaves out (`{"x": 20, "y": 40}` in a scene file,
/// `Text("…").frame(x: 20, y: 40)` in Swift). They are sized where the scene is
/// laid out, in `Renderer.prepare` (`Scene.laidOut`), to the text measured with
/// the renderer's fonts plus the padding on each side (the text wrapped within a
/// given width less the padding); until then they are 0. Reading a scene
/// measures nothing, so it needs no fonts.
public struct ContentFit: Hashable, Sendable {
  /// Whether the width is the text's plus `horizontalPadding` on each side.
  public var width: Bool
  /// Whether the height is the text's plus `verticalPadding` on each side.
  public var height: Bool
  /// Space between the text and the left and right sides, in points.
  public var horizontalPadding: Double
  /// Space between the text and the top and bottom sides, in points.
  public var verticalPadding: Double
  /// Where the text's fields are written, relative to the layer, for errors
  /// found when it is measured (`content`; empty: on the layer itself, as a text
  /// layer's and a button's are). Not part of the value.
  var fieldsPath = "content"

  /// Sides to fit, and the padding around the text on each axis, in points.
  public init(width: Bool, height: Bool, horizontalPadding: Double = 0, verticalPadding: Double = 0) {
    self.width = width
    self.height = height
    self.horizontalPadding = horizontalPadding
    self.verticalPadding = verticalPadding
  }

  /// The sides not given of a frame that gives `width` and `height` or not, with
  /// `padding` on each side (nil when both are given: nothing to fit).
  public init?(width: Double?, height: Double?, horizontalPadding: Double, verticalPadding: Double) {
    guard width == nil || height == nil else { return nil }
    self.init(
      width: width == nil, height: height == nil, horizontalPadding: horizontalPadding,
      verticalPadding: verticalPadding)
  }

  /// Equal when they fit the same sides with the same padding (where the fields
  /// were written is not compared).
  public static func == (a: ContentFit, b: ContentFit) -> Bool {
    a.width == b.width && a.height == b.height && a.horizontalPadding == b.horizontalPadding
      && a.verticalPadding == b.verticalPadding
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(width)
    hasher.combine(height)
    hasher.combine(horizontalPadding)
    hasher.combine(verticalPadding)
  }
}

/// What a glass, material or shape layer draws on itself, inside its frame less
/// `padding`: an image fitted and centred, or text, a label or an icon
/// (`TextContent`) laid out within that width and centred.
public struct GlassContent: Hashable, Sendable {
  /// An image or text.
  public enum Kind: Hashable, Sendable {
    /// An image (PNG, JPEG or WebP), a path relative to the scene file.
    case image(String)
    /// Text, a label or an icon.
    case text(TextContent)
  }

  /// What is drawn.
  public var kind: Kind
  /// Space between the frame and the content, in points.
  public var padding: Double
  /// Opacity of the content, 0 to 1 (transitions fade content with it).
  public var opacity: Double = 1

  /// An image.
  public init(source: String, padding: Double = 0, opacity: Double = 1) {
    self.kind = .image(source)
    self.padding = padding
    self.opacity = opacity
  }

  /// Text, a label or an icon; SwiftUI's default padding.
  public init(_ text: TextContent, padding: Double = TextContent.defaultPadding, opacity: Double = 1) {
    self.kind = .text(text)
    self.padding = padding
    self.opacity = opacity
  }

  /// The image's path, for image content.
  public var source: String? {
    if case .image(let path) = kind { return path }
    return nil
  }

  /// The text, for text content.
  public var text: TextContent? {
    if case .text(let text) = kind { return text }
    return nil
  }
}

/// `GlassEffectContainer(spacing:)`: glass shapes that sample the backdrop once,
/// together; glass never samples other glass.
public struct GlassContainer: Hashable, Sendable {
  /// Distance, in points, within which shapes blend (blending comes in a later
  /// version; shapes render together now).
  public var spacing: Double
  /// The glass shapes, back to front.
  public var glass: [GlassLayer]
  /// The container shape concentric rectangles inside are resolved against.
  public var containerShape: ContainerShape?

  /// Makes a container.
  public init(spacing: Double = 0, glass: [GlassLayer], containerShape: ContainerShape? = nil) {
    self.spacing = spacing
    self.glass = glass
    self.containerShape = containerShape
  }

  /// The glass as it renders, with `glassEffectUnion` applied: the members of
  /// each union (same `unionID`, variant and shape kind) become one glass body,
  /// at the first member's place in paint order, of the first member's shape,
  /// glass, optics and container shape, over the smallest frame holding every
  /// member's frame; each member's content stays where it was, on identity glass
  /// after the body. Glass without a union id, or alone in its union, is as given.
  public var unitedGlass: [GlassLayer] {
    struct Key: Hashable {
      var id: String
      var variant: Glass.Variant
      var kind: String
    }
    func key(_ layer: GlassLayer) -> Key? {
      layer.unionID.map { Key(id: $0, variant: layer.glass.variant, kind: layer.shape.kind) }
    }
    var members: [Key: [GlassLayer]] = [:]
    for layer in glass { if let key = key(layer) { members[key, default: []].append(layer) } }
    var placed: Set<Key> = []
    var united: [GlassLayer] = []
    for layer in glass {
      guard let key = key(layer), let group = members[key], group.count > 1 else {
        united.append(layer)
        continue
      }
      guard placed.insert(key).inserted else { continue }
      var body = layer
      body.frame = group.dropFirst().reduce(layer.frame) { $0.union($1.frame) }
      body.content = nil
      body.unionID = nil
      united.append(body)
      for member in group where member.content != nil {
        united.append(GlassLayer(glass: .identity, frame: member.frame, content: member.content))
      }
    }
    return united
  }
}

/// The shape a `ConcentricRectangle` is concentric with: a rounded rectangle.
public struct ContainerShape: Hashable, Sendable {
  /// Where, in points.
  public var frame: PointRect
  /// Its corner radius, in points.
  public var cornerRadius: Double

  /// Makes a container shape.
  public init(frame: PointRect, cornerRadius: Double) {
    self.frame = frame
    self.cornerRadius = cornerRadius
  }
}
