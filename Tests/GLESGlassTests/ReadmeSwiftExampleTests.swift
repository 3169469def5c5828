import Foundation
import GLESGlass
import GlassTestSupport
import Testing

/// Every ```swift block of README.md and docs/*.md, compiled (type-checked by
/// swiftc, as the compiler's front end checks a file before it generates code)
/// against the modules this build made, so that the examples cannot drift from
/// the API.
///
/// A block is a list of statements, compiled as the body of an `async throws`
/// function with its `import` lines moved to the top of its file, unless an HTML
/// comment on the line before its fence says otherwise:
///
///     <!-- swift: continues -->          the same function as the block before it
///     <!-- swift: view -->               a view (the `body` of a View with `name`
///                                        and `$name`, `namespace` and
///                                        `isExpanded` in scope, and Apple's
///                                        examples' declarations from
///                                        Examples/AppleExamples); lines from the
///                                        first declaration on go at file scope
///     <!-- swift: file -->               a file as it is
///     <!-- swift: package manifest -->   a Package.swift, against PackageDescription
@Suite("The README's Swift examples compile")
struct ReadmeSwiftExampleTests {
  /// How a block is compiled.
  enum Mode: String, CaseIterable {
    case statements
    case continues
    case view
    case file
    case packageManifest = "package manifest"
  }

  /// A ```swift block: where it is, how it is compiled, its text.
  struct Block {
    var document: String
    var line: Int
    var mode: Mode
    var code: String
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The documents whose Swift blocks are compiled.
  static func documents() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
      .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return ["README.md"] + docs
  }

  /// The ```swift blocks of `text` (the document `name`), with their modes;
  /// throws for a mode it does not know.
  static func blocks(in text: String, document name: String) throws -> [Block] {
    let lines = text.components(separatedBy: "\n")
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
        index += 1
        continue
      }
      var mode = Mode.statements
      if let previous = lines[..<index].last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
        let marker = previous.trimmingCharacters(in: .whitespaces).wholeMatch(of: /<!-- swift: (.+) -->/)
      {
        guard let known = Mode(rawValue: String(marker.1)) else {
          throw GlassError(.invalidParameter, "\(name):\(index): unknown mode \"\(marker.1)\"")
        }
        mode = known
      }
      var end = index + 1
      while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
      blocks.append(
        Block(document: name, line: index + 1, mode: mode, code: lines[index + 1..<end].joined(separator: "\n")))
      index = end + 1
    }
    return blocks
  }

  /// The Swift files the blocks make, by name, and the package manifests apart.
  static func sources(_ blocks: [Block]) -> (files: [String: String], manifests: [String: String]) {
    var files: [String: String] = [:]
    var manifests: [String: String] = [:]
    var function: (name: String, imports: [String], body: [String])?
    func name(_ block: Block) -> String {
      "\(block.document.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".md", with: ""))_\(block.line)"
    }
    func header(_ imports: [String]) -> String {
      (["import Foundation", "import GLESGlass", "@testable import AppleExamples"] + imports).joined(separator: "\n")
    }
    func flush() {
      guard let (name, imports, body) = function else { return }
      files[name + ".swift"] =
        header(imports) + "\n\nfunc example_\(name)() async throws {\n" + body.joined(separator: "\n") + "\n}\n"
      function = nil
    }
    for block in blocks {
      let lines = block.code.components(separatedBy: "\n")
      let imports = lines.filter { $0.hasPrefix("import ") }
      let rest = lines.filter { !$0.hasPrefix("import ") }
      // A mark at the start of each block: compiler errors name the document's line.
      let mark = "// \(block.document):\(block.line)"
      switch block.mode {
      case .statements:
        flush()
        function = (name(block), imports, [mark] + rest)
      case .continues:
        if function == nil { function = (name(block), [], []) }
        function?.imports += imports
        function?.body += [mark] + rest
      case .view:
        flush()
        let split =
          rest.firstIndex {
            ["struct ", "extension ", "func ", "private struct "].contains(where: $0.hasPrefix)
          } ?? rest.count
        files[name(block) + ".swift"] =
          header(imports) + "\n\n" + mark + "\nstruct Example_\(name(block)): View {\n"
          + "  @State var name = \"\"\n  @Namespace var namespace\n  var isExpanded = false\n"
          + "  var body: some View {\n" + rest[..<split].joined(separator: "\n") + "\n  }\n}\n\n"
          + rest[split...].joined(separator: "\n") + "\n"
      case .file:
        flush()
        files[name(block) + ".swift"] = header(imports) + "\n\n" + mark + "\n" + rest.joined(separator: "\n") + "\n"
      case .packageManifest:
        flush()
        manifests[name(block) + ".swift"] = block.code + "\n"
      }
    }
    flush()
    return (files, manifests)
  }

  /// The folder this build's modules are in (`.build-test/release`, where the
  /// CLI the tests run was built).
  static var buildFolder: URL { TestProcess.glassGPU.deletingLastPathComponent() }

  /// swiftc's arguments to type-check files against this build's modules: its
  /// Swift modules, and the module maps and headers of its C modules (GLESGlass
  /// imports them), in Swift 6 mode, as the package's own targets build.
  static func compilerArguments() throws -> [String] {
    let build = buildFolder.resolvingSymlinksInPath()
    var arguments = [
      "-typecheck", "-parse-as-library", "-swift-version", "6", "-suppress-warnings",
      "-I", build.appendingPathComponent("Modules").path,
    ]
    let folders = try FileManager.default.contentsOfDirectory(atPath: build.path).filter { $0.hasSuffix(".build") }
    for folder in folders.sorted() {
      let map = build.appendingPathComponent(folder).appendingPathComponent("module.modulemap")
      if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
    }
    let sources = root.appendingPathComponent("Sources")
    for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let include = sources.appendingPathComponent(target).appendingPathComponent("include")
      if FileManager.default.fileExists(atPath: include.path) { arguments += ["-Xcc", "-I", "-Xcc", include.path] }
      let map = sources.appendingPathComponent(target).appendingPathComponent("module.modulemap")
      if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
    }
    // CText is a system library found through pkg-config (Package.swift), as
    // SwiftPM finds it: its headers' folders.
    let flags = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["pkg-config", "--cflags", "harfbuzz"])
    for flag in flags.stdout.split(whereSeparator: \.isWhitespace) where flag.hasPrefix("-I") {
      arguments += ["-Xcc", String(flag)]
    }
    return arguments
  }

  /// Type-checks `files` (name: text) together as one module in a new folder;
  /// swiftc's result.
  static func compile(_ files: [String: String], manifest: Bool = false) throws -> TestProcess.Result {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
      let path = folder.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      paths.append(path)
    }
    let arguments: [String]
    if manifest {
      // PackageDescription comes with the toolchain, beside swiftc.
      let swiftc = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["which", "swiftc"]).stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)
      let toolchain = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent()
      arguments = [
        "-typecheck", "-swift-version", "6", "-package-description-version", "6.0", "-I",
        toolchain.appendingPathComponent("lib/swift/pm/ManifestAPI").path,
      ]
    } else {
      arguments = try compilerArguments()
    }
    return try TestProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["swiftc"] + arguments + paths, in: folder, timeout: 540)
  }

  @Test("every ```swift block of README.md and docs/*.md compiles against this build")
  func examplesCompile() throws {
    var blocks: [Block] = []
    for document in try Self.documents() {
      let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
      blocks += try Self.blocks(in: text, document: document)
    }
    // The README's sections that show the API: each is a block here.
    let modes = Dictionary(grouping: blocks, by: \.mode).mapValues(\.count)
    #expect(blocks.count >= 14, "\(blocks.count) blocks")
    #expect(Set(modes.keys) == Set(Mode.allCases), "\(modes)")
    let (files, manifests) = Self.sources(blocks)
    let result = try Self.compile(files)
    #expect(result.status == 0, "the examples do not compile:\n\(result.stderr)")
    let manifest = try Self.compile(manifests, manifest: true)
    #expect(manifest.status == 0, "the package manifest example does not compile:\n\(manifest.stderr)")
  }

  @Test("an example with a typo fails to compile, naming its line in the document")
  func typoFails() throws {
    let block = Block(
      document: "README.md", line: 42, mode: .statements,
      code: "let renderer = try Renderer(backend: .auto)\nlet image = try renderer.rendr(Scene(width: 1, height: 1) {})"
    )
    let result = try Self.compile(Self.sources([block]).files)
    #expect(result.status != 0)
    #expect(result.stderr.contains("rendr"), "\(result.stderr)")
    // A marker the extractor does not know is an error, not a block skipped.
    #expect(throws: GlassError.self) { try Self.blocks(in: "<!-- swift: views -->\n```swift\n1\n```\n", document: "x") }
  }
}
