import FoundationEssentials
import LeamojiAnalysis
import LeamojiCore

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
    self.init(error.message, status: ExitStatus(error))
  }

  init(_ error: DurableFileError) {
    self.init(LeamojiError(error))
  }
}

extension ExitStatus {
  /// The exit status of each kind of problem the work libraries report: the command line's one
  /// mapping from `LeamojiError` to exit statuses.
  init(_ error: LeamojiError) {
    switch error {
    case .noInput: self = .noInput
    case .badInput: self = .badInput
    case .cannotWrite: self = .cannotWrite
    case .unexpected: self = .failure
    }
  }
}
