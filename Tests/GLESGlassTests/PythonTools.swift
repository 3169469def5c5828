import Foundation
import GlassTestSupport
import Testing

/// The Python modules some suites use as oracles: Pillow (a second JPEG and WebP
/// codec stack) and jsonschema (a second reader of the scene schema). `make test`
/// installs them (`scripts/ensure-deps.sh --test`: python3-pil, python3-jsonschema).
///
/// Where one is missing, a test that needs it is skipped with the reason (its
/// `.enabled(if:)` trait's comment), except in CI (`CI=true`, as `.ci/run` sets
/// it) or with `GLASS_GPU_REQUIRE_TEST_TOOLS=1`: then it runs and fails, naming
/// what is missing, as the browser tests do with `GLASS_GPU_REQUIRE_BROWSER=1`.
enum PythonTools {
  /// A tool a suite needs: a Python module and the Debian package that has it.
  struct Tool: Sendable {
    /// The module a Python must import.
    var module: String
    /// The Debian package that installs it.
    var package: String
    /// The Python that imports it (`Browser.python(importing:)`), or nil.
    var python: String?

    /// Whether the tests that need it run: where it is installed, and where it
    /// is required (then they fail).
    var isAvailable: Bool { python != nil || PythonTools.isRequired }

    /// Why the tests that need it are skipped.
    var skipReason: Comment {
      Comment(
        rawValue: "skipped: Python's \(module) is not installed (apt-get install -y \(package), or make test); "
          + "CI=true or GLASS_GPU_REQUIRE_TEST_TOOLS=1 makes this a failure")
    }

    /// The Python that has it; where there is none (the test runs only because
    /// the tool is required), records a failure and returns nil.
    func require() -> String? {
      if python == nil {
        Issue.record(
          Comment(
            rawValue: "Python's \(module) is not installed and the test tools are required (CI=true or "
              + "GLASS_GPU_REQUIRE_TEST_TOOLS=1): apt-get install -y \(package), or make test"))
      }
      return python
    }
  }

  /// True in CI (`CI=true` or `CI=1`) or with `GLASS_GPU_REQUIRE_TEST_TOOLS=1`: a
  /// missing tool fails the tests that need it.
  static let isRequired: Bool = {
    let environment = ProcessInfo.processInfo.environment
    return ["true", "1"].contains(environment["CI"]?.lowercased() ?? "")
      || environment["GLASS_GPU_REQUIRE_TEST_TOOLS"] == "1"
  }()

  /// Pillow (python3-pil).
  static let pillow = Tool(module: "PIL", package: "python3-pil", python: Browser.python(importing: "PIL"))

  /// jsonschema (python3-jsonschema).
  static let jsonschema = Tool(
    module: "jsonschema", package: "python3-jsonschema", python: Browser.python(importing: "jsonschema"))

  /// The repository's root.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Runs `Tests/codecs/pillow_codecs.py` with `arguments` in `folder` under
  /// `python`; its standard output, after checking that it succeeded.
  static func pillowCodecs(_ python: String, _ arguments: [String], in folder: URL) throws -> Data {
    let script = root.appendingPathComponent("Tests/codecs/pillow_codecs.py").path
    let result = try TestProcess.run(URL(fileURLWithPath: python), [script] + arguments, in: folder, timeout: 240)
    #expect(result.status == 0, "pillow_codecs.py \(arguments.first ?? ""): \(result.stderr)")
    return result.stdoutData
  }
}
