import Foundation

/// The font faces a renderer has opened and fontconfig's answers it has had,
/// each in an `LRUCache`: a face is charged its file's size (FreeType and
/// HarfBuzz map the file) plus `faceOverhead` for their tables; a match, its key
/// and the path. Part of `RenderCaches`; thread-safe.
public final class FontCache: @unchecked Sendable {
  struct FaceKey: Hashable {
    var path: String
    var index: Int
  }

  enum MatchKey: Hashable {
    case family(String, FontWeight, italic: Bool)
    /// The distinct characters a fallback must have, sorted.
    case fallback([UInt32], FontWeight)
  }

  struct Match: Hashable {
    var path: String
    var index: Int
  }

  /// Bytes charged to an open face beyond its file: FreeType's and HarfBuzz's
  /// tables and caches.
  static let faceOverhead = 64 << 10

  let faces: LRUCache<FaceKey, FontFace>
  let matches: LRUCache<MatchKey, Match?>

  /// Caches of at most `faceBytes` of open faces and `matchBytes` of fontconfig's answers.
  public init(faceBytes: Int, matchBytes: Int) {
    faces = LRUCache("fonts", budgetBytes: faceBytes)
    matches = LRUCache("font matches", budgetBytes: matchBytes)
  }

  /// The face of `path`, opened once while the cache keeps it.
  func face(path: String, index: Int = 0) throws -> FontFace {
    try faces.value(forKey: FaceKey(path: path, index: index), bytes: { Self.charge($0) }) {
      let face = try FontLibrary.shared.face(path: path, index: index)
      face.fonts = self
      return face
    }
  }

  /// The file fontconfig matches to a family and weight, if it has that family.
  func match(family: String, weight: FontWeight, italic: Bool = false) -> (path: String, index: Int)? {
    let key = MatchKey.family(family, weight, italic: italic)
    let found = matches.value(forKey: key, bytes: { family.utf8.count + ($0?.path.utf8.count ?? 0) }) {
      FontLibrary.shared.match(family: family, weight: weight, italic: italic).map {
        Match(path: $0.path, index: $0.index)
      }
    }
    return found.map { ($0.path, $0.index) }
  }

  /// A font that has every character of `scalars` (fontconfig's fallback order for
  /// sans-serif text; nil when none has them all), asked once per set of
  /// characters and weight while the cache keeps the answer.
  func fallback(for scalars: [Unicode.Scalar], weight: FontWeight) -> (path: String, index: Int)? {
    let distinct = Set(scalars.map(\.value)).sorted()
    let key = MatchKey.fallback(distinct, weight)
    let found = matches.value(forKey: key, bytes: { distinct.count * 4 + ($0?.path.utf8.count ?? 0) }) {
      FontLibrary.shared.fallback(for: scalars, weight: weight).map { Match(path: $0.path, index: $0.index) }
    }
    return found.map { ($0.path, $0.index) }
  }

  /// What its caches hold and have done.
  var stats: [CacheStats] { [faces.stats, matches.stats] }

  /// A face's charge: its file's size plus `faceOverhead`.
  private static func charge(_ face: FontFace) -> Int {
    var info = stat()
    let size = stat(face.path, &info) == 0 ? Int(info.st_size) : 0
    return size + faceOverhead
  }
}
