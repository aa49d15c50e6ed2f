import FoundationEssentials
import LeamojiClassifier
import LeamojiCore
import LeamojiNN

/// The model-card fields to set on an existing model file (`leamoji-lab card`), so that what is
/// learnt after training — the scary thresholds tuned on a check set, the evaluation's figures —
/// goes on the card without training again. Nil fields keep the card's value.
///
/// The file is read as the classifier `leamoji` loads and written with the card replaced, as
/// `leamoji train` writes it: a model trained with these fields and one trained without them and
/// edited here are the same bytes.
public struct CardEdit: Equatable, Sendable {
  public var author: String?
  public var description: String?
  public var license: String?
  public var modelVersion: String?
  /// As `train --created`: ISO 8601 or seconds since 1970; written as ISO 8601 UTC.
  public var created: String?
  public var evaluation: String?
  public var scaryThreshold: Double?
  public var scaryThresholdHigh: Double?
  public var scaryThresholdLow: Double?

  public init() {}

  /// Whether the edit sets nothing.
  public var isEmpty: Bool { self == CardEdit() }

  /// The problem with the options alone, as `train` words it, or nil: a date that is not one, a
  /// threshold outside (0, 1).
  public var problem: String? {
    if let created, ModelCard.date(parsing: created) == nil { return ModelCard.createdExpected }
    // Each alone: whether they fit together is a question for the edited card.
    return ModelCard.thresholdRangeProblem(
      normal: scaryThreshold, high: scaryThresholdHigh, low: scaryThresholdLow)
  }

  /// `card` with the edit's fields set.
  /// - Throws: `LabError` `.usage` for what `problem` names, and for thresholds that do not fit
  ///   together on the edited card (high and low without a normal one, or not
  ///   high ≤ normal ≤ low, the unset ones taken as `analyze` takes them).
  public func applied(to card: ModelCard) throws(LabError) -> ModelCard {
    if let problem { throw LabError(.usage, problem) }
    var card = card
    if let author { card.author = author }
    if let description { card.description = description }
    if let license { card.license = license }
    if let modelVersion { card.modelVersion = modelVersion }
    if let created, let date = ModelCard.date(parsing: created) {
      card.created = ModelCard.timestamp(date)
    }
    if let evaluation { card.evaluation = evaluation }
    let thresholdNames = ["scary_threshold", "scary_threshold_high", "scary_threshold_low"]
    if scaryThreshold != nil || scaryThresholdHigh != nil || scaryThresholdLow != nil,
      let carried = card.training?.carried, carried.contains(where: thresholdNames.contains)
    {
      // Thresholds a taught model carried from its base: `train --init` given any threshold
      // carries none of the three, so the edit does as it would have done.
      card.scaryThreshold = nil
      card.scaryThresholdHigh = nil
      card.scaryThresholdLow = nil
      let kept = carried.filter { !thresholdNames.contains($0) }
      card.training?.carried = kept.isEmpty ? nil : kept
    }
    if let scaryThreshold { card.scaryThreshold = scaryThreshold }
    if let scaryThresholdHigh { card.scaryThresholdHigh = scaryThresholdHigh }
    if let scaryThresholdLow { card.scaryThresholdLow = scaryThresholdLow }
    if let problem = ModelCard.thresholdsProblem(
      normal: card.scaryThreshold, high: card.scaryThresholdHigh, low: card.scaryThresholdLow)
    {
      throw LabError(.usage, problem)
    }
    return card
  }

  /// Writes the model file at `model` again to `output` with the edit applied to its card,
  /// atomically (`DurableFile`: a reader sees the old file or the whole new one). Only the
  /// card's metadata entries change: the tensors and every other entry are the file's own.
  /// - Returns: the card written.
  /// - Throws: `LabError`: `.usage` as `applied(to:)`; `.cannotWrite` when `output` exists and
  ///   `overwrite` is false, or cannot be written; `.noInput` / `.badInput` for a model file that
  ///   is missing or unreadable / not a model `leamoji` loads (as `leamoji` reports it).
  @discardableResult
  public func write(model: String, to output: String, overwrite: Bool) throws(LabError)
    -> ModelCard
  {
    if let problem { throw LabError(.usage, problem) }
    if !overwrite, FileManager.default.fileExists(atPath: output) {
      throw LabError(
        .cannotWrite, "\(output): already exists; choose another --output or pass --overwrite")
    }
    let classifier: Classifier
    var contents: SafetensorsFile
    do {
      let read = try Classifier.read(path: model)
      classifier = read.classifier
      contents = try SafetensorsFile.decode(read.bytes, path: model)
    } catch {
      throw LabError(error.isMissingInput ? .noInput : .badInput, error.description)
    }
    let card = try applied(to: classifier.card)
    // The card's entries as `train` writes them (`Classifier.fileContents`), in place of the old.
    let written = classifier.with(card: card).fileContents.metadata
    for key in ModelCard.keys { contents.metadata[key] = written[key] }
    do {
      try DurableFile(output).write(contents.encoded())
    } catch {
      throw LabError(.cannotWrite, error.description)
    }
    return card
  }
}
