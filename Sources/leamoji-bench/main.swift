import Foundation

/// `leamoji-bench cnn [--threads N] [--seconds S]`: prints speed figures. Run a release build
/// (`make bench-cnn`).
let arguments = Array(CommandLine.arguments.dropFirst())

func value(of flag: String, default fallback: Double) -> Double {
  guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count, let v = Double(arguments[i + 1]) else {
    return fallback
  }
  return v
}

switch arguments.first {
case "cnn":
  let threads = Int(value(of: "--threads", default: Double(ProcessInfo.processInfo.activeProcessorCount)))
  do {
    try CNNBenchmark(threads: max(1, threads), seconds: value(of: "--seconds", default: 2)).run()
  } catch {
    FileHandle.standardError.write(Data("leamoji-bench: \(error)\n".utf8))
    exit(1)
  }
default:
  FileHandle.standardError.write(Data("usage: leamoji-bench cnn [--threads N] [--seconds S]\n".utf8))
  exit(64)
}
