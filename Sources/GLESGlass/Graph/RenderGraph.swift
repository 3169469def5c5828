/// A handle to an image of a render graph.
public struct ImageHandle: Hashable, Sendable, CustomStringConvertible {
  /// Index into the graph's resources.
  public let index: Int

  /// `#index`.
  public var description: String { "#\(index)" }
}

/// A frame graph: images (imported sources, one output, pooled transients) and the
/// passes that read and write them. Effects declare it; `compile()` culls, orders
/// and records lifetimes; `RenderExecutor` runs it on a backend.
///
/// Passes write a rectangle of their output image; several passes may write
/// different rectangles of one image. The output's pixels that no pass writes come
/// from `copies`: exact copies of source pixels, made on the CPU.
public struct RenderGraph: Sendable {
  /// Where an image comes from.
  public enum Role: Sendable {
    /// Made by passes, taken from the pool at first use and returned after last use.
    case transient
    /// A CPU image the backend uploads (only `rects` of it are read).
    case source(SourceImport)
    /// The result, read back (only the rectangles passes wrote).
    case output
  }

  /// A CPU image used as an input, stored in `format`: `.linearHalf` converts it
  /// to premultiplied linear light; an encoded format keeps its values.
  public struct SourceImport: Sendable {
    /// The pixels.
    public var image: RGBAImage
    /// The parts of the image passes read; nothing else need be uploaded.
    public var rects: [PixelRect]
  }

  /// One image of the graph.
  public struct Resource: Sendable {
    /// A name for diagnostics.
    public var name: String
    /// Size and format.
    public var descriptor: ImageDescriptor
    /// Where it comes from.
    public var role: Role
  }

  /// One primitive applied once: reads `inputs`, writes `rect` of `output`.
  public struct Pass: Sendable {
    /// A name for diagnostics and timings.
    public var name: String
    /// What it computes.
    public var primitive: Primitive
    /// The images it reads.
    public var inputs: [ImageHandle]
    /// The image it writes.
    public var output: ImageHandle
    /// The pixels of `output` it writes.
    public var rect: PixelRect
    /// True: composite premultiplied over what `output` holds (a linear target);
    /// false: replace it.
    public var blend = false
  }

  /// Exact pixels of a source image placed into the output, on the CPU.
  public struct Copy: Sendable {
    /// The source image.
    public var image: RGBAImage
    /// The part of it copied.
    public var rect: PixelRect
    /// Where it lands in the output.
    public var origin: PixelPoint
  }

  /// Every image, by handle index.
  public private(set) var resources: [Resource] = []
  /// Every pass, in declaration order.
  public private(set) var passes: [Pass] = []
  /// Exact copies into the output.
  public private(set) var copies: [Copy] = []
  /// Sources imported with a reuse key, by that key.
  private var sourcesByKey: [SourceKey: ImageHandle] = [:]

  /// What makes two imports the same source: any hashable, sendable value.
  public struct SourceKey: Hashable, @unchecked Sendable {
    // Only made from Sendable values, so sharing it across threads is safe.
    private let value: AnyHashable

    /// A key made of `value`.
    public init<Value: Hashable & Sendable>(_ value: Value) {
      self.value = AnyHashable(value)
    }
  }

  /// An empty graph.
  public init() {}

  /// Declares a CPU image as an input; only `rects` of it will be read. With a
  /// `reuseKey`, importing the same key again (the same image, in the same format)
  /// returns the first handle and adds the new rects to it: one upload, however
  /// many passes read the image.
  public mutating func importSource(
    _ image: RGBAImage, as format: ImageFormat, rects: [PixelRect], name: String = "source",
    reuseKey: SourceKey? = nil
  ) -> ImageHandle {
    precondition(format == .linearHalf || format == .encoded(image.depth), "a raw source keeps its depth")
    if let reuseKey, let handle = sourcesByKey[reuseKey] {
      guard case .source(var source) = resources[handle.index].role else { preconditionFailure("a source") }
      precondition(resources[handle.index].descriptor == ImageDescriptor(size: image.size, format: format))
      for rect in rects where !source.rects.contains(where: { $0.contains(rect) }) { source.rects.append(rect) }
      resources[handle.index].role = .source(source)
      return handle
    }
    let handle = add(
      Resource(
        name: name, descriptor: ImageDescriptor(size: image.size, format: format),
        role: .source(SourceImport(image: image, rects: rects))))
    if let reuseKey { sourcesByKey[reuseKey] = handle }
    return handle
  }

  /// Declares the output image.
  public mutating func makeOutput(size: PixelSize, format: ImageFormat, name: String = "output") -> ImageHandle {
    precondition(!resources.contains { if case .output = $0.role { true } else { false } }, "one output")
    return add(Resource(name: name, descriptor: ImageDescriptor(size: size, format: format), role: .output))
  }

  /// Declares a transient image.
  public mutating func makeTransient(_ name: String, size: PixelSize, format: ImageFormat) -> ImageHandle {
    add(Resource(name: name, descriptor: ImageDescriptor(size: size, format: format), role: .transient))
  }

  /// Adds a pass that reads `inputs` and writes `rect` of `output`.
  public mutating func addPass(
    _ name: String, _ primitive: Primitive, inputs: [ImageHandle], output: ImageHandle, rect: PixelRect,
    blend: Bool = false
  ) {
    precondition(!blend || self[output].descriptor.format == .linearHalf, "only linear images blend")
    if case .fill(let fill) = primitive {
      precondition(inputs.count == (fill.mask == nil ? 0 : 1), "a fill reads its mask, and nothing else")
    }
    passes.append(Pass(name: name, primitive: primitive, inputs: inputs, output: output, rect: rect, blend: blend))
  }

  /// Places `rect` of `image` at `origin` in the output, exactly.
  public mutating func copyToOutput(_ image: RGBAImage, rect: PixelRect, origin: PixelPoint) {
    copies.append(Copy(image: image, rect: rect, origin: origin))
  }

  /// The resource behind a handle.
  public subscript(handle: ImageHandle) -> Resource { resources[handle.index] }

  private mutating func add(_ resource: Resource) -> ImageHandle {
    resources.append(resource)
    return ImageHandle(index: resources.count - 1)
  }
}
