import LeamojiCore
import LeamojiNN

/// Why a `TrainingPlan` stopped: one line naming the folder, file or option, under the kind of
/// problem it is (a front end maps the kinds to its answers: the CLI to its exit statuses).
public struct TrainingError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Equatable, Sendable {
    /// The options do not fit the data or the starting model (`--freeze` too large, an
    /// `--input-size` the `--init` model does not take, a bad `$SOURCE_DATE_EPOCH`, ...).
    case usage
    /// A folder or model file does not exist, is not a folder, or cannot be read.
    case noInput
    /// A folder or model file is not usable (no labels, no readable image, not a backbone, ...).
    case badInput
    /// The model file could not be written, or would replace a file.
    case cannotWrite
    /// Training itself failed.
    case failed
  }

  public let kind: Kind
  /// The one line, e.g. `Training Data: no such folder`.
  public let message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }

  /// A labelled folder's problem: a missing or unreadable folder is no input, the rest bad input.
  init(_ error: DatasetError) {
    self.init(error.isMissingInput ? .noInput : .badInput, error.description)
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
