import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTestSupport
import LeamojiTimeline
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Changes `$LEAMOJI_MODEL` (these tests run one at a time). The whole test bundle shares the
/// process environment and the CLI tests' `leamoji` processes inherit it, so a value set here is
/// always a working model: the shipped one, spelled differently.
@Suite("ModelLocator: which model file is used, and how a bad one is reported", .serialized)
struct ModelLocatorTests {
  static let variable = "LEAMOJI_MODEL"
  /// The shipped model by another spelling, so that `resolve` returning it is telling.
  static let respelled =
    Repository.root.appendingPathComponent("Models").path
    + "/./leamoji.safetensors"

  /// Runs `body` with `$LEAMOJI_MODEL` set to `value` (nil: unset), restoring it afterwards.
  static func withVariable<T>(_ value: String?, _ body: () throws -> T) rethrows -> T {
    let saved = getenv(variable).map { String(cString: $0) }
    defer {
      if let saved { setenv(variable, saved, 1) } else { unsetenv(variable) }
    }
    if let value { setenv(variable, value, 1) } else { unsetenv(variable) }
    return try body()
  }

  static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
  }

  @Test("a given path wins, even over $LEAMOJI_MODEL")
  func givenPathFirst() {
    let resolved = Self.withVariable(Self.respelled) { ModelLocator.resolve("mine.safetensors") }
    #expect(resolved == "mine.safetensors")
  }

  @Test("without a given path, $LEAMOJI_MODEL is used as written")
  func environmentSecond() {
    let resolved = Self.withVariable(Self.respelled) { ModelLocator.resolve(nil) }
    #expect(resolved == Self.respelled)
  }

  @Test("unset or empty $LEAMOJI_MODEL falls back to the shipped model", arguments: [nil, ""])
  func shippedLast(value: String?) throws {
    let resolved = Self.withVariable(value) { ModelLocator.resolve(nil) }
    #expect(resolved != Self.respelled)
    let shipped = try #require(ModelLocator.shippedModelPath())
    #expect(resolved == shipped)
    // The test bundle is built inside the repository, so the search upwards finds its Models/.
    let executable = Self.canonical(CommandLine.arguments[0])
    if executable.hasPrefix(Self.canonical(Repository.root.path) + "/") {
      #expect(Self.canonical(shipped) == Self.canonical(Repository.modelPath))
    }
  }

  @Test("the resolved model loads and has the mood labels")
  func loadsShipped() throws {
    let classifier = try ModelLocator.load(ModelLocator.resolve(Repository.modelPath)).classifier
    #expect(Set(classifier.labelNames).isSuperset(of: ["happy", "neutral", "scary"]))
    #expect(classifier.inputSize.width > 0 && classifier.inputSize.height > 0)
  }

  @Test("the model's SHA-256 is of the bytes it was read from, and its info carries the labels")
  func hashOfTheBytesRead() throws {
    let folder = try ScratchFolder.url("model-hash")
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("copy.safetensors")
    try FileManager.default.copyItem(atPath: Repository.modelPath, toPath: copy.path)
    let model = try ModelLocator.load(copy.path)
    let bytes = [UInt8](try Data(contentsOf: copy))
    #expect(model.sha256 == SHA256.hex(bytes) && model.sha256.count == 64)
    #expect(model.info.labels == model.classifier.labelNames && model.info.sha256 == model.sha256)
    // Another model file gives another identity.
    var changed = bytes
    changed[changed.count - 1] ^= 0x01
    try Data(changed).write(to: copy)
    #expect(try ModelLocator.load(copy.path).sha256 == SHA256.hex(changed))
  }

  @Test("a missing model is no input, named as given")
  func missingModel() throws {
    let folder = try ScratchFolder.url("model-missing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let asGiven = folder.path + "//sub/../none.safetensors"
    #expect {
      _ = try ModelLocator.load(asGiven)
    } throws: { error in
      Self.names(error, kind: .noInput, path: asGiven)
    }
  }

  @Test("a folder given as the model is no input")
  func folderAsModel() throws {
    let folder = try ScratchFolder.url("model-folder")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect {
      _ = try ModelLocator.load(folder.path)
    } throws: { error in
      Self.names(error, kind: .noInput, path: folder.path)
    }
  }

  @Test(
    "a truncated copy of the shipped model is bad input, named as given",
    arguments: [
      4, 1000, 0.5,
    ] as [Double])
  func damagedModel(keep: Double) throws {
    let folder = try ScratchFolder.url("model-damaged")
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try Data(contentsOf: URL(fileURLWithPath: Repository.modelPath))
    let count = keep < 1 ? Int(Double(whole.count) * keep) : Int(keep)
    try whole.prefix(count).write(to: folder.appendingPathComponent("cut.safetensors"))
    let asGiven = folder.path + "/./cut.safetensors"
    #expect {
      _ = try ModelLocator.load(asGiven)
    } throws: { error in
      Self.names(error, kind: .badInput, path: asGiven)
    }
  }

  static func names(_ error: any Error, kind: ProblemKind, path: String) -> Bool {
    guard let problem = error as? LeamojiError else { return false }
    return problem.kind == kind && problem.message.hasPrefix(path + ": ")
      && !problem.message.contains("\n")
  }
}
