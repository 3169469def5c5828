import Foundation

/// A goldens check as one self-contained static page (`glass-gpu goldens
/// --report DIR`): `DIR/index.html` with its style, script and data inline, and
/// the images beside it in `DIR/images` (reference, render, difference and
/// difference overlay of each failure, and each new reference) and `DIR/thumbs`
/// (a thumbnail of every case, at most `thumbnailWidth` pixels wide). Nothing is
/// fetched from the network; the page works from `file://` and as a CI artifact.
///
/// The page: a summary (cases, passed, failed, new, errors, time: every case
/// counted once), the run (its command, working folder, commit, comparison
/// settings, and the command that accepts every failure), filters (failed, new,
/// errors, passed, all, each with its count of the cards it shows), search by
/// name, sorting by the size of the difference, grouping by folder or variant,
/// a card per case (per scene and environment variant) with its thumbnail
/// (loaded lazily) framing where the counted differences are, and an inspector:
/// reference, render and difference side by side, a slider (swipe), a strobe
/// (alternating every half second), a zoom with a pixel grid that keeps the
/// three aligned, and the differing pixels over the render; masks drawn on the
/// images; previous / next with "n of m"; the comparison's numbers (largest
/// difference, share over 1/255, PSNR, largest CIE94 ΔE) and the command that
/// accepts the change, with copy buttons. Keys: / searches, j / k or the arrows
/// move between cards, Enter opens one, 1 to 5 pick the mode, Escape closes;
/// they work after the slider is dragged too. Full images load only when a case
/// is opened.
///
/// The writer keeps to the report folder's own files: it lists the files it
/// writes in `.glass-gpu-report` there, and before it writes anything it
/// refuses a symbolic link, or anything but a folder or a file an earlier
/// report listed, at any path it would write (`index.html`, `images`, `thumbs`,
/// each image): a file it did not write is never replaced, a link never
/// followed.
public enum GoldenHTMLReport {
  /// The widest thumbnail, in pixels.
  public static let thumbnailWidth = 240

  /// The run around the cases: what the page shows of it, and how to write the
  /// commands that accept changes (the command line's words are the caller's).
  public struct Context: Sendable {
    /// The references folder.
    public var references: String
    /// The scene files and folders the run was given: a case of one of them can
    /// be accepted alone (a manifest's job cannot).
    public var inputs: [String] = []
    /// The names of the run's environment variants (none: the scenes' own).
    public var variants: [String] = []
    /// The words of the command that re-records one case's reference: given its
    /// scene, the folder its reference is in (its reference is then the scene's
    /// name, with the variant, `.png`) and its variant. Nil: no such command.
    public var acceptCase: (@Sendable (_ scene: String, _ referenceFolder: String, _ variant: String?) -> [String])?
    /// The words of the command that re-records every failure of the run.
    public var acceptAll: [String]?
    /// The run's command line, as given.
    public var command: [String]?
    /// The folder the run ran in (its paths are relative to it).
    public var workingFolder: String?
    /// The commit checked out where the run ran (`commit(of:)`).
    public var commit: String?
    /// How far a render could differ from its reference.
    public var limits = ImageComparison.Limits.exact
    /// The anti-aliasing mode and the masks.
    public var comparison = ComparisonOptions()

    /// A context of a run against `references`; the rest is set after.
    public init(references: String) {
      self.references = references
    }

    /// The commit checked out in the git working tree around `folder`, as `git
    /// rev-parse HEAD` gives it, read from the repository's files (`.git` as a
    /// folder, or a worktree's `.git` file naming it; `HEAD`, loose refs,
    /// `packed-refs`); nil outside a repository or when it cannot be read.
    public static func commit(of folder: String) -> String? {
      var current = FilePaths.lexicallyAbsolute(folder)
      var gitFolder: String?
      while gitFolder == nil {
        let dotGit = current == "/" ? "/.git" : current + "/.git"
        var info = stat()
        if stat(dotGit, &info) == 0 {
          if info.st_mode & S_IFMT == S_IFDIR {
            gitFolder = dotGit
          } else if info.st_mode & S_IFMT == S_IFREG, let text = smallText(dotGit), text.hasPrefix("gitdir: ") {
            let named = String(text.dropFirst("gitdir: ".count))
            gitFolder = named.hasPrefix("/") ? named : current + "/" + named
          }
        }
        if gitFolder == nil {
          guard current != "/" else { return nil }
          current = FilePaths.folder(of: current)
          if current.isEmpty { return nil }
        }
      }
      guard let git = gitFolder, let head = smallText(git + "/HEAD") else { return nil }
      if isObjectName(head) { return head }
      guard head.hasPrefix("ref: ") else { return nil }
      let ref = String(head.dropFirst("ref: ".count))
      guard !ref.contains(".."), ref.hasPrefix("refs/") else { return nil }
      var common = git
      if let named = smallText(git + "/commondir") { common = named.hasPrefix("/") ? named : git + "/" + named }
      for base in [git, common] {
        if let loose = smallText(base + "/" + ref), isObjectName(loose) { return loose }
      }
      guard let packed = try? String(contentsOfFile: common + "/packed-refs", encoding: .utf8) else { return nil }
      for line in packed.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("^") {
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[1] == ref, isObjectName(String(parts[0])) { return String(parts[0]) }
      }
      return nil
    }

    /// A small file's text without its trailing newline, or nil.
    private static func smallText(_ path: String) -> String? {
      guard let data = FileManager.default.contents(atPath: path), data.count < 4096 else { return nil }
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True for a SHA-1 or SHA-256 object name in hexadecimal.
    private static func isObjectName(_ text: String) -> Bool {
      (text.count == 40 || text.count == 64) && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
  }

  /// Writes the page for `report` into `folder` (made if missing; a file there
  /// is an error), through temporary names renamed into place. Throws, having
  /// written nothing, when a path it would write is a link or a file no earlier
  /// report wrote.
  public static func write(_ report: GoldenReport, to folder: String, context: Context) throws {
    var info = stat()
    if stat(folder, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR {
      throw GlassError(
        .invalidParameter, "the report folder \(folder) is a file, not a folder; name a folder for the report")
    }
    let plans = report.cases.enumerated().map { CasePlan($1, index: $0) }
    let names = [pageName] + plans.flatMap(\.files)
    let owned = try ReportFolder.ownedFiles(in: folder)
    try ReportFolder.checkWritable(names, in: folder, owned: owned)
    try FilePaths.makeFolders(folder, what: "the report folder")
    for sub in Set(names.map(FilePaths.folder(of:))) where !sub.isEmpty {
      try FilePaths.makeFoldersWithoutLinks(sub, in: folder)
    }
    // Listed before they are written: a run cut short leaves none of its files unlisted.
    try ReportFolder.record(owned.union(names), in: folder)
    var entries: [String] = []
    for plan in plans {
      entries.append(try entry(plan, folder: folder, context: context))
    }
    var counts: [String: Int] = [:]
    for plan in plans { counts[plan.status, default: 0] += 1 }
    let summary =
      "{\"cases\":\(plans.count),\"passed\":\(counts["passed"] ?? 0),\"failed\":\(counts["failed"] ?? 0),"
      + "\"new\":\(counts["new"] ?? 0),\"errors\":\(counts["error"] ?? 0),"
      + "\"seconds\":\(String(format: "%.2f", report.wallSeconds)),"
      + "\"backend\":\(json(report.backend)),\"when\":\(json(ISO8601DateFormatter().string(from: report.timestamp)))}"
    let failing = report.cases.contains { $0.status == .failed }
    let data =
      "{\"title\":\"glass-gpu goldens\",\"summary\":\(summary),\"run\":\(run(context, failing: failing)),"
      + "\"cases\":[\n\(entries.joined(separator: ",\n"))\n]}"
    try PNGCodec.OutputFile(path: (folder as NSString).appendingPathComponent(pageName), followingLinks: false)
      .write(encoded: Array(page(data: data).utf8))
  }

  /// The page's file in its folder.
  static let pageName = "index.html"

  /// The template with `data` (a JSON object) in it; `</` cannot end the data's
  /// script element early.
  static func page(data: String) -> String {
    template.replacingOccurrences(of: "@DATA@", with: data.replacingOccurrences(of: "</", with: "<\\/"))
  }

  /// How a case shows on the page: passed, failed, new (recorded, or without a
  /// reference) or error; every case has exactly one.
  static func pageStatus(_ item: GoldenCase) -> String {
    switch item.status {
    case .passed: "passed"
    case .failed: item.failure == .missingReference ? "new" : "failed"
    case .recorded: "new"
    case .error: "error"
    }
  }

  /// The files one case puts in the report folder, decided before any is written.
  struct CasePlan {
    var index: Int
    var item: GoldenCase
    var status: String
    /// Images copied as `images/INDEX-KIND.png`, from these files.
    var copies: [(kind: String, source: String)] = []
    /// The image the thumbnail is made from.
    var thumbSource: String?
    /// Whether `images/INDEX-overlay.png` (the differing pixels) is drawn.
    var overlay = false

    init(_ item: GoldenCase, index: Int) {
      self.index = index
      self.item = item
      status = GoldenHTMLReport.pageStatus(item)
      func existing(_ path: String?) -> String? {
        path.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
      }
      switch item.status {
      case .failed:
        for (kind, path) in [("reference", item.reference), ("actual", item.actual), ("difference", item.difference)] {
          if let source = existing(path) { copies.append((kind, source)) }
        }
        thumbSource = existing(item.actual) ?? existing(item.reference)
        overlay = item.failure == .imagesDiffer && existing(item.actual) != nil && existing(item.reference) != nil
      case .recorded:
        if let source = existing(item.reference) { copies.append(("reference", source)) }
        thumbSource = existing(item.reference)
      case .passed:
        thumbSource = existing(item.reference)
      case .error:
        break
      }
    }

    func image(_ kind: String) -> String { "images/\(index)-\(kind).png" }
    var thumb: String { "thumbs/\(index).png" }
    var files: [String] {
      copies.map { image($0.kind) } + (thumbSource == nil ? [] : [thumb]) + (overlay ? [image("overlay")] : [])
    }
  }

  /// The `run` object of the page's data.
  static func run(_ context: Context, failing: Bool) -> String {
    var fields: [(String, String)] = []
    if let command = context.command { fields.append(("command", json(shellLine(command)))) }
    if let folder = context.workingFolder { fields.append(("folder", json(folder))) }
    if let commit = context.commit { fields.append(("commit", json(commit))) }
    let limits = context.limits
    let settings =
      "{\"maxDifference\":\(limits.maxDifference.map(number) ?? "null"),"
      + "\"maxShare\":\(limits.maxSharePercent.map(number) ?? "null"),"
      + "\"antiAliasing\":\(context.comparison.antiAliasing),"
      + "\"masks\":[\(context.comparison.masks.map { json($0.description) }.joined(separator: ","))]}"
    fields.append(("settings", settings))
    if failing, let all = context.acceptAll { fields.append(("acceptAll", json(shellLine(all)))) }
    return object(fields)
  }

  /// One case's data, its images copied, its thumbnail and overlay drawn.
  static func entry(_ plan: CasePlan, folder: String, context: Context) throws -> String {
    let item = plan.item
    func output(_ name: String) throws -> PNGCodec.OutputFile {
      try PNGCodec.OutputFile(path: (folder as NSString).appendingPathComponent(name), followingLinks: false)
    }
    var fields = commonFields(item, status: plan.status)
    if let variant = variantName(item), context.variants.contains(variant) { fields.append(("variant", json(variant))) }
    for (kind, source) in plan.copies {
      try output(plan.image(kind)).write(encoded: try PNGCodec.readFile(source, maxBytes: Int.max, what: "a PNG"))
      fields.append((kind, json(plan.image(kind))))
    }
    // Each PNG is decoded once: a failure's render makes the thumbnail and is
    // compared again for the colour difference and the overlay.
    var decoded: [String: RGBAImage] = [:]
    func image(_ path: String) -> RGBAImage? {
      if let known = decoded[path] { return known }
      let read = try? PNGCodec.read(path: path).image
      decoded[path] = read
      return read
    }
    var imageSize: PixelSize?
    if let source = plan.thumbSource, let full = image(source) {
      imageSize = full.size
      let thumb = thumbnail(full)
      try output(plan.thumb).write(thumb, compression: 1)
      fields.append(("thumb", json(plan.thumb)))
      fields.append(("thumbSize", "[\(thumb.width),\(thumb.height)]"))
      fields.append(("size", "[\(full.width),\(full.height)]"))
    }
    if let c = item.comparison { fields += comparisonFields(c, ignored: item.ignoredPixels) }
    if item.status == .failed, let a = item.actual, let r = item.reference, let actual = image(a),
      let reference = image(r), actual.size == reference.size
    {
      if let perceptual = try? ImageComparison.perceptual(actual, reference, deltaEThreshold: 0) {
        fields.append(("deltaE", String(format: "%.2f", perceptual.maxDeltaE)))
      }
      let marks = DifferenceMarks(
        actual, reference, masked: item.maskedPixels, antiAliasing: context.comparison.antiAliasing)
      if let box = marks.box { fields.append(("changeBox", rect(box))) }
      if plan.overlay {
        try output(plan.image("overlay")).write(marks.overlay, compression: 1)
        fields.append(("overlay", json(plan.image("overlay"))))
      }
    }
    var masks = item.maskedPixels
    if let size = imageSize { masks = masks.map { $0.intersection(PixelRect(size: size)) } }
    masks.removeAll { $0.isEmpty }
    if !masks.isEmpty { fields.append(("masks", "[" + masks.map(rect).joined(separator: ",") + "]")) }
    if item.status == .failed, let words = acceptCommand(item, context: context) {
      fields.append(("accept", json(shellLine(words))))
    }
    return object(fields)
  }

  /// The fields every case has: name, status, why it failed, its folder (for
  /// grouping), scene, message and time.
  static func commonFields(_ item: GoldenCase, status: String) -> [(String, String)] {
    var fields: [(String, String)] = [
      ("name", json(item.name)), ("status", json(status)), ("seconds", String(format: "%.3f", item.seconds)),
    ]
    if let failure = item.failure { fields.append(("failure", json(failure.rawValue))) }
    let folder = FilePaths.folder(of: item.name)
    if !folder.isEmpty { fields.append(("folder", json(folder))) }
    if let scene = item.scene { fields.append(("scene", json(scene))) }
    if let message = item.message { fields.append(("message", json(message))) }
    return fields
  }

  /// A comparison's numbers.
  static func comparisonFields(_ c: ImageComparison, ignored: Int) -> [(String, String)] {
    var fields: [(String, String)] = [
      ("maxDifference", String(format: "%.3f", c.maxDifference)),
      ("shareOverOne", String(format: "%.6f", c.fractionOverOne)),
      ("psnr", c.psnr.isInfinite ? "null" : String(format: "%.2f", c.psnr)),
      ("ignored", "\(ignored)"),
    ]
    if let worst = c.worstPixel { fields.append(("worst", "[\(worst.x),\(worst.y)]")) }
    return fields
  }

  /// The command that re-records this one case's reference, when the run can
  /// say it: the case's scene is one of the run's inputs (or in one of its
  /// folders), and its reference is named as checking that scene file alone
  /// names it (`NAME.png`, `NAME.VARIANT.png`) in the reference's own folder, so
  /// a scene in a subfolder gets that subfolder of the references.
  static func acceptCommand(_ item: GoldenCase, context: Context) -> [String]? {
    guard let scene = item.scene, let reference = item.reference, let acceptCase = context.acceptCase,
      context.inputs.contains(where: { $0 == scene || FilePaths.relative(scene, under: $0) != nil })
    else { return nil }
    let variant = variantName(item)
    if let variant {
      guard context.variants.contains(variant) else { return nil }
    } else {
      guard context.variants.isEmpty else { return nil }
    }
    let base = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
    guard (reference as NSString).lastPathComponent == base + (variant.map { "." + $0 } ?? "") + ".png" else {
      return nil
    }
    let folder = FilePaths.folder(of: reference)
    return acceptCase(scene, folder.isEmpty ? "." : folder, variant)
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

  /// Where two images differ as the comparison counts it: the pixels that
  /// differ at all, outside the masks, and (in the anti-aliasing mode) not
  /// explained as anti-aliasing (`ImageComparison.explainingAntiAliasing`).
  struct DifferenceMarks {
    /// The bounding box of the counted differences; nil when there are none.
    var box: PixelRect?
    /// Counted differences opaque red, those the anti-aliasing mode leaves out
    /// translucent amber, everything else transparent.
    var overlay: RGBAImage

    init(_ actual: RGBAImage, _ reference: RGBAImage, masked: [PixelRect], antiAliasing: Bool) {
      let compared = antiAliasing ? ImageComparison.explainingAntiAliasing(actual, against: reference) : actual
      var low = (x: Int.max, y: Int.max)
      var high = (x: -1, y: -1)
      let isMasked = ImageComparison.maskFlags(masked, size: actual.size)
      overlay = RGBAImage(width: actual.width, height: actual.height) { x, y in
        let q = reference.pixel16(x: x, y: y)
        guard actual.pixel16(x: x, y: y) != q, !isMasked[y * actual.width + x] else { return SIMD4(0, 0, 0, 0) }
        guard compared.pixel16(x: x, y: y) != q else { return SIMD4(255, 176, 0, 150) }
        low = (min(low.x, x), min(low.y, y))
        high = (max(high.x, x), max(high.y, y))
        return SIMD4(255, 0, 0, 255)
      }
      box = high.x < 0 ? nil : PixelRect(x: low.x, y: low.y, width: high.x - low.x + 1, height: high.y - low.y + 1)
    }
  }

  /// A thumbnail of `image`, at most `thumbnailWidth` wide.
  static func thumbnail(_ image: RGBAImage) -> RGBAImage {
    guard image.width > thumbnailWidth else { return image.converted(to: .eight) }
    let height = max(1, image.height * thumbnailWidth / image.width)
    return ImageResampler.fit(image, to: PixelSize(width: thumbnailWidth, height: height), mode: .fit)
      .converted(to: .eight)
  }

  /// A JSON object of already encoded values.
  static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(json($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  /// `[x,y,width,height]`.
  static func rect(_ r: PixelRect) -> String { "[\(r.x),\(r.y),\(r.width),\(r.height)]" }

  /// A finite number as JSON.
  static func number(_ value: Double) -> String { value.isFinite ? ParameterSpec.format(value) : "null" }

  /// A JSON string, with `<` escaped too, so that nothing in it can end or
  /// open an element of the page it is written into.
  static func json(_ s: String) -> String {
    JSONValue.quote(s).replacingOccurrences(of: "<", with: "\\u003c")
  }

  /// Words as one POSIX shell line.
  static func shellLine(_ words: [String]) -> String { words.map(shellQuoted).joined(separator: " ") }

  /// A word as a POSIX shell reads it back.
  static func shellQuoted(_ word: String) -> String {
    let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=+:,@%".contains($0) }
    return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
