/// A scene's values resolved in an environment (`EnvironmentValues`): every
/// adaptive colour takes its value there (`Color.resolved(in:)`), every font
/// with a text style its Dynamic Type size (`Font.scaled(to:)`, after which it
/// is a fixed size), every text the layout direction, and every glass the
/// optics of Reduce Transparency when it is on. Resolving twice
/// changes nothing: what is resolved no longer adapts.
///
/// `Scene.laidOut` resolves the scene before layout (fonts size what is
/// measured) and the layers layout made after it (the defaults layout adds,
/// such as the primary colour of a shape without a style).
struct EnvironmentResolver {
  let environment: EnvironmentValues

  func color(_ c: Color) -> Color { c.resolved(in: environment) }

  func font(_ f: Font) -> Font {
    var font = f.scaled(to: environment.dynamicTypeSize)
    font.relativeTo = nil
    return font
  }

  func fill(_ f: Fill) -> Fill {
    switch f {
    case .color(let c): .color(color(c))
    case .linearGradient(let g, let start, let end): .linearGradient(gradient(g), startPoint: start, endPoint: end)
    case .radialGradient(let g, let center, let r0, let r1):
      .radialGradient(gradient(g), center: center, startRadius: r0, endRadius: r1)
    }
  }

  func gradient(_ g: Gradient) -> Gradient {
    Gradient(stops: g.stops.map { Gradient.Stop(color: color($0.color), location: $0.location) })
  }

  func text(_ t: TextContent) -> TextContent {
    var t = t
    t.font = font(t.font)
    t.foregroundStyle = t.foregroundStyle.map(fill)
    t.layoutDirection = environment.layoutDirection
    return t
  }

  func content(_ c: GlassContent?) -> GlassContent? {
    guard var c else { return nil }
    switch c.kind {
    case .image: break
    case .text(let t): c.kind = .text(text(t))
    }
    return c
  }

  func glass(_ g: Glass) -> Glass {
    var g = g
    g.tint = g.tint.map(color)
    return g
  }

  func glassLayer(_ l: GlassLayer) -> GlassLayer {
    var l = l
    if environment.accessibilityReduceTransparency {
      l.optics = GlassOptics.reducedTransparency(l.glass, overrides: l.optics)
    }
    l.glass = glass(l.glass)
    l.content = content(l.content)
    return l
  }

  func layer(_ layer: Layer) -> Layer {
    switch layer {
    case .image: return layer
    case .shape(var l):
      l.fill = fill(l.fill)
      l.content = content(l.content)
      return .shape(l)
    case .material(var l):
      l.content = content(l.content)
      return .material(l)
    case .glass(let l): return .glass(glassLayer(l))
    case .text(var l):
      l.text = text(l.text)
      return .text(l)
    case .container(var c):
      c.glass = c.glass.map(glassLayer)
      return .container(c)
    }
  }

  func background(_ b: Background) -> Background {
    switch b {
    case .fill(let f): .fill(fill(f))
    case .image: b
    }
  }

  func view(_ node: ViewNode) -> ViewNode {
    var node = node
    switch node.content {
    case .vstack(let a, let s, let c): node.content = .vstack(alignment: a, spacing: s, c.map(view))
    case .hstack(let a, let s, let c): node.content = .hstack(alignment: a, spacing: s, c.map(view))
    case .zstack(let a, let c): node.content = .zstack(alignment: a, c.map(view))
    case .group(let c): node.content = .group(c.map(view))
    case .glassEffectContainer(let s, let c): node.content = .glassEffectContainer(spacing: s, c.map(view))
    case .spacer, .image, .textField: break
    case .text(let t, let explicit): node.content = .text(text(t), explicit: explicit)
    case .shape(let shape, let style): node.content = .shape(shape, style: style.map(shapeStyle))
    case .button(let label): node.content = .button(label: view(label))
    case .layers(let layers): node.content = .layers(layers.map(layer))
    }
    node.modifiers = node.modifiers.map(modifier)
    return node
  }

  func shapeStyle(_ s: ShapeStyle) -> ShapeStyle {
    switch s {
    case .fill(let f): .fill(fill(f))
    case .material: s
    }
  }

  func modifier(_ m: ViewModifierNode) -> ViewModifierNode {
    switch m {
    case .overlay(let v, let a): .overlay(view(v), alignment: a)
    case .background(let v, let a): .background(view(v), alignment: a)
    case .glassEffect(let g, let shape, let optics):
      .glassEffect(
        glass(g), shape: shape,
        optics: environment.accessibilityReduceTransparency
          ? GlassOptics.reducedTransparency(g, overrides: optics) : optics)
    case .font(let f): .font(font(f))
    case .foregroundStyle(let f): .foregroundStyle(fill(f))
    case .tint(let c): .tint(color(c))
    case .padding, .frame, .flexibleFrame, .position, .fixedSize, .layoutPriority, .offset, .aspectRatio,
      .ignoresSafeArea, .glassEffectID, .glassEffectUnion, .glassEffectTransition, .clipShape, .containerShape,
      .backgroundExtensionEffect, .fontWeight, .lineLimit, .multilineTextAlignment, .buttonStyle, .textFieldStyle:
      m
    }
  }

  func scene(_ scene: Scene) -> Scene {
    var scene = scene
    scene.background = background(scene.background)
    scene.layers = scene.layers.map(layer)
    scene.body = scene.body.map(view)
    for i in scene.states.indices {
      scene.states[i].layers = scene.states[i].layers.map(layer)
      scene.states[i].body = scene.states[i].body.map(view)
    }
    return scene
  }
}

extension Scene {
  /// The scene with its values resolved in its `environment`
  /// (`EnvironmentResolver`): adaptive colours, text styles' sizes and the
  /// text's layout direction. Layout (`laidOut`) does this first.
  public var resolvedInEnvironment: Scene { EnvironmentResolver(environment: environment).scene(self) }

  /// The scene in `environment` instead of its own.
  public func environment(_ environment: EnvironmentValues) -> Scene {
    var copy = self
    copy.environment = environment
    return copy
  }

  /// The scene with one setting of its environment changed, as SwiftUI's
  /// `.environment(\.colorScheme, .dark)` writes it.
  public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> Scene {
    var copy = self
    copy.environment[keyPath: keyPath] = value
    return copy
  }
}
