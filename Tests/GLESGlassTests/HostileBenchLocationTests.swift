import Foundation
import GlassTestSupport
import Testing

/// `glass-gpu-bench hostile` makes its inputs in a temporary folder and runs
/// glass-gpu on them: started from PATH, from any folder, with the benchmark
/// copied anywhere, it finds glass-gpu (beside itself, on PATH, or where
/// `--glass-gpu` says) or says in one line how to name it.
@Suite("glass-gpu-bench hostile runs from any folder")
struct HostileBenchLocationTests {
  /// The built benchmark, beside the built glass-gpu.
  static let bench = TestProcess.glassGPU.deletingLastPathComponent().appendingPathComponent("glass-gpu-bench")

  /// The benchmark copied alone into a folder of its own, and another folder to
  /// run it from; both removed by the caller.
  static func strandedCopy() throws -> (binary: URL, elsewhere: URL, folders: [URL]) {
    let alone = try makeTemporaryFolder()
    let elsewhere = try makeTemporaryFolder()
    let copy = alone.appendingPathComponent("glass-gpu-bench")
    try FileManager.default.copyItem(at: bench, to: copy)
    return (copy, elsewhere, [alone, elsewhere])
  }

  /// The status column of each case's row (the rows that start with a number).
  static func statuses(_ stdout: String) -> [Int] {
    stdout.split(separator: "\n").compactMap { line in
      line.split(separator: " ").first.flatMap { Int($0) }
    }
  }

  /// Runs the stranded copy's `hostile` on small inputs, from another folder.
  static func runHostile(_ extra: [String], path: String) throws -> TestProcess.Result {
    let (binary, elsewhere, folders) = try strandedCopy()
    defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
    return try TestProcess.run(
      binary, ["hostile", "--side", "64", "--layers", "3"] + extra, environment: ["PATH": path], in: elsewhere,
      timeout: 300)
  }

  @Test("with no glass-gpu beside it or on PATH, it exits 64 and says how to name one")
  func noGlassGPU() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.bench.path), "glass-gpu-bench is built")
    let run = try Self.runHostile([], path: "/usr/bin:/bin")
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("no glass-gpu beside this benchmark"), "\(run.stderr)")
    #expect(run.stderr.contains("--glass-gpu PATH"), "\(run.stderr)")
    #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("Foundation"), "\(run.stderr)")
    #expect(Self.statuses(run.stdout).isEmpty, "no case ran: \(run.stdout)")
  }

  @Test("--glass-gpu naming no executable is refused with the path it was given")
  func badGlassGPU() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.bench.path), "glass-gpu-bench is built")
    let run = try Self.runHostile(["--glass-gpu", "/nonexistent/glass-gpu"], path: "/usr/bin:/bin")
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("--glass-gpu /nonexistent/glass-gpu is not an executable file"), "\(run.stderr)")
  }

  @Test(
    "it finds glass-gpu on PATH, or where --glass-gpu says, and runs every case",
    arguments: ["PATH", "--glass-gpu"])
  func runsEveryCase(how: String) throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.bench.path), "glass-gpu-bench is built")
    let folder = TestProcess.glassGPU.deletingLastPathComponent().path
    let run =
      how == "PATH"
      ? try Self.runHostile([], path: "/usr/bin:/bin:\(folder)")
      : try Self.runHostile(["--glass-gpu", TestProcess.glassGPU.path], path: "/usr/bin:/bin")
    #expect(run.status == 0, "\(run.stderr)")
    let statuses = Self.statuses(run.stdout)
    // Nine cases; the first five are refused by glass-gpu itself (exit 1: a
    // header that claims 100 megapixels, an sPLT chunk claiming 1.7 GB), which
    // only a glass-gpu that ran can say.
    #expect(statuses.count == 9, "\(run.stdout)")
    #expect(statuses.prefix(5).allSatisfy { $0 == 1 }, "\(run.stdout)")
  }
}
