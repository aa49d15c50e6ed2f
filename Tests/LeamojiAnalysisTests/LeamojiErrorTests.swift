import Foundation
import LeamojiAnalysis
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import LeamojiVideo
import Testing

@Suite("LeamojiError: every lower module's error mapped to one kind")
struct LeamojiErrorTests {
  static let mediaCases: [(MediaError, ProblemKind)] = [
    (.notFound(path: "a.mp4"), .noInput),
    (.isDirectory(path: "a.mp4"), .noInput),
    (.unreadable(path: "a.mp4", reason: "Permission denied"), .noInput),
    (.notMedia(path: "a.mp4"), .badInput),
    (.noVideoStream(path: "a.mp4"), .badInput),
    (.noDecoder(path: "a.mp4", codec: "vp9"), .badInput),
    (.corrupt(path: "a.mp4", reason: "no decodable video frame"), .badInput),
    (.tooLarge(path: "a.mp4", width: 99_999, height: 99_999), .badInput),
    (.encodingFailed(reason: "no encoder"), .unexpected),
  ]

  @Test("each MediaError case has its kind and keeps its one-line message", arguments: mediaCases)
  func mediaError(error: MediaError, kind: ProblemKind) {
    let mapped = LeamojiError(error)
    #expect(mapped.kind == kind)
    #expect(mapped.message == error.description)
    #expect(!mapped.message.contains("\n"))
    if let path = error.path { #expect(mapped.message.hasPrefix(path + ": ")) }
  }

  struct WriteSucceeded: Error {}

  /// The error a durable write fails with (throws when it does not fail).
  static func failure(_ write: () throws(DurableFileError) -> Void) throws -> DurableFileError {
    do {
      try write()
    } catch {
      return error
    }
    throw WriteSucceeded()
  }

  @Test("a DurableFileError is cannot-write, with its message")
  func durableFileError() throws {
    let folder = try ScratchFolder.url("error-durable")
    defer { try? FileManager.default.removeItem(at: folder) }
    let existing = folder.appendingPathComponent("there.json").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: existing))
    let failures = [
      // The file's folder does not exist.
      try Self.failure { () throws(DurableFileError) in
        try DurableFile(folder.appendingPathComponent("absent/out.json").path).write([1])
      },
      // The file exists and replacing it was not allowed.
      try Self.failure { () throws(DurableFileError) in
        try DurableFile(existing).write([2], replacing: false)
      },
    ]
    for failure in failures {
      let mapped = LeamojiError(failure)
      #expect(mapped.kind == .cannotWrite)
      #expect(mapped.message == failure.description)
      #expect(mapped.message.hasPrefix(failure.path + ": "))
    }
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "old")
  }

  @Test(
    "a ModelFileError is no input when missing or unreadable, bad input otherwise",
    arguments: [
      (ModelFileError.Problem.fileNotFound, ProblemKind.noInput),
      (.unreadable(reason: "Is a directory"), .noInput),
      (.truncated(size: 3), .badInput),
      (.headerNotObject, .badInput),
      (.headerNotJSON(reason: "bad"), .badInput),
    ])
  func modelFileError(problem: ModelFileError.Problem, kind: ProblemKind) {
    let error = ModelFileError(path: "m.safetensors", problem: problem)
    #expect(LeamojiError(error).kind == kind)
    #expect(LeamojiError(error).message == error.description)
  }

  @Test("the message is the one line of every kind, and the description")
  func messages() {
    let errors: [LeamojiError] = [
      .noInput("a: no such file"), .badInput("a: bad"),
      .cannotWrite("out: cannot write (disk full)"),
      .unexpected("a: the moon is in the way"),
    ]
    #expect(
      errors.map(\.message) == [
        "a: no such file", "a: bad", "out: cannot write (disk full)", "a: the moon is in the way",
      ])
    #expect(errors.map(\.description) == errors.map(\.message))
  }
}
