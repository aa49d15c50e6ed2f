/// What moved from `leamoji` to the model's workshop, `leamoji-lab`: the scene generator and
/// `train`'s workshop options. A command line that still uses them gets one line saying where
/// they went, rather than ArgumentParser's "unknown option".
enum MovedToLab {
  /// `train`'s options that only `leamoji-lab train` has now.
  static let trainOptions: Set<String> = [
    "--hidden", "--fine-tune", "--experts", "--balance", "--l2", "--input-size", "--size",
    "--widths", "--depth", "--batch-norm", "--dropout", "--evaluation", "--scary-threshold",
    "--scary-threshold-high", "--scary-threshold-low",
  ]

  /// The line for `arguments` (without the program's name), or nil when nothing in them moved.
  static func message(for arguments: [String]) -> String? {
    guard let command = arguments.first else { return nil }
    if command == "scenes" {
      return
        "scenes moved to the model's workshop: run leamoji-lab scenes (build it with make lab)"
    }
    guard command == "train" else { return nil }
    for argument in arguments.dropFirst() {
      if argument == "--" { break }
      let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
      if trainOptions.contains(name) {
        return
          "train \(name) moved to the model's workshop: run leamoji-lab train (build it with make lab), which takes every option of leamoji train too"
      }
    }
    return nil
  }
}
