import LeamojiCore

/// Why a lab command cannot do its work: one line naming the file and the problem, under the
/// kind of problem it is, which `leamoji-lab` turns into the exit status `leamoji` gives the
/// same problem (64 usage, 65 bad input, 66 no input, 73 cannot write).
public struct LabError: Error, CustomStringConvertible, Equatable, Sendable {
  public let kind: ProblemKind
  public let message: String

  public init(_ kind: ProblemKind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
