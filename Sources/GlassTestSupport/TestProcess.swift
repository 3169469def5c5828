import Foundation
import GLESGlass

/// The tests' one way to run another program: `run` runs one to its end and
/// returns what it wrote (the built `glass-gpu`, `/bin/sh` scripts, the oracles
/// `hb-shape` and `fc-match`); `Child` starts one and hands it back running, for
/// tests that signal it or feed its standard input while it works.
///
/// `Child` is started with `posix_spawn`, its signal mask empty and every signal
/// at its default: Foundation's `Process` hands a child started from a Dispatch
/// thread some signals blocked, and a shell starts background jobs with SIGINT
/// ignored, either of which would make a signal test pass or fail for the wrong
/// reason. `run` uses `Process`, which closes the test process's other open
/// files in the child, so that a pipe of one test never stays open in another's.
public enum TestProcess {
  /// True when this process (and so the glass-gpu it starts, built alike) runs
  /// under AddressSanitizer (`make sanitize`): its shadow memory reserves 15 TB of
  /// address space and its quarantine holds freed memory back, so an address-space
  /// limit cannot be set and resident memory measures ASan, not glass-gpu.
  public static let underAddressSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil
  /// The built `glass-gpu`: beside the test bundle, else `.build/debug/glass-gpu`.
  public static var glassGPU: URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("glass-gpu")
    let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/glass-gpu")
    return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : fallback
  }

  /// How a run ended and what it wrote.
  public struct Result: Sendable {
    /// How it ended: an exit, or a signal (then `status` is the signal).
    public var reason: Process.TerminationReason
    /// The exit status, or the signal that ended it.
    public var status: Int32
    /// Standard output as bytes (`-o /dev/stdout` writes a PNG there).
    public var stdoutData: Data
    /// Standard error as text.
    public var stderr: String
    /// True when it ran past its timeout and was killed (SIGKILL).
    public var timedOut: Bool

    /// Standard output as text.
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    /// Makes a result (tests of the tests make their own).
    public init(
      reason: Process.TerminationReason, status: Int32, stdoutData: Data, stderr: String, timedOut: Bool = false
    ) {
      self.reason = reason
      self.status = status
      self.stdoutData = stdoutData
      self.stderr = stderr
      self.timedOut = timedOut
    }
  }

  /// Runs `executable` with `arguments` to its end, in `directory` (the test
  /// process's own by default), with `environment` added to this process's (or,
  /// with `inheritsEnvironment` false, only `environment`). Standard output and
  /// standard error are read as they come (both at once, so that neither fills
  /// its pipe); with `capturesOutput` false standard output goes to /dev/null.
  /// With a `timeout` in seconds, a run still going then is killed (SIGKILL) and
  /// its result says `timedOut`.
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:], inheritsEnvironment: Bool = true,
    in directory: URL? = nil, capturesOutput: Bool = true, timeout: Double? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment =
      inheritsEnvironment ? ProcessInfo.processInfo.environment.merging(environment) { $1 } : environment
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = capturesOutput ? out : FileHandle.nullDevice
    process.standardError = err
    try process.run()
    let killed = Flag()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem {
      killed.set()
      kill(pid, SIGKILL)
    }
    if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog) }
    let errData = Box()
    let reader = DispatchGroup()
    DispatchQueue.global().async(group: reader) {
      errData.set(err.fileHandleForReading.readDataToEndOfFile())
    }
    let outData = capturesOutput ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    reader.wait()
    process.waitUntilExit()
    watchdog.cancel()
    return Result(
      reason: process.terminationReason, status: process.terminationStatus, stdoutData: outData,
      stderr: String(decoding: errData.value, as: UTF8.self), timedOut: killed.isSet)
  }

  /// Runs the built `glass-gpu` with `arguments`; with `shell`, runs that
  /// `/bin/sh` script instead, with the binary in `$GLASS_GPU` and `arguments` as
  /// `"$@"` (for redirections and pipes). The rest as `run`'s.
  public static func runGlassGPU(
    _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, shell: String? = nil,
    timeout: Double? = nil
  ) throws -> Result {
    var environment = environment
    environment["GLASS_GPU"] = glassGPU.path
    // Not inherited: a test that sets it in this process (for the snapshot
    // strategy's report) would send every goldens run of the tests beside it
    // into its folder, which it then removes (CI saw "cannot write
    // .../artifacts/lock.png"). A caller that wants it passes it.
    if environment["SNAPSHOT_ARTIFACTS"] == nil { environment["SNAPSHOT_ARTIFACTS"] = "" }
    if let shell {
      return try run(
        URL(fileURLWithPath: "/bin/sh"), ["-c", shell, "sh"] + arguments, environment: environment, in: directory,
        timeout: timeout)
    }
    return try run(glassGPU, arguments, environment: environment, in: directory, timeout: timeout)
  }

  /// A child started with `posix_spawn`, its signal mask empty and every signal at
  /// its default, and reaped with `waitpid`: Foundation's `Process` hands a child
  /// started from a Dispatch thread some signals blocked, and once left a test
  /// waiting for ever on a child that had died.
  public struct Child: Sendable {
    /// Its process id.
    public let pid: pid_t

    /// Starts the built `glass-gpu` with `arguments` in `folder`, stdout into
    /// the file `output` (/dev/null when nil), stderr into `log`, and standard
    /// input the read end of `input` (this process's own when nil). Neither end
    /// of `input` stays open in this or any later child but as its standard
    /// input, so that closing the write end here is the end of its input.
    public init(_ arguments: [String], in folder: URL, log: URL, input: Pipe? = nil, output: URL? = nil) throws {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      if let input {
        let ends = [input.fileHandleForReading.fileDescriptor, input.fileHandleForWriting.fileDescriptor]
        for end in ends { _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
      }
      if let output {
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      }
      posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var empty = sigset_t()
      sigemptyset(&empty)
      var all = sigset_t()
      sigfillset(&all)
      posix_spawnattr_setsigmask(&attributes, &empty)
      posix_spawnattr_setsigdefault(&attributes, &all)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
      // Through sh, to start in `folder` (where a core dump would land): `exec`
      // keeps the process, its pid and its signal mask.
      let path = "/bin/sh"
      let script = #"cd "$0" && exec "$@""#
      let argv =
        ([path, "-c", script, folder.path, TestProcess.glassGPU.path] + arguments).map { strdup($0) } + [nil]
      defer { argv.forEach { free($0) } }
      let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { envp.forEach { free($0) } }
      var pid: pid_t = 0
      let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
      guard status == 0 else {
        throw GlassError(.outputFailure, "could not start \(path): \(String(cString: strerror(status)))")
      }
      self.pid = pid
    }

    /// How a child ended: the signal that ended it, or its exit status.
    public enum Ending: Equatable, Sendable {
      /// Ended by this signal.
      case signal(Int32)
      /// Exited with this status.
      case exit(Int32)
    }

    /// Waits for the child to end, at most `seconds`; then kills it and fails.
    public func wait(seconds: Double = 120) throws -> Ending {
      let deadline = Date().addingTimeInterval(seconds)
      var status: Int32 = 0
      while true {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        if reaped < 0 && errno != EINTR {
          throw GlassError(.outputFailure, "waitpid: \(String(cString: strerror(errno)))")
        }
        if Date() > deadline {
          kill(pid, SIGKILL)
          _ = waitpid(pid, &status, 0)
          throw GlassError(.outputFailure, "the child \(pid) did not end within \(seconds) s")
        }
        usleep(2_000)
      }
      // WIFSIGNALED / WTERMSIG, else WEXITSTATUS.
      return status & 0x7f != 0 ? .signal(status & 0x7f) : .exit((status >> 8) & 0xff)
    }

    /// True while the child has not ended (it is not reaped here).
    public var isRunning: Bool {
      var info = siginfo_t()
      return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == 0
    }
  }
}

/// A flag set from another thread.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}

/// Bytes handed from another thread.
private final class Box: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ data: Data) { lock.withLock { self.data = data } }
  var value: Data { lock.withLock { data } }
}
