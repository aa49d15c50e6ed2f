import Foundation
import LeamojiTestSupport

/// The built `leamoji` (and `leamoji-lab`) binary, which the CLI tests run (with the shared `ProcessRunner`).
enum CLI {
  static var binary: String { Repository.leamoji }

  /// Runs `leamoji` with `arguments` in `directory`; killed with SIGKILL after `timeout` seconds.
  static func leamoji(_ arguments: [String], in directory: URL? = nil, timeout: Double? = nil)
    throws -> ProcessResult
  {
    try ProcessRunner.run(binary, arguments, in: directory, timeout: timeout)
  }

  /// Runs the workshop's `leamoji-lab` (the scene generator, `train`'s workshop options), which
  /// the product's tests use to make their training sets and small models.
  static func lab(_ arguments: [String], in directory: URL? = nil, timeout: Double? = nil)
    throws -> ProcessResult
  {
    try ProcessRunner.run(Repository.leamojiLab, arguments, in: directory, timeout: timeout)
  }
}
