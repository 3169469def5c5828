/// A view as data: what a scene file's `body` and the Swift `View` API both
/// make, and what layout (`ViewLayout`) sizes, places and lowers to layers.
///
/// A node is what it draws or contains (`content`) and the modifiers written
/// after it, in order: the first modifier wraps the content, the next wraps that,
/// and so on, so `.padding().background(…)` and `.background(…).padding()` are
/// different trees, as in SwiftUI. The same structure is the scene file's
/// (`{"type": "text", "text": "Hi", "modifiers": [{"padding": 16}, …]}`), so a
/// view's path in the file (`body.children[1].modifiers[0].background`) can be
/// told from the tree alone.
public struct ViewNode: Hashable, Sendable {
  /// What the view is.
  public var content: ViewContent
  /// Its modifiers, innermost first.
  public var modifiers: [ViewModifierNode]

  /// Makes a view.
  public init(_ content: ViewContent, modifiers: [ViewModifierNode] = []) {
    self.content = content
    self.modifiers = modifiers
  }

  /// The view with `modifier` applied outside its other modifiers.
  public func modified(_ modifier: ViewModifierNode) -> ViewNode {
    var copy = self
    copy.modifiers.append(modifier)
    return copy
  }

  /// The deepest nesting a view tree may have (containers and the views of
  /// `overlay` and `background` each count one level): deeper trees are refused
  /// with the path where they pass it.
  public static let maximumDepth = 64

  /// The deepest layout a view tree may have, in levels: each view is a level
  /// and each of its modifiers one more, since every modifier is a view that
  /// wraps the ones written before it and layout recurses through each (a view
  /// inside a container, a button's label or an overlay's content starts below
  /// all of its parent's modifiers; a text field is three levels). Deeper trees
  /// are refused, with the path of the view where they pass it, before anything
  /// is laid out: the limit keeps layout's recursion well inside a thread's
  /// stack (`LayoutDepthTests` lays the deepest tree out on a 512 KiB stack).
  public static let maximumLayoutDepth = 1_000

  /// What is wrong with a tree whose layout is `levels` levels deep, and the fix.
  static func layoutDepthProblem(_ levels: Int) -> String {
    "the view tree's layout is \(levels) levels deep here (each view and each of its modifiers is a level), over "
      + "the \(maximumLayoutDepth) it may have; use fewer modifiers or a flatter tree"
  }
}

/// What a view draws or contains, before its modifiers.
public indirect enum ViewContent: Hashable, Sendable {
  /// `VStack(alignment:spacing:)`: children top to bottom (nil spacing: the
  /// default between each pair).
  case vstack(alignment: HorizontalAlignment, spacing: Double?, [ViewNode])
  /// `HStack(alignment:spacing:)`: children leading to trailing.
  case hstack(alignment: VerticalAlignment, spacing: Double?, [ViewNode])
  /// `ZStack(alignment:)`: children back to front, each aligned in the stack.
  case zstack(alignment: Alignment, [ViewNode])
  /// `Group`, `ForEach` and a builder's several views: the children as if each
  /// were written in the parent, each with the group's modifiers.
  case group([ViewNode])
  /// `GlassEffectContainer(spacing:)`: lays its children out as a `ZStack` does
  /// (as SwiftUI's container does), and the glass inside samples the backdrop
  /// together and blends within `spacing` points.
  case glassEffectContainer(spacing: Double, [ViewNode])
  /// `Spacer(minLength:)` (nil: the default, 8 points).
  case spacer(minLength: Double?)
  /// `Text`, `Label` or `Image(systemName:)`: the fields of `text` that
  /// `explicit` names were written on the view; the others come from the
  /// environment (`font(_:)`, `foregroundStyle(_:)`, … on a container).
  case text(TextContent, explicit: TextFields)
  /// `Image("file.png")`: its size is its pixels divided by `scale` unless it is
  /// `resizable`.
  case image(ImageSource)
  /// `Color`, `Rectangle()`, `Capsule()` and the other shapes, filled with
  /// `style` (nil: the environment's foreground style, else black): they take
  /// the space they are offered.
  case shape(Shape, style: ShapeStyle?)
  /// `Button` with its label: with `.buttonStyle(.glass)` or `.glassProminent`
  /// a capsule of interactive glass around the label plus the style's padding.
  case button(label: ViewNode)
  /// `TextField` or `SecureField` (shown as dots) with a placeholder and a value.
  case textField(TextFieldContent)
  /// Layers at absolute points (the scene's `layers`, or Swift elements placed
  /// with `frame(x:y:width:height:)`): drawn in order, taking no room in layout.
  case layers([Layer])
}

/// Which fields of a text were written on it rather than taken from the environment.
public struct TextFields: OptionSet, Hashable, Sendable {
  /// The raw bits.
  public let rawValue: Int
  /// Makes a set.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// `font`.
  public static let font = TextFields(rawValue: 1)
  /// `font`'s weight alone (`fontWeight(_:)`).
  public static let weight = TextFields(rawValue: 2)
  /// `foregroundStyle`.
  public static let foregroundStyle = TextFields(rawValue: 4)
  /// `lineLimit`.
  public static let lineLimit = TextFields(rawValue: 8)
  /// `multilineTextAlignment`.
  public static let alignment = TextFields(rawValue: 16)
}

/// An image file shown as a view.
public struct ImageSource: Hashable, Sendable {
  /// Image path (PNG, JPEG or WebP), relative to the scene file.
  public var path: String
  /// Pixels per point of the image: its size in points is its pixels divided by this.
  public var scale: Double
  /// `resizable()`: the image takes the size it is offered instead of its own.
  public var isResizable: Bool

  /// Makes an image source.
  public init(path: String, scale: Double = 1, isResizable: Bool = false) {
    self.path = path
    self.scale = scale
    self.isResizable = isResizable
  }
}

/// How a shape view is painted: a colour or gradient, or a material.
public enum ShapeStyle: Hashable, Sendable {
  /// A colour or gradient.
  case fill(Fill)
  /// A material (`.background(.regularMaterial, in: …)`).
  case material(Material)
}

/// A text field's placeholder and value.
public struct TextFieldContent: Hashable, Sendable {
  /// Shown, in the placeholder colour, while `text` is empty.
  public var placeholder: String
  /// The value.
  public var text: String
  /// `SecureField`: the value is shown as dots.
  public var isSecure: Bool

  /// Makes a text field's content.
  public init(placeholder: String, text: String = "", isSecure: Bool = false) {
    self.placeholder = placeholder
    self.text = text
    self.isSecure = isSecure
  }
}

/// `textFieldStyle(_:)`.
public enum TextFieldStyle: String, Hashable, Sendable, CaseIterable {
  /// No border: the text alone.
  case plain
  /// A white rounded rectangle with a thin grey border behind the text.
  case roundedBorder
}

/// One modifier of a view, as written.
public indirect enum ViewModifierNode: Hashable, Sendable {
  // Layout.
  /// `padding(_:)`, in points per edge.
  case padding(EdgeInsets)
  /// `frame(width:height:alignment:)`.
  case frame(width: Double?, height: Double?, alignment: Alignment)
  /// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`.
  case flexibleFrame(FlexibleFrame)
  /// `frame(x:y:width:height:)`: the view leaves layout and is drawn at these
  /// canvas points; a size not given is the view's ideal one.
  case position(x: Double, y: Double, width: Double?, height: Double?)
  /// `fixedSize(horizontal:vertical:)`.
  case fixedSize(horizontal: Bool, vertical: Bool)
  /// `layoutPriority(_:)`.
  case layoutPriority(Double)
  /// `offset(x:y:)`, in points.
  case offset(x: Double, y: Double)
  /// `aspectRatio(_:contentMode:)`, `scaledToFit()`, `scaledToFill()`.
  case aspectRatio(Double?, contentMode: ContentMode)
  /// `overlay(alignment:content:)`.
  case overlay(ViewNode, alignment: Alignment)
  /// `background(alignment:content:)`, and `background(_:in:)` as a shape view.
  case background(ViewNode, alignment: Alignment)
  /// `ignoresSafeArea(edges:)`.
  case ignoresSafeArea(EdgeSet)

  // Drawing.
  /// `glassEffect(_:in:)`: the view's frame becomes glass of the shape.
  case glassEffect(Glass, shape: Shape, optics: GlassOptics.Overrides)
  /// `glassEffectID(_:in:)` (namespace and id joined by a dot).
  case glassEffectID(String)
  /// `glassEffectUnion(id:)`.
  case glassEffectUnion(String)
  /// `glassEffectTransition(_:)`.
  case glassEffectTransition(GlassEffectTransition)
  /// `clipShape(_:)` on an image.
  case clipShape(Shape)
  /// `containerShape(_:)`: what concentric rectangles inside resolve against.
  case containerShape(ContainerShape)
  /// `backgroundExtensionEffect()` on an image.
  case backgroundExtensionEffect(BackgroundExtension)

  // Environment: the view and everything inside it.
  /// `font(_:)`.
  case font(Font)
  /// `fontWeight(_:)`.
  case fontWeight(FontWeight)
  /// `foregroundStyle(_:)`.
  case foregroundStyle(Fill)
  /// `lineLimit(_:)` (nil: none).
  case lineLimit(Int?)
  /// `multilineTextAlignment(_:)`.
  case multilineTextAlignment(TextAlignment)
  /// `buttonStyle(_:)`.
  case buttonStyle(ButtonStyle)
  /// `tint(_:)`: the accent colour of buttons inside.
  case tint(Color)
  /// `textFieldStyle(_:)`.
  case textFieldStyle(TextFieldStyle)
}

/// The bounds of a flexible frame, in points (nil: not given; `.infinity` is a
/// valid maximum).
public struct FlexibleFrame: Hashable, Sendable {
  /// Least width.
  public var minWidth: Double?
  /// Width under an unspecified proposal.
  public var idealWidth: Double?
  /// Greatest width.
  public var maxWidth: Double?
  /// Least height.
  public var minHeight: Double?
  /// Height under an unspecified proposal.
  public var idealHeight: Double?
  /// Greatest height.
  public var maxHeight: Double?
  /// Where the child sits in the frame.
  public var alignment: Alignment

  /// Makes the bounds.
  public init(
    minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil,
    idealHeight: Double? = nil, maxHeight: Double? = nil, alignment: Alignment = .center
  ) {
    self.minWidth = minWidth
    self.idealWidth = idealWidth
    self.maxWidth = maxWidth
    self.minHeight = minHeight
    self.idealHeight = idealHeight
    self.maxHeight = maxHeight
    self.alignment = alignment
  }

  /// The layout rule.
  var rule: FlexFrameLayout {
    FlexFrameLayout(
      minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth, minHeight: minHeight, idealHeight: idealHeight,
      maxHeight: maxHeight, alignment: alignment)
  }
}
