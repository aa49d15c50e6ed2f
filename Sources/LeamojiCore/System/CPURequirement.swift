import FoundationEssentials

/// The instruction-set extensions the network kernels were compiled for, checked before any
/// network code runs so that a CPU without them gets one clear line instead of SIGILL.
///
/// On x86-64 the package compiles LeamojiNN for AVX2 + FMA (see Package.swift and
/// docs/network-kernels.md) and defines `LEAMOJI_KERNELS_NEED_AVX2_FMA` for this module; a
/// build made with `LEAMOJI_BASELINE_CPU=1` needs nothing. This module itself is compiled for
/// the baseline CPU, so the check is safe to run anywhere.
public enum CPURequirement {
  /// The CPU flags the kernels need (empty when the build needs none).
  public static var required: [String] {
    #if LEAMOJI_KERNELS_NEED_AVX2_FMA
      return ["avx2", "fma"]
    #else
      return []
    #endif
  }

  /// The required flags `/proc/cpuinfo` does not list (empty when all are there, or when
  /// the file cannot be read: then the check cannot tell and stays out of the way).
  public static func missing(
    cpuinfo: String? = try? String(
      contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
  ) -> [String] {
    guard !required.isEmpty, let cpuinfo,
      let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
    else { return [] }
    let flags = Set(line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" }))
    return required.filter { !flags.contains(Substring($0)) }
  }

  /// The one-line message for a CPU that lacks `missing`, or nil when nothing is missing.
  public static func problem(missing: [String] = missing()) -> String? {
    guard !missing.isEmpty else { return nil }
    return "this leamoji build needs a CPU with AVX2 and FMA (missing: "
      + missing.joined(separator: ", ")
      + "); rebuild it with LEAMOJI_BASELINE_CPU=1 swift build -c release"
  }
}
