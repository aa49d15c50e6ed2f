import FoundationEssentials
import LeamojiCore

/// Movie ids: the key of an entry in `MovieData.json` and the base name of its poster, so they
/// must be safe in file names and URLs on every system.
///
/// The slug rule (`slug(fromFileName:)`): take the last path component without its extension;
/// decompose it (Unicode NFKD, so accents come off and compatibility forms such as `ﬁ` or
/// full-width letters become plain letters) and fold a few letters that do not decompose (ß → ss,
/// æ → ae, œ → oe, ø → o, ł → l, đ/ð → d, þ → th, ı → i); keep ASCII letters (lower-cased) and
/// digits; drop combining marks and apostrophes (`Don't` → `dont`); every other character
/// (spaces, punctuation, other scripts, emoji) separates words, and words are joined by single
/// `-`. The result is at most 64 characters, never starts or ends with `-`, and is `video`
/// when nothing is left.
public enum MovieID {
  /// Longest id produced.
  public static let maximumLength = 64
  /// The id of a file name with nothing usable in it.
  public static let fallback = "video"

  /// `"Ça Fait Peur!.mp4"` → `"ca-fait-peur"`, `"/films/My.Movie.v2.mkv"` → `"my-movie-v2"`.
  public static func slug(fromFileName fileName: String) -> String {
    // (A name whose only dot is its first, such as `.mp4`, has no extension.)
    slug(PathText.deletingExtension(PathText.lastComponent(fileName)))
  }

  /// The slug of an arbitrary text (no extension is removed).
  public static func slug(_ text: String) -> String {
    slug(decomposed: SlugDecompositions.decomposed(text))
  }

  /// The slug of `text` given as its compatibility decomposition (NFKD) scalars.
  static func slug(decomposed scalars: [Unicode.Scalar]) -> String {
    var result = ""
    var pendingSeparator = false
    for scalar in scalars {
      if let folded = asciiFold(scalar) {
        if pendingSeparator && !result.isEmpty { result.append("-") }
        pendingSeparator = false
        result.append(folded)
      } else if !isSilent(scalar) {
        pendingSeparator = true
      }
    }
    if result.count > maximumLength {
      result = String(result.prefix(maximumLength))
      while result.hasSuffix("-") { result.removeLast() }
    }
    return result.isEmpty ? fallback : result
  }

  /// `id` itself when it is not in `taken`, else `id-2`, `id-3`, ... (the first free one),
  /// shortened if needed so that the result stays within `maximumLength`.
  public static func unique(_ id: String, taken: Set<String>) -> String {
    guard taken.contains(id) else { return id }
    var number = 2
    while true {
      let suffix = "-\(number)"
      var base = String(id.prefix(max(1, maximumLength - suffix.count)))
      while base.count > 1 && base.hasSuffix("-") { base.removeLast() }
      let candidate = base + suffix
      if !taken.contains(candidate) { return candidate }
      number += 1
    }
  }

  /// Ids for a batch of files analysed together, in the same order: each file's slug, made
  /// unique within the batch (`movie`, `movie-2`, ...). Ids already in `MovieData.json` are
  /// not avoided: re-analysing a file is meant to replace its entry.
  public static func ids(forFileNames fileNames: [String]) -> [String] {
    var taken = Set<String>()
    return fileNames.map { fileName in
      let id = unique(slug(fromFileName: fileName), taken: taken)
      taken.insert(id)
      return id
    }
  }

  /// The ids an entry for `video` (a file name, a path or an id) may have, in the order to try:
  /// `video` itself, the file name without its extension as written (the original app's ids,
  /// e.g. `AliceInWonderland`), and its slug (leamoji's own ids).
  public static func candidates(forVideo video: String) -> [String] {
    let name = PathText.lastComponent(video)
    var result = [video]
    for candidate in [PathText.deletingExtension(name), slug(fromFileName: name)]
    where !result.contains(candidate) {
      result.append(candidate)
    }
    return result
  }

  /// Why `id` cannot be an id given with `analyze --id`, or nil when it can: it must not be
  /// empty, hold `/` or control characters, or be `.` or `..`, because the poster and
  /// subtitles are written beside the timeline file as `<id>.jpg`, `<id>.vtt`.
  public static func problem(withExplicitID id: String) -> String? {
    if id.isEmpty { return "the id must not be empty" }
    if id == "." || id == ".." { return "the id must not be . or .." }
    if id.contains("/") { return "the id must not contain /" }
    if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return "the id must not contain control characters"
    }
    return nil
  }

  /// The ASCII text kept for `scalar`, or nil when it is not a letter or digit we keep.
  private static func asciiFold(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "a"..."z", "0"..."9": return String(scalar)
    case "A"..."Z": return String(scalar).lowercased()
    case "ß": return "ss"
    case "æ", "Æ": return "ae"
    case "œ", "Œ": return "oe"
    case "ø", "Ø": return "o"
    case "ł", "Ł": return "l"
    case "đ", "Đ", "ð", "Ð": return "d"
    case "þ", "Þ": return "th"
    case "ı": return "i"
    default: return nil
    }
  }

  /// Characters removed without separating words: combining marks (accents after NFKD) and
  /// apostrophes.
  private static func isSilent(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return ["'", "\u{2019}", "\u{02BC}"].contains(scalar)
    }
  }
}
