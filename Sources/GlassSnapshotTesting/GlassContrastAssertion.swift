import Foundation
import GLESGlass
import XCTest

#if canImport(Testing)
  import Testing
#endif

/// Audits the contrast of every text and icon of a scene against what is
/// rendered behind it (`ContrastAudit`, WCAG 2) and fails the test once for
/// each one under its ratio (4.5:1 for body text, 3:1 for large text and
/// icons), naming its text, its JSON path and its ratio:
///
///     assertContrast(of: scene)
///     assertContrast(of: scene, environment: try EnvironmentVariant("dark+increaseContrast"))
///
/// Works in Swift Testing and in XCTest, as the snapshot strategies do.
/// Returns the findings, every text's and icon's, passing or not.
///
/// - Parameters:
///   - directory: the folder the scene's image and font paths are relative to.
///   - backend: `.cpu` (the default) or `.gpu`.
///   - environment: settings over the scene's own environment; nil: the scene's.
@discardableResult
public func assertContrast(
  of scene: GLESGlass.Scene, directory: String = ".", backend: BackendChoice = .cpu,
  environment: EnvironmentVariant? = nil, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> [ContrastFinding] {
  func fail(_ message: String) {
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: message),
          sourceLocation: SourceLocation(
            fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
        return
      }
    #endif
    XCTFail(message, file: filePath, line: line)
  }
  var file = SceneFile(scene: scene, directory: directory)
  if let environment { file.scene.environment = environment.applied(to: file.scene.environment) }
  do {
    let renderer = try GlassSnapshotRender.renderer(backend, threads: nil)
    let findings = try ContrastAudit.audit(file.scene, images: try file.loadImages(), renderer: renderer)
    let variant = environment.map { " in \($0.name)" } ?? ""
    for finding in findings where !finding.passes {
      let label = finding.text.isEmpty ? (finding.systemImage ?? "an icon") : "\"\(finding.text)\""
      fail(
        "\(label) at \(finding.path)\(variant) has contrast "
          + String(format: "%.2f:1", finding.ratio) + " with what is behind it; it needs \(finding.required):1")
    }
    return findings
  } catch {
    fail("the scene could not be audited: \(error)")
    return []
  }
}
