import Foundation

/// Lays a view tree out on a canvas and lowers it to the layers the renderer
/// draws (docs/layout.md).
///
/// Building turns each view into layout nodes (`LayoutRule`s: its content's,
/// then one per layout modifier, innermost first) and a drawing that refers to
/// them; laying out gives every node a frame; lowering walks the drawing in
/// paint order and makes layers at those frames, their edges snapped to device
/// pixels. Text is measured here, once per proposal, with the fonts of `caches`;
/// images are sized by their headers (`imageSize`).
///
/// The three steps have a file each: `ViewBuilding.swift` (views to layout
/// nodes and drawings), `ViewEnvironment.swift` (what a view inherits from the
/// modifiers around it) and `ViewLowering.swift` (drawings to layers at the
/// laid-out frames); this file runs them.
struct ViewLayout {
  /// The folder font files and images are relative to.
  let directory: String
  /// Fonts and shaped text.
  let caches: RenderCaches
  /// An image's size in pixels, by its path in the scene (nil: not loaded).
  let imageSize: (String) -> PixelSize?
  /// Pixels per point, for snapping.
  let scale: Double
  /// The environment: its type size sizes the default font, its layout
  /// direction mirrors the layout (the tree's fonts and colours are resolved
  /// before, `EnvironmentResolver`).
  var environment = EnvironmentValues()

  /// What a laid-out tree is: its views' frames and its layers.
  struct Result {
    /// Every view in layout, parents before children, frames snapped.
    var views: [ResolvedView]
    /// The layers, back to front.
    var layers: [Layer]
    /// Where each layer came from, in the same order.
    var sources: [LayerSource]
    /// What looks like a mistake in the layout (`LayoutWarning`).
    var warnings: [LayoutWarning]
  }

  /// Where a layer that layout made was written: the JSON path of its view,
  /// of the text it carries as content, and for a container each glass's.
  struct LayerSource: Hashable {
    /// The view (or absolute layer) the layer draws.
    var path: String
    /// The text it carries as content (a button's title: the label's path);
    /// nil when it carries none or is a text itself.
    var contentPath: String?
    /// For a container, the source of each of its glass, in order.
    var glass: [LayerSource] = []
    /// Whether the layer was written as a layer (`"type": "layers"`), so
    /// that its fields are the file's.
    var isWritten = false

    /// `error`, found at the layer's `field` (`.glass[2].frame.x`, `.content`,
    /// "" for the layer), at the view it came from: a written layer's own
    /// field, else the glass's or the text's view, with the field named in the
    /// message (`laid out, its frame.x: …`).
    func relocated(_ error: GlassError, field: String) -> GlassError {
      guard !isWritten else {
        return GlassError(
          error.code, error.message, cause: error.cause, at: GlassError.Location(jsonPath: path + field),
          hint: error.hint)
      }
      var field = field
      var at = path
      if field.hasPrefix(".glass["), let close = field.firstIndex(of: "]"),
        let index = Int(field[field.index(field.startIndex, offsetBy: 7)..<close]), glass.indices.contains(index)
      {
        return glass[index].relocated(error, field: String(field[field.index(after: close)...]))
      }
      if field.hasPrefix(".content"), let contentPath {
        at = contentPath
        field.removeFirst(".content".count)
      }
      if field.hasPrefix(".") { field.removeFirst() }
      let message = field.isEmpty ? error.message : "laid out, its \(field): \(error.message)"
      return GlassError(
        error.code, message, cause: error.cause, at: GlassError.Location(jsonPath: at), hint: error.hint)
    }
  }

  /// Lays `root` (written at `path`) out in `canvas` less `safeArea`, and lowers it.
  func resolve(_ root: ViewNode, at path: String, canvas: PointSize, safeArea: EdgeInsets) throws -> Result {
    var builder = Builder(layout: self)
    var env = Environment()
    env.font = EnvironmentResolver(environment: environment).font(.body)
    let built = try builder.build(root, at: path, env: env, axis: nil, depth: Depth())
    let canvasRect = PointRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    let bounds = PointRect(
      x: safeArea.leading, y: safeArea.top, width: max(0, canvas.width - safeArea.leading - safeArea.trailing),
      height: max(0, canvas.height - safeArea.top - safeArea.bottom))
    var frames = Frames(scale: scale)
    // Right to left: the layout's mirror image across the canvas.
    if environment.layoutDirection == .rightToLeft { frames.mirrorWidth = canvas.width }
    if built.inLayout {
      built.node.layout(in: bounds, canvas: canvasRect, pixelScale: scale) { node, view in
        frames.add(node, view, snapped: true)
      }
    }
    for placed in builder.positioned {
      let proposal = ProposedViewSize(width: placed.width, height: placed.height)
      let size = placed.node.sizeThatFits(proposal)
      let frame = PointRect(
        x: placed.x, y: placed.y, width: placed.width ?? size.width, height: placed.height ?? size.height)
      placed.node.place(at: frame, proposal: proposal) { node, view in frames.add(node, view, snapped: false) }
    }
    var emitted = Lowering.Emitted()
    try Lowering(frames: frames).emit(built.drawing, into: &emitted)
    try Self.check(emitted, scale: scale)
    let truncated = builder.texts.filter { $0.measures.isTruncated(within: $0.node.placedProposal?.width) }
    let warnings = Self.warnings(frames.views, canvas: canvas, truncated: truncated.map(\.node.path))
    return Result(views: frames.views, layers: emitted.layers, sources: emitted.sources, warnings: warnings)
  }

  /// Throws the first value of the layers layout made that a scene file's
  /// layers could not have (`Scene.validate`'s checks), at the path of the
  /// view it came from, not at a layer the file does not have: a value the
  /// Swift API let through (a container's spacing, a colour out of range, a
  /// layer of `.layers`).
  static func check(_ emitted: Lowering.Emitted, scale: Double) throws {
    let holder = Scene(size: PointSize(width: 1, height: 1), scale: Int(scale))
    let validator = SceneValidator()
    for (layer, source) in zip(emitted.layers, emitted.sources) {
      do {
        try holder.validate([layer], at: "", validator)
      } catch let error as GlassError {
        throw source.relocated(error, field: error.jsonPath.map { String($0.dropFirst("layers[0]".count)) } ?? "")
      }
    }
  }
}
