import ArgumentParser
import Foundation
import GLESGlass

struct Batch: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render many scenes in one process: scene files, folders of them, or a JSON Lines manifest.",
    discussion: """
      One renderer stays warm for every job; jobs are read and prepared, rendered,
      and encoded on several threads at once. A job that fails (a bad scene or
      manifest line, a missing image, a canvas too large, an unwritable output)
      fails alone; every other job renders. Exit status: 0 when all rendered or
      were skipped, 1 when any failed, 64 for a bad command line, 130/143 when
      stopped by SIGINT/SIGTERM (jobs in flight finish and the report is written;
      a second signal stops at once). The manifest and report formats are in
      docs/batch-format.md.

      Examples:
        glass-gpu batch Assets/scenes -o out/scenes
        glass-gpu batch --manifest jobs.jsonl -o out --report out/report.jsonl --resume
        generate-jobs | glass-gpu batch --manifest - -o out --backend cpu
        glass-gpu batch --manifest jobs.jsonl -o out --shard "$JOB_COMPLETION_INDEX/4"
      """)

  @Argument(help: "Scene files, or folders whose *.json files are rendered to the same relative paths under -o.")
  var inputs: [String] = []

  @Option(
    help: ArgumentHelp(
      "A JSON Lines manifest, one job per line; - reads standard input (one manifest; a pipe or FIFO is read as it "
        + "arrives).", valueName: "file"))
  var manifest: [String] = []

  @Option(name: .shortAndLong, help: ArgumentHelp("The folder outputs go to (made if missing).", valueName: "dir"))
  var output: String

  @Option(help: "gpu (OpenGL ES; fails without one), cpu (reference), or auto (GPU, else CPU, and says so).")
  var backend: BackendChoice = .auto

  @Option(parsing: .unconditional, help: "Threads that prepare and that encode jobs (default: the cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(
    name: .customLong("report"),
    help: ArgumentHelp(
      "Write one JSON line per job: into a file put in place when the batch ends, or into a device or FIFO as each "
        + "job ends (not an input of the batch; a failed write exits 1).",
      valueName: "file"))
  var reportPath: String?

  @Flag(
    help: ArgumentHelp(
      "Skip every job whose output is already a whole file of its format, PNG, JPEG or WebP (after an "
        + "interrupted run)."))
  var resume = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Render only job k with k mod N = I (I from 0 to N-1): N processes cover the jobs once.", valueName: "I/N"))
  var shard: String?

  @Flag(help: "No progress line and no summary (errors are still printed).")
  var quiet = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Pixels per point for every job, unless its manifest line says.", valueName: "1|2|3"))
  var scale: Int?

  @Option(
    parsing: .unconditional, help: ArgumentHelp("Bits per channel, unless a manifest line says.", valueName: "8|16"))
  var depth: Int = 8

  @Option(
    help: ArgumentHelp(
      "png, jpeg or webp for outputs whose name has none of .png, .jpg, .jpeg, .webp (default: png); "
        + "an output named otherwise fails.", valueName: "png|jpeg|webp"))
  var format: ImageEncoding.Format?

  @OptionGroup var encoding: EncodingOptions

  @Option(parsing: .unconditional, help: "A job whose images or canvas are over this many pixels fails.")
  var maxPixels: Int = PNGCodec.defaultMaxPixels

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Keep at most this many MiB of decoded and fitted images for later jobs.", valueName: "MiB"))
  var imageCache: Int = 256

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Keep at most this many MiB of glyphs and text masks for later jobs (a quarter for glyphs).", valueName: "MiB"))
  var textCache: Int = CacheBudgets().textBytes >> 20

  @Option(
    help: ArgumentHelp(
      "Render every job in each of these environments: variants separated by commas, each words joined by + "
        + "(light, dark, increaseContrast, reduceMotion, reduceTransparency, rtl, ltr, a Dynamic Type size such as accessibility3, or setting=value); "
        + "a job writing NAME.png writes NAME.VARIANT.png for each.", valueName: "variants"))
  var environments: String?

  @Option(help: environmentsFileHelp)
  var environmentsFile: String?

  func validate() throws {
    _ = try variants(environments, file: environmentsFile)
    guard !inputs.isEmpty || !manifest.isEmpty else {
      throw ValidationError("name scene files or folders, or a manifest with --manifest FILE (- for standard input)")
    }
    guard manifest.count <= 1 else {
      throw ValidationError(
        "--manifest is given \(manifest.count) times (\(manifest.joined(separator: ", "))); give one manifest "
          + "(join them first: cat a.jsonl b.jsonl | glass-gpu batch --manifest - ...)")
    }
    if let reportPath, reportPath.isEmpty { throw ValidationError("--report is empty; name the report's file") }
    guard !output.isEmpty else { throw ValidationError("-o is empty; name the folder outputs go to") }
    var info = stat()
    if stat(output, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      throw ValidationError("-o \(output) is not a folder; name the folder outputs go to")
    }
    if let scale, ![1, 2, 3].contains(scale) { throw ValidationError("--scale is \(scale); give 1, 2 or 3") }
    try checkDepth(depth)
    if let format, format != .png, depth == 16 {
      throw ValidationError(
        "--format \(format.rawValue) holds 8 bits per channel, not 16; give --depth 8, or write PNGs")
    }
    try checkMaxPixels(maxPixels)
    guard (1...256).contains(jobs) else { throw ValidationError("--jobs is \(jobs); give 1 to 256") }
    guard (0...(1 << 20)).contains(imageCache) else {
      throw ValidationError("--image-cache is \(imageCache) MiB; give 0 to \(1 << 20)")
    }
    guard (0...(1 << 20)).contains(textCache) else {
      throw ValidationError("--text-cache is \(textCache) MiB; give 0 to \(1 << 20)")
    }
    if let shard {
      do {
        _ = try BatchShard(parsing: shard)
      } catch let error as GlassError {
        throw ValidationError("--shard: \(error.message)")
      }
    }
  }

  func run() throws {
    var options = BatchOptions()
    options.backend = backend
    options.jobs = jobs
    options.depth = depth == 16 ? .sixteen : .eight
    options.scale = scale
    options.encoding = encoding.encoding(format)
    options.maxPixels = maxPixels
    options.resume = resume
    options.shard = try shard.map { try BatchShard(parsing: $0) }
    options.imageCacheBytes = imageCache << 20
    options.cacheBudgets.textBytes = textCache << 20

    // Stop requests end the run between jobs, not in the middle of one.
    PNGCodec.OutputFile.deferStops(true)
    var fileJobs: [BatchJob] = []
    var manifestJobs: BatchManifest?
    var total: Int?
    try reportingErrors {
      try FilePaths.makeFolders(output, what: "the output folder")
      fileJobs = try inputs.flatMap {
        try BatchJob.jobs(forInput: $0, outputDirectory: output, format: format ?? .png)
      }
      total = fileJobs.count
      switch manifest.first {
      case nil: break
      case "-":
        if StandardInput.wasClosed {
          throw GlassError(
            .fileUnreadable,
            "standard input is closed; pipe the manifest in (generate | glass-gpu batch --manifest - ...) or name a "
              + "file with --manifest FILE")
        }
        manifestJobs = try BatchManifest.standardInput(outputDirectory: output)
        total = nil
      case let path?:
        // Counted first only when it is a regular file: a pipe is read once, as it streams.
        let count = BatchManifest.countJobs(path: path)
        manifestJobs = try BatchManifest(path: path, outputDirectory: output)
        total = count.map { fileJobs.count + $0 }
      }
    }
    let matrix = try variants(environments, file: environmentsFile)
    if !matrix.isEmpty { total = total.map { $0 * matrix.count } }
    if let shard = options.shard, let all = total { total = shard.jobs(of: all) }
    // The files of the run that no job may write over: the manifest, the
    // environments file and the report.
    let namedManifest = manifest.first.flatMap { $0 == "-" ? nil : $0 }
    let listFiles = environmentsFile.map { [$0] } ?? []
    options.protectedFiles = (namedManifest.map { [$0] } ?? []) + listFiles + (reportPath.map { [$0] } ?? [])
    var reportFile: ReportFile?
    try reportingErrors {
      reportFile = try reportPath.map {
        try ReportFile(
          path: $0, inputs: (namedManifest.map { [$0] } ?? []) + listFiles + fileJobs.compactMap(\.scenePath))
      }
    }

    var started: BatchRenderer?
    try reportingErrors { started = try BatchRenderer(options: options) }
    guard let batch = started else { return }
    defer { batch.renderer.close() }
    if let reason = batch.renderer.fallbackReason { report("no GPU, rendering on the CPU (\(reason))") }

    let progress = Progress(total: total, quiet: quiet)
    let listed = AnySequence(fileJobs.flatMap { BatchEntry.job($0).variants(matrix) })
    let entries =
      manifestJobs.map { AnySequence([listed, AnySequence($0.lazy.flatMap { $0.variants(matrix) })].joined()) }
      ?? listed
    let summary = ReportFile.writing(reportFile) { reportLine in
      batch.run(entries) { result in
        if let failure = reportLine(result) {
          progress.clearLine()
          report(failure)
        }
        if result.status == .failed, let error = result.error {
          progress.clearLine()
          report(error.commandLineDescription)
        }
        progress.ended(result)
      }
    } failed: { failure in
      progress.clearLine()
      report(failure)
    }
    progress.finish(summary, backend: batch.renderer.backendName)
    batch.renderer.close()
    if let signal = summary.stoppedBySignal { PNGCodec.OutputFile.end(bySignal: signal) }
    if summary.failed > 0 || reportFile?.failed == true { throw ExitCode(1) }
  }
}

/// The batch's report. A regular file (or a new one) is written beside itself and
/// renamed over its path once the batch ends, so that nothing is lost until the
/// whole report is there: not when the report turns out to be the scene of a
/// manifest line read later (it is then not written, and says so), nor after an
/// interrupted run. A device or FIFO (`/dev/stdout`) gets each line as its job
/// ends. The report is checked first not to be the manifest or a scene named on
/// the command line. The first failed write is reported once; later lines are not
/// attempted, and a partly written regular report is not renamed into place.
final class ReportFile {
  let path: String
  private let output: PNGCodec.OutputFile
  /// The file at `path` before the batch, which no job may read as its scene.
  private let existing: (device: UInt, inode: UInt)?
  private var failure: String?
  private var conflict: String?

  init(path: String, inputs: [String]) throws {
    self.path = path
    var info = stat()
    existing =
      stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? (UInt(info.st_dev), UInt(info.st_ino)) : nil
    do {
      output = try PNGCodec.OutputFile(path: path)
      try output.checkDistinct(from: inputs, naming: "the report")
    } catch let error as GlassError {
      let message = error.message.replacingOccurrences(
        of: "cannot write \(path)", with: "cannot write the report \(path)")
      throw GlassError(
        error.code, message.replacingOccurrences(of: "name another output file", with: "name another report file"),
        cause: error.cause)
    }
  }

  /// Whether the report was not (wholly) written.
  var failed: Bool { failure != nil || conflict != nil || abandoned }
  private var abandoned = false

  /// Runs `body`, which renders the batch and hands each job's result to the
  /// function it is given: that writes the job's report line and returns the
  /// message to print when the write failed (once). The caches' line then ends
  /// the report, which is put in place; `failed` gets any message not yet given.
  static func writing(
    _ report: ReportFile?, _ body: (_ line: (BatchResult) -> String?) -> BatchSummary,
    failed: (String) -> Void
  ) -> BatchSummary {
    guard let report else { return body { _ in nil } }
    struct NotPutInPlace: Error {}
    var summary: BatchSummary?
    do {
      try report.output.write { appending in
        try withoutActuallyEscaping(appending) { append in
          let ran = body { result in report.add(result, append) }
          summary = ran
          // The last line: what each cache holds and has done (docs/batch-format.md).
          if let failure = report.write("{\"caches\":\(CacheStats.json(ran.caches))}\n", append) { failed(failure) }
          if let conflict = report.conflict { failed(conflict) }
          if report.failure != nil || report.conflict != nil { throw NotPutInPlace() }
        }
      }
    } catch is NotPutInPlace {
    } catch {
      report.abandoned = true
      failed("cannot write the report \(report.path): \((error as? GlassError)?.description ?? "\(error)")")
    }
    return summary ?? body { _ in nil }
  }

  private func add(_ result: BatchResult, _ append: (UnsafeRawBufferPointer) throws -> Void) -> String? {
    if conflict == nil, let existing, let scene = result.scene {
      var info = stat()
      if stat(scene, &info) == 0, UInt(info.st_dev) == existing.device, UInt(info.st_ino) == existing.inode {
        let job = result.line.map { "manifest line \($0)" } ?? "job \(result.id)"
        conflict =
          "cannot write the report \(path): it is the scene of \(job); the report was not written and the "
          + "scene is unchanged; name another report file"
      }
    }
    // The error as the command line words it (its hint's flag).
    var worded = result
    worded.error = result.error.map { $0.rephrased($0.commandLineMessage) }
    return write(worded.reportLine + "\n", append)
  }

  /// Writes `text`; returns the message to print when this write failed (once).
  private func write(_ text: String, _ append: (UnsafeRawBufferPointer) throws -> Void) -> String? {
    guard failure == nil else { return nil }
    do {
      try Array(text.utf8).withUnsafeBytes { try append($0) }
      return nil
    } catch {
      let cause = (error as? GlassError)?.cause ?? ""
      let full = cause.contains("No space") || cause.contains("quota")
      let fix = full ? "free some space or name another file" : "name a file you can write"
      let outcome = output.inPlace ? "the report is incomplete" : "no report was written"
      let message = "cannot write the report \(path): \(cause.isEmpty ? "\(error)" : cause); \(fix); \(outcome)"
      failure = message
      return message
    }
  }
}

/// The live progress line on a terminal, a plain line every 5 seconds otherwise,
/// and the summary at the end; nothing but errors with `--quiet`.
final class Progress {
  private let total: Int?
  private let quiet: Bool
  private let terminal = isatty(STDERR_FILENO) == 1
  private let start = Date()
  private var lastPrinted = Date()
  private var done = 0
  private var failed = 0
  private var shown = false

  init(total: Int?, quiet: Bool) {
    self.total = total
    self.quiet = quiet
  }

  /// Called as each job ends.
  func ended(_ result: BatchResult) {
    done += 1
    if result.status == .failed { failed += 1 }
    guard !quiet else { return }
    let now = Date()
    if terminal {
      guard now.timeIntervalSince(lastPrinted) > 0.1 || done == total else { return }
      FileHandle.standardError.write(Data(("\r\u{1B}[K" + line(now)).utf8))
      shown = true
    } else {
      guard now.timeIntervalSince(lastPrinted) >= 5 else { return }
      FileHandle.standardError.write(Data((line(now) + "\n").utf8))
    }
    lastPrinted = now
  }

  /// Removes the live line before another line is printed.
  func clearLine() {
    if terminal && shown {
      FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
      shown = false
    }
  }

  private func line(_ now: Date) -> String {
    let seconds = now.timeIntervalSince(start)
    let rate = seconds > 0 ? Double(done) / seconds : 0
    var text = "batch: \(done)\(total.map { "/\($0)" } ?? "") done, \(failed) failed, "
    text += String(format: "%.1f frames/s", rate)
    if let total, rate > 0, done < total {
      text += String(format: ", %.0f s left", Double(total - done) / rate)
    }
    return text
  }

  /// The summary line.
  func finish(_ summary: BatchSummary, backend: String) {
    clearLine()
    guard !quiet else { return }
    let stopped = summary.stoppedBySignal.map { " (stopped by signal \($0); --resume renders the rest)" } ?? ""
    FileHandle.standardError.write(
      Data(
        ("batch: \(count(summary.jobs, "job")), \(summary.rendered) rendered, \(summary.failed) failed, "
          + "\(summary.skipped) skipped in "
          + String(format: "%.1f s (%.1f frames/s, %@)", summary.wallSeconds, summary.framesPerSecond, backend)
          + stopped + "\n").utf8))
  }
}
