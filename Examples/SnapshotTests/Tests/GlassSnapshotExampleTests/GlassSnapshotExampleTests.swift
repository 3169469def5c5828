import Foundation
import GLESGlass
import GlassSnapshotTesting
import SnapshotTesting
import Testing

/// Snapshot tests of glass UIs: each renders a scene on the CPU backend (exact and
/// deterministic on every machine, no GPU needed) and compares it with its
/// reference in __Snapshots__/GlassSnapshotExampleTests/. A missing reference is
/// recorded (and the test fails once); `SNAPSHOT_TESTING_RECORD=all` re-records
/// every one (`make snapshots-record` at the root of the repository). A failure
/// writes the render and a difference image into `$SNAPSHOT_ARTIFACTS` (else the
/// temporary folder) and names them.
@Suite("Glass snapshots (example)")
struct GlassSnapshotExampleTests {
  /// This file's folder: the JSON scenes are in Scenes/ beside it.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  /// A toolbar built with the SwiftUI-like API: two glass shapes in a container
  /// over a gradient, a disc and a bar.
  static let toolbar = Scene(
    width: 240, height: 120, scale: 2,
    background: .fill(
      .linearGradient(
        Gradient(colors: [Color(hex: 0x1E3A8A), Color(hex: 0xF97316)]), startPoint: .top, endPoint: .bottom))
  ) {
    Circle().fill(.white).frame(x: 24, y: 18, width: 44, height: 44)
    Rectangle().fill(Color(hex: 0x22C55E)).frame(x: 128, y: 10, width: 14, height: 100)
    GlassEffectContainer(spacing: 16) {
      Color.clear.frame(x: 16, y: 58, width: 130, height: 44).glassEffect(.regular, in: .capsule)
      Color.clear.frame(x: 158, y: 58, width: 44, height: 44).glassEffect(.clear.tint(.orange), in: .circle)
    }
  }

  @Test("a toolbar built in Swift")
  func toolbar() {
    assertSnapshot(of: Self.toolbar, as: .glass(backend: .cpu, scale: 2))
  }

  @Test("a card read from JSON")
  func card() throws {
    let path = Self.folder.appendingPathComponent("Scenes/card.json").path
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let scene = try Scene(json: bytes)
    assertSnapshot(of: scene, as: .glass(backend: .cpu, scale: 2))
  }

  /// A scene file with images, at 1x: paths in it are relative to its folder.
  @Test("a scene file with images, at 1x")
  func sceneFile() throws {
    let path = Self.folder.appendingPathComponent("../../../../Assets/scenes/union.json").standardized.path
    assertSnapshot(of: try SceneFile(path: path), as: .glass(backend: .cpu, scale: 1))
  }
}
