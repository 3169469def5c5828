import Foundation

/// `Text("…")` and `Label("…", systemImage: "…")`: text (or a label) with its font,
/// colour and line limit, placed by its top-leading corner. Alone it is a text
/// layer; with `glassEffect`, `background(_:in:)` it becomes the content of glass,
/// a material panel or a shape. A frame that gives only a position is the text's
/// size plus its padding.
///
///     Text("Hello, World!").font(.title).padding().frame(x: 20, y: 20).glassEffect()
///     Label("Flag", systemImage: "flag.fill").padding().frame(x: 20, y: 90)
///       .background(.regularMaterial, in: .rect(cornerRadius: 8))
public struct Text: FramedElement {
  /// What is drawn.
  public var content: TextContent
  /// The frame's top-leading corner, in points.
  public var origin = PointOffset(x: 0, y: 0)
  /// The frame's width and height when given (nil: the text's, plus the padding).
  public var width: Double?
  /// See `width`.
  public var height: Double?
  /// Space around the text, in points, on each side.
  public var paddingPoints = 0.0
  /// Whether `frame(x:y:…)` placed it at absolute points.
  public private(set) var isPlaced = false
  /// The fields written on the text (the rest come from the environment in layout).
  public private(set) var explicit: TextFields = []

  /// Text.
  public init(_ string: String) {
    content = TextContent(string)
  }

  /// A label: an icon (`SystemImage.systemNames`) before the text.
  public init(_ title: String, systemImage: String) {
    content = TextContent(title, systemImage: systemImage)
  }

  /// The text layer when placed; else the text view (with its padding).
  public var viewNode: ViewNode {
    guard !isPlaced else { return ViewNode(.layers(layers)) }
    let node = ViewNode(.text(content, explicit: explicit))
    return paddingPoints == 0 ? node : node.modified(.padding(EdgeInsets(all: paddingPoints)))
  }

  /// The frame as placed: its top-leading corner, and the sides given (those not
  /// given are 0 until layout sizes them: `fit`).
  public var frame: PointRect {
    PointRect(x: origin.x, y: origin.y, width: width ?? 0, height: height ?? 0)
  }

  /// The sides layout sizes to the text plus its padding (nil: both given).
  public var fit: ContentFit? {
    ContentFit(width: width, height: height, horizontalPadding: paddingPoints, verticalPadding: paddingPoints)
  }

  /// Drawn on glass, a material or a shape inside the padding.
  public var glassContent: GlassContent? { GlassContent(content, padding: paddingPoints) }

  /// A text layer inside the padding.
  public var layers: [Layer] {
    var layer = TextLayer(
      content,
      frame: PointRect(
        x: origin.x + paddingPoints, y: origin.y + paddingPoints, width: width.map { $0 - 2 * paddingPoints } ?? 0,
        height: height.map { $0 - 2 * paddingPoints } ?? 0))
    layer.fit = ContentFit(width: width, height: height, horizontalPadding: 0, verticalPadding: 0)
    return [.text(layer)]
  }

  fileprivate func with(_ change: (inout Text) -> Void) -> Text {
    var copy = self
    change(&copy)
    return copy
  }

  /// `font(_:)`.
  public func font(_ font: Font) -> Text {
    with {
      $0.content.font = font
      $0.explicit.insert(.font)
    }
  }
  /// `fontWeight(_:)`.
  public func fontWeight(_ weight: FontWeight) -> Text {
    with {
      $0.content.font.weight = weight
      $0.explicit.insert(.weight)
    }
  }
  /// `foregroundStyle(_:)` with a colour.
  public func foregroundStyle(_ color: Color) -> Text { foregroundStyle(Fill.color(color)) }
  /// `foregroundStyle(_:)` with a colour or gradient (gradients span the text's box).
  public func foregroundStyle(_ fill: Fill) -> Text {
    with {
      $0.content.foregroundStyle = fill
      $0.explicit.insert(.foregroundStyle)
    }
  }
  /// `lineLimit(_:)`.
  public func lineLimit(_ limit: Int?) -> Text {
    with {
      $0.content.lineLimit = limit
      $0.explicit.insert(.lineLimit)
    }
  }
  /// `multilineTextAlignment(_:)`.
  public func multilineTextAlignment(_ alignment: TextAlignment) -> Text {
    with {
      $0.content.alignment = alignment
      $0.explicit.insert(.alignment)
    }
  }
  /// `padding(_:)`, in points on each side; SwiftUI's 16 by default.
  public func padding(_ points: Double = TextContent.defaultPadding) -> Text { with { $0.paddingPoints = points } }

  /// Places the text's frame by its top-leading corner, in points; a width wraps
  /// the text within it (less the padding); what is not given fits the text.
  public func frame(x: Double, y: Double, width: Double? = nil, height: Double? = nil) -> Text {
    with {
      $0.isPlaced = true
      $0.origin = PointOffset(x: x, y: y)
      $0.width = width
      $0.height = height
    }
  }

  /// `.background(_:in:)` with a material: a panel of `shape` with the text on it.
  public func background(_ material: Material, in shape: Shape = .rect) -> ModifiedElement {
    var panel = MaterialLayer(material: material, shape: shape, frame: frame, content: glassContent)
    panel.fit = fit
    return ModifiedElement(
      layers: [.material(panel)],
      source: isPlaced
        ? nil : viewNode.modified(.background(ViewNode(.shape(shape, style: .material(material))), alignment: .center)))
  }

  /// `.background(_:in:)` with a colour or gradient: a filled shape with the text on it.
  public func background(_ fill: Fill, in shape: Shape = .rect) -> ModifiedElement {
    var filled = ShapeLayer(shape: shape, frame: frame, fill: fill, content: glassContent)
    filled.fit = fit
    return ModifiedElement(
      layers: [.shape(filled)],
      source: isPlaced
        ? nil : viewNode.modified(.background(ViewNode(.shape(shape, style: .fill(fill))), alignment: .center)))
  }

  /// `.background(_:in:)` with a colour.
  public func background(_ color: Color, in shape: Shape = .rect) -> ModifiedElement {
    background(Fill.color(color), in: shape)
  }
}

/// `Label("…", systemImage: "…")`: text with an icon before it.
public typealias Label = Text

/// `labelStyle(_:)`'s styles: what a label shows.
public enum LabelStyle: String, Hashable, Sendable, CaseIterable {
  /// The icon before the title (a label's default).
  case titleAndIcon
  /// The title alone.
  case titleOnly
  /// The icon alone (`.labelStyle(.iconOnly)`, as in Landmarks' toggle button).
  case iconOnly
}

extension Text {
  /// `labelStyle(_:)`: `.iconOnly` draws a label's icon alone, `.titleOnly` its title alone.
  public func labelStyle(_ style: LabelStyle) -> Text {
    with {
      switch style {
      case .titleAndIcon: break
      case .titleOnly: $0.content.systemImage = nil
      case .iconOnly where $0.content.systemImage != nil: $0.content.string = ""
      case .iconOnly: break
      }
    }
  }
}

extension ShapeLayer: SceneElement {
  /// The shape layer.
  public var layers: [Layer] { [.shape(self)] }
}

/// SwiftUI's glass button styles: `.buttonStyle(.glass)` and `.glassProminent`.
/// A button is a capsule of interactive glass sized to its label plus
/// `horizontalPadding` and `verticalPadding`; `.glassProminent` is tinted with
/// the accent colour (blue, or the button's tint) and its label is white; `.glass`
/// takes the automatic content colour.
public enum ButtonStyle: String, Hashable, Sendable, CaseIterable {
  /// Regular interactive glass.
  case glass
  /// Glass tinted with the accent colour, a white label.
  case glassProminent

  /// Space between the label and the capsule's sides, in points.
  public static let horizontalPadding = 14.0
  /// Space between the label and the capsule's top and bottom, in points.
  public static let verticalPadding = 7.0
  /// The accent colour prominent buttons take by default.
  public static let accentColor = Color.blue

  /// The button's glass placed at (`x`, `y`) points: a capsule of interactive
  /// glass with the label on it, tinted for `.glassProminent`; where `width` or
  /// `height` is not given, layout sizes it to the label plus the padding
  /// (`ContentFit`).
  public func glassLayer(
    _ label: TextContent, x: Double, y: Double, width: Double? = nil, height: Double? = nil, tint: Color? = nil
  ) -> GlassLayer {
    var label = label
    var glass = Glass.regular.interactive()
    if self == .glassProminent {
      glass = glass.tint(tint ?? Self.accentColor)
      if label.foregroundStyle == nil { label.foregroundStyle = .color(.white) }
    } else if let tint {
      glass = glass.tint(tint)
    }
    var layer = GlassLayer(
      glass: glass, shape: .capsule, frame: PointRect(x: x, y: y, width: width ?? 0, height: height ?? 0),
      content: GlassContent(label, padding: 0))
    layer.fit = ContentFit(
      width: width, height: height, horizontalPadding: Self.horizontalPadding, verticalPadding: Self.verticalPadding)
    return layer
  }
}

/// `Button`: placed with `frame(x:y:)`, a glass capsule sized to its title
/// (`Button("Toggle").buttonStyle(.glassProminent).frame(x: 20, y: 200)`); not
/// placed, a view whose label is laid out, with the `buttonStyle` of its
/// environment (none: the label alone, in the accent colour). The action is
/// never run: a scene is rendered, not used.
public struct Button: SceneElement {
  /// The title (and icon), for a button with a title.
  public var label: TextContent
  /// The style, when placed (`.glass` unless `buttonStyle(_:)` says otherwise).
  public var style = ButtonStyle.glass
  /// A tint for the glass (the accent colour of a prominent button).
  public var tintColor: Color?
  /// The top-leading corner, in points.
  public var origin = PointOffset(x: 0, y: 0)
  /// The size when given (nil: the label's plus the padding).
  public var width: Double?
  /// See `width`.
  public var height: Double?
  /// Whether `frame(x:y:…)` placed it at absolute points.
  public private(set) var isPlaced = false
  /// A label view (`Button(action:label:)`), instead of the title.
  var labelView: ViewNode?
  /// What was written on the button, for the view.
  var explicitStyle: ButtonStyle?
  var explicitLabel: TextFields = []

  /// A button with a title and, optionally, an icon before it.
  public init(_ title: String, systemImage: String? = nil) {
    label = TextContent(title, systemImage: systemImage)
  }

  /// `Button(_:action:)`: a button with a title (the action is never run).
  public init(_ title: String, systemImage: String? = nil, action: () -> Void) {
    label = TextContent(title, systemImage: systemImage)
  }

  /// `Button(action:label:)`: a button whose label is any view.
  public init(action: () -> Void, @ViewBuilder label: () -> some View) {
    self.label = TextContent("")
    labelView = label().resolvedViewNode
  }

  /// The button's glass (`ButtonStyle.glassLayer`), sized to its label in layout
  /// where no width or height is given.
  public var glassLayer: GlassLayer {
    style.glassLayer(label, x: origin.x, y: origin.y, width: width, height: height, tint: tintColor)
  }

  /// The glass layer.
  public var layers: [Layer] { [.glass(glassLayer)] }

  /// The glass layer when placed; else the button view.
  public var viewNode: ViewNode {
    guard !isPlaced else { return ViewNode(.layers(layers)) }
    var node = ViewNode(.button(label: labelView ?? ViewNode(.text(label, explicit: explicitLabel))))
    if let explicitStyle { node = node.modified(.buttonStyle(explicitStyle)) }
    if let tintColor { node = node.modified(.tint(tintColor)) }
    return node
  }

  private func with(_ change: (inout Button) -> Void) -> Button {
    var copy = self
    change(&copy)
    return copy
  }

  /// `buttonStyle(_:)`.
  public func buttonStyle(_ style: ButtonStyle) -> Button {
    with {
      $0.style = style
      $0.explicitStyle = style
    }
  }
  /// `tint(_:)`: the glass's tint.
  public func tint(_ color: Color?) -> Button { with { $0.tintColor = color } }
  /// `font(_:)` for the label.
  public func font(_ font: Font) -> Button {
    with {
      $0.label.font = font
      $0.explicitLabel.insert(.font)
    }
  }
  /// `fontWeight(_:)` for the label.
  public func fontWeight(_ weight: FontWeight) -> Button {
    with {
      $0.label.font.weight = weight
      $0.explicitLabel.insert(.weight)
    }
  }
  /// `foregroundStyle(_:)` for the label.
  public func foregroundStyle(_ color: Color) -> Button {
    with {
      $0.label.foregroundStyle = .color(color)
      $0.explicitLabel.insert(.foregroundStyle)
    }
  }

  /// Places the button by its top-leading corner, in points.
  public func frame(x: Double, y: Double, width: Double? = nil, height: Double? = nil) -> Button {
    with {
      $0.isPlaced = true
      $0.origin = PointOffset(x: x, y: y)
      $0.width = width
      $0.height = height
    }
  }
}
