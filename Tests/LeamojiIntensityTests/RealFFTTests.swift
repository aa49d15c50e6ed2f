import Foundation
import LeamojiCore
import Testing

@testable import LeamojiIntensity

@Suite("Real FFT")
struct RealFFTTests {
  @Test("matches a direct DFT on noise, an impulse and a constant", arguments: [8, 64, 512])
  func againstDirectDFT(size: Int) {
    var random = SplitMix64(seed: UInt64(size))
    let noise = (0..<size).map { _ in Double(random.next() >> 11) / Double(1 << 53) - 0.5 }
    var impulse = [Double](repeating: 0, count: size)
    impulse[3] = 1
    let constant = [Double](repeating: 0.25, count: size)
    let fft = RealFFT(size: size)
    for x in [noise, impulse, constant] {
      let (re, im) = fft.transform(x)
      #expect(re.count == size / 2 + 1 && im.count == size / 2 + 1)
      for k in 0...(size / 2) {
        var (dr, di) = (0.0, 0.0)
        for t in 0..<size {
          let angle = -2 * Double.pi * Double(k * t) / Double(size)
          dr += x[t] * cos(angle)
          di += x[t] * sin(angle)
        }
        #expect(abs(re[k] - dr) < 1e-10 && abs(im[k] - di) < 1e-10, "bin \(k): \(re[k]) \(dr)")
      }
    }
  }
}
