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
