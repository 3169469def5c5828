import Foundation

extension Scene {
  /// True when the scene, or one of its states, has a view tree to lay out.
  public var hasViewTree: Bool { body != nil || states.contains { $0.body != nil } }

  /// True when laying the scene out changes it: it has a view tree, a layer
  /// whose frame is sized to its text (`ContentFit`), or an environment other
  /// than the default to resolve.
  public var needsLayout: Bool {
    hasViewTree || !environment.isDefault || layers.contains { $0.fit != nil }
      || states.contains { $0.layers.contains { $0.fit != nil } }
  }

  /// The scene laid out: every view tree (its `body` and each state's) laid out
  /// and lowered to layers after the layers it has, then every frame sized to its
  /// text (`ContentFit`) sized; a scene that needs neither is returned as it is.
  /// The scene is resolved in its `environment` first (adaptive colours, text
  /// styles' sizes, text direction: `EnvironmentResolver`), its view trees laid
  /// out in it (mirrored right to left), and the layers layout made resolved too.
  /// Text is measured once, with `caches` (nil: those bound by
  /// `RenderCaches.use`, else new ones for this call alone: pass a renderer's
  /// caches to measure each text once over many calls), and each text keeps the width it was
  /// measured within (`TextContent.lineBreakWidth`), so that what is drawn is
  /// what was measured. Fonts and images are found in `images`' folder; images
  /// are sized by `images`. Errors name the JSON path of the view or the field
  /// (`body.children[1].modifiers[0].frame.minWidth`, `layers[2].font.family`).
  public func laidOut(images: SceneImages, caches: RenderCaches? = nil) throws -> Scene {
    try laidOutWithSources(images: images, caches: caches).scene
  }

  /// `laidOut`, where each layer its `body` made was written, in order
  /// (those layers follow the scene's own `layers`), and the warnings about
  /// its view trees' layout (the body's, then each state's).
  func laidOutWithSources(
    images: SceneImages, caches: RenderCaches? = nil
  ) throws -> (scene: Scene, bodySources: [ViewLayout.LayerSource], warnings: [LayoutWarning]) {
    guard needsLayout else { return (self, [], []) }
    let caches = RenderCaches.given(caches)
    let layout = viewLayout(images: images, caches: caches)
    let resolver = EnvironmentResolver(environment: environment)
    var scene = environment.isDefault ? self : resolver.scene(self)
    var bodySources: [ViewLayout.LayerSource] = []
    var warnings: [LayoutWarning] = []
    if let body = scene.body {
      let result = try layout.resolve(body, at: "body", canvas: size, safeArea: safeAreaInsets)
      scene.layers += result.layers
      bodySources = result.sources
      warnings += result.warnings
      scene.body = nil
    }
    for index in scene.states.indices {
      guard let body = scene.states[index].body else { continue }
      let path = "states.\(JSONNode.shortened(scene.states[index].name)).body"
      let result = try layout.resolve(body, at: path, canvas: size, safeArea: safeAreaInsets)
      scene.states[index].layers += result.layers
      warnings += result.warnings
      scene.states[index].body = nil
    }
    let fitting = ContentFitting(directory: images.directory, caches: caches)
    for index in scene.states.indices {
      let prefix = "states.\(JSONNode.shortened(scene.states[index].name))."
      scene.states[index].layers = try fitting.fitted(scene.states[index].layers, at: prefix)
    }
    scene.layers = try fitting.fitted(scene.layers, at: "")
    // What layout added (a shape's primary colour, a button's accent) resolved too.
    return (environment.isDefault ? scene : resolver.scene(scene), bodySources, warnings)
  }

  /// Every view of the scene's view tree (`body`) laid out: its kind, its path,
  /// its depth and its frame in points, snapped to device pixels, parents before
  /// children (what `glass-gpu layout` prints). Empty without a body. Text is
  /// measured with `caches` (nil: those bound by `RenderCaches.use`, else new
  /// ones for this call alone).
  public func resolvedViews(images: SceneImages, caches: RenderCaches? = nil) throws -> [ResolvedView] {
    try resolvedLayout(images: images, caches: caches).views
  }

  /// `resolvedViews`, and the warnings about the layout (`LayoutWarning`: views
  /// off the canvas, siblings in a stack drawn over one another, text cut
  /// short, frames with no finite size), in the order of the views.
  public func resolvedLayout(
    images: SceneImages, caches: RenderCaches? = nil
  ) throws -> (views: [ResolvedView], warnings: [LayoutWarning]) {
    guard let body = resolvedInEnvironment.body else { return ([], []) }
    let result = try viewLayout(images: images, caches: RenderCaches.given(caches)).resolve(
      body, at: "body", canvas: size, safeArea: safeAreaInsets)
    return (result.views, result.warnings)
  }
}

extension Scene {
  /// Runs `body`, work on this scene once laid out (validating, lowering), with
  /// an error it throws at one of the layers its `body` made (`layers[i]…`,
  /// `i` from the count of the scene's own layers; `bodySources` from
  /// `laidOutWithSources`) named at the view that made it instead: the file
  /// has no such layer.
  func namingViews<T>(_ bodySources: [ViewLayout.LayerSource], _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as GlassError {
      let bodyStart = layers.count - bodySources.count
      guard let path = error.jsonPath, path.hasPrefix("layers["), let close = path.firstIndex(of: "]"),
        let index = Int(path[path.index(path.startIndex, offsetBy: 7)..<close]), index >= bodyStart,
        index < layers.count
      else { throw error }
      throw bodySources[index - bodyStart].relocated(error, field: String(path[path.index(after: close)...]))
    }
  }

  /// Layout on this scene's canvas: fonts and images from `images`' folder,
  /// image sizes from `images`, text measured with `caches`.
  fileprivate func viewLayout(images: SceneImages, caches: RenderCaches) -> ViewLayout {
    ViewLayout(
      directory: images.directory, caches: caches, imageSize: { images.size(of: $0) },
      scale: Double(scale), environment: environment)
  }
}

extension ViewNode {
  /// The image files the tree names, with their JSON paths under `path`.
  func imageReferences(at path: String) -> [(jsonPath: String, path: String)] {
    var refs: [(String, String)] = []
    func children(_ nodes: [ViewNode], _ at: String) {
      for (i, child) in nodes.enumerated() { refs += child.imageReferences(at: "\(at).children[\(i)]") }
    }
    switch content {
    case .vstack(_, _, let c), .hstack(_, _, let c), .zstack(_, let c), .group(let c), .glassEffectContainer(_, let c):
      children(c, path)
    case .image(let source): refs.append(("\(path).image", source.path))
    case .button(let label): refs += label.imageReferences(at: "\(path).label")
    case .layers(let layers):
      var scene = Scene(size: PointSize(width: 1, height: 1), layers: layers)
      scene.background = .fill(.color(.clear))
      refs += scene.imageReferences.map { ("\(path).\($0.jsonPath)", $0.path) }
    case .spacer, .text, .shape, .textField: break
    }
    for (i, modifier) in modifiers.enumerated() {
      switch modifier {
      case .overlay(let view, _): refs += view.imageReferences(at: "\(path).modifiers[\(i)].overlay.content")
      case .background(let view, _): refs += view.imageReferences(at: "\(path).modifiers[\(i)].background.content")
      default: break
      }
    }
    return refs
  }
}

extension SceneFile {
  /// The scene file with its view trees laid out (`Scene.laidOut`): its images
  /// read for their sizes (headers checked, within `maxPixels`), its text
  /// measured with `caches`. Errors name this file and the view's JSON path.
  /// A scene without view trees is returned as it is.
  public func laidOut(
    maxPixels: Int = PNGCodec.defaultMaxPixels, cache: ImageCache? = nil, caches: RenderCaches? = nil
  ) throws -> SceneFile {
    guard scene.needsLayout else { return self }
    var copy = self
    do {
      let images = try loadImages(maxPixels: maxPixels, cache: cache)
      copy.scene = try scene.laidOut(images: images, caches: caches)
    } catch let error as GlassError {
      throw locate(error)
    }
    return copy
  }
}
