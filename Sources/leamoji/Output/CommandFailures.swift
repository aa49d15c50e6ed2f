import LeamojiCommandLine
import LeamojiReport
import LeamojiTimeline

/// The product's own libraries' errors with their exit statuses (the shared ones are in
/// LeamojiCommandLine).
extension CommandFailure {
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
}
