import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Outputs that never destroy what they should not and never leave temporaries:
/// devices, FIFOs and sockets as outputs, symbolic links, an output that is one of
/// the inputs, and signals during a render. Every case runs the real `glass-gpu`.
@Suite("Output safety", .serialized)
struct OutputSafetyTests {
  // MARK: Fixtures

  /// A folder with a small scene (40x30 points, one image) and its image.
  static func sceneFolder() throws -> URL {
    let folder = try makeTemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
    try PNGCodec.write(
      ProceduralImages.gradient(width: 16, height: 12), to: folder.appendingPathComponent("images/ok.png").path)
    let scene =
      SceneJSON.scene(
        width: 40, height: 30, scale: 1,
        layers: #"{"type": "image", "source": "images/ok.png", "frame": {"width": 20, "height": 20}}"#)
    try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
    return folder
  }

  /// A scene that takes the CPU backend seconds in any build (3.5 s of CPU in the
  /// optimised build `make test` runs, about 20 times that in a debug build): a
  /// 5400x3600 pixel canvas under 16 large frosted glass layers. The signal tests
  /// stop it within milliseconds of its start; only a build that ignores them
  /// renders it all.
  static let slowScene: String = {
    let layers = (0..<16).map { i in
      #"{"type": "glass", "glass": "regular", "shape": {"type": "roundedRect", "cornerRadius": 40}, "#
        + #""frame": {"x": \#(i % 4 * 400 + 20), "y": \#(i / 4 * 280 + 20), "width": 500, "height": 360}, "#
        + #""optics": {"frost": 8}}"#
    }
    let background =
      ##"{"linearGradient": {"colors": ["#ff5e62", "#4facfe"], "startPoint": "topLeading", "endPoint": "bottomTrailing"}}"##
    return SceneJSON.scene(
      width: 1800, height: 1200, scale: 3, background: background, layers: layers.joined(separator: ", "))
  }()

  /// The built `glass-gpu` (as `runCLI` finds it).
  static var binary: URL { TestProcess.glassGPU }

  /// The file type of `path` itself (not what a link leads to), or nil when missing.
  static func kind(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// The device number of the node at `path`.
  static func deviceNumber(_ path: String) -> dev_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_rdev : 0
  }

  /// The temporaries glass-gpu leaves in `folder` (`.NAME.glass-gpu-PID-RANDOM.tmp`).
  static func temporaries(in folder: URL) -> [String] {
    files(in: folder).filter { $0.contains(".glass-gpu-") && $0.hasSuffix(".tmp") }
  }

  /// Device numbers for `mknod`: major 1 minor 3 is the null device, major 7 a loop disk.
  static let nullDevice = dev_t(1 << 8 | 3)
  static let loopDisk = dev_t(7 << 8 | 200)

  /// True when this process may make device nodes (root with CAP_MKNOD).
  static let canMakeDevices: Bool = {
    guard let folder = try? makeTemporaryFolder() else { return false }
    defer { try? FileManager.default.removeItem(at: folder) }
    return mknod(folder.appendingPathComponent("probe").path, S_IFCHR | 0o666, nullDevice) == 0
  }()

  /// Checks a refusal: exit 1, one `glass-gpu:` line mentioning `words`.
  static func expectRefused(_ result: CLIResult, mentioning words: [String]) {
    #expect(result.status == 1, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1 && lines.first?.hasPrefix("glass-gpu: ") == true, "one line: \(result.stderr)")
    for word in words { #expect(result.stderr.contains(word), "\(word) in: \(result.stderr)") }
  }

  // MARK: Devices, FIFOs, sockets

  @Test(
    "a character device output is written in place and stays a device",
    .enabled(if: canMakeDevices, "making a device node needs root (CAP_MKNOD)"))
  func characterDevice() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let node = folder.appendingPathComponent("null.png").path
    try #require(mknod(node, S_IFCHR | 0o666, Self.nullDevice) == 0)
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", node, "--backend", "cpu",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.kind(node) == S_IFCHR)
    #expect(Self.deviceNumber(node) == Self.nullDevice)
    #expect(Self.temporaries(in: folder).isEmpty)
    // /dev/null itself (as root the old rename replaced it with a regular file).
    let devNull = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", "/dev/null", "--backend", "cpu",
    ])
    #expect(devNull.status == 0, "\(devNull.stderr)")
    #expect(Self.kind("/dev/null") == S_IFCHR)
    #expect(Self.temporaries(in: URL(fileURLWithPath: "/dev")).isEmpty)
  }

  @Test("-o through a link to /dev/stdout writes the PNG to stdout; the link stays")
  func standardOutput() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A link in the test's own folder: the old rename replaced the link, never /dev/stdout.
    let link = folder.appendingPathComponent("stdout.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/stdout")
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", link, "--backend", "cpu",
    ])
    #expect(result.reason == .exit && result.status == 0, "\(result.stderr)")
    let decoded = try PNGCodec.decode([UInt8](result.stdoutData), name: "stdout")
    #expect(decoded.image.size == PixelSize(width: 40, height: 30))
    #expect(Self.kind(link) == S_IFLNK)
    #expect(Self.temporaries(in: folder).isEmpty)
  }

  @Test("a FIFO output is written in place: the reader gets the whole PNG, the FIFO stays")
  func fifo() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("pipe.png").path
    try #require(mkfifo(fifo, 0o666) == 0)
    // The read end is open before the render starts, so the writer never waits,
    // and read after it ends (the PNG of 40x30 pixels fits in the pipe's buffer).
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", fifo, "--backend", "cpu",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    #expect(Self.kind(fifo) == S_IFIFO)
    let decoded = try PNGCodec.decode(bytes, name: "the FIFO's bytes")
    #expect(decoded.image.size == PixelSize(width: 40, height: 30))
    #expect(Self.temporaries(in: folder).isEmpty)
  }

  @Test(
    "a block device output is refused and left alone",
    .enabled(if: canMakeDevices, "making a device node needs root (CAP_MKNOD)"))
  func blockDevice() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let node = folder.appendingPathComponent("disk.png").path
    try #require(mknod(node, S_IFBLK | 0o660, Self.loopDisk) == 0)
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", node, "--backend", "cpu",
    ])
    Self.expectRefused(result, mentioning: [node, "block device"])
    #expect(Self.kind(node) == S_IFBLK)
    #expect(Self.deviceNumber(node) == Self.loopDisk)
    #expect(Self.temporaries(in: folder).isEmpty)
  }

  @Test("a socket output is refused and left alone")
  func socketOutput() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("socket.png").path
    let socketFile = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socketFile >= 0)
    defer { close(socketFile) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8) + [0]
    try #require(pathBytes.count <= MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketFile, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", path, "--backend", "cpu",
    ])
    Self.expectRefused(result, mentioning: [path, "socket"])
    #expect(Self.kind(path) == S_IFSOCK)
    #expect(Self.temporaries(in: folder).isEmpty)
  }

  // MARK: Links

  @Test("a link output stays a link and its target gets the PNG; a dangling link creates its target")
  func symbolicLinks() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let real = folder.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
    let scene = folder.appendingPathComponent("scene.json").path
    // An existing target in another folder, by an absolute link.
    let target = real.appendingPathComponent("target.png").path
    try Data("old contents".utf8).write(to: URL(fileURLWithPath: target))
    let link = folder.appendingPathComponent("link.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = try runCLI(["render", scene, "-o", link, "--backend", "cpu"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.kind(link) == S_IFLNK)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try PNGCodec.read(path: target).image.size == PixelSize(width: 40, height: 30))
    // A dangling link, relative to its own folder: its target is created.
    let dangling = folder.appendingPathComponent("dangling.png").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "real/new.png")
    let created = try runCLI(["render", scene, "-o", dangling, "--backend", "cpu"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(Self.kind(dangling) == S_IFLNK)
    #expect(
      try PNGCodec.read(path: real.appendingPathComponent("new.png").path).image.size
        == PixelSize(width: 40, height: 30))
    #expect(Self.temporaries(in: folder).isEmpty && Self.temporaries(in: real).isEmpty)
  }

  @Test("a file the output replaces keeps its permissions")
  func replacedFileKeepsPermissions() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("private.png").path
    try Data("old contents".utf8).write(to: URL(fileURLWithPath: output))
    try #require(chmod(output, 0o640) == 0)
    let result = try runCLI([
      "render", folder.appendingPathComponent("scene.json").path, "-o", output, "--backend", "cpu",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    var info = stat()
    try #require(stat(output, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o640)
    #expect(try PNGCodec.read(path: output).image.size == PixelSize(width: 40, height: 30))
  }

  // MARK: Output = input

  @Test("an output that is one of the inputs is refused, and the input is unchanged")
  func outputIsAnInput() throws {
    let folder = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("scene.json").path
    let image = folder.appendingPathComponent("images/ok.png").path
    let imageLink = folder.appendingPathComponent("alias.png").path
    try FileManager.default.createSymbolicLink(atPath: imageLink, withDestinationPath: image)
    let cases: [(arguments: [String], protected: String)] = [
      (["render", scene, "-o", scene], scene),
      (["render", scene, "-o", image], image),
      (["render", scene, "-o", folder.path + "/images/../images/./ok.png"], image),
      (["render", scene, "-o", imageLink], image),
      (["extend", image, "-o", image, "--leading", "4", "--trailing", "4"], image),
      (["extend", image, "-o", imageLink, "--leading", "4", "--trailing", "4"], image),
    ]
    for (arguments, protected) in cases {
      let before = try Data(contentsOf: URL(fileURLWithPath: protected))
      let result = try runCLI(arguments + ["--backend", "cpu"])
      let output = arguments[arguments.firstIndex(of: "-o")! + 1]
      Self.expectRefused(result, mentioning: [output, "input", "another output"])
      #expect(try Data(contentsOf: URL(fileURLWithPath: protected)) == before, "\(arguments)")
      #expect(Self.kind(imageLink) == S_IFLNK)
      #expect(Self.temporaries(in: folder).isEmpty, "\(arguments)")
      #expect(Self.temporaries(in: folder.appendingPathComponent("images")).isEmpty, "\(arguments)")
    }
  }

  // MARK: Signals

  /// A child started with `posix_spawn`, its signal mask empty and every signal at
  /// its default (see `TestProcess`).
  typealias Child = TestProcess.Child

  /// Starts a slow CPU render of `scene` into `output`, in `scratch` (its working
  /// folder, where stderr goes), and waits until its temporary file appears beside
  /// `output` (in a folder that holds nothing else). Returns the running child.
  static func startSlowRender(scene: String, output: URL, scratch: URL) throws -> Child {
    let log = scratch.appendingPathComponent("stderr.txt")
    let child = try Child(["render", scene, "-o", output.path, "--backend", "cpu"], in: scratch, log: log)
    let folder = output.deletingLastPathComponent()
    let deadline = Date().addingTimeInterval(120)
    while files(in: folder).isEmpty {
      guard child.isRunning, Date() < deadline else {
        kill(child.pid, SIGKILL)
        _ = try? child.wait()
        let log = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw GlassError(.outputFailure, "no temporary appeared beside \(output.path) (stderr: \(log))")
      }
      usleep(5_000)
    }
    return child
  }

  /// A folder holding the slow scene, an empty `out` folder, and a scratch folder.
  static func slowFolders() throws -> (root: URL, scene: String, out: URL, scratch: URL) {
    let root = try makeTemporaryFolder()
    let scene = root.appendingPathComponent("slow.json")
    try Data(slowScene.utf8).write(to: scene)
    let out = root.appendingPathComponent("out")
    let scratch = root.appendingPathComponent("scratch")
    for folder in [out, scratch] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    return (root, scene.path, out, scratch)
  }

  @Test(
    "a signal during a render removes the temporary and ends the process by that signal",
    arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGILL])
  func signalRemovesTemporary(_ signal: Int32) throws {
    let (root, scene, out, scratch) = try Self.slowFolders()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = out.appendingPathComponent("out.png")
    let child = try Self.startSlowRender(scene: scene, output: output, scratch: scratch)
    kill(child.pid, signal)
    let ending = try child.wait()
    let log = (try? String(contentsOf: scratch.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
    #expect(ending == .signal(signal), "\(ending): \(log)")
    #expect(files(in: out).isEmpty, "left behind: \(files(in: out))")
  }

  @Test("after SIGKILL the temporary stays; the next render of that output removes it, not a live process's")
  func staleTemporaryAfterKill() throws {
    let (root, scene, out, scratch) = try Self.slowFolders()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = out.appendingPathComponent("out.png")
    let child = try Self.startSlowRender(scene: scene, output: output, scratch: scratch)
    kill(child.pid, SIGKILL)
    #expect(try child.wait() == .signal(SIGKILL))
    let stale = Self.temporaries(in: out)
    #expect(stale.count == 1 && stale.first?.contains("-\(child.pid)-") == true, "\(stale)")
    // A temporary of a live process (this test runner) and another output's
    // temporary of a dead one: neither is the sweep's to remove.
    let live = ".out.png.glass-gpu-\(getpid())-0badf00d.tmp"
    let otherOutput = ".other.png.glass-gpu-\(child.pid)-0badf00d.tmp"
    for name in [live, otherOutput] {
      FileManager.default.createFile(atPath: out.appendingPathComponent(name).path, contents: Data())
    }
    let small = try Self.sceneFolder()
    defer { try? FileManager.default.removeItem(at: small) }
    let result = try runCLI([
      "render", small.appendingPathComponent("scene.json").path, "-o", output.path, "--backend", "cpu",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(files(in: out) == [live, otherOutput, "out.png"].sorted())
    #expect(try PNGCodec.read(path: output.path).image.size == PixelSize(width: 40, height: 30))
  }
}
