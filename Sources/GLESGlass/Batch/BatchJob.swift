import Foundation

/// One scene to render to one PNG in a batch (docs/batch-format.md).
public struct BatchJob: Sendable {
  /// Where the scene comes from.
  public enum SceneSource: Sendable {
    /// A scene file; its images are relative to its folder.
    case file(String)
    /// A scene given whole; its images are relative to `directory`.
    case scene(Scene, directory: String)
  }

  /// Names the job in results and errors.
  public var id: String
  /// The scene.
  public var scene: SceneSource
  /// The PNG to write.
  public var output: String
  /// Pixels per point (1, 2 or 3) instead of the batch's or the scene's own.
  public var scale: Int?
  /// Bits per channel instead of the batch's.
  public var depth: RGBAImage.Depth?
  /// Environment settings over the scene's own (a manifest line's
  /// `environment`, a cell of `--environments`).
  public var environment: EnvironmentVariant?
  /// The manifest line the job was read from, when it was.
  public var line: Int?
  /// Where the job was given, for errors: the manifest and its line.
  public var origin: GlassError.Location?

  /// A job; `scale` and `depth` override the batch's options.
  public init(
    id: String, scene: SceneSource, output: String, scale: Int? = nil, depth: RGBAImage.Depth? = nil, line: Int? = nil
  ) {
    self.id = id
    self.scene = scene
    self.output = output
    self.scale = scale
    self.depth = depth
    self.line = line
  }

  /// The scene file's path, or nil for a scene given whole.
  public var scenePath: String? {
    if case .file(let path) = scene { path } else { nil }
  }

  /// The jobs an input names, as `glass-gpu batch` reads its arguments: a scene
  /// file renders to its name with `format`'s extension (.png) in
  /// `outputDirectory`; a folder's *.json files (found recursively, in byte order
  /// of their paths) render to the same relative paths under `outputDirectory`.
  public static func jobs(
    forInput input: String, outputDirectory: String, format: ImageEncoding.Format = .png
  ) throws -> [BatchJob] {
    let ext = "." + format.fileExtension
    var info = stat()
    guard stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
      return [
        BatchJob(
          id: input, scene: .file(input), output: (outputDirectory as NSString).appendingPathComponent(name + ext))
      ]
    }
    guard let walker = FileManager.default.enumerator(atPath: input) else {
      throw GlassError(.fileUnreadable, "cannot read the folder \(input); check its permissions")
    }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
      if relative.hasSuffix(".json") { found.append(relative) }
    }
    return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { relative in
      let path = (input as NSString).appendingPathComponent(relative)
      let file = (relative as NSString).deletingPathExtension + ext
      return BatchJob(id: path, scene: .file(path), output: (outputDirectory as NSString).appendingPathComponent(file))
    }
  }

  /// The job once per variant: each writes `NAME.VARIANT.png` beside where the
  /// job writes `NAME.png`, is named `ID [VARIANT]`, and applies the variant over
  /// the job's own settings. No variants: the job itself.
  public func variants(_ variants: [EnvironmentVariant]) -> [BatchJob] {
    guard !variants.isEmpty else { return [self] }
    return variants.map { variant in
      var job = self
      job.id = "\(id) [\(variant.name)]"
      job.output = variant.output(for: output)
      job.environment = EnvironmentVariant.combined(environment, variant)
      return job
    }
  }
}

extension EnvironmentVariant {
  /// `first`'s settings then `second`'s, named by the second.
  static func combined(_ first: EnvironmentVariant?, _ second: EnvironmentVariant) -> EnvironmentVariant {
    guard let first else { return second }
    return EnvironmentVariant(name: second.name, settings: first.settings + second.settings)
  }

  init(name: String, settings: [(name: String, value: String)]) {
    self.name = name
    self.settings = settings
  }
}

/// A job, or the manifest line that could not be made one (it fails alone).
public enum BatchEntry: Sendable {
  case job(BatchJob)
  case invalid(id: String, line: Int, output: String?, error: GlassError)

  /// The entry once per variant (`BatchJob.variants(_:)`); a line that failed stays one failure.
  public func variants(_ variants: [EnvironmentVariant]) -> [BatchEntry] {
    switch self {
    case .job(let job): job.variants(variants).map { .job($0) }
    case .invalid: [self]
    }
  }
}

/// Which 1/N of the jobs a process renders: job k (0-based) when k mod `count` is `index`.
public struct BatchShard: Sendable, Equatable {
  /// From 0 to `count` − 1.
  public var index: Int
  /// How many shards cover the jobs.
  public var count: Int

  /// Throws `invalidParameter` unless 0 ≤ index < count.
  public init(index: Int, count: Int) throws {
    guard count >= 1, (0..<count).contains(index) else {
      throw GlassError(
        .invalidParameter,
        "shard \(index)/\(count) does not exist; give I/N with N at least 1 and I from 0 to N-1 "
          + "(\(Self.example(count: count)))")
    }
    self.index = index
    self.count = count
  }

  /// Reads `I/N`.
  public init(parsing text: String) throws {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let count = parts.count == 2 ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
    guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)), let count else {
      throw GlassError(
        .invalidParameter,
        "shard \"\(text)\" is not I/N (two whole numbers); write it as \(Self.example(count: count ?? 3))")
    }
    try self.init(index: index, count: count)
  }

  /// The shards of `count` as examples: `0/1`; `0/2, 1/2`; `0/3, 1/3, 2/3`;
  /// `0/8, 1/8, ..., 7/8`. A count under 1 gives the three shards of 3.
  static func example(count: Int) -> String {
    let n = count >= 1 ? count : 3
    if n <= 3 { return (0..<n).map { "\($0)/\(n)" }.joined(separator: ", ") }
    return "0/\(n), 1/\(n), ..., \(n - 1)/\(n)"
  }

  /// How many of the first `total` jobs are this shard's (no overflow, whatever
  /// the count).
  public func jobs(of total: Int) -> Int {
    total > index ? (total - index - 1) / count + 1 : 0
  }

  /// True when job `ordinal` (0-based, in job order) is this shard's.
  public func contains(_ ordinal: Int) -> Bool { ordinal % count == index }
}

/// A JSON Lines manifest: one job per line (docs/batch-format.md). Reading is
/// lazy, line by line, with memory bounded by the longest line allowed
/// (`maximumLineBytes`), so a manifest on standard input or from a pipe is read
/// once and rendered as it arrives.
///
/// A line that cannot be text ends the manifest: a line longer than
/// `maximumLineBytes`, a NUL byte (a binary file, `/dev/zero`, `/dev/urandom`), or a
/// read error fails as an entry with code `file-unreadable` naming the line, and
/// nothing after it is read. A line that is not UTF-8 fails alone.
public struct BatchManifest: Sequence, Sendable {
  /// The manifest's name in errors (`jobs.jsonl`, or `standard input`).
  public let name: String
  /// The folder scene paths and inline scenes' images are relative to.
  public let directory: String
  /// The folder outputs are relative to.
  public let outputDirectory: String
  private let lines: @Sendable () -> AnyIterator<ManifestLine>

  /// The longest manifest line read, in bytes: a scene file's limit
  /// (`SceneFile.maximumBytes`), since a line may hold a scene inline.
  public static let maximumLineBytes = SceneFile.maximumBytes

  /// The manifest file at `path` (a regular file, a FIFO, `/dev/stdin`: anything
  /// that reads). Paths in it are relative to its folder, or, for anything but a
  /// regular file (a pipe, `<(generate)`), to the current folder, as on standard
  /// input. Throws when it cannot be opened.
  public init(path: String, outputDirectory: String) throws {
    if let problem = FilePaths.problem(with: path) { throw GlassError(.fileUnreadable, problem) }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw GlassError(
        .fileUnreadable, "cannot read the manifest \(path): \(String(cString: strerror(errno))); check the path")
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw GlassError(.fileUnreadable, "the manifest \(path) is a folder; name a .jsonl file")
    }
    var file: Int32
    repeat {
      file = open(path, O_RDONLY | O_CLOEXEC)
    } while file < 0 && errno == EINTR && PNGCodec.OutputFile.stopSignal == nil
    guard file >= 0 else {
      throw GlassError(
        .fileUnreadable, "cannot read the manifest \(path): \(String(cString: strerror(errno))); check its permissions")
    }
    let reader = LineReader(descriptor: file, closes: true, limit: Self.maximumLineBytes)
    let regular = info.st_mode & S_IFMT == S_IFREG
    self.init(
      name: path, directory: regular ? FilePaths.folder(of: path) : "",
      outputDirectory: outputDirectory,
      lines: { AnyIterator { reader.next() } })
  }

  /// The manifest read from standard input as it arrives; paths relative to the
  /// current folder. Throws when standard input is closed.
  public static func standardInput(outputDirectory: String) throws -> BatchManifest {
    guard fcntl(STDIN_FILENO, F_GETFD) != -1 else {
      throw GlassError(
        .fileUnreadable, "standard input is closed; pipe the manifest in, or read it from a file",
        hint: .manifestFile)
    }
    let reader = LineReader(descriptor: STDIN_FILENO, closes: false, limit: maximumLineBytes)
    return BatchManifest(
      name: "standard input", directory: "", outputDirectory: outputDirectory,
      lines: { AnyIterator { reader.next() } })
  }

  /// A manifest held in memory (`text` is the JSON Lines).
  public init(text: String, name: String = "manifest", directory: String, outputDirectory: String) {
    // Split as a file is read: at each line feed byte ("\r\n" is one Character).
    let all = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    self.init(
      name: name, directory: directory, outputDirectory: outputDirectory,
      lines: {
        var iterator = all.makeIterator()
        return AnyIterator {
          iterator.next().map { $0.count > BatchManifest.maximumLineBytes ? .tooLong : .text($0) }
        }
      })
  }

  private init(
    name: String, directory: String, outputDirectory: String, lines: @escaping @Sendable () -> AnyIterator<ManifestLine>
  ) {
    self.name = name
    self.directory = directory
    self.outputDirectory = outputDirectory
    self.lines = lines
  }

  /// The entries, one per line that is not blank, up to the end or to a line
  /// that ends the manifest.
  public func makeIterator() -> AnyIterator<BatchEntry> {
    let lines = self.lines()
    var number = 0
    var ended = false
    return AnyIterator {
      while !ended, let line = lines.next() {
        number += 1
        let place = GlassError.Location(file: self.name, line: number)
        func end(_ message: String, cause: String? = nil) -> BatchEntry {
          ended = true
          return .invalid(
            id: String(number), line: number, output: nil,
            error: GlassError(
              .fileUnreadable, message + "; the rest of the manifest is not read", cause: cause, at: place))
        }
        switch line {
        case .text(let bytes):
          if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
          if bytes.contains(0) {
            return end(
              "the line holds a NUL byte: a manifest is UTF-8 text, one JSON object a line, and this file is not")
          }
          guard String(validating: bytes, as: UTF8.self) != nil else {
            return .invalid(
              id: String(number), line: number, output: nil,
              error: GlassError(.invalidScene, "the line is not UTF-8 text; save the manifest as UTF-8", at: place))
          }
          return self.entry(bytes, number: number)
        case .tooLong:
          return end(
            "the line is longer than \(Self.maximumLineBytes >> 20) MiB, the limit of a line; put a large scene in a "
              + "file and name it")
        case .failed(let reason):
          return end("cannot read the manifest", cause: reason)
        }
      }
      return nil
    }
  }

  /// Reads one line as a job.
  func entry(_ line: [UInt8], number: Int) -> BatchEntry {
    let place = GlassError.Location(file: name, line: number)
    var id = String(number)
    var output: String?
    do {
      let value: JSONValue
      do {
        value = try JSONValue.parse(line)
      } catch {
        throw GlassError(
          .invalidScene, "\(error.message); each line must be one JSON object",
          at: GlassError.Location(column: error.column))
      }
      // The id first, so that a line failing for another field is named by it.
      if case .object(let members) = value, let given = members.first(where: { $0.key == "id" })?.value {
        switch given {
        case .string(let text): id = text
        case .number(let n) where n == n.rounded() && abs(n) < 1e15: id = String(Int(n))
        default: break
        }
      }
      let o = try JSONNode(value: value, path: "", root: "the line").object([
        "scene", "output", "id", "scale", "depth", "environment",
      ])
      if let node = o["id"] {
        switch node.value {
        case .string(let text): id = text
        case .number(let n) where n == n.rounded() && abs(n) < 1e15: id = String(Int(n))
        default: throw node.fail("expected a string or an integer, found \(node.value.kind)")
        }
      }
      let outputNode = try o.required("output")
      let outputPath = try outputNode.string()
      if let problem = FilePaths.problem(with: outputPath) { throw outputNode.fail(problem) }
      // Only an image: a job must not write over a scene file or a manifest.
      guard let format = ImageEncoding.Format(pathExtension: outputPath),
        outputPath.lowercased().hasSuffix(".png")
          || format != .png
      else {
        throw outputNode.fail(
          "\"\(JSONNode.shortened(outputPath))\" does not end in .png, .jpg, .jpeg or .webp; name an image file")
      }
      output = Self.resolve(outputPath, in: outputDirectory)
      var scale: Int?
      if let node = o["scale"] {
        let v = try node.number()
        guard [1.0, 2, 3].contains(v) else { throw node.fail("\(ParameterSpec.format(v)) is not 1, 2 or 3") }
        scale = Int(v)
      }
      var depth: RGBAImage.Depth?
      if let node = o["depth"] {
        let v = try node.number()
        guard v == 8 || v == 16 else { throw node.fail("\(ParameterSpec.format(v)) is not 8 or 16") }
        depth = v == 16 ? .sixteen : .eight
      }
      var environment: EnvironmentVariant?
      if let node = o["environment"] {
        do {
          environment = try EnvironmentVariant(try node.string())
        } catch let error as GlassError where error.jsonPath == nil {
          throw node.fail(error.message)
        }
      }
      let sceneNode = try o.required("scene")
      let scene: BatchJob.SceneSource
      switch sceneNode.value {
      case .string(let path):
        guard !path.isEmpty else { throw sceneNode.fail("the scene path is empty; name a scene file") }
        if let problem = FilePaths.problem(with: path) { throw sceneNode.fail(problem) }
        scene = .file(Self.resolve(path, in: directory))
      case .object:
        let inline = try Scene(node: sceneNode)
        do {
          try inline.validate()
        } catch let error as GlassError {
          // The scene's checks name paths from its root: put them under "scene".
          throw error.located(GlassError.Location(jsonPath: "scene"))
        }
        scene = .scene(inline, directory: directory)
      default:
        throw sceneNode.fail("expected a scene file's path or a scene object, found \(sceneNode.value.kind)")
      }
      var job = BatchJob(id: id, scene: scene, output: output ?? "", scale: scale, depth: depth, line: number)
      job.environment = environment
      job.origin = place
      return .job(job)
    } catch let error as GlassError {
      return .invalid(
        id: id, line: number, output: output,
        error: error.located(place))
    } catch {
      return .invalid(id: id, line: number, output: output, error: GlassError(.invalidScene, "\(error)", at: place))
    }
  }

  /// `path` as given when absolute (or when `folder` is empty), else under `folder`.
  static func resolve(_ path: String, in folder: String) -> String {
    path.hasPrefix("/") || folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
  }

  /// How many jobs the manifest at `path` holds (its lines that are not blank),
  /// for progress: only for a regular file (a pipe is read once, as it streams);
  /// nil for anything else, when it cannot be read, or when a stop was requested
  /// while counting. Memory stays bounded whatever the lines' lengths.
  public static func countJobs(path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var count = 0
    var lineHasText = false
    while true {
      let read = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
      if read < 0 && errno == EINTR && PNGCodec.OutputFile.stopSignal == nil { continue }
      if read < 0 || PNGCodec.OutputFile.stopSignal != nil { return nil }
      if read == 0 { break }
      for byte in buffer[0..<read] {
        switch byte {
        case 0x0A:
          if lineHasText { count += 1 }
          lineHasText = false
        case 0x20, 0x09, 0x0D: break
        default: lineHasText = true
        }
      }
    }
    return count + (lineHasText ? 1 : 0)
  }
}

/// One line of a manifest as read: its bytes, or why there are none.
enum ManifestLine: Sendable {
  /// The line, without its line feed.
  case text([UInt8])
  /// Longer than the limit; reading stops.
  case tooLong
  /// A read error (its `strerror`); reading stops.
  case failed(String)
}

/// Lines of a file descriptor, without their line feed, read as they arrive, in
/// memory of at most `limit` bytes a line: a longer line is reported as soon as it
/// passes the limit, and reading stops. A stop request (SIGINT or SIGTERM while
/// stops are deferred) ends the lines.
final class LineReader: @unchecked Sendable {
  private let descriptor: Int32
  private let closes: Bool
  private let limit: Int
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var start = 0
  private var end = 0
  private var done = false

  init(descriptor: Int32, closes: Bool, limit: Int) {
    self.descriptor = descriptor
    self.closes = closes
    self.limit = limit
  }

  func next() -> ManifestLine? {
    guard !done else { return nil }
    var line: [UInt8] = []
    while true {
      if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
        guard line.count + (newline - start) <= limit else { return finish(.tooLong) }
        line += buffer[start..<newline]
        start = newline + 1
        return .text(line)
      }
      guard line.count + (end - start) <= limit else { return finish(.tooLong) }
      line += buffer[start..<end]
      start = 0
      end = 0
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR {
        if PNGCodec.OutputFile.stopSignal != nil { return finish(nil) }
        continue
      }
      if count < 0 { return finish(.failed(String(cString: strerror(errno)))) }
      if count == 0 {
        // The last line may have no line feed.
        return finish(line.isEmpty ? nil : .text(line))
      }
      end = count
    }
  }

  /// Ends the reading (closing the file when it is ours) and returns `last`.
  private func finish(_ last: ManifestLine?) -> ManifestLine? {
    done = true
    if closes { close(descriptor) }
    return last
  }

  deinit {
    if !done && closes { close(descriptor) }
  }
}
