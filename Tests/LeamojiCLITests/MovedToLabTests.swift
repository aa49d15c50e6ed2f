import Foundation
import LeamojiTestSupport
import Testing

/// The scene generator and `train`'s workshop options moved to `leamoji-lab`: a `train` command
/// line with a moved option gets one line saying where, exit 64, and nothing written;
/// `leamoji-lab` runs it. `leamoji scenes` still runs, hidden, with a warning.
@Suite("what moved from leamoji to leamoji-lab")
struct MovedToLabTests {
  @Test(
    "leamoji says where a moved train option went",
    arguments: [
      (["train", "data", "--widths", "8,16"], "train --widths moved"),
      (["train", "data", "--hidden=4"], "train --hidden moved"),
      (["train", "data", "--size", "16"], "train --size moved"),
      (["train", "data", "--scary-threshold", "0.4"], "train --scary-threshold moved"),
    ])
  func movedLine(arguments: [String], message: String) throws {
    let work = try ScratchFolder.url("moved-to-lab")
    defer { try? FileManager.default.removeItem(at: work) }
    let r = try CLI.leamoji(arguments, in: work)
    #expect(r.status == 64, "\(arguments): \(r.stderr)")
    #expect(r.stderrLines.count == 1 && r.stderr.contains(message), "\(r.stderr)")
    #expect(r.stderr.hasPrefix("leamoji: ") && r.stderr.contains("leamoji-lab"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
  }

  @Test(
    "leamoji scenes, the old name: hidden from help, a warning, the same scenes as leamoji-lab's")
  func oldScenesName() throws {
    let work = try ScratchFolder.url("moved-scenes")
    defer { try? FileManager.default.removeItem(at: work) }
    let common = ["--train-per-class", "2", "--test-per-class", "1", "--size", "16"]
    let old = try CLI.leamoji(
      ["scenes", "dataset", "--out", work.appendingPathComponent("old").path] + common)
    #expect(old.status == 0, "\(old.stderr)")
    #expect(
      old.stderrLines.count == 1 && old.stderr.hasPrefix("leamoji: warning: ")
        && old.stderr.contains("leamoji-lab scenes"), "\(old.stderr)")
    let new = try CLI.lab(
      ["scenes", "dataset", "--out", work.appendingPathComponent("new").path] + common)
    #expect(new.status == 0 && new.stderr.isEmpty, "\(new.stderr)")
    let file = "Training Data/Scary/scary-00000.png"
    #expect(
      try Data(contentsOf: work.appendingPathComponent("old/" + file))
        == Data(contentsOf: work.appendingPathComponent("new/" + file)))
    let root = try CLI.leamoji(["--help"])
    #expect(
      !HelpText.subcommands(in: root.stdout).contains("scenes"), "not listed in leamoji --help")
    let help = try CLI.leamoji(["scenes", "--help"])
    #expect(help.status == 0 && help.stderr.isEmpty && help.stdout.contains("leamoji-lab scenes"))
  }

  @Test("an option's value that looks like a moved option is still a value after --")
  func afterDoubleDash() throws {
    let r = try CLI.leamoji(["train", "--output", "m.safetensors", "--", "--widths"])
    #expect(r.status == 66 && !r.stderr.contains("moved"), "\(r.stderr)")
  }

  @Test("leamoji train --help names the workshop; leamoji-lab train takes the moved options")
  func labTakesThem() throws {
    let help = try CLI.leamoji(["train", "--help"])
    #expect(help.stdout.contains("leamoji-lab train") && !help.stdout.contains("--widths"))
    let lab = try CLI.lab(["train", "--help"])
    for option in ["--widths", "--hidden", "--experts", "--scary-threshold", "--init", "--l2-sp"] {
      #expect(lab.stdout.contains(option), "leamoji-lab train --help lists \(option)")
    }
  }
}
