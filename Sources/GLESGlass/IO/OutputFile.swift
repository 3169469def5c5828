import COutputGuard
import CPNG
import Foundation

extension PNGCodec {
  /// An output PNG reserved before the work that fills it, written so that it is
  /// never left half-written and never replaces what it should not.
  ///
  /// What the output path names decides how it is written:
  /// - a regular file, or nothing yet: a temporary file beside it is created at once
  ///   (so a bad path fails before any work), written, then renamed over it;
  /// - a symbolic link: followed, as `cp` does: the link stays and the file it leads
  ///   to is written as above (a dangling link creates its target);
  /// - a character device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe): the
  ///   whole PNG is encoded first, then written into it in place;
  /// - a folder, a block device or a socket: refused.
  ///
  /// With `followingLinks: false` (the files a run makes in a folder of its own,
  /// such as a goldens check's artifacts), a link or anything but a regular file
  /// at the path is refused: a link someone else put there never redirects the
  /// write. A path holding a NUL character is refused (C would cut it there).
  ///
  /// The temporary is `.NAME.glass-gpu-PID-RANDOM.tmp` in the output's folder. It is
  /// removed when the output is never written, on SIGINT, SIGTERM, SIGHUP, SIGQUIT
  /// and crash signals once `installSignalCleanup()` ran, and, after a death nothing
  /// can catch (SIGKILL, power loss), by a later process's reservation of the same
  /// output once the process it names is gone (each process lists a folder for
  /// them once, the first time it writes there: `sweep`).
  ///
  /// A missing folder of the output is made, as `mkdir -p` does (not with
  /// `followingLinks: false`, whose callers make their folders without links).
  public final class OutputFile: @unchecked Sendable {
    /// Where the PNG goes, as given.
    public let path: String
    /// The file written: `path`, or the file the symbolic link at `path` leads to.
    public let target: String
    /// Whether the output is a device or FIFO written in place (else a temporary
    /// file renamed over `target`).
    public let inPlace: Bool
    private let temporary: String
    private var descriptor: Int32 = -1
    private var slot: Int32 = -1
    private var finished = false

    /// Reserves `path`; throws `outputFailure` naming the path and the fix.
    public init(path: String, followingLinks: Bool = true) throws {
      guard !path.isEmpty else {
        throw GlassError(.outputFailure, "the output path is empty; name a .png file")
      }
      if let problem = FilePaths.problem(with: path) {
        throw GlassError(.outputFailure, "cannot write \(FilePaths.printable(path)): \(problem)")
      }
      self.path = path
      var info = stat()
      if !followingLinks && lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
        let what =
          info.st_mode & S_IFMT == S_IFLNK
          ? "a symbolic link this run did not make" : Self.describe(info.st_mode & S_IFMT)
        throw GlassError(.outputFailure, "cannot write \(path): it is \(what); remove it, or name another folder")
      }
      if stat(path, &info) == 0 {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
          let target = try Self.followLinks(path)
          guard lstat(target, &info) == 0 else {
            throw GlassError(
              .outputFailure, "cannot write \(path): the file it leads to cannot be named; name a file")
          }
          self.target = target
          inPlace = false
        case S_IFCHR, S_IFIFO:
          guard access(path, W_OK) == 0 else {
            throw GlassError(
              .outputFailure, "cannot write \(path): permission denied; name a file you can write",
              cause: String(cString: strerror(errno)))
          }
          target = path
          inPlace = true
        case let kind:
          throw GlassError(.outputFailure, "cannot write \(path): it is \(Self.describe(kind)); name a file")
        }
      } else if errno == ENOENT || errno == ENOTDIR {
        // Missing, or a link to something missing (which is created); ENOTDIR:
        // a file where a folder should be, named below.
        target = try Self.followLinks(path)
        inPlace = false
      } else {
        let reason = errno == ELOOP ? "too many levels of symbolic links" : String(cString: strerror(errno))
        throw GlassError(.outputFailure, "cannot write \(path): \(reason); name a file you can write")
      }
      guard !inPlace else {
        temporary = ""
        return
      }
      let named = target == path ? path : "\(path) (a link to \(target))"
      let folder = Self.folder(of: target)
      if stat(folder, &info) != 0 && (errno == ENOENT || errno == ENOTDIR) && followingLinks {
        // Made as `mkdir -p` would (what every command writing a file does).
        do {
          try FilePaths.makeFolders(folder)
        } catch let error as GlassError {
          throw GlassError(error.code, "cannot write \(named): \(error.message)", cause: error.cause, hint: error.hint)
        }
      }
      guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        let why =
          stat(folder, &info) == 0 ? "\(folder) is not a folder" : "the folder \(folder) does not exist"
        throw GlassError(.outputFailure, "cannot write \(named): \(why); name another folder")
      }
      let name = Self.lastComponent(of: target)
      Self.sweep(folder, FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), for: name)
      let pid = getpid()
      let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
      temporary =
        Self.join(
          folder,
          Self.temporaryPrefix(of: name) + "\(pid)-" + String(repeating: "0", count: 8 - random.count)
            + random + ".tmp")
      // Registered before it exists, so no moment is left unguarded; a signal in
      // between removes nothing (the name is this process's alone).
      slot = glass_output_guard_register(temporary)
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
      guard descriptor >= 0 else {
        let code = errno
        glass_output_guard_unregister(slot)
        slot = -1
        throw GlassError(
          .outputFailure, "cannot write \(named): \(FilePaths.reason(code, folder: folder))",
          cause: String(cString: strerror(code)))
      }
      // Held while the process lives: a later sweep removes the file only once the
      // lock is free (the owner gone), whatever the PID says.
      _ = flock(descriptor, LOCK_EX | LOCK_NB)
    }

    /// Throws `outputFailure` when the output is one of `inputs` (the same file,
    /// whatever its spelling or the links to it): writing it would destroy the input.
    /// `what` names the output in the message (`the JUnit report`).
    public func checkDistinct(from inputs: [String], naming what: String? = nil) throws {
      var output = stat()
      guard stat(path, &output) == 0 else { return }
      let named = what.map { "\($0) \(path)" } ?? path
      for input in inputs {
        var info = stat()
        guard stat(input, &info) == 0, info.st_dev == output.st_dev, info.st_ino == output.st_ino else { continue }
        let reason = input == path ? "it is an input of this command" : "it is the same file as the input \(input)"
        throw GlassError(.outputFailure, "cannot write \(named): \(reason); name another output file")
      }
    }

    /// Encodes `image` as a PNG and writes it: into the temporary file, renamed to
    /// `target`, or in place for a device or FIFO.
    public func write(_ image: RGBAImage, compression: Int = PNGCodec.defaultCompression) throws {
      try write(image, encoding: .png(compression: compression))
    }

    /// Milliseconds of one `write`: encoding the image, and writing the file
    /// (the temporary written and renamed into place, or the device written).
    public struct WriteTimings: Sendable, Equatable {
      /// Encoding the image into the file's bytes, in memory.
      public var encodeMilliseconds = 0.0
      /// Writing those bytes out.
      public var writeMilliseconds = 0.0
      /// The CPU milliseconds of the encode on this thread (the wall time counts
      /// waiting for a core).
      public var encodeCPUMilliseconds = 0.0
      /// The CPU milliseconds of the write on this thread (the wall time counts
      /// waiting for a core and for the disk).
      public var writeCPUMilliseconds = 0.0
    }

    /// Encodes `image` as `encoding` says (the format from the output's extension,
    /// else `encoding.format`, else PNG) and writes it: into the temporary file,
    /// renamed to `target`, or in place for a device or FIFO. Returns the time spent.
    @discardableResult
    public func write(_ image: RGBAImage, encoding: ImageEncoding) throws -> WriteTimings {
      try encoding.validate()
      guard !finished else { preconditionFailure("an OutputFile is written once") }
      let format = try encoding.format(forPath: path)
      var timings = WriteTimings()
      let start = milliseconds()
      let cpuStart = threadCPUMilliseconds()
      try encoding.encode(image, as: format, name: path) { bytes in
        let encoded = milliseconds()
        let cpuEncoded = threadCPUMilliseconds()
        timings.encodeMilliseconds = encoded - start
        timings.encodeCPUMilliseconds = cpuEncoded - cpuStart
        if inPlace { try writeInPlace(bytes) } else { try replace(with: bytes) }
        timings.writeMilliseconds = milliseconds() - encoded
        timings.writeCPUMilliseconds = threadCPUMilliseconds() - cpuEncoded
      }
      finished = true
      return timings
    }

    /// Writes an already encoded file (an animated PNG): into the temporary file,
    /// renamed to `target`, or in place for a device or FIFO.
    public func write(encoded bytes: [UInt8]) throws {
      guard !finished else { preconditionFailure("an OutputFile is written once") }
      try bytes.withUnsafeBytes { png in
        if inPlace { try writeInPlace(png) } else { try replace(with: png) }
      }
      finished = true
    }

    /// Writes a file piece by piece, so that memory does not grow with its length
    /// (an animated PNG, frame by frame): `body` appends bytes with the function it
    /// is given, into the temporary file, renamed to `target` once `body` returns,
    /// or straight into a device or FIFO. The first failed write throws; when
    /// `body` throws, nothing is renamed and the temporary is removed.
    public func write(streaming body: (_ append: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
      guard !finished else { preconditionFailure("an OutputFile is written once") }
      if inPlace {
        let file = try openInPlace()
        defer { close(file) }
        try body { bytes in
          if let failure = writeFully(file, bytes) {
            throw GlassError(.outputFailure, "cannot write \(path)", cause: failure)
          }
        }
      } else {
        do {
          try body { bytes in
            if let failure = writeFully(descriptor, bytes) {
              throw GlassError(.outputFailure, "cannot write \(path); check the free space", cause: failure)
            }
          }
          try commit()
        } catch {
          // Not left for deinit: the caller may hold this file a while yet.
          unlink(temporary)
          release()
          throw error
        }
      }
      finished = true
    }

    /// Writes `png` into the temporary file and renames it over `target` (`commit`).
    private func replace(with png: UnsafeRawBufferPointer) throws {
      if let failure = writeFully(descriptor, png) {
        throw GlassError(.outputFailure, "cannot write \(path); check the free space", cause: failure)
      }
      try commit()
    }

    /// Renames the written temporary file over `target`, keeping the permissions
    /// (and, where allowed, the owner) of a file it replaces, once the new file is
    /// on disk.
    private func commit() throws {
      var existing = stat()
      if stat(target, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG {
        _ = fchown(descriptor, existing.st_uid, existing.st_gid)
        _ = fchmod(descriptor, existing.st_mode & 0o777)
        // An old file is replaced only by one on disk: after a power cut the output
        // is the old file or the new one, never an empty one. (A new output is not
        // synced: losing it destroys nothing.)
        guard fsync(descriptor) == 0 else {
          throw GlassError(
            .outputFailure, "cannot write \(path); check the free space", cause: String(cString: strerror(errno)))
        }
      }
      guard rename(temporary, target) == 0 else {
        throw GlassError(.outputFailure, "cannot write \(path)", cause: String(cString: strerror(errno)))
      }
      release()
    }

    /// Opens the device or FIFO without creating or truncating it and writes `png`.
    private func writeInPlace(_ png: UnsafeRawBufferPointer) throws {
      let file = try openInPlace()
      defer { close(file) }
      if let failure = writeFully(file, png) {
        throw GlassError(.outputFailure, "cannot write \(path)", cause: failure)
      }
    }

    /// Opens the device or FIFO without creating or truncating it.
    private func openInPlace() throws -> Int32 {
      let file = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard file >= 0 else {
        throw GlassError(.outputFailure, "cannot write \(path)", cause: String(cString: strerror(errno)))
      }
      var info = stat()
      guard fstat(file, &info) == 0, [S_IFCHR, S_IFIFO].contains(info.st_mode & S_IFMT) else {
        close(file)
        throw GlassError(.outputFailure, "cannot write \(path): it changed while rendering; run the command again")
      }
      return file
    }

    /// Closes the temporary file and forgets it (once).
    private func release() {
      if slot >= 0 { glass_output_guard_unregister(slot) }
      if descriptor >= 0 { close(descriptor) }
      slot = -1
      descriptor = -1
    }

    deinit {
      if !finished && !inPlace && descriptor >= 0 { unlink(temporary) }
      release()
    }

    /// Makes SIGINT, SIGTERM, SIGHUP, SIGQUIT and the crash signals remove every
    /// temporary file before the process dies of them (with the signal's usual
    /// status: 130, 143, 129, 131 from a shell); a signal inherited as ignored stays
    /// ignored. Call it once, early; later calls do nothing.
    public static func installSignalCleanup() {
      _ = glass_output_guard_install()
    }

    /// While deferring, the first SIGINT or SIGTERM does not end the process
    /// but is recorded in `stopSignal`, for a long run (a batch) to stop taking
    /// work and end cleanly; a second one ends the process at once, as without.
    public static func deferStops(_ deferring: Bool) {
      glass_output_guard_defer_stops(deferring ? 1 : 0)
    }

    /// The SIGINT or SIGTERM received while stops were deferred, if any.
    public static var stopSignal: Int32? {
      let signal = glass_output_guard_stop_signal()
      return signal == 0 ? nil : signal
    }

    /// Removes every temporary file and ends the process by `signal` (a shell
    /// reports 128 + the signal: 130 for SIGINT, 143 for SIGTERM), after what was
    /// printed to standard output is flushed (a log file keeps the run's last lines).
    public static func end(bySignal signal: Int32) -> Never {
      fflush(nil)
      glass_output_guard_die_of(signal)
      // The default action of SIGINT and SIGTERM ends the process; in case it is not:
      exit(128 + signal)
    }

    /// The start of the names of `name`'s temporaries: `.NAME.glass-gpu-`, with NAME
    /// cut to 200 bytes so that the whole name fits in 255.
    static func temporaryPrefix(of name: String) -> String {
      var stem = ""
      var bytes = 0
      for scalar in name.unicodeScalars {
        bytes += String(scalar).utf8.count
        guard bytes <= 200 else { break }
        stem.unicodeScalars.append(scalar)
      }
      return "." + stem + ".glass-gpu-"
    }

    /// The process that made a temporary called `entry`, when `entry` is one of
    /// `prefix`'s: `PREFIX` + PID + `-` + 8 hex digits + `.tmp`.
    static func owner(ofTemporary entry: String, prefix: String) -> pid_t? {
      guard entry.hasPrefix(prefix), entry.hasSuffix(".tmp") else { return nil }
      let middle = entry.dropFirst(prefix.count).dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
      guard middle.count == 2, middle[1].count == 8, UInt32(middle[1], radix: 16) != nil,
        middle[0].allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(middle[0]), pid > 0
      else { return nil }
      return pid
    }

    /// The folders this process has listed for stale temporaries, and what it
    /// found in them: a folder is listed once (listing it for every output made
    /// N outputs in one folder cost N^2 entries read).
    private static let sweeps = Sweeps()

    /// Removes the temporaries of `name` in `folder` (whose identity is `identity`)
    /// left by processes that are gone. The folder is listed the first time this
    /// process writes into it; every temporary found there then whose process was
    /// gone is kept in mind by its output's name, and removed when that output is
    /// written (`removeStale`). Temporaries left in the folder later (by a process
    /// killed meanwhile) wait for the next process.
    static func sweep(_ folder: String, _ identity: FileIdentity, for name: String) {
      for entry in sweeps.stale(in: folder, identity, for: name) { removeStale(entry, in: folder) }
    }

    /// True when no process `pid` exists (and it is not this one).
    static func isGone(_ pid: pid_t) -> Bool {
      pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the temporary `entry` of `folder`, made by a process that is gone,
    /// when it is still a regular file whose lock is free. Files of a live process
    /// (or of one the PID check cannot rule out) stay.
    static func removeStale(_ entry: String, in folder: String) {
      let stale = join(folder, entry)
      let file = open(stale, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard file >= 0 else { return }
      defer { close(file) }
      var info = stat()
      guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
      // A lock held means a live owner in another PID namespace; no lock support
      // (ENOLCK, EINVAL) leaves the PID's word.
      if flock(file, LOCK_EX | LOCK_NB) != 0 && (errno == EWOULDBLOCK || errno == EINTR) { return }
      unlink(stale)
    }

    /// The output's name of the temporary `entry` and the process that made it,
    /// when `entry` is one: `.NAME.glass-gpu-PID-XXXXXXXX.tmp`.
    static func temporaryOwner(_ entry: String) -> (prefix: String, pid: pid_t)? {
      guard entry.hasPrefix("."), entry.hasSuffix(".tmp"),
        let marker = entry.range(of: ".glass-gpu-", options: .backwards)
      else { return nil }
      let prefix = String(entry[..<marker.upperBound])
      return owner(ofTemporary: entry, prefix: prefix).map { (prefix, $0) }
    }

    /// The folders listed so far (by identity and spelling) and, in each, the
    /// temporaries of gone processes not yet removed, by their prefix. Bounded:
    /// past `limit` folders it forgets them all, and a folder is listed again.
    final class Sweeps: @unchecked Sendable {
      private let lock = NSLock()
      private var listed: [FolderKey: [String: [String]]] = [:]
      let limit = 4096

      struct FolderKey: Hashable {
        var identity: FileIdentity
        var spelling: PathDigest
      }

      /// The stale temporaries of `name` in `folder`, listing the folder the first
      /// time; each is handed out once.
      func stale(in folder: String, _ identity: FileIdentity, for name: String) -> [String] {
        let key = FolderKey(identity: identity, spelling: PathDigest(FilePaths.lexicallyAbsolute(folder)))
        let prefix = OutputFile.temporaryPrefix(of: name)
        return lock.withLock {
          if listed[key] == nil {
            if listed.count >= limit { listed.removeAll() }
            var found: [String: [String]] = [:]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
              guard let owner = OutputFile.temporaryOwner(entry), OutputFile.isGone(owner.pid) else { continue }
              found[owner.prefix, default: []].append(entry)
            }
            listed[key] = found
          }
          return listed[key]?.removeValue(forKey: prefix) ?? []
        }
      }
    }

    /// Follows symbolic links from `path` to what is not one (a file, or nothing:
    /// a dangling link's target), relative links against their own folder.
    static func followLinks(_ path: String) throws -> String {
      var current = path
      var info = stat()
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      for _ in 0..<40 {
        guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
        let count = readlink(current, &buffer, buffer.count - 1)
        guard count > 0 else { return current }
        let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let base = FilePaths.folder(of: current)
        current = link.hasPrefix("/") || base.isEmpty ? link : join(base, link)
      }
      throw GlassError(.outputFailure, "cannot write \(path): too many levels of symbolic links; name a file")
    }

    /// The folder part of `path` (`.` when there is none).
    static func folder(of path: String) -> String {
      let folder = FilePaths.folder(of: path)
      return folder.isEmpty ? "." : folder
    }

    /// The last part of `path`.
    static func lastComponent(of path: String) -> String {
      (path as NSString).lastPathComponent
    }

    /// `folder/name`.
    static func join(_ folder: String, _ name: String) -> String {
      folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `a folder`, `a block device`, `a socket`: a file type that is not written.
    static func describe(_ kind: mode_t) -> String {
      switch kind {
      case S_IFDIR: "a folder"
      case S_IFBLK: "a block device (glass-gpu does not write onto disks)"
      case S_IFSOCK: "a socket"
      case S_IFCHR: "a character device"
      case S_IFIFO: "a FIFO (named pipe)"
      default: "not a file"
      }
    }

    /// Encodes `image` to a whole PNG in memory and hands it to `body`: at
    /// compression 1, glass-gpu's fast encoder (Paeth rows, Huffman codes per band
    /// and zero runs: fast_png.c); else libdeflate at that level, rows filtered by
    /// `filter` (none at level 0).
    static func encode(
      _ image: RGBAImage, compression: Int, filter: PNGCodec.RowFilter = .up, name: String,
      _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
      let encoder: PNGCodec.Encoder =
        compression == PNGCodec.fastCompression
        ? .fast() : .libdeflate(level: compression, filter: compression == 0 ? .none : filter)
      try encode(image, with: encoder, name: name, body)
    }

    /// Encodes `image` to a whole PNG in memory with `encoder` and hands it to `body`.
    static func encode(
      _ image: RGBAImage, with encoder: PNGCodec.Encoder, name: String, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
      var message = [CChar](repeating: 0, count: 512)
      var png: UnsafeMutablePointer<UInt8>?
      var size = 0
      let width = UInt32(image.width)
      let height = UInt32(image.height)
      let depth = Int32(image.depth.rawValue)
      let rowBytes = image.width * 4 * image.depth.rawValue / 8
      func run(_ pixels: UnsafeRawBufferPointer) -> Int32 {
        switch encoder {
        case .fast(let bandBytes):
          cpng_encode_fast(
            pixels.baseAddress, width, height, depth, rowBytes, bandBytes, &png, &size, &message, message.count)
        case .libpng(let level):
          cpng_encode_libpng(
            pixels.baseAddress, width, height, depth, rowBytes, Int32(level), &png, &size, &message, message.count)
        case .libdeflate(let level, let filter):
          cpng_encode(
            pixels.baseAddress, width, height, depth, rowBytes, Int32(level), Int32(filter.rawValue), &png, &size,
            &message, message.count)
        }
      }
      let status: Int32
      switch image.samples {
      case .eight(let values): status = values.withUnsafeBytes(run)
      case .sixteen(let values): status = values.withUnsafeBytes(run)
      }
      defer { cpng_free(png) }
      guard status == 0, let png else {
        throw GlassError(.outputFailure, "cannot write \(name)", cause: String(cBuffer: message))
      }
      try body(UnsafeRawBufferPointer(start: png, count: size))
    }
  }
}

/// Writes all of `bytes` to `descriptor`; returns the reason when it cannot.
func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
  guard let base = bytes.baseAddress else { return nil }
  var offset = 0
  while offset < bytes.count {
    let written = write(descriptor, base + offset, bytes.count - offset)
    if written < 0 {
      if errno == EINTR { continue }
      return String(cString: strerror(errno))
    }
    offset += written
  }
  return nil
}

extension PNGCodec {
  /// True when `path` is a regular file that starts with the PNG signature and ends
  /// with an `IEND` chunk: what an output this project wrote looks like, checked
  /// from 20 bytes without decoding. An empty file, a file cut short or one that
  /// is not a PNG is not whole (`--resume` renders it again).
  public static func looksWhole(path: String) -> Bool {
    looksWhole(path: path, format: .png)
  }

  /// True when `path` is a regular file whose first and last bytes are those of
  /// a whole file of `format`, as this project writes them (checked from a few
  /// bytes, without decoding; `--resume` renders anything else again):
  /// - PNG: the signature, and an `IEND` chunk at the end;
  /// - JPEG: a start-of-image marker followed by another marker (`FF D8 FF`), and
  ///   the end-of-image marker (`FF D9`) as the last two bytes (libjpeg-turbo
  ///   writes it last);
  /// - WebP: `RIFF`, a size that is the file's size less 8, `WEBP`, and a first
  ///   chunk of `VP8 `, `VP8L` or `VP8X` (libwebp writes the size once the file is
  ///   whole; a cut file is shorter than it says).
  public static func looksWhole(path: String, format: ImageEncoding.Format) -> Bool {
    let file = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else { return false }
    defer { close(file) }
    var info = stat()
    guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    let size = Int(info.st_size)
    func bytes(at offset: Int, _ count: Int) -> [UInt8]? {
      guard offset >= 0, offset + count <= size else { return nil }
      var buffer = [UInt8](repeating: 0, count: count)
      let read = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(offset)) }
      return read == count ? buffer : nil
    }
    switch format {
    case .png:
      let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      // The IEND chunk: length 0, type "IEND", its CRC.
      let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
      return size >= 8 + 12 && bytes(at: 0, 8) == signature && bytes(at: size - 12, 12) == end
    case .jpeg:
      return size >= 5 && bytes(at: 0, 3) == [0xFF, 0xD8, 0xFF] && bytes(at: size - 2, 2) == [0xFF, 0xD9]
    case .webp:
      guard size >= 20, let head = bytes(at: 0, 16) else { return false }
      let declared = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
      let chunk = Array(head[12..<16])
      return Array(head[0..<4]) == Array("RIFF".utf8) && Array(head[8..<12]) == Array("WEBP".utf8)
        && declared + 8 == size && [Array("VP8 ".utf8), Array("VP8L".utf8), Array("VP8X".utf8)].contains(chunk)
    }
  }
}
