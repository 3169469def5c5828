// swift-tools-version: 6.0
// libFuzzer targets for glass-gpu, kept apart from the main package so that its
// normal build never sees them. Built only by Fuzz/fuzz.sh (`make fuzz`), with
// libFuzzer, AddressSanitizer, and UBSan on the C code.
import PackageDescription

let package = Package(
  name: "glass-gpu-fuzz",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "glass-gpu", path: "..")],
  targets: [
    // Runs libFuzzer (`LLVMFuzzerRunDriver`) from each target's own `main`.
    .target(name: "FuzzDriver"),
    // PNG: the fast path and libpng agree pixel for pixel, or the fast path declines.
    .executableTarget(
      name: "fuzz-png", dependencies: ["FuzzDriver", .product(name: "GLESGlass", package: "glass-gpu")]),
    // JSON: the scene files' parser; what it reads, written back, reads the same.
    .executableTarget(
      name: "fuzz-json", dependencies: ["FuzzDriver", .product(name: "GLESGlass", package: "glass-gpu")]),
    // Batch manifests: each line a job or a failure naming its line.
    .executableTarget(
      name: "fuzz-manifest", dependencies: ["FuzzDriver", .product(name: "GLESGlass", package: "glass-gpu")]),
    // Scenes: read, validate, write back and read again, then render small ones on the CPU.
    .executableTarget(
      name: "fuzz-scene", dependencies: ["FuzzDriver", .product(name: "GLESGlass", package: "glass-gpu")]),
  ]
)
