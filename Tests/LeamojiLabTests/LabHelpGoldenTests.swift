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

  static let commands = [
    [], ["train"], ["scenes"], ["scenes", "dataset"], ["scenes", "clip"], ["card"], ["retime"],
  ]

  @Test("--help is exactly the committed golden file", arguments: commands)
  func matchesGolden(_ words: [String]) throws {
    let rendered = try Lab.run(words + ["--help"])
    try #require(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
    let file = Self.fixtures.appendingPathComponent(
      (["leamoji-lab"] + words).joined(separator: "-") + ".txt")
    if Repository.updatingGoldens {
      try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
      try rendered.stdoutData.write(to: file, options: .atomic)
      Issue.record("LEAMOJI_UPDATE_GOLDEN is set: rewrote \(file.lastPathComponent)")
      return
    }
    let golden = try Data(contentsOf: file)
    #expect(rendered.stdoutData == golden, "\(words) --help differs from \(file.lastPathComponent)")
  }

  @Test("the root lists exactly train, scenes, card and retime, and every help has examples")
  func subcommandsAndExamples() throws {
    let root = try Lab.run(["--help"]).stdout
    let listed = root.split(separator: "\n").drop { $0 != "SUBCOMMANDS:" }.dropFirst()
      .prefix { !$0.isEmpty }.filter {
        $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.hasPrefix("  See ")
      }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(listed == ["train", "scenes", "card", "retime"], "\(listed)")
    for words in Self.commands.dropFirst() where words != ["scenes"] {
      let help = try Lab.run(words + ["--help"]).stdout
      #expect(
        help.contains("leamoji-lab \(words.joined(separator: " ")) "),
        "\(words) --help shows an example of itself")
      #expect(help.contains("Example"), "\(words)")
    }
  }
}
