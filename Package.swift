// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "glass-gpu",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "GLESGlass", targets: ["GLESGlass"]),
    // The swift-snapshot-testing strategy, a product of its own: GLESGlass alone
    // does not pull in swift-snapshot-testing.
    .library(name: "GlassSnapshotTesting", targets: ["GlassSnapshotTesting"]),
    .executable(name: "glass-gpu", targets: ["glass-gpu"]),
    .executable(name: "glass-gpu-bench", targets: ["glass-gpu-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
  ],
  targets: [
    // Private C plumbing: EGL, GLES 3 and a dlopen'd GBM. Only GLESGlass imports it.
    .target(
      name: "CEGL",
      linkerSettings: [.linkedLibrary("EGL"), .linkedLibrary("GLESv2"), .linkedLibrary("dl")]
    ),
    // Private C plumbing: libpng decodes (its error jumps kept on the C side);
    // PNGs are written with libdeflate, about three times faster than zlib.
    .target(
      name: "CPNG",
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate")]
    ),
    // Private C plumbing: JPEG (libjpeg-turbo's TurboJPEG API) and WebP (libwebp,
    // libwebpmux for the colour profile) input and output, tagged sRGB. Only GLESGlass imports it.
    .target(
      name: "CLossy",
      linkerSettings: [
        .linkedLibrary("turbojpeg"), .linkedLibrary("webp"), .linkedLibrary("webpmux"), .linkedLibrary("m"),
      ]
    ),
    // Private C plumbing: the output's temporary files, removed by a signal handler
    // when the process is interrupted or crashes. Only GLESGlass imports it.
    .target(name: "COutputGuard"),
    // Turns Sources/Shaders/*.glsl into Swift string literals at build time.
    .executableTarget(name: "shader-embed"),
    .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["shader-embed"]),
    .target(name: "Shaders", plugins: ["EmbedShaders"]),
    // Private C plumbing: HarfBuzz shapes text, FreeType rasterises glyphs,
    // fontconfig finds fonts. Only GLESGlass imports it.
    .systemLibrary(
      name: "CText", pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev", "libfreetype-dev", "libfontconfig-dev"])]),
    .target(name: "GLESGlass", dependencies: ["CEGL", "CLossy", "COutputGuard", "CPNG", "CText", "Shaders"]),
    .executableTarget(
      name: "glass-gpu",
      dependencies: ["GLESGlass", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .executableTarget(
      name: "glass-gpu-bench",
      dependencies: [
        "GLESGlass", "GlassTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Procedural images and the exact numeric oracle, shared by the tests and the benchmark;
    // the tests' one process runner, golden harness and scene skeleton (no Testing here).
    .target(name: "GlassTestSupport", dependencies: ["GLESGlass"]),
    // Apple's four layout examples written as they read (Examples/AppleExamples),
    // the same scenes as Assets/scenes/layout-*.json; the tests check that they are.
    .target(name: "AppleExamples", dependencies: ["GLESGlass"], path: "Examples/AppleExamples"),
    .testTarget(
      name: "GLESGlassTests",
      dependencies: [
        "GLESGlass", "GlassTestSupport", "GlassSnapshotTesting", "AppleExamples",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["Fixtures", "Goldens"],
      // The suites' own code is compiled without optimisation even in the
      // optimised build that `make test` and `make sanitize` use: the library it
      // calls is optimised, and that is where the time goes. Measured on the
      // 2-core machine: the suites ran in 62 s either way, and this module compiled
      // in 106 s instead of 169 s (optimised, whole-module).
      swiftSettings: [.unsafeFlags(["-Onone"])]
    ),
    // `assertSnapshot(of: scene, as: .glass())`: a Snapshotting and a Diffing for
    // pointfreeco/swift-snapshot-testing.
    .target(
      name: "GlassSnapshotTesting",
      dependencies: ["GLESGlass", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
    ),
    // The example package's tests (Examples/SnapshotTests), built and run here too
    // so that `make test` runs them without building the library a second time in
    // the example's own .build (see the Makefile).
    .testTarget(
      name: "GlassSnapshotExampleTests",
      dependencies: [
        "GlassSnapshotTesting", "GLESGlass", .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      path: "Examples/SnapshotTests/Tests/GlassSnapshotExampleTests",
      exclude: ["__Snapshots__", "Scenes"]
    ),
  ]
)

// The libFuzzer targets (Fuzz/Sources, run by Fuzz/fuzz.sh): only in the
// instrumented build that `make fuzz` and `make sanitize` share
// (scripts/instrumented-build.sh sets GLASS_FUZZ_TARGETS=1), where every module is
// compiled with ASan and libFuzzer's coverage and these alone are linked with
// libFuzzer (-sanitize=fuzzer; the test runner has a `main` of its own). A normal
// build does not see them.
if Context.environment["GLASS_FUZZ_TARGETS"] == "1" {
  // fuzz-png: the fast path and libpng agree pixel for pixel, or the fast path
  // declines. fuzz-encode: what the fast PNG encoder writes, libpng reads back
  // exactly. fuzz-json: the scene files' parser; what it reads, written back,
  // reads the same. fuzz-manifest: batch manifests, each line a job or a failure
  // naming its line. fuzz-scene: scenes read, validated, written back and read
  // again, then small ones rendered on the CPU.
  let fuzzTargets = ["fuzz-png", "fuzz-encode", "fuzz-json", "fuzz-manifest", "fuzz-scene"]
  // No suite runs the benchmarks: make test's build compiles them, this one need not.
  package.products.removeAll { $0.name == "glass-gpu-bench" }
  package.targets.removeAll { $0.name == "glass-gpu-bench" }
  // FuzzDriver runs libFuzzer (`LLVMFuzzerRunDriver`) from each target's own `main`.
  package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/Sources/FuzzDriver"))
  package.targets += fuzzTargets.map { name in
    .executableTarget(
      name: name, dependencies: ["FuzzDriver", "GLESGlass"], path: "Fuzz/Sources/\(name)",
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])])
  }
}
