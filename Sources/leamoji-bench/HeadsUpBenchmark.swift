import ArgumentParser
import Dispatch
import Foundation
import LeamojiCore
import LeamojiTimeline

extension LeamojiBench {
  /// `leamoji-bench heads-up`: the per-film heads-up of a long film from its stored timeline.
  struct HeadsUp: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "heads-up",
      abstract: "The heads-up of a 90-minute film from its stored timeline: write, load, compute.",
      discussion: """
        Builds a film of --minutes minutes with a frame (p(scary), intensity, firedBy) for every \
        second, a marker at each change of a seeded mood pattern and sudden scares, writes it \
        to MovieData.json (MovieStore), reads it back, and times FilmHeadsUp on it. Goal \
        (issue 38): the heads-up of a 90-minute film in under a second from its stored timeline.

        Examples:
          leamoji-bench heads-up
          leamoji-bench heads-up --minutes 180 --runs 2000
        """
    )

    @Option(help: ArgumentHelp("Length of the generated film.", valueName: "minutes"))
    var minutes = 90

    @Option(help: ArgumentHelp("Heads-ups computed to time one.", valueName: "n"))
    var runs = 1000

    func validate() throws {
      guard (1...10_000).contains(minutes) else {
        throw ValidationError("--minutes must be 1...10000")
      }
      guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "leamoji-bench-headsup-\(getpid())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let path = folder.appendingPathComponent("MovieData.json").path
      let movie = Self.film(seconds: minutes * 60)
      let store = MovieStore(path: path)

      let written = try seconds { _ = try store.merge([MovieUpdate(movie: movie)]) }
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      var entries: [CatalogueEntry] = []
      let loaded = try seconds { entries = try store.readCatalogue() }
      guard let entry = entries.first else { throw ValidationError("the film was not read back") }
      let current = ModelIdentity(sha256: movie.model.sha256, version: "bench")
      var headsUp = FilmHeadsUp(entry: entry, current: current)
      let all = try seconds {
        for _ in 0..<runs { headsUp = FilmHeadsUp(entry: entry, current: current) }
      }
      print(
        "heads-up of a \(minutes)-minute film: \(movie.frames?.count ?? 0) frames, "
          + "\(movie.markers.count) markers, \(movie.events?.count ?? 0) sudden scares")
      print("  MovieData.json: \(size) bytes")
      print(String(format: "  write it (MovieStore.merge):   %8.3f s", written))
      print(String(format: "  read it back (MovieStore):     %8.3f s", loaded))
      print(
        String(
          format: "  heads-up (FilmHeadsUp):        %8.3f ms  (mean of %d runs)",
          all / Double(runs) * 1000, runs))
      print(
        String(
          format: "  read + heads-up:               %8.3f s   (goal < 1 s)",
          loaded + all / Double(runs)))
      print("  " + HeadsUpText.headline(headsUp))
    }

    /// Wall-clock seconds of `body`.
    private func seconds(_ body: () throws -> Void) rethrows -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// A film of `seconds` seconds: scenes of 20 to 200 s of a seeded random mood, one frame
    /// per second, a sudden scare every ten minutes.
    static func film(seconds: Int) -> Movie {
      var rng = SplitMix64(seed: 38)
      let labels = ["happy", "neutral", "scary"]
      var markers: [Marker] = []
      var frames: [FrameScore] = []
      var second = 0
      while second < seconds {
        let label = labels[Int(rng.next() % 3)]
        let length = 20 + Int(rng.next() % 181)
        if markers.last?.label != label {
          markers.append(
            Marker(
              confidence: 0.7, cueAt: Double(max(0, second - 5)), emoji: Label(name: label).emoji,
              label: label, second: Double(second),
              firedBy: label == "scary" ? ["picture", "sound"] : nil))
        }
        for s in second..<min(seconds, second + length) {
          let p = label == "scary" ? 0.5 + Double(rng.next() % 5000) / 10000 : 0.05
          frames.append(
            FrameScore(
              second: Double(s), label: label,
              probabilities: ["happy": (1 - p) / 2, "neutral": (1 - p) / 2, "scary": p],
              intensity: Double(rng.next() % 10000) / 10000,
              firedBy: label == "scary" ? ["picture"] : nil))
        }
        second += length
      }
      let events = stride(from: 300, to: seconds, by: 600).map {
        TimelineEvent(cueAt: Double($0 - 5), kind: TimelineEvent.sudden, second: Double($0))
      }
      return Movie(
        id: "long-film", title: "A Long Film", duration: Double(seconds), markers: markers,
        model: ModelInfo(labels: labels, sha256: String(repeating: "ab", count: 32)),
        seekAhead: 5, frames: frames, events: events)
    }
  }
}
