// Golden tests of leamoji-lab's help texts, as HelpGoldenTests does for leamoji: each is compared
// byte for byte with Fixtures/help/<command>.txt, rendered at COLUMNS=80. When a text changes
// on purpose:
//
//   LEAMOJI_UPDATE_GOLDEN=1 swift test --skip-build --filter LeamojiLabTests.LabHelpGoldenTests
//   git diff Tests/LeamojiLabTests/Fixtures/help
//
// (the run rewrites the files and fails; run it again without the variable).

import Foundation
import LeamojiTestSupport
import Testing

@Suite("leamoji-lab's golden help texts")
struct LabHelpGoldenTests {
  static let fixtures = Repository.url("Tests/LeamojiLabTests/Fixtures/help")

  @Test("--help is exactly the committed golden file", arguments: [[], ["card"], ["retime"]])
  func matchesGolden(_ words: [String]) throws {
    let rendered = try Lab.run(words + ["--help"])
    try #require(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
    let file = Self.fixtures.appendingPathComponent(
      (["leamoji-lab"] + words).joined(separator: "-") + ".txt")
    let updating = ProcessInfo.processInfo.environment["LEAMOJI_UPDATE_GOLDEN"].map {
      !$0.isEmpty && $0 != "0"
    }
    if updating == true {
      try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
      try rendered.stdoutData.write(to: file, options: .atomic)
      Issue.record("LEAMOJI_UPDATE_GOLDEN is set: rewrote \(file.lastPathComponent)")
      return
    }
    let golden = try Data(contentsOf: file)
    #expect(rendered.stdoutData == golden, "\(words) --help differs from \(file.lastPathComponent)")
  }

  @Test("the root lists exactly card and retime, and every help has examples")
  func subcommandsAndExamples() throws {
    let root = try Lab.run(["--help"]).stdout
    #expect(root.contains("  card ") && root.contains("  retime "))
    for words in [["card"], ["retime"]] {
      let help = try Lab.run(words + ["--help"]).stdout
      #expect(help.contains("Examples:\n  leamoji-lab \(words[0]) "), "\(words)")
    }
  }
}
