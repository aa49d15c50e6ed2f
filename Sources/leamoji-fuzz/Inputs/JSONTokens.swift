/// Finding and choosing the JSON tokens of a safetensors header that `ModelMutator` rewrites.
/// Works on raw bytes: the header holds emoji and escaped JSON inside strings.
enum JSONTokens {
  /// Numbers to put in place of a shape, offset, layer size or version.
  static let boundaryNumbers = [
    "0", "-0", "1", "-1", "2", "3", "4", "7", "15", "63", "64", "65", "255", "256", "1024", "65535",
    "65536",
    "2147483647", "2147483648", "-2147483648", "4294967295", "4294967296", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "18446744073709551616",
    "99999999999999999999999",
    "0.5", "1e3", "1e309", "-1e309", "NaN", "1.5e-320", "00", "0x10", "",
  ]

  /// Names in the header: dtypes, layer types, keys, tensor and label names.
  static let words = [
    "F32", "conv2d", "relu", "maxpool2d", "globalavgpool", "linear", "data_offsets", "shape",
    "dtype",
    "__metadata__", "conv1.weight", "conv2.bias", "conv3.weight", "fc.weight", "fc.bias", "happy",
    "scary",
    "in", "out", "kernel", "stride", "padding", "name", "type", "labels", "layers", "input", "mean",
    "std",
    "emoji", "format", "version",
  ]

  /// Names that are nearly right: other dtypes, wrong case, empty, doubled.
  static let oddWords = [
    "F16", "BF16", "F64", "I8", "I32", "I64", "U8", "BOOL", "f32", "", "F32F32", "conv3d", "Relu",
  ]

  /// Replacement values of the `__metadata__` strings, written as they appear inside a JSON string.
  static let metadataValues: [String: [String]] = [
    "input": [
      "3x0x0", "0x64x64", "3x1x1", "3x2x2", "3x64", "3x64x64x1", "3x65536x65536", "3x-64x64",
      "1x64x64",
      "4x64x64", "x", "", "3x2147483647x2147483647", "3x64x9223372036854775807", "3x7x7",
    ],
    "labels": [
      "[]", "[\\\"happy\\\"]", "[\\\"happy\\\",\\\"happy\\\",\\\"scary\\\"]",
      "[\\\"a\\\",\\\"b\\\",\\\"c\\\",\\\"d\\\"]",
      "[1,2,3]", "{}", "[", "null", "[\\\"\\\",\\\"\\\",\\\"\\\"]",
    ],
    "mean": [
      "[0,0,0]", "[]", "[1e309,0,0]", "[\\\"a\\\"]", "[0.5,0.5]", "[0.5,0.5,0.5,0.5]", "null",
      "[-1,-1,-1]",
    ],
    "std": [
      "[0,0,0]", "[]", "[1e-320,1,1]", "[-1,1,1]", "[1,1]", "null", "[1e309,1,1]", "[NaN,1,1]",
    ],
    "emoji": ["{}", "{\\\"happy\\\":\\\"\\\"}", "[]", "{\\\"happy\\\":1}", "{", ""],
    "layers": [
      "[]", "[{\\\"type\\\":\\\"relu\\\"}]", "[{\\\"type\\\":\\\"globalavgpool\\\"}]",
      "[{\\\"kernel\\\":0,\\\"stride\\\":0,\\\"type\\\":\\\"maxpool2d\\\"}]",
      "[{\\\"in\\\":3,\\\"name\\\":\\\"fc\\\",\\\"out\\\":3,\\\"type\\\":\\\"linear\\\"}]",
      "[{\\\"type\\\":\\\"globalavgpool\\\"},{\\\"in\\\":64,\\\"name\\\":\\\"fc\\\",\\\"out\\\":3,\\\"type\\\":\\\"linear\\\"}]",
      "[{\\\"in\\\":3,\\\"kernel\\\":0,\\\"name\\\":\\\"conv1\\\",\\\"out\\\":16,\\\"padding\\\":1,\\\"stride\\\":1,\\\"type\\\":\\\"conv2d\\\"}]",
    ],
    "format": ["leamoji-cnn2", "", "safetensors"],
    "version": ["2", "0", "-1", "999999999999999999999", "1.0"],
  ]

  /// Ranges of the numbers in `text`: a digit run with its sign, fraction and exponent.
  static func numberRanges(in text: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var index = 0
    while index < text.count {
      guard isDigit(text[index]) else {
        index += 1
        continue
      }
      var start = index
      if start > 0, text[start - 1] == UInt8(ascii: "-") { start -= 1 }
      var end = index
      while end < text.count, isDigit(text[end]) || isNumberPart(text[end]) { end += 1 }
      ranges.append(start..<end)
      index = end
    }
    return ranges
  }

  /// Ranges of `word` where it stands as a whole quoted name (`"word"` or `\"word\"`).
  static func ranges(of word: String, in text: [UInt8]) -> [Range<Int>] {
    let needle = Array(word.utf8)
    guard !needle.isEmpty, text.count > needle.count + 1 else { return [] }
    var found: [Range<Int>] = []
    for start in 1...(text.count - needle.count - 1) where text[start - 1] == UInt8(ascii: "\"") {
      let end = start + needle.count
      let after = text[end]
      if (after == UInt8(ascii: "\"") || after == UInt8(ascii: "\\"))
        && Array(text[start..<end]) == needle
      {
        found.append(start..<end)
      }
    }
    return found
  }

  /// The bytes of the string value of `"key":"…"`, up to the next unescaped quote.
  static func stringValueRange(of key: String, in text: [UInt8]) -> Range<Int>? {
    let needle = Array("\"\(key)\":\"".utf8)
    guard text.count >= needle.count else { return nil }
    for start in 0...(text.count - needle.count)
    where Array(text[start..<start + needle.count]) == needle {
      var end = start + needle.count
      while end < text.count,
        !(text[end] == UInt8(ascii: "\"") && text[end - 1] != UInt8(ascii: "\\"))
      { end += 1 }
      return (start + needle.count)..<end
    }
    return nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isNumberPart(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
      || byte == UInt8(ascii: "+")
  }
}
