/// SwiftUI's `View`: a piece of interface described by its `body`, itself a
/// view, down to the primitive views (`Text`, `VStack`, `Color`, …) whose body
/// is `Never`. A scene lays its views out (docs/layout.md) and draws them.
///
///     struct BadgeLabel: View {
///       var badge: String
///       var body: some View {
///         Image(systemName: badge).font(.system(size: 24)).frame(width: 56, height: 56)
///           .glassEffect(.regular, in: .rect(cornerRadius: 12))
///       }
///     }
public protocol View {
  /// The type of the view's body.
  associatedtype Body: View
  /// What the view is made of.
  @ViewBuilder var body: Body { get }
}

/// A view drawn as it is, not through a body: the views this library provides.
public protocol PrimitiveView: View where Body == Never {
  /// The view as data (`ViewNode`).
  var viewNode: ViewNode { get }
}

extension PrimitiveView {
  /// A primitive view has no body.
  public var body: Never { return fatalError("\(Self.self) is a primitive view; it has no body") }
}

extension Never: View {
  /// `Never` has no body.
  public var body: Never { return fatalError("Never has no body") }
}

extension View {
  /// The view as data: a primitive view's node, or its body's.
  public var resolvedViewNode: ViewNode {
    if let primitive = self as? any PrimitiveView { return primitive.viewNode }
    return body.resolvedViewNode
  }
}

/// Collects the views written in a closure (`VStack { … }`, a `body`).
@resultBuilder
public enum ViewBuilder {
  /// One view.
  public static func buildExpression(_ view: some View) -> ViewList { ViewList([view.resolvedViewNode]) }
  /// Views in order.
  public static func buildBlock(_ parts: ViewList...) -> ViewList { ViewList(parts.flatMap(\.nodes)) }
  /// `if` without `else`.
  public static func buildOptional(_ part: ViewList?) -> ViewList { part ?? ViewList([]) }
  /// The first branch of `if`/`else` or `switch`.
  public static func buildEither(first part: ViewList) -> ViewList { part }
  /// The second branch.
  public static func buildEither(second part: ViewList) -> ViewList { part }
  /// A `for` loop.
  public static func buildArray(_ parts: [ViewList]) -> ViewList { ViewList(parts.flatMap(\.nodes)) }
  /// `if #available`.
  public static func buildLimitedAvailability(_ part: ViewList) -> ViewList { part }
}

/// The views a `ViewBuilder` closure wrote, in order: one view, or a group.
public struct ViewList: PrimitiveView {
  /// The views.
  public var nodes: [ViewNode]

  /// A list of views.
  public init(_ nodes: [ViewNode]) { self.nodes = nodes }

  /// One view as itself; several (or none) as a group.
  public var viewNode: ViewNode { nodes.count == 1 ? nodes[0] : ViewNode(.group(nodes)) }
}

/// A view made from data (`ViewNode`), as a scene file's body reads.
public struct AnyView: PrimitiveView {
  /// The view as data.
  public var viewNode: ViewNode

  /// Wraps any view.
  public init(_ view: some View) { viewNode = view.resolvedViewNode }

  /// A view from data.
  public init(node: ViewNode) { viewNode = node }
}

/// `EmptyView()`: nothing.
public struct EmptyView: PrimitiveView {
  /// Nothing.
  public init() {}
  /// An empty group.
  public var viewNode: ViewNode { ViewNode(.group([])) }
}

// MARK: Containers

/// `VStack(alignment:spacing:content:)`.
public struct VStack: PrimitiveView {
  /// The stack.
  public var viewNode: ViewNode

  /// Views top to bottom, aligned across by `alignment`, `spacing` points apart
  /// (nil: SwiftUI's default).
  public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> some View) {
    viewNode = ViewNode(.vstack(alignment: alignment, spacing: spacing, Self.children(content())))
  }

  /// A builder's views as a container's children.
  static func children(_ view: some View) -> [ViewNode] {
    let node = view.resolvedViewNode
    if case .group(let nodes) = node.content, node.modifiers.isEmpty { return nodes }
    return [node]
  }
}

/// `HStack(alignment:spacing:content:)`.
public struct HStack: PrimitiveView {
  /// The stack.
  public var viewNode: ViewNode

  /// Views leading to trailing, aligned across by `alignment`, `spacing` points
  /// apart (nil: SwiftUI's default).
  public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> some View) {
    viewNode = ViewNode(.hstack(alignment: alignment, spacing: spacing, VStack.children(content())))
  }
}

/// `ZStack(alignment:content:)`.
public struct ZStack: PrimitiveView {
  /// The stack.
  public var viewNode: ViewNode

  /// Views back to front, each aligned in the stack by `alignment`.
  public init(alignment: Alignment = .center, @ViewBuilder content: () -> some View) {
    viewNode = ViewNode(.zstack(alignment: alignment, VStack.children(content())))
  }
}

/// `Group { … }`: its views as if written in its parent; its modifiers apply to each.
public struct Group: PrimitiveView {
  /// The group.
  public var viewNode: ViewNode

  /// A group of views.
  public init(@ViewBuilder content: () -> some View) {
    viewNode = ViewNode(.group(VStack.children(content())))
  }
}

/// `Spacer(minLength:)`.
public struct Spacer: PrimitiveView {
  /// The least length, in points (nil: 8).
  public var minLength: Double?

  /// A spacer.
  public init(minLength: Double? = nil) { self.minLength = minLength }

  /// The spacer.
  public var viewNode: ViewNode { ViewNode(.spacer(minLength: minLength)) }
}

/// `ForEach(_:id:content:)`: a view for each element, as a group.
public struct ForEach<Data: RandomAccessCollection>: PrimitiveView {
  /// The views.
  public var viewNode: ViewNode

  /// A view for each element of `data` (`id` is accepted as in SwiftUI; views
  /// here are identified by their place).
  public init<ID: Hashable>(
    _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: (Data.Element) -> some View
  ) {
    viewNode = ViewNode(.group(data.flatMap { VStack.children(content($0)) }))
  }

  /// A view for each element of a collection of identifiable elements.
  public init(_ data: Data, @ViewBuilder content: (Data.Element) -> some View) where Data.Element: Identifiable {
    viewNode = ViewNode(.group(data.flatMap { VStack.children(content($0)) }))
  }
}

extension ForEach where Data == Range<Int> {
  /// A view for each integer of a range.
  public init(_ data: Range<Int>, @ViewBuilder content: (Int) -> some View) {
    viewNode = ViewNode(.group(data.flatMap { VStack.children(content($0)) }))
  }
}

// MARK: Leaves

/// `TextField(_:text:)`: a placeholder, or its value.
public struct TextField: PrimitiveView {
  /// The field.
  public var viewNode: ViewNode

  /// A text field showing `text`, or `placeholder` while it is empty.
  public init(_ placeholder: String, text: Binding<String>) {
    viewNode = ViewNode(.textField(TextFieldContent(placeholder: placeholder, text: text.wrappedValue)))
  }
}

/// `SecureField(_:text:)`: a placeholder, or its value as dots.
public struct SecureField: PrimitiveView {
  /// The field.
  public var viewNode: ViewNode

  /// A secure field showing dots for `text`, or `placeholder` while it is empty.
  public init(_ placeholder: String, text: Binding<String>) {
    viewNode = ViewNode(
      .textField(TextFieldContent(placeholder: placeholder, text: text.wrappedValue, isSecure: true)))
  }
}

/// `LinearGradient(colors:startPoint:endPoint:)` as a view: it fills what it is offered.
public struct LinearGradient: PrimitiveView {
  /// The paint.
  public var fill: Fill

  /// Colours spread evenly from `startPoint` to `endPoint` of the frame.
  public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
    fill = .linearGradient(Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
  }

  /// A gradient from `startPoint` to `endPoint` of the frame.
  public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
    fill = .linearGradient(gradient, startPoint: startPoint, endPoint: endPoint)
  }

  /// A rectangle of the gradient.
  public var viewNode: ViewNode { ViewNode(.shape(.rect, style: .fill(fill))) }
}

/// `RadialGradient(colors:center:startRadius:endRadius:)` as a view.
public struct RadialGradient: PrimitiveView {
  /// The paint.
  public var fill: Fill

  /// Colours spread evenly from `startRadius` to `endRadius` points about `center`.
  public init(colors: [Color], center: UnitPoint, startRadius: Double, endRadius: Double) {
    fill = .radialGradient(Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
  }

  /// A rectangle of the gradient.
  public var viewNode: ViewNode { ViewNode(.shape(.rect, style: .fill(fill))) }
}

// MARK: State

/// `@State`: a value a view owns. Here a scene is rendered, not run, so the
/// value is what it was given; `$value` is a `Binding` to it for controls.
@propertyWrapper
public struct State<Value> {
  /// The value.
  public var wrappedValue: Value

  /// A state holding `wrappedValue`.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// A binding to the value.
  public var projectedValue: Binding<Value> { Binding.constant(wrappedValue) }
}

/// `Binding`: a value a control shows (rendered, never changed, here).
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
  /// The value.
  public var wrappedValue: Value

  /// A binding that always has `value`.
  public static func constant(_ value: Value) -> Binding<Value> { Binding(wrappedValue: value) }

  /// A binding holding `wrappedValue`.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// The binding itself.
  public var projectedValue: Binding<Value> { self }

  /// A binding to a property of the value.
  public subscript<T>(dynamicMember keyPath: KeyPath<Value, T>) -> Binding<T> {
    Binding<T>(wrappedValue: wrappedValue[keyPath: keyPath])
  }
}

/// `@Namespace`: keeps `glassEffectID`s apart; its name is written before the id.
@propertyWrapper
public struct Namespace {
  /// The namespace's name.
  public var wrappedValue: String

  /// A namespace named `name` ("ns" by default).
  public init(_ name: String = "ns") { wrappedValue = name }

  /// A namespace called "ns".
  public init() { wrappedValue = "ns" }
}

// MARK: Modifiers

/// SwiftUI's `ViewModifier`: `body(content:)` makes a view from the view it is
/// applied to (`.modifier(_:)`).
public protocol ViewModifier {
  /// The type of the modified view.
  associatedtype Body: View
  /// The view the modifier makes of `content`.
  @ViewBuilder func body(content: Content) -> Body
  /// The view a modifier is applied to.
  typealias Content = AnyView
}

/// A view with modifiers added: the result of every modifier method.
public struct ModifiedView: PrimitiveView {
  /// The view as data.
  public var viewNode: ViewNode

  /// Wraps a node.
  init(_ node: ViewNode) { viewNode = node }
}

extension View {
  func adding(_ modifier: ViewModifierNode) -> ModifiedView { ModifiedView(resolvedViewNode.modified(modifier)) }

  /// `modifier(_:)`: the view `modifier` makes of this one.
  public func modifier(_ modifier: some ViewModifier) -> ModifiedView {
    ModifiedView(modifier.body(content: AnyView(node: resolvedViewNode)).resolvedViewNode)
  }

  /// `padding(_:_:)`: `length` points (16 by default) on `edges`.
  public func padding(_ edges: EdgeSet = .all, _ length: Double? = nil) -> ModifiedView {
    let d = length ?? PaddingLayout.defaultPadding
    return adding(
      .padding(
        EdgeInsets(
          top: edges.contains(.top) ? d : 0, leading: edges.contains(.leading) ? d : 0,
          bottom: edges.contains(.bottom) ? d : 0, trailing: edges.contains(.trailing) ? d : 0)))
  }

  /// `padding(_:)`: `length` points on every edge.
  public func padding(_ length: Double) -> ModifiedView { padding(.all, length) }

  /// `padding(_:)` with insets per edge, in points.
  public func padding(_ insets: EdgeInsets) -> ModifiedView { adding(.padding(insets)) }

  /// `frame(width:height:alignment:)`, in points (nil: the child's own).
  public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment = .center) -> ModifiedView {
    adding(.frame(width: width, height: height, alignment: alignment))
  }

  /// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`,
  /// in points (`.infinity` as a maximum takes all that is offered).
  public func frame(
    minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil,
    idealHeight: Double? = nil, maxHeight: Double? = nil, alignment: Alignment = .center
  ) -> ModifiedView {
    adding(
      .flexibleFrame(
        FlexibleFrame(
          minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth, minHeight: minHeight,
          idealHeight: idealHeight, maxHeight: maxHeight, alignment: alignment)))
  }

  /// `fixedSize(horizontal:vertical:)`: the view's ideal size on those axes.
  public func fixedSize(horizontal: Bool = true, vertical: Bool = true) -> ModifiedView {
    adding(.fixedSize(horizontal: horizontal, vertical: vertical))
  }

  /// `layoutPriority(_:)`.
  public func layoutPriority(_ priority: Double) -> ModifiedView { adding(.layoutPriority(priority)) }

  /// `offset(x:y:)`, in points: drawn moved, laid out where it was.
  public func offset(x: Double = 0, y: Double = 0) -> ModifiedView { adding(.offset(x: x, y: y)) }

  /// `aspectRatio(_:contentMode:)`: width over height (nil: the view's ideal size's).
  public func aspectRatio(_ ratio: Double? = nil, contentMode: ContentMode) -> ModifiedView {
    adding(.aspectRatio(ratio, contentMode: contentMode))
  }

  /// `scaledToFit()`.
  public func scaledToFit() -> ModifiedView { aspectRatio(contentMode: .fit) }

  /// `scaledToFill()`.
  public func scaledToFill() -> ModifiedView { aspectRatio(contentMode: .fill) }

  /// `overlay(alignment:content:)`: views over this one, in its frame.
  public func overlay(alignment: Alignment = .center, @ViewBuilder content: () -> some View) -> ModifiedView {
    adding(.overlay(content().resolvedViewNode, alignment: alignment))
  }

  /// `overlay(_:alignment:)`.
  public func overlay(_ view: some View, alignment: Alignment = .center) -> ModifiedView {
    adding(.overlay(view.resolvedViewNode, alignment: alignment))
  }

  /// `background(alignment:content:)`: views behind this one, in its frame.
  public func background(alignment: Alignment = .center, @ViewBuilder content: () -> some View) -> ModifiedView {
    adding(.background(content().resolvedViewNode, alignment: alignment))
  }

  /// `background(_:alignment:)` with a view (a `Color`, a gradient).
  public func background(_ view: some View, alignment: Alignment = .center) -> ModifiedView {
    adding(.background(view.resolvedViewNode, alignment: alignment))
  }

  /// `background(_:in:)` with a material: a panel of `shape` behind the view.
  public func background(_ material: Material, in shape: Shape = .rect) -> ModifiedView {
    adding(.background(ViewNode(.shape(shape, style: .material(material))), alignment: .center))
  }

  /// `background(_:in:)` with a colour or gradient: a shape of it behind the view.
  public func background(_ fill: Fill, in shape: Shape) -> ModifiedView {
    adding(.background(ViewNode(.shape(shape, style: .fill(fill))), alignment: .center))
  }

  /// `background(_:in:)` with a colour.
  public func background(_ color: Color, in shape: Shape) -> ModifiedView { background(Fill.color(color), in: shape) }

  /// `ignoresSafeArea(_:edges:)`: the view reaches past the safe area on `edges`
  /// it touches.
  public func ignoresSafeArea(edges: EdgeSet = .all) -> ModifiedView { adding(.ignoresSafeArea(edges)) }

  /// `glassEffect(_:in:)`: the view's frame becomes glass of `shape`, the view
  /// drawn on it; `optics` overrides optical parameters by name.
  public func glassEffect(
    _ glass: Glass = .regular, in shape: Shape = .capsule, optics: [String: Double] = [:]
  )
    -> ModifiedView
  {
    adding(.glassEffect(glass, shape: shape, optics: GlassOptics.Overrides(optics)))
  }

  /// `glassEffectID(_:in:)`: pairs the view's glass with the same id's in another state.
  public func glassEffectID(_ id: (some Hashable & Sendable)?, in namespace: String? = nil) -> ModifiedView {
    guard let id else { return ModifiedView(resolvedViewNode) }
    return adding(.glassEffectID(namespace.map { "\($0).\(id)" } ?? "\(id)"))
  }

  /// `glassEffectUnion(id:namespace:)`: glass of one id is one shape in its container.
  public func glassEffectUnion(id: (some Hashable & Sendable)?, namespace: String? = nil) -> ModifiedView {
    guard let id else { return ModifiedView(resolvedViewNode) }
    return adding(.glassEffectUnion(namespace.map { "\($0).\(id)" } ?? "\(id)"))
  }

  /// `glassEffectTransition(_:)`.
  public func glassEffectTransition(_ transition: GlassEffectTransition) -> ModifiedView {
    adding(.glassEffectTransition(transition))
  }

  /// `font(_:)`: the font of the text inside.
  public func font(_ font: Font) -> ModifiedView { adding(.font(font)) }
  /// `fontWeight(_:)`.
  public func fontWeight(_ weight: FontWeight) -> ModifiedView { adding(.fontWeight(weight)) }
  /// `foregroundStyle(_:)`: the paint of text and shapes inside.
  public func foregroundStyle(_ color: Color) -> ModifiedView { adding(.foregroundStyle(.color(color))) }
  /// `foregroundStyle(_:)` with a colour or gradient.
  public func foregroundStyle(_ fill: Fill) -> ModifiedView { adding(.foregroundStyle(fill)) }
  /// `lineLimit(_:)`.
  public func lineLimit(_ limit: Int?) -> ModifiedView { adding(.lineLimit(limit)) }
  /// `multilineTextAlignment(_:)`.
  public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedView {
    adding(.multilineTextAlignment(alignment))
  }
  /// `buttonStyle(_:)`.
  public func buttonStyle(_ style: ButtonStyle) -> ModifiedView { adding(.buttonStyle(style)) }
  /// `tint(_:)`.
  public func tint(_ color: Color) -> ModifiedView { adding(.tint(color)) }
  /// `textFieldStyle(_:)`.
  public func textFieldStyle(_ style: TextFieldStyle) -> ModifiedView { adding(.textFieldStyle(style)) }
  /// `clipShape(_:)` (images).
  public func clipShape(_ shape: Shape) -> ModifiedView { adding(.clipShape(shape)) }
  /// `containerShape(_:)`.
  public func containerShape(_ shape: ContainerShape) -> ModifiedView { adding(.containerShape(shape)) }
  /// `backgroundExtensionEffect()` (images): mirrored, blurred copies fill the
  /// room around the frame (points).
  public func backgroundExtensionEffect(
    leading: Double = 0, trailing: Double = 0, top: Double = 0, bottom: Double = 0,
    sigma: Double = BackgroundExtension.defaultSigma
  ) -> ModifiedView {
    adding(
      .backgroundExtensionEffect(
        BackgroundExtension(leading: leading, trailing: trailing, top: top, bottom: bottom, sigma: sigma)))
  }
  /// `frame(x:y:width:height:)`: the view leaves layout and is drawn at these
  /// canvas points; a size not given is the view's ideal one.
  public func frame(x: Double, y: Double, width: Double? = nil, height: Double? = nil) -> ModifiedView {
    adding(.position(x: x, y: y, width: width, height: height))
  }
}
