// Glibc alone, and @preconcurrency: C's `stdout` is a global variable, which
// Swift 6 refuses to touch otherwise. It is set once, in `main`, before any
// thread starts.
@preconcurrency import Glibc

/// Standard output as the commands write it.
enum StandardOutput {
  /// Makes standard output line-buffered, whatever it is (a terminal, a log
  /// file, a pipe): each line a command prints (goldens' FAIL lines and summary,
  /// audit's findings) is written when it ends, so a log keeps every line
  /// printed before the process was killed. Call it first, before anything is
  /// printed.
  static func writeLineByLine() {
    setvbuf(stdout, nil, _IOLBF, 0)
  }
}
