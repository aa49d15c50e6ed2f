#!/usr/bin/env python3
"""Aids for labelling a rendered clip by eye (data/footage-rendered/README.md): contact sheets of
one frame per whole second (the frames leamoji samples, the second written on each tile) and a
table of per-second sound and picture measures.

  render_label_aid.py CLIP OUTDIR

OUTDIR/sheetNN.png: 6x5 tiles, 30 seconds a sheet. OUTDIR/seconds.tsv: second, loud_max (the
highest EBU R128 momentary loudness, LUFS, in [t, t+1)), loud_rise (loud_max minus the lowest
momentary loudness in the second before), pic_change (the largest mean absolute difference, 0-255,
between two consecutive frames at 64x48 grey in [t, t+1)), and `sudden` when loud_rise >= 10 LU
and pic_change >= 20 at once (a candidate jump scare, to be confirmed on the frames)."""
import math
import re
import subprocess
import sys
from pathlib import Path

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def duration(clip: str) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
                          "csv=p=0", clip], capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def loudness(clip: str) -> list[tuple[float, float]]:
    err = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-v", "verbose", "-i", clip,
                          "-map", "0:a:0", "-af", "ebur128=framelog=verbose", "-f", "null", "-"],
                         capture_output=True, text=True).stderr
    rows = []
    for m in re.finditer(r"t:\s*([\d.]+)\s+TARGET:.*?M:\s*(-?[\d.]+)", err):
        # ebur128 reports the 400 ms window ending at t: centre it.
        rows.append((float(m.group(1)) - 0.2, float(m.group(2))))
    return rows


def picture_changes(clip: str) -> list[tuple[float, float]]:
    w, h = 64, 48
    proc = subprocess.run(["ffmpeg", "-v", "error", "-i", clip, "-map", "0:v:0", "-vf",
                           f"scale={w}:{h},format=gray,showinfo", "-f", "rawvideo", "-"],
                          capture_output=True, check=True)
    times = [float(t) for t in re.findall(rb"pts_time:([\d.]+)", proc.stderr)]
    data = proc.stdout
    n = len(data) // (w * h)
    out = []
    prev = None
    for i in range(n):
        frame = data[i * w * h:(i + 1) * w * h]
        if prev is not None:
            diff = sum(abs(a - b) for a, b in zip(frame, prev)) / (w * h)
            out.append((times[i] if i < len(times) else i / 30.0, diff))
        prev = frame
    return out


def main() -> None:
    clip, outdir = sys.argv[1], Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    seconds = math.ceil(duration(clip))
    subprocess.run(["ffmpeg", "-v", "error", "-i", clip, "-vf",
                    f"fps=1:round=down,scale=200:-2,drawtext=fontfile={FONT}:text='%{{n}}':"
                    "x=3:y=3:fontsize=22:fontcolor=yellow:box=1:boxcolor=black@0.6,tile=6x5",
                    "-y", str(outdir / "sheet%02d.png")], check=True)
    loud = loudness(clip)
    pics = picture_changes(clip)
    lines = ["second\tloud_max\tloud_rise\tpic_change\tsudden"]
    for t in range(seconds):
        now = [m for (s, m) in loud if t <= s < t + 1]
        before = [m for (s, m) in loud if t - 1 <= s < t]
        lmax = max(now) if now else -120.0
        rise = lmax - min(before) if before else 0.0
        pc = max((d for (s, d) in pics if t <= s < t + 1), default=0.0)
        sudden = "sudden" if rise >= 10 and pc >= 20 else ""
        lines.append(f"{t}\t{lmax:.1f}\t{rise:.1f}\t{pc:.1f}\t{sudden}")
    (outdir / "seconds.tsv").write_text("\n".join(lines) + "\n")
    print(f"{clip}: {seconds} s, sheets and seconds.tsv in {outdir}")


if __name__ == "__main__":
    main()
