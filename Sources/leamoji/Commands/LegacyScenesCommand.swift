import ArgumentParser
import LeamojiCommandLine

/// `leamoji scenes`: the scene generator's old place, kept for the scripts of before its move to
/// the model's workshop (`leamoji-lab scenes`): not listed in help, the same subcommands, and a
/// warning naming the new place (`MovedToLab`).
struct LegacyScenes: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenes",
    abstract: "Moved to the model's workshop: leamoji-lab scenes.",
    shouldDisplay: false,
    subcommands: [Scenes.Dataset.self, Scenes.Clip.self]
  )
}
