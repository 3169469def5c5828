import Foundation

/// Which references a goldens check writes (the modes of swift-snapshot-testing's
/// `record`, and of its `SNAPSHOT_TESTING_RECORD`).
public enum GoldenRecordMode: String, Sendable, CaseIterable {
  /// Writes none: a missing reference fails.
  case never
  /// Writes the references that are missing.
  case missing
  /// Writes the references that are missing, unreadable or differ beyond the limits.
  case failed
  /// Writes every reference anew.
  case all
}

/// What a goldens check does: where the references are, how far a render may
/// differ from one, what it records, and how it renders (a batch's options).
public struct GoldenCheckOptions: Sendable {
  /// The folder of reference PNGs; a job's output names its reference in it.
  public var references: String
  /// Where the actual image and a difference image of each failure are written
  /// (made if missing); renders that pass are removed from it.
  public var artifacts: String
  /// How far a render may differ from its reference; exact by default.
  public var limits = ImageComparison.Limits.exact
  /// What the comparison leaves out: masks, and pixels a sub-pixel shift
  /// explains (`ComparisonOptions`); nothing by default.
  public var comparison = ComparisonOptions()
  /// Which references are written.
  public var record = GoldenRecordMode.never
  /// Keep the render of every case in the artifacts folder, passes too (to
  /// inspect or upload them all); by default only failures keep theirs.
  public var keepRenders = false
  /// How jobs render. The CPU backend by default: it renders the same bytes
  /// everywhere, which is what references are for. `resume` is ignored.
  public var batch: BatchOptions

  /// Options with the CPU backend, exact limits and no recording.
  public init(references: String, artifacts: String) {
    self.references = references
    self.artifacts = artifacts
    batch = BatchOptions()
    batch.backend = .cpu
  }
}

/// How one case of a goldens check ended.
public enum GoldenStatus: String, Sendable {
  /// Within the limits of its reference.
  case passed
  /// Beyond the limits, of another size, or without a reference.
  case failed
  /// Its reference was written (missing, or re-recorded on request); not checked.
  case recorded
  /// It could not be checked: a bad scene, an unreadable reference, a failed render.
  case error
}

/// Why a case failed.
public enum GoldenFailure: String, Sendable {
  /// There is no reference (and recording was not asked for).
  case missingReference = "missing-reference"
  /// The render and its reference differ in size.
  case sizeDiffers = "size-differs"
  /// The images differ beyond the limits.
  case imagesDiffer = "images-differ"
}

/// One scene of a goldens check and how it ended.
public struct GoldenCase: Sendable {
  /// The case's name: its reference's path under the references folder, without
  /// `.png` (or the job's id when it has no reference).
  public var name: String
  /// The scene file, when the job names one.
  public var scene: String?
  /// The reference PNG.
  public var reference: String?
  /// Passed, failed, recorded or error.
  public var status: GoldenStatus
  /// Why a failed case failed.
  public var failure: GoldenFailure?
  /// What happened, for every case but a pass: the difference and the files
  /// written, what was recorded, or the error.
  public var message: String?
  /// The fix the message suggests, as a value (a front end names its control for
  /// it): recording the reference, for a missing one or a failure.
  public var hint: GlassError.Hint?
  /// The render, kept for a failure (in the artifacts folder).
  public var actual: String?
  /// The difference image of a failure, when the sizes agree.
  public var difference: String?
  /// The comparison with the reference, when one was made.
  public var comparison: ImageComparison?
  /// The limits the comparison exceeded, as the message says them.
  public var violations: [ImageComparison.Limits.Violation] = []
  /// Pixels the comparison left out (masked, or explained by a sub-pixel shift).
  public var ignoredPixels = 0
  /// The rectangles the comparison's masks left out, in the image's pixels.
  public var maskedPixels: [PixelRect] = []
  /// The error of a case that could not be checked.
  public var error: GlassError?
  /// The files the case's scene reads (its scene file, the images it names);
  /// nil when it failed before its scene was read (what it reads is unknown).
  public var inputs: [String]?
  /// Seconds spent on the case: preparing, rendering, encoding, comparing.
  public var seconds = 0.0

  /// A case; what is not given is set after.
  public init(
    name: String, scene: String? = nil, reference: String? = nil, status: GoldenStatus,
    failure: GoldenFailure? = nil, message: String? = nil, error: GlassError? = nil
  ) {
    self.name = name
    self.scene = scene
    self.reference = reference
    self.status = status
    self.failure = failure
    self.message = message
    self.error = error
  }
}

/// The outcome of a goldens check, case by case in job order.
public struct GoldenReport: Sendable {
  /// Every case, in the order of the jobs.
  public var cases: [GoldenCase] = []
  /// Seconds the check took.
  public var wallSeconds = 0.0
  /// When it started.
  public var timestamp = Date()
  /// The backend that rendered (`cpu` or `gpu`).
  public var backend = ""
  /// False when the check stopped (a SIGINT or SIGTERM, `stop()`) before every
  /// scene was taken: the scenes not taken have no case.
  public var complete = true
  /// The SIGINT or SIGTERM that stopped the check, if one did.
  public var stoppedBySignal: Int32?

  /// A report of no cases yet.
  public init() {}

  /// The report of a check that stopped before any case was checked: one case,
  /// named `name`, with `error` (a missing references folder, an unreadable
  /// manifest, no scenes), so that a CI job that reads the report shows why.
  public static func setupFailure(_ error: GlassError, name: String = "setup") -> GoldenReport {
    var report = GoldenReport()
    var item = GoldenCase(name: name, status: .error)
    item.message = error.description
    item.error = error
    report.cases = [item]
    return report
  }

  /// Cases with this status.
  public func count(_ status: GoldenStatus) -> Int { cases.filter { $0.status == status }.count }

  /// True when every case passed.
  public var allPassed: Bool { cases.allSatisfy { $0.status == .passed } }

  /// The exit status of `glass-gpu goldens`: 0 when every case passed, 1 when
  /// any failed or could not be checked, 2 when references were recorded and
  /// nothing failed (a recording is never a pass: check the new files, run again).
  public var exitStatus: Int32 {
    if cases.contains(where: { $0.status == .failed || $0.status == .error }) { return 1 }
    return cases.contains { $0.status == .recorded } ? 2 : 0
  }
}

/// Checks scenes against reference PNGs through the batch pipeline: every job
/// renders into the artifacts folder and is compared (`ImageComparison`) with its
/// reference when it is written; a pass is removed, a failure keeps its render
/// and gets a difference image; missing references are recorded on request.
public final class GoldenCheck: @unchecked Sendable {
  /// The batch that renders the jobs.
  public let batch: BatchRenderer
  /// The check's options.
  public let options: GoldenCheckOptions
  /// The jobs by the path their render is written to, for the masks that name
  /// a layer or a view of their scene.
  private var jobsByActual: [String: BatchJob] = [:]
  private let jobsLock = NSLock()

  /// A check with a renderer of its own (`options.batch.backend`).
  public convenience init(options: GoldenCheckOptions) throws {
    try self.init(
      renderer: Renderer(
        backend: options.batch.backend, cpuThreads: options.batch.cpuThreads,
        caches: RenderCaches(budgets: options.batch.cacheBudgets)),
      options: options)
  }

  /// A check on a renderer made already.
  public init(renderer: Renderer, options: GoldenCheckOptions) throws {
    guard !options.references.isEmpty else {
      throw GlassError(.invalidParameter, "the references folder is empty; name the folder of reference PNGs")
    }
    guard !options.artifacts.isEmpty else {
      throw GlassError(.invalidParameter, "the artifacts folder is empty; name a folder for the failures' images")
    }
    if Self.sameFolder(options.references, options.artifacts) {
      throw GlassError(
        .invalidParameter,
        "the artifacts folder \(options.artifacts) is the references folder; name another folder for the failures' "
          + "images, so that a render never replaces a reference unasked")
    }
    var batchOptions = options.batch
    batchOptions.resume = false
    // The artifacts are this check's alone: no link found there is followed.
    batchOptions.privateFolder = options.artifacts
    batch = BatchRenderer(renderer: renderer, options: batchOptions)
    self.options = options
  }

  /// The jobs of scene files and folders of them (`BatchJob.jobs(forInput:)`),
  /// each with its reference: `NAME.png` in the references folder for a scene
  /// file, the same relative path for a folder's scenes.
  public func jobs(forInputs inputs: [String]) throws -> [BatchJob] {
    try inputs.flatMap { try BatchJob.jobs(forInput: $0, outputDirectory: options.references) }
  }

  /// A batch manifest whose jobs' `output` names their references, relative to
  /// the references folder.
  public func manifest(path: String) throws -> BatchManifest {
    try BatchManifest(path: path, outputDirectory: options.references)
  }

  /// Checks every entry (each job's `output` is its reference), calling `onCase`
  /// (one call at a time) as each case ends, and returns the report in job order.
  public func run(_ entries: some Sequence<BatchEntry>, onCase: (GoldenCase) -> Void = { _ in }) -> GoldenReport {
    var report = GoldenReport()
    report.backend = batch.renderer.backendName
    let start = Date()
    var ended: [(Int, GoldenCase)] = []
    let mapped = entries.lazy.map { self.renderingToArtifacts($0) }
    let summary = batch.run(mapped) { result in
      let checked = self.check(result)
      ended.append((result.ordinal, checked))
      onCase(checked)
    }
    report.complete = summary.complete
    report.stoppedBySignal = summary.stoppedBySignal
    report.cases = ended.sorted { $0.0 < $1.0 }.map(\.1)
    report.wallSeconds = Date().timeIntervalSince(start)
    return report
  }

  // MARK: Paths

  /// The entry with its output moved from the reference to the artifacts folder.
  private func renderingToArtifacts(_ entry: BatchEntry) -> BatchEntry {
    switch entry {
    case .job(var job):
      job.output = actualPath(forReference: job.output)
      if !options.comparison.masks.isEmpty { jobsLock.withLock { jobsByActual[job.output] = job } }
      return .job(job)
    case .invalid(let id, let line, let output, let error):
      return .invalid(id: id, line: line, output: output.map(actualPath(forReference:)), error: error)
    }
  }

  /// `reference`'s path under the references folder (its last component when it
  /// lies elsewhere), by its spelling: a reference that is a link keeps its own
  /// name, wherever the link leads.
  func relativePath(ofReference reference: String) -> String {
    FilePaths.relative(reference, under: options.references)
      ?? (FilePaths.lexicallyNormalized(reference) as NSString).lastPathComponent
  }

  /// Where the render of the job whose reference is `reference` is written.
  func actualPath(forReference reference: String) -> String {
    (options.artifacts as NSString).appendingPathComponent(relativePath(ofReference: reference))
  }

  /// The reference of a render written at `actual`.
  private func referencePath(forActual actual: String) -> String {
    let relative = String(actual.dropFirst((options.artifacts as NSString).appendingPathComponent("").count))
    return (options.references as NSString).appendingPathComponent(
      relative.hasPrefix("/") ? String(relative.dropFirst()) : relative)
  }

  // MARK: The check of one case

  /// Compares a rendered job with its reference, or reports why it could not be.
  private func check(_ result: BatchResult) -> GoldenCase {
    let start = Date()
    let reference = result.output.map(referencePath(forActual:))
    var item = GoldenCase(
      name: reference.map { name(ofReference: $0) } ?? result.id, scene: result.scene, reference: reference,
      status: .error)
    item.inputs = result.inputs
    let batchSeconds =
      (result.timings.prepareMilliseconds + result.timings.renderMilliseconds + result.timings.encodeMilliseconds
        + result.timings.writeMilliseconds) / 1000
    if result.status == .rendered, let actual = result.output, let reference {
      do {
        try compare(actual: actual, reference: reference, into: &item)
      } catch {
        let glassError = error as? GlassError ?? GlassError(.renderFailure, "\(error)")
        item.status = .error
        item.error = glassError
        item.message = glassError.description
      }
    } else {
      let error = result.error ?? GlassError(.renderFailure, "the job was not rendered")
      item.error = error
      item.message = error.description
    }
    item.seconds = batchSeconds + Date().timeIntervalSince(start)
    return item
  }

  private func name(ofReference reference: String) -> String {
    let relative = relativePath(ofReference: reference)
    return relative.lowercased().hasSuffix(".png") ? String(relative.dropLast(4)) : relative
  }

  private func compare(actual: String, reference: String, into item: inout GoldenCase) throws {
    let exists = try Self.referenceExists(reference)
    // The masks first: one that names nothing fails the case before anything is
    // recorded, a new reference as much as one recorded anew.
    let masked = try maskedPixels(forActual: actual)
    if options.record == .all || (!exists && options.record != .never) {
      try record(actual, as: reference, scene: item.scene)
      item.status = .recorded
      item.message = "recorded \(exists ? "anew " : "")the reference \(reference); check it and run again"
      return
    }
    guard exists else {
      item.status = .failed
      item.failure = .missingReference
      item.actual = actual
      item.message = "there is no reference \(reference); the render is \(actual): check it, then record it"
      item.hint = .record(.missing)
      return
    }
    let expected: RGBAImage
    do {
      expected = try PNGCodec.read(path: reference, maxPixels: options.batch.maxPixels).image
    } catch let error as GlassError {
      if options.record == .failed {
        try record(actual, as: reference, scene: item.scene)
        item.status = .recorded
        item.message = "recorded anew the unreadable reference \(reference) (\(error.message))"
        return
      }
      throw GlassError(
        error.code, "cannot read the reference \(reference): \(error.message); replace it, or record it anew",
        cause: error.cause, hint: .record(.failed))
    }
    let image = try PNGCodec.read(path: actual, maxPixels: options.batch.maxPixels).image
    guard image.size == expected.size else {
      if options.record == .failed {
        try record(actual, as: reference, scene: item.scene)
        item.status = .recorded
        item.message = "recorded anew the reference \(reference): it was \(expected.size), the render is \(image.size)"
        return
      }
      item.status = .failed
      item.failure = .sizeDiffers
      item.actual = actual
      item.message =
        "the render is \(image.size) but the reference \(reference) is \(expected.size): the scene's size or scale "
        + "changed; wrote \(actual); if the new size is meant, record the reference anew"
      item.hint = .record(.failed)
      return
    }
    var ignored = 0
    item.maskedPixels = masked
    let comparison =
      options.comparison.isPlain
      ? try ImageComparison(image, expected)
      : try ImageComparison(
        image, expected, masked: masked, antiAliasing: options.comparison.antiAliasing, ignored: &ignored)
    item.comparison = comparison
    item.ignoredPixels = ignored
    item.violations = options.limits.exceeded(by: comparison)
    let violations = item.violations.map(\.description)
    guard !violations.isEmpty else {
      item.status = .passed
      if options.keepRenders { item.actual = actual } else { _ = unlink(actual) }
      return
    }
    if options.record == .failed {
      try record(actual, as: reference, scene: item.scene)
      item.status = .recorded
      item.message = "recorded anew the reference \(reference): \(violations.joined(separator: "; "))"
      return
    }
    let difference = (actual as NSString).deletingPathExtension + "-diff.png"
    try PNGCodec.OutputFile(path: difference, followingLinks: false).write(
      ImageComparison.differenceImage(image, expected))
    item.status = .failed
    item.failure = .imagesDiffer
    item.actual = actual
    item.difference = difference
    let psnr = comparison.psnr.isInfinite ? "inf" : String(format: "%.2f", comparison.psnr)
    item.message =
      "differs from its reference \(reference): \(violations.joined(separator: "; ")) "
      + "(\(comparison.pixelsOverOne) pixels over 1/255, PSNR \(psnr) dB); wrote the render \(actual) and the "
      + "difference \(difference); if the change is meant, record the reference anew"
    item.hint = .record(.failed)
  }

  /// The masked pixels of the job rendered at `actual`: its scene as the job
  /// rendered it (its scale and environment), laid out; throws naming a mask that
  /// names nothing.
  private func maskedPixels(forActual actual: String) throws -> [PixelRect] {
    guard !options.comparison.masks.isEmpty else { return [] }
    guard let job = jobsLock.withLock({ jobsByActual[actual] }) else { return [] }
    var file: SceneFile
    switch job.scene {
    case .file(let path): file = try SceneFile(path: path)
    case .scene(let scene, let directory): file = SceneFile(scene: scene, directory: directory)
    }
    if let scale = job.scale ?? options.batch.scale { file.scene.scale = scale }
    if let variant = job.environment { file.scene.environment = variant.applied(to: file.scene.environment) }
    return try options.comparison.maskedPixels(
      in: file.scene, images: try file.loadImages(maxPixels: options.batch.maxPixels))
  }

  /// Writes the render at `actual` as the reference (through a temporary file
  /// renamed over it, never over the scene or a protected file), then removes the
  /// render.
  private func record(_ actual: String, as reference: String, scene: String?) throws {
    let bytes = try PNGCodec.readFile(actual, maxBytes: Int.max, what: "a PNG")
    let file = try BatchRenderer.reserve(reference)
    try file.checkDistinct(from: options.batch.protectedFiles + (scene.map { [$0] } ?? []))
    try file.write(encoded: bytes)
    _ = unlink(actual)
  }

  /// The references under the references folder that no case of `report`
  /// names: stale ones, left by scenes or variants that are gone (Roborazzi's
  /// cleanup), sorted. Run it over all of a project's scenes: a reference of a
  /// scene this run did not check looks stale.
  ///
  /// Only a file that can be a reference is ever stale: a regular file (not a
  /// link; folders are walked without following links) named as this check names
  /// references (`NAME.png`, or with `variants` `NAME.VARIANT.png` for one of
  /// them), that no case names and that the run reads in no way (not a scene
  /// file, not an image a scene names, not one of `options.batch.protectedFiles`
  /// such as the manifest), wherever the folders lie (a references folder that
  /// holds the scenes). A case that failed or could not be checked still names its
  /// reference, which is never stale.
  ///
  /// Decided only once every scene was checked: throws, deciding nothing, when
  /// the run did not check every scene (stopped by a signal), when a case names no
  /// reference (a manifest line that could not be read, or that ended the
  /// manifest), or when a case failed before its scene was read (what it reads is
  /// unknown).
  public func staleReferences(_ report: GoldenReport, variants: [EnvironmentVariant] = []) throws -> [String] {
    let undecided = "nothing is stale until every scene is checked"
    guard report.complete else {
      let why = report.stoppedBySignal.map { "it was stopped by signal \($0)" } ?? "it was stopped"
      throw GlassError(
        .invalidParameter, "the check did not check every scene (\(why)); \(undecided): run it to the end")
    }
    var reads = Set<FileIdentity>()
    for path in options.batch.protectedFiles { if let file = FilePaths.identity(path) { reads.insert(file) } }
    var produced = Set<String>()
    for item in report.cases {
      guard let reference = item.reference else {
        throw GlassError(
          .invalidParameter,
          "\(item.name) names no reference (\(item.message ?? "it could not be read")); \(undecided): fix it, then "
            + "run again")
      }
      guard let inputs = item.inputs else {
        throw GlassError(
          .invalidParameter,
          "what the scene of \(item.name) reads is unknown (\(item.message ?? "it could not be read")); \(undecided): "
            + "fix it, then run again")
      }
      produced.insert(FilePaths.lexicallyNormalized(relativePath(ofReference: reference)))
      for path in inputs + (item.scene.map { [$0] } ?? []) {
        if let file = FilePaths.identity(path) { reads.insert(file) }
      }
    }
    let root = options.references
    var info = stat()
    guard stat(root, &info) == 0 else {
      if errno == ENOENT { return [] }
      throw GlassError(
        .fileUnreadable, "cannot look at the references folder \(root): \(String(cString: strerror(errno)))")
    }
    var stale: [String] = []
    try walkFiles(in: root, relative: "") { relative, path, file in
      guard Self.isReferenceName(relative, variants: variants),
        !produced.contains(FilePaths.lexicallyNormalized(relative)), !reads.contains(file)
      else { return }
      stale.append(path)
    }
    return stale.sorted()
  }

  /// True when `relative` is named as a reference of a check with `variants`:
  /// it ends in `.png` (any case), and with variants in `.VARIANT.png` for one.
  static func isReferenceName(_ relative: String, variants: [EnvironmentVariant]) -> Bool {
    guard relative.lowercased().hasSuffix(".png") else { return false }
    guard !variants.isEmpty else { return true }
    let stem = relative.dropLast(4)
    return variants.contains { stem.count > $0.name.count + 1 && stem.hasSuffix("." + $0.name) }
  }

  /// Calls `body` with each regular file under `folder` (its path relative to the
  /// references folder, its path, its identity), walking folders without
  /// following links.
  private func walkFiles(
    in folder: String, relative: String, _ body: (String, String, FileIdentity) throws -> Void
  ) throws {
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw GlassError(.fileUnreadable, "cannot list the folder \(folder); check its permissions")
    }
    for entry in entries.sorted() {
      let path = (folder as NSString).appendingPathComponent(entry)
      let inside = relative.isEmpty ? entry : relative + "/" + entry
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFDIR: try walkFiles(in: path, relative: inside, body)
      case S_IFREG: try body(inside, path, FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
      default: continue
      }
    }
  }

  // MARK: Where outputs may go

  /// The files `entries` read, for `checkPlacement(ofFolder:what:inputs:)`: each
  /// scene file and the images each scene names (a scene file is read for them;
  /// one that cannot be read adds only its own path, and its case reports it).
  public func inputFiles(of entries: some Sequence<BatchEntry>) -> [String] {
    var files: [String] = []
    var seen = Set<String>()
    for entry in entries {
      guard case .job(let job) = entry else { continue }
      let file: SceneFile
      switch job.scene {
      case .file(let path):
        guard seen.insert(path).inserted else { continue }
        files.append(path)
        guard let read = try? SceneFile(path: path) else { continue }
        file = read
      case .scene(let scene, let directory): file = SceneFile(scene: scene, directory: directory)
      }
      for reference in file.scene.imageReferences {
        let path = file.resolve(reference.path)
        if seen.insert(path).inserted { files.append(path) }
      }
    }
    return files
  }

  /// Throws `invalidParameter` when `folder` (named `what` in the message, such as
  /// `the report folder`), where this check writes files of its own, could write
  /// over a reference or an input: it is the references folder, lies inside it or
  /// holds it, or it holds one of `inputs` (the scene files, the images they name,
  /// the manifest: `inputFiles(of:)`). A folder inside an input's folder that holds
  /// none of them is fine (`scenes/report`). Compared by spelling and through
  /// links; call it before anything is written.
  public func checkPlacement(ofFolder folder: String, what: String, inputs: [String]) throws {
    let references = options.references
    let fix = "name a folder of its own that holds no reference and no input of the check, such as out/report"
    if FilePaths.holds(folder, references) {
      let how = Self.sameFolder(folder, references) ? "is" : "holds"
      throw GlassError(
        .invalidParameter,
        "\(what) \(folder) \(how) the references folder \(references): its files could replace references; \(fix)")
    }
    if FilePaths.holds(references, folder) {
      throw GlassError(
        .invalidParameter,
        "\(what) \(folder) lies inside the references folder \(references): its files could replace references, and "
          + "would be taken for references; \(fix)")
    }
    if let input = inputs.first(where: { FilePaths.holds(folder, $0) }) {
      throw GlassError(
        .invalidParameter, "\(what) \(folder) holds \(input), which the check reads: it could be replaced; \(fix)")
    }
  }

  /// True when `reference` is a file (through links), false when there is none;
  /// throws naming what it is when it is something else (a folder, a FIFO, a
  /// device) or cannot be looked at (an unreadable references folder).
  static func referenceExists(_ reference: String) throws -> Bool {
    var info = stat()
    guard stat(reference, &info) == 0 else {
      let code = errno
      if code == ENOENT { return false }
      let reason =
        code == EACCES
        ? "permission denied: the references folder (or a folder above it) cannot be read; check its permissions"
        : String(cString: strerror(code)) + "; check the path and its permissions"
      throw GlassError(.fileUnreadable, "cannot look at the reference \(reference): \(reason)")
    }
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFREG: return true
    case S_IFDIR: kind = "a folder"
    case S_IFIFO: kind = "a FIFO (named pipe)"
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFSOCK: kind = "a socket"
    default: kind = "not a regular file"
    }
    throw GlassError(
      .fileUnreadable, "the reference \(reference) is \(kind), not a PNG file; remove or rename it, then run again")
  }

  /// True when two paths name one folder (whatever their spelling).
  static func sameFolder(_ a: String, _ b: String) -> Bool {
    if FilePaths.lexicallyAbsolute(a) == FilePaths.lexicallyAbsolute(b) { return true }
    var x = stat()
    var y = stat()
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
  }
}
