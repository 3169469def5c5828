import Foundation

extension Layer {
  /// The sides of the layer's frame sized to its text (`ContentFit`), if any; a
  /// container's when one of its glass has some.
  public var fit: ContentFit? {
    switch self {
    case .text(let l): l.fit
    case .glass(let l): l.fit
    case .shape(let l): l.fit
    case .material(let l): l.fit
    case .container(let c): c.glass.lazy.compactMap(\.fit).first
    case .image: nil
    }
  }
}

/// Sizes the frames that are sized to their text (`ContentFit`), in
/// `Scene.laidOut`: each text is laid out once, with the renderer's caches, within
/// the width given less the padding (none: one line per paragraph); the sides
/// not given become its size plus the padding, and the text keeps the width it
/// was measured within (`TextContent.lineBreakWidth`), so that lowering draws
/// that same layout (`RenderCaches.contentLayout`).
struct ContentFitting {
  /// The folder font files are found in (the scene file's).
  let directory: String
  let caches: RenderCaches

  /// `layers` with every frame sized to its text sized; errors name the field at
  /// fault under `prefix` (`states.a.`): `layers[2].content.font.family`.
  func fitted(_ layers: [Layer], at prefix: String) throws -> [Layer] {
    guard layers.contains(where: { $0.fit != nil }) else { return layers }
    return try layers.enumerated().map { i, layer in
      let at = "\(prefix)layers[\(i)]"
      switch layer {
      case .text(var l):
        guard let fit = l.fit else { return layer }
        (l.frame, l.text) = try fitted(l.frame, l.text, fit, fields: at, titled: false)
        l.fit = nil
        return .text(l)
      case .glass(let l):
        return .glass(try fitted(l, at: at))
      case .shape(var l):
        guard let fit = l.fit, var content = l.content, let text = content.text else { return layer }
        let (frame, measured) = try fitted(l.frame, text, fit, fields: fields(at, fit), titled: false)
        content.kind = .text(measured)
        (l.frame, l.content, l.fit) = (frame, content, nil)
        return .shape(l)
      case .material(var l):
        guard let fit = l.fit, var content = l.content, let text = content.text else { return layer }
        let (frame, measured) = try fitted(l.frame, text, fit, fields: fields(at, fit), titled: false)
        content.kind = .text(measured)
        (l.frame, l.content, l.fit) = (frame, content, nil)
        return .material(l)
      case .container(var c):
        c.glass = try c.glass.enumerated().map { j, glass in try fitted(glass, at: "\(at).glass[\(j)]") }
        return .container(c)
      case .image:
        return layer
      }
    }
  }

  private func fitted(_ glass: GlassLayer, at path: String) throws -> GlassLayer {
    guard let fit = glass.fit, var content = glass.content, let text = content.text else { return glass }
    var l = glass
    // A glass layer whose text's fields sit on the layer is a button: its text is the title.
    let (frame, measured) = try fitted(
      l.frame, text, fit, fields: fields(path, fit), titled: fit.fieldsPath.isEmpty)
    content.kind = .text(measured)
    (l.frame, l.content, l.fit) = (frame, content, nil)
    return l
  }

  /// Where the text's fields of a layer at `path` are written.
  private func fields(_ path: String, _ fit: ContentFit) -> String {
    fit.fieldsPath.isEmpty ? path : "\(path).\(fit.fieldsPath)"
  }

  /// `frame` with the sides `fit` sizes set to `text`'s size plus the padding,
  /// and `text` with the width it was measured within. Errors name the field
  /// under `fields`, where the text's fields are written; for a `titled` layer (a
  /// button) the text is the title beside them.
  private func fitted(
    _ frame: PointRect, _ text: TextContent, _ fit: ContentFit, fields: String, titled: Bool
  ) throws -> (PointRect, TextContent) {
    let maxWidth = fit.width ? nil : max(0, frame.width - 2 * fit.horizontalPadding)
    do {
      let size = try caches.contentLayout(text, maxWidth: maxWidth, directory: directory).size
      let fitted = PointRect(
        x: frame.x, y: frame.y, width: fit.width ? size.width + 2 * fit.horizontalPadding : frame.width,
        height: fit.height ? size.height + 2 * fit.verticalPadding : frame.height)
      try text.checkFitted(
        PointSize(width: fitted.width, height: fitted.height), fittedWidth: fit.width, fittedHeight: fit.height,
        maxWidth: maxWidth)
      var measured = text
      measured.lineBreakWidth = maxWidth ?? .infinity
      return (fitted, measured)
    } catch let error as GlassError {
      if titled && error.jsonPath == "text" {
        throw GlassError(
          error.code, error.message, cause: error.cause, at: GlassError.Location(jsonPath: "\(fields).title"))
      }
      throw error.located(GlassError.Location(jsonPath: fields))
    }
  }
}
