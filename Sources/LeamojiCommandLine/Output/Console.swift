import FoundationEssentials
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// Where the CLI's words go: results on stdout, errors and progress on stderr. Text that comes
/// from files (names, titles) may hold control characters; they are neutralised before
/// reaching a terminal (see `safe`), and JSON lines escape them (see `printJSON`).
public enum Console {
  /// The tool's name before each error and warning line: `leamoji`, or `leamoji-lab` (set once,
  /// first thing in `main`).
  nonisolated(unsafe) public static var toolName = "leamoji"

  public static let stderrIsTerminal = isatty(STDERR_FILENO) == 1
  public static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1

  /// One line on stdout.
  public static func print(_ line: String) {
    write(safe(line) + "\n", to: STDOUT_FILENO)
  }

  /// One line on stdout built by leamoji itself from safe parts (file text already passed through
  /// `safe`), so its own escape sequences (colours) go through.
  public static func printFormatted(_ line: String) {
    write(line + "\n", to: STDOUT_FILENO)
  }

  /// One line of JSON on stdout, from `jsonText`: every character `safe` would replace is
  /// written as a `\uXXXX` escape instead. The encoder escapes C0 controls itself but leaves
  /// DEL, C1 controls and bidi controls raw; escaping them keeps the line terminal-safe while it
  /// still decodes to the exact original strings (in one-line JSON such characters can only be
  /// inside strings, where the escape means the same character).
  public static func printJSON(_ json: String) {
    write(jsonEscaped(json) + "\n", to: STDOUT_FILENO)
  }

  /// `json` with every unsafe scalar written as a JSON `\uXXXX` escape.
  public static func jsonEscaped(_ json: String) -> String { UnsafeText.jsonEscaped(json) }

  /// One line on stderr, prefixed with `leamoji: `.
  public static func error(_ line: String) {
    write(toolName + ": " + safe(line) + "\n", to: STDERR_FILENO)
  }

  /// One warning line on stderr.
  public static func warning(_ line: String) {
    write(toolName + ": warning: " + safe(line) + "\n", to: STDERR_FILENO)
  }

  /// Raw text on stderr (progress bars), unfiltered: the caller builds it from safe parts.
  public static func writeStderr(_ text: String) {
    write(text, to: STDERR_FILENO)
  }

  /// `text` with C0/C1 control characters, DEL, the line and paragraph separators and the bidi
  /// embedding/override/isolate controls (`UnsafeText.isUnsafe`) replaced by `?`, so that a file
  /// name or title cannot move the cursor, retitle the window, clear the screen, split a line in
  /// two or show the rest of a line reordered.
  public static func safe(_ text: String) -> String { UnsafeText.neutralised(text) }

  /// A message of several lines (ArgumentParser's errors with their usage) made safe line by
  /// line: its own line breaks stay, everything `safe` names inside a line is replaced.
  public static func safeLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(
      separator: "\n")
  }

  private static func write(_ text: String, to descriptor: Int32) {
    _ = FileDescriptor.writeAll(Array(text.utf8), to: descriptor)
  }
}
