import CEGL
import Foundation

/// The EGL platform a display was opened on.
public enum EGLPlatformKind: String, Sendable, CaseIterable {
  /// GBM on a DRM render node (a real GPU through Mesa).
  case gbm
  /// `EGL_EXT_platform_device`: a hardware device (NVIDIA, Mesa DRM) or Mesa's software device.
  case device
  /// `EGL_MESA_platform_surfaceless`.
  case surfaceless
}

/// One try at opening an EGL display, for `glass-gpu info`.
public struct PlatformAttempt: Sendable, Codable, Equatable {
  /// `gbm`, `device` or `surfaceless`.
  public var platform: String
  /// What was tried: a render node, a device, the default display.
  public var target: String
  /// True for the attempt that was used.
  public var used: Bool
  /// Why it was not used, or what it gave.
  public var detail: String

  /// Makes a record of one attempt.
  public init(platform: String, target: String, used: Bool, detail: String) {
    self.platform = platform
    self.target = target
    self.used = used
    self.detail = detail
  }
}

/// The process's EGL display, shared by every GL context and reference-counted: one
/// `eglTerminate` would end every context on it, so only the last user terminates.
final class EGLDisplayConnection: @unchecked Sendable {
  /// The initialised display.
  let display: EGLDisplay
  /// The platform it came from.
  let platform: EGLPlatformKind
  /// What was tried, in order, the used one last.
  let attempts: [PlatformAttempt]
  /// The display's extension string.
  let extensions: Set<String>
  private var gbm: cegl_gbm?

  private init(
    display: EGLDisplay, platform: EGLPlatformKind, attempts: [PlatformAttempt],
    gbm: cegl_gbm?
  ) {
    self.display = display
    self.platform = platform
    self.attempts = attempts
    self.gbm = gbm
    self.extensions = EGLDisplayConnection.extensionSet(eglQueryString(display, EGL_EXTENSIONS))
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var current: EGLDisplayConnection?
  nonisolated(unsafe) private static var users = 0

  /// The shared display, opened on first use. Each `acquire` needs one `release`.
  static func acquire() throws -> EGLDisplayConnection {
    lock.lock()
    defer { lock.unlock() }
    if let current {
      users += 1
      return current
    }
    let connection = try open()
    current = connection
    users = 1
    return connection
  }

  /// Ends one use; the last one terminates the display.
  static func release(_ connection: EGLDisplayConnection) {
    lock.lock()
    defer { lock.unlock() }
    precondition(current === connection && users > 0, "releasing an EGL display that is not held")
    users -= 1
    guard users == 0 else { return }
    eglTerminate(connection.display)
    eglReleaseThread()
    if var gbm = connection.gbm { cegl_gbm_close(&gbm) }
    connection.gbm = nil
    current = nil
  }

  /// Number of users of the shared display (for tests).
  static var userCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return users
  }

  /// The EGL client extensions (those of no display).
  static var clientExtensions: Set<String> {
    extensionSet(eglQueryString(cegl_no_display(), EGL_EXTENSIONS))
  }

  static func extensionSet(_ string: UnsafePointer<CChar>?) -> Set<String> {
    guard let string else { return [] }
    return Set(String(cString: string).split(separator: " ").map(String.init))
  }

  /// Tries GBM, then hardware devices, then Mesa's software device, then
  /// surfaceless. `GLASS_GPU_PLATFORM=gbm|device|surfaceless` tries only one.
  private static func open() throws -> EGLDisplayConnection {
    var attempts: [PlatformAttempt] = []
    let requested = ProcessInfo.processInfo.environment["GLASS_GPU_PLATFORM"].flatMap { $0.isEmpty ? nil : $0 }
    let only = requested.flatMap(EGLPlatformKind.init(rawValue:))
    if let requested, only == nil {
      throw GlassError(
        .gpuUnavailable, "GLASS_GPU_PLATFORM is \(requested); set it to gbm, device or surfaceless, or unset it")
    }
    let client = clientExtensions
    func skip(_ platform: EGLPlatformKind, _ target: String, _ why: String) {
      attempts.append(PlatformAttempt(platform: platform.rawValue, target: target, used: false, detail: why))
    }
    func wanted(_ platform: EGLPlatformKind) -> Bool {
      if let only, only != platform {
        skip(platform, "-", "skipped: GLASS_GPU_PLATFORM=\(only.rawValue)")
        return false
      }
      return true
    }
    if client.isEmpty {
      // With no EGL vendor at all glvnd answers nothing; say so once for each platform.
      for platform in EGLPlatformKind.allCases {
        skip(platform, "-", "no EGL driver found (EGL reports no client extensions)")
      }
      throw unavailable(attempts)
    }

    if wanted(.gbm) {
      if let connection = openGBM(client: client, attempts: &attempts) { return connection }
    }
    if wanted(.device) {
      if let connection = openDevice(client: client, attempts: &attempts) { return connection }
    }
    if wanted(.surfaceless) {
      if client.contains("EGL_MESA_platform_surfaceless") {
        if let connection = initialize(
          platform: .surfaceless, native: nil, target: "default display", attempts: &attempts, gbm: nil)
        {
          return connection
        }
      } else {
        skip(.surfaceless, "default display", "EGL_MESA_platform_surfaceless is not supported")
      }
    }
    throw unavailable(attempts)
  }

  private static func unavailable(_ attempts: [PlatformAttempt]) -> GlassError {
    let details = Set(attempts.map(\.detail))
    let reasons =
      details.count == 1
      ? "every platform: \(attempts[0].detail)"
      : attempts.map { "\($0.platform): \($0.detail)" }.joined(separator: "; ")
    return GlassError(
      .gpuUnavailable,
      "no EGL display with OpenGL ES 3 could be opened; install Mesa (apt-get install libegl1 "
        + "libgles2 libegl-mesa0 libgl1-mesa-dri) or render on the CPU backend",
      cause: reasons, hint: .useCPUBackend)
  }

  private static func openGBM(client: Set<String>, attempts: inout [PlatformAttempt]) -> EGLDisplayConnection? {
    guard client.contains("EGL_KHR_platform_gbm") || client.contains("EGL_MESA_platform_gbm") else {
      attempts.append(
        PlatformAttempt(
          platform: "gbm", target: "-", used: false, detail: "EGL_KHR_platform_gbm is not supported"))
      return nil
    }
    let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [])
      .filter { $0.hasPrefix("renderD") }.sorted().map { "/dev/dri/" + $0 }
    guard !nodes.isEmpty else {
      attempts.append(
        PlatformAttempt(
          platform: "gbm", target: "/dev/dri/renderD*", used: false, detail: "no DRM render node"))
      return nil
    }
    for node in nodes {
      var gbm = cegl_gbm()
      var message = [CChar](repeating: 0, count: 256)
      guard cegl_gbm_open(node, &gbm, &message, message.count) == 0 else {
        attempts.append(
          PlatformAttempt(
            platform: "gbm", target: node, used: false, detail: String(cBuffer: message)))
        continue
      }
      if let connection = initialize(platform: .gbm, native: gbm.device, target: node, attempts: &attempts, gbm: gbm) {
        return connection
      }
      cegl_gbm_close(&gbm)
    }
    return nil
  }

  private static func openDevice(client: Set<String>, attempts: inout [PlatformAttempt]) -> EGLDisplayConnection? {
    guard client.contains("EGL_EXT_platform_device"),
      client.contains("EGL_EXT_device_enumeration") || client.contains("EGL_EXT_device_base")
    else {
      attempts.append(
        PlatformAttempt(
          platform: "device", target: "-", used: false, detail: "EGL_EXT_platform_device is not supported"))
      return nil
    }
    var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
    let count = Int(cegl_query_devices(&devices, Int32(devices.count)))
    guard count > 0 else {
      attempts.append(
        PlatformAttempt(
          platform: "device", target: "-", used: false, detail: "eglQueryDevicesEXT found no device"))
      return nil
    }
    struct Candidate {
      var device: EGLDeviceEXT
      var name: String
      var software: Bool
    }
    var candidates: [Candidate] = []
    for index in 0..<count {
      guard let device = devices[index] else { continue }
      let extensions = extensionSet(cegl_query_device_string(device, EGL_EXTENSIONS))
      let software = extensions.contains("EGL_MESA_device_software")
      var name = "device \(index)"
      if let file = cegl_query_device_string(device, EGL_DRM_DEVICE_FILE_EXT) {
        name += " (\(String(cString: file)))"
      } else if software {
        name += " (Mesa software)"
      }
      candidates.append(Candidate(device: device, name: name, software: software))
    }
    // Hardware first, then Mesa's software rasteriser.
    for candidate in candidates.filter({ !$0.software }) + candidates.filter(\.software) {
      if let connection = initialize(
        platform: .device, native: UnsafeMutableRawPointer(candidate.device), target: candidate.name,
        attempts: &attempts, gbm: nil)
      {
        return connection
      }
    }
    return nil
  }

  /// Gets and initialises a display, and checks it can give an ES 3 context with
  /// no surface. Records the attempt either way.
  private static func initialize(
    platform: EGLPlatformKind, native: UnsafeMutableRawPointer?, target: String,
    attempts: inout [PlatformAttempt], gbm: cegl_gbm?
  ) -> EGLDisplayConnection? {
    let eglPlatform: EGLenum =
      switch platform {
      case .gbm: EGLenum(EGL_PLATFORM_GBM_KHR)
      case .device: EGLenum(EGL_PLATFORM_DEVICE_EXT)
      case .surfaceless: EGLenum(EGL_PLATFORM_SURFACELESS_MESA)
      }
    func fail(_ why: String) -> EGLDisplayConnection? {
      attempts.append(PlatformAttempt(platform: platform.rawValue, target: target, used: false, detail: why))
      return nil
    }
    var missing: Int32 = 0
    let display = cegl_get_platform_display(eglPlatform, native, &missing)
    guard missing == 0 else { return fail("eglGetPlatformDisplayEXT is missing") }
    guard let display, display != cegl_no_display() else {
      return fail("eglGetPlatformDisplayEXT failed (\(eglErrorName()))")
    }
    var major: EGLint = 0
    var minor: EGLint = 0
    guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
      return fail("eglInitialize failed (\(eglErrorName()))")
    }
    let extensions = extensionSet(eglQueryString(display, EGL_EXTENSIONS))
    guard extensions.contains("EGL_KHR_surfaceless_context") else {
      eglTerminate(display)
      return fail("EGL_KHR_surfaceless_context is not supported")
    }
    guard let config = chooseConfig(display) else {
      eglTerminate(display)
      return fail("no EGL config renders OpenGL ES 3")
    }
    // A display that opens may still refuse an ES 3 context: try one, so that the
    // next platform gets its turn rather than the backend failing later.
    switch createContext(display, config) {
    case .success(let (context, _)):
      eglDestroyContext(display, context)
    case .failure(let error):
      eglTerminate(display)
      return fail("no OpenGL ES 3 context (\(error))")
    }
    let vendor = eglQueryString(display, EGL_VENDOR).map { String(cString: $0) } ?? "unknown vendor"
    attempts.append(
      PlatformAttempt(
        platform: platform.rawValue, target: target, used: true, detail: "EGL \(major).\(minor), \(vendor)"))
    return EGLDisplayConnection(
      display: display, platform: platform, attempts: attempts, gbm: gbm)
  }

  /// An OpenGL ES 3.2 context, else 3.1, else 3.0, with its version; or the EGL
  /// error of the last try. Binds the ES API on the calling thread.
  static func createContext(_ display: EGLDisplay, _ config: EGLConfig) -> Result<(EGLContext, String), ContextError> {
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else { return .failure(ContextError(eglErrorName())) }
    var lastError = "EGL_SUCCESS"
    for (major, minor) in [(3, 2), (3, 1), (3, 0)] {
      let attributes: [EGLint] = [
        EGL_CONTEXT_MAJOR_VERSION, EGLint(major), EGL_CONTEXT_MINOR_VERSION, EGLint(minor), EGL_NONE,
      ]
      if let context = eglCreateContext(display, config, cegl_no_context(), attributes), context != cegl_no_context() {
        return .success((context, "\(major).\(minor)"))
      }
      lastError = eglErrorName()
    }
    return .failure(ContextError(lastError))
  }

  /// Why no context could be made: an EGL error name.
  struct ContextError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// A config for an OpenGL ES 3 context used without surfaces. EGL_SURFACE_TYPE
  /// must be 0 here: the default asks for window surfaces, which headless
  /// displays do not have.
  static func chooseConfig(_ display: EGLDisplay) -> EGLConfig? {
    let attributes: [EGLint] = [
      EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE,
    ]
    var config: EGLConfig?
    var count: EGLint = 0
    guard eglChooseConfig(display, attributes, &config, 1, &count) == EGL_TRUE, count > 0 else { return nil }
    return config
  }

  /// A string of the display.
  func string(_ name: EGLint) -> String {
    eglQueryString(display, name).map { String(cString: $0) } ?? ""
  }
}

/// The name of the last EGL error of this thread, such as `EGL_BAD_DISPLAY`.
func eglErrorName(_ code: EGLint = eglGetError()) -> String {
  let names: [EGLint: String] = [
    EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
    EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
    EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_CURRENT_SURFACE: "EGL_BAD_CURRENT_SURFACE",
    EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
    EGL_BAD_NATIVE_PIXMAP: "EGL_BAD_NATIVE_PIXMAP", EGL_BAD_NATIVE_WINDOW: "EGL_BAD_NATIVE_WINDOW",
    EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_BAD_SURFACE: "EGL_BAD_SURFACE",
    EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST",
  ]
  return names[code] ?? String(format: "EGL error 0x%04X", code)
}
