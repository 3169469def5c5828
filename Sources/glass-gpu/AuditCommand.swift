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
      pt bold) and icons alone 3:1. The ink is where the text's glyphs are drawn on
      the canvas. Prints one line per text, with its own JSON path (and, when it
      fails, what is drawn over it), and exits 1 when any is below its ratio. A text
      whose glyphs all lie beyond the canvas is "off canvas", one that draws no
      glyph (blank, opacity 0, a clear colour) "draws nothing": both pass.

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

  @Option(help: environmentsFileHelp)
  var environmentsFile: String?

  @Flag(help: "Print only the texts below their ratio and the summary.")
  var quiet = false

  func validate() throws {
    _ = try variants(environments, file: environmentsFile)
  }

  func run() throws {
    var failed = 0
    try reportingErrors {
      let (file, images) = try options.load()
      let renderer = try Renderer(backend: backend)
      defer { renderer.close() }
      let matrix = try variants(environments, file: environmentsFile)
      let cells: [(name: String?, scene: GLESGlass.Scene)] =
        matrix.isEmpty
        ? [(nil, file.scene)]
        : matrix.map { v in (v.name, file.scene.environment(v.applied(to: file.scene.environment))) }
      var total = 0
      for (name, scene) in cells {
        let findings = try options.naming { try ContrastAudit.audit(scene, images: images, renderer: renderer) }
        for finding in findings {
          // Text from the file, escaped and cut short, as every message quotes it.
          let label =
            finding.text.isEmpty
            ? UserText.shortened(finding.systemImage ?? "") : "\"\(UserText.shortened(finding.text))\""
          let variant = name.map { "[\(UserText.shortened($0))] " } ?? ""
          switch finding.visibility {
          case .offCanvas, .drawsNothing:
            let what = finding.visibility == .offCanvas ? "off canvas" : "draws nothing"
            if !quiet { print("\(what)  \(variant)\(finding.path)  \(label)") }
            continue
          case .measured: break
          }
          total += 1
          if !finding.passes { failed += 1 }
          guard !quiet || !finding.passes else { continue }
          let ratio = String(format: "%.2f:1", finding.ratio)
          let need = "\(finding.passes ? "≥" : "<") \(ParameterSpec.format(finding.required))"
          let cover = finding.coveredBy.map { "  (under \($0))" } ?? ""
          print("\(finding.passes ? "pass" : "FAIL")  \(ratio) \(need)  \(variant)\(finding.path)  \(label)\(cover)")
        }
      }
      print("\(count(total, "text")) checked, \(failed) below \(failed == 1 ? "its" : "their") ratio")
    }
    if failed > 0 { throw ExitCode(1) }
  }
}
