import Foundation

/// A JSON value that keeps what a scene reader needs and Foundation's parser loses:
/// numbers apart from booleans, key order, and duplicate keys. Parsing errors give
/// the line and column.
public indirect enum JSONValue: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, keys in file order.
  case object([(key: String, value: JSONValue)])

  /// Equal values; objects compare keys in order.
  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// Hashes the value and, for objects, keys in order.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let v): hasher.combine(v)
    case .number(let v): hasher.combine(v)
    case .string(let v): hasher.combine(v)
    case .array(let v): hasher.combine(v)
    case .object(let v):
      for (key, value) in v {
        hasher.combine(key)
        hasher.combine(value)
      }
    }
  }

  /// What kind of value this is, for error messages: `a number`, `an object`, ...
  public var kind: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  // MARK: Parsing

  /// The deepest nesting the parser reads. A view tree's level takes up to four
  /// (a view, its `modifiers`, a modifier, an overlay's object), so a tree
  /// deeper than `ViewNode.maximumDepth` reaches the scene reader, which names
  /// the view's JSON path, rather than failing here at a line and column.
  static let maximumNesting = 4 * ViewNode.maximumDepth + 8

  /// Parses UTF-8 JSON text; throws a message with line and column. A UTF-8 byte
  /// order mark at the start (which some Windows editors write) is skipped, as RFC
  /// 8259 allows.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = Parser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func error(_ message: String) -> JSONSyntaxError {
      var line = 1
      var column = 1
      let first = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      for byte in bytes[min(first, index)..<min(index, bytes.count)] {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else {
          column += 1
        }
      }
      return JSONSyntaxError(message: message, line: line, column: column)
    }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
      let utf8 = Array(word.utf8)
      guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
        throw error("unexpected character")
      }
      index += utf8.count
      return value
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      guard depth < JSONValue.maximumNesting else { throw error("nested more than \(JSONValue.maximumNesting) deep") }
      guard index < bytes.count else { throw error("unexpected end of file") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      default: return try number()
      }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      index += 1
      var members: [(key: String, value: JSONValue)] = []
      skipSpace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a \"key\"") }
        let key = try string()
        if members.contains(where: { $0.key == key }) { throw error("the key \"\(key)\" appears twice") }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
        index += 1
        skipSpace()
        members.append((key, try value(depth: depth + 1)))
        skipSpace()
        guard index < bytes.count else { throw error("unexpected end of file in an object") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
        index += 1
        return .object(members)
      }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      index += 1
      var items: [JSONValue] = []
      skipSpace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        skipSpace()
        items.append(try value(depth: depth + 1))
        skipSpace()
        guard index < bytes.count else { throw error("unexpected end of file in an array") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
        index += 1
        return .array(items)
      }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
      index += 1
      var scalars: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          guard let text = String(validating: scalars, as: UTF8.self) else { throw error("a string is not UTF-8") }
          return text
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { throw error("unexpected end of file in a string") }
          let escape = bytes[index]
          index += 1
          let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
          ]
          if let s = simple[escape] {
            scalars.append(s)
          } else if escape == UInt8(ascii: "u") {
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
              guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
              else { throw error("a lone surrogate in a \\u escape") }
              index += 2
              let low = try hex4()
              guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a \\u escape") }
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
          } else {
            throw error("an invalid escape in a string")
          }
        case 0..<0x20:
          throw error("a control character in a string")
        default:
          scalars.append(byte)
        }
      }
      throw error("unexpected end of file in a string")
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
      guard index + 4 <= bytes.count,
        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
      else { throw error("an invalid \\u escape") }
      index += 4
      return code
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
      let start = index
      func digits() -> Int {
        let from = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - from
      }
      if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("unexpected character") }
      if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { throw error("expected digits after '.'") }
      }
      if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
        index += 1
        if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
          index += 1
        }
        guard digits() > 0 else { throw error("expected digits in an exponent") }
      }
      guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
        throw error("a number out of range")
      }
      return .number(value)
    }
  }

  // MARK: Writing

  /// Pretty-printed JSON, two spaces per level; short arrays of numbers on one line.
  public func formatted(indent: String = "") -> String {
    switch self {
    case .null: return "null"
    case .bool(let v): return v ? "true" : "false"
    case .number(let v): return ParameterSpec.format(v)
    case .string(let v): return Self.quote(v)
    case .array(let items):
      if items.isEmpty { return "[]" }
      if items.allSatisfy({ if case .object = $0 { false } else if case .array = $0 { false } else { true } }) {
        return "[" + items.map { $0.formatted() }.joined(separator: ", ") + "]"
      }
      let inner = indent + "  "
      return "[\n" + items.map { inner + $0.formatted(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let inner = indent + "  "
      return "{\n"
        + members.map { inner + Self.quote($0.key) + ": " + $0.value.formatted(indent: inner) }.joined(separator: ",\n")
        + "\n\(indent)}"
    }
  }

  /// JSON on one line with no spaces (a JSON Lines record); numbers as `formatted`
  /// writes them, which read back to the same value.
  public var compactText: String {
    switch self {
    case .null, .bool, .number, .string: return formatted()
    case .array(let items): return "[" + items.map(\.compactText).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { Self.quote($0.key) + ":" + $0.value.compactText }.joined(separator: ",") + "}"
    }
  }

  static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// A JSON syntax error with its position.
public struct JSONSyntaxError: Error, Sendable {
  /// What is wrong.
  public var message: String
  /// 1-based line.
  public var line: Int
  /// 1-based column.
  public var column: Int
}
