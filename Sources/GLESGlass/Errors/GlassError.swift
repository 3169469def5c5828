/// The one error type of GLESGlass: a code, a message that says what failed and how
/// to fix it, and the underlying cause (an EGL error name, a shader info log, a
/// libpng message) when there is one.
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

  /// What kind of failure this is.
  public let code: Code
  /// One sentence for a person: what failed, and how to fix it.
  public let message: String
  /// The lower-level reason, verbatim, when there is one.
  public let cause: String?

  /// Makes an error with a message and an optional cause.
  public init(_ code: Code, _ message: String, cause: String? = nil) {
    self.code = code
    self.message = message
    self.cause = cause
  }

  /// The message, followed by the cause when there is one.
  public var description: String {
    guard let cause, !cause.isEmpty else { return message }
    return "\(message) (\(cause))"
  }
}
