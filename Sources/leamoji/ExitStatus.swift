import Foundation
import LeamojiCore
import LeamojiVideo

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

  init(_ error: MediaError) {
    switch error {
    case .notFound, .isDirectory, .unreadable:
      self.init(error.description, status: .noInput)
    case .notMedia, .noVideoStream, .noDecoder, .corrupt, .tooLarge:
      self.init(error.description, status: .badInput)
    case .encodingFailed:
      self.init(error.description, status: .failure)
    }
  }

  init(_ error: DurableFileError) {
    self.init(error.description, status: .cannotWrite)
  }
}
