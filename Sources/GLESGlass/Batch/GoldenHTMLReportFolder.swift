import Foundation

extension GoldenHTMLReport {
  /// The report folder's own files: a report writes only paths that are free or
  /// hold a file an earlier report listed in `.glass-gpu-report`, and refuses a
  /// link anywhere it would write, before it writes anything.
  enum ReportFolder {
    /// The list of the files the folder's reports wrote, one relative path a line.
    static let listName = ".glass-gpu-report"
    static let header = "# glass-gpu report: the files of this folder that its reports wrote, one a line"

    /// The files earlier reports listed in `folder`; none when it has no list
    /// (or does not exist). Throws when the list is a link or not a file.
    static func ownedFiles(in folder: String) throws -> Set<String> {
      let path = join(folder, listName)
      var info = stat()
      guard lstat(path, &info) == 0 else { return [] }
      guard info.st_mode & S_IFMT == S_IFREG else { throw refusal(folder, path, mode: info.st_mode) }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw GlassError(
          .fileUnreadable, "cannot read \(path), the list of the report's files; check its permissions, or remove it")
      }
      var owned: Set<String> = []
      for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let name = String(line)
        guard !name.hasPrefix("#"), !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { continue }
        owned.insert(name)
      }
      return owned
    }

    /// Throws, naming the path and the fix, when any of `names` (paths relative
    /// to `folder`), the folders on their way or the list of files is a link,
    /// is not what the report writes there (a folder, a regular file), or is a
    /// file that is not in `owned`.
    static func checkWritable(_ names: [String], in folder: String, owned: Set<String>) throws {
      var info = stat()
      guard stat(folder, &info) == 0 else { return }
      var folders: [String: Bool] = [:]
      func exists(folder name: String) throws -> Bool {
        if let known = folders[name] { return known }
        let path = join(folder, name)
        var info = stat()
        let found: Bool
        if lstat(path, &info) != 0 {
          found = false
        } else if info.st_mode & S_IFMT == S_IFDIR {
          found = true
        } else {
          throw refusal(folder, path, mode: info.st_mode, wanted: "a folder")
        }
        folders[name] = found
        return found
      }
      for name in names + [listName] {
        var on = ""
        var reachable = true
        for part in name.split(separator: "/").dropLast() where reachable {
          on = on.isEmpty ? String(part) : on + "/" + part
          reachable = try exists(folder: on)
        }
        let path = join(folder, name)
        guard reachable, lstat(path, &info) == 0 else { continue }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refusal(folder, path, mode: info.st_mode) }
        guard name == listName || owned.contains(name) else {
          throw GlassError(
            .outputFailure,
            "cannot write the report in \(folder): \(path) is a file no report wrote there, and a report replaces "
              + "only its own files; move it away, or name an empty folder for the report")
        }
      }
    }

    /// Writes the list of the report's files (through a temporary file).
    static func record(_ names: Set<String>, in folder: String) throws {
      let text = ([header] + names.sorted()).joined(separator: "\n") + "\n"
      try PNGCodec.OutputFile(path: join(folder, listName), followingLinks: false).write(encoded: Array(text.utf8))
    }

    /// The error for something at `path` the report must not write through.
    static func refusal(_ folder: String, _ path: String, mode: mode_t, wanted: String = "a file") -> GlassError {
      let what: String
      switch mode & S_IFMT {
      case S_IFLNK:
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " to \($0)" } ?? ""
        return GlassError(
          .outputFailure,
          "cannot write the report in \(folder): \(path) is a symbolic link\(target); a report never follows a "
            + "link in its folder: remove the link, or name another folder for the report")
      case S_IFDIR: what = "a folder"
      case S_IFREG: what = "a file"
      case S_IFIFO: what = "a FIFO (named pipe)"
      case S_IFCHR: what = "a character device"
      case S_IFBLK: what = "a block device"
      case S_IFSOCK: what = "a socket"
      default: what = "not a regular file"
      }
      return GlassError(
        .outputFailure,
        "cannot write the report in \(folder): \(path) is \(what) where the report writes \(wanted); remove it, or "
          + "name another folder for the report")
    }

    static func join(_ folder: String, _ name: String) -> String {
      (folder as NSString).appendingPathComponent(name)
    }
  }
}

extension GoldenHTMLReport {
  /// The data of a page that grows by appending (`appendFailure`).
  static let appendingPageData = "{\"title\":\"glass-gpu snapshot failures\",\"cases\":[]}"

  /// Adds one failed comparison to the page in `folder` that grows by
  /// appending (the snapshot strategy's, `$SNAPSHOT_ARTIFACTS/GlassSnapshotReport`)
  /// and returns the page's path. The page (`index.html`, the same page as
  /// `write`'s) is made once; each failure then writes its own images under
  /// `images/` with names no other writer uses, and appends one small element
  /// with its data to the page in one `write` (O_APPEND): what a failure costs
  /// does not grow with the failures before it, and processes or suites
  /// writing into one folder at once each add their cases whole. A page of
  /// another version of glass-gpu is first moved aside to
  /// `index.previous-N.html`. Links in the folder are never followed.
  /// `group` names the cases' group on the page (the test's file).
  @discardableResult
  public static func appendFailure(
    name: String, group: String?, message: String, reference: RGBAImage?, actual: RGBAImage,
    antiAliasing: Bool = false, to folder: String
  ) throws -> String {
    try FilePaths.makeFolders(folder, what: "the report folder")
    try FilePaths.makeFoldersWithoutLinks("images", in: folder)
    let pagePath = ReportFolder.join(folder, pageName)
    try ensureAppendablePage(pagePath)

    let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    let token = "\(getpid())-" + String(repeating: "0", count: 16 - random.count) + random
    var fields: [(String, String)] = [("name", json(name)), ("status", json("failed"))]
    let sameSize = reference.map { $0.size == actual.size && $0.width > 0 } ?? false
    fields.append(
      ("failure", json(sameSize ? GoldenFailure.imagesDiffer.rawValue : GoldenFailure.sizeDiffers.rawValue)))
    if let group { fields.append(("folder", json(group))) }
    fields.append(("message", json(message)))
    func add(_ kind: String, _ image: RGBAImage) throws -> String {
      let name = "images/\(token)-\(kind).png"
      try writeNewFile(ReportFolder.join(folder, name), bytes: PNGCodec.encode(image))
      fields.append((kind, json(name)))
      return name
    }
    if let reference, reference.width > 0 { _ = try add("reference", reference) }
    let actualName = try add("actual", actual)
    if let reference, sameSize {
      _ = try add("difference", ImageComparison.differenceImage(actual, reference))
      let marks = DifferenceMarks(actual, reference, masked: [], antiAliasing: antiAliasing)
      _ = try add("overlay", marks.overlay)
      if let box = marks.box { fields.append(("changeBox", rect(box))) }
      if let comparison = try? ImageComparison(actual, reference) {
        fields += comparisonFields(comparison, ignored: 0)
      }
      if let perceptual = try? ImageComparison.perceptual(actual, reference, deltaEThreshold: 0) {
        fields.append(("deltaE", String(format: "%.2f", perceptual.maxDeltaE)))
      }
    }
    let thumb = thumbnail(actual)
    if thumb.size == actual.size {
      fields.append(("thumb", json(actualName)))
    } else {
      let name = "images/\(token)-thumb.png"
      try writeNewFile(ReportFolder.join(folder, name), bytes: PNGCodec.encode(thumb, compression: 1))
      fields.append(("thumb", json(name)))
    }
    fields.append(("thumbSize", "[\(thumb.width),\(thumb.height)]"))
    fields.append(("size", "[\(actual.width),\(actual.height)]"))

    let element =
      "<script type=\"application/json\" class=\"case\">"
      + object(fields).replacingOccurrences(of: "</", with: "<\\/") + "</script>\n"
    try append(Array(element.utf8), to: pagePath)
    return pagePath
  }

  /// Makes the appendable page at `path` unless it is there already; a file of
  /// another kind there is moved aside first (never removed).
  ///
  /// Writers in this and other processes take turns here, holding a lock on the
  /// folder (flock): without it, two writers that both found a page of another
  /// version could each move it aside, and the second's unlink then removed the
  /// new page a third had made and appended to, with its failures.
  static func ensureAppendablePage(_ path: String) throws {
    let head = Array(page(data: appendingPageData).utf8)
    let folder = FilePaths.folder(of: path)
    let lock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard lock >= 0 else {
      throw GlassError(.outputFailure, "cannot write \(path): \(FilePaths.reason(errno, folder: folder))")
    }
    defer { close(lock) }
    while flock(lock, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw GlassError(.outputFailure, "cannot lock \(folder) to write \(path): \(String(cString: strerror(errno)))")
      }
    }
    for _ in 0..<8 {
      var info = stat()
      if lstat(path, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFREG else {
          throw ReportFolder.refusal(FilePaths.folder(of: path), path, mode: info.st_mode)
        }
        if try starts(path, with: head) { return }
        try moveAside(path)
        continue
      }
      // A whole page appears at once: written under a name of its own, then linked.
      let temporary = path + ".\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
      try writeNewFile(temporary, bytes: head)
      defer { unlink(temporary) }
      if link(temporary, path) != 0 && errno != EEXIST {
        throw GlassError(
          .outputFailure,
          "cannot write \(path): \(FilePaths.reason(errno, folder: FilePaths.folder(of: path)))")
      }
    }
    throw GlassError(.outputFailure, "cannot write \(path): it keeps changing; run again")
  }

  /// True when the file at `path` begins with `head`.
  static func starts(_ path: String, with head: [UInt8]) throws -> Bool {
    let file = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard file >= 0 else {
      throw GlassError(.fileUnreadable, "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(file) }
    var bytes = [UInt8](repeating: 0, count: head.count)
    var got = 0
    while got < head.count {
      let n = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return read(file, base + got, head.count - got)
      }
      if n <= 0 { break }
      got += n
    }
    return got == head.count && bytes == head
  }

  /// Moves the file at `path` to the first free `NAME.previous-N.EXT` beside it.
  static func moveAside(_ path: String) throws {
    let base = (path as NSString).deletingPathExtension
    let ext = (path as NSString).pathExtension
    for n in 1...1000 {
      let aside = "\(base).previous-\(n)" + (ext.isEmpty ? "" : "." + ext)
      if link(path, aside) == 0 {
        unlink(path)
        return
      }
      if errno != EEXIST { break }
    }
    throw GlassError(
      .outputFailure, "cannot move \(path) aside (it is not a page this version appends to); remove it, then run again")
  }

  /// Creates the file `path`, which must not exist, with `bytes`; nothing is
  /// left at `path` when writing fails.
  static func writeNewFile(_ path: String, bytes: [UInt8]) throws {
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard file >= 0 else {
      throw GlassError(
        .outputFailure, "cannot write \(path): \(FilePaths.reason(errno, folder: FilePaths.folder(of: path)))")
    }
    do {
      try writeAll(file, bytes, path: path)
      close(file)
    } catch {
      close(file)
      unlink(path)
      throw error
    }
  }

  /// Appends `bytes` to the existing file `path` in one write.
  static func append(_ bytes: [UInt8], to path: String) throws {
    let file = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
    guard file >= 0 else {
      throw GlassError(
        .outputFailure, "cannot write \(path): \(FilePaths.reason(errno, folder: FilePaths.folder(of: path)))")
    }
    defer { close(file) }
    try writeAll(file, bytes, path: path)
  }

  private static func writeAll(_ file: Int32, _ bytes: [UInt8], path: String) throws {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.write(file, base + written, bytes.count - written)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw GlassError(
          .outputFailure, "cannot write \(path): \(FilePaths.reason(errno, folder: FilePaths.folder(of: path)))")
      }
      written += n
    }
  }
}
