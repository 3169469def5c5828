import Foundation

/// The data of a goldens report page (`GoldenHTMLReport`), read back from its
/// HTML as a browser would: the JSON of the `data` script element, and the
/// cases appended after it as `case` script elements (the snapshot strategy's
/// page). Written apart from the library's writer: it looks for the elements by
/// their tags, not by the writer's code.
public struct ReportPage {
  /// The page's data object (`title`, `summary`, `run`, `cases`).
  public var data: [String: Any]
  /// Every case: the data's, then the appended ones, in order.
  public var cases: [[String: Any]]
  /// Appended case elements that did not parse (a write cut short).
  public var broken = 0

  /// Reads the page at `path`.
  public init(path: String) throws {
    try self.init(html: String(contentsOfFile: path, encoding: .utf8))
  }

  /// Reads a page's HTML.
  public init(html: String) throws {
    func scripts(opening: String) -> [String] {
      var found: [String] = []
      var rest = html[...]
      while let start = rest.range(of: opening) {
        guard let end = rest[start.upperBound...].range(of: "</script>") else { break }
        found.append(String(rest[start.upperBound..<end.lowerBound]))
        rest = rest[end.upperBound...]
      }
      return found
    }
    guard let text = scripts(opening: "<script type=\"application/json\" id=\"data\">").first,
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the page has no data element"])
    }
    data = object
    cases = object["cases"] as? [[String: Any]] ?? []
    for text in scripts(opening: "<script type=\"application/json\" class=\"case\">") {
      if let item = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
        cases.append(item)
      } else {
        broken += 1
      }
    }
  }

  /// The case named `name`.
  public func `case`(_ name: String) -> [String: Any]? {
    cases.first { $0["name"] as? String == name }
  }

  /// The `run` object.
  public var run: [String: Any] { data["run"] as? [String: Any] ?? [:] }
  /// The `summary` object.
  public var summary: [String: Any] { data["summary"] as? [String: Any] ?? [:] }
}
