import Foundation
import LeamojiTestSupport
import Testing

/// Full Foundation (with its ICU data) adds about 7 MB to every leamoji process, which issue
/// 15's memory goal (peak memory at most ffmpeg's) cannot afford; leamoji links only
/// FoundationEssentials, and a stray `import Foundation` in any of its modules would bring the
/// rest back.
@Suite("What the leamoji binary loads")
struct FootprintTests {
  @Test("leamoji links FoundationEssentials but not Foundation or its ICU")
  func noFullFoundation() throws {
    let result = try ProcessRunner.run("/usr/bin/ldd", [CLI.binary])
    #expect(result.status == 0, "\(result.stderr)")
    let libraries = result.stdout.split(separator: "\n").map {
      String($0.split(separator: " ").first ?? "").trimmingCharacters(in: .whitespaces)
    }
    #expect(libraries.contains("libFoundationEssentials.so"), "\(libraries)")
    for unwanted in [
      "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
    ] {
      #expect(!libraries.contains(unwanted), "\(unwanted) is linked")
    }
  }
}
