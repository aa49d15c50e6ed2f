import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// leamoji's exit statuses (documented in the README), after BSD's sysexits; `leamoji-lab`
/// exits with the same ones.
public enum ExitStatus: Int32, Sendable {
  case success = 0
  /// Something unexpected went wrong.
  case failure = 1
  /// Bad command-line usage (ArgumentParser's own validation errors also exit 64).
  case usage = 64
  /// An input file is not usable: not media, corrupt, no video stream, no decoder.
  case badInput = 65
  /// An input file does not exist, is a directory, or cannot be read.
  case noInput = 66
  /// An output file could not be created or written (or would overwrite something).
  case cannotWrite = 73
}

/// An error the command line reports as one line on stderr and a specific exit status.
public struct CommandFailure: Error {
  public let message: String
  public let status: ExitStatus

  public init(_ message: String, status: ExitStatus) {
    self.message = message
    self.status = status
  }

  /// The library's error with its exit status.
  public init(_ error: LeamojiError) {
    self.init(error.message, status: ExitStatus(error.kind))
  }

  public init(_ error: DurableFileError) {
    self.init(LeamojiError(error))
  }

  /// `train`'s data-set error with its exit status.
  public init(_ error: DatasetError) {
    self.init(error.description, status: ExitStatus(error.kind))
  }

  /// `train`'s error (`TrainingPlan`) with its exit status.
  public init(_ error: TrainingError) {
    self.init(error.message, status: ExitStatus(error.kind))
  }
}

/// The command line's one mapping from the libraries' errors to exit statuses: each library
/// error says what kind of problem it met (`ProblemKind`), and the kind decides the status.
extension ExitStatus {
  public init(_ kind: ProblemKind) {
    switch kind {
    case .usage: self = .usage
    case .noInput: self = .noInput
    case .badInput: self = .badInput
    case .cannotWrite: self = .cannotWrite
    case .failed: self = .failure
    }
  }
}
