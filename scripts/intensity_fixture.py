#!/usr/bin/env python3
"""Makes the intensity reference test's input (run once; the output is committed).

Usage: intensity_fixture.py [FOLDER]   (default Tests/LeamojiIntensityTests/Fixtures)

Writes, with NumPy only and a fixed seed:
  intensity-input.pcm    6 s of 16 kHz mono, 16-bit signed little-endian PCM, one second each:
                         0 silence; 1 silence then a 1 kHz tone at -20 dBFS RMS from 1.3 s;
                         2 white noise at -30 dBFS RMS; 3 a low rumble (50 + 80 Hz) over faint
                         noise; 4 clicks every 250 ms over the faint noise; 5 a 2 kHz tone
                         fading out, then silence from 5.5 s.
  intensity-input-N.ppm  four 16x12 binary PPM (P6) pictures: 0 a gradient scene; 1 the same
                         6 levels brighter (no cut); 2 another scene (a cut); 3 that scene moved
                         one pixel right (motion, no cut).
Then run scripts/intensity_reference.py to write intensity-expected.json.
"""

import os
import sys

import numpy as np

RATE = 16000


def sound():
    rng = np.random.default_rng(37)
    t = np.arange(6 * RATE) / RATE
    x = np.zeros(6 * RATE)
    one = slice(int(1.3 * RATE), 2 * RATE)
    x[one] = 0.1 * np.sqrt(2) * np.sin(2 * np.pi * 1000 * t[one])
    x[2 * RATE : 3 * RATE] = rng.standard_normal(RATE) * 10 ** (-30 / 20)
    three = slice(3 * RATE, 4 * RATE)
    x[three] = 0.12 * np.sin(2 * np.pi * 50 * t[three]) + 0.08 * np.sin(2 * np.pi * 80 * t[three])
    x[3 * RATE : 5 * RATE] += rng.standard_normal(2 * RATE) * 10 ** (-50 / 20)
    for k in range(4):
        start = 4 * RATE + 1000 + k * RATE // 4
        x[start : start + 32] += 0.5 * np.exp(-np.arange(32) / 6.0) * np.sign(np.sin(np.arange(32)))
    five = slice(5 * RATE, int(5.5 * RATE))
    fade = np.linspace(1, 0, int(0.5 * RATE))
    x[five] = 0.05 * fade * np.sin(2 * np.pi * 2000 * t[five])
    return np.clip(np.round(x * 32768), -32768, 32767).astype("<i2")


def scene(width, height, shade, shift):
    y, x = np.mgrid[0:height, 0:width]
    x = (x - shift) % width
    r = (x * 255 // (width - 1)) * shade[0]
    g = (y * 255 // (height - 1)) * shade[1]
    b = ((x + y) * 8) % 256 * shade[2]
    return np.stack([r, g, b], axis=-1).clip(0, 255).astype(np.uint8)


def pictures():
    first = scene(16, 12, (1.0, 0.8, 0.5), 0)
    brighter = np.clip(first.astype(int) + 6, 0, 255).astype(np.uint8)
    other = 255 - scene(16, 12, (0.3, 1.0, 0.9), 3)
    moved = np.roll(other, 1, axis=1)
    return [first, brighter, other, moved]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "Tests/LeamojiIntensityTests/Fixtures"
    os.makedirs(folder, exist_ok=True)
    sound().tofile(os.path.join(folder, "intensity-input.pcm"))
    for n, image in enumerate(pictures()):
        with open(os.path.join(folder, f"intensity-input-{n}.ppm"), "wb") as f:
            f.write(b"P6\n16 12\n255\n" + image.tobytes())


if __name__ == "__main__":
    main()
