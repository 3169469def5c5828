import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// The result of one run of the command-line tool.
typealias CLIResult = TestProcess.Result

/// Runs the built `glass-gpu` with `arguments`, with `environment` added, in
/// `directory` (the test's own by default). With `shell`, runs that `/bin/sh`
/// script instead, with the binary in `$GLASS_GPU` and `arguments` as `"$@"`: for
/// redirections and pipes (`exec "$GLASS_GPU" "$@" <&-`). With a `timeout` in
/// seconds, a run still going then is killed (SIGKILL) and the test fails,
/// instead of hanging.
func runCLI(
  _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, shell: String? = nil,
  timeout: Double? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> CLIResult {
  let path = TestProcess.glassGPU
  #expect(FileManager.default.isExecutableFile(atPath: path.path), "build glass-gpu first: \(path.path)")
  let result = try TestProcess.runGlassGPU(
    arguments, environment: environment, in: directory, shell: shell, timeout: timeout)
  if result.timedOut {
    Issue.record(
      "glass-gpu \(arguments.joined(separator: " ")) did not end within \(timeout ?? 0) s; killed",
      sourceLocation: sourceLocation)
  }
  return result
}

/// Every file in a folder (to see that nothing, not even a temporary, was left).
func files(in folder: URL) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// Checks a refused command: exit 1, one `glass-gpu:` line naming `words`, and
/// nothing new in `folder` (no output, no temporary, whatever its name).
func expectRefused(
  _ result: CLIResult, mentioning words: [String], leaving folder: URL, as before: [String],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(result.status == 1, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
  let lines = result.stderr.split(separator: "\n")
  #expect(
    lines.count == 1 && lines[0].hasPrefix("glass-gpu: "), "one line: \(result.stderr)", sourceLocation: sourceLocation)
  for word in words {
    #expect(
      result.stderr.contains(word), "stderr should name \(word): \(result.stderr)", sourceLocation: sourceLocation)
  }
  #expect(
    files(in: folder) == before, "left behind: \(files(in: folder)) (before: \(before))", sourceLocation: sourceLocation
  )
}

/// One bad input: the arguments, and words the error must contain.
struct BadInput: Sendable, CustomTestStringConvertible {
  var name: String
  var input: String
  var options: [String]
  var mustMention: [String]

  var testDescription: String { name }

  /// Options the command line itself refuses: ArgumentParser's exit 64 and usage
  /// lines. Everything else is one `glass-gpu:` line and exit 1.
  var isUsageError: Bool {
    ["negative inset", "non-numeric inset", "NaN sigma", "infinite sigma", "negative sigma", "bad depth"].contains(name)
  }

  static func fixture(_ name: String) -> String { fixturesFolder.appendingPathComponent(name).path }
  static let good = fixture("rgba8.png")
  static let insets = ["--leading", "8", "--trailing", "8"]

  static let all: [BadInput] = [
    BadInput(
      name: "truncated file", input: fixture("truncated.png"), options: insets,
      mustMention: ["truncated.png", "truncated"]),
    BadInput(
      name: "corrupted data", input: fixture("corrupt_zlib.png"), options: insets,
      mustMention: ["corrupt_zlib.png", "damaged"]),
    BadInput(name: "bad CRC", input: fixture("bad_crc.png"), options: insets, mustMention: ["bad_crc.png", "CRC"]),
    BadInput(name: "empty file", input: fixture("empty.png"), options: insets, mustMention: ["empty.png", "empty"]),
    BadInput(
      name: "missing file", input: "/nonexistent/photo.png", options: insets,
      mustMention: ["/nonexistent/photo.png", "no such file"]),
    BadInput(
      name: "not a PNG", input: fixture("not_a_png.png"), options: insets, mustMention: ["not_a_png.png", "not a PNG"]),
    BadInput(name: "a folder", input: fixturesFolder.path, options: insets, mustMention: ["Fixtures", "folder"]),
    BadInput(
      name: "100000x100000 header", input: fixture("huge_header.png"), options: insets,
      // Over the largest limit there is (2^31 pixels): no flag raises it that far.
      mustMention: ["huge_header.png", "100000x100000", "more than glass-gpu can hold in memory"]),
    BadInput(
      name: "negative inset", input: good, options: ["--leading", "-5", "--trailing", "8"],
      mustMention: ["--leading", "-5", "range"]),
    BadInput(
      name: "non-numeric inset", input: good, options: ["--leading", "wide", "--trailing", "8"],
      mustMention: ["--leading", "wide"]),
    BadInput(
      name: "NaN sigma", input: good, options: insets + ["--sigma", "nan"], mustMention: ["--sigma", "number"]),
    BadInput(name: "infinite sigma", input: good, options: insets + ["--sigma", "inf"], mustMention: ["--sigma"]),
    BadInput(
      name: "negative sigma", input: good, options: insets + ["--sigma", "-1"], mustMention: ["--sigma", "range"]),
    BadInput(
      name: "bad depth", input: good, options: insets + ["--depth", "12"], mustMention: ["--depth", "8 or 16"]),
    BadInput(
      name: "canvas over the pixel limit", input: good,
      options: ["--leading", "1000", "--trailing", "1000", "--top", "1000", "--max-pixels", "1000000"],
      mustMention: ["canvas", "2013x1007", "raise the pixel limit if you mean it (--max-pixels 2027091)"]),
    BadInput(
      name: "canvas over the largest pixel limit", input: good,
      options: ["--leading", "60000", "--trailing", "60000", "--top", "60000", "--max-pixels", "1000000"],
      mustMention: ["canvas", "120013x60007", "more than glass-gpu can hold in memory"]),
  ]
}

@Suite("Command line, end to end")
struct CLITests {
  @Test(
    "bad input: a short message naming the file or option, a non-zero exit, no output file",
    arguments: BadInput.all, ["cpu", "auto"])
  func badInput(_ bad: BadInput, backend: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.png").path
    // With auto, the GL context starts while the input is read: a failure must
    // still end cleanly (exit 1, not a crash in EGL teardown).
    let result = try runCLI(["extend", bad.input, "-o", output, "--backend", backend] + bad.options)
    if bad.isUsageError {
      #expect(result.status == 64, "\(result.stderr)")
    } else {
      #expect(result.status == 1, "\(result.stderr)")
      // (With auto and no EGL, the note that the CPU renders comes first.)
      let lines = result.stderr.split(separator: "\n").filter { !$0.contains("no GPU, rendering on the CPU") }
      #expect(lines.count == 1 && lines[0].hasPrefix("glass-gpu: "), "one line: \(result.stderr)")
    }
    for word in bad.mustMention {
      #expect(result.stderr.contains(word), "stderr should mention \(word): \(result.stderr)")
    }
    #expect(files(in: folder).isEmpty, "left behind: \(files(in: folder))")
  }

  @Test("an existing output is replaced by the extension of the input, and nothing else is left")
  func outputReplaced() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("photo.png").path
    let output = folder.appendingPathComponent("out.png").path
    let image = ProceduralImages.gradient(width: 30, height: 20)
    try PNGCodec.write(image, to: input)
    try PNGCodec.write(ProceduralImages.checker(width: 3, height: 3), to: output)
    let result = try runCLI(["extend", input, "-o", output, "--backend", "cpu", "--leading", "5", "--trailing", "7"])
    #expect(result.status == 0, "\(result.stderr)")
    // The new file is the extension of the input: the same pixels as the library's.
    var timings = RenderTimings()
    let expected = try Renderer(backend: .cpu).render(
      BackgroundExtensionEffect(.init(leadingPixels: 5, trailingPixels: 7)), on: image, timings: &timings)
    let written = try PNGCodec.read(path: output).image
    #expect(written.size == PixelSize(width: 42, height: 20))
    let same = written == expected  // not inside #expect: it would print every sample
    #expect(same, "the written pixels are not the CPU render's")
    let inputKept = try PNGCodec.read(path: input).image == image
    #expect(inputKept, "the input changed")
    #expect(files(in: folder) == ["out.png", "photo.png"])
  }

  @Test("an output path that cannot be written fails before any decoding, says why, and leaves nothing")
  func unwritableOutput() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("taken.png"), withIntermediateDirectories: false)
    try Data("not a folder".utf8).write(to: folder.appendingPathComponent("file"))
    // (output, words the message must hold, the folder that must be left as it was)
    let cases: [(String, [String], URL)] = [
      ("", ["output", "empty"], folder),
      (folder.appendingPathComponent("taken.png").path, ["cannot write", "taken.png", "folder"], folder),
      (folder.appendingPathComponent("file/out.png").path, ["cannot write", "file/out.png"], folder),
      ("/proc/glass-gpu-test.png", ["cannot write", "/proc/glass-gpu-test.png"], folder),
    ]
    for (output, words, watched) in cases {
      let before = files(in: watched)
      let procBefore = files(in: URL(fileURLWithPath: "/proc")).filter { !$0.allSatisfy(\.isNumber) }
      // Run in `folder`, so that a temporary for the empty path would land there.
      let result = try runCLI(["extend", "/nonexistent/input.png", "-o", output] + BadInput.insets, in: folder)
      expectRefused(result, mentioning: words, leaving: watched, as: before)
      // The output is checked first: the missing input is not what is reported.
      #expect(!result.stderr.contains("/nonexistent/input.png"), "\(result.stderr)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("taken.png").path).isEmpty)
      // /proc gains nothing but processes.
      #expect(files(in: URL(fileURLWithPath: "/proc")).filter { !$0.allSatisfy(\.isNumber) } == procBefore)
    }
  }

  @Test("an output whose missing folder cannot be made fails before any work, naming the folder, exit 1")
  func missingOutputFolder() throws {
    // procfs makes no folder, whoever asks (a missing folder elsewhere is made).
    let folder = "/proc/glass-gpu-\(getpid())/dir"
    let result = try runCLI(["extend", BadInput.good, "-o", folder + "/out.png"] + BadInput.insets)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("cannot make the folder \(folder)"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: "/proc/glass-gpu-\(getpid())"))
  }

  @Test("extend --max-pixels refuses an input, or a canvas, over it though under the default limit")
  func extendMaxPixels() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.png").path
    // rgba8.png is 13 x 7 = 91 pixels; with 8 + 8 px of insets the canvas is 29 x 7 = 203.
    for (limit, words) in [
      (90, ["rgba8.png", "91 pixels", "limit of 90 pixels"]), (150, ["canvas", "203 pixels", "limit of 150 pixels"]),
    ] {
      let before = files(in: folder)
      let result = try runCLI(
        ["extend", BadInput.good, "-o", output, "--backend", "cpu", "--max-pixels", "\(limit)"] + BadInput.insets)
      expectRefused(result, mentioning: words + ["--max-pixels"], leaving: folder, as: before)
    }
    // At the canvas's own size it renders.
    let fits = try runCLI(
      ["extend", BadInput.good, "-o", output, "--backend", "cpu", "--max-pixels", "203"] + BadInput.insets)
    #expect(fits.status == 0, "\(fits.stderr)")
    #expect(try PNGCodec.read(path: output).image.size == PixelSize(width: 29, height: 7))
  }

  @Test("render --max-pixels refuses a canvas, or an image, over it though under the default limit")
  func renderMaxPixels() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A 40 x 30 canvas (1200 pixels) showing a 64 x 64 image (4096 pixels).
    try PNGCodec.write(
      ProceduralImages.gradient(width: 64, height: 64), to: folder.appendingPathComponent("big.png").path)
    let scene = folder.appendingPathComponent("scene.json")
    try Data(
      SceneJSON.scene(
        width: 40, height: 30, scale: 1,
        layers: #"{"type": "image", "source": "big.png", "frame": {"width": 20, "height": 20}}"#
      )
      .utf8
    ).write(to: scene)
    let output = folder.appendingPathComponent("out.png").path
    for (limit, words) in [
      (1000, ["canvas", "1200 pixels", "limit of 1000 pixels"]),
      (4000, ["big.png", "4096 pixels", "limit of 4000 pixels"]),
    ] {
      let before = files(in: folder)
      let result = try runCLI(["render", scene.path, "-o", output, "--backend", "cpu", "--max-pixels", "\(limit)"])
      expectRefused(result, mentioning: words + ["--max-pixels"], leaving: folder, as: before)
    }
    let fits = try runCLI(["render", scene.path, "-o", output, "--backend", "cpu", "--max-pixels", "4096"])
    #expect(fits.status == 0, "\(fits.stderr)")
    #expect(try PNGCodec.read(path: output).image.size == PixelSize(width: 40, height: 30))
  }

  @Test(
    "--compression 0 and 12 write valid PNGs of the same pixels, level 0 the larger",
    arguments: ["render", "extend"])
  func compression(command: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.png").path
    try PNGCodec.write(ProceduralImages.landscape(width: 96, height: 64), to: input)
    let scene = folder.appendingPathComponent("scene.json")
    try Data(
      SceneJSON.scene(
        width: 120, height: 80, scale: 1, background: "white",
        layers:
          #"{"type": "image", "source": "in.png", "frame": {"x": 12, "y": 8, "width": 96, "height": 64}}, {"type": "glass", "frame": {"x": 20, "y": 20, "width": 80, "height": 30}}"#
      )
      .utf8
    ).write(to: scene)
    var sizes: [Int] = []
    var images: [RGBAImage] = []
    for level in [0, 12] {
      let output = folder.appendingPathComponent("out\(level).png").path
      let arguments =
        command == "render"
        ? ["render", scene.path, "-o", output]
        : ["extend", input, "-o", output, "--leading", "20", "--trailing", "20", "--sigma", "6"]
      let result = try runCLI(arguments + ["--backend", "cpu", "--compression", "\(level)"])
      #expect(result.status == 0, "\(result.stderr)")
      let decoded = try PNGCodec.read(path: output)
      #expect(decoded.warnings.isEmpty)
      images.append(decoded.image)
      sizes.append(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0)
    }
    let same = images[0] == images[1]  // not inside #expect: it would print every sample
    #expect(same, "levels 0 and 12 decode to different pixels")
    // Level 0 stores the rows (4 bytes a pixel, a filter byte a row); 12 compresses.
    let raw = 4 * images[0].width * images[0].height
    #expect(sizes[0] >= raw && sizes[1] < sizes[0] / 2, "level 0: \(sizes[0]) bytes, level 12: \(sizes[1]), raw \(raw)")
  }

  @Test(
    "--timings prints one JSON line with the six keys and the caches' sizes; the CPU reports no upload or readback")
  func timings() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.png").path
    let result = try runCLI(["extend", BadInput.good, "-o", output, "--backend", "cpu", "--timings"] + BadInput.insets)
    #expect(result.status == 0, "\(result.stderr)")
    let line = try #require(result.stderr.split(separator: "\n").last)
    var all = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let caches = try #require(all.removeValue(forKey: "caches") as? [String: [String: Double]])
    #expect(
      Set(caches.keys) == [
        "fonts", "font matches", "glyphs", "text masks", "text layouts", "shaped text", "icons", "images",
        "textures",
      ])
    for (name, numbers) in caches {
      #expect(Set(numbers.keys) == ["entries", "bytes", "budget_bytes", "evictions", "hits", "misses"], "\(name)")
      #expect((numbers["bytes"] ?? 1) <= (numbers["budget_bytes"] ?? 0), "\(name)")
    }
    let object = try #require(all as? [String: Double])
    #expect(Set(object.keys) == ["decode_ms", "upload_ms", "render_ms", "readback_ms", "encode_ms", "total_ms"])
    #expect(object["upload_ms"] == 0 && object["readback_ms"] == 0)
    #expect((object["total_ms"] ?? 0) >= (object["decode_ms"] ?? 0) + (object["encode_ms"] ?? 0))
    #expect(files(in: folder) == ["out.png"])
  }

  @Test("--depth 16 writes a 16-bit PNG whose 8-bit rounding is the 8-bit output")
  func depth16() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out8 = folder.appendingPathComponent("8.png").path
    let out16 = folder.appendingPathComponent("16.png").path
    let common = ["--backend", "cpu", "--sigma", "0"] + BadInput.insets
    #expect(try runCLI(["extend", BadInput.fixture("rgba16.png"), "-o", out8] + common).status == 0)
    #expect(try runCLI(["extend", BadInput.fixture("rgba16.png"), "-o", out16, "--depth", "16"] + common).status == 0)
    let eight = try PNGCodec.read(path: out8)
    let sixteen = try PNGCodec.read(path: out16)
    #expect(eight.header.bitDepth == 8 && sixteen.header.bitDepth == 16)
    let same = sixteen.image.converted(to: .eight) == eight.image  // not inside #expect: it would print every sample
    #expect(same, "the 16-bit output rounded to 8 bits is not the 8-bit output")
  }

  @Test("compare reports the difference and fails over --max-diff")
  func compare() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.png").path
    let b = folder.appendingPathComponent("b.png").path
    let diff = folder.appendingPathComponent("diff.png").path
    try PNGCodec.write(ProceduralImages.gradient(width: 20, height: 10), to: a)
    var changed = ProceduralImages.gradient(width: 20, height: 10)
    if case .eight(var v) = changed.samples {
      v[0] = v[0] > 128 ? v[0] - 3 : v[0] + 3
      changed.samples = .eight(v)
    }
    try PNGCodec.write(changed, to: b)
    let same = try runCLI(["compare", a, a, "--max-diff", "0"])
    #expect(same.status == 0)
    #expect(same.stdout.contains("max difference 0/255"))
    let differ = try runCLI(["compare", a, b, "--diff", diff, "--max-diff", "2"])
    #expect(differ.status == 1)
    #expect(differ.stdout.contains("max difference 3/255"), "\(differ.stdout)")
    #expect(differ.stdout.contains("1 pixels"))
    #expect(differ.stderr.contains("--max-diff"))
    #expect(FileManager.default.fileExists(atPath: diff))
    #expect(try runCLI(["compare", a, b, "--max-diff", "3"]).status == 0)
    // One pixel of 200 is 0.5 %.
    #expect(try runCLI(["compare", a, b, "--max-share", "0.4"]).status == 1)
    #expect(try runCLI(["compare", a, b, "--max-share", "0.6"]).status == 0)
    let json = try runCLI(["compare", a, b, "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["max_diff"] as? Double == 3)
    let mismatch = try runCLI(["compare", a, BadInput.good])
    #expect(mismatch.status == 1 && mismatch.stderr.contains("size"))
  }

  @Test("with EGL unavailable, --backend gpu fails clearly and --backend auto renders on the CPU and says so")
  func noGPU() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let noEGL = ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent"]
    let gpu = folder.appendingPathComponent("gpu.png").path
    let auto = folder.appendingPathComponent("auto.png").path
    let cpu = folder.appendingPathComponent("cpu.png").path
    let failed = try runCLI(
      ["extend", BadInput.good, "-o", gpu, "--backend", "gpu"] + BadInput.insets, environment: noEGL)
    #expect(failed.status == 1, "\(failed.stderr)")
    #expect(failed.stderr.contains("no EGL display"), "\(failed.stderr)")
    #expect(failed.stderr.contains("--backend cpu"))
    #expect(!FileManager.default.fileExists(atPath: gpu))
    let fellBack = try runCLI(
      ["extend", BadInput.good, "-o", auto, "--backend", "auto"] + BadInput.insets, environment: noEGL)
    #expect(fellBack.status == 0, "\(fellBack.stderr)")
    #expect(fellBack.stderr.contains("rendering on the CPU"))
    #expect(try runCLI(["extend", BadInput.good, "-o", cpu, "--backend", "cpu"] + BadInput.insets).status == 0)
    let same = try PNGCodec.read(path: auto).image == PNGCodec.read(path: cpu).image
    #expect(same, "auto without EGL did not render the CPU's pixels")
    let info = try runCLI(["info"], environment: noEGL)
    #expect(info.status == 1 && info.stdout.contains("unavailable"))
  }

  @Test(
    "info names the platform, the driver and why other platforms were not used",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func info() throws {
    let text = try runCLI(["info"])
    #expect(text.status == 0)
    for key in ["platform:", "EGL vendor:", "GL renderer:", "GLSL version:", "max texture:", "not used: gbm"] {
      #expect(text.stdout.contains(key), "\(key) in \(text.stdout)")
    }
    let json = try runCLI(["info", "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["platform"] as? String != nil)
    #expect((object["attempts"] as? [[String: Any]])?.count == 3)
  }

  @Test(
    "the CLI renders the same picture on both backends, and keeps the image exact",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func bothBackends() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.png").path
    let image = ProceduralImages.landscape(width: 160, height: 90)
    try PNGCodec.write(image, to: input)
    var outputs: [RGBAImage] = []
    for backend in ["gpu", "cpu"] {
      let output = folder.appendingPathComponent("\(backend).png").path
      let result = try runCLI(
        [
          "extend", input, "-o", output, "--backend", backend, "--leading", "48", "--trailing", "40", "--top", "12",
          "--sigma", "16",
        ])
      #expect(result.status == 0, "\(result.stderr)")
      outputs.append(try PNGCodec.read(path: output).image)
    }
    ParityTests.bar.check(try ImageComparison(outputs[0], outputs[1]), "CLI gpu vs cpu")
    var interior = RGBAImage(size: image.size, depth: .eight)
    interior.copy(PixelRect(x: 48, y: 12, width: 160, height: 90), from: outputs[0], to: PixelPoint(x: 0, y: 0))
    let exact = interior == image  // not inside #expect: it would print every sample
    #expect(exact, "the image inside the canvas is not the input")
  }
}
