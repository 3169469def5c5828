import Foundation

/// Text, an icon, or both side by side (a label): what `Text("…")`,
/// `Image(systemName:)` and `Label("…", systemImage: "…")` draw, on its own (a text
/// layer) or on glass, a material or a shape (their content).
///
/// The string is shaped by HarfBuzz in the font (`Font`), wraps at spaces within
/// the width it is given, and ends in "…" past `lineLimit` lines. The icon is one
/// of `SystemImage.systemNames`, drawn at 1.2 times the font size before the
/// text, 0.4 times the font size from it, centred on the first line. Both are
/// painted with `foregroundStyle`; nil is automatic: dark on a light backdrop and
/// light on a dark one (`ContentStyle`).
public struct TextContent: Hashable, Sendable {
  /// The text; empty draws no text (an icon alone, or nothing).
  public var string: String
  /// An SF Symbols name from `SystemImage.systemNames`, drawn before the text.
  public var systemImage: String?
  /// The font (`.body` by default).
  public var font: Font
  /// The paint; nil picks dark or light content by the backdrop behind it.
  public var foregroundStyle: Fill?
  /// The most lines; the last one shown ends in "…" when there are more (nil: any).
  public var lineLimit: Int?
  /// How the lines align with each other (`multilineTextAlignment`).
  public var alignment: TextAlignment
  /// The width, in points, layout measured the text within: its lines break
  /// there when it is drawn, whatever its frame (infinity: one line per
  /// paragraph). Set by `Scene.laidOut` (`Renderer.prepare`) for the text it
  /// sizes or places, so what is drawn is what was measured; nil until then,
  /// and for text in a frame given in full, which wraps within its frame.
  public internal(set) var lineBreakWidth: Double?
  /// The layout direction of the environment it is drawn in: right to left puts
  /// its leading edge (and a label's icon) on the right. Set with the
  /// environment (`Scene.laidOut`); left to right until then.
  public internal(set) var layoutDirection = LayoutDirection.leftToRight

  /// The longest text, in Unicode scalars.
  public static let maximumLength = TextLayout.maximumLength
  /// The line limits a text may have (nil: none).
  public static let lineLimits = 1...100_000

  /// Makes text content.
  public init(
    _ string: String, systemImage: String? = nil, font: Font = .body, foregroundStyle: Fill? = nil,
    lineLimit: Int? = nil, alignment: TextAlignment = .leading
  ) {
    self.string = string
    self.systemImage = systemImage
    self.font = font
    self.foregroundStyle = foregroundStyle
    self.lineLimit = lineLimit
    self.alignment = alignment
  }

  /// SwiftUI's default padding, in points: what `.padding()` adds on each side.
  public static let defaultPadding = 16.0

  /// The size the content takes, in points, laid out within `maxWidth` points (nil:
  /// one line per paragraph). Throws, with the field's JSON path relative to the
  /// content, for a font that cannot be had, an unknown `systemImage` or a text
  /// over the length limit. Font files are found relative to `directory`, and
  /// opened with `caches` (nil: those bound by `RenderCaches.use`, else new ones
  /// for this call alone).
  public func size(maxWidth: Double? = nil, directory: String = ".", caches: RenderCaches? = nil) throws -> PointSize {
    try ContentLayout(self, maxWidth: maxWidth, directory: directory, caches: RenderCaches.given(caches)).size
  }
}

/// Text (or a label, or an icon) on its own, in a frame: its lines wrap within the
/// frame's width, and the block sits in the frame by its alignment (leading: at
/// the leading edge), centred vertically.
public struct TextLayer: Hashable, Sendable {
  /// What is drawn.
  public var text: TextContent
  /// Where, in points.
  public var frame: PointRect
  /// Opacity, 0 to 1.
  public var opacity: Double
  /// The sides of `frame` sized to the text in layout (nil: none).
  public var fit: ContentFit?

  /// Makes a text layer.
  public init(_ text: TextContent, frame: PointRect, opacity: Double = 1) {
    self.text = text
    self.frame = frame
    self.opacity = opacity
  }
}

extension TextContent {
  /// Throws, at the text (JSON path `text`, relative to the content), when a side
  /// of a frame sized to fit it is longer than `Scene.maximumFrameSidePoints`: the
  /// user wrote the text, not the frame's size, so the error names the text and
  /// how to make it fit. `maxWidth` is the width it was laid out in (nil: none).
  func checkFitted(_ size: PointSize, fittedWidth: Bool, fittedHeight: Bool, maxWidth: Double?) throws {
    let limit = Scene.maximumFrameSidePoints
    let side = ParameterSpec.format(limit)
    if fittedWidth && !(size.width <= limit) {
      throw GlassError(
        .invalidScene,
        "the frame sized to fit this text would be \(ParameterSpec.format(size.width)) pt wide, more than a frame's "
          + "\(side) pt; give the frame a width to wrap it in, a smaller font or a shorter text",
        at: GlassError.Location(jsonPath: "text"))
    }
    if fittedHeight && !(size.height <= limit) {
      let within = maxWidth.map { " wrapped in \(ParameterSpec.format($0)) pt" } ?? ""
      throw GlassError(
        .invalidScene,
        "the frame sized to fit this text\(within) would be \(ParameterSpec.format(size.height)) pt tall, more "
          + "than a frame's \(side) pt; give a lineLimit, a wider frame, a smaller font or a shorter text",
        at: GlassError.Location(jsonPath: "text"))
    }
  }
}
