import FuzzDriver
import GLESGlass

// libFuzzer target: the JSON parser of scene files. Any input either parses or
// throws a JSONSyntaxError (a crash or a sanitizer report is a finding); what
// parses, formatted and parsed again, is the same value.

/// The test function libFuzzer runs on each input.
let fuzzJSON: FuzzTest = { data, size in
  let bytes = FuzzDriver.bytes(data, size)
  guard let value = try? JSONValue.parse(bytes) else { return 0 }
  let text = value.formatted()
  let again: JSONValue
  do {
    again = try JSONValue.parse(Array(text.utf8))
  } catch {
    fatalError("fuzz-json: the formatted value does not parse: \(error)\n\(text)")
  }
  if again != value {
    fatalError(
      "fuzz-json: the formatted value parses to another value\nformatted: \(text)\nreparsed: \(again.formatted())")
  }
  return 0
}
