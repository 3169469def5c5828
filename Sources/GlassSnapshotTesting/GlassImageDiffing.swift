import Foundation
import GLESGlass
import SnapshotTesting
import XCTest

#if canImport(Testing)
  import Testing
#endif

extension Diffing where Value == RGBAImage {
  /// Images as PNG files, compared with `ImageComparison` in swift-snapshot-testing's
  /// terms: a pixel matches when it is equal (`perceptualPrecision` 1) or at most
  /// `(1 - perceptualPrecision) * 100` CIE94 Delta E from its reference pixel, and
  /// the images match when at least `precision` of their pixels do. A failure
  /// gives the reference, the render and a difference image as attachments, and
  /// writes the difference image into the artifacts folder (`SNAPSHOT_ARTIFACTS`,
  /// else the temporary folder), beside the render that swift-snapshot-testing
  /// writes there, and names it in the message. With `antiAliasing`, a pixel
  /// that pixelmatch's detector calls anti-aliasing matches
  /// (`ComparisonOptions.antiAliasing`, `glass-gpu goldens --anti-aliasing`).
  public static func glassImage(
    precision: Float = 1, perceptualPrecision: Float = 1, antiAliasing: Bool = false
  )
    -> Diffing
  {
    .diff(
      toData: { image in Data(GlassImageDiff.encode(image)) },
      fromData: { data in GlassImageDiff.decode(data) },
      diffV2: { reference, actual in
        // The anti-aliasing mode: pixels pixelmatch's detector calls anti-aliasing match.
        let compared =
          antiAliasing && reference.size == actual.size && reference.width > 0
          ? ImageComparison.explainingAntiAliasing(actual, against: reference) : actual
        guard
          let failure = GlassImageDiff.failure(
            reference, compared, precision: Double(precision), perceptualPrecision: Double(perceptualPrecision))
        else { return nil }
        return GlassImageDiff.report(failure, reference, actual, antiAliasing: antiAliasing)
      })
  }
}

/// The comparison behind `Diffing.glassImage`.
enum GlassImageDiff {
  /// PNG bytes; a PNG that cannot be encoded (never, for a rendered image) is empty.
  static func encode(_ image: RGBAImage) -> [UInt8] {
    (try? PNGCodec.encode(image, compression: 9)) ?? []
  }

  /// The image of PNG bytes; an empty 0x0 image when they are not a PNG, which
  /// the comparison reports as an unreadable reference.
  static func decode(_ data: Data) -> RGBAImage {
    (try? PNGCodec.decode([UInt8](data), name: "the reference").image)
      ?? RGBAImage(size: PixelSize(width: 0, height: 0), depth: .eight)
  }

  /// Why `actual` does not match `reference`, or nil when it does.
  static func failure(
    _ reference: RGBAImage, _ actual: RGBAImage, precision: Double, perceptualPrecision: Double
  ) -> String? {
    guard reference.width > 0 && reference.height > 0 else {
      return "The reference could not be read as a PNG (or is empty); delete it and record it again."
    }
    guard reference.size == actual.size else {
      return "Newly-taken snapshot@\(actual.size) does not match reference@\(reference.size)."
    }
    guard let comparison = try? ImageComparison(actual, reference) else { return "The images could not be compared." }
    if comparison.maxDifference == 0 { return nil }
    let threshold = max(0, (1 - perceptualPrecision) * 100)
    guard let measured = try? ImageComparison.perceptual(actual, reference, deltaEThreshold: threshold) else {
      return "The images could not be compared."
    }
    // In Float, as swift-snapshot-testing compares them (0.99 is 0.99000001 there).
    if Float(measured.matchingShare) >= Float(precision) { return nil }
    let psnr = comparison.psnr.isInfinite ? "inf" : String(format: "%.2f", comparison.psnr)
    let worst = comparison.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""
    var lines = [
      "The percentage of pixels that match \(measured.matchingShare) is less than required \(precision)"
    ]
    if perceptualPrecision < 1 {
      lines.append(
        "The lowest perceptual color precision \(1 - min(measured.maxDeltaE / 100, 1)) is less than required "
          + "\(perceptualPrecision)")
    }
    lines.append(
      String(format: "Largest channel difference %.3g/255", comparison.maxDifference)
        + "\(worst), \(comparison.pixelsOverOne) of \(comparison.pixelCount) pixels over 1/255, PSNR \(psnr) dB")
    return lines.joined(separator: "\n")
  }

  /// The failure's message and attachments; writes the difference image.
  static func report(
    _ failure: String, _ reference: RGBAImage, _ actual: RGBAImage, antiAliasing: Bool
  )
    -> (String, [DiffAttachment])
  {
    var attachments: [DiffAttachment] = [
      .data(Data(encode(reference)), name: "reference.png"), .data(Data(encode(actual)), name: "failure.png"),
    ]
    var message = failure
    if reference.size == actual.size && reference.width > 0 {
      let difference = encode(ImageComparison.differenceImage(actual, reference))
      attachments.append(.data(Data(difference), name: "difference.png"))
      do {
        let path = try ArtifactFolder.writeDifference(difference)
        message += "\nDifference image (\(ImageComparison.differenceImageDescription)): \(path)"
      } catch {
        message += "\nThe difference image could not be written: \(error)"
      }
    }
    recordTestAttachments(attachments)
    if let line = SnapshotReportPage.add(failure, reference, actual, antiAliasing: antiAliasing) {
      message += "\n" + line
    }
    return (message, attachments)
  }

  /// Swift Testing shows attachments on every platform (`swift test
  /// --attachments-path DIR` saves them); swift-snapshot-testing hands them over
  /// only under Xcode.
  private static func recordTestAttachments(_ attachments: [DiffAttachment]) {
    #if canImport(Testing) && compiler(>=6.2) && os(Linux)
      guard Test.current != nil else { return }
      for case .data(let data, let name) in attachments {
        Attachment.record([UInt8](data), named: name)
      }
    #endif
  }
}

/// Where failures' files go: the folder swift-snapshot-testing writes a failed
/// snapshot into, `$SNAPSHOT_ARTIFACTS/FILE` (else the temporary folder), with
/// FILE the test file's name, for a Swift Testing test.
enum ArtifactFolder {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var used: Set<String> = []

  /// Writes a difference image as `TEST.difference.png` in the test file's
  /// artifacts folder (`TEST.difference-2.png` and on for a test's later ones),
  /// through a temporary file; returns its path.
  static func writeDifference(_ png: [UInt8]) throws -> String {
    let base =
      ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
      ?? NSTemporaryDirectory()
    var folder = (base as NSString).appendingPathComponent("GlassSnapshotTesting")
    var stem = "difference"
    #if canImport(Testing)
      if let test = Test.current {
        let file = (test.sourceLocation.fileName as NSString).deletingPathExtension
        folder = (base as NSString).appendingPathComponent(file)
        stem = sanitized(test.name) + ".difference"
      }
    #endif
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = lock.withLock {
      var candidate = (folder as NSString).appendingPathComponent(stem + ".png")
      var index = 2
      while used.contains(candidate) {
        candidate = (folder as NSString).appendingPathComponent("\(stem)-\(index).png")
        index += 1
      }
      used.insert(candidate)
      return candidate
    }
    try PNGCodec.OutputFile(path: path).write(encoded: png)
    return path
  }

  /// A test's name as swift-snapshot-testing spells it in file names.
  static func sanitized(_ name: String) -> String {
    name.replacingOccurrences(of: "\\W+", with: "-", options: .regularExpression)
      .replacingOccurrences(of: "^-|-$", with: "", options: .regularExpression)
  }
}

/// Fails the current test (Swift Testing or XCTest) with `message`.
func reportSnapshotIssue(_ message: String) {
  #if canImport(Testing)
    if Test.current != nil {
      Issue.record(Comment(rawValue: message))
      return
    }
  #endif
  XCTFail(message)
}

/// With `SNAPSHOT_ARTIFACTS` set, the failures of glass snapshots on one page:
/// `$SNAPSHOT_ARTIFACTS/GlassSnapshotReport/index.html`, the page `glass-gpu
/// goldens --report` writes, grown by appending (`GoldenHTMLReport.appendFailure`):
/// each failure writes its own images and appends its data, a few hundred
/// bytes, so what it costs does not grow with the failures before it, and test
/// processes or suites writing into one folder at once each add their failures
/// whole. Nothing about the page is kept in the process.
enum SnapshotReportPage {
  /// Adds a failure to the page under `SNAPSHOT_ARTIFACTS`; the line the
  /// failure's message gets (the page, or why it could not be written), or nil
  /// without `SNAPSHOT_ARTIFACTS`.
  static func add(_ failure: String, _ reference: RGBAImage, _ actual: RGBAImage, antiAliasing: Bool) -> String? {
    guard let base = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"], !base.isEmpty else { return nil }
    var name = "snapshot"
    var group: String?
    #if canImport(Testing)
      if let test = Test.current {
        name = "\(test.sourceLocation.fileName): \(test.name)"
        group = test.sourceLocation.fileName
      }
    #endif
    return add(failure, reference, actual, antiAliasing: antiAliasing, name: name, group: group, base: base)
  }

  /// Adds a failure named `name` to the page in `base/GlassSnapshotReport`.
  static func add(
    _ failure: String, _ reference: RGBAImage, _ actual: RGBAImage, antiAliasing: Bool, name: String, group: String?,
    base: String
  ) -> String {
    let folder = (base as NSString).appendingPathComponent("GlassSnapshotReport")
    do {
      let page = try GoldenHTMLReport.appendFailure(
        name: name, group: group, message: failure, reference: reference.width > 0 ? reference : nil, actual: actual,
        antiAliasing: antiAliasing, to: folder)
      return "Report: \(page)"
    } catch {
      return "The report page could not be written: \(error)"
    }
  }
}
