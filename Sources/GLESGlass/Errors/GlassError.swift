/// The one error type of GLESGlass: a code, a message that says what failed and how
/// to fix it, the underlying cause (an EGL error name, a shader info log, a
/// libpng message) when there is one, and the fix as a value (`Hint`) when a front
/// end has its own control for it.
///
/// The library never names a command-line flag: its message says the fix in the
/// API's terms or neutrally ("raise the pixel limit"), and `hint` says which
/// setting that is, so that a command line can name its flag for it.
public struct GlassError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is; stable across releases, usable in scripts.
  public enum Code: String, Sendable, CaseIterable {
    /// A file could not be found or read.
    case fileUnreadable = "file-unreadable"
    /// A file is not a PNG, or its PNG data is damaged.
    case invalidImage = "invalid-image"
    /// An image or canvas is larger than the pixel limit or the GPU allows.
    case imageTooLarge = "image-too-large"
    /// A parameter is out of range or not a number.
    case invalidParameter = "invalid-parameter"
    /// A scene file is not valid JSON, or a field is unknown, of the wrong type or out of range.
    case invalidScene = "invalid-scene"
    /// No EGL display or OpenGL ES 3 context could be created.
    case gpuUnavailable = "gpu-unavailable"
    /// A shader failed to compile or link, or its uniforms do not match Swift's.
    case shaderFailure = "shader-failure"
    /// The GL driver reported an error while rendering.
    case renderFailure = "render-failure"
    /// The output file could not be written.
    case outputFailure = "output-failure"
    /// Two images differ by more than the allowed limit.
    case imagesDiffer = "images-differ"
  }

  /// A fix the message suggests, as a value: the setting of the API it changes.
  /// A front end names its own control for it (the command line, its flag).
  public enum Hint: Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Raise the pixel limit (`maxPixels`) to at least `needed` pixels.
    case raiseMaxPixels(needed: Int)
    /// Render on the CPU backend (`BackendChoice.cpu`): it needs no GPU and has
    /// no texture size limit.
    case useCPUBackend
    /// Record references in this mode (`GoldenCheckOptions.record`).
    case record(GoldenRecordMode)
    /// Lower the blur's standard deviation
    /// (`BackgroundExtensionEffect.Parameters.sigmaPixels`).
    case lowerSigma
    /// Lower the animation's frame rate or hold (`AnimationRenderer.Options.fps`,
    /// `holdSeconds`).
    case lowerFrameRateOrHold
    /// Render 8 bits per channel (`RGBAImage.Depth.eight`), or write a PNG.
    case eightBitDepth
    /// Name a folder for the failures' images (`GoldenCheckOptions.artifacts`).
    case artifactsFolder
    /// Read the manifest from a file (`BatchManifest(path:outputDirectory:)`), or
    /// pipe it into standard input.
    case manifestFile

    /// One of each kind (`raiseMaxPixels` with 1 pixel, `record` in every mode).
    public static var allCases: [Hint] {
      [.raiseMaxPixels(needed: 1), .useCPUBackend] + GoldenRecordMode.allCases.map { .record($0) }
        + [.lowerSigma, .lowerFrameRateOrHold, .eightBitDepth, .artifactsFolder, .manifestFile]
    }

    /// The setting, in the API's terms: `maxPixels ≥ 40000`, `BackendChoice.cpu`.
    public var description: String {
      switch self {
      case .raiseMaxPixels(let needed): "maxPixels \u{2265} \(needed)"
      case .useCPUBackend: "BackendChoice.cpu"
      case .record(let mode): "GoldenRecordMode.\(mode.rawValue)"
      case .lowerSigma: "BackgroundExtensionEffect.Parameters.sigmaPixels"
      case .lowerFrameRateOrHold: "AnimationRenderer.Options.fps, holdSeconds"
      case .eightBitDepth: "RGBAImage.Depth.eight"
      case .artifactsFolder: "GoldenCheckOptions.artifacts"
      case .manifestFile: "BatchManifest(path:outputDirectory:)"
      }
    }
  }

  /// Where in a file an error is: the file, a line (and column) in it, a JSON
  /// path in it. Any part may be missing.
  public struct Location: Sendable, Equatable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var file: String?
    /// A line of the file, from 1: a manifest's job, a JSON syntax error.
    public var line: Int?
    /// A column of that line, from 1.
    public var column: Int?
    /// The field, as `layers[2].glass[0].frame`.
    public var jsonPath: String?

    /// A location; nil parts are unknown.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, jsonPath: String? = nil) {
      self.file = file
      self.line = line
      self.column = column
      self.jsonPath = jsonPath
    }

    /// `file:line:column: json.path`, with the parts it has.
    public var description: String {
      var text = file ?? ""
      if let line { text += text.isEmpty ? "line \(line)" : ":\(line)" }
      if let column { text += ":\(column)" }
      if let jsonPath { text += text.isEmpty ? jsonPath : ": \(jsonPath)" }
      return text
    }
  }

  /// What kind of failure this is.
  public let code: Code
  /// One sentence for a person: what failed, and how to fix it (where is in
  /// `locations`).
  public let message: String
  /// The lower-level reason, verbatim, when there is one.
  public let cause: String?
  /// The fix the message suggests, as a value, when a front end may name its own
  /// control for it (the message says it in the API's terms or neutrally).
  public var hint: Hint?
  /// Where the error is, outermost first: the manifest line of a batch job, the
  /// scene file and the field in it, the image file that field names. Empty when
  /// the error is about no file.
  public private(set) var locations: [Location]

  /// Makes an error with a message, an optional cause, where it is, and the fix
  /// its message suggests as a value.
  public init(
    _ code: Code, _ message: String, cause: String? = nil, at location: Location? = nil, hint: Hint? = nil
  ) {
    self.code = code
    self.message = message
    self.cause = cause
    self.locations = location.map { [$0] } ?? []
    self.hint = hint
  }

  /// Makes an error about a file: `path: message`.
  public init(_ code: Code, _ message: String, cause: String? = nil, file path: String, hint: Hint? = nil) {
    self.init(code, message, cause: cause, at: Location(file: path), hint: hint)
  }

  /// The innermost file the error is in (the scene, the image, the manifest).
  public var file: String? { locations.last { $0.file != nil }?.file }
  /// The field the error is about, in the innermost file that has one.
  public var jsonPath: String? { locations.last { $0.jsonPath != nil }?.jsonPath }

  /// The same error inside `outer`: a file around a JSON path, a line around a
  /// scene, a JSON path around a nested one (`scene` + `layers[0]` is
  /// `scene.layers[0]`). An `outer` the error already starts with adds nothing.
  public func located(_ outer: Location) -> GlassError {
    var error = self
    guard var first = locations.first else {
      error.locations = [outer]
      return error
    }
    // An outer location the first one already says adds nothing.
    if outer.file == first.file && (outer.line == nil || outer.line == first.line)
      && (outer.column == nil || outer.column == first.column)
      && (outer.jsonPath == nil || first.jsonPath.map { Self.path($0, isWithin: outer.jsonPath ?? "") } == true)
    {
      return error
    }
    if first.file == nil, outer.line == nil || first.line == nil {
      // A location without a file is inside the outer one: merge them.
      first.file = outer.file
      if first.line == nil { first.line = outer.line }
      if first.column == nil { first.column = outer.column }
      switch (outer.jsonPath, first.jsonPath) {
      case (let head?, let tail?): first.jsonPath = tail.hasPrefix("[") ? head + tail : head + "." + tail
      case (let head?, nil): first.jsonPath = head
      default: break
      }
      error.locations[0] = first
    } else {
      error.locations.insert(outer, at: 0)
    }
    return error
  }

  /// True when the JSON path `path` is `outer` or a field or element within it.
  static func path(_ path: String, isWithin outer: String) -> Bool {
    guard path.hasPrefix(outer) else { return false }
    let rest = path.dropFirst(outer.count)
    return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
  }

  /// The same error inside `file` (with a JSON path in it).
  public func located(file: String, line: Int? = nil, jsonPath: String? = nil) -> GlassError {
    located(Location(file: file, line: line, jsonPath: jsonPath))
  }

  /// The same error with another message, in the same place, with the same hint.
  public func rephrased(_ message: String) -> GlassError {
    var error = GlassError(code, message, cause: cause, hint: hint)
    error.locations = locations
    return error
  }

  /// Where, the message, and the cause when there is one:
  /// `jobs.jsonl:7: a.json: layers[0].frame: the width is negative; ...`.
  public var description: String {
    let head = locations.map(\.description).filter { !$0.isEmpty }.joined(separator: ": ")
    let text = head.isEmpty ? message : "\(head): \(message)"
    guard let cause, !cause.isEmpty else { return text }
    return "\(text) (\(cause))"
  }
}
