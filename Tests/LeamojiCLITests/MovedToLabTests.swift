import Foundation
import LeamojiTestSupport
import Testing

/// The scene generator and `train`'s workshop options moved to `leamoji-lab`: an old command
/// line gets one line saying where, exit 64, and nothing written; `leamoji-lab` runs it.
@Suite("what moved from leamoji to leamoji-lab")
struct MovedToLabTests {
  @Test(
    "leamoji says where a moved command or option went",
    arguments: [
      (["scenes", "dataset", "--out", "x"], "run leamoji-lab scenes"),
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
