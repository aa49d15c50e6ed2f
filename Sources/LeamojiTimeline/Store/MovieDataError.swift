/// Every error of the timeline's files (`MovieData.json`, its lock and temporary files): one
/// line, `"<path>: <problem>"`, ready for stderr.
public struct MovieDataError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The file the problem is about.
  public var path: String
  /// What is wrong, without the path (e.g. `not valid JSON: unexpected ',' at line 3, column 5`).
  public var problem: String

  public init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  public var description: String { "\(path): \(problem)" }
}
