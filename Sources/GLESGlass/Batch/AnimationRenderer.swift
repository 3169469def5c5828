import Foundation

/// The frames of a transition between two states of a scene, rendered in order:
/// what `glass-gpu animate` does, for a Swift program.
///
///     frame   0 … h−1   h … h+n−1        h+n … 2h+n−1   (round trip: n−1 frames back, h more)
///             first     the transition   second         (the way back, the first again)
///
/// n is `Scene.frameCount(of:fps:)`: frame h + k is the scene at time k / fps,
/// the first of them exactly the first state and the last exactly the second; h
/// is the hold (`Options.holdSeconds` times the rate, rounded). The way back starts
/// on the frame the way there ended with.
///
/// Frames are computed when they are rendered, so memory does not grow with
/// their number; frames equal to the one before (a held end) reuse its image; the
/// next distinct frame is prepared while the renderer works on the one before.
/// Before the first frame, both states are checked as `render --state` would
/// check them (images, text, sizes), so a scene that fails, fails before any
/// frame is written.
///
///     let animation = try AnimationRenderer(scene: scene, images: ["photo": photo])
///     try animation.render(on: Renderer(backend: .auto)) { frames, image in ... }
///
/// or with the images a `SceneFile` loads: `AnimationRenderer(scene: file.scene,
/// images: try file.loadImages())`, or simply `AnimationRenderer(file: file)`.
public final class AnimationRenderer: @unchecked Sendable {
  /// How the frames are made.
  public struct Options: Sendable, Hashable {
    /// Frames per second, above 0 and at most `maximumFPS`.
    public var fps: Double
    /// Seconds each end state is held, 0 to `maximumHoldSeconds`.
    public var holdSeconds: Double
    /// Plays the transition back again to the first state: a loop for a preview.
    public var roundTrip: Bool
    /// Bits per channel of the frames.
    public var depth: RGBAImage.Depth
    /// Images and canvases over this many pixels are refused.
    public var maxPixels: Int

    /// 60 fps, no hold, one way, 8-bit.
    public init(
      fps: Double = 60, holdSeconds: Double = 0, roundTrip: Bool = false, depth: RGBAImage.Depth = .eight,
      maxPixels: Int = PNGCodec.defaultMaxPixels
    ) {
      self.fps = fps
      self.holdSeconds = holdSeconds
      self.roundTrip = roundTrip
      self.depth = depth
      self.maxPixels = maxPixels
    }
  }

  /// The most frames an animation may have: 100,000, about 28 minutes at 60 fps.
  /// A spring of bounce near ±1 settles after hours; it is refused, not started.
  public static let maximumFrameCount = 100_000
  /// The highest frame rate.
  public static let maximumFPS = 1000.0
  /// The longest hold, in seconds.
  public static let maximumHoldSeconds = 60.0

  /// The scene, with its states, and the folder its files are relative to.
  public let file: SceneFile
  /// The transition rendered.
  public let transition: SceneTransition
  /// How the frames are made.
  public let options: Options
  /// How many frames there are, holds and the way back included.
  public let frameCount: Int
  /// The frames of one way of the transition (n).
  public let transitionFrameCount: Int
  /// The frames of each hold (h).
  public let holdFrameCount: Int

  /// Images given decoded, by their path in the scene (nil: read from files).
  private let decoded: [String: RGBAImage]?
  private let stopLock = NSLock()
  private var stopped = false
  private var checked = false

  /// The animation of `file`'s scene along `transition` (nil: the scene's own).
  /// Throws, before any rendering, for options out of range, a transition whose
  /// states are missing or do not pair (`Scene.checkTransition`), a canvas over
  /// `maxPixels`, or more than `maximumFrameCount` frames.
  public convenience init(file: SceneFile, transition: SceneTransition? = nil, options: Options = Options()) throws {
    try self.init(file: file, transition: transition, options: options, decoded: nil)
  }

  /// The animation of a scene made in Swift whose images are decoded already, by
  /// their path in the scene; font files are found relative to the working directory.
  public convenience init(
    scene: Scene, images: [String: RGBAImage] = [:], transition: SceneTransition? = nil, options: Options = Options()
  ) throws {
    try self.init(
      file: SceneFile(scene: scene, directory: "."), transition: transition, options: options, decoded: images)
  }

  /// The animation of a scene made in Swift with images loaded already
  /// (`SceneFile.loadImages()`): each is decoded here, once, and kept for every
  /// frame; font files are found in the images' folder.
  public convenience init(
    scene: Scene, images: SceneImages, transition: SceneTransition? = nil, options: Options = Options()
  ) throws {
    try self.init(
      file: SceneFile(scene: scene, directory: images.directory), transition: transition, options: options,
      decoded: images.decodedImages())
  }

  private init(file: SceneFile, transition: SceneTransition?, options: Options, decoded: [String: RGBAImage]?) throws {
    // The scene is laid out once, here (its view trees, its frames sized to their
    // text): frames interpolate the layers it lowers to, sized, and the
    // transition pairs those.
    var file = file
    if file.scene.needsLayout {
      if let decoded {
        do {
          file.scene = try file.scene.laidOut(images: SceneImages(decoded, directory: file.directory))
        } catch let error as GlassError {
          throw file.locate(error)
        }
      } else {
        file = try file.laidOut(maxPixels: options.maxPixels)
      }
    }
    guard options.fps.isFinite && options.fps > 0 && options.fps <= Self.maximumFPS else {
      throw GlassError(
        .invalidParameter,
        "the frame rate is \(ParameterSpec.format(options.fps)) fps; give above 0, at most "
          + ParameterSpec.format(Self.maximumFPS))
    }
    guard options.holdSeconds.isFinite && options.holdSeconds >= 0 && options.holdSeconds <= Self.maximumHoldSeconds
    else {
      throw GlassError(
        .invalidParameter,
        "the hold is \(ParameterSpec.format(options.holdSeconds)) s; give 0 to "
          + "\(ParameterSpec.format(Self.maximumHoldSeconds)) seconds")
    }
    guard let transition = (transition ?? file.scene.transition)?.inEnvironment(file.scene.environment) else {
      throw file.locate(
        GlassError(
          .invalidScene, "the scene has no transition; give one with \"transition\" or name the states",
          at: GlassError.Location(jsonPath: "transition")))
    }
    do {
      try file.scene.checkTransition(transition)
      try PNGCodec.checkPixelLimit(file.scene.pixelSize, maxPixels: options.maxPixels, what: "the canvas")
    } catch let error as GlassError {
      throw file.locate(error)
    }
    // Counted in floating point first: a spring of bounce near ±1 settles after
    // days, past what an Int of frames holds at any rate.
    let settle = transition.animation.settleTime
    let hold = (options.holdSeconds * options.fps).rounded()
    let ways = options.roundTrip ? 2.0 : 1.0
    let estimate = ways * (settle * options.fps + 1) + (options.roundTrip ? 3 : 2) * hold
    guard estimate <= Double(Self.maximumFrameCount) else {
      throw file.locate(
        GlassError(
          .invalidParameter,
          "the animation has \(estimate < 1e15 ? String(Int(estimate)) : ParameterSpec.format(estimate)) frames "
            + "(the curve settles after \(ParameterSpec.format((settle * 1000).rounded() / 1000)) s, at "
            + "\(ParameterSpec.format(options.fps)) fps), over the limit of \(Self.maximumFrameCount); "
            + "lower the frame rate, the hold, or the curve's duration or bounce", hint: .lowerFrameRateOrHold))
    }
    let n = Scene.frameCount(of: transition, fps: options.fps)
    let h = Int(hold)
    self.file = file
    self.transition = transition
    self.options = options
    self.decoded = decoded
    transitionFrameCount = n
    holdFrameCount = h
    frameCount = h + n + h + (options.roundTrip ? n - 1 + h : 0)
  }

  /// The size of every frame, in pixels.
  public var pixelSize: PixelSize { file.scene.pixelSize }

  /// The name of frame `index` in a folder: `frame-0000.png`, `frame-0001.png`, ...
  /// (`.jpg`, `.webp` for those formats).
  public static func frameName(_ index: Int, format: ImageEncoding.Format = .png) -> String {
    String(format: "frame-%04d.", index) + format.fileExtension
  }

  /// True for a name `frameName` gives, in any format: `frame-`, four digits or
  /// more, `.png`, `.jpg` or `.webp`.
  public static func isFrameName(_ name: String) -> Bool {
    guard name.hasPrefix("frame-") else { return false }
    let extensions = ImageEncoding.Format.allCases.map { "." + $0.fileExtension }
    guard let suffix = extensions.first(where: { name.hasSuffix($0) }) else { return false }
    let digits = name.dropFirst(6).dropLast(suffix.count)
    return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  // MARK: Frames

  /// The scene of frame `index`, 0 ..< `frameCount`.
  public func scene(ofFrame index: Int) throws -> Scene {
    precondition(index >= 0 && index < frameCount, "frame \(index) of \(frameCount)")
    let n = transitionFrameCount
    let h = holdFrameCount
    var back = transition
    (back.from, back.to) = (transition.to, transition.from)
    // (the transition, its frame): the ends are the states themselves.
    func moment(_ way: SceneTransition, _ k: Int) throws -> Scene {
      if k == 0 { return try file.scene.state(way.from) }
      if k >= n - 1 { return try file.scene.state(way.to) }
      return try file.scene.frame(at: Double(k) / options.fps, of: way)
    }
    var i = index
    if i < h { return try moment(transition, 0) }
    i -= h
    if i < n { return try moment(transition, i) }
    i -= n
    if i < h { return try moment(transition, n - 1) }
    i -= h
    return try moment(back, min(i + 1, n - 1))
  }

  /// The files the frames are made from: the scene file (when it is one) and the
  /// images both states name. An output must be none of them.
  public var inputFiles: [String] {
    var paths = file.location.file.map { [$0] } ?? []
    guard decoded == nil else { return paths }
    for name in [transition.from, transition.to] {
      guard let state = try? file.scene.state(name) else { continue }
      paths += state.imageReferences.map { file.resolve($0.path) }
    }
    return paths
  }

  // MARK: Stopping

  /// Stops rendering after the frame in flight.
  public func stop() {
    stopLock.withLock { stopped = true }
  }

  /// True after `stop()`, or once a deferred SIGINT or SIGTERM has come
  /// (`PNGCodec.OutputFile.deferStops`).
  public var isStopped: Bool {
    stopLock.withLock { stopped } || PNGCodec.OutputFile.stopSignal != nil
  }

  private func stoppedError(after frames: Int) -> GlassError {
    GlassError(.outputFailure, "stopped after \(frames) of \(frameCount) frames")
  }

  // MARK: Rendering

  /// Checks both states of the transition as `render --state` would: their images
  /// read (headers checked), their text laid out, their graphs prepared. Errors
  /// name the state's JSON path (`states.expanded.layers[1].source`).
  /// Once both states have passed, later calls do nothing.
  /// Text is laid out and images kept with `caches` (a renderer's; nil: new ones).
  public func check(caches: RenderCaches? = nil) throws {
    guard !stopLock.withLock({ checked }) else { return }
    for name in Set([transition.from, transition.to]).sorted() {
      if isStopped { throw stoppedError(after: 0) }
      if let decoded {
        // Images given: each state prepared with them, not read from files.
        do {
          do {
            _ = try Renderer.prepare(
              file.scene.state(name), images: SceneImages(decoded, directory: file.directory), depth: options.depth,
              maxPixels: options.maxPixels,
              caches: caches)
          } catch let error as GlassError {
            throw error.located(GlassError.Location(jsonPath: "states.\(JSONNode.shortened(name))"))
          }
        } catch let error as GlassError {
          throw file.locate(error)
        }
      } else {
        _ = try file.prepareState(name, depth: options.depth, maxPixels: options.maxPixels, caches: caches)
      }
    }
    stopLock.withLock { checked = true }
  }

  /// The images of a frame's scene.
  private func images(of scene: Scene, cache: ImageCache) throws -> SceneImages {
    if let decoded { return SceneImages(decoded, directory: file.directory) }
    var frame = file
    frame.scene = scene
    return try frame.loadImages(maxPixels: options.maxPixels, cache: cache)
  }

  /// Renders every frame in order on `renderer` and hands each distinct image to
  /// `body` with the frames that show it (consecutive indices: one, or a held
  /// end's). Checks both states first (`check`). Returns the number of frames
  /// handed over: `frameCount`, or fewer after `stop()` or a deferred signal.
  @discardableResult
  public func render(
    on renderer: Renderer, _ body: (Range<Int>, RGBAImage) throws -> Void
  ) throws -> Int {
    try check(caches: renderer.caches)
    return try renderChecked(on: renderer, body)
  }

  /// `render` once `check` has passed; it also stops once `stopping` says so.
  ///
  /// A thread of its own computes the frames and prepares each distinct one, at
  /// most two ahead; this thread submits each prepared frame before it waits for
  /// the one before (so the renderer always has the next one), and hands the
  /// images to `body` in order.
  private func renderChecked(
    on renderer: Renderer, stopping: () -> Bool = { false },
    _ body: (Range<Int>, RGBAImage) throws -> Void
  ) throws -> Int {
    let prepared = BoundedQueue<Result<(Range<Int>, PreparedRender), Error>>(capacity: 2)
    let cancelled = Flag()
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      defer {
        prepared.close()
        finished.signal()
      }
      var start = 0
      while start < frameCount && !cancelled.isSet && !isStopped {
        do {
          let (scene, frames) = try run(from: start)
          prepared.push(.success((frames, try prepare(scene, on: renderer))))
          start = frames.upperBound
        } catch {
          prepared.push(.failure(error))
          return
        }
      }
    }
    thread.name = "glass-gpu animate prepare"
    thread.start()
    defer {
      // The preparing thread ends at its next frame; what it made is dropped.
      cancelled.set()
      while prepared.pop() != nil {}
      finished.wait()
    }
    var pending: (frames: Range<Int>, render: SubmittedRender)?
    var handed = 0
    func finish(_ frames: Range<Int>, _ render: SubmittedRender) throws {
      var timings = RenderTimings()
      try body(frames, renderer.wait(render, timings: &timings))
      handed = frames.upperBound
    }
    while !isStopped && !stopping(), let next = prepared.pop() {
      let (frames, render) = try next.get()
      let submitted = try renderer.submit(render)
      if let (f, r) = pending { try finish(f, r) }
      pending = (frames, submitted)
    }
    if let (f, r) = pending { try finish(f, r) }
    return handed
  }

  /// The frames from `start` on that are one scene (consecutive and equal), and that scene.
  private func run(from start: Int) throws -> (scene: Scene, frames: Range<Int>) {
    let scene = try scene(ofFrame: start)
    var end = start + 1
    while end < frameCount, try self.scene(ofFrame: end) == scene { end += 1 }
    return (scene, start..<end)
  }

  /// A frame's scene prepared for `renderer`; errors located in the scene file.
  private func prepare(_ scene: Scene, on renderer: Renderer) throws -> PreparedRender {
    do {
      let images = try images(of: scene, cache: renderer.caches.images)
      return try renderer.prepare(scene, images: images, depth: options.depth, maxPixels: options.maxPixels)
    } catch let error as GlassError {
      throw file.locate(error)
    }
  }

  /// What writing the frames did.
  public struct Summary: Sendable {
    /// Frames written.
    public var frames = 0
    /// Distinct frames rendered (held frames are rendered once).
    public var rendered = 0
    /// Bytes written.
    public var bytes = 0
    /// Seconds from the first frame's start to the last one written.
    public var seconds = 0.0
  }

  /// Writes every frame as a file of `encoding`'s format (PNG unless it names
  /// another) into `folder` (made when missing): `frame-0000.png`,
  /// `frame-0001.png`, ... (`frameName`: `.jpg`, `.webp`), each encoded once,
  /// on `jobs` threads, while the next renders. Earlier frames in the folder (files
  /// named as `isFrameName` says, a link itself and never what it leads to) are
  /// removed before the first frame, so the folder holds this animation's frames
  /// only; other files stay, and an input among them is refused. The first frame
  /// that cannot be written stops the run, and then, or after `stop()` or a
  /// deferred signal, every frame this run wrote is removed again and the error
  /// is thrown: the folder holds a whole animation or none.
  public func writeFrames(
    into folder: String, on renderer: Renderer, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    encoding: ImageEncoding = ImageEncoding()
  ) throws -> Summary {
    try encoding.validate()
    let format = encoding.format ?? .png
    try ImageEncoding.check(format, depth: options.depth, path: folder)
    try check(caches: renderer.caches)
    try makeFolder(folder)
    try removeFrames(in: folder, refusingInputs: true)
    let start = Date()
    let queue = BoundedQueue<(Range<Int>, RGBAImage)>(capacity: max(1, jobs))
    let failure = FirstFailure()
    let tally = Tally()
    let group = DispatchGroup()
    for index in 0..<max(1, jobs) {
      group.enter()
      let thread = Thread { [self] in
        defer { group.leave() }
        while let (frames, image) = queue.pop() {
          guard !failure.happened else { continue }
          do {
            let bytes = try writeFrames(frames, image, into: folder, encoding: encoding, format: format)
            tally.add(frames: frames.count, bytes: bytes)
          } catch {
            failure.record(error)
          }
        }
      }
      thread.name = "glass-gpu animate write \(index)"
      thread.start()
    }
    let outcome = Result {
      try renderChecked(on: renderer, stopping: { failure.happened }) { frames, image in
        guard !failure.happened else { return }
        queue.push((frames, image))
      }
    }
    queue.close()
    group.wait()
    let handed: Int
    do {
      handed = try outcome.get()
      if let error = failure.error { throw error }
      if handed < frameCount { throw stoppedError(after: handed) }
    } catch {
      try? removeFrames(in: folder, refusingInputs: false)
      throw error
    }
    var summary = tally.summary
    summary.seconds = Date().timeIntervalSince(start)
    return summary
  }

  /// Writes the frames `frames`, all showing `image`, encoded once; their bytes.
  private func writeFrames(
    _ frames: Range<Int>, _ image: RGBAImage, into folder: String, encoding: ImageEncoding,
    format: ImageEncoding.Format
  ) throws
    -> Int
  {
    let file = try encoding.encoded(image, as: format)
    for index in frames {
      let output = try PNGCodec.OutputFile(
        path: PNGCodec.OutputFile.join(folder, Self.frameName(index, format: format)))
      try output.write(encoded: file)
    }
    return file.count * frames.count
  }

  /// Makes `folder` when missing; refuses a path that is not a folder.
  private func makeFolder(_ folder: String) throws {
    var info = stat()
    if stat(folder, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw GlassError(.outputFailure, "cannot write frames into \(folder): it is not a folder; name a folder")
      }
      return
    }
    // Made as every output's folder is (`mkdir -p`, the reason and fix named).
    try FilePaths.makeFolders(folder, what: "the frames' folder")
  }

  /// Removes every frame file (`isFrameName`) in `folder`: a file or a link (the
  /// link itself), never a folder. With `refusingInputs`, first refuses a folder
  /// where one of them is an input of the animation.
  public func removeFrames(in folder: String, refusingInputs: Bool) throws {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(Self.isFrameName)
    if refusingInputs {
      let inputs = inputFiles.compactMap { path -> (dev_t, ino_t)? in
        var info = stat()
        return stat(path, &info) == 0 ? (info.st_dev, info.st_ino) : nil
      }
      for name in names {
        let path = PNGCodec.OutputFile.join(folder, name)
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        if inputs.contains(where: { $0.0 == info.st_dev && $0.1 == info.st_ino }) {
          throw GlassError(
            .outputFailure,
            "cannot write frames into \(folder): \(name) is an input of this animation, and the folder's frame "
              + "files are replaced; name another folder")
        }
      }
    }
    for name in names {
      let path = PNGCodec.OutputFile.join(folder, name)
      var info = stat()
      guard lstat(path, &info) == 0, [S_IFREG, S_IFLNK].contains(info.st_mode & S_IFMT) else { continue }
      guard unlink(path) == 0 || errno == ENOENT else {
        throw GlassError(
          .outputFailure, "cannot remove the earlier frame \(path); check the folder's permissions",
          cause: String(cString: strerror(errno)))
      }
    }
  }

  /// Writes the frames as one animated PNG (`AnimatedPNG`) at `path`, frame by
  /// frame into a temporary file renamed at the end (so memory does not grow
  /// with the frames, and a failure, `stop()` or a deferred signal leaves no
  /// file), or straight into a device or FIFO. Refuses an output that is an input.
  public func writeAnimatedPNG(
    to path: String, on renderer: Renderer, compression: Int = PNGCodec.defaultCompression
  ) throws -> Summary {
    let output = try PNGCodec.OutputFile(path: path)
    try output.checkDistinct(from: inputFiles)
    var animation = try AnimatedPNG(size: pixelSize, frameCount: frameCount, fps: options.fps)
    var summary = Summary()
    let start = Date()
    try output.write(streaming: { append in
      let handed = try render(on: renderer) { frames, image in
        for _ in frames {
          let bytes = try animation.append(image, compression: compression)
          try bytes.withUnsafeBytes { try append($0) }
          summary.bytes += bytes.count
        }
        summary.frames += frames.count
        summary.rendered += 1
      }
      guard handed == frameCount else { throw stoppedError(after: handed) }
      let end = animation.end()
      try end.withUnsafeBytes { try append($0) }
      summary.bytes += end.count
    })
    summary.seconds = Date().timeIntervalSince(start)
    return summary
  }

  /// Writes the frames as raw 8-bit RGBA, one after another, to the open file
  /// `descriptor` (standard output by default), called `name` in errors; the first
  /// write that fails (a closed or full output, a pipe whose reader is gone with
  /// SIGPIPE ignored) stops it with `cannot write NAME`.
  public func writeRawFrames(
    to descriptor: Int32 = STDOUT_FILENO, named name: String = "standard output", on renderer: Renderer
  ) throws -> Summary {
    guard fcntl(descriptor, F_GETFL) >= 0 else {
      throw GlassError(
        .outputFailure, "cannot write \(name): it is closed; pipe it into a program such as ffmpeg",
        cause: String(cString: strerror(errno)))
    }
    var summary = Summary()
    let start = Date()
    let handed = try render(on: renderer) { frames, image in
      guard case .eight(let bytes) = image.converted(to: .eight).samples else {
        preconditionFailure("converted to 8 bits")
      }
      for _ in frames {
        try bytes.withUnsafeBytes { raw in
          if let failure = writeFully(descriptor, raw) {
            throw GlassError(.outputFailure, "cannot write \(name)", cause: failure)
          }
        }
        summary.bytes += bytes.count
      }
      summary.frames += frames.count
      summary.rendered += 1
    }
    guard handed == frameCount else { throw stoppedError(after: handed) }
    summary.seconds = Date().timeIntervalSince(start)
    return summary
  }
}

/// A flag threads set and read.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }
}

/// Frames and bytes written by several threads.
private final class Tally: @unchecked Sendable {
  private let lock = NSLock()
  private var counts = AnimationRenderer.Summary()

  var summary: AnimationRenderer.Summary { lock.withLock { counts } }

  func add(frames: Int, bytes: Int) {
    lock.withLock {
      counts.frames += frames
      counts.rendered += 1
      counts.bytes += bytes
    }
  }
}

/// The first error of several threads.
private final class FirstFailure: @unchecked Sendable {
  private let lock = NSLock()
  private var first: Error?

  var happened: Bool { lock.withLock { first != nil } }
  var error: Error? { lock.withLock { first } }

  func record(_ error: Error) {
    lock.withLock { if first == nil { first = error } }
  }
}

extension SceneFile {
  /// The state `name` prepared as `render --state` prepares it: its images read
  /// (headers checked), its text laid out, its graph compiled. Errors carry the
  /// state's JSON path (`states.expanded.layers[1].source`) in this file.
  public func prepareState(
    _ name: String, depth: RGBAImage.Depth = .eight, maxPixels: Int = PNGCodec.defaultMaxPixels,
    caches: RenderCaches? = nil
  ) throws -> PreparedRender {
    do {
      let state = SceneFile(scene: try scene.state(name), directory: directory)
      do {
        let images = try state.loadImages(maxPixels: maxPixels, cache: caches?.images)
        return try Renderer.prepare(state.scene, images: images, depth: depth, maxPixels: maxPixels, caches: caches)
      } catch let error as GlassError {
        throw error.located(GlassError.Location(jsonPath: "states.\(JSONNode.shortened(name))"))
      }
    } catch let error as GlassError {
      throw locate(error)
    }
  }
}
