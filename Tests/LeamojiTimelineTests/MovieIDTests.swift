import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

@Suite("Movie ids")
struct MovieIDTests {
  @Test(
    "slugs from file names",
    arguments: [
      ("Ça Fait Peur!.mp4", "ca-fait-peur"),
      ("forest-walk.mp4", "forest-walk"),
      ("/videos/Forest Walk (2019).MKV", "forest-walk-2019"),
      ("My.Movie.v2.final.mov", "my-movie-v2-final"),
      ("  --Hello__World--  .webm", "hello-world"),
      ("Don't Look Now.mp4", "dont-look-now"),
      ("Straße Ærø Łódź.mp4", "strasse-aero-lodz"),
      ("ﬁlm Ｎｏ１.mp4", "film-no1"),
      ("Crème brûlée 🍮 party.mp4", "creme-brulee-party"),
      ("I❤️NY.mp4", "i-ny"),
      ("日本語 movie.mp4", "movie"),
      ("日本語.mp4", "video"),
      ("🎬🎬.mp4", "video"),
      (".mp4", "mp4"),
      ("noextension", "noextension"),
      ("", "video"),
    ])
  func slugs(fileName: String, expected: String) {
    #expect(MovieID.slug(fromFileName: fileName) == expected)
  }

  @Test("slugs only contain a-z, 0-9 and single inner dashes, at most 64 characters")
  func shapeAndLength() {
    let long = String(repeating: "Very Long Title ", count: 10) + ".mp4"
    let slug = MovieID.slug(fromFileName: long)
    #expect(slug.count <= 64)
    #expect(!slug.hasSuffix("-") && !slug.hasPrefix("-") && !slug.contains("--"))
    #expect(slug.hasPrefix("very-long-title-very-long-title"))
    let cut = MovieID.slug(String(repeating: "a", count: 63) + " b")
    #expect(cut == String(repeating: "a", count: 63))
    for name in ["A–B—C", "x\ty\nz", "a/b\\c", "ÀÉÎÕÜ", "#1 hit!!"] {
      let id = MovieID.slug(name)
      #expect(
        id.unicodeScalars.allSatisfy {
          ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        })
    }
  }

  @Test("unique ids within one batch: movie, movie-2, movie-3")
  func uniqueness() {
    #expect(MovieID.unique("movie", taken: []) == "movie")
    #expect(MovieID.unique("movie", taken: ["movie"]) == "movie-2")
    #expect(MovieID.unique("movie", taken: ["movie", "movie-2"]) == "movie-3")
    #expect(
      MovieID.ids(forFileNames: [
        "a/Movie.mp4", "b/movie.mkv", "MOVIE!.avi", "movie-2.mp4", "Other.mp4",
      ])
        == ["movie", "movie-2", "movie-3", "movie-2-2", "other"])
    let long = String(repeating: "x", count: 64)
    let second = MovieID.unique(long, taken: [long])
    #expect(second.count == 64 && second.hasSuffix("-2"))
  }

  @Test("a video is looked up as given, then by its name as written (the app's ids), then slugged")
  func lookupCandidates() {
    #expect(
      MovieID.candidates(forVideo: "films/AliceInWonderland.mp4")
        == ["films/AliceInWonderland.mp4", "AliceInWonderland", "aliceinwonderland"])
    #expect(MovieID.candidates(forVideo: "meadow-storm") == ["meadow-storm"])
    #expect(MovieID.candidates(forVideo: "x.mp4") == ["x.mp4", "x"])
  }

  @Test(
    "ids given with --id: kept exactly, unless they cannot name a file beside the timeline",
    arguments: [
      ("AliceInWonderland", nil), ("Ça Fait Peur!", nil), ("", "the id must not be empty"),
      ("..", "the id must not be . or .."), ("a/b", "the id must not contain /"),
      ("a\u{7}b", "the id must not contain control characters"),
    ] as [(String, String?)])
  func explicitIDs(id: String, problem: String?) {
    #expect(MovieID.problem(withExplicitID: id) == problem)
  }
}

/// Slugs used Foundation's NFKD; leamoji now carries the decompositions that matter
/// (`SlugDecompositions`, whose table the first test below generates). Every id
/// must stay what it was.
@Suite("Movie ids without Foundation")
struct MovieIDDecompositionTests {
  /// The slug as it was made before: Foundation's NFKD, then the same folding.
  static func foundationSlug(_ text: String) -> String {
    MovieID.slug(decomposed: Array(text.decomposedStringWithCompatibilityMapping.unicodeScalars))
  }

  /// Where the generated table lives in the repository.
  static let tablePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/LeamojiTimeline/Ids/SlugDecompositionTable.swift")
    .standardizedFileURL.path

  /// The table's source as Foundation's NFKD gives it today: every scalar whose decomposition
  /// changes a slug (between two letters, so that word breaks show), with its decomposition.
  static func tableSource() -> String {
    var entries: [String] = []
    for value in 0...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let decomposed = Array(
        String(Character(scalar)).decomposedStringWithCompatibilityMapping.unicodeScalars)
      guard decomposed != [scalar],
        MovieID.slug(decomposed: ["a"] + decomposed + ["b"])
          != MovieID.slug(decomposed: ["a", scalar, "b"])
      else { continue }
      let parts = decomposed.map { String($0.value, radix: 16, uppercase: true) }
      entries.append(String(value, radix: 16, uppercase: true) + ":" + parts.joined(separator: ","))
    }
    var lines = [
      "// Generated by MovieIDDecompositionTests from Foundation's NFKD; do not edit. To make it",
      "// again: LEAMOJI_UPDATE_GOLDEN=1 swift test --filter MovieIDDecompositionTests",
      "//",
      "// The Unicode compatibility decompositions (NFKD) of the \(entries.count) scalars whose",
      "// decomposition changes a slug (`MovieID.slug`): accented letters, ligatures, full-width and",
      "// styled letters and digits, and the like. Each entry is `scalar:decomposition`, in",
      "// hexadecimal.",
      "",
      "extension SlugDecompositions {",
      "  static let table = \"\"\"",
    ]
    var line = ""
    for entry in entries {
      if line.count + entry.count + 1 > 96 {
        lines.append("    " + line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + entry
    }
    if !line.isEmpty { lines.append("    " + line) }
    lines += ["    \"\"\"", "}", ""]
    return lines.joined(separator: "\n")
  }

  @Test(
    "the committed table is what Foundation's decomposition gives (LEAMOJI_UPDATE_GOLDEN=1 rewrites it)"
  )
  func tableIsCurrent() throws {
    let expected = Self.tableSource()
    if Repository.updatingGoldens {
      try expected.write(toFile: Self.tablePath, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOfFile: Self.tablePath, encoding: .utf8)
    #expect(committed == expected)
  }

  @Test("every Unicode scalar gives the slug Foundation's decomposition gives")
  func everyScalar() {
    var mismatches: [String] = []
    for value in 0x80...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let single = String(Character(scalar))
      // Only scalars that decompose can differ; the rest map to themselves either way.
      guard
        single.decomposedStringWithCompatibilityMapping.unicodeScalars.elementsEqual([scalar])
          == false
      else { continue }
      let text = "a" + single + "b"
      if MovieID.slug(text) != Self.foundationSlug(text) {
        mismatches.append(String(value, radix: 16))
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  }

  @Test("strings mixing letters, marks, ligatures and other scripts keep their ids")
  func mixedStrings() {
    var random = SystemRandomNumberGenerator()
    let pieces = [
      "e", "\u{301}", "\u{323}", "\u{302}", "ﬁ", "Ｎ", "²", "Å", "Å", "ǅ", "ẛ", "ṩ", "ḍ̇", "한",
      "日", "'", "’", " ", "-", "ß", "Ⅻ", "①", "𝐀", "™", "½", "ｶ", "ﾞ", "ᄀ", "\u{345}", "ι",
    ]
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 1...8, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }.joined()
      #expect(MovieID.slug(text) == Self.foundationSlug(text), "\(text)")
    }
  }
}
