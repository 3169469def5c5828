import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Errors say where they are as values (`locations`, `file`, `jsonPath`); the
/// text a person reads is made from them.
@Suite("Errors: where, as values")
struct ErrorLocationTests {
  typealias Location = GlassError.Location

  @Test("a field's error placed in a file, then in a manifest line, reads outermost first")
  func nesting() {
    let field = GlassError(.invalidScene, "-1 is negative", at: Location(jsonPath: "size.height"))
    let inFile = field.located(file: "a.json")
    #expect(inFile.locations == [Location(file: "a.json", jsonPath: "size.height")])
    let inJob = inFile.located(Location(file: "jobs.jsonl", line: 7))
    #expect(inJob.locations.count == 2)
    #expect(inJob.file == "a.json" && inJob.jsonPath == "size.height")
    #expect(inJob.description == "jobs.jsonl:7: a.json: size.height: -1 is negative")
    #expect(inJob.message == "-1 is negative")
  }

  @Test("an inline scene's path nests under its field: scene + layers[0] is scene.layers[0]")
  func pathsJoin() {
    let error = GlassError(.invalidScene, "unknown", at: Location(jsonPath: "layers[0].type"))
    let inline = error.located(Location(jsonPath: "scene")).located(Location(file: "m.jsonl", line: 3))
    #expect(inline.locations == [Location(file: "m.jsonl", line: 3, jsonPath: "scene.layers[0].type")])
    let element = GlassError(.invalidScene, "x", at: Location(jsonPath: "[2]")).located(Location(jsonPath: "colors"))
    #expect(element.jsonPath == "colors[2]")
  }

  @Test("placing an error where it already is changes nothing")
  func idempotent() {
    let image = GlassError(.invalidImage, "damaged", file: "img.png")
    let once = image.located(Location(file: "m.jsonl", line: 3, jsonPath: "scene.layers[1].source"))
    #expect(once.located(Location(file: "m.jsonl", line: 3, jsonPath: "scene")) == once)
    #expect(once.located(Location(file: "m.jsonl", line: 3)) == once)
    #expect(once.located(Location(file: "m.jsonl")) == once)
    // A sibling path is not "within": "scenery" is not inside "scene".
    #expect(once.located(Location(file: "m.jsonl", line: 3, jsonPath: "scen")).locations.count == 3)
    #expect(once.file == "img.png" && once.jsonPath == "scene.layers[1].source")
    #expect(once.description == "m.jsonl:3: scene.layers[1].source: img.png: damaged")
  }

  @Test("a syntax error's line and column join the file; a cause follows in parentheses")
  func lineAndColumn() {
    let error = GlassError(.invalidScene, "unexpected end", cause: "eof", at: Location(line: 2, column: 9))
    #expect(error.description == "line 2:9: unexpected end (eof)")
    #expect(error.located(file: "b.json").description == "b.json:2:9: unexpected end (eof)")
    #expect(GlassError(.renderFailure, "lost").description == "lost")
  }

  @Test("reading a scene file: the file, the line and column of bad JSON, the JSON path of a bad field")
  func fromFiles() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let broken = folder.appendingPathComponent("broken.json")
    try Data("{\"version\": 1,\n  \"size\": }".utf8).write(to: broken)
    let syntax = #expect(throws: GlassError.self) { try SceneFile(path: broken.path) }
    #expect(syntax?.locations == [Location(file: broken.path, line: 2, column: 11)], "\(String(describing: syntax))")
    let bad = folder.appendingPathComponent("bad.json")
    try Data(SceneJSON.scene(width: 10, height: 10, layers: #"{"type": "sparkle"}"#).utf8)
      .write(to: bad)
    let field = #expect(throws: GlassError.self) { try SceneFile(path: bad.path) }
    #expect(field?.file == bad.path && field?.jsonPath == "layers[0].type", "\(String(describing: field))")
  }
}
