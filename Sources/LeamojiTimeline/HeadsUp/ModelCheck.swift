/// A model file as the heads-up compares them: its SHA-256 (what `MovieData.json` records as
/// `model.sha256`) and, when its card says, its version (`model_version`, e.g. `2.5`).
public struct ModelIdentity: Codable, Equatable, Sendable {
  public var sha256: String
  public var version: String?

  public init(sha256: String, version: String? = nil) {
    self.sha256 = sha256.lowercased()
    self.version = version
  }
}

/// Whether a film's timeline was made by the model in use, so that a heads-up from an older
/// model says so instead of passing for a current one.
public struct ModelCheck: Codable, Equatable, Sendable {
  public enum State: String, Codable, Sendable {
    /// Made by the model in use (same SHA-256).
    case current
    /// Made by a model leamoji shipped before the model in use (itself a shipped one).
    case older
    /// Made by another model file: one of the user's, or a shipped one while another is in use.
    case other
    /// The entry does not record a model (the original app's file, or written by hand).
    case unrecorded
    /// No model in use was found to compare with.
    case unchecked
  }

  public var state: State
  /// The entry's model's SHA-256; nil when it records none.
  public var sha256: String?
  /// The entry's model's version, when it is one leamoji shipped (`ShippedModels`).
  public var version: String?
  /// The version of the model in use, when its card says.
  public var currentVersion: String?

  enum CodingKeys: String, CodingKey { case state, sha256, version, currentVersion }

  /// Every key is written, unknown values as `null`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(state, forKey: .state)
    try container.encode(sha256, forKey: .sha256)
    try container.encode(version, forKey: .version)
    try container.encode(currentVersion, forKey: .currentVersion)
  }

  /// Compares the model recorded in an entry (`recorded`, nil when none) with `current`
  /// (nil when no model was found).
  public init(recorded: ModelInfo?, current: ModelIdentity?) {
    let sha = recorded.map { $0.sha256.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
    sha256 = sha
    version = sha.flatMap { ShippedModels.version(ofSHA256: $0) }
    currentVersion = current?.version
    guard let sha else {
      state = .unrecorded
      return
    }
    guard let current else {
      state = .unchecked
      return
    }
    if sha == current.sha256 {
      state = .current
      version = version ?? current.version
    } else if let index = ShippedModels.index(ofSHA256: sha),
      let currentIndex = ShippedModels.index(ofSHA256: current.sha256), index < currentIndex
    {
      state = .older
    } else {
      state = .other
    }
  }

  /// One plain sentence for a person; nil for a current model (nothing to warn about).
  public var sentence: String? {
    let now = currentVersion.map { " (\($0))" } ?? ""
    switch state {
    case .current:
      return nil
    case .older:
      return "analysed with an older model (\(version ?? "?")); run `leamoji analyze` again "
        + "for the current one\(now)"
    case .other:
      let which = version ?? "sha256 " + String((sha256 ?? "").prefix(12))
      return "analysed with another model (\(which)), not the one in use\(now); run "
        + "`leamoji analyze` again for its timeline"
    case .unrecorded:
      return "the file does not say which model made this timeline (the original app's or "
        + "one written by hand); run `leamoji analyze` for leamoji's"
    case .unchecked:
      return "no model file was found to compare with, so whether this timeline comes from "
        + "the current model is not known"
    }
  }
}

/// The default models leamoji has shipped (`Models/leamoji.safetensors`), oldest first, by the
/// SHA-256 of their file and the `model_version` of their card; a version regenerated without
/// changing its number has several hashes. `scripts/shipped-model-hashes.sh` prints this table
/// again from the repository's history.
public enum ShippedModels {
  /// (SHA-256, version), oldest first.
  public static let all: [(sha256: String, version: String)] = [
    ("4525965b1ca17af64787c179605c5692cd1043d4125f41a0dfebb5550558e30b", "1.0"),
    ("57a4820e178f3ccad08e0fc5b0a610c97dcf575cbaefafc5167f846261425890", "1.1"),
    ("1803a83d5b8a2bc66877101edb9c006fe4f76bb850d6ecdaadb2bb831f47e3a3", "1.2"),
    ("f852f46b190cac8a089d0e343706efdc05502ccd00be4080a965c6b6fbb385cc", "2.0"),
    ("213ac7f5ab841c9193e33efc0fc0570ea7429a11ca17904f548b710aec7c24e6", "2.1"),
    ("25cc0b5c118ceec078ebc93412e9bfe6907b6ff710d8e3321449343bb1535b46", "2.2"),
    ("0646324359db78e164842f6dde07509cdbbd10c77baa0a972b660a39eddd4d3b", "2.2"),
    ("5e55d5b7edbc89efc816407a5bc0b672b99fd63f26166166f779ad3d3c435088", "2.2"),
    ("0a62daaa51043e1b320c7e09b16d5abcdca56ca5b0d558dceaac7d97c9f4a843", "2.3"),
    ("9e904e451832582f2470536980c68f89d2d39000104927242297c422b3db24c9", "2.3"),
    ("05d7da01b302e3fef875505eb042a52f382bdee028e87f2358a9058e180b4795", "2.4"),
    ("6a4db65519bbd5bbce9aed37fd57dfd06dbb1545c17e29730e45314294a5ead9", "2.5"),
    ("80c2b59cd55d984d88a226830ec32bb2ca84a2f922dfced91368650c31c6125f", "2.6"),
  ]

  /// The position of the shipped model with this hash in `all`; nil when it is not one.
  public static func index(ofSHA256 sha256: String) -> Int? {
    let lower = sha256.lowercased()
    return all.firstIndex { $0.sha256 == lower }
  }

  /// The version of the shipped model with this hash; nil when it is not one.
  public static func version(ofSHA256 sha256: String) -> String? {
    index(ofSHA256: sha256).map { all[$0].version }
  }
}
