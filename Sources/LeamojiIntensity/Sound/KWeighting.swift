import LeamojiCore

/// ITU-R BS.1770-4's K-weighting at any sample rate: the pre-filter (a high shelf of about +4 dB
/// above 1.7 kHz, the head's effect) then the RLB high-pass (below about 38 Hz), with the filter
/// state carried from sample to sample.
///
/// The standard publishes the two stages' coefficients for 48 kHz only. Here they are derived
/// from the analogue prototypes by the bilinear transform (prewarped at f0), with the prototype
/// parameters that reproduce the published coefficients (f0, gain and Q as fitted by B. De Man,
/// "Evaluation of implementations of the EBU R128 loudness measurement", AES 2014); at 48 kHz
/// the derivation gives the published numbers to about 1e-15 (a test checks it).
struct KWeighting: Sendable, Equatable {
  private var shelf: Biquad
  private var highPass: Biquad

  init(sampleRate: Double) {
    shelf = Self.shelf(sampleRate: sampleRate)
    highPass = Self.highPass(sampleRate: sampleRate)
  }

  /// The K-weighted value of the next input sample.
  mutating func process(_ x: Double) -> Double { highPass.process(shelf.process(x)) }

  /// The squared magnitude of the whole K-weighting at `hertz`.
  func powerGain(atHertz hertz: Double, sampleRate: Double) -> Double {
    shelf.powerGain(atHertz: hertz, sampleRate: sampleRate)
      * highPass.powerGain(atHertz: hertz, sampleRate: sampleRate)
  }

  /// `tan(π f0 / rate)`: the prewarped analogue frequency of the bilinear transform.
  private static func prewarp(_ f0: Double, _ rate: Double) -> Double {
    let x = PortableMath.pi * f0 / rate
    return PortableMath.sin(x) / PortableMath.cos(x)
  }

  /// Stage 1, the high shelf `H(s) = (Vh s² + Vb (ω0/Q) s + ω0²) / (s² + (ω0/Q) s + ω0²)` with
  /// `Vh = 10^(G/20)` (the gain above f0) and `Vb = Vh^0.49967` (the gain at f0, close to the
  /// geometric mean √Vh; the exponent is De Man's fit to the published coefficients).
  static func shelf(sampleRate: Double) -> Biquad {
    let f0 = 1_681.974_450_955_533
    let gainDB = 3.999_843_853_973_347
    let q = 0.707_175_236_955_419_6
    let k = prewarp(f0, sampleRate)
    let vh = Decibels.power10(gainDB / 20)
    let vb = PortableMath.exp(0.499_666_774_154_541_6 * PortableMath.log(vh))
    let a0 = 1 + k / q + k * k
    return Biquad(
      b: ((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0),
      a: (2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0))
  }

  /// Stage 2, the RLB high-pass `H(s) = g s² / (s² + (ω0/Q) s + ω0²)`. The standard's 48 kHz
  /// numerator is exactly `1, −2, 1`, which is the bilinear transform's `1, −2, 1` divided by its
  /// `a0` and multiplied by `g = a0(48 kHz) = 1 + K/Q + K²` (≈ 1.005, +0.04 dB in the pass band):
  /// that gain is part of the prototype, kept at every rate so the pass band matches 48 kHz's.
  static func highPass(sampleRate: Double) -> Biquad {
    let f0 = 38.135_470_876_024_44
    let q = 0.500_327_037_323_877_3
    func a0(_ k: Double) -> Double { 1 + k / q + k * k }
    let k = prewarp(f0, sampleRate)
    let g = a0(prewarp(f0, 48_000)) / a0(k)
    return Biquad(b: (g, -2 * g, g), a: (2 * (k * k - 1) / a0(k), (1 - k / q + k * k) / a0(k)))
  }
}
