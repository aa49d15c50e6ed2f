import LeamojiCore
import Testing

@testable import LeamojiClassifier

@Suite("Input normalisation")
struct InputNormalisationTests {
  @Test("(pixel / 255 - mean) / std per channel, in float32 in that order")
  func formula() throws {
    // 2x1 image: pixel (255, 0, 51), pixel (0, 255, 102).
    let n = try InputNormalisation(mean: [0.5, 0.5, 0], std: [0.5, 0.25, 0.2])
    let planes = InputNormalisation.unitPlanes([255, 0, 51, 0, 255, 102], pixels: 2)
    #expect(planes == [1, 0, 0, 1, Float(51) / 255, Float(102) / 255])
    var out = [Float](repeating: .nan, count: 6)
    out.withUnsafeMutableBufferPointer { n.normalise(planes, into: $0) }
    let blue: [Float] = [(Float(51) / 255) / 0.2, (Float(102) / 255) / 0.2]
    #expect(out == [1, -1, -2, 2] + blue)
  }

  @Test("every byte value gives exactly (Float(byte) / 255 - mean) / std")
  func everyByte() throws {
    let n = InputNormalisation.imageNet
    var bytes: [UInt8] = []
    for v in 0..<256 { bytes += [UInt8(v), UInt8(255 - v), UInt8(v / 2)] }
    let planes = InputNormalisation.unitPlanes(bytes[...], pixels: 256)
    var out = [Float](repeating: 0, count: planes.count)
    out.withUnsafeMutableBufferPointer { n.normalise(planes, into: $0) }
    for i in 0..<256 {
      for c in 0..<3 {
        let expected = (Float(bytes[3 * i + c]) / 255 - n.mean[c]) / n.std[c]
        #expect(out[c * 256 + i].bitPattern == expected.bitPattern)
      }
    }
  }

  @Test("statistics need 3 finite values each and a positive std")
  func validation() throws {
    #expect(throws: ClassifierError.badNormalisation(reason: "mean and std need 3 values each")) {
      try InputNormalisation(mean: [0, 0], std: [1, 1, 1])
    }
    for (mean, std): ([Float], [Float]) in [
      ([0, 0, .nan], [1, 1, 1]), ([0, 0, 0], [1, 0, 1]),
      ([0, 0, 0], [1, -1, 1]), ([0, 0, 0], [.infinity, 1, 1]),
    ] {
      #expect(throws: ClassifierError.self) { try InputNormalisation(mean: mean, std: std) }
    }
    let ok = try InputNormalisation(mean: [-1, 0, 2], std: [0.1, 1, 3])
    #expect(ok.mean == [-1, 0, 2] && ok.std == [0.1, 1, 3])
    #expect(InputNormalisation.imageNet.mean == [0.485, 0.456, 0.406])
    #expect(InputNormalisation.imageNet.std == [0.229, 0.224, 0.225])
  }

  @Test("measured statistics: mean and deviation of pixel / 255; ImageNet without pixels")
  func measured() {
    let stats = InputNormalisation.measured(over: [0, 255, 51, 0, 255, 153])
    #expect(stats.mean == [0, 1, 0.4])
    #expect(abs(stats.std[2] - 0.2) < 1e-6)
    // A flat channel's deviation is floored at 0.001.
    #expect(stats.std[0] == Float(1e-3 as Double) && stats.std[1] == Float(1e-3 as Double))
    #expect(InputNormalisation.measured(over: []) == .imageNet)
  }

  @Test("measured statistics are the plain Double sums in pixel order, bit for bit")
  func measuredBits() {
    var rng = SplitMix64(seed: 12)
    let pixels = (0..<(3 * 5000)).map { _ in UInt8(rng.next() % 256) }
    var sum = [Double](repeating: 0, count: 3)
    var sumSq = [Double](repeating: 0, count: 3)
    for i in 0..<5000 {
      for c in 0..<3 {
        let v = Double(pixels[3 * i + c]) / 255
        sum[c] += v
        sumSq[c] += v * v
      }
    }
    let mean = sum.map { $0 / 5000 }
    let std = (0..<3).map { c in max((sumSq[c] / 5000 - mean[c] * mean[c]).squareRoot(), 1e-3) }
    let stats = InputNormalisation.measured(over: pixels)
    #expect(stats.mean.map(\.bitPattern) == mean.map { Float($0).bitPattern })
    #expect(stats.std.map(\.bitPattern) == std.map { Float($0).bitPattern })
  }
}
