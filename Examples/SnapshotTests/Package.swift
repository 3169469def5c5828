// swift-tools-version: 6.0
// An example of snapshot tests of glass UIs: swift-snapshot-testing with the
// GlassSnapshotTesting strategy, on any Linux CI runner (the CPU backend needs no
// GPU and no display). `swift test` here runs them; the glass-gpu package also
// builds these test sources as its own target, so `make test` at the root runs
// them without building the library a second time.
import PackageDescription

let package = Package(
  name: "SnapshotTests",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "glass-gpu", path: "../.."),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
  ],
  targets: [
    .testTarget(
      name: "GlassSnapshotExampleTests",
      dependencies: [
        .product(name: "GlassSnapshotTesting", package: "glass-gpu"),
        .product(name: "GLESGlass", package: "glass-gpu"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__", "Scenes"]
    )
  ]
)
