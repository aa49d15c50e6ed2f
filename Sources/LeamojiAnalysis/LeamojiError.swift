import LeamojiClassifier
import LeamojiCore
import LeamojiNN
import LeamojiVideo

/// The one error type of the work libraries (analysis, `label` and `review`, `play`): one line
/// naming the file and the problem, under the kind of problem it is. The modules below have
/// their own errors (`MediaError`, `ModelFileError`, `DurableFileError`, `MovieDataError`, ...);
/// each is turned into this once, where it crosses into these libraries, and a front end answers
/// its `kind` (the CLI with its exit statuses, in one place).
public enum LeamojiError: Error, CustomStringConvertible, Equatable, Sendable {
  /// An input file does not exist, is a folder, or cannot be read.
  case noInput(String)
  /// An input file is not usable: not media, corrupt, no video stream, a malformed model or
  /// timeline file, an id two entries share.
  case badInput(String)
  /// An output file could not be written (or would overwrite something).
  case cannotWrite(String)
  /// Something unexpected went wrong.
  case unexpected(String)

  /// The one line, e.g. `film.mp4: no such file`.
  public var message: String {
    switch self {
    case .noInput(let line), .badInput(let line), .cannotWrite(let line), .unexpected(let line):
      return line
    }
  }

  public var description: String { message }

  /// The kind of problem each case is.
  public var kind: ProblemKind {
    switch self {
    case .noInput: .noInput
    case .badInput: .badInput
    case .cannotWrite: .cannotWrite
    case .unexpected: .failed
    }
  }

  /// A video or image problem, by cause.
  public init(_ error: MediaError) {
    switch error {
    case .notFound, .isDirectory, .unreadable: self = .noInput(error.description)
    case .notMedia, .noVideoStream, .noDecoder, .corrupt, .tooLarge:
      self = .badInput(error.description)
    case .encodingFailed: self = .unexpected(error.description)
    }
  }

  /// A file that could not be written.
  public init(_ error: DurableFileError) {
    self = .cannotWrite(error.description)
  }

  /// A model file that is missing, unreadable or malformed.
  public init(_ error: ModelFileError) {
    self = error.isMissingInput ? .noInput(error.description) : .badInput(error.description)
  }
}
