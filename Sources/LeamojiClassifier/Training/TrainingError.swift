import LeamojiCore
import LeamojiNN

/// Why a `TrainingPlan` stopped: one line naming the folder, file or option, under the kind of
/// problem it is (a front end maps the kinds to its answers: the CLI to its exit statuses).
public struct TrainingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `usage`: the options do not fit the data or the starting model; `noInput`: a folder or
  /// model file does not exist, is not a folder, or cannot be read; `badInput`: a folder or
  /// model file is not usable (no labels, no readable image, not a backbone, ...);
  /// `cannotWrite`: the model file could not be written, or would replace a file; `failed`:
  /// training itself failed.
  public let kind: ProblemKind
  /// The one line, e.g. `Training Data: no such folder`.
  public let message: String

  public init(_ kind: ProblemKind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }

  /// A labelled folder's problem: a missing or unreadable folder is no input, the rest bad input.
  init(_ error: DatasetError) {
    self.init(error.kind, error.description)
  }

  /// A model file that is missing, unreadable (no input) or malformed (bad input).
  init(_ error: ModelFileError) {
    self.init(error.isMissingInput ? .noInput : .badInput, error.description)
  }

  /// The model file could not be written.
  init(_ error: DurableFileError) {
    self.init(.cannotWrite, error.description)
  }
}
