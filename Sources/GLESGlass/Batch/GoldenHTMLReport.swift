import Foundation

/// A goldens check as one self-contained static page (`glass-gpu goldens
/// --report DIR`): `DIR/index.html` with its style, script and data inline, and
/// the images beside it in `DIR/images` (reference, render and difference of
/// each failure, and of each new reference) and `DIR/thumbs` (a thumbnail of
/// every case, at most `thumbnailWidth` pixels wide). Nothing is fetched from
/// the network; the page works from `file://` and as a CI artifact.
///
/// The page: a summary (passed, failed, new, errors, time), filters (failed,
/// new, errors, all), a card per case (per scene and environment variant) with
/// its thumbnail (loaded lazily) and numbers, and an inspector for a failure:
/// reference, render and difference side by side, a slider (swipe), a strobe
/// (alternating every half second) and a zoom with a pixel grid that keeps the
/// three aligned; the comparison's numbers (largest difference, share over
/// 1/255, PSNR, largest CIE94 ΔE) and the command that accepts the change. Keys:
/// j / k or the arrows move between cards, Enter opens one, 1 to 4 pick the
/// mode, Escape closes. Full images load only when a case is opened.
public enum GoldenHTMLReport {
  /// The widest thumbnail, in pixels.
  public static let thumbnailWidth = 240

  /// How to write the command that accepts a change: the program and the
  /// references folder as the user gave them.
  public struct Context: Sendable {
    /// The references folder.
    public var references: String
    /// Extra options the accepting command repeats (`--scale 1`).
    public var options: [String] = []

    /// A context.
    public init(references: String, options: [String] = []) {
      self.references = references
      self.options = options
    }
  }

  /// Writes the page for `report` into `folder` (made if missing; a file there
  /// is an error), through temporary names renamed into place.
  public static func write(_ report: GoldenReport, to folder: String, context: Context) throws {
    var info = stat()
    if stat(folder, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR {
      throw GlassError(
        .invalidParameter, "--report \(folder) is a file, not a folder; name a folder for the report")
    }
    try FilePaths.makeFolders(folder, what: "the report folder")
    for sub in ["images", "thumbs"] {
      try FilePaths.makeFolders((folder as NSString).appendingPathComponent(sub), what: "the report folder")
    }
    var entries: [String] = []
    for (index, item) in report.cases.enumerated() {
      entries.append(try entry(item, index: index, folder: folder, context: context))
    }
    let failed = report.count(.failed)
    let summary =
      "{\"passed\":\(report.count(.passed)),\"failed\":\(failed),\"new\":\(report.count(.recorded) + report.cases.filter { $0.failure == .missingReference }.count),"
      + "\"errors\":\(report.count(.error)),\"seconds\":\(String(format: "%.2f", report.wallSeconds)),"
      + "\"backend\":\(json(report.backend)),\"when\":\(json(ISO8601DateFormatter().string(from: report.timestamp)))}"
    let data = "{\"summary\":\(summary),\"cases\":[\n\(entries.joined(separator: ",\n"))\n]}"
    // `</` cannot end the data's script element early.
    let page = template.replacingOccurrences(of: "@DATA@", with: data.replacingOccurrences(of: "</", with: "<\\/"))
    try PNGCodec.OutputFile(path: (folder as NSString).appendingPathComponent("index.html"), followingLinks: false)
      .write(encoded: Array(page.utf8))
  }

  /// One case's data, its images copied and its thumbnail made.
  static func entry(_ item: GoldenCase, index: Int, folder: String, context: Context) throws -> String {
    func copy(_ path: String?, _ suffix: String) throws -> String? {
      guard let path, FileManager.default.fileExists(atPath: path) else { return nil }
      let name = "images/\(index)-\(suffix).png"
      let bytes = try PNGCodec.readFile(path, maxBytes: Int.max, what: "a PNG")
      try PNGCodec.OutputFile(path: (folder as NSString).appendingPathComponent(name), followingLinks: false)
        .write(encoded: bytes)
      return name
    }
    let status: String
    switch item.status {
    case .passed: status = "passed"
    case .failed: status = item.failure == .missingReference ? "new" : "failed"
    case .recorded: status = "new"
    case .error: status = "error"
    }
    var fields: [(String, String)] = [
      ("name", json(item.name)), ("status", json(status)), ("seconds", String(format: "%.3f", item.seconds)),
    ]
    if let scene = item.scene { fields.append(("scene", json(scene))) }
    if let message = item.message { fields.append(("message", json(message))) }
    // Full images: a failure's three, a new reference's render (or the reference just recorded).
    var thumbSource: String?
    if item.status == .failed {
      if let r = try copy(item.reference, "reference") { fields.append(("reference", json(r))) }
      if let a = try copy(item.actual, "actual") { fields.append(("actual", json(a))) }
      if let d = try copy(item.difference, "difference") { fields.append(("difference", json(d))) }
      thumbSource = item.actual ?? item.reference
    } else if item.status == .recorded {
      if let r = try copy(item.reference, "reference") { fields.append(("reference", json(r))) }
      thumbSource = item.reference
    } else if item.status == .passed {
      thumbSource = item.reference
    }
    // Each PNG is decoded once: the thumbnail's source is a failure's render,
    // which the colour difference below reads too.
    var decoded: [String: RGBAImage] = [:]
    func image(_ path: String) -> RGBAImage? {
      if let known = decoded[path] { return known }
      let read = try? PNGCodec.read(path: path).image
      decoded[path] = read
      return read
    }
    if let source = thumbSource, let full = image(source) {
      let thumb = thumbnail(full)
      let name = "thumbs/\(index).png"
      try PNGCodec.OutputFile(path: (folder as NSString).appendingPathComponent(name), followingLinks: false)
        .write(thumb, compression: 1)
      fields.append(("thumb", json(name)))
    }
    if let c = item.comparison {
      let psnr = c.psnr.isInfinite ? "null" : String(format: "%.2f", c.psnr)
      fields.append(("maxDifference", String(format: "%.3f", c.maxDifference)))
      fields.append(("shareOverOne", String(format: "%.6f", c.fractionOverOne)))
      fields.append(("psnr", psnr))
      fields.append(("ignored", "\(item.ignoredPixels)"))
      if let worst = c.worstPixel { fields.append(("worst", "[\(worst.x),\(worst.y)]")) }
      if item.status == .failed, let a = item.actual, let r = item.reference,
        let actual = image(a), let reference = image(r),
        let perceptual = try? ImageComparison.perceptual(actual, reference, deltaEThreshold: 0)
      {
        fields.append(("deltaE", String(format: "%.2f", perceptual.maxDeltaE)))
      }
    }
    if let scene = item.scene, item.status == .failed || item.status == .recorded || status == "new" {
      var words = ["glass-gpu", "goldens", scene, "--references", context.references] + context.options
      if let variant = variantName(item) { words += ["--environments", variant] }
      words += ["--record", "failed"]
      fields.append(("accept", json(words.map(shellQuoted).joined(separator: " "))))
    }
    return "{" + fields.map { "\(json($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  /// The environment variant of a case: its name's last `.`-part, when the
  /// reference is `NAME.VARIANT.png` for a scene `NAME.json`.
  static func variantName(_ item: GoldenCase) -> String? {
    guard let scene = item.scene else { return nil }
    let base = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
    let last = (item.name as NSString).lastPathComponent
    guard last.hasPrefix(base + "."), last.count > base.count + 1 else { return nil }
    return String(last.dropFirst(base.count + 1))
  }

  /// A thumbnail of `image`, at most `thumbnailWidth` wide.
  static func thumbnail(_ image: RGBAImage) -> RGBAImage {
    guard image.width > thumbnailWidth else { return image.converted(to: .eight) }
    let height = max(1, image.height * thumbnailWidth / image.width)
    return ImageResampler.fit(image, to: PixelSize(width: thumbnailWidth, height: height), mode: .fit)
      .converted(to: .eight)
  }

  /// A JSON string, with `<` escaped too, so that nothing in it can end or
  /// open an element of the page it is written into.
  static func json(_ s: String) -> String {
    JSONValue.quote(s).replacingOccurrences(of: "<", with: "\\u003c")
  }

  /// A word as a POSIX shell reads it back.
  static func shellQuoted(_ word: String) -> String {
    let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=+:,@%".contains($0) }
    return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
