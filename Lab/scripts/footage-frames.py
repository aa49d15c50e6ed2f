#!/usr/bin/env python3
"""Files the training footage's sampled frames as labelled training pictures (model 3.0).

    footage-frames.py FRAMES OUT MANIFEST_OUT [--every N] [--footage DIR ...]

FRAMES holds one folder per clip, <id>/000000.png, 000001.png, ... as `leamoji frames` writes
them (second n is file n), e.g.

    for c in .build/footage/clips/* .build/footage-rendered/clips/*; do
      leamoji frames "$c" --out "FRAMES/$(basename "${c%.*}")"; done

For every clip of the `train` split of each footage folder
(data/footage and data/footage-rendered by default: manifest.tsv and labels/<id>.tsv, the truth
per second), every N-th second (default 1) is linked into OUT/{Happy,Neutral,Scary}/ as
fr-<id>-<second>.png under its label. MANIFEST_OUT gets a copy of data/real-frames/manifest.tsv
with one row per linked frame (its package, version and licence from the footage manifest), so
that Lab/scripts/source-weights.py weights the frames by their package and label like the stills.

Check-split clips are never linked: they are the footage check set. Standard library only; the
same inputs give the same folder.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import footage_labels  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LABELS = {"happy": "Happy", "neutral": "Neutral", "scary": "Scary"}


def main(argv):
    args, folders, every = [], [], 1
    i = 0
    while i < len(argv):
        if argv[i] == "--footage":
            folders.append(argv[i + 1]); i += 2
        elif argv[i] == "--every":
            every = int(argv[i + 1]); i += 2
        else:
            args.append(argv[i]); i += 1
    if len(args) != 3 or every < 1:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    frames, out, manifest_out = args
    folders = folders or [os.path.join(ROOT, "data", d) for d in ("footage", "footage-rendered")]
    with open(os.path.join(ROOT, "data", "real-frames", "manifest.tsv"), encoding="utf-8") as f:
        stills = f.read()
    header = stills.splitlines()[0].split("\t")
    rows, linked = [], {}
    for label in LABELS.values():
        os.makedirs(os.path.join(out, label), exist_ok=True)
    for folder in folders:
        for clip in footage_labels.clips(folder):
            if clip["split"] != "train":
                continue
            ident = clip["id"]
            clip_frames = os.path.join(frames, ident)
            if not os.path.isdir(clip_frames):
                sys.exit(f"footage-frames: {clip_frames}: no frames (leamoji frames CLIP --out {clip_frames})")
            truth = {t: r["label"] for t, r in footage_labels.seconds(folder, ident).items()}
            for second, label in sorted(truth.items()):
                if second % every or label not in LABELS:
                    continue
                png = os.path.join(clip_frames, f"{second:06d}.png")
                if not os.path.exists(png):
                    # The label files count ceil(duration) seconds; a clip whose last frame ends
                    # before its last whole second has no sample there.
                    if second == max(truth):
                        continue
                    sys.exit(f"footage-frames: {png}: missing (the clip is shorter than its labels)")
                name = f"fr-{ident}-{second:04d}"
                os.symlink(os.path.abspath(png), os.path.join(out, LABELS[label], name + ".png"))
                linked[label] = linked.get(label, 0) + 1
                row = {k: "" for k in header}
                row.update(id=name, split="train", label=label, package=clip["package"],
                           version=clip["version"], licence=clip.get("licence", ""),
                           what=f"second {second} of footage {ident}")
                rows.append("\t".join(row[k] for k in header))
    with open(manifest_out, "w", encoding="utf-8") as f:
        f.write(stills if stills.endswith("\n") else stills + "\n")
        f.write("".join(r + "\n" for r in rows))
    print(f"footage-frames: {sum(linked.values())} frames "
          f"({', '.join(f'{n} {label}' for label, n in sorted(linked.items()))}) -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
