/// What every effect declares, whatever it draws: its parameters as one value,
/// the table that drives their validation, the command-line help and the
/// documentation, the validation itself (before any GL call), how far beyond the
/// pixels it writes it reads its input, and its lowering into primitives.
/// Backends implement primitives, never effects.
///
/// The project's effects: `GaussianBlurEffect` (the one blur lowering, which the
/// frost of glass and materials and the background extension share),
/// `BackgroundExtensionEffect` and `GlassEffect` (glass and materials).
public protocol Effect: Sendable {
  /// What the effect is asked to do, in pixels.
  associatedtype Parameters: Hashable, Codable, Sendable

  /// Every parameter once: name, unit, range, default and one line of help.
  static var parameterTable: [ParameterSpec] { get }

  /// The parameters.
  var parameters: Parameters { get }

  /// Throws `invalidParameter`, naming the parameter, for a value out of range.
  func validate() throws

  /// How far, in pixels, an output pixel reads into its input around it, for an
  /// input of `inputSize` (a blur's margin, a lens's deepest pull).
  func inputMarginPixels(for inputSize: PixelSize) -> Int

  /// Adds the passes that read `inputs` (images of `graph`) and write the
  /// effect's pixels into `destination`.
  func lower(_ inputs: [ImageHandle], to destination: EffectDestination, into graph: inout RenderGraph)
}

extension Effect {
  /// The parameter spec named `name` (a misspelt name is the library's own bug).
  public static func spec(_ name: String) -> ParameterSpec {
    guard let spec = parameterTable.first(where: { $0.name == name }) else {
      preconditionFailure("no parameter named \(name)")
    }
    return spec
  }
}

/// Where an effect's passes write: into `image`, with the effect's own pixel
/// (0, 0) at `origin`, only inside `bounds`, composited over what is there
/// (`blend`) or replacing it.
public struct EffectDestination: Hashable, Sendable {
  /// The image written.
  public var image: ImageHandle
  /// Target pixel of the effect's own top-left pixel.
  public var origin: PixelPoint
  /// The only target pixels written; nil: all the effect covers.
  public var bounds: PixelRect?
  /// Composite over the target (premultiplied "over") rather than replace it.
  public var blend: Bool
  /// What the passes are called in traces (nil: the effect's own names).
  public var name: String?

  /// A destination.
  public init(
    _ image: ImageHandle, origin: PixelPoint = PixelPoint(x: 0, y: 0), bounds: PixelRect? = nil, blend: Bool,
    name: String? = nil
  ) {
    self.image = image
    self.origin = origin
    self.bounds = bounds
    self.blend = blend
    self.name = name
  }

  /// Where the effect's rectangle `rect` lands in the target, or nil when none of
  /// it is inside the bounds and the target image.
  func rect(_ rect: PixelRect, in graph: RenderGraph) -> PixelRect? {
    var rect = rect.offsetBy(origin.x, origin.y).intersection(PixelRect(size: graph[image].descriptor.size))
    if let bounds { rect = rect.intersection(bounds) }
    return rect.isEmpty ? nil : rect
  }
}
