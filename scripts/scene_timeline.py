"""The timeline `leamoji analyze` writes, recomputed from its per-second probabilities, so the
real check can tune a scary threshold on what a parent sees (after smoothing) without running
`analyze` once per threshold. It mirrors two Swift rules, documented in docs/movie-data.md
("Markers"):

* the label of a sample (MarkerEncoder): with a scary threshold, scary when its scary probability
  reaches the threshold and else the most probable of the other labels; without one, the most
  probable label (ties: the first, in the model's label order);
* the smoothing (SceneSmoother): a run of fewer than `minimum` samples is flicker; flicker runs,
  fewest samples first (then least probable own label, then earliest), take the label of an
  adjacent scene, of two the one more probable over the flicker; when no flicker touches a scene,
  the smallest flicker joins its more probable neighbour. Probabilities count in millionths.

real-check-report.py checks the mirror against the timeline analyze actually wrote, second by
second, at the threshold it was run with. Standard library only.
"""


def raw_labels(rows, threshold, scary):
    """Each sample's label index before smoothing. `rows`: one list of probabilities per sample,
    in the model's label order; `scary`: the index of the scary label (None: no threshold)."""
    def argmax(values):
        return max(range(len(values)), key=lambda k: (values[k], -k))

    out = []
    for row in rows:
        if threshold is None or scary is None:
            out.append(argmax(row))
        elif row[scary] >= threshold:
            out.append(scary)
        else:
            out.append(argmax([-1 if k == scary else p for k, p in enumerate(row)]))
    return out


def smooth(raw, rows, minimum=2):
    """The smoothed label index of each sample (SceneSmoother with `minimum` samples)."""
    if not raw:
        return []
    mass = [[round(p * 1_000_000) for p in row] for row in rows]
    runs = []  # [label, start, count]
    for i, label in enumerate(raw):
        if runs and runs[-1][0] == label:
            runs[-1][2] += 1
        else:
            runs.append([label, i, 1])

    def over(label, run):
        return sum(mass[i][label] for i in range(run[1], run[1] + run[2]))

    def key(run):
        return (run[2], over(run[0], run), run[1])

    def flicker(run):
        return run[2] < minimum

    while len(runs) > 1:
        touching = [i for i, r in enumerate(runs) if flicker(r) and any(
            0 <= j < len(runs) and not flicker(runs[j]) for j in (i - 1, i + 1))]
        if touching:
            f = min(touching, key=lambda i: key(runs[i]))
            candidates = [j for j in (f - 1, f + 1) if 0 <= j < len(runs) and not flicker(runs[j])]
        else:
            flickers = [i for i, r in enumerate(runs) if flicker(r)]
            if not flickers:
                break
            f = min(flickers, key=lambda i: key(runs[i]))
            candidates = [j for j in (f - 1, f + 1) if 0 <= j < len(runs)]
        # The most probable over the flicker; ties: the longer, then the earlier.
        target = max(candidates, key=lambda j: (over(runs[j][0], runs[f]), runs[j][2], -runs[j][1]))
        label = runs[target][0]
        runs[f][0] = label
        # Merge the flicker with every neighbour now of the same label.
        merged = [runs[0]]
        for r in runs[1:]:
            if r[0] == merged[-1][0]:
                merged[-1][2] += r[2]
            else:
                merged.append(r)
        runs = merged
    out = []
    for label, _, count in runs:
        out.extend([label] * count)
    return out


def timeline(rows, threshold, scary, minimum=2):
    """The label index `analyze` shows at each sample: raw labels at `threshold`, smoothed."""
    return smooth(raw_labels(rows, threshold, scary), rows, minimum)
