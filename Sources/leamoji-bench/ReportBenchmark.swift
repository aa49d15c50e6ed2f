import ArgumentParser
import Foundation
import LeamojiReport

extension LeamojiBench {
  /// `leamoji-bench report`: how long `leamoji report` takes on a large generated catalogue.
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "leamoji report on a generated catalogue: first run, re-runs, index size.",
      discussion: """
        Generates a catalogue of --films films with a poster each (GeneratedCatalogue), then \
        times the leamoji binary beside leamoji-bench: a first report into a new folder, a \
        re-run with nothing changed, and a re-run after one film's title changed. Prints the \
        size of index.html (without images) and of the whole site. Goals: first run \
        at most 10 s and a re-run with one film changed at most 1 s for 1,000 films, index.html \
        at most 100 KB.

        Examples:
          leamoji-bench report
          leamoji-bench report --films 200 --leamoji .build/release/leamoji
        """
    )

    @Option(help: ArgumentHelp("Films in the generated catalogue.", valueName: "n"))
    var films = 1000

    @Option(
      help: ArgumentHelp("The leamoji binary (default: beside leamoji-bench).", valueName: "path"))
    var leamoji: String?

    @Option(
      help: ArgumentHelp(
        "Make the catalogue and the site in this folder and keep them (default: a temporary folder, removed).",
        valueName: "folder"))
    var keep: String?

    func run() throws {
      let binary =
        leamoji
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("leamoji").path
      let folder =
        keep.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent(
          "leamoji-bench-report-\(getpid())")
      defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
      let data = try GeneratedCatalogue.write(count: films, to: folder.path)
      let site = folder.appendingPathComponent("site").path
      let arguments = ["report", "--data", data, "--out", site]
      print("leamoji report, \(films) generated films with posters (\(binary))")
      let first = try timed(binary, arguments)
      print(String(format: "  first run, new folder:        %7.2f s   (goal <= 10 s)", first))
      let same = try timed(binary, arguments)
      print(String(format: "  re-run, nothing changed:      %7.2f s", same))
      var text = try String(contentsOfFile: data, encoding: .utf8)
      guard let range = text.range(of: "\"title\" : \"The ") else {
        throw ValidationError("the generated catalogue has no title")
      }
      text.replaceSubrange(range, with: "\"title\" : \"A Changed ")
      try Data(text.utf8).write(to: URL(fileURLWithPath: data))
      let changed = try timed(binary, arguments)
      print(String(format: "  re-run, one film changed:     %7.2f s   (goal <= 1 s)", changed))
      let index = try size(of: site + "/index.html")
      let assets = try size(of: site + "/leamoji.css") + size(of: site + "/leamoji.js")
      print(
        "  index.html: \(index) bytes (goal <= 100,000); with leamoji.css and .js: \(index + assets)"
      )
      print("  whole site: \(try folderSize(site)) bytes (posters included)")
    }

    /// Runs `binary` with `arguments` and returns the wall-clock seconds; fails unless it exits 0.
    private func timed(_ binary: String, _ arguments: [String]) throws -> Double {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      let start = Date()
      try process.run()
      process.waitUntilExit()
      let seconds = Date().timeIntervalSince(start)
      guard process.terminationStatus == 0 else {
        throw ValidationError(
          "leamoji \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
      }
      return seconds
    }

    private func size(of path: String) throws -> Int {
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    private func folderSize(_ path: String) throws -> Int {
      var total = 0
      let enumerator = FileManager.default.enumerator(atPath: path)
      while let name = enumerator?.nextObject() as? String {
        total += (try? size(of: path + "/" + name)) ?? 0
      }
      return total
    }
  }
}
