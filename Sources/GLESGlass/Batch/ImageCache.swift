import Foundation

/// Decoded images, and copies of them fitted to frames, shared by the scenes of a
/// batch so that an image many jobs show is decoded and fitted once. Bounded in
/// bytes: the least recently used entries go first. A file is known by its path,
/// size and modification time, so a file changed during a batch is read again.
public final class ImageCache: @unchecked Sendable {
  /// A file as it was when read.
  struct FileKey: Hashable {
    var path: String
    var size: Int
    var modified: timespec

    static func == (a: FileKey, b: FileKey) -> Bool {
      a.path == b.path && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
        && a.modified.tv_nsec == b.modified.tv_nsec
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(path)
      hasher.combine(size)
      hasher.combine(modified.tv_sec)
      hasher.combine(modified.tv_nsec)
    }

    /// The file at `path` now, or nil when it cannot be examined.
    init?(path: String) {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      self.path = path
      size = Int(info.st_size)
      modified = info.st_mtim
    }
  }

  private enum Key: Hashable {
    case decoded(FileKey)
    case fitted(FileKey, frame: PixelSize, mode: ContentMode, window: PixelRect)
  }

  private struct Entry {
    var image: RGBAImage
    var isOpaque: Bool
    var bytes: Int
    var used: UInt64
  }

  /// The most bytes of pixels held.
  public let capacityBytes: Int
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  private let lock = NSLock()

  /// Bytes held now.
  public private(set) var bytes = 0
  /// Lookups that found an entry.
  public private(set) var hits = 0
  /// Lookups that did not.
  public private(set) var misses = 0

  /// A cache of at most `capacityBytes` of pixels.
  public init(capacityBytes: Int) {
    self.capacityBytes = max(0, capacityBytes)
  }

  func decoded(_ file: FileKey) -> RGBAImage? {
    lookup(.decoded(file))?.image
  }

  func storeDecoded(_ image: RGBAImage, for file: FileKey) {
    store(.decoded(file), image: image, isOpaque: false)
  }

  func fitted(_ file: FileKey, _ fit: SceneImages.FitKey) -> SceneImages.Fitted? {
    lookup(.fitted(file, frame: fit.frame, mode: fit.mode, window: fit.window)).map {
      SceneImages.Fitted(image: $0.image, isOpaque: $0.isOpaque)
    }
  }

  func storeFitted(_ fitted: SceneImages.Fitted, for file: FileKey, _ fit: SceneImages.FitKey) {
    store(
      .fitted(file, frame: fit.frame, mode: fit.mode, window: fit.window), image: fitted.image,
      isOpaque: fitted.isOpaque)
  }

  private func lookup(_ key: Key) -> Entry? {
    lock.withLock {
      guard var entry = entries[key] else {
        misses += 1
        return nil
      }
      hits += 1
      clock += 1
      entry.used = clock
      entries[key] = entry
      return entry
    }
  }

  private func store(_ key: Key, image: RGBAImage, isOpaque: Bool) {
    let size = image.size.pixelCount * 4 * image.depth.rawValue / 8
    guard size <= capacityBytes else { return }
    lock.withLock {
      if let old = entries[key] { bytes -= old.bytes }
      while bytes + size > capacityBytes, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
        bytes -= oldest.value.bytes
        entries[oldest.key] = nil
      }
      clock += 1
      entries[key] = Entry(image: image, isOpaque: isOpaque, bytes: size, used: clock)
      bytes += size
    }
  }
}
