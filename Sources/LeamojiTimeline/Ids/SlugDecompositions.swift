/// The compatibility decomposition (NFKD) a slug is made from, for the scalars where it makes
/// a difference (`table`, generated from Foundation's NFKD by MovieIDDecompositionTests:
/// `LEAMOJI_UPDATE_GOLDEN=1 swift test --filter MovieIDDecompositionTests`). leamoji links only
/// FoundationEssentials, which has no Unicode normalisation; this keeps every id the same as
/// before (the tests check the table and each scalar against Foundation's NFKD).
enum SlugDecompositions {
  /// Scalar → its decomposition, from `table`.
  private static let mapping: [UInt32: [Unicode.Scalar]] = {
    var result: [UInt32: [Unicode.Scalar]] = [:]
    for entry in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      let halves = entry.split(separator: ":")
      guard halves.count == 2, let key = UInt32(halves[0], radix: 16) else { continue }
      result[key] = halves[1].split(separator: ",").compactMap {
        UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
      }
    }
    return result
  }()

  /// The scalars of `text` with each one that matters to a slug replaced by its decomposition.
  /// (NFKD also reorders runs of combining marks; the slug drops every mark, so order among
  /// them never shows.)
  static func decomposed(_ text: String) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if scalar.isASCII {
        result.append(scalar)
      } else if let parts = mapping[scalar.value] {
        result.append(contentsOf: parts)
      } else {
        result.append(scalar)
      }
    }
    return result
  }
}
