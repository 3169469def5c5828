import Foundation

/// The images a scene reads, by their path in the scene, and the copies of them
/// fitted to the frames that show them.
///
/// Images come decoded (from the Swift API), or as PNG, JPEG or WebP files read
/// from disk (`ImageDecoding`: the format from the file's first bytes) whose
/// headers are checked when they are read and whose pixels are decoded when a
/// render first fits them: in full, and kept, when the scene shows them at about
/// their size; a large PNG band by band, never whole, when the scene shows it
/// much smaller than it is (memory then follows what the scene shows, not the
/// file; JPEG and WebP are always decoded whole). Each fitted copy is made once,
/// however many layers show it.
public final class SceneImages: @unchecked Sendable {
  /// Where an image's pixels come from.
  enum Source {
    case decoded(RGBAImage)
    case file(ImageFile)
  }

  /// An image file read but not yet decoded.
  struct ImageFile {
    /// The file's path, for errors.
    var path: String
    /// The scene that names it, and where, for errors.
    var scene: SceneFile
    var jsonPath: String
    var data: [UInt8]
    var header: ImageDecoding.Header
  }

  /// One fitted copy: an image shown in a frame of `frame` pixels, of which the
  /// part `window` is made.
  struct FitKey: Hashable {
    var path: String
    var frame: PixelSize
    var mode: ContentMode
    var window: PixelRect
  }

  /// A fitted copy and whether every pixel of it is opaque.
  struct Fitted {
    var image: RGBAImage
    var isOpaque: Bool
  }

  private var sources: [String: Source]
  /// The folder font files and images are relative to: the scene file's, or the
  /// working directory for a scene made in Swift.
  public let directory: String
  private var fits: [FitKey: Fitted] = [:]
  /// Shared with other scenes (a batch), with the files as they were read.
  private let cache: ImageCache?
  private var fileKeys: [String: ImageCache.FileKey] = [:]
  private var warningsByFile: [String: [String]] = [:]
  private let lock = NSLock()

  /// How many fitted copies were made, and how many files decoded whole (for tests).
  private(set) var fitCount = 0
  private(set) var decodedWholeCount = 0

  /// Bytes of the fitted copies made so far, and the most they may take: a scene
  /// whose images alone would pass the working-memory limit is refused before
  /// they are made, not after.
  private var fittedBytes = 0
  var fittedByteBudget = Renderer.maxWorkingBytes

  /// An image file of at least this many decoded bytes, shown at a quarter of its
  /// pixels or fewer, is decoded band by band instead of whole.
  var streamingThresholdBytes = 64 << 20

  /// Decoded images, by their path in the scene; fonts are found relative to
  /// the working directory.
  public convenience init(_ images: [String: RGBAImage]) {
    self.init(images, directory: ".")
  }

  /// Decoded images, with the folder font files are relative to.
  init(_ images: [String: RGBAImage], directory: String) {
    sources = images.mapValues { .decoded($0) }
    cache = nil
    self.directory = directory
  }

  /// Reads every image file `file`'s scene names and checks each header (a PNG,
  /// JPEG or WebP, at most `maxPixels` pixels, image data that can fill them;
  /// `ImageDecoding.checkedHeader`) before any pixel is
  /// decoded. A missing, unreadable or damaged file fails with the JSON path that
  /// names it. With a `cache`, an image it holds decoded is not read again, and
  /// fitted copies are taken from it and given to it.
  public init(reading file: SceneFile, maxPixels: Int = PNGCodec.defaultMaxPixels, cache: ImageCache? = nil) throws {
    sources = [:]
    self.cache = cache
    directory = file.directory
    for (jsonPath, imagePath) in file.scene.imageReferences where sources[imagePath] == nil {
      let path = file.resolve(imagePath)
      do {
        if let cache, let key = ImageCache.FileKey(path: path) {
          fileKeys[imagePath] = key
          if let image = cache.decoded(key) {
            try PNGCodec.checkPixelLimit(image.size, maxPixels: maxPixels, file: path)
            sources[imagePath] = .decoded(image)
            continue
          }
        }
        let data = try ImageDecoding.readFile(path, maxPixels: maxPixels)
        let header = try ImageDecoding.checkedHeader(of: data, name: path, maxPixels: maxPixels)
        sources[imagePath] = .file(ImageFile(path: path, scene: file, jsonPath: jsonPath, data: data, header: header))
      } catch let error as GlassError {
        throw file.locate(error, at: jsonPath)
      }
    }
  }

  /// Every image decoded whole, upright, by its path in the scene (files decoded
  /// now, once; errors carry the JSON path that names the file).
  public func decodedImages() throws -> [String: RGBAImage] {
    try lock.withLock {
      var images: [String: RGBAImage] = [:]
      for (path, source) in sources {
        switch source {
        case .decoded(let image):
          images[path] = image
        case .file(let file):
          do {
            let decoded = try ImageDecoding.decode(file.data, header: file.header, name: file.path)
            warningsByFile[file.path] = decoded.warnings
            sources[path] = .decoded(decoded.image)
            images[path] = decoded.image
          } catch let error as GlassError {
            throw file.scene.locate(error, at: file.jsonPath)
          }
        }
      }
      return images
    }
  }

  /// How many images there are.
  public var count: Int { sources.count }

  /// True when there is an image for `path`.
  public func contains(_ path: String) -> Bool { sources[path] != nil }

  /// The size of the image at `path`, in pixels, upright (from the header for a
  /// file not yet decoded).
  public func size(of path: String) -> PixelSize? {
    switch sources[path] {
    case .decoded(let image): image.size
    case .file(let file): file.header.size
    case nil: nil
    }
  }

  /// What the decoders warned about, per file path, so far: each message says
  /// who gave it (`libpng: …`) or what it is about (a colour profile that is not sRGB).
  public var warnings: [(path: String, message: String)] {
    lock.withLock {
      warningsByFile.sorted { $0.key < $1.key }.flatMap { path, messages in messages.map { (path, $0) } }
    }
  }

  /// The image at `path` fitted to `frame` by `mode`, the part `window` of it
  /// (`ImageResampler.fit`); made once per distinct request.
  func fitted(_ path: String, to frame: PixelSize, mode: ContentMode, window: PixelRect) throws -> Fitted {
    let key = FitKey(path: path, frame: frame, mode: mode, window: window)
    return try lock.withLock {
      if let fitted = fits[key] { return fitted }
      // At most 16 bits per channel: 8 bytes a pixel.
      let (bytes, overflow) = window.pixelCount.multipliedReportingOverflow(by: 8)
      guard !overflow, fittedBytes + bytes <= fittedByteBudget else {
        throw GlassError(
          .imageTooLarge,
          "the scene's images fitted to their frames need more than \(fittedByteBudget >> 20) MiB; "
            + "make the frames smaller or lower the scale")
      }
      let fileKey = fileKeys[path]
      if let cache, let fileKey, let fitted = cache.fitted(fileKey, key) {
        fits[key] = fitted
        fittedBytes += bytes
        return fitted
      }
      let image: RGBAImage
      switch sources[path] {
      case .decoded(let source):
        image = ImageResampler.fit(source, to: frame, mode: mode, window: window)
      case .file(let file):
        image = try fit(file, key)
      case nil:
        preconditionFailure("scene images are checked before lowering: \(path)")
      }
      let fitted = Fitted(image: image, isOpaque: image.isOpaque)
      if let cache, let fileKey { cache.storeFitted(fitted, for: fileKey, key) }
      fits[key] = fitted
      fitCount += 1
      fittedBytes += bytes
      return fitted
    }
  }

  /// Fits a file's image: decoded whole once (and kept for later fits), or, for
  /// a PNG, band by band when the request is much smaller than a large image.
  private func fit(_ file: ImageFile, _ key: FitKey) throws -> RGBAImage {
    let header = file.header
    let depth = header.depth
    let decodedBytes = header.size.pixelCount * 4 * depth.rawValue / 8
    do {
      if let png = header.png,
        !png.interlaced && decodedBytes >= streamingThresholdBytes
          && 4 * key.window.pixelCount <= header.size.pixelCount
      {
        var rows = PNGRows(data: file.data, header: png, depth: depth, name: file.path)
        let image = try ImageResampler.fit(rows: &rows, to: key.frame, mode: key.mode, window: key.window)
        warningsByFile[file.path] = rows.warnings.map { "libpng: \($0)" }
        return image
      }
      let decoded = try ImageDecoding.decode(file.data, header: header, name: file.path)
      warningsByFile[file.path] = decoded.warnings
      sources[key.path] = .decoded(decoded.image)
      if let cache, let fileKey = fileKeys[key.path] { cache.storeDecoded(decoded.image, for: fileKey) }
      decodedWholeCount += 1
      return ImageResampler.fit(decoded.image, to: key.frame, mode: key.mode, window: key.window)
    } catch let error as GlassError {
      throw file.scene.locate(error, at: file.jsonPath)
    }
  }
}
