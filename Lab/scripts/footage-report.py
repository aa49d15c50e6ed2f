#!/usr/bin/env python3
"""Scores analyze's timelines of the footage clips against their per-second truth: the picture
alone against the picture with sound and pace.

For each run (a MovieData.json written by `analyze --frames`, one entry per clip, its id the
clip's id) and each split, prints: frightening seconds the timeline calls scary, frightening
items (clips with any frightening second) with at least one of those seconds called scary,
benign seconds called scary, sudden events on benign footage per 10 minutes, and, where the
truth marks jump scares (a `jump` column set to 1 in a label file, or a row of the folder's
jump-scares.tsv: id, second, what), those marked sudden within 1 s.

Usage: Lab/scripts/footage-report.py NAME=MovieData.json [NAME=MovieData.json ...]
       [--footage DIR ...]   (data folders with manifest.tsv and labels/; default data/footage
                              and data/footage-rendered where present)
"""
import csv, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import footage_labels  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def read_truth(folders):
    """id -> (split, {second: (label, jump)})"""
    truth = {}
    for folder in folders:
        for row in footage_labels.clips(folder):
            seconds = {t: (r["label"], r.get("jump", "0") == "1")
                       for t, r in footage_labels.seconds(folder, row["id"]).items()}
            truth[row["id"]] = (row["split"], seconds)
        # Jump scares may also be listed apart: jump-scares.tsv (id, second, what).
        jumps = os.path.join(folder, "jump-scares.tsv")
        if os.path.exists(jumps):
            with open(jumps, newline="") as f:
                for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                    if r["id"] in truth:
                        second = int(r["second"])
                        label = truth[r["id"]][1].get(second, ("scary", False))[0]
                        truth[r["id"]][1][second] = (label, True)
    return truth


def pct(a, b):
    return f"{100 * a / b:5.1f} % ({a}/{b})" if b else "    - (0/0)"


def score(entries, truth, split):
    fright = fright_hit = benign = benign_hit = items = items_hit = 0
    jumps = jumps_hit = 0
    benign_seconds = sudden_benign = 0
    missing = []
    for cid, (s, seconds) in sorted(truth.items()):
        if s != split:
            continue
        entry = entries.get(cid)
        if entry is None or "frames" not in entry:
            missing.append(cid)
            continue
        called = {int(round(f["second"])): f["label"] for f in entry["frames"]}
        sudden = [e["second"] for e in entry.get("events", []) if e.get("kind") == "sudden"]
        item_fright = item_hit = False
        for second, (label, jump) in seconds.items():
            if second not in called:
                continue
            scary = called[second] == "scary"
            if label == "scary":
                fright += 1
                fright_hit += scary
                item_fright = True
                item_hit = item_hit or scary
            else:
                benign += 1
                benign_hit += scary
            if jump:
                jumps += 1
                jumps_hit += any(abs(t - second) <= 1 for t in sudden)
        benign_only = [t for t in sudden if seconds.get(int(t), ("scary", False))[0] != "scary"]
        # Only the seconds with a sample count (as for "benign seconds called scary"): a label
        # file counts ceil(duration) seconds, one past the last sample of some clips.
        benign_seconds += sum(1 for t, (l, _) in seconds.items() if l != "scary" and t in called)
        sudden_benign += len(benign_only)
        if item_fright:
            items += 1
            items_hit += item_hit
    per10 = f"{sudden_benign / benign_seconds * 600:.2f}" if benign_seconds else "-"
    return {
        "frightening seconds called scary": pct(fright_hit, fright),
        "frightening items warned of": pct(items_hit, items),
        "benign seconds called scary": pct(benign_hit, benign),
        "sudden events on benign seconds per 10 min": f"{per10} ({sudden_benign} in {benign_seconds} s)",
        "jump scares marked sudden (±1 s)": pct(jumps_hit, jumps),
    }, missing


def main(argv):
    runs, folders, i = [], [], 1
    while i < len(argv):
        if argv[i] == "--footage":
            folders.append(argv[i + 1])
            i += 2
            continue
        name, _, path = argv[i].partition("=")
        runs.append((name, path))
        i += 1
    if not runs:
        print(__doc__, file=sys.stderr)
        return 2
    if not folders:
        folders = [os.path.join(ROOT, "data", d) for d in ("footage", "footage-rendered")]
    truth = read_truth(folders)
    splits = sorted({s for s, _ in truth.values()})
    for split in splits:
        print(f"footage, split {split}: {sum(1 for s, _ in truth.values() if s == split)} clips")
        table = {}
        for name, path in runs:
            with open(path) as f:
                entries = {e["id"]: e for e in json.load(f)}
            figures, missing = score(entries, truth, split)
            if missing:
                print(f"  {name}: not analysed: {', '.join(missing)}", file=sys.stderr)
            table[name] = figures
        keys = list(next(iter(table.values())).keys())
        width = max(len(k) for k in keys)
        print("  " + " " * width + "".join(f"  {n:>24}" for n, _ in runs))
        for k in keys:
            print("  " + k.ljust(width) + "".join(f"  {table[n][k]:>24}" for n, _ in runs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
