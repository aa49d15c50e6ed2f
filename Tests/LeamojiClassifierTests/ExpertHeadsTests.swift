import Foundation
import LeamojiCore
import LeamojiNN
import Testing

@testable import LeamojiClassifier

/// Two expert heads and a gate in one model of linear and ReLU layers: the primary's answer
/// where the gate says primary, the secondary's where it says secondary.
@Suite("Two experts and a gate")
struct ExpertHeadsTests {
  static let labels = ["happy", "neutral", "scary"]

  /// The tiny backbone of HeadTrainingTests with `head` (and its tensors) after its pooling.
  static func model(
    _ backbone: Classifier, head: [LayerSpec], tensors: [String: Tensor],
    labels: [String] = labels
  ) throws -> Classifier {
    let specs = backbone.network.specs
    let pool = try #require(specs.lastIndex(of: .globalAvgPool))
    var parameters = backbone.network.namedTensors.filter { !$0.key.hasPrefix("fc.") }
    parameters.merge(tensors) { _, new in new }
    let network = try Network(
      specs: Array(specs[...pool]) + head, inputShape: backbone.network.inputShape,
      parameters: parameters)
    return try Classifier(
      network: network, labelNames: labels, normalisation: backbone.normalisation)
  }

  static func random(_ shape: [Int], seed: UInt64, scale: Float = 1) -> Tensor {
    var rng = SplitMix64(seed: seed)
    let count = shape.reduce(1, *)
    return Tensor(
      shape: shape,
      data: (0..<count).map { _ in scale * (Float(rng.next() % 2001) / 1000 - 1) })
  }

  /// A linear head on the 8 features (seeded weights).
  static func linear(_ backbone: Classifier, seed: UInt64, labels: [String] = labels) throws
    -> Classifier
  {
    try model(
      backbone, head: [.linear(name: "fc", inFeatures: 8, outFeatures: labels.count)],
      tensors: [
        "fc.weight": random([labels.count, 8], seed: seed, scale: 3),
        "fc.bias": random([labels.count], seed: seed + 1),
      ], labels: labels)
  }

  /// A head with `units` hidden units.
  static func hidden(_ backbone: Classifier, units: Int, seed: UInt64) throws -> Classifier {
    try model(
      backbone,
      head: [
        .linear(name: "fc_hidden", inFeatures: 8, outFeatures: units), .relu,
        .linear(name: "fc", inFeatures: units, outFeatures: 3),
      ],
      tensors: [
        "fc_hidden.weight": random([units, 8], seed: seed, scale: 3),
        "fc_hidden.bias": random([units], seed: seed + 1),
        "fc.weight": random([3, units], seed: seed + 2, scale: 2),
        "fc.bias": random([3], seed: seed + 3),
      ])
  }

  /// A gate whose secondary-minus-primary logit is `d` for every picture.
  static func gate(_ backbone: Classifier, d: Float) throws -> Classifier {
    try model(
      backbone, head: [.linear(name: "fc", inFeatures: 8, outFeatures: 2)],
      tensors: [
        "fc.weight": Tensor(shape: [2, 8]), "fc.bias": Tensor(shape: [2], data: [0.5, 0.5 + d]),
      ], labels: ["primary", "secondary"])
  }

  static func images(_ backbone: Classifier) -> [RGBImage] {
    (0..<4).map { patternImage(kind: $0 % 3, size: 16, seed: UInt64(40 + $0)) }
  }

  @Test(
    "the primary's logits where the gate says primary, the secondary's where it says secondary, between them as defined",
    arguments: [0, 5])
  func answersAsTheGateSays(secondaryUnits: Int) throws {
    let backbone = try HeadTrainingTests.backbone()
    let primary = try Self.linear(backbone, seed: 11)
    let secondary =
      secondaryUnits == 0
      ? try Self.linear(backbone, seed: 21) : try Self.hidden(backbone, units: 5, seed: 21)
    let images = Self.images(backbone)
    let p = try primary.classify(images, threads: 1).map(\.logits)
    let s = try secondary.classify(images, threads: 1).map(\.logits)
    for d: Float in [-6, -2, -1, 0, 1.5, 2, 6] {
      let combined = try ExpertHeads.combine(
        primary: primary, secondary: secondary, gate: Self.gate(backbone, d: d))
      #expect(ExpertHeads.isCombined(combined))
      // Written and read back: still two experts, the same answers.
      let reread = try Classifier.decode(combined.encoded(), path: "experts.safetensors")
      #expect(ExpertHeads.isCombined(reread))
      let got = try reread.classify(images, threads: 1).map(\.logits)
      // Between the two the primary's answer moves towards the secondary's by what their
      // difference exceeds the margin times 1 - G.
      let g = min(1, max(0, (d + 2) / 4))
      let allowance = ExpertHeads.margin * (1 - g)
      for i in images.indices {
        for k in 0..<3 {
          let gap = s[i][k] - p[i][k]
          let expected = p[i][k] + max(0, gap - allowance) - max(0, -gap - allowance)
          #expect(abs(got[i][k] - expected) <= 1e-3, "d \(d) image \(i) class \(k)")
        }
      }
    }
  }

  @Test(
    "the primary expert reads back out, and replacing it leaves the secondary and gate bit for bit")
  func primaryReplaced() throws {
    let backbone = try HeadTrainingTests.backbone()
    let combined = try ExpertHeads.combine(
      primary: Self.linear(backbone, seed: 11),
      secondary: Self.hidden(backbone, units: 4, seed: 21),
      gate: Self.gate(backbone, d: -4))
    let images = Self.images(backbone)
    let primary = try #require(ExpertHeads.primary(of: combined))
    #expect(
      try primary.classify(images, threads: 1).map(\.logits)
        == Self.linear(backbone, seed: 11).classify(images, threads: 1).map(\.logits))

    let other = try Self.linear(backbone, seed: 99)
    let replaced = try ExpertHeads.replacingPrimary(of: combined, with: other)
    // Where the gate says primary (d = -4), the new primary answers.
    let got = try replaced.classify(images, threads: 1).map(\.logits)
    let want = try other.classify(images, threads: 1).map(\.logits)
    for (a, b) in zip(got.joined(), want.joined()) { #expect(abs(a - b) <= 1e-4) }
    let before = combined.network.namedParameters
    let after = replaced.network.namedParameters
    #expect(after["fc_mix.weight"] == before["fc_mix.weight"])
    #expect(after["fc.weight"] == before["fc.weight"])
    let rows = 2 * 3 * 8
    #expect(after["fc_hidden.weight"]!.data[rows...] == before["fc_hidden.weight"]!.data[rows...])
    #expect(after["fc_hidden.bias"]!.data[6...] == before["fc_hidden.bias"]!.data[6...])
    #expect(after["stem.weight"] == before["stem.weight"])
  }

  @Test("heads that cannot be joined are refused with the reason")
  func refused() throws {
    let backbone = try HeadTrainingTests.backbone()
    let linear = try Self.linear(backbone, seed: 1)
    let gate = try Self.gate(backbone, d: 0)
    let reasons: [(Classifier, Classifier, Classifier, String)] = [
      (
        try Self.hidden(backbone, units: 4, seed: 2), linear, gate,
        "primary expert must be a linear head"
      ),
      (
        linear, linear, try Self.linear(backbone, seed: 3, labels: ["real", "generated"]),
        "labels primary and secondary"
      ),
      (linear, try Self.linear(backbone, seed: 4, labels: ["a", "b", "c"]), gate, "labels differ"),
      (
        linear, try Self.linear(HeadTrainingTests.backbone(seed: 9), seed: 5), gate,
        "not on the same backbone"
      ),
    ]
    for (primary, secondary, gate, reason) in reasons {
      #expect {
        _ = try ExpertHeads.combine(primary: primary, secondary: secondary, gate: gate)
      } throws: { error in
        "\(error)".contains(reason)
      }
    }
    #expect(ExpertHeads.primary(of: linear) == nil)
    #expect(!ExpertHeads.isCombined(try Self.hidden(backbone, units: 12, seed: 2)))
  }
}
