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
  /// file renders to its name with .png in `outputDirectory`; a folder's *.json
  /// files (found recursively, in byte order of their paths) render to the same
  /// relative paths under `outputDirectory`.
  public static func jobs(forInput input: String, outputDirectory: String) throws -> [BatchJob] {
    var info = stat()
    guard stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
      return [
        BatchJob(
          id: input, scene: .file(input), output: (outputDirectory as NSString).appendingPathComponent(name + ".png"))
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
      let png = (relative as NSString).deletingPathExtension + ".png"
      return BatchJob(id: path, scene: .file(path), output: (outputDirectory as NSString).appendingPathComponent(png))
    }
  }
}

/// A job, or the manifest line that could not be made one (it fails alone).
public enum BatchEntry: Sendable {
  case job(BatchJob)
  case invalid(id: String, line: Int, output: String?, error: GlassError)
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
        "shard \(index)/\(count) does not exist; give I/N with N at least 1 and I from 0 to N-1 (0/3, 1/3, 2/3)")
    }
    self.index = index
    self.count = count
  }

  /// Reads `I/N`.
  public init(parsing text: String) throws {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
      throw GlassError(.invalidParameter, "shard \"\(text)\" is not I/N; write it as 0/3, 1/3 or 2/3")
    }
    try self.init(index: index, count: count)
  }

  /// True when job `ordinal` (0-based, in job order) is this shard's.
  public func contains(_ ordinal: Int) -> Bool { ordinal % count == index }
}

/// A JSON Lines manifest: one job per line (docs/batch-format.md). Reading is
/// lazy, line by line, so a manifest on standard input is rendered as it arrives.
public struct BatchManifest: Sequence, Sendable {
  /// The manifest's name in errors (`jobs.jsonl`, or `standard input`).
  public let name: String
  /// The folder scene paths and inline scenes' images are relative to.
  public let directory: String
  /// The folder outputs are relative to.
  public let outputDirectory: String
  private let lines: @Sendable () -> AnyIterator<[UInt8]>

  /// The manifest file at `path`. Throws when it cannot be opened.
  public init(path: String, outputDirectory: String) throws {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw GlassError(
        .fileUnreadable, "cannot read the manifest \(path): \(String(cString: strerror(errno))); check the path")
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw GlassError(.fileUnreadable, "the manifest \(path) is a folder; name a .jsonl file")
    }
    guard let file = fopen(path, "r") else {
      throw GlassError(
        .fileUnreadable, "cannot read the manifest \(path): \(String(cString: strerror(errno))); check its permissions")
    }
    let handle = LineReader(file: file, closes: true)
    self.init(
      name: path, directory: (path as NSString).deletingLastPathComponent, outputDirectory: outputDirectory,
      lines: { AnyIterator { handle.next() } })
  }

  /// The manifest read from standard input as it arrives; paths relative to the current folder.
  public static func standardInput(outputDirectory: String) -> BatchManifest {
    let handle = LineReader(file: fdopen(STDIN_FILENO, "r"), closes: false)
    return BatchManifest(
      name: "standard input", directory: "", outputDirectory: outputDirectory,
      lines: { AnyIterator { handle.next() } })
  }

  /// A manifest held in memory (`text` is the JSON Lines).
  public init(text: String, name: String = "manifest", directory: String, outputDirectory: String) {
    // Split as a file is read: at each line feed byte ("\r\n" is one Character).
    let all = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    self.init(
      name: name, directory: directory, outputDirectory: outputDirectory,
      lines: {
        var iterator = all.makeIterator()
        return AnyIterator { iterator.next() }
      })
  }

  private init(
    name: String, directory: String, outputDirectory: String, lines: @escaping @Sendable () -> AnyIterator<[UInt8]>
  ) {
    self.name = name
    self.directory = directory
    self.outputDirectory = outputDirectory
    self.lines = lines
  }

  /// The entries, one per line that is not blank.
  public func makeIterator() -> AnyIterator<BatchEntry> {
    let lines = self.lines()
    var number = 0
    return AnyIterator {
      while let line = lines.next() {
        number += 1
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
        return self.entry(line, number: number)
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
      let o = try JSONNode(value: value, path: "", root: "the line").object(["scene", "output", "id", "scale", "depth"])
      if let node = o["id"] {
        switch node.value {
        case .string(let text): id = text
        case .number(let n) where n == n.rounded() && abs(n) < 1e15: id = String(Int(n))
        default: throw node.fail("expected a string or an integer, found \(node.value.kind)")
        }
      }
      let outputNode = try o.required("output")
      let outputPath = try outputNode.string()
      // Only a .png: a job must not write over a scene file or a manifest.
      guard outputPath.lowercased().hasSuffix(".png") else {
        throw outputNode.fail("\"\(JSONNode.shortened(outputPath))\" does not end in .png; name a .png file")
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
      let sceneNode = try o.required("scene")
      let scene: BatchJob.SceneSource
      switch sceneNode.value {
      case .string(let path):
        guard !path.isEmpty else { throw sceneNode.fail("the scene path is empty; name a scene file") }
        scene = .file(Self.resolve(path, in: directory))
      case .object:
        let inline = try Scene(node: sceneNode, directory: directory)
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

  /// How many jobs the manifest file at `path` holds (its lines that are not
  /// blank), for progress; nil when it cannot be read.
  public static func countJobs(path: String) -> Int? {
    guard let file = fopen(path, "r") else { return nil }
    let reader = LineReader(file: file, closes: true)
    var count = 0
    while let line = reader.next() {
      if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { count += 1 }
    }
    return count
  }
}

/// Lines of a C stream, without their line feed, read as they arrive.
final class LineReader: @unchecked Sendable {
  private let file: UnsafeMutablePointer<FILE>
  private let closes: Bool
  private var done = false

  init(file: UnsafeMutablePointer<FILE>, closes: Bool) {
    self.file = file
    self.closes = closes
  }

  func next() -> [UInt8]? {
    guard !done else { return nil }
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    let length = getline(&buffer, &capacity, file)
    guard length >= 0, let buffer else {
      done = true
      if closes { fclose(file) }
      return nil
    }
    var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
    if bytes.last == 0x0A { bytes.removeLast() }
    return bytes
  }

  deinit {
    if !done && closes { fclose(file) }
  }
}
