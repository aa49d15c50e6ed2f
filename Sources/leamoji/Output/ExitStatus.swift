import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiReport
import LeamojiTimeline

/// leamoji's exit statuses (documented in the README), after BSD's sysexits.
enum ExitStatus: Int32 {
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

/// An error the CLI reports as one line on stderr and a specific exit status.
struct CommandFailure: Error {
  let message: String
  let status: ExitStatus

  init(_ message: String, status: ExitStatus) {
    self.message = message
    self.status = status
  }

  /// The library's error with its exit status.
  init(_ error: LeamojiError) {
    self.init(error.message, status: ExitStatus(error.kind))
  }

  init(_ error: DurableFileError) {
    self.init(LeamojiError(error))
  }

  /// `merge`'s error with its exit status.
  init(_ error: FragmentMergeError) {
    self.init(error.description, status: ExitStatus(error.kind))
  }

  /// `report`'s error with its exit status.
  init(_ error: ReportError) {
    self.init(error.message, status: ExitStatus(error.kind))
  }

  /// A MovieData.json that cannot be read: bad input (a missing file is no input before it).
  init(_ error: MovieDataError) {
    self.init(error.description, status: .badInput)
  }

  /// `train`'s data-set error with its exit status.
  init(_ error: DatasetError) {
    self.init(error.description, status: ExitStatus(error.kind))
  }

  /// `train`'s error (`TrainingPlan`) with its exit status.
  init(_ error: TrainingError) {
    self.init(error.message, status: ExitStatus(error.kind))
  }
}

/// The command line's one mapping from the libraries' errors to exit statuses: each library
/// error says what kind of problem it met (`ProblemKind`), and the kind decides the status.
extension ExitStatus {
  init(_ kind: ProblemKind) {
    switch kind {
    case .usage: self = .usage
    case .noInput: self = .noInput
    case .badInput: self = .badInput
    case .cannotWrite: self = .cannotWrite
    case .failed: self = .failure
    }
  }
}
