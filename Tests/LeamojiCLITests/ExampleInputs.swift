import Foundation

// MARK: - Reading a command line

/// The words of the first simple command of a shell line, as bash splits them: quotes removed,
/// backslash-newline joined, stopping at a pipe, `;`, `&`, a redirection or a comment. Words with
/// an unquoted `*`, `?` or `[` are globs.
struct ShellWords {
  struct Word: Equatable {
    var text = ""
    var glob = false
  }

  private(set) var words: [Word] = []

  init(_ line: String) {
    var word: Word? = nil
    var quote: Character? = nil
    var characters = Array(line)[...]
    func end() {
      if let finished = word { words.append(finished) }
      word = nil
    }
    while let character = characters.popFirst() {
      if quote == "'" {
        if character == "'" { quote = nil } else { word!.text.append(character) }
        continue
      }
      if character == "\\" {
        guard let next = characters.popFirst() else { break }
        if next == "\n" { continue }
        if quote == "\"" && !"\"\\$`".contains(next) { word!.text.append("\\") }
        if word == nil { word = Word() }
        word!.text.append(next)
        continue
      }
      if quote == "\"" {
        if character == "\"" { quote = nil } else { word!.text.append(character) }
        continue
      }
      switch character {
      case "'", "\"":
        if word == nil { word = Word() }
        quote = character
      case " ", "\t", "\n":
        end()
      case "#" where word == nil:
        while let skipped = characters.popFirst(), skipped != "\n" {}
      case "|", ";", "&", ">", "<", "(", ")":
        end()
        return
      default:
        if word == nil { word = Word() }
        if "*?[".contains(character) { word!.glob = true }
        word!.text.append(character)
      }
    }
    end()
  }
}

/// Which words of a `leamoji` command name files that must be there before it runs, so that a
/// missing one can be made from the placeholder table (or reported) instead of failing as exit 66.
enum ExampleInputs {
  struct Rule {
    /// Whether positional arguments are input files; `.fileOrID` also accepts an entry id.
    enum Positionals { case none, files, fileOrID }
    var positionals: Positionals
    var options: Set<String> = []
    /// Inputs used when their option is not given (`timeline` reads ./MovieData.json).
    var defaults: [String: String] = [:]
  }

  static let rules: [String: Rule] = [
    "analyze": Rule(positionals: .files, options: ["--model"]),
    "play": Rule(positionals: .files, options: ["--model"]),
    "timeline": Rule(
      positionals: .fileOrID, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "list": Rule(positionals: .none, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "export": Rule(
      positionals: .none, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "merge": Rule(positionals: .files),
    "frames": Rule(positionals: .files),
    "train": Rule(positionals: .files, options: ["--test", "--validation"]),
    "evaluate": Rule(positionals: .files, options: ["--model"]),
    "classify": Rule(positionals: .files, options: ["--model"]),
    "model": Rule(positionals: .files),
    "label": Rule(positionals: .files, options: ["--model"]),
    "review": Rule(
      positionals: .files, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "report": Rule(
      positionals: .none, options: ["--data"], defaults: ["--data": "MovieData.json"]),
  ]

  /// The input words of `words` (which start with `leamoji <command>`); `valueOptions` are the
  /// options that take a value, read from the command's help.
  static func inputs(of words: [ShellWords.Word], command: [String], valueOptions: Set<String>)
    -> [ShellWords.Word]
  {
    guard let rule = rules[command.joined(separator: " ")] else { return [] }
    var inputs: [ShellWords.Word] = []
    var given: Set<String> = []
    var rest = words.dropFirst(1 + command.count)
    while let word = rest.popFirst() {
      if word.text.hasPrefix("--") {
        let parts = word.text.split(separator: "=", maxSplits: 1)
        let name = String(parts[0])
        given.insert(name)
        var value: ShellWords.Word? = nil
        if parts.count == 2 {
          value = ShellWords.Word(text: String(parts[1]), glob: word.glob)
        } else if valueOptions.contains(name) {
          value = rest.popFirst()
        }
        if let value, rule.options.contains(name) { inputs.append(value) }
      } else if rule.positionals == .files
        || (rule.positionals == .fileOrID && (word.text.contains("/") || word.text.contains(".")))
      {
        inputs.append(word)
      }
    }
    for (option, file) in rule.defaults where !given.contains(option) {
      inputs.append(ShellWords.Word(text: file))
    }
    return inputs
  }

  /// The options of a help text that take a value (`--out <out>`).
  static func valueOptions(inHelp help: String) -> Set<String> {
    var options: Set<String> = []
    for line in help.split(separator: "\n") {
      let words = line.split(separator: " ")
      for (word, next) in zip(words, words.dropFirst())
      where word.hasPrefix("--") && next.hasPrefix("<") {
        options.insert(String(word.split(separator: "/").first ?? word))
      }
    }
    return options
  }
}
