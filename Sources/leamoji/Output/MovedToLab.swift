/// What moved from `leamoji` to the model's workshop, `leamoji-lab`: the scene generator and
/// `train`'s workshop options. A command line with a moved `train` option gets one line saying
/// where it went, rather than ArgumentParser's "unknown option"; `scenes` still runs under its
/// old name (hidden from help) with a warning.
enum MovedToLab {
  /// `train`'s options that only `leamoji-lab train` has now.
  static let trainOptions: Set<String> = [
    "--hidden", "--fine-tune", "--experts", "--balance", "--l2", "--input-size", "--size",
    "--widths", "--depth", "--batch-norm", "--dropout", "--evaluation", "--scary-threshold",
    "--scary-threshold-high", "--scary-threshold-low",
  ]

  /// The warning for `arguments` (without the program's name): `scenes` still runs here, under
  /// its old name, but has a new home.
  static func warning(for arguments: [String]) -> String? {
    guard arguments.first == "scenes", !arguments.contains(where: { $0 == "-h" || $0 == "--help" })
    else { return nil }
    return
      "scenes moved to the model's workshop, leamoji-lab scenes (make lab); this old name will go"
  }

  /// The refusal for `arguments` (without the program's name), or nil when nothing in them
  /// moved away for good.
  static func message(for arguments: [String]) -> String? {
    guard arguments.first == "train" else { return nil }
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
