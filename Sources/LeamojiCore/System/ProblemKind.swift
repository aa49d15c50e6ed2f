/// The kind of problem that stopped a piece of work. Each library's error says its kind once
/// (`LeamojiError.kind`, `TrainingError.kind`, `ReportError.kind`, `FragmentMergeError.kind`),
/// and a front end answers each kind its own way: the command line with its exit statuses, in
/// one place.
public enum ProblemKind: Equatable, Sendable {
  /// The options do not fit the inputs (`--freeze` too large for the model, an `--input-size`
  /// the `--init` model does not take, a bad `$SOURCE_DATE_EPOCH`, ...).
  case usage
  /// An input file or folder does not exist, is of the wrong kind (a folder for a file), or
  /// cannot be read.
  case noInput
  /// An input is not usable: not media, corrupt, malformed, no labels, no readable image, two
  /// entries or fragments that disagree about one id, ...
  case badInput
  /// An output could not be written, or would overwrite something.
  case cannotWrite
  /// The work itself failed, or something unexpected went wrong.
  case failed
}
