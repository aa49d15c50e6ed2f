#!/usr/bin/env python3
"""Independent NumPy reference for LeamojiIntensity's per-second features (docs/intensity.md).

Usage: intensity_reference.py [--fixtures FOLDER] [--out FILE]
  FOLDER defaults to Tests/LeamojiIntensityTests/Fixtures (made by scripts/intensity_fixture.py);
  FILE defaults to FOLDER/intensity-expected.json.

It computes every feature over the whole signal at once (filters run over the whole stream, the
STFT and the blocks indexed globally, then handed to the second their end falls in), where the
Swift SoundMeter works window by window with carried state: the two must agree to 1e-4.
"""

import argparse
import json
import os

import numpy as np

RATE = 16000
WINDOW = RATE  # samples per sampled second
SUB = RATE // 10  # 100 ms loudness sub-blocks
FRAME, HOP = 512, 256
ONSET_SPAN, ONSET_HISTORY, ONSET_MARGIN = 3, 16, 50.0
LOW_HZ = 150.0
FLOOR = -70.0
CUT = 0.4


def biquad_k_weighting(rate):
    """BS.1770-4's two K-weighting stages at `rate`, by the bilinear transform."""
    f0, gain_db, q = 1681.974450955533, 3.999843853973347, 0.7071752369554196
    k = np.tan(np.pi * f0 / rate)
    vh = 10 ** (gain_db / 20)
    vb = vh**0.4996667741545416
    a0 = 1 + k / q + k * k
    shelf = (
        [(vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0],
        [1.0, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0],
    )
    f0, q = 38.13547087602444, 0.5003270373238773

    def high_pass_a0(r):
        kk = np.tan(np.pi * f0 / r)
        return kk, 1 + kk / q + kk * kk

    k, a0 = high_pass_a0(rate)
    gain = high_pass_a0(48000)[1] / a0  # the 48 kHz coefficients' passband gain, kept
    high = ([gain, -2 * gain, gain], [1.0, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0])
    return shelf, high


def run_biquad(coefficients, x):
    (b0, b1, b2), (_, a1, a2) = coefficients
    y = np.zeros_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for n, v in enumerate(x.tolist()):
        out = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, v, y1, out
        y[n] = out
    return y


def lufs(mean_square):
    with np.errstate(divide="ignore"):
        return np.maximum(FLOOR, -0.691 + 10 * np.log10(np.asarray(mean_square, dtype=float)))


def owner(ends):
    """The second each block or frame belongs to: the one its (exclusive) end falls in."""
    return [(e - 1) // WINDOW for e in ends]


def loudness_features(x, seconds):
    shelf, high = biquad_k_weighting(RATE)
    z = run_biquad(high, run_biquad(shelf, x))
    square = z * z
    mean_square = square.reshape(seconds, WINDOW).mean(axis=1)
    subs = square.reshape(-1, SUB).sum(axis=1)
    padded = np.concatenate([np.zeros(20), subs])  # silence before the stream
    peak = np.full(seconds, FLOOR)
    rise = np.full(seconds, -np.inf)
    for m, second in enumerate(owner((np.arange(len(subs)) + 1) * SUB)):
        p = m + 20
        momentary = lufs(padded[p - 3 : p + 1].sum() / (4 * SUB))
        before = lufs(padded[p - 20 : p].sum() / (20 * SUB))
        peak[second] = max(peak[second], momentary)
        rise[second] = max(rise[second], lufs(padded[p] / SUB) - before)
    return mean_square, lufs(mean_square), peak, rise


def spectral_features(x, seconds):
    padded = np.concatenate([np.zeros(FRAME - HOP), x])
    count = len(x) // HOP
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(FRAME) / FRAME)
    frames = np.stack([padded[j * HOP : j * HOP + FRAME] for j in range(count)]) * hann
    magnitude = np.abs(np.fft.rfft(frames, axis=1))
    compressed = np.log1p(100 * magnitude)
    previous = np.vstack([np.zeros((1, compressed.shape[1])), compressed[:-1]])
    flux = np.maximum(compressed - previous, 0).sum(axis=1)
    power = magnitude**2
    low_bins = np.arange(1, FRAME // 2 + 1) * RATE / FRAME < LOW_HZ
    low = power[:, 1:][:, low_bins].sum(axis=1)
    total = power[:, 1:].sum(axis=1)
    seconds_of = owner((np.arange(count) + 1) * HOP)
    onsets = onset_frames(flux)
    mean_flux, low_share, onset_count = [], [], []
    for s in range(seconds):
        mine = [j for j in range(count) if seconds_of[j] == s]
        mean_flux.append(float(flux[mine].mean()) if mine else 0.0)
        energy = total[mine].sum()
        low_share.append(float(low[mine].sum() / energy) if energy > 0 else 0.0)
        onset_count.append(sum(1 for j in onsets if j + ONSET_SPAN in mine))
    return mean_flux, onset_count, low_share


def onset_frames(flux):
    """Frames whose flux beats the 3 before strictly, the 3 after or ties, and the mean of the
    16 before (zeros before the stream) by the margin."""
    padded = np.concatenate([np.zeros(ONSET_HISTORY), flux])
    found = []
    for j in range(len(flux) - ONSET_SPAN):
        p = j + ONSET_HISTORY
        f = padded[p]
        if (
            np.all(f > padded[p - ONSET_SPAN : p])
            and np.all(f >= padded[p + 1 : p + 1 + ONSET_SPAN])
            and f > padded[p - ONSET_HISTORY : p].mean() + ONSET_MARGIN
        ):
            found.append(j)
    return found


def integrated(mean_squares):
    ms = np.asarray(mean_squares)
    above = ms[lufs(ms) > FLOOR]
    if len(above) == 0:
        return None
    relative = -0.691 + 10 * np.log10(above.mean()) - 10
    kept = above[-0.691 + 10 * np.log10(above) > relative]
    return float(-0.691 + 10 * np.log10(kept.mean()))


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, size, top, pixels = data.split(b"\n", 3)
    assert magic == b"P6" and top == b"255"
    width, height = (int(v) for v in size.split())
    return np.frombuffer(pixels, np.uint8).reshape(height, width, 3).astype(float)


def pace(images):
    out = []
    for n, image in enumerate(images):
        if n == 0:
            out.append({"motion": 0.0, "change": 0.0})
            continue
        before = images[n - 1]
        weights = np.array([0.299, 0.587, 0.114])
        motion = np.abs((image @ weights) / 255 - (before @ weights) / 255).mean()

        def histogram(im):
            bins = (im.astype(int) >> 5).reshape(-1, 3)
            return np.bincount(bins[:, 0] * 64 + bins[:, 1] * 8 + bins[:, 2], minlength=512)

        pixels = image.shape[0] * image.shape[1]
        change = np.abs(histogram(image) - histogram(before)).sum() / (2 * pixels)
        out.append({"motion": float(motion), "change": float(change)})
    for entry in out:
        entry["isCut"] = entry["change"] > CUT
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fixtures", default="Tests/LeamojiIntensityTests/Fixtures")
    parser.add_argument("--out")
    args = parser.parse_args()
    pcm = np.fromfile(os.path.join(args.fixtures, "intensity-input.pcm"), dtype="<i2")
    x = pcm.astype(np.float64) / 32768
    seconds = len(x) // WINDOW
    x = x[: seconds * WINDOW]
    mean_square, loudness, peak, rise = loudness_features(x, seconds)
    flux, onsets, low_share = spectral_features(x, seconds)
    level = integrated(mean_square)
    sound = [
        {
            "loudness": float(loudness[s]),
            "meanSquare": float(mean_square[s]),
            "peakMomentary": float(peak[s]),
            "rise": float(rise[s]),
            "flux": flux[s],
            "onsets": onsets[s],
            "lowShare": low_share[s],
        }
        for s in range(seconds)
    ]
    images = sorted(f for f in os.listdir(args.fixtures) if f.endswith(".ppm"))
    result = {
        "sampleRate": RATE,
        "windowSamples": WINDOW,
        "sound": sound,
        "filmLevel": level,
        "relativeLoudness": [None if level is None else float(v - level) for v in loudness],
        "pictures": images,
        "pace": pace([read_ppm(os.path.join(args.fixtures, f)) for f in images]),
    }
    out = args.out or os.path.join(args.fixtures, "intensity-expected.json")
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
