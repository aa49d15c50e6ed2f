#if canImport(Glibc)
  import Glibc
#endif

/// printf-style formatting of numbers (`%06ld`, `%.1f`, `%g`) in the C locale, in place of
/// Foundation's `String(format:)`: leamoji links only FoundationEssentials (see `PathText`).
/// Integers are passed as `Int` and formatted with `l` (`%ld`, `%02ld`).
public enum CFormat {
  public static func string(_ format: String, _ arguments: CVarArg...) -> String {
    var capacity = 64
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let needed = withVaList(arguments) { list in
        buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, capacity, format, list) }
      }
      if needed < 0 { return "" }
      if Int(needed) < capacity {
        return String(
          decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      capacity = Int(needed) + 1
    }
  }
}
