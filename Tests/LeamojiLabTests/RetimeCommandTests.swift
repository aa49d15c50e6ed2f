import Foundation
import LeamojiCore
import LeamojiTestSupport
import LeamojiTimeline
import Testing

@Suite("leamoji-lab retime: analyze's timeline at other thresholds")
struct RetimeCommandTests {
  /// One output line, decoded.
  struct Line: Decodable, Equatable {
    let id: String
    let threshold: Double?
    let labels: [String]
  }

  static func lines(_ output: String) throws -> [Line] {
    try output.split(separator: "\n").map {
      try JSONDecoder().decode(Line.self, from: Data($0.utf8))
    }
  }

  /// 60 seconds of scores whose scary probability wanders through scenes, each probability a
  /// whole number of ten-thousandths (what MovieData.json keeps), so the file holds them exactly.
  static func scores(seed: UInt64) -> [SecondScore] {
    var random = SplitMix64(seed: seed)
    var scary = 0.2
    return (0..<60).map { second in
      if second % 6 == 0 { scary = Double(random.next() % 9_000) / 10_000 + 0.05 }
      let jitter = Double(Int(random.next() % 2_001) - 1_000) / 10_000
      var p = (min(0.99, max(0.01, scary + jitter)) * 10_000).rounded() / 10_000
      // Not on a threshold the test asks for, where the Float the file is read as may differ.
      if Int(p * 10_000) % 500 == 0 { p += 0.0001 }
      let happy = ((1 - p) * Double(random.next() % 10_000) / 10_000 * 10_000).rounded() / 10_000
      let probabilities = [happy, ((1 - p - happy) * 10_000).rounded() / 10_000, p]
      return SecondScore(
        second: Double(second),
        probabilities: probabilities.map { Float(($0 * 10_000).rounded() / 10_000) })
    }
  }

  static func encoder(_ threshold: Double?) -> MarkerEncoder {
    var encoder = MarkerEncoder(labels: Label.standard, interval: 1)
    encoder.scaryThreshold = threshold
    return encoder
  }

  @Test("a generated MovieData: each threshold's labels are the encoder's, and they change with it")
  func generated() throws {
    let work = try ScratchFolder.url("lab-retime")
    defer { try? FileManager.default.removeItem(at: work) }
    let model = ModelInfo(
      labels: ["happy", "neutral", "scary"], sha256: String(repeating: "0", count: 64))
    var movies: [Movie] = []
    for (id, seed) in [("first", UInt64(1)), ("second", UInt64(2))] {
      let timeline = Self.encoder(0.35).encode(Self.scores(seed: seed))
      // Frames in any order: retime puts them in time order, as analyze does.
      movies.append(
        Movie(
          id: id, title: id, duration: 60, markers: timeline.markers, model: model, seekAhead: 5,
          frames: timeline.frames.reversed()))
    }
    movies.append(
      Movie(id: "noframes", title: "x", duration: 3, markers: [], model: model, seekAhead: 5))
    let file = work.appendingPathComponent("MovieData.json")
    try MovieData.encode(movies).write(to: file)

    let run = try Lab.run(["retime", file.path, "--thresholds", "0.35,0.6,none"])
    try #require(run.status == 0, "\(run.stderr)")
    let lines = try Self.lines(run.stdout)
    #expect(lines.map(\.id) == ["first", "first", "first", "second", "second", "second"])
    #expect(lines.map(\.threshold) == [0.35, 0.6, nil, 0.35, 0.6, nil])
    for line in lines {
      let scores = Self.scores(seed: line.id == "first" ? 1 : 2)
      let want = Self.encoder(line.threshold).encode(scores).labels.map(\.name)
      #expect(line.labels == want, "\(line.id) at \(String(describing: line.threshold))")
    }
    // What analyze wrote (the frames' own labels) at the threshold it ran with.
    let written = movies[0].frames!.reversed().map(\.label)
    #expect(lines[0].labels == written)
    #expect(lines[0].labels != lines[1].labels, "a higher threshold calls fewer seconds scary")
    #expect(
      lines[0].labels.filter { $0 == "scary" }.count
        > lines[1].labels.filter { $0 == "scary" }.count)

    let range = try Lab.run(["retime", file.path, "--from", "0.3", "--to", "0.4", "--step", "0.05"])
    #expect(try Self.lines(range.stdout).prefix(3).map(\.threshold) == [0.3, 0.35, 0.4])
    #expect(try Self.lines(range.stdout)[1].labels == lines[0].labels)
  }

  /// The contract itself: what analyze writes at one threshold, re-derived from what it wrote at
  /// another. Night Walk's scary scene has p(scary) 0.45 to 0.54 (model 2.6), so 0.3 and 0.515 differ.
  @Test("analyze at 0.3 and at 0.515, both re-derived from the first's frames")
  func analyzeTimelines() throws {
    let work = try ScratchFolder.url("lab-retime-analyze")
    defer { try? FileManager.default.removeItem(at: work) }
    var written: [Double: [String]] = [:]
    var firstFile: URL?
    for threshold in [0.3, 0.515] {
      let file = work.appendingPathComponent("\(threshold).json")
      let run = try Lab.leamoji([
        "analyze", Repository.sampleVideo("night-walk"), "--frames", "--signals", "picture",
        "--no-poster", "--sensitivity", "\(threshold)", "--output", file.path,
      ])
      try #require(run.status == 0, "\(run.stderr)")
      let movie = try #require(MovieData.decode(Data(contentsOf: file), path: file.path).first)
      let frames = try #require(movie.frames)
      // A probability within the file's rounding of a threshold could go either way.
      for frame in frames {
        let p = frame.probabilities["scary"] ?? 0
        try #require(abs(p - 0.3) > 0.00005 && abs(p - 0.515) > 0.00005)
      }
      written[threshold] = frames.sorted { $0.second < $1.second }.map(\.label)
      if firstFile == nil { firstFile = file }
    }
    #expect(written[0.3] != written[0.515])
    let run = try Lab.run(["retime", try #require(firstFile).path, "--thresholds", "0.3,0.515"])
    try #require(run.status == 0, "\(run.stderr)")
    let lines = try Self.lines(run.stdout)
    #expect(lines.map(\.threshold) == [0.3, 0.515])
    #expect(lines.first?.labels == written[0.3])
    #expect(lines.last?.labels == written[0.515])
  }

  @Test("a recorded probability reaches a threshold it equals: 0.38 is scary at 0.38")
  func recordedProbabilityAtThreshold() throws {
    let work = try ScratchFolder.url("lab-retime-equal")
    defer { try? FileManager.default.removeItem(at: work) }
    let frames = (0..<4).map { second in
      FrameScore(
        second: Double(second), label: "neutral",
        probabilities: ["happy": 0.1, "neutral": 0.52, "scary": second < 2 ? 0.1 : 0.38])
    }
    let movie = Movie(
      id: "edge", title: "edge", duration: 4, markers: [],
      model: ModelInfo(labels: ["happy", "neutral", "scary"], sha256: ""), seekAhead: 5,
      frames: frames)
    let file = work.appendingPathComponent("MovieData.json")
    try MovieData.encode([movie]).write(to: file)
    let run = try Lab.run(["retime", file.path, "--thresholds", "0.38,0.3801,none"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(
      try Self.lines(run.stdout).map(\.labels) == [
        ["neutral", "neutral", "scary", "scary"], Array(repeating: "neutral", count: 4),
        Array(repeating: "neutral", count: 4),
      ])
  }

  @Test("bad thresholds, a missing or malformed file: one line, the status")
  func refusals() throws {
    let work = try ScratchFolder.url("lab-retime-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    let bad = work.appendingPathComponent("bad.json")
    try Data("{not json".utf8).write(to: bad)
    let data = Repository.sampleCatalogue.path
    for (arguments, status) in [
      ([data], Int32(64)),
      ([data, "--thresholds", "0.3,1"], 64),
      ([data, "--thresholds", "0.3", "--step", "0.1"], 64),
      ([data, "--from", "0.5", "--to", "0.4", "--step", "0.1"], 64),
      ([data, "--from", "0.1", "--to", "0.9", "--step", "0"], 64),
      ([work.appendingPathComponent("none.json").path, "--thresholds", "0.3"], 66),
      ([bad.path, "--thresholds", "0.3"], 65),
    ] {
      let result = try Lab.run(["retime"] + arguments)
      #expect(result.status == status, "\(arguments): \(result.status) \(result.stderr)")
      #expect(result.stderrLines.count == 1 && result.stdout.isEmpty, "\(result.stderr)")
    }
  }
}
