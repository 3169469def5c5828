import Foundation

/// A scene file on disk and the images it names, read and checked before any
/// rendering: a bad file fails here, with the file, the JSON path and the fix.
public struct SceneFile: Sendable {
  /// The scene.
  public var scene: Scene
  /// The scene file's path.
  public var path: String
  /// The folder image paths are relative to.
  public var directory: String
  /// Where the scene is, for errors: its file, or the `scene` field of a batch
  /// manifest's line; empty for a scene made in Swift.
  public var location: GlassError.Location

  /// The largest scene file read, in bytes.
  public static let maximumBytes = 64 << 20

  /// Reads and validates a scene file. Nothing is measured (no fonts are opened):
  /// see `Scene(json:)`.
  public init(path: String) throws {
    let bytes = try PNGCodec.readFile(path, maxBytes: Self.maximumBytes, what: "a scene file (at most 64 MB)")
    let directory = FilePaths.folder(of: path)
    do {
      scene = try Scene(json: bytes)
    } catch let error as GlassError {
      throw error.located(file: path)
    }
    self.path = path
    self.directory = directory
    location = GlassError.Location(file: path)
  }

  /// A scene with the folder its images are relative to.
  public init(scene: Scene, directory: String) {
    self.scene = scene
    self.path = "(scene)"
    self.directory = directory
    location = GlassError.Location()
  }

  /// `error` placed in this scene, at `jsonPath` when given.
  public func locate(_ error: GlassError, at jsonPath: String? = nil) -> GlassError {
    var error = error
    if let jsonPath { error = error.located(GlassError.Location(jsonPath: jsonPath)) }
    return location == GlassError.Location() ? error : error.located(location)
  }

  /// The file path of an image path of the scene.
  public func resolve(_ imagePath: String) -> String {
    imagePath.hasPrefix("/") || directory.isEmpty
      ? imagePath : (directory as NSString).appendingPathComponent(imagePath)
  }

  /// Reads every image file the scene names, once each, and checks its header
  /// (`SceneImages(reading:maxPixels:)`); pixels are decoded when a render fits
  /// them. A missing, unreadable or damaged image fails with the JSON path that
  /// names it.
  public func loadImages(maxPixels: Int = PNGCodec.defaultMaxPixels, cache: ImageCache? = nil) throws -> SceneImages {
    try SceneImages(reading: self, maxPixels: maxPixels, cache: cache)
  }
}
