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
      case .glass(var l):
        // A glass layer whose text's fields sit on the layer is a button: its text is the title.
        try size(&l.frame, &l.content, &l.fit, at: at, titled: l.fit?.fieldsPath.isEmpty == true)
        return .glass(l)
      case .shape(var l):
        try size(&l.frame, &l.content, &l.fit, at: at)
        return .shape(l)
      case .material(var l):
        try size(&l.frame, &l.content, &l.fit, at: at)
        return .material(l)
      case .container(var c):
        for j in c.glass.indices {
          var glass = c.glass[j]
          try size(&glass.frame, &glass.content, &glass.fit, at: "\(at).glass[\(j)]")
          c.glass[j] = glass
        }
        return .container(c)
      case .image:
        return layer
      }
    }
  }

  /// A layer's frame sized to its text content, as `fit` says (then nil), the
  /// text keeping the width it was measured within; nothing without text to fit.
  private func size(
    _ frame: inout PointRect, _ content: inout GlassContent?, _ fit: inout ContentFit?, at path: String,
    titled: Bool = false
  ) throws {
    guard let sides = fit, let text = content?.text else { return }
    let (fitted, measured) = try self.fitted(frame, text, sides, fields: fields(path, sides), titled: titled)
    frame = fitted
    content?.kind = .text(measured)
    fit = nil
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
          error.code, error.message, cause: error.cause, at: GlassError.Location(jsonPath: "\(fields).title"),
          hint: error.hint)
      }
      throw error.located(GlassError.Location(jsonPath: fields))
    }
  }
}
