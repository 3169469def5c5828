import CEGL

/// `GLenum` of a GL constant, which imports as `Int32`.
@inline(__always) func glEnum(_ value: Int32) -> GLenum { GLenum(value) }

/// A GL texture with its framebuffer; made, used and deleted on the GL thread only.
final class GLTexture {
  /// The texture name.
  let name: GLuint
  /// Size and format.
  let descriptor: ImageDescriptor
  /// A framebuffer with the texture as colour attachment 0, made on first use as a target.
  var framebuffer: GLuint = 0

  init(name: GLuint, descriptor: ImageDescriptor) {
    self.name = name
    self.descriptor = descriptor
  }
}

/// A pixel pack buffer and the bytes it holds.
struct GLPackBuffer {
  let name: GLuint
  let capacity: Int
}

/// A readback into a pack buffer behind a fence; made, waited for and let go
/// on the GL thread only.
final class GLReadback {
  let buffer: GLPackBuffer
  /// Bytes the reads fill, from the buffer's start.
  let bytes: Int
  /// The rects read, one after another, each row after row without padding.
  let rects: [PixelRect]
  let depth: RGBAImage.Depth
  var fence: GLsync?
  /// True once the buffer went back to the idle ones.
  var released = false

  init(buffer: GLPackBuffer, bytes: Int, rects: [PixelRect], depth: RGBAImage.Depth) {
    self.buffer = buffer
    self.bytes = bytes
    self.rects = rects
    self.depth = depth
  }
}

/// GL's internal format, pixel format and type of an image format.
struct GLFormat {
  let internalFormat: GLenum
  let format: GLenum
  let type: GLenum
  /// Integer formats cannot be filtered.
  let isInteger: Bool

  init(_ format: ImageFormat) {
    switch format {
    case .linearHalf:
      self.internalFormat = glEnum(GL_RGBA16F)
      self.format = glEnum(GL_RGBA)
      self.type = glEnum(GL_HALF_FLOAT)
      self.isInteger = false
    case .srgb8:
      self.internalFormat = glEnum(GL_RGBA8)
      self.format = glEnum(GL_RGBA)
      self.type = glEnum(GL_UNSIGNED_BYTE)
      self.isInteger = false
    case .srgb16:
      self.internalFormat = glEnum(GL_RGBA16UI)
      self.format = glEnum(GL_RGBA_INTEGER)
      self.type = glEnum(GL_UNSIGNED_SHORT)
      self.isInteger = true
    }
  }
}

/// The name of a GL error code, such as `GL_INVALID_OPERATION`.
func glErrorName(_ code: GLenum) -> String {
  switch Int32(code) {
  case GL_NO_ERROR: "GL_NO_ERROR"
  case GL_INVALID_ENUM: "GL_INVALID_ENUM"
  case GL_INVALID_VALUE: "GL_INVALID_VALUE"
  case GL_INVALID_OPERATION: "GL_INVALID_OPERATION"
  case GL_INVALID_FRAMEBUFFER_OPERATION: "GL_INVALID_FRAMEBUFFER_OPERATION"
  case GL_OUT_OF_MEMORY: "GL_OUT_OF_MEMORY"
  default: "GL error 0x" + String(code, radix: 16)
  }
}

/// Throws `renderFailure` naming `what` when GL has recorded an error.
func checkGLError(_ what: String) throws {
  let code = glGetError()
  guard code != GLenum(GL_NO_ERROR) else { return }
  while glGetError() != GLenum(GL_NO_ERROR) {}
  throw GlassError(.renderFailure, "the GL driver failed while \(what)", cause: glErrorName(code))
}

/// A GL string such as GL_RENDERER, or "" when unavailable.
func glString(_ name: Int32) -> String {
  guard let pointer = glGetString(glEnum(name)) else { return "" }
  return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
}
