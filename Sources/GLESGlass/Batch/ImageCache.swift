import Foundation

/// Decoded images, and copies of them fitted to frames, shared by the scenes of a
/// batch so that an image many jobs show is decoded and fitted once: an
/// `LRUCache` of `RenderCaches`, bounded in bytes, the least recently used
/// entries going first. A file is known by its path,
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
  }

  /// The most bytes of pixels held.
  public let capacityBytes: Int
  private let entries: LRUCache<Key, Entry>

  /// Bytes held now.
  public var bytes: Int { entries.bytes }
  /// Lookups that found an entry.
  public var hits: Int { entries.stats.hits }
  /// Lookups that did not.
  public var misses: Int { entries.stats.misses }
  /// What it holds and has done.
  public var stats: CacheStats { entries.stats }

  /// A cache of at most `capacityBytes` of pixels, the least recently used going first.
  public init(capacityBytes: Int) {
    self.capacityBytes = max(0, capacityBytes)
    entries = LRUCache("images", budgetBytes: self.capacityBytes)
  }

  func decoded(_ file: FileKey) -> RGBAImage? {
    entries.value(forKey: .decoded(file))?.image
  }

  func storeDecoded(_ image: RGBAImage, for file: FileKey) {
    store(.decoded(file), image: image, isOpaque: false)
  }

  func fitted(_ file: FileKey, _ fit: SceneImages.FitKey) -> SceneImages.Fitted? {
    entries.value(forKey: .fitted(file, frame: fit.frame, mode: fit.mode, window: fit.window)).map {
      SceneImages.Fitted(image: $0.image, isOpaque: $0.isOpaque)
    }
  }

  func storeFitted(_ fitted: SceneImages.Fitted, for file: FileKey, _ fit: SceneImages.FitKey) {
    store(
      .fitted(file, frame: fit.frame, mode: fit.mode, window: fit.window), image: fitted.image,
      isOpaque: fitted.isOpaque)
  }

  private func store(_ key: Key, image: RGBAImage, isOpaque: Bool) {
    let size = image.size.pixelCount * 4 * image.depth.rawValue / 8
    entries.insert(Entry(image: image, isOpaque: isOpaque), forKey: key, bytes: size)
  }
}
