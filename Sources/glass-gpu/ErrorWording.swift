import ArgumentParser
import GLESGlass

// Errors as the command line words them: the library says a fix in its API's
// terms or neutrally, and hands it over as a value (`GlassError.Hint`); here each
// hint gets the flag that applies it.

extension GlassError.Hint {
  /// The flag that applies the fix, with its value: `--max-pixels 40000`.
  var commandLine: String {
    switch self {
    case .raiseMaxPixels(let needed): "--max-pixels \(needed)"
    case .useCPUBackend: "--backend cpu"
    case .record(let mode): "--record \(mode.rawValue)"
    case .lowerSigma: "--sigma"
    case .lowerFrameRateOrHold: "--fps, --hold"
    case .eightBitDepth: "--depth 8"
    case .artifactsFolder: "--artifacts DIR"
    case .manifestFile: "generate | glass-gpu batch --manifest - ..., or --manifest FILE"
    }
  }
}

/// `message`, with the flag of `hint` after it: `... if you mean it (--max-pixels 40000)`.
func withFlag(_ message: String, _ hint: GlassError.Hint?) -> String {
  hint.map { "\(message) (\($0.commandLine))" } ?? message
}

extension GlassError {
  /// The message with its hint's flag.
  var commandLineMessage: String { withFlag(message, hint) }

  /// `description` with the hint's flag after the message (before the cause).
  var commandLineDescription: String { rephrased(commandLineMessage).description }
}

extension ImageComparison.Limits.Violation {
  /// `the images differ by 12/255 at (3, 4), over --max-diff 2`.
  var commandLine: String {
    switch limit {
    case .maxDifference: "\(measured), over --max-diff \(ParameterSpec.format(allowed))"
    case .maxSharePercent: "\(measured), over --max-share \(ParameterSpec.format(allowed))"
    }
  }
}

extension GoldenCase {
  /// The case's message with the flag of its hint (its error's, for an error),
  /// and each limit it exceeded named by its flag (`over --max-diff 2`).
  var commandLineMessage: String? {
    if let error, message == error.description { return error.commandLineDescription }
    guard var text = message else { return nil }
    for violation in violations {
      text = text.replacingOccurrences(of: violation.description, with: violation.commandLine)
    }
    return withFlag(text, hint)
  }
}

extension GoldenReport {
  /// The report with every case's message as the command line words it, for
  /// the JUnit report and the HTML page this command writes.
  var commandLineWorded: GoldenReport {
    var report = self
    for index in report.cases.indices {
      report.cases[index].message = report.cases[index].commandLineMessage
      report.cases[index].hint = nil
    }
    return report
  }
}
