import ArgumentParser
import FoundationEssentials
import LeamojiCommandLine
import LeamojiCore
import LeamojiTimeline

#if canImport(Glibc)
  import Glibc
#endif

/// `leamoji export --format ios`: the catalogue in the original iOS app's own schema.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write MovieData.json in the original iOS app's format.",
    discussion: """
      Writes every film as the app's Movie struct: id, title, description, poster ("" when \
      there is none) and markers as an object from whole second to "Happy", "Neutral" or \
      "Scary" (the app's [Int: EmojiType]), one per scene start, or one for every second with \
      --every-second. Pretty-printed with sorted keys, as the app's encoder writes it. Labels \
      the app does not know are written as "Neutral" (the app's own fallback), with a warning. \
      Markers already in the app's form are written as they are. Use analyze --id to give \
      films the ids the app expects (the video's file name without extension).

      Examples:
        leamoji export --format ios
        leamoji export --format ios --data site/MovieData.json \\
          --output app/MovieData.json
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case ios
  }

  @Option(help: "The output format (ios: the original app's MovieData.json).")
  var format: Format

  @Option(help: "The timeline file to read.", completion: .file(extensions: ["json"]))
  var data = MovieData.defaultFileName

  @Option(
    help: "Where to write (default: stdout); an existing file is replaced only with --overwrite.",
    completion: .file(extensions: ["json"]))
  var output: String?

  @Flag(help: "Replace an existing --output file.")
  var overwrite = false

  @Flag(help: "One marker for every second of the film instead of one per scene start.")
  var everySecond = false

  func run() throws {
    let entries = try MovieStore.catalogueForCommand(at: data)
    let result: AppExport.Output
    do {
      result = try AppExport.export(
        MovieData.sortedByID(entries, id: \.movie.id), everySecond: everySecond)
    } catch {
      throw CommandFailure("\(data): cannot export: \(error)", status: .badInput)
    }
    if !result.unmappedLabels.isEmpty {
      Console.warning(
        "\(data): labels the app does not know were written as \"Neutral\": "
          + result.unmappedLabels.joined(separator: ", "))
    }
    guard let output else {
      _ = FileDescriptor.writeAll([UInt8](result.data), to: STDOUT_FILENO)
      return
    }
    if !overwrite && FileManager.default.fileExists(atPath: output) {
      throw CommandFailure(
        "\(output): already exists (use --overwrite to replace it)", status: .cannotWrite)
    }
    try createFolder(of: output)
    do {
      try DurableFile(output).write([UInt8](result.data))
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// Makes the folder `file` goes in when it does not exist yet (as `analyze --output` does).
func createFolder(of file: String) throws {
  let folder = PathText.deletingLastComponent(file)
  guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
  do {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  } catch {
    throw CommandFailure("\(file): cannot create its folder \(folder)", status: .cannotWrite)
  }
}
