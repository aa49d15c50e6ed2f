/// Which family of compositions a scene is drawn from.
///
/// - `classic`: the first generator's scenes, where each mood has its own lighting (happy is
///   bright and warm, scary dark and cold). The shipped model `Models/leamoji.safetensors` and
///   the sample videos are made from them, and their pixels are pinned by digest, so they stay
///   byte for byte as they are.
/// - `varied`: scenes where lighting is not the answer. The look — dark, dim,
///   bright, colourful or grey, with its grade, grain and film finishing — is drawn
///   independently of the mood, and the mood shows in the content: faces with expressions,
///   creatures, fire versus fireworks, teeth and claws, cinemas and restaurants. A classifier
///   on the image's mean and spread of colour alone does little better than chance.
///
/// Raw values are the names the command line uses (`leamoji-lab scenes dataset --set varied`).
public enum SceneSet: String, CaseIterable, Codable, Hashable, Sendable {
  case classic
  case varied

  /// The set `leamoji-lab scenes dataset` makes when none is named.
  public static let `default`: SceneSet = .varied
}
