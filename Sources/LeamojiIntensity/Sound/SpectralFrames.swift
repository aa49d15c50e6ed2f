import LeamojiCore

/// The short-time spectrum behind `flux`, `onsets` and `lowShare`: 512-sample periodic Hann
/// frames every 256 samples, counted from the stream's first sample, so frame `j` covers samples
/// `256j − 256 ..< 256j + 256` (silence before the stream) and finishes when sample `256j + 255`
/// arrives. The last 512 samples and the previous frame's spectrum are kept across windows.
struct SpectralFrames: Sendable {
  /// What one finished frame gives.
  struct Frame: Sendable, Equatable {
    /// Spectral flux: `Σ_k max(0, c[k] − c₋₁[k])` over bins `0…256`, with
    /// `c[k] = ln(1 + 100·|X[k]|)` and `c₋₁` the previous frame's (0 before the stream).
    var flux: Double
    /// `Σ |X[k]|²` over bins 1… below `lowHertz` (DC left out), and over all bins 1…256.
    var lowEnergy: Double
    var energy: Double
  }

  static let frameLength = 512
  static let hop = 256
  /// The upper edge of `lowShare`'s band: rumble, explosions, thunder.
  static let lowHertz = 150.0
  /// `1 + compression·|X|` is what the flux takes logarithms of.
  static let compression = 100.0

  private let fft = RealFFT(size: frameLength)
  private let hann: [Double]
  /// Bins `1..<lowBins` lie below `lowHertz`.
  private let lowBins: Int
  /// The last `frameLength` samples as a ring; `next` is where the next one goes (the oldest).
  private var recent = [Double](repeating: 0, count: frameLength)
  private var next = 0
  private var sinceHop = 0
  private var previous = [Double](repeating: 0, count: frameLength / 2 + 1)

  init(sampleRate: Int) {
    let fft = self.fft
    hann = (0..<Self.frameLength).map { 0.5 - 0.5 * fft.cosines[$0] }
    let binHertz = Double(sampleRate) / Double(Self.frameLength)
    var bins = 1
    while Double(bins) * binHertz < Self.lowHertz { bins += 1 }
    lowBins = bins
  }

  /// Adds one sample; returns the frame it finishes, every `hop` samples.
  mutating func add(_ sample: Double) -> Frame? {
    recent[next] = sample
    next = (next + 1) % Self.frameLength
    sinceHop += 1
    guard sinceHop == Self.hop else { return nil }
    sinceHop = 0
    var frame = [Double](repeating: 0, count: Self.frameLength)
    for i in 0..<Self.frameLength {
      frame[i] = recent[(next + i) % Self.frameLength] * hann[i]
    }
    let (re, im) = fft.transform(frame)
    var flux = 0.0
    var lowEnergy = 0.0
    var energy = 0.0
    for k in 0..<re.count {
      let power = re[k] * re[k] + im[k] * im[k]
      let compressed = PortableMath.log(1 + Self.compression * power.squareRoot())
      flux += max(0, compressed - previous[k])
      previous[k] = compressed
      if k >= 1 {
        energy += power
        if k < lowBins { lowEnergy += power }
      }
    }
    return Frame(flux: flux, lowEnergy: lowEnergy, energy: energy)
  }
}
