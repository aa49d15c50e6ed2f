/// A JSON value exactly as a file holds it, for two jobs `JSONDecoder` cannot do: error messages
/// with a line and column, and rewriting the entries an `analyze` run does not touch with every
/// key they had, including keys this version of leamoji does not know.
///
/// Numbers are kept as `Double` (what `JSONDecoder` would produce); they are written back in
/// the shortest form that reads back to the same value, so `12.0` is rewritten as `12`.
enum RawJSON: Equatable, Encodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([RawJSON])
  case object([String: RawJSON])

  /// A syntax error: what is wrong and where (1-based line and column, in characters).
  struct SyntaxError: Error, Equatable {
    var problem: String
    var line: Int
    var column: Int
    var message: String { "\(problem) at line \(line), column \(column)" }
  }

  /// "an object", "a string", ...: for error messages.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let values): try container.encode(values)
    case .object(let members): try container.encode(members)
    }
  }

  /// Parses one JSON text (RFC 8259: a single value surrounded by optional white space; a
  /// leading UTF-8 byte order mark is allowed). Duplicate keys in an object are an error,
  /// because the file could then mean two different things.
  static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> RawJSON {
    var parser = RawJSONParser(bytes: bytes)
    return try parser.parseDocument()
  }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
private struct RawJSONParser {
  let bytes: [UInt8]
  var offset = 0
  /// Deeper nesting is refused rather than risking the stack.
  static let maximumDepth = 256

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseDocument() throws(RawJSON.SyntaxError) -> RawJSON {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    skipWhitespace()
    if offset == bytes.count { throw error("no JSON value (the file is empty)") }
    let value = try parseValue(depth: 0)
    skipWhitespace()
    if offset < bytes.count {
      throw error("unexpected \(describeHere()) after the end of the JSON value")
    }
    return value
  }

  private mutating func parseValue(depth: Int) throws(RawJSON.SyntaxError) -> RawJSON {
    guard depth < Self.maximumDepth else {
      throw error("nesting deeper than \(Self.maximumDepth) levels")
    }
    guard offset < bytes.count else { throw error("unexpected end of file") }
    switch bytes[offset] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectWord("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectWord("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectWord("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected \(describeHere()), expected a JSON value")
    }
  }

  private mutating func parseObject(depth: Int) throws(RawJSON.SyntaxError) -> RawJSON {
    offset += 1
    var members: [String: RawJSON] = [:]
    skipWhitespace()
    if consume(UInt8(ascii: "}")) { return .object(members) }
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        throw error("unexpected \(describeHere()), expected a key in double quotes")
      }
      let keyStart = offset
      let key = try parseString()
      skipWhitespace()
      guard consume(UInt8(ascii: ":")) else {
        throw error("unexpected \(describeHere()), expected ':'")
      }
      skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      if members[key] != nil { throw error("duplicate key \"\(key)\"", at: keyStart) }
      members[key] = value
      skipWhitespace()
      if consume(UInt8(ascii: "}")) { return .object(members) }
      guard consume(UInt8(ascii: ",")) else {
        throw error("unexpected \(describeHere()), expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(RawJSON.SyntaxError) -> RawJSON {
    offset += 1
    var values: [RawJSON] = []
    skipWhitespace()
    if consume(UInt8(ascii: "]")) { return .array(values) }
    while true {
      skipWhitespace()
      values.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      if consume(UInt8(ascii: "]")) { return .array(values) }
      guard consume(UInt8(ascii: ",")) else {
        throw error("unexpected \(describeHere()), expected ',' or ']'")
      }
    }
  }

  private mutating func parseString() throws(RawJSON.SyntaxError) -> String {
    let start = offset
    offset += 1  // the opening quote
    var utf8: [UInt8] = []
    while true {
      guard offset < bytes.count else { throw error("unterminated string", at: start) }
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        guard let text = String(validating: utf8, as: UTF8.self) else {
          throw error("invalid UTF-8 in a string", at: start)
        }
        return text
      case UInt8(ascii: "\\"):
        offset += 1
        guard offset < bytes.count else { throw error("unterminated string", at: start) }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"): utf8.append(contentsOf: try parseUnicodeEscape())
        default: throw error("invalid escape sequence in a string", at: offset - 2)
        }
      case 0x00..<0x20:
        throw error("unescaped control character in a string")
      default:
        utf8.append(byte)
        offset += 1
      }
    }
  }

  /// The UTF-8 bytes of a `\uXXXX` escape (the `\u` is already consumed), joining surrogate pairs.
  private mutating func parseUnicodeEscape() throws(RawJSON.SyntaxError) -> [UInt8] {
    let escapeStart = offset - 2
    var value = try parseHex4()
    if (0xD800...0xDBFF).contains(value) {
      guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
        bytes[offset + 1] == UInt8(ascii: "u")
      else { throw error("unpaired surrogate in a \\u escape", at: escapeStart) }
      offset += 2
      let low = try parseHex4()
      guard (0xDC00...0xDFFF).contains(low) else {
        throw error("unpaired surrogate in a \\u escape", at: escapeStart)
      }
      value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(value) {
      throw error("unpaired surrogate in a \\u escape", at: escapeStart)
    }
    guard let scalar = Unicode.Scalar(value) else {
      throw error("invalid \\u escape", at: escapeStart)
    }
    return Array(String(Character(scalar)).utf8)
  }

  private mutating func parseHex4() throws(RawJSON.SyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard offset < bytes.count, let digit = Self.hexValue(bytes[offset]) else {
        throw error("invalid \\u escape (expected 4 hex digits)")
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private mutating func parseNumber() throws(RawJSON.SyntaxError) -> Double {
    let start = offset
    _ = consume(UInt8(ascii: "-"))
    if consume(UInt8(ascii: "0")) {
      // a leading zero stands alone
    } else if !consumeDigits() {
      throw error("invalid number", at: start)
    }
    if consume(UInt8(ascii: ".")), !consumeDigits() { throw error("invalid number", at: start) }
    if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
      if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
      if !consumeDigits() { throw error("invalid number", at: start) }
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error("number \(text) is out of range", at: start)
    }
    return value
  }

  private mutating func consumeDigits() -> Bool {
    let start = offset
    while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
      offset += 1
    }
    return offset > start
  }

  private mutating func expectWord(_ word: String) throws(RawJSON.SyntaxError) {
    let start = offset
    for byte in word.utf8 {
      guard offset < bytes.count, bytes[offset] == byte else {
        offset = start
        throw error("unexpected \(describeHere()), expected a JSON value")
      }
      offset += 1
    }
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    guard offset < bytes.count, bytes[offset] == byte else { return false }
    offset += 1
    return true
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
  }

  /// "'x'" or "end of file", for messages.
  private func describeHere() -> String {
    guard offset < bytes.count else { return "end of file" }
    var end = offset + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
  }

  private func error(_ problem: String, at position: Int? = nil) -> RawJSON.SyntaxError {
    let position = min(position ?? offset, bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<position where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    let column =
      String(decoding: bytes[lineStart..<position], as: UTF8.self).unicodeScalars.count + 1
    return RawJSON.SyntaxError(problem: problem, line: line, column: column)
  }
}
