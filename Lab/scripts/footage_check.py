#!/usr/bin/env python3
"""Checks data/footage: the manifest's columns, one label file per clip with one row per
second from 0 to seconds-1 (labels happy/neutral/scary), and that no package is in both
splits. With a folder of fetched clips (Lab/scripts/fetch-footage.sh's OUT/clips), also each
clip's sha256. Prints per split: clips, seconds, scary seconds; exits 1 on any fault.

Usage: Lab/scripts/footage_check.py [CLIPS_FOLDER]
"""
import csv, hashlib, os, sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "footage")
COLUMNS = ["id", "split", "package", "version", "path", "licence", "sha256", "seconds", "has_audio", "what"]
LABELS = {"happy", "neutral", "scary"}


def main(argv):
    clips = argv[1] if len(argv) > 1 else None
    faults = []
    with open(os.path.join(HERE, "manifest.tsv"), newline="") as f:
        reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader)
        if header != COLUMNS:
            faults.append(f"manifest columns {header} are not {COLUMNS}")
        rows = [dict(zip(header, r)) for r in reader]
    splits, totals, ids = {}, {}, set()
    for r in rows:
        cid = r["id"]
        if cid in ids:
            faults.append(f"{cid}: twice in the manifest")
        ids.add(cid)
        if r["split"] not in ("train", "check"):
            faults.append(f"{cid}: split {r['split']!r}")
        splits.setdefault(r["package"], set()).add(r["split"])
        n = int(r["seconds"])
        path = os.path.join(HERE, "labels", cid + ".tsv")
        try:
            with open(path) as f:
                lines = f.read().splitlines()
        except OSError:
            faults.append(f"{cid}: no label file")
            continue
        if lines[:1] != ["second\tlabel"]:
            faults.append(f"{cid}: label file header {lines[:1]}")
        body = [l.split("\t") for l in lines[1:]]
        if [int(s) for s, _ in body] != list(range(n)):
            faults.append(f"{cid}: label rows are not seconds 0..{n - 1}")
        bad = {l for _, l in body} - LABELS
        if bad:
            faults.append(f"{cid}: labels {sorted(bad)}")
        t = totals.setdefault(r["split"], [0, 0, 0, 0])
        t[0] += 1
        t[1] += n
        t[2] += sum(l == "scary" for _, l in body)
        t[3] += any(l == "scary" for _, l in body)
        if clips:
            name = cid + "." + r["path"].rsplit(".", 1)[-1]
            try:
                with open(os.path.join(clips, name), "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                if digest != r["sha256"]:
                    faults.append(f"{cid}: {name} has sha256 {digest}")
            except OSError:
                faults.append(f"{cid}: {name} not in {clips}")
    for pkg, s in sorted(splits.items()):
        if len(s) > 1:
            faults.append(f"{pkg}: in both splits")
    for split, (c, n, scary, items) in sorted(totals.items()):
        print(f"{split}: {c} clips, {n} s, {scary} scary s, {items} clips with scary seconds")
    for fault in faults:
        print(fault, file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
