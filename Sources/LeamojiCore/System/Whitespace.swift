extension StringProtocol {
  /// The text without leading and trailing white space, line breaks included (Foundation's
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`), for what leamoji parses: option lists.
  public var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}

extension String {
  /// The text followed by spaces up to `width` characters (printf's `%-8s`), for columns.
  public func padded(toWidth width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
