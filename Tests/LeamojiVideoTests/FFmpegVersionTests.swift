import Foundation
import LeamojiVideo
import Testing

/// Which FFmpeg the suite runs with: printed at the start of the log (CI runs the suite with
/// FFmpeg 5.1 on Debian 12 and 7.1 on Debian 13), and within the releases leamoji supports.
@Suite("FFmpeg version")
struct FFmpegVersionTests {
  @Test("the FFmpeg libraries under test are printed, loaded as built, within 5.1 to 7.x")
  func librariesUnderTest() throws {
    let scratch = FixtureStore.shared.scratchURL("version")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let tool = ExternalTools.versionLine("ffmpeg", in: scratch) ?? "no ffmpeg CLI"
    let rotation = (try? FixtureStore.shared.installedRotationOption).map { "\($0)" } ?? "?"
    print(
      "FFmpeg under test: \(FFmpegVersion.summary); fixtures by \(tool) (rotation: \(rotation))")

    #expect(
      FFmpegVersion.libraries.map(\.name) == [
        "libavformat", "libavcodec", "libswscale", "libavutil", "libswresample",
      ])
    for library in FFmpegVersion.libraries {
      // The soname carries the major version; an older minor than the headers is a broken mix.
      #expect(library.running.major == library.built.major, "\(library.name)")
      #expect(library.running >= library.built, "\(library.name) older than its headers")
    }
    #expect(FFmpegVersion.isSupported, "\(FFmpegVersion.summary)")
    #expect(!FFmpegVersion.summary.contains("not tested"))
    // A release build's name starts with its release line (a git build's is "N-...").
    let codec = FFmpegVersion.libraries[1].running
    if let first = FFmpegVersion.release.first, first.isNumber {
      #expect(
        FFmpegVersion.release.hasPrefix(
          "\(FFmpegVersion.releaseLine(libavcodecMajor: codec.major))."),
        "\(FFmpegVersion.release) with libavcodec \(codec)")
    }
  }

  @Test("library versions unpack from FFmpeg's packed form and order by number")
  func libraryVersions() {
    let version = LibraryVersion(packed: 59 << 16 | 37 << 8 | 100)
    #expect(version == LibraryVersion(major: 59, minor: 37, micro: 100))
    #expect(version.description == "59.37.100")
    #expect(version < LibraryVersion(major: 59, minor: 38, micro: 0))
    #expect(LibraryVersion(major: 60, minor: 0, micro: 0) > version)
    #expect(FFmpegVersion.oldestSupported.libavcodec == version)
    #expect(FFmpegVersion.newestTested.libavcodec.major == 61)
    #expect(FFmpegVersion.releaseLine(libavcodecMajor: 59) == 5)
    #expect(FFmpegVersion.releaseLine(libavcodecMajor: 61) == 7)
  }
}
