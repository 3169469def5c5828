import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Scenes rendered across a matrix of environments: variants' names, their
/// references and test cases, the CPU's references checked on the GPU in every
/// variant, and the command line's `--environments`.
@Suite("Environment variants")
struct EnvironmentMatrixTests {
  /// Eight variants: the settings alone and combined, the glass looks among
  /// them (dark, tinted, Increase Contrast, Reduce Transparency).
  static let variants =
    "light,dark,dark+increaseContrast,rtl,accessibility3,dark+rtl+xSmall,tinted+reduceTransparency,dark+tinted"
  /// Demo scenes with view trees, text, glass, materials and system colours.
  static let scenes = ["layout-signin", "layout-badges", "layout-custom-views", "landmarks", "glass-looks"]

  @Test("a variant's name reads into settings, later words winning; bad words and repeats are refused")
  func names() throws {
    let v = try EnvironmentVariant("dark+rtl+accessibility3+light")
    let env = v.applied(to: EnvironmentValues())
    #expect(env.colorScheme == .light && env.layoutDirection == .rightToLeft && env.dynamicTypeSize == .accessibility3)
    #expect(try EnvironmentVariant("default").applied(to: EnvironmentValues()).isDefault)
    #expect(
      try EnvironmentVariant("dynamicTypeSize=xLarge").applied(to: EnvironmentValues()).dynamicTypeSize == .xLarge)
    #expect(v.output(for: "/refs/a/landmarks.png") == "/refs/a/landmarks.dark+rtl+accessibility3+light.png")
    let list = try EnvironmentVariant.list(Self.variants)
    #expect(list.map(\.name) == Self.variants.split(separator: ",").map(String.init))
    for (bad, words) in [
      ("dark+purple", "\"purple\" in the variant"), ("dark,,rtl", "empty"), ("dark,dark", "given twice"),
      ("colorScheme=blue", "cannot be \"blue\""),
    ] {
      let error = #expect(throws: GlassError.self) { try EnvironmentVariant.list(bad) }
      #expect(error?.message.contains(words) == true, "\(bad): \(String(describing: error))")
    }
  }

  @Test("a job once per variant: NAME.VARIANT.png, ID [VARIANT], the variant over the line's own environment")
  func jobs() throws {
    var job = BatchJob(id: "hero", scene: .file("a.json"), output: "/out/hero.png")
    job.environment = try EnvironmentVariant("accessibility3")
    let jobs = job.variants(try EnvironmentVariant.list("dark,rtl"))
    #expect(jobs.map(\.output) == ["/out/hero.dark.png", "/out/hero.rtl.png"])
    #expect(jobs.map(\.id) == ["hero [dark]", "hero [rtl]"])
    let env = try #require(jobs[1].environment).applied(to: EnvironmentValues())
    #expect(env.dynamicTypeSize == .accessibility3 && env.layoutDirection == .rightToLeft)
    #expect(job.variants([]).map(\.output) == ["/out/hero.png"])
  }

  @Test(
    "the demo scenes' goldens in eight variants: one reference and one named case each, the GPU within the parity bar of the CPU in every one",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func matrixOnBothBackends() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let variants = try EnvironmentVariant.list(Self.variants)
    let inputs = Self.scenes.map { DemoScenes.path($0) }
    func run(_ renderer: Renderer, record: GoldenRecordMode, artifacts: String) throws -> GoldenReport {
      var options = GoldenCheckOptions(references: root.path + "/refs", artifacts: root.path + "/" + artifacts)
      options.record = record
      options.keepRenders = true
      options.batch.scale = 1
      // The GPU's renders are compared with the CPU's references below, within the bar.
      options.limits = ImageComparison.Limits(maxDifference: 255, maxSharePercent: nil)
      let check = try GoldenCheck(renderer: renderer, options: options)
      return check.run(try check.jobs(forInputs: inputs).flatMap { BatchEntry.job($0).variants(variants) })
    }
    let cpu = try run(Renderer(backend: .cpu), record: .all, artifacts: "cpu")
    let expectedNames = Self.scenes.flatMap { scene in variants.map { "\(scene).\($0.name)" } }
    #expect(cpu.cases.map(\.name) == expectedNames)
    #expect(cpu.cases.allSatisfy { $0.status == .recorded }, "\(cpu.cases.map { $0.message ?? "" })")
    let xml = cpu.junitXML()
    for name in expectedNames { #expect(xml.contains("name=\"\(name)\""), "the JUnit report lacks \(name)") }
    let gpu = try run(try TestGPU.requireRenderer(), record: .never, artifacts: "gpu")
    #expect(gpu.cases.count == expectedNames.count)
    for scene in Self.scenes {
      let light = try PNGCodec.read(path: "\(root.path)/refs/\(scene).light.png").image
      for variant in variants {
        let file = "\(scene).\(variant.name).png"
        let reference = try PNGCodec.read(path: "\(root.path)/refs/\(file)").image
        let rendered = try PNGCodec.read(path: "\(root.path)/gpu/\(file)").image
        SceneRenderingTests.bar.check(try ImageComparison(rendered, reference), "GPU against CPU, \(file)")
        if scene == "layout-signin" && variant.name != "light" && !variant.name.hasPrefix("tinted") {
          // The sign-in screen has system colours, text styles and a layout
          // that is not symmetric: every variant but the glass-only one (it
          // has no glass) changes its picture.
          #expect(try ImageComparison(reference, light).maxDifference > 0, "\(file) is the light picture")
        }
        if scene == "landmarks" && (variant.name.contains("increaseContrast") || variant.name.contains("tinted")) {
          // Landmarks is small glass over a light sky, laid out absolutely, its
          // colours fixed: dark leaves it as it is (small glass takes the look
          // its backdrop calls for), tinted and Increase Contrast change it.
          #expect(try ImageComparison(reference, light).maxDifference > 0, "\(file) is the light picture")
        }
      }
    }
  }

  @Test("goldens --environments records one reference per variant, passes on them, and names each variant in JUnit")
  func goldensCommand() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let refs = root.appendingPathComponent("refs").path
    let scene = DemoScenes.path("layout-signin")
    let base = ["goldens", scene, "--references", refs, "--scale", "1", "--environments", "dark,rtl+accessibility2"]
    let recorded = try TestProcess.runGlassGPU(base + ["--record", "missing"])
    #expect(recorded.status == 2, "a recording is never a pass (exit 2): \(recorded.stderr)")
    let made = try FileManager.default.contentsOfDirectory(atPath: refs).sorted()
    #expect(made == ["layout-signin.dark.png", "layout-signin.rtl+accessibility2.png"])
    let junit = root.appendingPathComponent("junit.xml").path
    let checked = try TestProcess.runGlassGPU(base + ["--junit", junit])
    #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("name=\"layout-signin.dark\"") && xml.contains("name=\"layout-signin.rtl+accessibility2\""))
    let bad = try TestProcess.runGlassGPU(base.dropLast() + ["dark+sepia", "--junit", junit + ".2"])
    #expect(bad.status == 64 && bad.stderr.contains("--environments: \"sepia\""), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: junit + ".2"))
  }

  @Test("batch --environments and a manifest line's environment render each variant to its own file")
  func batchCommand() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let manifest = root.appendingPathComponent("m.jsonl")
    let scene = SceneJSON.scene(width: 4, height: 4, scale: 1, background: "systemBackground")
    try Data(
      (#"{"scene": \#(scene), "output": "a.png"}"# + "\n"
        + #"{"scene": \#(scene), "output": "b.png", "environment": "dark"}"# + "\n").utf8
    ).write(to: manifest)
    let out = root.appendingPathComponent("out").path
    let plain = try TestProcess.runGlassGPU(["batch", "--manifest", manifest.path, "-o", out, "--backend", "cpu"])
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(try PNGCodec.read(path: out + "/a.png").image.rgba8(0, 0) == SIMD4(255, 255, 255, 255))
    #expect(try PNGCodec.read(path: out + "/b.png").image.rgba8(0, 0) == SIMD4(0, 0, 0, 255))
    let matrix = try TestProcess.runGlassGPU([
      "batch", "--manifest", manifest.path, "-o", out, "--backend", "cpu", "--environments", "light,dark",
    ])
    #expect(matrix.status == 0, "\(matrix.stderr)")
    // The variant wins over the line's own: b.light.png is light.
    for (file, value) in [("a.light", 255), ("a.dark", 0), ("b.light", 255), ("b.dark", 0)] {
      let pixel = try PNGCodec.read(path: "\(out)/\(file).png").image.rgba8(0, 0)
      #expect(pixel == SIMD4(value, value, value, 255), "\(file)")
    }
    try Data(#"{"scene": \#(scene), "output": "c.png", "environment": "sepia"}"#.utf8).write(to: manifest)
    let bad = try TestProcess.runGlassGPU(["batch", "--manifest", manifest.path, "-o", out, "--backend", "cpu"])
    #expect(bad.status == 1 && bad.stderr.contains("environment") && bad.stderr.contains("sepia"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out + "/c.png"))
  }
}
