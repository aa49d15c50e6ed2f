import Foundation
import Testing

/// One example command as documented: its text (continuation lines kept, with their trailing
/// backslash), and where it is shown.
struct Example: Sendable {
  let text: String
  /// `leamoji train --help` or `README.md line 42`.
  let origin: String

  /// The first line, for messages.
  var summary: String {
    let first = text.split(separator: "\n").first.map(String.init) ?? text
    return first.trimmingCharacters(in: .whitespaces) + (text.contains("\n") ? " …" : "")
  }

  /// The tool it runs: `leamoji`, or `leamoji-lab` (the workshop).
  var tool: String { ShellWords(text).words.first?.text ?? "leamoji" }

  /// The subcommand words (`train`, `scenes clip`).
  var command: [String] {
    let words = ShellWords(text).words.map(\.text)
    guard let first = words.first, Example.tools.contains(first), words.count > 1 else {
      return []
    }
    return words[1] == "scenes" && words.count > 2 ? Array(words[1...2]) : [words[1]]
  }

  /// The tools an example may run.
  static let tools = ["leamoji", "leamoji-lab"]

  /// Whether a line starts an example: `leamoji ...` or `leamoji-lab ...`.
  static func starts(_ line: String) -> Bool {
    tools.contains { line.hasPrefix($0 + " ") }
  }

  /// Whether it needs a terminal (the player).
  var needsTerminal: Bool { ["play", "label", "review"].contains(command.first ?? "") }
}

/// Examples run one after the other in one folder, as a reader would type them: later ones may
/// use what earlier ones wrote (`timeline` after `analyze`).
struct ExampleSequence: Sendable, CustomTestStringConvertible {
  let name: String
  let examples: [Example]
  var testDescription: String { name }
}

// MARK: - Finding the examples

enum ExampleExtraction {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The examples of a help text: the lines under "Examples:" or "Example:" up to the next blank
  /// line. Each starts with `leamoji `; a line ending in a backslash goes on on the next line.
  /// Any other line in the block is an error (an example ArgumentParser wrapped, say).
  static func fromHelp(_ help: String, origin: String) throws -> [Example] {
    var examples: [Example] = []
    var current: [Substring] = []
    var inBlock = false
    func finish() {
      if !current.isEmpty {
        examples.append(Example(text: current.joined(separator: "\n"), origin: origin))
      }
      current = []
    }
    for (index, line) in help.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if !inBlock {
        inBlock = trimmed == "Examples:" || trimmed == "Example:"
        continue
      }
      if trimmed.isEmpty {
        finish()
        inBlock = false
      } else if current.last?.hasSuffix("\\") == true {
        current.append(line)
      } else if Example.starts(trimmed) {
        finish()
        current = [line]
      } else {
        throw Failure(
          description: """
            \(origin), line \(index + 1): «\(line)» is in an Examples block but neither starts \
            with `leamoji ` nor continues a line ending in a backslash (an example wrapped at \
            \(HelpText.columns) columns?)
            """)
      }
    }
    finish()
    return examples
  }

  /// The examples of a Markdown file: in each fenced block marked sh (or bash, shell, console),
  /// the lines that start with `leamoji ` (after an optional `$ ` prompt), continued while a line
  /// ends in a backslash. Every other line (`make demo`, comments) is left out. One sequence per
  /// block that has examples, named after the file and the block's first line.
  static func fromMarkdown(_ markdown: String, file: String) -> [ExampleSequence] {
    var sequences: [ExampleSequence] = []
    var examples: [Example] = []
    var current: [String] = []
    var currentLine = 0
    var fence: (shell: Bool, line: Int)? = nil
    func finishExample() {
      if !current.isEmpty {
        examples.append(
          Example(text: current.joined(separator: "\n"), origin: "\(file) line \(currentLine)"))
      }
      current = []
    }
    for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        if let open = fence {
          finishExample()
          if !examples.isEmpty {
            sequences.append(
              ExampleSequence(name: "\(file) block at line \(open.line)", examples: examples))
          }
          examples = []
          fence = nil
        } else {
          let info = trimmed.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
          fence = (["sh", "bash", "shell", "console"].contains(info.lowercased()), index + 1)
        }
        continue
      }
      guard fence?.shell == true else { continue }
      var content = trimmed
      if content.hasPrefix("$ ") { content.removeFirst(2) }
      if current.last?.hasSuffix("\\") == true {
        current.append(content)
      } else {
        finishExample()
        if Example.starts(content) {
          current = [content]
          currentLine = index + 1
        }
      }
    }
    finishExample()
    return sequences
  }
}
