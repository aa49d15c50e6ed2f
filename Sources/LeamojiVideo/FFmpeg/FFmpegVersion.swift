internal import CFFmpeg

/// A library version as FFmpeg packs it: major, minor, micro (e.g. libavcodec 59.37.100).
public struct LibraryVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let major: Int
  public let minor: Int
  public let micro: Int

  public init(major: Int, minor: Int, micro: Int) {
    self.major = major
    self.minor = minor
    self.micro = micro
  }

  /// From FFmpeg's `AV_VERSION_INT` form: major << 16 | minor << 8 | micro.
  public init(packed: UInt32) {
    self.init(
      major: Int(packed >> 16), minor: Int((packed >> 8) & 0xFF), micro: Int(packed & 0xFF))
  }

  public var description: String { "\(major).\(minor).\(micro)" }

  public static func < (a: LibraryVersion, b: LibraryVersion) -> Bool {
    (a.major, a.minor, a.micro) < (b.major, b.minor, b.micro)
  }
}

/// One FFmpeg library leamoji links: the version of the headers it was built with and the
/// version of the library loaded at run time (the same major: the shared library's soname
/// carries it).
public struct FFmpegLibrary: Sendable, Hashable {
  public let name: String
  public let built: LibraryVersion
  public let running: LibraryVersion
}

/// Which FFmpeg leamoji runs with, for `leamoji --version` and for the test logs. The only
/// place outside the decoding code that asks FFmpeg anything.
public enum FFmpegVersion {
  /// The oldest FFmpeg leamoji builds with: 5.1 (Debian 12). `CFFmpeg/shim.h` stops the build
  /// for older headers.
  public static let oldestSupported = (
    release: "5.1", libavcodec: LibraryVersion(major: 59, minor: 37, micro: 100),
    libavformat: LibraryVersion(major: 59, minor: 27, micro: 100)
  )
  /// The newest FFmpeg release line CI builds and tests with: 7.1 (Debian 13).
  public static let newestTested = (
    release: "7.1", libavcodec: LibraryVersion(major: 61, minor: 19, micro: 100),
    libavformat: LibraryVersion(major: 61, minor: 7, micro: 100)
  )

  /// FFmpeg's own name for its release, from the loaded libavutil, e.g. "5.1.6-0+deb12u1".
  public static var release: String { String(cString: av_version_info()) }

  /// libavformat, libavcodec, libswscale, libavutil and libswresample, in that order.
  public static var libraries: [FFmpegLibrary] {
    [
      FFmpegLibrary(
        name: "libavformat", built: LibraryVersion(packed: cffmpeg_built_avformat_version()),
        running: LibraryVersion(packed: avformat_version())),
      FFmpegLibrary(
        name: "libavcodec", built: LibraryVersion(packed: cffmpeg_built_avcodec_version()),
        running: LibraryVersion(packed: avcodec_version())),
      FFmpegLibrary(
        name: "libswscale", built: LibraryVersion(packed: cffmpeg_built_swscale_version()),
        running: LibraryVersion(packed: swscale_version())),
      FFmpegLibrary(
        name: "libavutil", built: LibraryVersion(packed: cffmpeg_built_avutil_version()),
        running: LibraryVersion(packed: avutil_version())),
      FFmpegLibrary(
        name: "libswresample",
        built: LibraryVersion(packed: cffmpeg_built_swresample_version()),
        running: LibraryVersion(packed: swresample_version())),
    ]
  }

  /// The FFmpeg release line of a libavcodec major version: 59 is FFmpeg 5, 60 is 6, 61 is 7,
  /// 62 is 8.
  public static func releaseLine(libavcodecMajor major: Int) -> Int { major - 54 }

  /// Whether the loaded libavcodec and libavformat are within what leamoji supports: FFmpeg 5.1
  /// up to the 7.x line (CI tests 5.1 and 7.1).
  public static var isSupported: Bool {
    let codec = libraries[1].running
    let format = libraries[0].running
    return codec >= oldestSupported.libavcodec && format >= oldestSupported.libavformat
      && codec.major <= newestTested.libavcodec.major
      && format.major <= newestTested.libavformat.major
  }

  /// One line, e.g. "FFmpeg 5.1.6-0+deb12u1 (libavformat 59.27.100, libavcodec 59.37.100,
  /// libswscale 6.7.100, libavutil 57.28.100, libswresample 4.7.100)". A library loaded at run time that differs from
  /// the headers leamoji was built with shows both: "libavcodec 59.37.100 (built with 59.37.101)".
  public static var summary: String {
    let parts = libraries.map { library in
      library.running == library.built
        ? "\(library.name) \(library.running)"
        : "\(library.name) \(library.running) (built with \(library.built))"
    }
    let note = isSupported ? "" : "; not tested: leamoji supports FFmpeg 5.1 to 7.1"
    return "FFmpeg \(release) (\(parts.joined(separator: ", "))\(note))"
  }
}
