import CEGL
import Shaders

/// A uniform value with its GLSL type.
enum UniformValue {
  case float(Float)
  case vec2(Float, Float)
  case vec4(SIMD4<Float>)
  case vec4Array([SIMD4<Float>])
  case int(Int32)
  case ivec2(Int32, Int32)
  case floatArray([Float])
  case sampler(unit: Int32, integer: Bool)

  /// The GL type `glGetActiveUniform` reports for it.
  var glType: GLenum {
    switch self {
    case .float, .floatArray: glEnum(GL_FLOAT)
    case .vec2: glEnum(GL_FLOAT_VEC2)
    case .vec4, .vec4Array: glEnum(GL_FLOAT_VEC4)
    case .int: glEnum(GL_INT)
    case .ivec2: glEnum(GL_INT_VEC2)
    case .sampler(_, let integer): integer ? glEnum(GL_UNSIGNED_INT_SAMPLER_2D) : glEnum(GL_SAMPLER_2D)
    }
  }

  /// Array length (1 for a single value).
  var count: Int {
    switch self {
    case .floatArray(let values): values.count
    case .vec4Array(let values): values.count
    default: 1
    }
  }
}

/// Collects what a uniform struct sets.
struct UniformEncoder {
  private(set) var entries: [(name: String, value: UniformValue)] = []

  mutating func set(_ name: String, _ value: UniformValue) {
    entries.append((name, value))
  }
}

/// The Swift side of a primitive's uniforms: one struct per primitive lists them
/// all. The GLES backend checks the linked program's active uniforms against this
/// list, so a renamed or retyped uniform fails loudly rather than silently.
protocol ShaderUniforms {
  /// The uniforms, by their GLSL names.
  func encode(into encoder: inout UniformEncoder)
}

/// Which program: a primitive's GLSL file compiled with a set of #defines.
struct ProgramKey: Hashable, CustomStringConvertible {
  /// The primitive's GLSL file name without extension.
  let primitive: String
  /// The variant's #defines.
  let defines: [String]

  var description: String {
    defines.isEmpty ? primitive : "\(primitive) [\(defines.joined(separator: " "))]"
  }

  /// The fragment source: version, defines, common.glsl, the primitive.
  var fragmentSource: String {
    let body: String =
      switch primitive {
      case "mirror_extend": ShaderSource.mirrorExtend
      case "downsample": ShaderSource.downsample
      case "convolve": ShaderSource.convolve
      case "upsample": ShaderSource.upsample
      case "fill": ShaderSource.fill
      case "draw_image": ShaderSource.drawImage
      case "glass": ShaderSource.glass
      case "copy": ShaderSource.copy
      default: preconditionFailure("no GLSL file for primitive \(primitive)")
      }
    var source = "#version 300 es\n"
    for define in defines + ["MAX_RADIUS \(BlurPlan.maximumRadius)", "MAX_STOPS \(Paint.maximumStops)"] {
      source += "#define \(define)\n"
    }
    source += "#line 1 1\n" + ShaderSource.common + "\n#line 1 2\n" + body
    return source
  }

  /// The vertex source shared by every primitive.
  static var vertexSource: String { "#version 300 es\n" + ShaderSource.fullscreenVertex }
}

/// A linked program and its uniform locations. GL thread only.
final class GLProgram {
  let name: GLuint
  let key: ProgramKey
  private var locations: [String: GLint] = [:]
  private var checked = false

  /// Compiles and links; errors carry the info log.
  init(key: ProgramKey) throws {
    let vertex = try Self.compile(glEnum(GL_VERTEX_SHADER), ProgramKey.vertexSource, key: key)
    defer { glDeleteShader(vertex) }
    let fragment = try Self.compile(glEnum(GL_FRAGMENT_SHADER), key.fragmentSource, key: key)
    defer { glDeleteShader(fragment) }
    let program = glCreateProgram()
    glAttachShader(program, vertex)
    glAttachShader(program, fragment)
    glLinkProgram(program)
    var linked: GLint = 0
    glGetProgramiv(program, glEnum(GL_LINK_STATUS), &linked)
    guard linked == GL_TRUE else {
      let log = Self.infoLog(program, glGetProgramiv, glGetProgramInfoLog)
      glDeleteProgram(program)
      throw GlassError(.shaderFailure, "the \(key) shader program failed to link", cause: log)
    }
    self.name = program
    self.key = key
  }

  private static func compile(_ type: GLenum, _ source: String, key: ProgramKey) throws -> GLuint {
    let shader = glCreateShader(type)
    source.withCString { text in
      var pointer: UnsafePointer<GLchar>? = text
      glShaderSource(shader, 1, &pointer, nil)
    }
    glCompileShader(shader)
    var compiled: GLint = 0
    glGetShaderiv(shader, glEnum(GL_COMPILE_STATUS), &compiled)
    guard compiled == GL_TRUE else {
      let log = infoLog(shader, glGetShaderiv, glGetShaderInfoLog)
      glDeleteShader(shader)
      let stage = type == glEnum(GL_VERTEX_SHADER) ? "vertex" : "fragment"
      throw GlassError(.shaderFailure, "the \(stage) shader of \(key) failed to compile", cause: log)
    }
    return shader
  }

  private static func infoLog(
    _ object: GLuint,
    _ get: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
    _ read: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
  ) -> String {
    var length: GLint = 0
    get(object, glEnum(GL_INFO_LOG_LENGTH), &length)
    var buffer = [GLchar](repeating: 0, count: Int(max(length, 1)))
    read(object, GLsizei(buffer.count), nil, &buffer)
    return String(cBuffer: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Deletes the GL program. GL thread only; the object is unusable after.
  func delete() {
    glDeleteProgram(name)
  }

  /// The active uniforms: name (without `[0]`), type, array size.
  func activeUniforms() -> [String: (type: GLenum, size: Int)] {
    var count: GLint = 0
    glGetProgramiv(name, glEnum(GL_ACTIVE_UNIFORMS), &count)
    var result: [String: (GLenum, Int)] = [:]
    var buffer = [GLchar](repeating: 0, count: 256)
    for index in 0..<GLuint(max(count, 0)) {
      var length: GLsizei = 0
      var size: GLint = 0
      var type: GLenum = 0
      glGetActiveUniform(name, index, GLsizei(buffer.count), &length, &size, &type, &buffer)
      var uniform = String(cBuffer: buffer)
      if uniform.hasSuffix("[0]") { uniform.removeLast(3) }
      result[uniform] = (type, Int(size))
    }
    return result
  }

  /// Sets every uniform of `uniforms`; the first time, checks them against the
  /// program's active uniforms.
  func apply(_ uniforms: some ShaderUniforms) throws {
    var encoder = UniformEncoder()
    uniforms.encode(into: &encoder)
    if !checked {
      try check(encoder.entries)
      checked = true
    }
    for (uniform, value) in encoder.entries {
      let location = locations[uniform] ?? glGetUniformLocation(name, uniform)
      locations[uniform] = location
      switch value {
      case .float(let v): glUniform1f(location, v)
      case .vec2(let x, let y): glUniform2f(location, x, y)
      case .vec4(let v): glUniform4f(location, v.x, v.y, v.z, v.w)
      case .vec4Array(let values):
        values.withUnsafeBufferPointer { buffer in
          buffer.withMemoryRebound(to: Float.self) { glUniform4fv(location, GLsizei(values.count), $0.baseAddress) }
        }
      case .int(let v): glUniform1i(location, v)
      case .ivec2(let x, let y): glUniform2i(location, x, y)
      case .floatArray(let values): glUniform1fv(location, GLsizei(values.count), values)
      case .sampler(let unit, _): glUniform1i(location, unit)
      }
    }
  }

  private func check(_ entries: [(name: String, value: UniformValue)]) throws {
    let active = activeUniforms()
    var problems: [String] = []
    let declared = Set(entries.map(\.name))
    for name in active.keys.sorted() where !declared.contains(name) {
      problems.append("\(name) is in the GLSL but not in the Swift uniform struct")
    }
    for (name, value) in entries {
      guard let uniform = active[name] else {
        problems.append("\(name) is in the Swift uniform struct but not active in the GLSL")
        continue
      }
      if uniform.type != value.glType || uniform.size != value.count {
        problems.append(
          "\(name) is type 0x\(String(uniform.type, radix: 16))[\(uniform.size)] in GLSL but "
            + "0x\(String(value.glType, radix: 16))[\(value.count)] in Swift")
      }
    }
    guard problems.isEmpty else {
      throw GlassError(
        .shaderFailure, "the uniforms of \(key) do not match its Swift struct",
        cause: problems.joined(separator: "; "))
    }
  }
}
