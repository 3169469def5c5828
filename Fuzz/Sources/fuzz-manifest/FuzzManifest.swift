import FuzzDriver
import GLESGlass

// libFuzzer target: the batch manifest reader (JSON Lines, docs/batch-format.md).
// Every line that is not blank is one entry, in order: a job, or a failure that
// names its line number and starts with "NAME:LINE: "; a job's paths resolve under
// the manifest's and the output folder, and its inline scene is valid.

/// The test function libFuzzer runs on each input.
let fuzzManifest: FuzzTest = { data, size in
  let text = String(decoding: FuzzDriver.bytes(data, size), as: UTF8.self)
  let manifest = BatchManifest(text: text, name: "m.jsonl", directory: "/in", outputDirectory: "/out")
  let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
  let numbered = lines.enumerated().filter { !$0.element.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
  var count = 0
  // A line that cannot be text (a NUL byte, over the line limit) fails with
  // file-unreadable and ends the manifest: no entry may follow it.
  var ended: GlassError?
  for entry in manifest {
    if let ended { fatalError("fuzz-manifest: an entry after the line that ended the manifest: \(ended)") }
    guard count < numbered.count else { fatalError("fuzz-manifest: more entries than lines that are not blank") }
    let line = numbered[count].offset + 1
    count += 1
    switch entry {
    case .job(let job):
      if job.line != line { fatalError("fuzz-manifest: job of line \(line) says line \(String(describing: job.line))") }
      if !job.output.hasPrefix("/") { fatalError("fuzz-manifest: output \(job.output) is not resolved") }
      switch job.scene {
      case .file(let path):
        if !path.hasPrefix("/") { fatalError("fuzz-manifest: scene \(path) is not resolved") }
      case .scene(let scene, _):
        do {
          try scene.validate()
        } catch {
          fatalError("fuzz-manifest: line \(line)'s inline scene was accepted but does not validate: \(error)")
        }
      }
    case .invalid(_, let number, _, let error):
      if number != line { fatalError("fuzz-manifest: failure of line \(line) says line \(number)") }
      // Bytes, not Characters: a field name may start with a combining mark,
      // which joins the space before it into one Character.
      guard let first = error.locations.first, first.file == "m.jsonl", first.line == line else {
        fatalError("fuzz-manifest: line \(line)'s error is not located at it: \(error.locations)")
      }
      if !error.description.utf8.starts(with: "m.jsonl:\(line):".utf8) {
        fatalError("fuzz-manifest: line \(line)'s error does not name it: \(error)")
      }
      // Only the reader's own failures end it (they say so); a job's error may
      // have the same code (an inline scene's font file that cannot be read).
      if error.code == .fileUnreadable && error.description.contains("the rest of the manifest is not read") {
        ended = error
      }
    }
  }
  if count != numbered.count && ended == nil { fatalError("fuzz-manifest: \(numbered.count) lines, \(count) entries") }
  return 0
}
