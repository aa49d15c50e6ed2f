import FoundationEssentials
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline
import LeamojiVideo

/// Everything `analyze` decides once for a batch of videos, and the per-video steps: analyse,
/// write the poster, merge the entry into the timeline file, write subtitles. Shared read-only
/// by concurrent jobs.
public struct AnalysisPlan: Sendable {
  /// How readily a second is called scary (`analyze --sensitivity`): a missed frightening
  /// scene against a warning on a calm one. A model whose card records a tuned threshold `t`
  /// (`ModelCard.scaryThreshold`) sets `normal`; `high` and `low` are the card's own tuned ones
  /// when it records them, else they halve the distance to 0 and to 1.
  public enum Sensitivity: Equatable, Sendable {
    /// Scary only from a scary probability of 0.7 (or (1 + t) / 2): fewer warnings, more missed.
    case low
    /// The model's tuned threshold, else the most probable label (the model's own balance).
    case normal
    /// Scary from a scary probability of 0.3 (or t / 2): more warnings, fewer missed.
    case high
    /// Scary from this scary probability (0 < p < 1).
    case threshold(Double)

    /// The encoder's `scaryThreshold` for a model whose card's tuned thresholds are `tuned`
    /// (normal), `high` and `low`.
    public func scaryThreshold(tuned: Double?, high: Double? = nil, low: Double? = nil) -> Double? {
      switch self {
      case .low: return low ?? tuned.map { ModelCard.sensitivityDefaults(normal: $0).low } ?? 0.7
      case .normal: return tuned
      case .high: return high ?? tuned.map { ModelCard.sensitivityDefaults(normal: $0).high } ?? 0.3
      case .threshold(let p): return p
      }
    }

    /// `low`, `normal`, `high` or a probability strictly between 0 and 1; nil otherwise.
    public init?(parsing text: String) {
      switch text.lowercased() {
      case "low": self = .low
      case "normal": self = .normal
      case "high": self = .high
      default:
        guard let p = Double(text), p > 0, p < 1 else { return nil }
        self = .threshold(p)
      }
    }
  }

  /// What to produce for each video.
  public struct Options: Sendable {
    /// Seconds a cue appears before its scene.
    public var seekAhead: Double = 5
    /// Seconds between samples.
    public var interval: Double = 1
    /// Store every sample's label and probabilities in the entry.
    public var includeFrames = false
    /// Write `<id>.jpg` beside the timeline file.
    public var poster = true
    /// Write `<id>.vtt` / `<id>.srt` beside the timeline file.
    public var vtt = false
    public var srt = false
    /// Title and description given by the user (kept over edited ones in the file).
    public var title: String? = nil
    public var description: String? = nil
    /// Decode every frame instead of only those the samples need (`--decode-all`).
    public var decodeEverything = false
    /// Threads one video may classify on: all cores, shared by the videos analysed at once.
    public var threads = Classifier.defaultThreads
    /// How readily a second is called scary; `normal` follows the model card's tuned threshold.
    public var sensitivity = Sensitivity.normal
    /// Which signals may call a second scary (`--signals`): the picture, the sound (with the
    /// picture's pace) and sudden scares. With the picture alone the sound is not decoded.
    public var signals: Set<Signal> = Set(Signal.allCases)
    /// The audio stream to listen to, counted from 0 among the file's audio streams
    /// (`--audio-stream`); nil: the first one.
    public var audioStream: Int? = nil

    /// Whether the sound is decoded at all.
    public var listens: Bool { signals.contains(.sound) || signals.contains(.sudden) }

    public init() {}
  }

  /// What one video's analysis stored.
  public struct Stored: Sendable {
    /// The entry as it now is in the timeline file.
    public let movie: Movie
    /// The label of every sample after smoothing (the timeline's, second by second).
    public let labels: [Label]
    /// Whether an entry with the same id was replaced.
    public let replaced: Bool
    public let corruptPackets: Int
    /// How the video was decoded (for `--verbose`).
    public let decodingNote: String
    /// Why the sound was left out although it was asked for (a warning), if it was.
    public let soundNote: String?
    /// The audio stream listened to (for `--verbose`), e.g. `audio stream 0 (aac, 48000 Hz, 2
    /// channels)`; nil when none was.
    public let audioStream: String?
    /// The warning line when the video's timeline was cut short at an implausible hold
    /// (`TimelineBound`), else nil.
    public let timelineNote: String?
    /// Where the last sampled picture's second ends; before `movie.duration` when a damaged or
    /// cut file stops early.
    public let picturesEnd: Double
  }

  public let classifier: Classifier
  public let modelInfo: ModelInfo
  public let store: MovieStore
  /// The ids of the timeline file's entries when the plan was made (read once, so that an id
  /// two entries hold is refused before a video's work; `merge` checks again under its lock).
  let idsInFile: [String]
  /// How samples become labels and markers: the interval, the cue lead and the scary
  /// threshold that `sensitivity` and the model card give, decided once for every video.
  public let encoder: MarkerEncoder
  /// How each video's samples are classified.
  public let batching: VideoAnalysis.Batching
  /// How sound and pace become each second's signals (the model card's, or the standard).
  public let fusion: FusionSettings
  /// The timeline file's folder ("" for the current folder): posters and subtitles go there.
  public let folder: String
  public let options: Options

  /// A plan that merges into the timeline file at `output`, creating its folder if needed.
  /// `idsInFile` are the file's entry ids when the caller has just read it (`play` looks the
  /// video up first), so that it is not read again; nil reads them here.
  /// - Throws: `LeamojiError` when the folder cannot be made or the existing file is malformed
  ///   (checked before any work, and never overwritten).
  public init(
    model: LoadedModel, output: String, options: Options, idsInFile: [String]? = nil
  ) throws(LeamojiError) {
    self.classifier = model.classifier
    self.modelInfo = model.info
    self.folder = PathText.deletingLastComponent(output)
    self.store = MovieStore(path: output)
    self.options = options
    var encoder = MarkerEncoder(
      labels: classifier.labels, interval: options.interval, seekAhead: options.seekAhead)
    encoder.scaryThreshold = options.sensitivity.scaryThreshold(
      tuned: classifier.card.scaryThreshold, high: classifier.card.scaryThresholdHigh,
      low: classifier.card.scaryThresholdLow)
    let fusion = classifier.card.fusion ?? .standard
    encoder.fusion = SignalFusion(
      signals: options.signals, soundWeight: fusion.soundWeight, soundMargin: fusion.soundMargin,
      pictureFloor: fusion.pictureFloor)
    self.fusion = fusion
    self.encoder = encoder
    self.batching = VideoAnalysis.Batching(classifier: classifier, threads: options.threads)
    try Self.createFolder(folder, for: output)
    if let idsInFile {
      self.idsInFile = idsInFile
      return
    }
    do {
      self.idsInFile = try store.ids()
    } catch {
      throw LeamojiError.badInput(error.description)
    }
  }

  /// Analyses one video and stores its entry under `id`; returns the entry as stored.
  /// - Throws: `LeamojiError` (bad input, before any work) when two entries of the file have
  ///   `id` (`MovieData.ambiguity`), and for what the analysis or the store refuse.
  public func analyze(
    path: String, id: String, progress: (Int, Int?) -> Void
  ) throws(LeamojiError) -> Stored {
    // Two entries with this id in the file: refuse before the work, not after it.
    if let ambiguity = MovieData.ambiguity(of: id, ids: idsInFile, path: store.path) {
      throw LeamojiError.badInput(ambiguity.description)
    }
    let analysis = try VideoAnalysis.run(
      path: path, classifier: classifier, interval: options.interval, batching: batching,
      poster: options.poster, decodeEverything: options.decodeEverything,
      listening: options.listens
        ? VideoAnalysis.Listening(audioStream: options.audioStream, fusion: fusion) : nil,
      labelling: encoder, progress: progress)
    let timeline = encoder.encode(analysis.scores)
    // A timeline cut short at an implausible hold ends there, not at the length claimed.
    let duration =
      analysis.timelineBound?.end ?? analysis.info.duration ?? Double(analysis.scores.count)
      * options.interval

    var posterName: String? = nil
    if options.poster, let image = analysis.poster {
      let name = "\(id).jpg"
      let jpeg: [UInt8]
      do {
        jpeg = try ImageCodec.encodeJPEG(image, quality: 88)
      } catch {
        throw LeamojiError(error)
      }
      try write(jpeg, name: name)
      posterName = name
    }
    let movie = Movie(
      id: id, title: options.title ?? analysis.info.title ?? id,
      description: options.description ?? analysis.info.comment ?? "",
      duration: (duration * 1000).rounded() / 1000, markers: timeline.markers, model: modelInfo,
      poster: posterName, seekAhead: options.seekAhead,
      frames: options.includeFrames ? timeline.frames : nil, events: timeline.events)
    let result: MergeResult
    do {
      result = try store.merge([
        MovieUpdate(
          movie: movie, titleGiven: options.title != nil,
          descriptionGiven: options.description != nil)
      ])
    } catch {
      throw LeamojiError.cannotWrite(error.description)
    }
    let stored = result.movies.first { $0.id == id } ?? movie
    if options.vtt {
      let text = Subtitles.webVTT(markers: stored.markers, duration: stored.duration)
      try write(Array(text.utf8), name: "\(id).vtt")
    }
    if options.srt {
      let text = Subtitles.srt(markers: stored.markers, duration: stored.duration)
      try write(Array(text.utf8), name: "\(id).srt")
    }
    return Stored(
      movie: stored, labels: timeline.labels, replaced: result.replacedIDs.contains(id),
      corruptPackets: analysis.corruptPackets, decodingNote: analysis.decodingNote,
      soundNote: analysis.soundProblem,
      audioStream: analysis.audioStream?.summary,
      timelineNote: analysis.timelineBound?.note,
      picturesEnd: (analysis.scores.last?.second ?? -options.interval) + options.interval)
  }

  private func write(_ bytes: [UInt8], name: String) throws(LeamojiError) {
    let path = PathText.appending(name, to: folder)
    do {
      try DurableFile(path).write(bytes)
    } catch {
      throw LeamojiError(error)
    }
  }

  /// Makes the timeline file's folder when it does not exist yet, so posters and subtitles
  /// have somewhere to go.
  private static func createFolder(_ folder: String, for output: String) throws(LeamojiError) {
    guard !folder.isEmpty else { return }
    var isDirectory = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
      if !isDirectory {
        throw LeamojiError.cannotWrite(
          "\(output): cannot write (\(folder) is not a folder)")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw LeamojiError.cannotWrite("\(output): cannot create its folder \(folder)")
    }
  }
}
