import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// One GPU/CPU parity case.
struct ParityCase: Sendable, CustomTestStringConvertible {
  var name: String
  var image: RGBAImage
  var effect: BackgroundExtensionEffect
  var depth: RGBAImage.Depth = .eight

  var testDescription: String {
    "\(name) \(image.size), sigma \(effect.parameters.sigmaPixels), \(depth.rawValue)-bit out"
  }

  static let landscape = ProceduralImages.landscape(width: 480, height: 270)

  static let all: [ParityCase] = {
    var cases: [ParityCase] = []
    for sigma: Double in [0, 0.5, 2, 3.9, 4, 8, 24, 64, 150] {
      cases.append(
        ParityCase(
          name: "landscape", image: landscape,
          effect: BackgroundExtensionEffect(
            .init(leadingPixels: 120, trailingPixels: 97, topPixels: 40, bottomPixels: 31, sigmaPixels: sigma))))
    }
    cases.append(
      ParityCase(
        name: "translucent noise", image: ProceduralImages.noise(width: 97, height: 61, seed: 9, alpha: true),
        effect: BackgroundExtensionEffect(.init(leadingPixels: 64, trailingPixels: 64, sigmaPixels: 12))))
    cases.append(
      ParityCase(
        name: "landscape", image: landscape,
        effect: BackgroundExtensionEffect(.init(leadingPixels: 80, trailingPixels: 80, sigmaPixels: 24)),
        depth: .sixteen))
    cases.append(
      ParityCase(
        name: "16-bit input", image: landscape.converted(to: .sixteen),
        effect: BackgroundExtensionEffect(.init(leadingPixels: 80, trailingPixels: 33, topPixels: 9, sigmaPixels: 6))))
    return cases
  }()
}

@Suite("GPU and CPU render the same pixels")
struct ParityTests {
  /// What the README states (Accuracy and parity): no channel off by more than
  /// 1/255, so no pixel over 1/255 (the bar was 2/255 and 0.1 %). And, for
  /// an error under one step that touches every pixel, PSNR >= 75 dB and no
  /// channel's mean off by more than 0.01/255. What bounds them: both backends
  /// round what they store once, to the nearest binary16 (see
  /// `SceneRenderingTests.demoBar`); the pyramid's levels part only where the
  /// driver's bilinear weights put a value on the other side of a rounding
  /// boundary. Measured on llvmpipe over these cases: PSNR 80.24 dB at the least
  /// (sigma 150, six levels), mean bias 0.0017/255 at the most. While llvmpipe
  /// rounded the levels toward zero: 58.07 dB and 0.163/255.
  static let bar = ParityBar(maxDifference: 1, fractionOverOne: 0, minimumPSNR: 75, maximumMeanBias: 0.01)

  @Test(.enabled(if: TestGPU.isAvailable, TestGPU.skipReason), arguments: ParityCase.all)
  func parity(_ c: ParityCase) throws {
    let gpu = try TestBackend.gpu.render(c.effect, on: c.image, depth: c.depth)
    let cpu = try TestBackend.cpu.render(c.effect, on: c.image, depth: c.depth)
    Self.bar.check(try ImageComparison(gpu, cpu), "parity \(c.testDescription)")
  }
}

/// `make test-softpipe` runs the GPU suites a second time on Mesa's other
/// software driver, softpipe (OpenGL ES 3.1), by setting `GALLIUM_DRIVER`.
/// Passes read only texels that a pass wrote or an upload filled: a GPU backend
/// whose new textures start as NaN renders as the CPU does. Texture memory no one
/// wrote holds whatever the driver left there: zeros on llvmpipe, often, and on
/// softpipe bytes that read as NaN, which a bilinear tap's weight of 0 does not
/// cancel.
@Suite("GPU: no texel read before it is written")
struct UnwrittenTexelTests {
  /// A backend of its own whose new textures hold NaN, its pool emptied before
  /// each render so that every texture is new.
  static func render(_ prepared: [PreparedRender]) throws -> [RGBAImage] {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let backend = try GLESBackend(poisoningNewTextures: true)
    defer { backend.close() }
    var timings = RenderTimings()
    return try prepared.map {
      try backend.trimPool(toBytes: 0)
      return try RenderExecutor.execute($0.compiled, on: backend, timings: &timings)
    }
  }

  @Test(
    "the extension's parity cases on new NaN textures are within the parity bar of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func extensionCases() throws {
    let cases = ParityCase.all
    let gpu = try Self.render(cases.map { try Renderer.prepare($0.effect, on: $0.image, depth: $0.depth) })
    for (c, image) in zip(cases, gpu) {
      let cpu = try TestBackend.cpu.render(c.effect, on: c.image, depth: c.depth)
      ParityTests.bar.check(try ImageComparison(image, cpu), "on NaN textures: \(c.testDescription)")
    }
  }

  @Test(
    "every demo scene on new NaN textures is within the demo parity bar of the CPU",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func scenes() throws {
    let names = DemoScenes.all
    let prepared = try names.map { name in
      let (scene, images) = try DemoScenes.load(name)
      return try Renderer.prepare(scene, images: images, depth: .eight)
    }
    let gpu = try Self.render(prepared)
    let cpu = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    for (name, (job, image)) in zip(names, zip(prepared, gpu)) {
      let reference = try cpu.render(job, timings: &timings)
      SceneRenderingTests.demoBar.check(try ImageComparison(image, reference), "on NaN textures: \(name)")
    }
  }
}

@Suite("GPU driver")
struct GPUDriverTests {
  /// The Mesa driver `GALLIUM_DRIVER` names, nil when it is unset or empty.
  static let namedDriver = ProcessInfo.processInfo.environment["GALLIUM_DRIVER"].flatMap { $0.isEmpty ? nil : $0 }

  @Test(
    "with GALLIUM_DRIVER set, the GPU tests run on that Mesa driver (GL_RENDERER names it)",
    .enabled(if: namedDriver != nil && TestGPU.isAvailable, "GALLIUM_DRIVER is unset or no GPU"))
  func runsOnNamedDriver() throws {
    let driver = try #require(Self.namedDriver)
    let info = try #require(try TestGPU.requireRenderer().gles?.info)
    #expect(
      info.glRenderer.lowercased().contains(driver.lowercased()),
      "GALLIUM_DRIVER=\(driver) but the GL renderer is \(info.glRenderer) (OpenGL ES \(info.contextVersion))")
    print("GPU tests run on \(info.glRenderer), OpenGL ES \(info.contextVersion) context, \(info.glVersion)")
  }
}

@Suite("Resources: nothing leaks")
struct ResourceTests {
  @Test(
    "after a render the texture pool and the live GL objects are back where they started",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func noGPULeaks() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let renderer = try Renderer(backend: .gpu)
    defer { renderer.close() }
    let gles = try #require(renderer.gles)
    let image = ProceduralImages.gradient(width: 64, height: 40)
    let effect = BackgroundExtensionEffect(.init(leadingPixels: 30, trailingPixels: 20, topPixels: 8, sigmaPixels: 24))
    var timings = RenderTimings()
    let before = try gles.objectCounts()
    #expect(before.poolInUse == 0 && before.poolIdle == 0 && before.textures == 0 && before.framebuffers == 0)

    _ = try renderer.render(effect, on: image, timings: &timings)
    let first = try gles.objectCounts()
    #expect(first.poolInUse == 0, "\(first)")
    #expect(first.keptSources == 1, "the source is kept for a later render of it: \(first)")
    #expect(first.textures == first.poolIdle + first.keptSources, "every other texture is idle in the pool: \(first)")

    // A second render of the same shape reuses the pool: nothing new is made.
    _ = try renderer.render(effect, on: image, timings: &timings)
    #expect(try gles.objectCounts() == first)

    try gles.trimPool(toBytes: 0)
    let trimmed = try gles.objectCounts()
    #expect(trimmed.textures == before.textures, "\(trimmed)")
    #expect(trimmed.framebuffers == before.framebuffers, "\(trimmed)")
    #expect(trimmed.poolIdle == 0 && trimmed.poolInUse == 0, "\(trimmed)")
  }

  @Test(
    "closing a renderer lets go of its use of the shared EGL display",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func displayReferenceCount() throws {
    _ = TestGPU.renderer
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let users = EGLDisplayConnection.userCount
    let renderer = try Renderer(backend: .gpu)
    #expect(EGLDisplayConnection.userCount == users + 1)
    renderer.close()
    #expect(EGLDisplayConnection.userCount == users)
    // The shared renderer still works: the display was not terminated under it.
    var timings = RenderTimings()
    let image = ProceduralImages.checker(width: 9, height: 9)
    _ = try TestGPU.requireRenderer().render(
      BackgroundExtensionEffect(.init(leadingPixels: 4, trailingPixels: 4, sigmaPixels: 2)), on: image,
      timings: &timings)
    // And a closed renderer refuses to render rather than crash.
    #expect(throws: GlassError.self) {
      try renderer.render(
        BackgroundExtensionEffect(.init(leadingPixels: 4, trailingPixels: 4)), on: image, timings: &timings)
    }
  }

  @Test(
    "an image or canvas over the GPU's largest texture is refused before any GL call, naming the fix",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func textureLimit() throws {
    let renderer = try TestGPU.requireRenderer()
    let limit = try #require(renderer.gles?.info.maxTextureSize)
    var timings = RenderTimings()
    let wide = RGBAImage(size: PixelSize(width: limit + 1, height: 1), depth: .eight)
    let narrow = RGBAImage(size: PixelSize(width: 8, height: 1), depth: .eight)
    for (image, leading) in [(wide, 0), (narrow, limit)] {
      let effect = BackgroundExtensionEffect(.init(leadingPixels: leading, trailingPixels: 1))
      let error = #expect(throws: GlassError.self) {
        try renderer.render(effect, on: image, timings: &timings)
      }
      #expect(error?.code == .imageTooLarge)
      #expect(error?.hint == .useCPUBackend && error?.message.hasSuffix("render on the CPU backend") == true)
    }
    // The CPU backend has no such limit.
    let cpu = try Renderer(backend: .cpu)
    let extended = try cpu.render(
      BackgroundExtensionEffect(.init(leadingPixels: limit, trailingPixels: 1, sigmaPixels: 0)), on: narrow,
      timings: &timings)
    #expect(extended.width == limit + 9)
  }

  @Test(
    "with --backend auto, a render over the GPU's texture limit runs on the CPU and says why",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func autoFallsBackPerRender() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let renderer = try Renderer(backend: .auto)
    defer { renderer.close() }
    #expect(renderer.backendName == "gpu")
    let limit = try #require(renderer.gles?.info.maxTextureSize)
    let image = ProceduralImages.gradient(width: 9, height: 3)
    let effect = BackgroundExtensionEffect(.init(leadingPixels: limit, trailingPixels: 2, sigmaPixels: 0))
    var timings = RenderTimings()
    let output = try renderer.render(effect, on: image, timings: &timings)
    #expect(timings.fallbackReason?.contains("largest texture") == true)
    var cpuTimings = RenderTimings()
    #expect(try Renderer(backend: .cpu).render(effect, on: image, timings: &cpuTimings) == output)
  }

  @Test("a closed GPU backend throws instead of hanging", .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func useAfterClose() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let backend = try GLESBackend()
    backend.close()
    #expect(throws: GlassError.self) { try backend.objectCounts() }
    #expect(throws: GlassError.self) { try backend.trimPool() }
    backend.close()
  }

  @Test("one CPU renderer used from several threads at once renders each image right")
  func concurrentCPURenders() async throws {
    let renderer = try Renderer(backend: .cpu)
    let image = ProceduralImages.landscape(width: 64, height: 40)
    let effect = BackgroundExtensionEffect(.init(leadingPixels: 20, trailingPixels: 16, topPixels: 6, sigmaPixels: 9))
    var timings = RenderTimings()
    let expected = try renderer.render(effect, on: image, timings: &timings)
    try await withThrowingTaskGroup(of: RGBAImage.self) { group in
      for _ in 0..<8 {
        group.addTask {
          var timings = RenderTimings()
          return try renderer.render(effect, on: image, timings: &timings)
        }
      }
      for try await output in group { #expect(output == expected) }
    }
  }

  @Test("a blur whose intermediate images would pass the working-memory limit is refused before rendering")
  func workingMemoryLimit() throws {
    let image = RGBAImage(size: PixelSize(width: 10, height: 20_000), depth: .eight)
    let effect = BackgroundExtensionEffect(.init(leadingPixels: 4000, trailingPixels: 4000, sigmaPixels: 2000))
    var timings = RenderTimings()
    let error = #expect(throws: GlassError.self) {
      try Renderer(backend: .cpu).render(effect, on: image, maxPixels: 200_000_000, timings: &timings)
    }
    #expect(error?.code == .imageTooLarge)
    #expect(
      error?.hint == .lowerSigma && error?.message.hasSuffix("lower the sigma") == true, "\(String(describing: error))")
  }

  @Test("the CPU pool has nothing in use after a render")
  func noCPULeaks() throws {
    let renderer = try Renderer(backend: .cpu)
    var timings = RenderTimings()
    _ = try renderer.render(
      BackgroundExtensionEffect(.init(leadingPixels: 30, trailingPixels: 20, sigmaPixels: 24)),
      on: ProceduralImages.gradient(width: 64, height: 40), timings: &timings)
    #expect(try #require(renderer.cpu).poolInUse == 0)
    #expect(timings.uploadMilliseconds == 0 && timings.readbackMilliseconds == 0)
    #expect(timings.renderMilliseconds > 0)
  }
}

/// Uniform structs that do not match the GLSL of `upsample.glsl`.
struct ExtraUniform: ShaderUniforms {
  func encode(into encoder: inout UniformEncoder) {
    UpsampleUniforms(parameters: Upsample(map: PixelMap(scale: 0.5, offsetX: 0, offsetY: 0))).encode(into: &encoder)
    encoder.set("u_extra", .float(1))
  }
}

struct MissingUniform: ShaderUniforms {
  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_scale", .vec2(0.5, 0.5))
  }
}

struct WrongType: ShaderUniforms {
  func encode(into encoder: inout UniformEncoder) {
    encoder.set("u_source", .sampler(unit: 0, integer: false))
    encoder.set("u_scale", .float(0.5))
    encoder.set("u_offset", .vec2(0, 0))
  }
}

@Suite("Shaders: interface checks and error reports")
struct ShaderTests {
  let key = ProgramKey(primitive: "upsample", defines: ["OUTPUT_LINEAR_HALF"])

  @Test(
    "a uniform struct that does not match its GLSL fails loudly, naming the uniform",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func uniformMismatch() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let backend = try GLESBackend()
    defer { backend.close() }
    let problems: [(any ShaderUniforms, String)] = [
      (ExtraUniform(), "u_extra"), (MissingUniform(), "u_offset"), (WrongType(), "u_scale"),
    ]
    for (uniforms, name) in problems {
      let error = try backend.perform { () -> GlassError? in
        let program = try GLProgram(key: key)
        defer { program.delete() }
        do {
          try program.apply(uniforms)
          return nil
        } catch let error as GlassError {
          return error
        }
      }
      let found = try #require(error, "\(name): expected a mismatch error")
      #expect(found.code == .shaderFailure)
      #expect(found.cause?.contains(name) == true, "\(found)")
    }
    // The real struct matches.
    try backend.perform {
      let program = try GLProgram(key: key)
      defer { program.delete() }
      try program.apply(UpsampleUniforms(parameters: Upsample(map: PixelMap(scale: 0.5, offsetX: 0, offsetY: 0))))
    }
  }

  @Test(
    "a shader that fails to compile reports the driver's info log",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func compileError() throws {
    TestGPU.ownBackends.lock()
    defer { TestGPU.ownBackends.unlock() }
    let backend = try GLESBackend()
    defer { backend.close() }
    let broken = ProgramKey(primitive: "upsample", defines: ["OUTPUT_LINEAR_HALF", "u_scale 1.0"])
    let error = try backend.perform { () -> GlassError? in
      do {
        _ = try GLProgram(key: broken)
        return nil
      } catch let error as GlassError {
        return error
      }
    }
    let found = try #require(error)
    #expect(found.code == .shaderFailure)
    #expect(found.message.contains("upsample"))
    #expect(found.cause?.lowercased().contains("error") == true, "\(found)")
  }

  @Test(
    "every primitive's every variant compiles and matches its uniform struct",
    .enabled(if: TestGPU.isAvailable, TestGPU.skipReason))
  func allVariantsCompile() throws {
    // Rendering each path through each output format exercises every program;
    // each output is the CPU's within the parity bar's 2/255 (the images are too
    // small for the PSNR and mean-bias bars to mean much).
    let image = ProceduralImages.gradient(width: 12, height: 9)
    let sixteen = image.converted(to: .sixteen)
    for sigma: Double in [0, 2, 8] {
      for source in [image, sixteen] {
        for depth in RGBAImage.Depth.allCases {
          let effect = BackgroundExtensionEffect(.init(leadingPixels: 6, trailingPixels: 3, sigmaPixels: sigma))
          let gpu = try TestBackend.gpu.render(effect, on: source, depth: depth)
          let cpu = try TestBackend.cpu.render(effect, on: source, depth: depth)
          #expect(gpu.depth == depth && gpu.size == PixelSize(width: 21, height: 9))
          let c = try ImageComparison(gpu, cpu)
          #expect(
            c.maxDifference <= 2,
            "sigma \(sigma), \(source.depth.rawValue) -> \(depth.rawValue) bits: \(c.summary)")
        }
      }
    }
  }
}
