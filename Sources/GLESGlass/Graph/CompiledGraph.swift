/// A render graph checked and prepared for execution. `RenderGraph.compile()` runs
/// these stages, each a small function:
///
/// 1. `validate`  handles exist, rectangles fit, an image is written before it is read
/// 2. `cull`      drop passes whose output nothing reads and that do not write the
///                 output, or whose pixels a later pass replaces before anything reads them
/// 3. `order`     keep declaration order, which validation proved is a dependency order
/// 4. `lifetimes` first and last pass that uses each transient image
public struct CompiledGraph: Sendable {
  /// The graph, unchanged.
  public let graph: RenderGraph
  /// Indices into `graph.passes` of the passes to run, in order.
  public let order: [Int]
  /// For each transient handle: the positions in `order` of its first and last use.
  public let lifetimes: [ImageHandle: ClosedRange<Int>]
  /// The output image.
  public let output: ImageHandle
  /// The rectangles of the output that live passes write.
  public let writtenRects: [PixelRect]

  /// The passes to run, in order.
  public var passes: [RenderGraph.Pass] { order.map { graph.passes[$0] } }

  /// Bytes of every transient image the live passes use.
  public var transientBytes: Int { lifetimes.keys.reduce(0) { $0 + graph[$1].descriptor.byteCount } }

  /// Bytes of every imported source image.
  public var sourceBytes: Int {
    graph.resources.reduce(0) { total, resource in
      if case .source = resource.role { total + resource.descriptor.byteCount } else { total }
    }
  }
}

extension RenderGraph {
  /// Runs the compile stages; a failure is a bug in the lowering of an effect.
  public func compile() throws -> CompiledGraph {
    let output = try validate()
    let live = cull(output: output)
    let order = self.order(live)
    return CompiledGraph(
      graph: self, order: order, lifetimes: lifetimes(order), output: output,
      writtenRects: order.map { passes[$0] }.filter { $0.output == output }.map(\.rect))
  }

  /// Stage 1: every handle exists; every pass writes inside its output, reads only
  /// images already written or imported, and never its own output; one output.
  func validate() throws -> ImageHandle {
    func fail(_ message: String) -> GlassError {
      GlassError(.renderFailure, "internal error in the render graph: \(message)")
    }
    let outputs = resources.indices.filter { if case .output = resources[$0].role { true } else { false } }
    guard outputs.count == 1 else { throw fail("expected one output image, found \(outputs.count)") }
    var written = Set(resources.indices.filter { if case .source = resources[$0].role { true } else { false } })
    for pass in passes {
      guard resources.indices.contains(pass.output.index) else { throw fail("\(pass.name) writes \(pass.output)") }
      let target = resources[pass.output.index]
      if case .source = target.role { throw fail("\(pass.name) writes the source image \(target.name)") }
      guard !pass.rect.isEmpty, PixelRect(size: target.descriptor.size).contains(pass.rect) else {
        throw fail("\(pass.name) writes \(pass.rect) outside \(target.name) (\(target.descriptor.size))")
      }
      for input in pass.inputs {
        guard resources.indices.contains(input.index), input != pass.output else {
          throw fail("\(pass.name) reads \(input)")
        }
        guard written.contains(input.index) else {
          throw fail("\(pass.name) reads \(resources[input.index].name) before any pass writes it")
        }
      }
      written.insert(pass.output.index)
    }
    return ImageHandle(index: outputs[0])
  }

  /// Stage 2: walking back from the end, a pass lives when it writes the output or
  /// an image a live pass after it reads, and not every pixel it writes is
  /// replaced by a later pass before a live pass reads that image. (Compositing
  /// reads only the pixel it writes, so it keeps nothing under a later
  /// replacement alive; an input reads any pixel, so it ends what is occluded.)
  func cull(output: ImageHandle) -> [Bool] {
    var needed: Set<ImageHandle> = [output]
    // Per image: rectangles that later live passes replace and nothing reads after.
    var occluders: [ImageHandle: [PixelRect]] = [:]
    var live = [Bool](repeating: false, count: passes.count)
    for index in passes.indices.reversed() where needed.contains(passes[index].output) {
      let pass = passes[index]
      let hidden = occluders[pass.output, default: []]
      guard !hidden.contains(where: { $0.contains(pass.rect) }) else { continue }
      live[index] = true
      if !pass.blend { occluders[pass.output] = hidden.filter { !pass.rect.contains($0) } + [pass.rect] }
      for input in pass.inputs {
        needed.insert(input)
        occluders[input] = nil
      }
    }
    return live
  }

  /// Stage 3: the live passes in declaration order.
  func order(_ live: [Bool]) -> [Int] {
    passes.indices.filter { live[$0] }
  }

  /// Stage 4: first and last position in `order` at which each transient is used.
  func lifetimes(_ order: [Int]) -> [ImageHandle: ClosedRange<Int>] {
    var result: [ImageHandle: ClosedRange<Int>] = [:]
    for (position, index) in order.enumerated() {
      let pass = passes[index]
      for handle in pass.inputs + [pass.output] {
        guard case .transient = resources[handle.index].role else { continue }
        let first = result[handle]?.lowerBound ?? position
        result[handle] = first...position
      }
    }
    return result
  }
}
