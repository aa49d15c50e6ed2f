import Foundation

/// Values made once per test run and shared by every test that asks for the same key: a
/// generated video, a command's help text. Tests run concurrently, so one value is made at a
/// time (the machine has few cores, and the makers are whole processes); a failure is kept
/// too, so that every test needing that value reports it and none makes it again.
public final class OncePerRun<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var made: [Key: Result<Value, any Error>] = [:]

  public init() {}

  /// The value for `key`: made by `make` on the first call, the same value after that.
  public func value(_ key: Key, make: () throws -> Value) throws -> Value {
    lock.lock()
    defer { lock.unlock() }
    if let done = made[key] { return try done.get() }
    let result = Result { try make() }
    made[key] = result
    return try result.get()
  }
}
