// The recipes of the README and docs/development.md run end to end with the outside tools they
// name: GNU parallel analysing the sample videos on "many machines" and merging the fragments,
// and `make install` / `make uninstall` with the installed binary analysing a sample video.
// Each runs whole sample-video analyses and other programs for seconds, so they are in the slow
// tier (`*RecipeTests`; `make check` skips them, `make test` runs them).

import Foundation
import LeamojiTestSupport
import Testing

@Suite("Many machines: GNU parallel runs analyze into fragments, merge joins them")
struct ParallelRecipeTests {
  @Test("parallel (with the --sshlogin form, on this machine) and merge give the golden file")
  func parallelThenMerge() throws {
    guard
      let parallel = ["/usr/bin/parallel", "/usr/local/bin/parallel"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      Issue.record(
        "GNU parallel is not installed: apt-get install parallel (make test-deps does it)")
      return
    }
    let repository = Repository.root
    let work = try ScratchFolder.url("parallel")
    defer { try? FileManager.default.removeItem(at: work) }
    let videos = ["meadow-storm", "night-walk", "party-cellar"].map {
      repository.appendingPathComponent("SampleVideos/\($0).mp4").path
    }
    // The README's recipe; `--sshlogin :` is this machine (other hosts: --sshlogin a,b).
    let run = try ProcessRunner.run(
      parallel,
      [
        "--will-cite", "--halt", "now,fail=1", "--sshlogin", ":", CLI.binary, "analyze", "{}",
        "--output", work.path + "/{/.}.part.json", "--frames", "--no-poster", ":::",
      ] + videos, timeout: 600)
    try #require(run.status == 0, "\(run.stderr)")
    let parts = try FileManager.default.contentsOfDirectory(atPath: work.path).filter {
      $0.hasSuffix(".part.json")
    }.sorted()
    #expect(parts == ["meadow-storm.part.json", "night-walk.part.json", "party-cellar.part.json"])
    let merge = try CLI.leamoji(
      ["merge"] + parts.reversed() + ["--output", "MovieData.json"], in: work)
    try #require(merge.status == 0, "\(merge.stderr)")
    let merged = try String(
      contentsOf: work.appendingPathComponent("MovieData.json"), encoding: .utf8)
    let golden = try String(
      contentsOf: repository.appendingPathComponent(
        "Tests/LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json"), encoding: .utf8)
    #expect(merged == golden)
  }
}

@Suite("make install / make uninstall into a temporary prefix")
struct InstallRecipeTests {
  @Test("the copied binary finds its model from another folder; uninstall removes every file")
  func installAndUninstall() throws {
    let repository = Repository.root
    let prefix = try ScratchFolder.url("prefix")
    let elsewhere = try ScratchFolder.url("elsewhere")
    defer {
      try? FileManager.default.removeItem(at: prefix)
      try? FileManager.default.removeItem(at: elsewhere)
    }
    let install = try ProcessRunner.run(
      "make",
      [
        "-C", repository.path, "--no-print-directory", "install", "PREFIX=\(prefix.path)",
        "DESTDIR=", "LEAMOJI_BIN=\(CLI.binary)",
      ], timeout: 300)
    try #require(install.status == 0, "\(install.stdout)\(install.stderr)")
    let files = [
      "bin/leamoji", "share/leamoji/leamoji.safetensors",
      "share/leamoji/efficientnet-lite0.safetensors", "share/bash-completion/completions/leamoji",
      "share/zsh/site-functions/_leamoji",
      "share/fish/vendor_completions.d/leamoji.fish", "share/man/man1/leamoji.1",
    ]
    for file in files {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: prefix.appendingPathComponent(file).path)
      #expect((attributes[.size] as? Int ?? 0) > 100, "\(file)")
    }
    let manual = try String(
      contentsOf: prefix.appendingPathComponent("share/man/man1/leamoji.1"), encoding: .utf8)
    #expect(manual.hasPrefix(".TH LEAMOJI 1") && manual.contains(".SS \"leamoji merge\""))
    let bash = try String(
      contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/leamoji"),
      encoding: .utf8)
    #expect(bash.contains("complete") && bash.contains("export"))

    // From a folder with no Models/, without $LEAMOJI_MODEL: the installed model is found.
    let binary = prefix.appendingPathComponent("bin/leamoji").path
    let analyze = try ProcessRunner.run(
      "env", ["-u", "LEAMOJI_MODEL", binary, "analyze", AppFiles.sample, "--no-poster"],
      in: elsewhere, timeout: 300)
    #expect(analyze.status == 0, "\(analyze.stderr)")
    #expect(analyze.stdout.hasPrefix("meadow-storm: 30 s, 4 markers"))
    #expect(
      FileManager.default.fileExists(
        atPath: elsewhere.appendingPathComponent("MovieData.json").path))

    // Without the model the error says where leamoji looked.
    try FileManager.default.removeItem(
      at: prefix.appendingPathComponent("share/leamoji/leamoji.safetensors"))
    let lost = try ProcessRunner.run(
      "env", ["-u", "LEAMOJI_MODEL", binary, "analyze", AppFiles.sample], in: elsewhere)
    #expect(lost.status == 66)
    #expect(
      lost.stderr.contains("no model found: looked at $LEAMOJI_MODEL, else ../share/leamoji/"))

    let uninstall = try ProcessRunner.run(
      "make",
      [
        "-C", repository.path, "--no-print-directory", "uninstall", "PREFIX=\(prefix.path)",
        "DESTDIR=",
      ])
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    let left = FileManager.default.enumerator(atPath: prefix.path)?.compactMap { $0 as? String }
      .filter { name in
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(
          atPath: prefix.appendingPathComponent(name).path, isDirectory: &isFolder)
        return !isFolder.boolValue
      }
    #expect(left == [])
  }
}
