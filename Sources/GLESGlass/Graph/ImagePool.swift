/// Idle transient images of a backend, keyed by size and format. An image taken
/// with `acquire` goes back with `recycle` after its last use in a frame.
/// Backend-neutral: the backend makes and deletes the images it holds.
struct ImagePool<Image> {
  private var idle: [ImageDescriptor: [Image]] = [:]
  /// The render each descriptor's images were last handed out in.
  private var lastUsed: [ImageDescriptor: Int] = [:]
  /// Renders ended (`endRender`).
  private var renders = 0
  /// Images handed out and not yet recycled.
  private(set) var inUse = 0
  /// Bytes held by idle images.
  private(set) var idleBytes = 0

  /// Number of idle images.
  var idleCount: Int { idle.values.reduce(0) { $0 + $1.count } }

  /// An idle image of this descriptor, or a new one from `make`.
  mutating func acquire(_ descriptor: ImageDescriptor, make: () throws -> Image) rethrows -> Image {
    let image: Image
    if var list = idle[descriptor], let reused = list.popLast() {
      idle[descriptor] = list.isEmpty ? nil : list
      idleBytes -= descriptor.byteCount
      image = reused
    } else {
      image = try make()
    }
    lastUsed[descriptor] = renders
    inUse += 1
    return image
  }

  /// Ends a render: idle images of a size and format no render has asked for in
  /// the last `keeping` renders are removed and returned (the backend deletes
  /// them), so a stream of renders of varying sizes (a batch) holds only what
  /// recent renders use, not every size it has seen.
  mutating func endRender(keeping: Int = 2) -> [Image] {
    renders += 1
    var removed: [Image] = []
    for (descriptor, list) in idle where renders - (lastUsed[descriptor] ?? 0) > keeping {
      removed += list
      idleBytes -= descriptor.byteCount * list.count
      idle[descriptor] = nil
      lastUsed[descriptor] = nil
    }
    return removed
  }

  /// Counts an image made elsewhere as handed out, so that its `recycle` pools it.
  mutating func adopt(_ image: Image, _ descriptor: ImageDescriptor) {
    inUse += 1
  }

  /// Returns an image to the idle set.
  mutating func recycle(_ image: Image, _ descriptor: ImageDescriptor) {
    precondition(inUse > 0, "recycling an image the pool did not hand out")
    inUse -= 1
    idle[descriptor, default: []].append(image)
    idleBytes += descriptor.byteCount
  }

  /// Removes and returns idle images until at most `maxIdleBytes` stay idle,
  /// the largest first; the backend deletes what it gets back.
  mutating func trim(toBytes maxIdleBytes: Int) -> [Image] {
    var removed: [Image] = []
    for descriptor in idle.keys.sorted(by: { $0.byteCount > $1.byteCount }) where idleBytes > maxIdleBytes {
      while idleBytes > maxIdleBytes, var list = idle[descriptor], let image = list.popLast() {
        idle[descriptor] = list.isEmpty ? nil : list
        idleBytes -= descriptor.byteCount
        removed.append(image)
      }
    }
    return removed
  }
}
