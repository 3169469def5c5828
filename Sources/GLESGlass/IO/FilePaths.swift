import Foundation

/// What a path names, compared by meaning rather than spelling, and the checks
/// every path from a file goes through before it is opened.
public enum FilePaths {
  /// Why `path` cannot name a file, or nil when it can: a NUL character, which no
  /// file name can hold (C cuts the path there: `out.txt\u{0}.png` would write
  /// `out.txt`).
  public static func problem(with path: String) -> String? {
    guard path.utf8.contains(0) else { return nil }
    return "the path \"\(printable(path))\" holds a NUL character (\\u0000), which no file name can hold; remove it"
  }

  /// `path` with control characters shown as `\u{…}` escapes, for messages.
  static func printable(_ path: String) -> String {
    var out = ""
    for scalar in path.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `path` made absolute (against the current folder) and normalised by its
  /// spelling alone, as the kernel reads it when no link is involved: repeated
  /// slashes collapsed, `.` removed, `..` taking away the part before it (never
  /// above `/`). Links are not followed.
  public static func lexicallyAbsolute(_ path: String) -> String {
    var full = path
    if !path.hasPrefix("/") {
      let folder = FileManager.default.currentDirectoryPath
      full = folder + "/" + path
    }
    var parts: [Substring] = []
    for part in full.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `path` normalised by its spelling as `lexicallyAbsolute` does, kept relative
  /// when it is: `a//b/./c` is `a/b/c`, `x/../d` is `d`; a leading `..` stays.
  public static func lexicallyNormalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..":
        if let last = parts.last, last != ".." {
          parts.removeLast()
        } else if !path.hasPrefix("/") {
          parts.append(part)
        }
      default: parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    if path.hasPrefix("/") { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// `path` relative to `folder` when it lies inside it by its spelling (both made
  /// absolute and normalised, links not followed), else nil.
  public static func relative(_ path: String, under folder: String) -> String? {
    let full = lexicallyAbsolute(path)
    let root = lexicallyAbsolute(folder)
    let prefix = root == "/" ? "/" : root + "/"
    return full.hasPrefix(prefix) && full.count > prefix.count ? String(full.dropFirst(prefix.count)) : nil
  }

  /// `path` made absolute with every link in the part of it that exists resolved
  /// (`realpath` of its longest existing folder, the rest spelt out): where it
  /// is, or would be once made.
  public static func resolved(_ path: String) -> String {
    var absolute = lexicallyAbsolute(path)
    var rest: [String] = []
    while true {
      if let real = realpath(absolute, nil) {
        defer { free(real) }
        let base = String(cString: real)
        return rest.reversed().reduce(base) { $0.hasSuffix("/") ? $0 + $1 : $0 + "/" + $1 }
      }
      guard absolute != "/" else { return lexicallyAbsolute(path) }
      rest.append((absolute as NSString).lastPathComponent)
      absolute = folder(of: absolute)
    }
  }

  /// True when `path` is the folder `folder` or lies inside it, by its spelling
  /// (`lexicallyAbsolute`) or through links (`resolved`).
  public static func holds(_ folder: String, _ path: String) -> Bool {
    func inside(_ a: String, _ root: String) -> Bool {
      a == root || a.hasPrefix(root == "/" ? "/" : root + "/")
    }
    return inside(lexicallyAbsolute(path), lexicallyAbsolute(folder)) || inside(resolved(path), resolved(folder))
  }

  /// The file `path` would name once written: links at it followed (as an output
  /// is written), its folder resolved through links where it exists (`realpath`),
  /// else spelt out (`lexicallyAbsolute`), and its last part. Two paths with one
  /// key write one file, whatever their spelling.
  public static func outputKey(_ path: String) -> String {
    let absolute = lexicallyAbsolute((try? PNGCodec.OutputFile.followLinks(path)) ?? path)
    let folder = FilePaths.folder(of: absolute)
    let name = (absolute as NSString).lastPathComponent
    guard let resolved = realpath(folder, nil) else { return absolute }
    defer { free(resolved) }
    let real = String(cString: resolved)
    return real.hasSuffix("/") ? real + name : real + "/" + name
  }

  /// The device and inode of the file `path` leads to (links followed), or nil
  /// when there is none.
  public static func identity(_ path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The folder part of `path`, as NSString's `deletingLastPathComponent` gives
  /// it ("" for a bare name), never calling that on a one-character path, where
  /// Foundation (Swift 6.3.1) traps: `glass-gpu batch scene.json -o f` crashed.
  public static func folder(of path: String) -> String {
    guard path.utf8.count > 1 else { return path == "/" ? "/" : "" }
    return (path as NSString).deletingLastPathComponent
  }

  /// Makes the folder `path` and the folders above it that are missing, as
  /// `mkdir -p` does; throws `outputFailure` saying why one cannot be made (a
  /// folder that is not writable, a read-only file system, a file in the way) and
  /// how to fix it. `what` names the folder in the message (`the output folder`),
  /// which names `path` once: `cannot make the output folder out/a/b: out/a is a
  /// file, not a folder; ...`.
  public static func makeFolders(_ path: String, what: String = "the folder") throws {
    if let problem = problem(with: path) { throw GlassError(.outputFailure, "cannot make \(what): \(problem)") }
    try makeFolders(path, naming: "\(what) \(path)", asked: path)
  }

  /// `makeFolders` of `path`, a folder on the way to `asked`, named `named` in messages.
  private static func makeFolders(_ path: String, naming named: String, asked: String) throws {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        let where_ = path == asked ? "a file is in the way" : "\(path) is a file, not a folder"
        throw GlassError(.outputFailure, "cannot make \(named): \(where_); name another folder")
      }
      return
    }
    let parent = FilePaths.folder(of: path)
    if !parent.isEmpty && parent != path { try makeFolders(parent, naming: named, asked: asked) }
    guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
      throw GlassError(.outputFailure, "cannot make \(named): \(reason(errno, folder: parent))")
    }
  }

  /// Makes `relative`'s folders inside `root` one by one, refusing any part that is
  /// already there as a link or not a folder: nothing written under `root` is
  /// redirected by a link someone else put there.
  public static func makeFoldersWithoutLinks(_ relative: String, in root: String) throws {
    var current = root
    for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
      guard part != "..", part != "." else {
        throw GlassError(.outputFailure, "cannot write under \(root): the path \(relative) leaves the folder")
      }
      current = current.hasSuffix("/") ? current + part : current + "/" + part
      if mkdir(current, 0o777) != 0 && errno != EEXIST {
        throw GlassError(.outputFailure, "cannot make the folder \(current): \(reason(errno, folder: root))")
      }
      var info = stat()
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link this run did not make" : "not a folder"
        throw GlassError(
          .outputFailure, "cannot write under \(current): it is \(what); remove it, or name another folder")
      }
    }
  }

  /// Makes a new folder of this process alone in the temporary folder (`$TMPDIR`,
  /// else `/tmp`): `NAME-XXXXXX` with a random suffix, mode 0700, made with
  /// `mkdtemp`, so two runs never share it and nobody else can put anything in it.
  public static func makePrivateFolder(named name: String) throws -> String {
    let base = NSTemporaryDirectory()
    let template = (base.hasSuffix("/") ? base : base + "/") + name + "-XXXXXX"
    var bytes = Array(template.utf8CString)
    let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
    guard made != nil else {
      throw GlassError(
        .outputFailure, "cannot make a folder in \(base): \(reason(errno, folder: base)); or name a folder of your own",
        hint: .artifactsFolder)
    }
    return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Removes `folder` when it holds nothing but empty folders (they go too); true
  /// when it is gone. Links are not followed; a file anywhere keeps it.
  @discardableResult
  public static func removeEmptyFolders(_ folder: String) -> Bool {
    var info = stat()
    guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
    var empty = true
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
      if !removeEmptyFolders(folder + "/" + entry) { empty = false }
    }
    return empty && rmdir(folder) == 0
  }

  /// Why a file cannot be made in `folder`, from `errno`, with the fix.
  public static func reason(_ code: Int32, folder: String) -> String {
    let shown = folder.isEmpty ? "." : folder
    switch code {
    case EACCES, EPERM:
      return "the folder \(shown) is not writable (permission denied); make it writable (chmod u+w) or name a folder "
        + "you can write"
    case EROFS:
      return "the folder \(shown) is on a read-only file system; name a folder on a writable one"
    case ENOSPC, EDQUOT:
      return "no space is left on the device of \(shown); free some space"
    case ENOTDIR:
      return "a part of the path is a file, not a folder; check the path"
    case ENAMETOOLONG:
      return "the path is too long; name a shorter one"
    default:
      return String(cString: strerror(code)) + "; check the path and its permissions"
    }
  }
}

/// A file's device and inode: equal for two paths that lead to one file.
public struct FileIdentity: Hashable, Sendable {
  /// `st_dev`.
  public var device: UInt64
  /// `st_ino`.
  public var inode: UInt64
}

/// The outputs a batch has given out, by what they name rather than how they are
/// spelt: `d.png`, `./d.png`, `x/../d.png` and a link to it are one file.
struct OutputClaims<Owner> {
  private var byKey: [PathDigest: Owner] = [:]
  private var byFile: [FileIdentity: Owner] = [:]

  /// The owner of the file `path` names when an earlier claim has it; otherwise
  /// records `owner` as its claim and returns nil.
  mutating func claim(_ path: String, by owner: Owner) -> Owner? {
    let key = PathDigest(FilePaths.outputKey(path))
    if let first = byKey[key] { return first }
    let file = FilePaths.identity(path)
    if let file, let first = byFile[file] { return first }
    byKey[key] = owner
    if let file { byFile[file] = owner }
    return nil
  }
}

/// A path as 128 bits, two differently salted hashes of its text: two paths with
/// one digest are, but for a chance of about 2^-128 per pair, the same path.
struct PathDigest: Hashable {
  private var low: Int
  private var high: Int

  init(_ path: String) {
    var a = Hasher()
    a.combine(path)
    low = a.finalize()
    var b = Hasher()
    b.combine(0x9E37_79B9)
    b.combine(path)
    high = b.finalize()
  }
}
