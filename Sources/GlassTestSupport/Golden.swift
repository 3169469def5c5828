import Foundation
import GLESGlass

/// The tests' one golden harness: a render against a reference PNG committed
/// under `Tests/GLESGlassTests/Goldens`. A missing golden is recorded with
/// `GLASS_GPU_RECORD_GOLDENS=1` (by the renders allowed to record it) and the
/// run fails, so that a recording is never a pass; a render that differs is
/// written, with a difference image, to `failureFolder`, and both are named.
public enum Golden {
  /// The committed goldens.
  public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/GLESGlassTests/Goldens")

  /// True with `GLASS_GPU_RECORD_GOLDENS=1`: missing goldens are recorded.
  public static let isRecording = ProcessInfo.processInfo.environment["GLASS_GPU_RECORD_GOLDENS"] == "1"

  /// Where a failing comparison writes the render and the difference image.
  public static var failureFolder: URL {
    URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("glass-gpu-golden-failures")
  }

  /// The path of the golden `name` (`name.png` in `folder`).
  public static func path(_ name: String) -> String {
    folder.appendingPathComponent("\(name).png").path
  }

  /// How a render compared with its golden.
  public struct Outcome: Sendable {
    /// The comparison, when the golden was there and of the render's size.
    public var comparison: ImageComparison?
    /// Why the check fails (nil when it passes): the golden was missing (and
    /// perhaps recorded now), is of another size, or is not met.
    public var failure: String?
  }

  /// Compares `output` with the golden `name`: it passes when `failures` of the
  /// comparison is empty. `label` names the render in messages and in the files
  /// written on failure (`label.png`, `label-diff.png`). A missing golden is
  /// recorded from `output` when recording and `mayRecord`; `filter` is the
  /// `swift test --filter` that records it.
  public static func check(
    _ output: RGBAImage, against name: String, label: String, mayRecord: Bool, filter: String,
    failures: (ImageComparison) -> [String]
  ) throws -> Outcome {
    let golden = path(name)
    guard FileManager.default.fileExists(atPath: golden) else {
      if isRecording && mayRecord {
        try PNGCodec.write(output, to: golden, compression: 12)
        return Outcome(failure: "recorded the missing golden \(golden); check it and run again")
      }
      return Outcome(
        failure: "no golden \(golden); record it with GLASS_GPU_RECORD_GOLDENS=1 swift test --filter \(filter)")
    }
    let expected = try PNGCodec.read(path: golden).image
    let artifacts = failureFolder
    let actual = artifacts.appendingPathComponent("\(label).png").path
    guard output.size == expected.size else {
      try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
      try PNGCodec.write(output, to: actual)
      return Outcome(failure: "\(label) is \(output.size), its golden \(expected.size); wrote \(actual)")
    }
    let comparison = try ImageComparison(output, expected)
    let failed = failures(comparison)
    guard !failed.isEmpty else { return Outcome(comparison: comparison) }
    try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
    let difference = artifacts.appendingPathComponent("\(label)-diff.png").path
    try PNGCodec.write(output, to: actual)
    try PNGCodec.write(ImageComparison.differenceImage(output, expected), to: difference)
    return Outcome(
      comparison: comparison,
      failure: "\(label) differs from its golden: \(failed.joined(separator: "; ")): \(comparison.summary); "
        + "wrote \(actual) and \(difference)")
  }
}

extension ImageComparison {
  /// The measurements the parity bars look at, on one line.
  public var summary: String {
    let m = meanDifference
    return String(
      format: "max %.3g/255, %d of %d px over 1/255, PSNR %.2f dB, mean difference (%+.4f, %+.4f, %+.4f, %+.4f)/255",
      maxDifference, pixelsOverOne, pixelCount, psnr, m[0], m[1], m[2], m[3])
  }
}
