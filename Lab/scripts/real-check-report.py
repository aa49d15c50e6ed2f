#!/usr/bin/env python3
"""Scores an analysed real check set (issue 22, `make real-check`): per-second truth against the
timeline leamoji wrote, and the ROC area of its per-second scary probability.

    real-check-report.py MOVIEDATA CLIPS MANIFEST [FOOTAGE] [--footage-check MOVIEDATA]

MOVIEDATA is the MovieData.json that `leamoji analyze --frames` wrote for every clip; CLIPS the
folder with each clip's <id>.truth.json (Lab/scripts/make-check-clips.sh); MANIFEST
data/real-frames/manifest.tsv (for each still's package); FOOTAGE another MovieData.json
(written with --frames) whose every entry is benign at every second: the PyPI footage of
check-real-footage.sh, its source "PyPI footage" and tag footage-benign. --footage-check names
the MovieData.json of the moving footage check set (the `check` clips of data/footage and
data/footage-rendered, analysed with --signals picture --frames, each entry's id its clip's id):
those clips join the check set with their per-second truth (labels/<id>.tsv), tag footage and
source "footage: <package>", are reported as a group of their own, and the thresholds are tuned on
stills and footage together (the benign share holding for each group).

A second is "called scary" when the timeline (its markers, after leamoji's smoothing: what a
parent sees) says scary at that second. The ROC area uses the model's scary probability of the
frame sampled at that second (the `frames` of MovieData.json), frightening seconds against
benign ones (ties count half). Standard library only.

The thresholds of --sensitivity normal, high and low are tuned on the timeline too: it is
recomputed from the per-second probabilities for each threshold by leamoji's own marker encoder
and smoother (`leamoji-lab retime`, the binary LEAMOJI_LAB_BIN names, default the release
build's), after a check that the recomputed timeline at the threshold analyze ran with is the
one analyze wrote
(REAL_CHECK_SENSITIVITY, analyze's --sensitivity: normal, high, low or a probability, and
REAL_CHECK_MODEL_JSON, `leamoji model --json` of the model, for its card's thresholds).
REAL_CHECK_TUNED, REAL_CHECK_TUNED_HIGH and REAL_CHECK_TUNED_LOW name files to write them to;
REAL_CHECK_SUMMARY one for a one-line summary.
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import footage_labels  # noqa: E402
import real_manifest  # noqa: E402

LAB_BIN = os.environ.get("LEAMOJI_LAB_BIN") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "release", "leamoji-lab")


def auc(pos, neg):
    if not pos or not neg:
        return float("nan")
    ranked = sorted([(p, 1) for p in pos] + [(n, 0) for n in neg])
    # Mann-Whitney U with average ranks for ties.
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        avg = (i + 1 + j) / 2
        rank_sum += avg * sum(1 for k in range(i, j) if ranked[k][1])
        i = j
    u = rank_sum - len(pos) * (len(pos) + 1) / 2
    return u / (len(pos) * len(neg))


BOOTSTRAP_ROUNDS = 400


def auc_interval(seconds, rounds=BOOTSTRAP_ROUNDS, seed=22):
    """A 90 % bootstrap interval of the ROC area: whole items drawn again with replacement (a
    check item's seconds are not independent), so two models' areas can be told apart from noise."""
    by_item = {}
    for r in seconds:
        by_item.setdefault(r[0], []).append(r)
    ids = sorted(by_item)
    rng = random.Random(seed)
    areas = []
    for _ in range(rounds):
        rows = [r for _ in ids for r in by_item[ids[rng.randrange(len(ids))]]]
        pos = [r[3] for r in rows if r[1]]
        neg = [r[3] for r in rows if not r[1]]
        if pos and neg:
            areas.append(auc(pos, neg))
    if not areas:  # only frightening or only benign seconds: no area to draw
        return float("nan"), float("nan")
    areas.sort()
    return areas[int(0.05 * len(areas))], areas[int(0.95 * len(areas)) - 1]


def thresholds(card):
    """The scary threshold of each sensitivity, as AnalysisPlan.Sensitivity decides it from a
    model card (None: the most probable label alone)."""
    tuned = card.get("scary_threshold")
    return {
        "high": card.get("scary_threshold_high", tuned / 2 if tuned is not None else 0.3),
        "normal": tuned,
        "low": card.get("scary_threshold_low", (1 + tuned) / 2 if tuned is not None else 0.7),
    }


def retimed(path, thresholds, prefix=""):
    """{(id, threshold): label of each frame in time order} of every entry of the MovieData.json
    at `path` with frames, at each of `thresholds` (None: the most probable label), from one run
    of `leamoji-lab retime`; `prefix` goes before each id, as the caller keys the entries."""
    if not os.access(LAB_BIN, os.X_OK):
        sys.exit(f"real-check-report: no leamoji-lab at {LAB_BIN} (make lab, or set LEAMOJI_LAB_BIN)")
    listed = ",".join("none" if t is None else repr(t) for t in thresholds)
    run = subprocess.run([LAB_BIN, "retime", path, "--thresholds", listed],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"real-check-report: leamoji-lab retime {path} failed: {run.stderr.strip()}")
    out, lines = {}, run.stdout.splitlines()
    for k, line in enumerate(lines):
        entry = json.loads(line)
        t = thresholds[k % len(thresholds)]  # one line per threshold, in the order asked
        if entry["threshold"] != t:
            sys.exit(f"real-check-report: leamoji-lab retime answered {entry['threshold']} for {t}")
        out[(prefix + entry["id"], t)] = entry["labels"]
    return out


def label_at(markers, second):
    label = None
    for m in markers:
        if m["second"] <= second + 1e-9:
            label = m["label"]
    return label


def pct(a, b):
    return f"{100 * a / b:5.1f} % ({a}/{b})" if b else "    – (0/0)"


def footage_truth(data_root):
    """The footage check clips' truth: id -> (package, [label of second 0, 1, ...])."""
    out = {}
    for folder in ("footage", "footage-rendered"):
        path = os.path.join(data_root, folder)
        for row in footage_labels.clips(path):
            if row["split"] != "check":
                continue
            labels = footage_labels.seconds(path, row["id"])
            out[row["id"]] = (row["package"], [labels[s]["label"] for s in range(max(labels) + 1)])
    return out

def main():
    argv = sys.argv[1:]
    footage_check = None
    if "--footage-check" in argv:
        k = argv.index("--footage-check")
        footage_check = argv[k + 1]
        del argv[k:k + 2]
    data_path, clips, manifest, *footage = argv
    with open(data_path, encoding="utf-8") as f:
        movies = {m["id"]: m for m in json.load(f)}
    benign_ids = []
    for path in footage:
        with open(path, encoding="utf-8") as f:
            for m in json.load(f):
                m["id"] = "footage:" + m["id"]
                movies[m["id"]] = m
                benign_ids.append(m["id"])
    package = real_manifest.packages(manifest)

    items = []  # (id, truth labels, tags, per-second source)
    for name in sorted(os.listdir(clips)):
        if not name.endswith(".truth.json"):
            continue
        with open(os.path.join(clips, name), encoding="utf-8") as f:
            t = json.load(f)
        if t["id"].startswith("pair-"):
            first, second = t["source"].split(":")[0].split(" then ")
            sources = [package[first] if i < 3 else package[second] for i in range(len(t["labels"]))]
        else:
            sources = [package[t["id"]]] * len(t["labels"])
        items.append((t["id"], t["labels"], t["tags"], sources))
    for ident in benign_ids:
        m = movies[ident]
        n = int(m["duration"]) + 1  # samples at 0, 1, ... up to the duration
        items.append((ident, ["neutral"] * n, ["footage-benign"], ["PyPI footage"] * n))
    if footage_check:
        with open(footage_check, encoding="utf-8") as f:
            analysed = {m["id"]: m for m in json.load(f)}
        truth = footage_truth(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))
        for ident in sorted(set(analysed) & set(truth)):
            movies["clip:" + ident] = analysed[ident]
            package, labels = truth[ident]
            items.append(("clip:" + ident, labels, ["footage"], ["footage: " + package] * len(labels)))

    # Per second: (item, truth scary?, called scary?, p(scary), tags, source, second)
    seconds, missing = [], []
    # Per item: the index of its scary label (None: none), each sample's probabilities, and the
    # sample index of each scored second (in time order, as leamoji-lab retime lists labels).
    samples = {}
    for ident, labels, tags, sources in items:
        m = movies.get(ident)
        if m is None:
            missing.append(ident)
            continue
        frames = sorted(m.get("frames", []), key=lambda fr: fr["second"])
        names = list(frames[0]["probabilities"]) if frames else []
        scary = names.index("scary") if "scary" in names else None
        rows = [[fr["probabilities"].get(n, 0.0) for n in names] for fr in frames]
        index = {round(fr["second"]): k for k, fr in enumerate(frames)}
        samples[ident] = (scary, rows, index)
        for s, truth in enumerate(labels):
            if s not in index:
                continue
            called = label_at(m["markers"], s) == "scary"
            p = rows[index[s]][scary] if scary is not None else 0.0
            seconds.append((ident, truth == "scary", called, p, tags, sources[s], s))
    if missing:
        sys.exit(f"not analysed: {' '.join(missing)}")

    # The threshold analyze ran with (REAL_CHECK_SENSITIVITY and the model's card), and every
    # timeline the report needs: at that threshold and at 0.01 to 0.99, each item's recomputed by
    # one run of leamoji-lab retime per MovieData.json.
    sensitivity = os.environ.get("REAL_CHECK_SENSITIVITY", "normal")
    model_json = os.environ.get("REAL_CHECK_MODEL_JSON")
    wanted = [k / 100 for k in range(1, 100)]
    if model_json:
        with open(model_json, encoding="utf-8") as f:
            card = json.load(f).get("card", {})
        ran = thresholds(card)[sensitivity] if sensitivity in ("normal", "high", "low") else float(sensitivity)
        wanted = [ran] + [t for t in wanted if t != ran]
    timelines = retimed(data_path, wanted)
    for path in footage:
        timelines.update(retimed(path, wanted, prefix="footage:"))
    if footage_check:
        timelines.update(retimed(footage_check, wanted, prefix="clip:"))

    def called_at(t):
        """The (item, second) pairs the timeline calls scary when analyze runs with scary
        threshold t (None: the most probable label alone), recomputed (leamoji-lab retime)."""
        out = set()
        for ident, (scary, rows, index) in samples.items():
            shown = timelines.get((ident, t))
            if scary is None or shown is None:
                continue
            out.update((ident, s) for s, k in index.items() if shown[k] == "scary")
        return out

    # The recomputed timeline must be the one analyze wrote, at the threshold it ran with, before
    # thresholds are tuned on it.
    if model_json:
        t = ran
        ran_with = "the most probable label" if t is None else f"{t:g}"
        calls = called_at(t)
        # MovieData.json rounds probabilities to 4 decimals: an item with a scary probability
        # within that rounding of the threshold may go either way.
        near = {ident for ident, (scary, rows, _) in samples.items() if t is not None and scary is not None
                and any(abs(row[scary] - t) <= 0.00005 for row in rows)}
        differ = [f"{r[0]}@{r[6]}" for r in seconds if r[2] != ((r[0], r[6]) in calls) and r[0] not in near]
        if differ:
            sys.exit(f"real-check-report: the timeline recomputed at {ran_with} differs from analyze's "
                     f"at {len(differ)} of {len(seconds)} seconds ({' '.join(differ[:5])}): "
                     f"leamoji-lab retime no longer re-derives analyze's timeline")
        skipped = sum(r[0] in near for r in seconds)
        print(f"the timeline recomputed at {ran_with} (leamoji-lab retime) matches analyze's at "
              f"all {len(seconds) - skipped} seconds compared"
              + (f" ({skipped} of items with a scary probability within rounding of {ran_with} not compared)"
                 if t is not None else ""))

    def figures(rows):
        """Counts of `rows`: frightening seconds (called scary, all), frightening items (warned,
        all), benign seconds (called scary, all), and the ROC area of p(scary)."""
        fr = [r for r in rows if r[1]]
        be = [r for r in rows if not r[1]]
        return {
            "fr": (sum(r[2] for r in fr), len(fr)),
            "items": (len({r[0] for r in fr if r[2]}), len({r[0] for r in fr})),
            "be": (sum(r[2] for r in be), len(be)),
            "auc": auc([r[3] for r in fr], [r[3] for r in be]),
        }

    def report(title, rows):
        f = figures(rows)
        print(f"{title}")
        if f["fr"][1]:
            print(f"  frightening seconds called scary   {pct(*f['fr'])}")
            print(f"  frightening items with a warning   {pct(*f['items'])}")
        if f["be"][1]:
            print(f"  benign seconds called scary        {pct(*f['be'])}")
        if f["fr"][1] and f["be"][1]:
            print(f"  ROC area of p(scary)               {f['auc']:.3f}")

    report("all check items (goals: >= 80 % of frightening seconds, >= 90 % of items, <= 5 % of benign seconds)", seconds)
    low, high = auc_interval(seconds)
    print(f"  ROC area, 90 % interval over items  {low:.3f} - {high:.3f}  "
          f"(items resampled, {BOOTSTRAP_ROUNDS} times)")
    summary_path = os.environ.get("REAL_CHECK_SUMMARY")
    if summary_path:
        stills = [r for r in seconds if "footage" not in r[4]]
        f = figures(stills)
        dark_be = figures([r for r in stills if not r[1] and "dark-benign" in r[4]])["be"]
        share = lambda a, b: f"{100 * a / b:.1f} %" if b else "n/a"
        text = (f"real check set (data/real-frames check split and PyPI footage, never trained on; "
                f"{len({r[0] for r in stills})} items, {len(stills)} s): frightening seconds called scary "
                f"{share(*f['fr'])}, frightening items warned {share(*f['items'])}, benign "
                f"seconds called scary {share(*f['be'])} (dark and night {share(*dark_be)}), "
                f"ROC area {f['auc']:.3f}")
        moving = [r for r in seconds if "footage" in r[4]]
        if moving:
            g = figures(moving)
            text += (f"; moving footage check set (the check clips of data/footage and "
                     f"data/footage-rendered, picture alone; {len({r[0] for r in moving})} clips, "
                     f"{len(moving)} s): frightening seconds called scary {share(*g['fr'])}, "
                     f"frightening items warned {share(*g['items'])}, benign seconds called scary "
                     f"{share(*g['be'])}, ROC area {g['auc']:.3f}")
        with open(summary_path, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    if footage_check:
        report("stills and PyPI clips", [r for r in seconds if "footage" not in r[4]])
        report("moving footage check set (data/footage and data/footage-rendered, split check)",
               [r for r in seconds if "footage" in r[4]])
    report("bright frightening items", [r for r in seconds if r[1] and "bright-frightening" in r[4]])
    report("dark benign items (goal: <= 10 % of seconds)", [r for r in seconds if not r[1] and "dark-benign" in r[4]])
    # The --sensitivity trade-off: each second called scary from a scary probability of t, as
    # `analyze --sensitivity t` decides it before the 2 s smoothing (which a lone second does
    # not survive), so these rates are per second, not the timeline's.
    fr = [r for r in seconds if r[1]]
    be = [r for r in seconds if not r[1]]
    dark = [r for r in be if "dark-benign" in r[4]]
    frightening_items = len({r[0] for r in fr})

    def at(t):
        """Seconds called scary from p(scary) >= t: frightening ones, frightening items with one,
        benign ones, dark benign ones."""
        return (sum(r[3] >= t for r in fr), len({r[0] for r in fr if r[3] >= t}),
                sum(r[3] >= t for r in be), sum(r[3] >= t for r in dark))

    print("scary from p(scary) >= t, per second before smoothing (analyze --sensitivity t)")
    print("  t      frightening s   items warned   benign s   dark benign s")
    for t in (0.1, 0.2, 0.3, 0.4, 0.5, 0.7):
        hit, items_hit, benign, dark_hit = at(t)
        print(f"  {t:<5}  {pct(hit, len(fr)):>14}  {pct(items_hit, frightening_items):>13}"
              f"  {pct(benign, len(be)):>9}  {pct(dark_hit, len(dark)):>13}")
    # The --sensitivity trade-off as the timeline shows it: each second called scary after the
    # smoothing, analyze's timeline recomputed for a scary threshold of t (leamoji-lab retime).
    def shown(t):
        """The timeline at threshold t: frightening seconds called scary, frightening items with
        one, benign ones, dark benign ones."""
        calls = called_at(t)
        hit = [r for r in seconds if (r[0], r[6]) in calls]
        return (sum(r[1] for r in hit), len({r[0] for r in hit if r[1]}),
                sum(not r[1] for r in hit), sum(not r[1] and "dark-benign" in r[4] for r in hit))

    print("scary from p(scary) >= t, as the timeline shows it (after smoothing)")
    print("  t      frightening s   items warned   benign s   dark benign s")
    timeline = {k: shown(k / 100) for k in range(1, 100)}
    for k in (20, 30, 35, 40, 45, 50, 70):
        hit, items_hit, benign, dark_hit = timeline[k]
        print(f"  {k / 100:<5}  {pct(hit, len(fr)):>14}  {pct(items_hit, frightening_items):>13}"
              f"  {pct(benign, len(be)):>9}  {pct(dark_hit, len(dark)):>13}")
    # The tuned thresholds a model card records (train --scary-threshold, -high, -low): the
    # most frightening seconds the timeline calls scary while it calls at most a share of benign
    # and of dark benign seconds scary, in steps of 0.01 (ties: the fewer benign seconds, then
    # the higher threshold). normal: 5 % and 10 %; high (more warnings): 15 % and 15 %; low
    # (fewer): 1.5 % and 1.5 %. (Up to model 2.2 they were tuned per second before the
    # smoothing, in steps of 0.05.)
    # With the moving footage in the check set, the benign share holds for each group on its
    # own (the stills with the PyPI clips, and the footage), so that neither kind of picture
    # pays for the other's warnings.
    footage_be = [r for r in be if "footage" in r[4]]
    still_be = [r for r in be if "footage" not in r[4]]

    def benign_by_group(k):
        calls = called_at(k / 100)
        return (sum((r[0], r[6]) in calls for r in still_be), sum((r[0], r[6]) in calls for r in footage_be))

    groups = {k: benign_by_group(k) for k in timeline} if footage_check else {}

    def within(k, benign_share):
        if not footage_check:
            return timeline[k][2] <= benign_share * len(be)
        still_hit, footage_hit = groups[k]
        return still_hit <= benign_share * len(still_be) and footage_hit <= benign_share * len(footage_be)

    def tune(benign_share, dark_share):
        allowed = [(timeline[k][0], -timeline[k][2], k) for k in timeline
                   if within(k, benign_share) and timeline[k][3] <= dark_share * len(dark)]
        if not allowed:
            return None
        k = max(allowed)[2]
        return k / 100, timeline[k]

    for name, benign_share, dark_share, env in (
            ("tuned threshold", 0.05, 0.10, "REAL_CHECK_TUNED"),
            ("tuned for --sensitivity high", 0.15, 0.15, "REAL_CHECK_TUNED_HIGH"),
            ("tuned for --sensitivity low", 0.015, 0.015, "REAL_CHECK_TUNED_LOW")):
        best = tune(benign_share, dark_share)
        if not best:
            continue
        t, (caught, items_hit, benign, dark_hit) = best
        print(f"{name} {t:.2f}: the most frightening seconds with <= {100 * benign_share:g} % of "
              f"benign{' (stills and footage each)' if footage_check else ''} and "
              f"<= {100 * dark_share:g} % of dark benign seconds")
        print(f"  there (the timeline, after smoothing): frightening s {pct(caught, len(fr))}, items warned "
              f"{pct(items_hit, frightening_items)}, benign s {pct(benign, len(be))}, dark benign s "
              f"{pct(dark_hit, len(dark))}")
        if footage_check:
            calls = called_at(t)
            for group, keep in (("stills and PyPI clips", lambda r: "footage" not in r[4]),
                                ("moving footage", lambda r: "footage" in r[4])):
                rows = [(r[0], r[1], (r[0], r[6]) in calls) for r in seconds if keep(r)]
                g_fr = [r for r in rows if r[1]]
                g_be = [r for r in rows if not r[1]]
                print(f"    {group:22} frightening s {pct(sum(r[2] for r in g_fr), len(g_fr))}, items warned "
                      f"{pct(len({r[0] for r in g_fr if r[2]}), len({r[0] for r in g_fr}))}, benign s "
                      f"{pct(sum(r[2] for r in g_be), len(g_be))}")
        path = os.environ.get(env)
        if path:
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"{t:.2f}\n")
    print("per source (the package the second's picture comes from)")
    for src in sorted({r[5] for r in seconds}):
        rows = [r for r in seconds if r[5] == src]
        fr = [r for r in rows if r[1]]
        be = [r for r in rows if not r[1]]
        line = f"  {src:28}"
        if fr:
            line += f" frightening s called scary {pct(sum(r[2] for r in fr), len(fr))}"
        if be:
            line += f"  benign s called scary {pct(sum(r[2] for r in be), len(be))}"
        print(line)
    n_items = len(items)
    print(f"{n_items} items, {len(seconds)} seconds "
          f"({sum(r[1] for r in seconds)} frightening, {sum(not r[1] for r in seconds)} benign)")


if __name__ == "__main__":
    main()
