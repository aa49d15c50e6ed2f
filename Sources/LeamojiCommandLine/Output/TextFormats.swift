import FoundationEssentials
import LeamojiCore

// The few ways every command writes numbers and values as text.

/// "30 s", "2.5 s", "1 min 5 s".
public func secondsText(_ seconds: Double) -> String {
  // Hand-written files may hold any number; Int() of a huge one would trap.
  guard seconds.isFinite, abs(seconds) < 1e12 else { return CFormat.string("%g s", seconds) }
  if seconds >= 60 {
    let whole = Int(seconds.rounded())
    return "\(whole / 60) min \(whole % 60) s"
  }
  return seconds == seconds.rounded() ? "\(Int(seconds)) s" : CFormat.string("%.1f s", seconds)
}

/// JSON text with sorted keys and unescaped slashes and emoji.
public func jsonText<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting =
    pretty
    ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
    : [.sortedKeys, .withoutEscapingSlashes]
  guard let data = try? encoder.encode(value) else { return "{}" }
  return String(decoding: data, as: UTF8.self)
}

/// A percentage with one decimal: `93.3%`.
public func percent(_ fraction: Double) -> String { CFormat.string("%.1f%%", fraction * 100) }
