#!/usr/bin/env python3
"""Checks data/footage-rendered: the manifest's columns, one label file per clip with one row per
sample second (0 … seconds-1) and labels happy/neutral/scary, the split rule (no game data in both
splits), the jump scares (on scary seconds of listed clips) and, given the rendered clips' folder
(OUT/clips of Lab/scripts/render-footage.sh), that each clip is there with sound and
ceil(duration) == seconds. Prints the totals.

  Lab/scripts/render_check.py [CLIPS_DIR]"""
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "footage-rendered"
COLUMNS = ["id", "split", "package", "version", "source_files", "licence", "sha256_of_inputs",
           "seconds", "has_audio", "what", "render_command"]
LABELS = {"happy", "neutral", "scary"}


def fail(msg: str) -> None:
    raise SystemExit(f"render_check: {msg}")


def probe(clip: Path) -> tuple[float, bool]:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                          "format=duration:stream=codec_type", "-of", "default=nw=1", str(clip)],
                         capture_output=True, text=True, check=True).stdout
    duration = float(next(l for l in out.splitlines() if l.startswith("duration=")).split("=")[1])
    return duration, "codec_type=audio" in out


def main() -> None:
    clips_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    lines = (DATA / "manifest.tsv").read_text().rstrip("\n").split("\n")
    if lines[0].split("\t") != COLUMNS:
        fail(f"manifest header {lines[0]!r}")
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            fail(f"manifest row with {len(cells)} cells: {line[:60]}")
        rows.append(dict(zip(COLUMNS, cells)))
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        fail("duplicate ids")
    sources = defaultdict(set)
    labels = {}
    for r in rows:
        if r["split"] not in ("train", "check"):
            fail(f"{r['id']}: split {r['split']}")
        # The game data a clip comes from: the package's source project (freedoom, openarena, …).
        sources[r["package"].split("-")[0]].add(r["split"])
        body = (DATA / "labels" / f"{r['id']}.tsv").read_text().rstrip("\n").split("\n")
        if body[0] != "second\tlabel":
            fail(f"{r['id']}: label header {body[0]!r}")
        seq = []
        for i, line in enumerate(body[1:]):
            second, label = line.split("\t")
            if int(second) != i or label not in LABELS:
                fail(f"{r['id']}: label row {line!r}")
            seq.append(label)
        if len(seq) != int(r["seconds"]):
            fail(f"{r['id']}: {len(seq)} label rows, manifest says {r['seconds']}")
        labels[r["id"]] = seq
        if clips_dir is not None:
            clip = clips_dir / f"{r['id']}.mp4"
            if not clip.is_file():
                fail(f"{clip} missing")
            duration, audio = probe(clip)
            if math.ceil(duration) != int(r["seconds"]) or not audio:
                fail(f"{r['id']}: {duration} s, audio {audio}; manifest {r['seconds']} s")
    extra = {p.stem for p in (DATA / "labels").glob("*.tsv")} - set(ids)
    if extra:
        fail(f"label files without a manifest row: {sorted(extra)}")
    for source, splits in sources.items():
        if len(splits) > 1:
            fail(f"game data {source} is in both splits")
    jumps = defaultdict(list)
    for line in (DATA / "jump-scares.tsv").read_text().rstrip("\n").split("\n")[1:]:
        cid, second, _ = line.split("\t")
        if cid not in labels or labels[cid][int(second)] != "scary":
            fail(f"jump scare {cid} {second} is not a scary second of a listed clip")
        jumps[cid].append(int(second))
    for split in ("check", "train"):
        chosen = [r["id"] for r in rows if r["split"] == split]
        seconds = sum(len(labels[c]) for c in chosen)
        scary = sum(labels[c].count("scary") for c in chosen)
        print(f"{split}: {len(chosen)} clips, {seconds} s, {scary} scary s, "
              f"{sum(len(jumps[c]) for c in chosen)} jump scares")
    print("render_check: ok" + (f" (clips in {clips_dir} checked)" if clips_dir else ""))


if __name__ == "__main__":
    main()
