import LeamojiClassifier
import LeamojiCore
import LeamojiVideo

/// What kind of problem stopped a piece of work, so that a front end can choose its exit status
/// (the CLI maps each kind to one sysexits-style code) without knowing the modules' own errors.
public enum ProblemKind: Sendable, Equatable {
  /// Something unexpected went wrong.
  case unexpected
  /// The request itself is unusable (e.g. `play` without a terminal).
  case usage
  /// An input file is not usable: not media, corrupt, no video stream, a malformed model or
  /// timeline file.
  case badInput
  /// An input file does not exist, is a folder, or cannot be read.
  case noInput
  /// An output file could not be written (or would overwrite something).
  case cannotWrite
}

/// The one error type the work library hands to its callers: one line naming the file and the
/// problem, and the kind of problem.
public struct LeamojiError: Error, CustomStringConvertible, Sendable {
  /// One line, e.g. `film.mp4: no such file`.
  public let message: String
  public let kind: ProblemKind

  public init(_ message: String, kind: ProblemKind) {
    self.message = message
    self.kind = kind
  }

  public var description: String { message }

  /// A video or image problem, by cause.
  public init(_ error: MediaError) {
    switch error {
    case .notFound, .isDirectory, .unreadable:
      self.init(error.description, kind: .noInput)
    case .notMedia, .noVideoStream, .noDecoder, .corrupt, .tooLarge:
      self.init(error.description, kind: .badInput)
    case .encodingFailed:
      self.init(error.description, kind: .unexpected)
    }
  }

  /// A file that could not be written.
  public init(_ error: DurableFileError) {
    self.init(error.description, kind: .cannotWrite)
  }

  /// A model file that is missing, unreadable or malformed.
  public init(_ error: ModelFileError) {
    switch error.problem {
    case .fileNotFound, .unreadable: self.init(error.description, kind: .noInput)
    default: self.init(error.description, kind: .badInput)
    }
  }

  /// Any error from the modules below, mapped to its kind; unknown errors are `.unexpected`
  /// with `context` (usually the file) in front.
  public static func from(_ error: any Error, context: String) -> LeamojiError {
    switch error {
    case let error as LeamojiError: return error
    case let error as MediaError: return LeamojiError(error)
    case let error as DurableFileError: return LeamojiError(error)
    case let error as ModelFileError: return LeamojiError(error)
    default: return LeamojiError("\(context): \(error)", kind: .unexpected)
    }
  }
}
