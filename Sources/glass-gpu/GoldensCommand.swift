import ArgumentParser
import Foundation
import GLESGlass

extension GoldenRecordMode: ExpressibleByArgument {}

struct Goldens: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check scenes against reference PNGs: a visual regression test for any CI, with a JUnit report.",
    discussion: """
      Renders every scene through the batch pipeline (scene files, folders of them,
      or a manifest whose "output" names each reference under --references) and
      compares each render with its reference, as `glass-gpu compare` does: exact by
      default, or within --max-diff and --max-share. A render that passes is
      removed; a failure keeps its render and a difference image (each channel's
      difference x16, at least 64 where there is any, black where equal) in the
      artifacts folder, and both paths are printed and put in the report. Without
      --artifacts (or $SNAPSHOT_ARTIFACTS) the artifacts go to a new private folder
      of this run (glass-gpu-goldens-XXXXXX in the temporary folder, mode 0700),
      named in the summary and removed when nothing is kept in it; links found in
      an artifacts folder are never followed. The report folder (--report) and a
      given artifacts folder must hold no reference and no input: one that is the
      references folder, lies inside it or holds it, or holds a scene, an image a
      scene reads or the manifest is refused before anything is written (the
      scenes are read once more for their images). A missing reference fails unless
      --record asks for it. Record references with the CPU backend (the default):
      it renders the same bytes on every machine, whatever the thread count; the
      GPU's output varies a little with the driver (check it with --backend gpu and
      a tolerance, e.g. --max-diff 2 --max-share 0.1).

      Exit status: 0 when every scene passed; 1 when any differs beyond the
      tolerance, has no reference, or could not be checked (a bad scene, an
      unreadable reference; each named with its file and the fix), or when the
      check could not start (a missing references folder, an unreadable manifest,
      no scenes); 2 when references were recorded and nothing failed (a recording
      is never a pass: look at the new files and run again); 64 for a bad command
      line. Once the command line is valid, the JUnit report (--junit) is written
      whatever the outcome (a check that could not start is one case with an
      error), to a temporary name renamed at the end, so it is never left
      half-written; it is not written when its path cannot be written or names an
      input of the check (a scene, a reference, the manifest).

      Examples:
        glass-gpu goldens Assets/scenes --references Tests/references --junit out/goldens.xml
        glass-gpu goldens Assets/scenes --references Tests/references --record missing
        glass-gpu goldens Assets/scenes --references Tests/references --record all     # re-record every one
        glass-gpu goldens --manifest goldens.jsonl --references refs --artifacts out/failures
        glass-gpu goldens Assets/scenes --references refs --backend gpu --max-diff 2 --max-share 0.1
        glass-gpu goldens clock.json --references refs --anti-aliasing --mask layers[2] --mask-rect 0,0,390,44
        glass-gpu goldens Assets/scenes --references refs --prune                  # list stale references
        glass-gpu goldens Assets/scenes --references refs --prune --record failed  # and remove them

      Comparison modes: exact (the default), --max-diff N and --max-share P (how far
      and how widely a render may differ), --anti-aliasing (pixelmatch's detector:
      a blend between areas flat in both images does not count, so a shape on a
      plain colour moved by part of a pixel passes; glass does not, nor a changed
      glyph, line, dot or colour; docs/comparison-modes.md), and masks (--mask PATH,
      --mask-rect x,y,w,h: those pixels are not compared, as Playwright's mask). A
      mask that names no layer or view of a scene, or a rectangle wholly outside its
      canvas, is an error for that scene; nothing is recorded for it. Long lists go
      in files, one a line (# comments): --mask-file (rectangles and paths) and
      --environments-file (variants); a bad line is named by file and line number.

      Pruning: --prune decides what is stale only once every scene was checked. A
      run stopped by SIGINT or SIGTERM, or with a scene file that cannot be read or
      a manifest line that names no reference, removes nothing and says why (exit
      1). A scene that failed or could not be rendered keeps its reference (--record
      failed records a failure anew). Only a regular file named as a reference
      (NAME.png; with --environments NAME.VARIANT.png of one of the run's variants)
      that no scene reads and that is not the manifest or the JUnit report is stale.
      Standard output is written line by line (a log keeps the lines of a killed run).
      """)

  @Argument(help: "Scene files, or folders whose *.json files are checked against the same relative paths.")
  var inputs: [String] = []

  @Option(
    help: ArgumentHelp(
      "A JSON Lines batch manifest; each line's \"output\" names its reference under --references (one manifest).",
      valueName: "file"))
  var manifest: [String] = []

  @Option(help: ArgumentHelp("The folder of reference PNGs.", valueName: "dir"))
  var references: String

  @Option(
    help: ArgumentHelp(
      "Where failures' renders and difference images go (default: $SNAPSHOT_ARTIFACTS, else a new private folder "
        + "in the temporary folder, named in the summary).", valueName: "dir"))
  var artifacts: String?

  @Option(help: ArgumentHelp("Write a JUnit XML report here (for CI test reports).", valueName: "file"))
  var junit: String?

  @Option(
    help: ArgumentHelp(
      "Which references to write: never, missing, failed (missing, unreadable or differing) or all.",
      valueName: "mode"))
  var record: GoldenRecordMode = .never

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Fail when any channel differs by more than N/255 (default 0: exact).", valueName: "N"))
  var maxDiff: Double = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Fail when more than this percentage of pixels differ by more than 1/255.", valueName: "percent")
  )
  var maxShare: Double?

  @Flag(
    help: ArgumentHelp(
      "Anti-aliasing mode: a differing pixel that pixelmatch's detector calls anti-aliasing (a blend between "
        + "areas flat in both images) does not count (docs/comparison-modes.md)."))
  var antiAliasing = false

  @Option(
    help: ArgumentHelp(
      "Leave out the pixels of this layer or view (its JSON path, such as layers[3] or body.children[1]; "
        + "its frame grown by 1 pt). Repeat for more.", valueName: "path"))
  var mask: [String] = []

  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "Leave out the pixels of this rectangle, x,y,width,height in points. Repeat for more.", valueName: "x,y,w,h"))
  var maskRect: [String] = []

  @Option(
    help: ArgumentHelp(
      "Leave out the masks listed in this file, one a line: x,y,width,height in points, or a layer's or view's JSON "
        + "path; blank lines and # comments are skipped. For lists too long for the command line. Repeat for more.",
      valueName: "file"))
  var maskFile: [String] = []

  @Option(help: "cpu (the default: exact everywhere), gpu (OpenGL ES; fails without one), or auto.")
  var backend: BackendChoice = .cpu

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Pixels per point for every scene, unless its manifest line says.", valueName: "1|2|3"))
  var scale: Int?

  @Option(parsing: .unconditional, help: "Threads that prepare and that encode jobs (default: the cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(
    parsing: .unconditional,
    help: "Worker threads of the CPU backend (default: the cores); its output is the same whatever the count.")
  var cpuThreads: Int?

  @Option(parsing: .unconditional, help: "A scene whose images or canvas are over this many pixels fails.")
  var maxPixels: Int = PNGCodec.defaultMaxPixels

  @Option(
    help: ArgumentHelp(
      "Check every scene in each of these environments: variants separated by commas, each words joined by + "
        + "(light, dark, increaseContrast, reduceMotion, reduceTransparency, rtl, ltr, a Dynamic Type size such as accessibility3, or setting=value). "
        + "Each variant's reference is NAME.VARIANT.png and its test case NAME.VARIANT.",
      valueName: "variants"))
  var environments: String?

  @Option(help: environmentsFileHelp)
  var environmentsFile: String?

  @Option(
    name: .customLong("report"),
    help: ArgumentHelp(
      "Write an HTML report here: index.html, self-contained (no network), with each failure's reference, render "
        + "and difference side by side, as a slider, a strobe and a zoom; open it from file:// or publish the "
        + "folder as a CI artifact. A folder of its own: not the references folder, not in it, holding no "
        + "reference, scene or image a scene reads.", valueName: "dir"))
  var htmlReport: String?

  @Flag(
    help: ArgumentHelp(
      "List the references under --references that no scene of this run produced (stale); with --record "
        + "(missing, failed or all) remove them, once every scene was checked (a stopped run removes nothing). "
        + "Run it over all your scenes."))
  var prune = false

  @Flag(help: "Keep every scene's render in --artifacts, passes too (by default only failures keep theirs).")
  var keepRenders = false

  @Flag(help: "Print only failures, errors and the summary (no passes, no recordings).")
  var quiet = false

  func validate() throws {
    guard !inputs.isEmpty || !manifest.isEmpty else {
      throw ValidationError("name scene files or folders, or a manifest with --manifest FILE")
    }
    guard manifest.count <= 1 else {
      throw ValidationError(
        "--manifest is given \(manifest.count) times (\(manifest.joined(separator: ", "))); give one manifest "
          + "(join them first: cat a.jsonl b.jsonl > all.jsonl)")
    }
    guard manifest.first != "-" else {
      throw ValidationError("--manifest - (standard input) is not read here; name a manifest file")
    }
    guard !references.isEmpty else { throw ValidationError("--references is empty; name the folder of reference PNGs") }
    try checkLimits(maxDiff: maxDiff, maxShare: maxShare)
    if let scale, ![1, 2, 3].contains(scale) { throw ValidationError("--scale is \(scale); give 1, 2 or 3") }
    guard (1...256).contains(jobs) else { throw ValidationError("--jobs is \(jobs); give 1 to 256") }
    if let cpuThreads, !(1...256).contains(cpuThreads) {
      throw ValidationError("--cpu-threads is \(cpuThreads); give 1 to 256")
    }
    try checkMaxPixels(maxPixels)
    if let junit, junit.isEmpty { throw ValidationError("--junit is empty; name the report's file") }
    if let artifacts, artifacts.isEmpty { throw ValidationError("--artifacts is empty; name a folder") }
    if let htmlReport, htmlReport.isEmpty {
      throw ValidationError("--report is empty; name a folder for the HTML report")
    }
    _ = try variants(environments, file: environmentsFile)
    _ = try comparisonOptions()
  }

  /// The list files this run reads (`--mask-file`, `--environments-file`): inputs
  /// that nothing it writes may replace.
  var listFiles: [String] { maskFile + (environmentsFile.map { [$0] } ?? []) }

  /// `--anti-aliasing`, `--mask`, `--mask-rect` and `--mask-file`.
  func comparisonOptions() throws -> ComparisonOptions {
    var masks = mask.map { ComparisonMask.path($0) }
    for path in mask where path.isEmpty {
      throw ValidationError("--mask is empty; name a layer or view by its JSON path")
    }
    for text in maskRect {
      do {
        masks.append(try ComparisonMask.rect(parsing: text))
      } catch let error as GlassError {
        throw ValidationError("--mask-rect: \(error.message)")
      }
    }
    masks += try listedMasks(inFiles: maskFile)
    return ComparisonOptions(antiAliasing: antiAliasing, masks: masks)
  }

  /// Checks of the references folder that need the file system (after the
  /// command line: their failures go into the JUnit report).
  private func checkReferencesFolder() throws {
    var info = stat()
    if stat(references, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw GlassError(
          .fileUnreadable, "--references \(references) is not a folder; name the folder of reference PNGs")
      }
    } else if errno == ENOENT {
      if record == .never {
        throw GlassError(
          .fileUnreadable,
          "the references folder \(references) does not exist; record the references first with --record missing")
      }
    } else {
      throw GlassError(
        .fileUnreadable,
        "cannot look at the references folder \(references): \(String(cString: strerror(errno))); check its "
          + "permissions")
    }
  }

  /// The HTML report's folder, before anything is written: a file there is an
  /// error that leaves everything untouched.
  private func checkReportFolderIsFolder() throws {
    guard let folder = htmlReport else { return }
    var info = stat()
    if stat(folder, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR {
      throw GlassError(.outputFailure, "--report \(folder) is a file, not a folder; name a folder for the HTML report")
    }
  }

  /// Makes the HTML report's folder (once its place is checked), before any
  /// render: a folder that cannot be made or written is an error.
  private func makeReportFolder() throws {
    guard let folder = htmlReport else { return }
    try FilePaths.makeFolders(folder, what: "the report folder")
    guard access(folder, W_OK | X_OK) == 0 else {
      throw GlassError(
        .outputFailure, "--report \(folder) cannot be written (permission denied); name a folder you can write")
    }
  }

  /// Refuses, before anything is written, a report or artifacts folder that could
  /// write over a reference or an input (`GoldenCheck.checkPlacement`): the
  /// scenes are read once more for the images they name.
  private func checkPlacement(
    _ check: GoldenCheck, jobs: [BatchJob], artifacts given: String?, fromEnvironment: Bool
  ) throws {
    guard htmlReport != nil || given != nil else { return }
    var inputs = manifest + listFiles + check.inputFiles(of: jobs.map { BatchEntry.job($0) })
    if let path = manifest.first { inputs += check.inputFiles(of: try check.manifest(path: path)) }
    if let folder = htmlReport { try check.checkPlacement(ofFolder: folder, what: "--report", inputs: inputs) }
    if let given {
      try check.checkPlacement(
        ofFolder: given, what: fromEnvironment ? "$SNAPSHOT_ARTIFACTS" : "--artifacts", inputs: inputs)
    }
  }

  func run() throws {
    PNGCodec.OutputFile.deferStops(true)
    // The report's file first: a path that cannot be written fails before any render.
    var report: PNGCodec.OutputFile?
    try reportingErrors { report = try junit.map { try PNGCodec.OutputFile(path: $0) } }
    // From here on, every outcome is written to the report.
    let given =
      artifacts ?? ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
    var artifactsFolder = given ?? ""
    var check: GoldenCheck?
    var entries: [AnySequence<BatchEntry>] = []
    var inputFiles = manifest + listFiles
    var matrix: [EnvironmentVariant] = []
    var comparison = ComparisonOptions()
    do {
      try checkReferencesFolder()
      try checkReportFolderIsFolder()
      if given == nil { artifactsFolder = try FilePaths.makePrivateFolder(named: "glass-gpu-goldens") }
      var options = GoldenCheckOptions(references: references, artifacts: artifactsFolder)
      options.limits = ImageComparison.Limits(maxDifference: maxDiff, maxSharePercent: maxShare)
      options.record = record
      comparison = try comparisonOptions()
      options.comparison = comparison
      options.keepRenders = keepRenders
      options.batch.backend = backend
      options.batch.scale = scale
      options.batch.jobs = jobs
      options.batch.cpuThreads = cpuThreads
      options.batch.maxPixels = maxPixels
      options.batch.protectedFiles = manifest + listFiles + (junit.map { [$0] } ?? [])
      let made = try GoldenCheck(options: options)
      check = made
      if let reason = made.batch.renderer.fallbackReason { glassReport("no GPU, rendering on the CPU (\(reason))") }
      let jobs = try made.jobs(forInputs: inputs)
      inputFiles += jobs.compactMap(\.scenePath)
      do {
        try report?.checkDistinct(from: inputFiles, naming: "the JUnit report")
      } catch {
        report = nil  // never written over the input it names
        throw error
      }
      matrix = try variants(environments, file: environmentsFile)
      // Where the check writes, before anything is written there.
      try checkPlacement(made, jobs: jobs, artifacts: given, fromEnvironment: artifacts == nil)
      try makeReportFolder()
      if let given { try FilePaths.makeFolders(given, what: "the artifacts folder") }
      entries.append(AnySequence(jobs.flatMap { BatchEntry.job($0).variants(matrix) }))
      if let manifest = manifest.first {
        entries.append(AnySequence(try made.manifest(path: manifest).lazy.flatMap { $0.variants(matrix) }))
      }
    } catch let error as GlassError {
      check?.batch.renderer.close()
      removeIfEmpty(given == nil ? artifactsFolder : nil)
      try endBeforeChecking(error, report: report)
    }
    guard let check else { return }
    defer { check.batch.renderer.close() }
    let result = check.run(entries.joined()) { item in
      switch item.status {
      case .passed: if !quiet { print("pass    \(item.name)") }
      case .recorded: if !quiet { print("record  \(item.name): \(item.commandLineMessage ?? "")") }
      case .failed: print("FAIL    \(item.name): \(item.commandLineMessage ?? "")")
      case .error: print("ERROR   \(item.name): \(item.commandLineMessage ?? "")")
      }
    }
    check.batch.renderer.close()
    guard !result.cases.isEmpty else {
      removeIfEmpty(given == nil ? artifactsFolder : nil)
      if let signal = PNGCodec.OutputFile.stopSignal {
        // Stopped before a scene was taken: not a check without scenes.
        glassReport("stopped by signal \(signal) before any scene was checked")
        PNGCodec.OutputFile.end(bySignal: signal)
      }
      try endBeforeChecking(
        GlassError(
          .fileUnreadable,
          "found no scenes in \((inputs + manifest).joined(separator: ", ")); "
            + "name scene files, folders with *.json scene files, or a manifest with jobs"), report: report)
    }
    var page: String?
    if let folder = htmlReport {
      do {
        try GoldenHTMLReport.write(
          result.commandLineWorded, to: folder, context: try reportContext(matrix: matrix, comparison: comparison))
        page = (folder as NSString).appendingPathComponent("index.html")
      } catch let error as GlassError {
        glassReport(error.commandLineDescription)
      }
    }
    try reportingErrors {
      if let report {
        try report.checkDistinct(
          from: inputFiles + result.cases.flatMap { [$0.scene, $0.reference].compactMap { $0 } },
          naming: "the JUnit report")
        try report.write(encoded: Array(result.commandLineWorded.junitXML(htmlReport: page).utf8))
      }
    }
    var pruned = ""
    var pruneFailed = false
    if prune {
      // Decided once every scene was checked (the library refuses otherwise).
      var removed = 0
      do {
        let stale = try check.staleReferences(result, variants: matrix)
        let remove = record != .never
        for path in stale {
          if remove {
            guard unlink(path) == 0 else {
              throw GlassError(
                .fileUnreadable,
                "cannot remove the stale reference \(path): \(String(cString: strerror(errno))); check its permissions")
            }
            removed += 1
            print("pruned  \(path)")
          } else {
            print("stale   \(path): no scene produced it; remove it with --prune --record failed")
          }
        }
        pruned = "; \(stale.count) stale reference\(stale.count == 1 ? "" : "s")\(remove ? " removed" : "")"
      } catch let error as GlassError {
        glassReport("--prune: \(error.commandLineDescription)")
        pruned = removed == 0 ? "; nothing pruned" : "; \(removed) stale references removed, then pruning failed"
        pruneFailed = true
      }
    }
    let kept = given == nil ? !removeIfEmpty(artifactsFolder) : true
    let failed = result.count(.failed) + result.count(.error) > 0
    print(
      "goldens: \(result.cases.count) scenes, \(result.count(.passed)) passed, \(result.count(.failed)) failed, "
        + "\(result.count(.error)) errors, \(result.count(.recorded)) recorded in "
        + String(format: "%.1f s (%@)", result.wallSeconds, result.backend)
        + (failed && kept ? "; failures' images in \(artifactsFolder)" : "")
        + (!failed && kept && keepRenders ? "; renders in \(artifactsFolder)" : "") + pruned
        + (page.map { "; report \($0)" } ?? ""))
    if let signal = PNGCodec.OutputFile.stopSignal { PNGCodec.OutputFile.end(bySignal: signal) }
    if pruneFailed { throw ExitCode(1) }
    if result.exitStatus != 0 { throw ExitCode(result.exitStatus) }
  }

  /// What the HTML report shows of the run, and its accepting commands: this
  /// run's options that decide how scenes render and compare, with
  /// `--record failed`, for one scene (its reference's folder as --references)
  /// or for every failure (without --prune, --report, --junit, --artifacts).
  private func reportContext(
    matrix chosen: [EnvironmentVariant], comparison: ComparisonOptions
  ) throws -> GoldenHTMLReport.Context {
    var options: [String] = []
    if let scale { options += ["--scale", String(scale)] }
    if backend != .cpu { options += ["--backend", backend.rawValue] }
    if maxPixels != PNGCodec.defaultMaxPixels { options += ["--max-pixels", String(maxPixels)] }
    if maxDiff != 0 { options += ["--max-diff", ParameterSpec.format(maxDiff)] }
    if let maxShare { options += ["--max-share", ParameterSpec.format(maxShare)] }
    if antiAliasing { options.append("--anti-aliasing") }
    for path in mask { options += ["--mask", path] }
    for rect in maskRect { options += ["--mask-rect", rect] }
    for file in maskFile { options += ["--mask-file", file] }
    let matrix =
      (environments.map { ["--environments", $0] } ?? [])
      + (environmentsFile.map { ["--environments-file", $0] } ?? [])
    var context = GoldenHTMLReport.Context(references: references)
    context.inputs = inputs
    context.variants = chosen.map(\.name)
    context.acceptCase = { [options] scene, folder, variant in
      ["glass-gpu", "goldens", scene, "--references", folder] + options
        + (variant.map { ["--environments", $0] } ?? []) + ["--record", "failed"]
    }
    context.acceptAll =
      ["glass-gpu", "goldens"] + inputs + manifest.flatMap { ["--manifest", $0] } + ["--references", references]
      + options + matrix + ["--record", "failed"]
    context.command = ["glass-gpu"] + CommandLine.arguments.dropFirst()
    context.workingFolder = FileManager.default.currentDirectoryPath
    context.commit = GoldenHTMLReport.Context.commit(of: FileManager.default.currentDirectoryPath)
    context.limits = ImageComparison.Limits(maxDifference: maxDiff, maxSharePercent: maxShare)
    context.comparison = comparison
    return context
  }

  /// Prints `error`, writes it to the JUnit report as the one case, and exits 1.
  private func endBeforeChecking(_ error: GlassError, report: PNGCodec.OutputFile?) throws -> Never {
    glassReport(error.commandLineDescription)
    if let report {
      do {
        try report.write(encoded: Array(GoldenReport.setupFailure(error).commandLineWorded.junitXML().utf8))
      } catch let failure as GlassError {
        glassReport(failure.commandLineDescription)
      }
    }
    throw ExitCode(1)
  }

  /// Removes the private artifacts folder `folder` when nothing was kept in it
  /// (its empty subfolders included); true when it is gone.
  @discardableResult
  private func removeIfEmpty(_ folder: String?) -> Bool {
    guard let folder, !folder.isEmpty else { return false }
    return FilePaths.removeEmptyFolders(folder)
  }

  private func glassReport(_ message: String) { report(message) }
}
