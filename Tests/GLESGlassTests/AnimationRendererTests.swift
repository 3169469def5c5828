import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// `AnimationRenderer`, the frames of a transition for a Swift program and for
/// `glass-gpu animate`: the frame sequence (holds, round trip, held frames
/// rendered once), frames computed one at a time, the frame limit, both states
/// checked before the first frame, and what animate does when its output fails,
/// when its folder holds an earlier animation, and on SIGINT or SIGTERM.
@Suite("Animation renderer")
struct AnimationRendererTests {
  /// A capsule moving across a teal canvas: 160 x 90 at scale 1, 0.1 s linear.
  static let moving = """
    {"version": 1, "size": {"width": 160, "height": 90}, "scale": 1, "background": "#2a8c8c",
     "states": {
       "a": {"layers": [{"type": "shape", "shape": "capsule", "fill": "#ffcc00", "frame": {"x": 10, "y": 30, "width": 40, "height": 20}}]},
       "b": {"layers": [{"type": "shape", "shape": "capsule", "fill": "#ff3300", "frame": {"x": 110, "y": 30, "width": 40, "height": 20}}]}},
     "transition": {"from": "a", "to": "b", "animation": {"type": "linear", "duration": 0.1}}}
    """

  /// A folder with `scene.json` holding `json`; removed by the caller.
  static func folder(_ json: String = moving) throws -> (folder: URL, scene: String) {
    let folder = try makeTemporaryFolder()
    let scene = folder.appendingPathComponent("scene.json").path
    try json.write(toFile: scene, atomically: true, encoding: .utf8)
    return (folder, scene)
  }

  /// The frame files in `folder`, sorted, and anything else left there.
  static func frameFiles(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(AnimationRenderer.isFrameName)
      .sorted()
  }

  /// Runs `script` in /bin/sh, in `folder`, with "$G" the built glass-gpu; its
  /// exit status and what it wrote to stderr (the script may redirect it).
  static func shell(
    _ script: String, in folder: URL
  ) throws -> (status: Int32, reason: Process.TerminationReason, stderr: String) {
    let run = try TestProcess.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["G": TestProcess.glassGPU.path], in: folder,
      capturesOutput: false)
    return (run.status, run.reason, run.stderr)
  }

  // MARK: The library

  @Test("a Swift program renders a transition's frames, holds and round trip included, equal to glass-gpu animate's")
  func swiftEqualsCLI() throws {
    let (folder, path) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try SceneFile(path: path)
    let options = AnimationRenderer.Options(fps: 30, holdSeconds: 0.1, roundTrip: true)
    let animation = try AnimationRenderer(file: file, options: options)
    // 0.1 s at 30 fps: 4 frames a way, holds of 3: 3 + 4 + 3 + 3 + 3.
    #expect(animation.frameCount == 16 && animation.transitionFrameCount == 4 && animation.holdFrameCount == 3)
    var frames: [RGBAImage] = []
    var runs: [Range<Int>] = []
    let rendered = try animation.render(on: Renderer(backend: .cpu)) { indices, image in
      runs.append(indices)
      for _ in indices { frames.append(image) }
    }
    #expect(rendered == 16 && frames.count == 16)
    // Held ends are rendered once: the first state and frame 0, the second state
    // and the last frame there, the way back's end and the hold after it.
    #expect(runs == [0..<4, 4..<5, 5..<6, 6..<10, 10..<11, 11..<12, 12..<16], "\(runs)")
    let a = try TestBackend.cpu.render(file.scene.state("a"))
    let b = try TestBackend.cpu.render(file.scene.state("b"))
    #expect(frames[0] == a && frames[15] == a && frames[6] == b && frames[9] == b)
    #expect(frames[4] != a && frames[4] != b)
    // The way back retraces the way there: back at 2/3 is there at 1/3 (to rounding).
    #expect(try ImageComparison(frames[11], frames[4]).maxDifference <= 1)
    // The command line writes the same frames.
    let out = folder.appendingPathComponent("frames").path
    let run = try runCLI([
      "animate", path, "-o", out, "--fps", "30", "--hold", "0.1", "--round-trip", "--backend", "cpu", "--quiet",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let written = Self.frameFiles(out)
    #expect(written == (0..<16).map { AnimationRenderer.frameName($0) }, "\(written)")
    for (i, frame) in frames.enumerated() where i < written.count {
      let png = try PNGCodec.read(path: out + "/" + written[i]).image
      #expect(png == frame, "frame \(i)")
    }
  }

  @Test("frames are computed one at a time: frame i is the scene at its time, whatever the frame count")
  func lazyFrames() throws {
    let scene = try Scene(json: Array(Self.moving.utf8))
    let animation = try AnimationRenderer(
      scene: scene, options: AnimationRenderer.Options(fps: 1000, holdSeconds: 30, roundTrip: true))
    // 30 s held three times at 1000 fps, 101 frames each way.
    #expect(animation.frameCount == 3 * 30_000 + 101 + 100)
    #expect(try animation.scene(ofFrame: 30_000 + 37) == scene.frame(at: 0.037))
    #expect(try animation.scene(ofFrame: 30_000 + 100) == scene.state("b"))
    #expect(
      try animation.scene(ofFrame: 60_100 + 37)
        == scene.frame(at: 0.037, of: SceneTransition(from: "b", to: "a", animation: .linear(duration: 0.1))))
    #expect(try animation.scene(ofFrame: animation.frameCount - 1) == scene.state("a"))
  }

  @Test("more frames than the limit are refused before anything is rendered, naming the fix")
  func frameLimit() throws {
    let scene = try Scene(json: Array(Self.moving.utf8))
    for curve in [TimingCurve.spring(duration: 0.5, bounce: 0.999999), .spring(duration: 0.5, bounce: -0.999999)] {
      let error = #expect(throws: GlassError.self) {
        try AnimationRenderer(scene: scene, transition: SceneTransition(from: "a", to: "b", animation: curve))
      }
      #expect(error?.message.contains("over the limit of 100000") == true, "\(String(describing: error))")
      #expect(error?.hint == .lowerFrameRateOrHold && error?.message.contains("lower the frame rate, the hold") == true)
    }
    // Through the command line: at once, exit 1, one line, nothing written. Under
    // an 8 GB address-space limit: the command that built every frame first
    // reached 23 GB before it could be stopped. Not under AddressSanitizer (make
    // sanitize), whose shadow memory alone reserves 15 TB of address space.
    let limit = TestProcess.underAddressSanitizer ? "" : "ulimit -v 8000000; "
    let (folder, _) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let before = files(in: folder)
    for options in [
      #"--animation '{"type": "spring", "bounce": 0.999999}' --format apng -o a.png"#,
      #"--animation '{"type": "spring", "bounce": -0.999999}' -o frames"#,
      #"--fps 1000 --animation '{"type": "spring", "duration": 60}' -o frames"#,
    ] {
      let run = try Self.shell(limit + #""$G" animate scene.json "# + options, in: folder)
      #expect(run.reason == .exit && run.status == 1, "\(options): ended \(run.reason) \(run.status): \(run.stderr)")
      #expect(run.stderr.contains("over the limit of 100000") && run.stderr.contains("--fps"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
      #expect(files(in: folder) == before, "left: \(files(in: folder))")
    }
  }

  @Test(
    "memory does not grow with the number of frames, and the frame count is printed first",
    .disabled(
      if: TestProcess.underAddressSanitizer,
      "under AddressSanitizer resident memory is mostly its quarantine of freed blocks; make test measures it"))
  func flatMemory() throws {
    let tiny = Self.moving.replacingOccurrences(of: #""width": 160, "height": 90"#, with: #""width": 16, "height": 9"#)
    let (folder, path) = try Self.folder(tiny)
    defer { try? FileManager.default.removeItem(at: folder) }
    func peak(_ seconds: Int) throws -> (kilobytes: Int, stderr: String) {
      let file = folder.appendingPathComponent("peak-\(seconds)").path
      let run = try runCLI(
        [
          "animate", path, "--format", "rgba", "--fps", "1000", "--backend", "cpu", "--animation",
          #"{"type": "linear", "duration": \#(seconds)}"#,
        ], environment: ["GLASS_GPU_PEAK_MEMORY_FILE": file])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdoutData.count == (seconds * 1000 + 1) * 16 * 9 * 4)
      let text = try String(contentsOfFile: file, encoding: .utf8)
      return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, run.stderr)
    }
    let short = try peak(2)
    let long = try peak(40)
    #expect(
      long.stderr.split(separator: "\n").first?.hasPrefix("glass-gpu: 40001 frames of 16x9 at 1000 fps") == true,
      "\(long.stderr)")
    print("animate peak memory: 2001 frames \(short.kilobytes) KB, 40001 frames \(long.kilobytes) KB")
    #expect(
      Double(long.kilobytes) < Double(short.kilobytes) * 1.1,
      "40001 frames peaked at \(long.kilobytes) KB, 2001 at \(short.kilobytes) KB")
  }

  @Test("an animated PNG is written as it is made: its temporary file grows frame by frame")
  func streamingFile() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = try PNGCodec.OutputFile(path: folder.appendingPathComponent("a.png").path)
    var sizes: [Int] = []
    try output.write(streaming: { append in
      for chunk in 0..<3 {
        try [UInt8](repeating: UInt8(chunk), count: 1000).withUnsafeBytes { try append($0) }
        let temporary = files(in: folder).filter { $0.hasSuffix(".tmp") }
        let size = try temporary.first.map {
          try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size] as? Int
        }
        sizes.append((size ?? 0) ?? 0)
      }
    })
    #expect(sizes == [1000, 2000, 3000], "\(sizes)")
    #expect(files(in: folder) == ["a.png"])
    // A body that fails leaves nothing.
    let failing = try PNGCodec.OutputFile(path: folder.appendingPathComponent("b.png").path)
    #expect(throws: GlassError.self) {
      try failing.write(streaming: { append in
        try [UInt8](repeating: 1, count: 10).withUnsafeBytes { try append($0) }
        throw GlassError(.renderFailure, "planted")
      })
    }
    #expect(files(in: folder) == ["a.png"])
  }

  // MARK: The command line

  @Test("animate --format rgba to a standard output that fails: cannot write standard output, exit 1")
  func failingStandardOutput() throws {
    let (folder, _) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let animate = #""$G" animate scene.json --format rgba --backend cpu --quiet"#
    for (name, script) in [
      ("a full device", "\(animate) > /dev/full"),
      ("a closed standard output", "\(animate) >&-"),
      (
        "a pipe closed early, SIGPIPE ignored",
        "trap '' PIPE; { \(animate) 2>err.txt; echo $? > status.txt; } | head -c 1000 > /dev/null; "
          + "cat err.txt >&2; exit $(cat status.txt)"
      ),
    ] {
      let run = try Self.shell(script, in: folder)
      #expect(run.reason == .exit && run.status == 1, "\(name): ended \(run.reason) \(run.status): \(run.stderr)")
      #expect(run.stderr.contains("cannot write standard output"), "\(name): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(name): one line: \(run.stderr)")
    }
  }

  @Test("animate stops at the first frame it cannot write: one error, exit 1, no frame left")
  func failedWrite() throws {
    let (folder, _) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Files over 512 bytes cannot be written (EFBIG; SIGXFSZ ignored), as on a full disk.
    let run = try Self.shell(
      #"trap '' XFSZ; ulimit -f 1; "$G" animate scene.json -o frames --backend cpu --fps 120 --jobs 2 --quiet"#,
      in: folder)
    #expect(run.status == 1, "exit \(run.status): \(run.stderr)")
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1 && run.stderr.contains("cannot write"), "\(run.stderr)")
    let out = folder.appendingPathComponent("frames").path
    #expect(files(in: URL(fileURLWithPath: out)).isEmpty, "left: \(files(in: URL(fileURLWithPath: out)))")
  }

  @Test("animate -o DIR replaces an earlier animation's frames: stale frames go, other files and links' targets stay")
  func staleFrames() throws {
    let (folder, path) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("frames")
    let long = try runCLI(["animate", path, "-o", out.path, "--fps", "30", "--hold", "0.5", "--backend", "cpu"])
    #expect(long.status == 0, "\(long.stderr)")
    #expect(Self.frameFiles(out.path).count == 34)
    // Beside the frames: a note, a folder and a link named like frames, leading out.
    let outside = folder.appendingPathComponent("keep.png")
    try Data("precious".utf8).write(to: outside)
    try Data("notes".utf8).write(to: out.appendingPathComponent("notes.txt"))
    try FileManager.default.createDirectory(
      at: out.appendingPathComponent("frame-9998.png"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: out.appendingPathComponent("frame-9999.png").path, withDestinationPath: outside.path)
    let short = try runCLI(["animate", path, "-o", out.path, "--fps", "30", "--backend", "cpu"])
    #expect(short.status == 0, "\(short.stderr)")
    #expect(
      Self.frameFiles(out.path) == [
        "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-9998.png",
      ], "\(Self.frameFiles(out.path))")
    #expect(files(in: out).contains("notes.txt"))
    #expect(try String(contentsOf: outside, encoding: .utf8) == "precious")
    // A folder where a frame file is an input: refused, nothing removed.
    let image = out.appendingPathComponent("frame-0000.png").path
    let withImage = Self.moving.replacingOccurrences(
      of: ##""background": "#2a8c8c""##, with: #""background": {"image": "frames/frame-0000.png"}"#)
    try withImage.write(toFile: path, atomically: true, encoding: .utf8)
    let before = files(in: out)
    let refused = try runCLI(["animate", path, "-o", out.path, "--backend", "cpu"])
    #expect(refused.status == 1 && refused.stderr.contains("is an input"), "\(refused.stderr)")
    #expect(files(in: out) == before && FileManager.default.fileExists(atPath: image))
  }

  @Test("an image missing from the second state only: validate and animate name states.b, animate writes nothing")
  func missingImageInSecondState() throws {
    let paired = """
      {"version": 1, "size": {"width": 160, "height": 90}, "scale": 1, "background": "#2a8c8c",
       "states": {
         "a": {"layers": [{"type": "image", "source": "here.png", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}}]},
         "b": {"layers": [{"type": "image", "source": "missing.png", "frame": {"x": 50, "y": 0, "width": 10, "height": 10}}]}},
       "transition": {"from": "a", "to": "b", "animation": {"type": "linear", "duration": 0.1}}}
      """
    let (folder, path) = try Self.folder(paired)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(PNGCodec.encode(ProceduralImages.checker(width: 4, height: 4))).write(
      to: folder.appendingPathComponent("here.png"))
    let validated = try runCLI(["validate", path])
    #expect(validated.status == 1, "\(validated.stdout) \(validated.stderr)")
    #expect(validated.stderr.contains("states.b.layers[0].source"), "\(validated.stderr)")
    let before = files(in: folder)
    let animated = try runCLI(["animate", path, "-o", folder.appendingPathComponent("frames").path, "--backend", "cpu"])
    expectRefused(animated, mentioning: ["states.b.layers[0].source", "missing.png"], leaving: folder, as: before)
  }

  @Test("animate --from nope names the option, not a JSON path the user did not write")
  func unknownStateOption() throws {
    let (folder, path) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let before = files(in: folder)
    let run = try runCLI([
      "animate", path, "--from", "nope", "--to", "b", "-o", folder.appendingPathComponent("f").path,
    ])
    expectRefused(run, mentioning: ["--from", "no state \"nope\"", "its states are a, b"], leaving: folder, as: before)
    #expect(!run.stderr.contains("transition.from"), "\(run.stderr)")
  }

  /// Starts animate on a long animation (20,001 frames), waits for `ready`,
  /// sends `signal`, and checks it ends by it at once, leaving no frame and no
  /// temporary.
  func interrupt(_ signal: Int32, format: String, when ready: (URL, URL) -> Bool) throws {
    let (folder, path) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
    let log = folder.appendingPathComponent("stderr.txt")
    let target = format == "png" ? out.path : out.appendingPathComponent("a.png").path
    let child = try OutputSafetyTests.Child(
      [
        "animate", path, "--format", format, "-o", target, "--fps", "1000", "--backend", "cpu", "--animation",
        #"{"type": "linear", "duration": 20}"#,
      ], in: folder, log: log)
    try BatchFixture.waitUntil(child, log: log, what: "animate got going") { ready(out, log) }
    let sent = Date()
    kill(child.pid, signal)
    let ending = try child.wait(seconds: 60)
    let seconds = Date().timeIntervalSince(sent)
    #expect(ending == .signal(signal) || ending == .exit(128 + signal), "ended \(ending): \(BatchFixture.log(log))")
    #expect(seconds < 5, "ended \(seconds) s after the signal")
    #expect(files(in: out).isEmpty, "left: \(files(in: out).prefix(5)) (\(files(in: out).count) files)")
  }

  @Test("SIGTERM while animate gets ready ends it at once, with nothing written")
  func signalWhilePreparing() throws {
    try interrupt(SIGTERM, format: "apng") { _, log in
      (try? String(contentsOf: log, encoding: .utf8))?.contains("frames of") == true
    }
  }

  @Test(
    "SIGINT or SIGTERM between frames ends animate at the next frame and removes the frames written",
    arguments: [SIGINT, SIGTERM])
  func signalBetweenFrames(_ signal: Int32) throws {
    try interrupt(signal, format: "png") { out, _ in Self.frameFiles(out.path).count >= 3 }
  }
}
