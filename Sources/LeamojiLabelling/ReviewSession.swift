import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline

#if canImport(Glibc)
  import Glibc
#endif

/// `review`'s corrections without the terminal: an analysed video's timeline second by second,
/// moving between seconds and scenes, setting a label from the current second to the end of its
/// scene, and undoing.
///
/// Every correction is saved at once: first the entry in `MovieData.json` (its `userEdits` and
/// the markers with them applied, one durable write under the store's lock), then `<id>.vtt` /
/// `<id>.srt` beside it when they exist, then, with a training folder, each corrected second's
/// frame as PNG and the `label` journal. A process killed in between loses at most the
/// correction being written, and every file it leaves is whole.
public final class ReviewSession {
  /// What a key asked for, as far as the session is concerned.
  public enum Outcome: Equatable, Sendable {
    /// The label was set from `from` to `to` seconds; `filed` PNGs went to the training folder.
    case corrected(from: Double, to: Double, label: String, filed: Int)
    /// The scene already has that label from here on.
    case unchanged
    case undone(from: Double, label: String)
    case nothingToUndo
  }

  /// The video (its frames are shown and filed).
  public let video: String
  /// The timeline file.
  public let store: MovieStore
  /// The entry's id.
  public let id: String
  /// The labels the keys pick, in the model's order (key `1` is the first).
  public let labels: [String]
  /// The training folder corrected frames go to, or nil.
  public let folder: String?
  /// The entry as stored now (markers with every correction applied).
  public private(set) var movie: Movie
  /// Corrections made before this run (kept, and applied to the markers this run starts from).
  public let earlierEdits: [UserEdit]
  /// Corrections of this run, oldest first (`u` takes back the last).
  public private(set) var edits: [UserEdit] = []
  /// The whole second on screen.
  public private(set) var second = 0
  private let startMarkers: [Marker]
  private var filed: [[LabelJournal.Decision]] = []
  /// The entry before each correction of this run (what the filed frames' guesses come from).
  private var before: [Movie] = []
  private let encode: (RGBImage) throws(LeamojiError) -> [UInt8]

  /// A session over the entry for `video` in `store` (`id`, or the first of
  /// `MovieID.candidates(forVideo:)` the file has).
  /// - Throws: `LeamojiError` when the file cannot be read, has no entry for the video or
  ///   several (`MovieData.ambiguity`), or the entry has no markers.
  public init(
    video: String, store: MovieStore, id: String? = nil, folder: String? = nil,
    encode: @escaping (RGBImage) throws(LeamojiError) -> [UInt8] = ImageFiles.png
  ) throws(LeamojiError) {
    let catalogue: [CatalogueEntry]
    do {
      catalogue = try store.readCatalogue()
    } catch {
      throw LeamojiError.badInput(error.description)
    }
    let wanted = id.map { [$0] } ?? MovieID.candidates(forVideo: video)
    guard let entry = wanted.lazy.compactMap({ id in catalogue.first { $0.movie.id == id } }).first
    else {
      throw LeamojiError.badInput(
        "\(store.path): no entry for \(wanted.last ?? video); run `leamoji analyze \(video)` first")
    }
    if let ambiguity = MovieData.ambiguity(
      of: entry.movie.id, ids: catalogue.map(\.movie.id), path: store.path)
    {
      throw LeamojiError.badInput(ambiguity.description)
    }
    guard !entry.movie.markers.isEmpty else {
      throw LeamojiError.badInput(
        "\(store.path): entry \"\(entry.movie.id)\" has no markers; run `leamoji analyze \(video)` first"
      )
    }
    self.video = video
    self.store = store
    self.id = entry.movie.id
    self.folder = folder
    self.encode = encode
    movie = entry.movie
    startMarkers = entry.movie.markers
    earlierEdits = entry.userEdits
    var labels = entry.model?.labels ?? []
    if labels.isEmpty { labels = [Label.happy.name, Label.neutral.name, Label.scary.name] }
    for marker in entry.movie.markers where !labels.contains(marker.label) {
      labels.append(marker.label)
    }
    self.labels = labels
  }

  /// Whole seconds in the video (at least one).
  public var seconds: Int { max(1, Int(movie.duration.rounded(.up))) }

  /// Index into `movie.markers` of the scene on screen at `second`.
  public func scene(at second: Int) -> Int {
    max(0, (movie.markers.lastIndex { $0.second <= Double(second) + 0.0005 } ?? 0))
  }

  /// The scene on screen now.
  public var currentScene: Int { scene(at: second) }

  /// The marker of the scene on screen now.
  public var currentMarker: Marker { movie.markers[currentScene] }

  /// Where scene `index` ends (the next scene's start, or the end of the video).
  public func sceneEnd(_ index: Int) -> Double {
    index + 1 < movie.markers.count ? movie.markers[index + 1].second : movie.duration
  }

  /// Whether the second on screen lies in a stretch a person corrected (this run or earlier).
  public var isCorrected: Bool {
    (earlierEdits + edits).contains { $0.from <= Double(second) && Double(second) < $0.to }
  }

  /// Moves `step` seconds (clamped to the video).
  public func moveSecond(_ step: Int) {
    second = min(seconds - 1, max(0, second + step))
  }

  /// Moves to the start of the next (`step` 1) or previous (-1) scene; back from inside a
  /// scene goes to its start first.
  public func moveScene(_ step: Int) {
    let index = currentScene
    let start = Int(movie.markers[index].second.rounded(.up))
    var target: Int
    if step < 0 {
      target = second > start ? start : Int(movie.markers[max(0, index - 1)].second.rounded(.up))
    } else {
      target =
        index + 1 < movie.markers.count
        ? Int(movie.markers[index + 1].second.rounded(.up)) : second
    }
    target = min(seconds - 1, max(0, target))
    second = target
  }

  /// The edit `label` on the current second would make, or nil when the scene already has it.
  public func proposedEdit(_ label: String) -> UserEdit? {
    guard currentMarker.label != label else { return nil }
    let end = sceneEnd(currentScene)
    guard Double(second) < end else { return nil }
    return UserEdit(from: Double(second), to: end, label: label)
  }

  /// Sets `label` from the current second to the end of its scene and saves it in the timeline
  /// file and the subtitles; `fileLast` then files its frames when there is a training folder
  /// (two steps, so that the screen can answer in between).
  /// - Throws: `LeamojiError` when a file cannot be written; when the timeline cannot be, the
  ///   correction is not made.
  @discardableResult
  public func set(_ label: String) throws(LeamojiError) -> Outcome {
    guard let edit = proposedEdit(label) else { return .unchanged }
    let previous = movie
    edits.append(edit)
    do {
      try save()
    } catch {
      edits.removeLast()
      movie = previous
      throw error
    }
    filed.append([])
    before.append(previous)
    return .corrected(from: edit.from, to: edit.to, label: label, filed: 0)
  }

  /// Files the frames of the last correction in the training folder (see the type); returns how
  /// many (0 without a folder, or when they are filed already).
  /// - Parameter frame: the full-size frame at a second.
  @discardableResult
  public func fileLast(frame: (Double) throws(LeamojiError) -> RGBImage) throws(LeamojiError)
    -> Int
  {
    guard let folder, let edit = edits.last, let previous = before.last,
      filed.last?.isEmpty == true
    else { return 0 }
    let decisions = try file(edit, previous: previous, in: folder, frame: frame)
    filed[filed.count - 1] = decisions
    return decisions.count
  }

  /// `set` then `fileLast`.
  @discardableResult
  public func set(
    _ label: String, frame: (Double) throws(LeamojiError) -> RGBImage
  ) throws(LeamojiError) -> Outcome {
    guard case .corrected(let from, let to, let label, _) = try set(label) else {
      return .unchanged
    }
    let count = try fileLast(frame: frame)
    return .corrected(from: from, to: to, label: label, filed: count)
  }

  /// Takes back this run's last correction: the timeline as it was before it, the subtitles, and
  /// the PNGs it filed (with their journal entries).
  @discardableResult
  public func undo() throws(LeamojiError) -> Outcome {
    guard let edit = edits.popLast() else { return .nothingToUndo }
    let decisions = filed.popLast() ?? []
    let previous = before.popLast()
    do {
      try save()
    } catch {
      edits.append(edit)
      filed.append(decisions)
      if let previous { before.append(previous) }
      throw error
    }
    if let folder, !decisions.isEmpty {
      try unfile(decisions, in: folder)
    }
    second = min(seconds - 1, Int(edit.from.rounded(.up)))
    return .undone(from: edit.from, label: edit.label)
  }

  // MARK: - Files

  private func save() throws(LeamojiError) {
    let markers = UserEdits.apply(
      edits, to: startMarkers, duration: movie.duration, seekAhead: movie.seekAhead)
    do {
      movie = try store.storeEdits(id: id, markers: markers, edits: earlierEdits + edits)
    } catch {
      throw LeamojiError.cannotWrite(error.description)
    }
    try writeSubtitles()
  }

  /// Rewrites `<id>.vtt` / `<id>.srt` beside the timeline file when they are there.
  private func writeSubtitles() throws(LeamojiError) {
    let base = PathText.deletingLastComponent(DurableFile.followingLinks(store.path))
    for (ext, text) in [
      ("vtt", Subtitles.webVTT(markers: movie.markers, duration: movie.duration)),
      ("srt", Subtitles.srt(markers: movie.markers, duration: movie.duration)),
    ] {
      let name = "\(id).\(ext)"
      let path = PathText.appending(name, to: base)
      guard FileManager.default.fileExists(atPath: path) else { continue }
      do {
        try DurableFile(path).write(Array(text.utf8))
      } catch {
        throw LeamojiError(error)
      }
    }
  }

  /// Files each whole second of `edit` as `label` does: `<Label>/<id>-<second>.png`, then the
  /// journal. A second decided earlier is decided again (its old PNG removed).
  private func file(
    _ edit: UserEdit, previous: Movie, in folder: String,
    frame: (Double) throws(LeamojiError) -> RGBImage
  ) throws(LeamojiError) -> [LabelJournal.Decision] {
    let naming = try LabelSession(folder: folder, testShare: 0, labels: labels, items: [])
    var journal = naming.journal
    var decisions: [LabelJournal.Decision] = []
    var seconds: [(time: Double, name: String)] = []
    var time = edit.from.rounded(.up)
    while time < edit.to {
      seconds.append((time, LabelSources.frameName(videoID: id, time: time)))
      time += 1
    }
    // Seconds decided earlier: forgotten by the journal first, then their PNGs removed, so that
    // a process killed in between leaves a PNG nobody recorded, never a record without its PNG.
    let names = Set(seconds.map(\.name))
    let earlier = journal.decisions.filter { names.contains($0.item) }
    if !earlier.isEmpty {
      try unfile(earlier, in: folder, journal: &journal)
    }
    let labelFolder = naming.folderName(for: edit.label, in: folder)
    for (time, name) in seconds {
      let file = labelFolder + "/" + name + ".png"
      let old = previous.markers.last { $0.second <= time + 0.0005 }
      let path = PathText.appending(file, to: folder)
      do {
        try FileManager.default.createDirectory(
          atPath: PathText.deletingLastComponent(path), withIntermediateDirectories: true)
        try DurableFile(path).write(try encode(try frame(time)))
      } catch let error as LeamojiError {
        throw error
      } catch let error as DurableFileError {
        throw LeamojiError(error)
      } catch {
        throw LeamojiError.cannotWrite(
          "\(path): cannot write (\(ErrorText.describe(error)))")
      }
      let decision = LabelJournal.Decision(
        item: name, label: edit.label, file: file, test: false, guess: old?.label,
        confidence: old.map { ($0.confidence * 10_000).rounded() / 10_000 })
      journal.decisions.append(decision)
      decisions.append(decision)
    }
    try journal.write(folder: folder)
    return decisions
  }

  private func unfile(_ decisions: [LabelJournal.Decision], in folder: String) throws(LeamojiError)
  {
    var journal = try LabelJournal.read(folder: folder)
    try unfile(decisions, in: folder, journal: &journal)
  }

  /// Takes `decisions` out of the journal and writes it, then removes their PNGs (and a label
  /// folder left empty): a kill in between leaves an unrecorded PNG, not a record of a missing
  /// one.
  private func unfile(
    _ decisions: [LabelJournal.Decision], in folder: String, journal: inout LabelJournal
  ) throws(LeamojiError) {
    let items = Set(decisions.map(\.item))
    journal.decisions.removeAll { items.contains($0.item) }
    try journal.write(folder: folder)
    for decision in decisions {
      try LabelSession.removePicture(
        of: decision, in: folder, testFolder: LabelSession.testFolder(for: folder))
    }
  }
}
