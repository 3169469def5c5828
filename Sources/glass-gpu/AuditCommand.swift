import ArgumentParser
import Foundation
import GLESGlass

struct Audit: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check the contrast of every text and icon with what is rendered behind it.",
    discussion: """
      Renders the scene with and without its text and icons and measures, for each
      one, the WCAG 2 contrast ratio between its ink and the pixels behind it (glass,
      a material or the backdrop). Body text needs 4.5:1; large text (24 pt, or 18.66
      pt bold) and icons alone 3:1. Prints one line per text, with its view's or
      layer's JSON path, and exits 1 when any is below its ratio.

      Examples:
        glass-gpu audit Assets/scenes/layout-signin.json
        glass-gpu audit scene.json --environments light,dark,dark+increaseContrast
      """)

  @OptionGroup var options: SceneOptions

  @Option(help: "cpu (the default: the same ratios everywhere), gpu, or auto.")
  var backend: BackendChoice = .cpu

  @Option(
    help: ArgumentHelp(
      "Audit in each of these environments (variants as goldens --environments takes them).", valueName: "variants"))
  var environments: String?

  @Flag(help: "Print only the texts below their ratio and the summary.")
  var quiet = false

  func validate() throws {
    _ = try variants(environments)
  }

  func run() throws {
    var failed = 0
    try reportingErrors {
      let (file, images) = try options.load()
      let renderer = try Renderer(backend: backend)
      defer { renderer.close() }
      let matrix = try variants(environments)
      let cells: [(name: String?, scene: GLESGlass.Scene)] =
        matrix.isEmpty
        ? [(nil, file.scene)]
        : matrix.map { v in (v.name, file.scene.environment(v.applied(to: file.scene.environment))) }
      var total = 0
      for (name, scene) in cells {
        let findings = try options.naming { try ContrastAudit.audit(scene, images: images, renderer: renderer) }
        for finding in findings {
          let label = finding.text.isEmpty ? finding.systemImage ?? "" : "\"\(finding.text)\""
          guard finding.isOnCanvas else {
            if !quiet { print("off canvas  \(name.map { "[\($0)] " } ?? "")\(finding.path)  \(label)") }
            continue
          }
          total += 1
          if !finding.passes { failed += 1 }
          guard !quiet || !finding.passes else { continue }
          let ratio = String(format: "%.2f:1", finding.ratio)
          let need = "\(finding.passes ? "≥" : "<") \(ParameterSpec.format(finding.required))"
          print(
            "\(finding.passes ? "pass" : "FAIL")  \(ratio) \(need)  \(name.map { "[\($0)] " } ?? "")"
              + "\(finding.path)  \(label)")
        }
      }
      print("\(count(total, "text")) checked, \(failed) below \(failed == 1 ? "its" : "their") ratio")
    }
    if failed > 0 { throw ExitCode(1) }
  }
}
