import Foundation

/// `GLASS_GPU_PEAK_MEMORY_FILE=PATH`: on exit, write the process's peak resident
/// memory in kilobytes (VmHWM in /proc/self/status) to PATH. A diagnostic for
/// memory tests and batch sizing: `getrusage` cannot tell it, because Linux
/// carries a parent's peak into a child across `exec`.
enum PeakMemory {
  /// Registers the exit handler when the variable is set.
  static func reportAtExitIfAsked() {
    guard let path = ProcessInfo.processInfo.environment["GLASS_GPU_PEAK_MEMORY_FILE"], !path.isEmpty else { return }
    target = strdup(path)
    atexit {
      guard let target = PeakMemory.target,
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
      else { return }
      let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0"
      try? Data("\(kilobytes)\n".utf8).write(to: URL(fileURLWithPath: String(cString: target)))
    }
  }

  nonisolated(unsafe) private static var target: UnsafeMutablePointer<CChar>?
}
