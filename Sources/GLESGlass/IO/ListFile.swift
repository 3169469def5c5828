import Foundation

/// A text file that lists values one a line, as a long list is given where an
/// argument cannot hold it (a mask file, an environments file): blank lines are
/// skipped, and `#` starts a comment that runs to the end of its line. Each value
/// keeps its line number, so that an error names the file and the line.
///
/// Reading is one pass over the bytes: the cost grows with the file's length.
public enum ListFile {
  /// The largest list file read, in bytes (a list of a million masks is about
  /// 20 MiB).
  public static let maximumBytes = 64 << 20

  /// The values of the list file at `path`, `what` naming it in messages (`the
  /// mask file`): each line's text before any `#`, trimmed of white space, with
  /// its line number from 1; blank and comment lines are left out. Throws
  /// `fileUnreadable` naming the file when it cannot be read, is a folder, is
  /// over `maximumBytes`, or is not UTF-8 text.
  public static func lines(of path: String, what: String) throws -> [(line: Int, text: String)] {
    if let problem = FilePaths.problem(with: path) { throw GlassError(.fileUnreadable, problem) }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw GlassError(
        .fileUnreadable, "cannot read \(what) \(path): \(String(cString: strerror(errno))); check the path")
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw GlassError(.fileUnreadable, "\(what) \(path) is a folder; name a text file, one value a line")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw GlassError(
        .fileUnreadable, "cannot read \(what) \(path): \(String(cString: strerror(errno))); check its permissions")
    }
    defer { try? handle.close() }
    // One byte past the limit tells a file that is too long (a pipe has no size).
    let data: Data
    do {
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw GlassError(.fileUnreadable, "cannot read \(what) \(path): \(error.localizedDescription)")
    }
    guard data.count <= maximumBytes else {
      throw GlassError(
        .fileUnreadable, "\(what) \(path) is over \(maximumBytes >> 20) MiB; split it, or list fewer values")
    }
    guard !data.contains(0), let text = String(validating: data, as: UTF8.self) else {
      throw GlassError(
        .fileUnreadable, "\(what) \(path) is not UTF-8 text (or holds a NUL byte); write one value a line")
    }
    var values: [(line: Int, text: String)] = []
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let value = line.prefix { $0 != "#" }.trimmingCharacters(in: .whitespacesAndNewlines)
      if !value.isEmpty { values.append((number, value)) }
    }
    return values
  }
}
