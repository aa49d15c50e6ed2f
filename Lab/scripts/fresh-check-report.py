#!/usr/bin/env python3
"""Scores a model on the fresh sources (data/real-frames/manifest.tsv, split "fresh"): game
sprites from packages that no model was trained on and that no threshold or recipe was chosen
on, so the figures say how a model carries over to art it has never met, not how well it was
tuned (`make real-check` prints them after the check set's; Lab/scripts/fresh-check.sh).

    fresh-check-report.py CLASSIFIED MANIFEST MODEL_JSON [MODEL]

CLASSIFIED is `leamoji classify --json` of every fresh still letterboxed as a check clip shows
it (one line per still, its file named <id>.png); MANIFEST the manifest; MODEL_JSON `leamoji
model --json` of the model, for its card's scary thresholds; MODEL its file, for messages. A still is "called scary" at a
sensitivity when its scary probability reaches that sensitivity's threshold, as `analyze`
decides one second before smoothing (a model without a tuned threshold: the most probable label,
and the presets' old rule). Each still is one item. Standard library only.
"""
import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_manifest  # noqa: E402

# The ROC area, its bootstrap interval over items, the percentages and the sensitivities'
# thresholds are the check set's own (Lab/scripts/real-check-report.py), so both judges count alike;
# here every still is one item.
_spec = importlib.util.spec_from_file_location(
    "real_check_report", os.path.join(os.path.dirname(os.path.abspath(__file__)), "real-check-report.py"))
_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_check)
auc, pct, thresholds = _check.auc, _check.pct, _check.thresholds


def auc_interval(rows):
    """A 90 % bootstrap interval of the ROC area, stills drawn again with replacement."""
    return _check.auc_interval([(r["id"], r["scary"], None, r["p"]) for r in rows])


def called(row, threshold):
    if threshold is None:
        return row["top"] == "scary"
    return row["p"] >= threshold


def main():
    classified, manifest, model_json = sys.argv[1:4]
    model = sys.argv[4] if len(sys.argv) > 4 else model_json
    meta = real_manifest.rows(manifest)
    with open(model_json, encoding="utf-8") as f:
        card = json.load(f).get("card", {})
    rows = []
    with open(classified, encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            if "scary" not in doc["probabilities"]:
                sys.exit(f"fresh-check-report: {model}: the model has no 'scary' label")
            ident = os.path.basename(doc["file"])[: -len(".png")]
            m = meta[ident]
            rows.append({"id": ident, "package": m["package"], "scary": m["label"] == "scary",
                         "dark": m["tags"].startswith("dark-"), "top": doc["label"],
                         "p": doc["probabilities"]["scary"]})
    if not rows:
        sys.exit("fresh-check-report: no classified stills")
    cuts = thresholds(card)
    print("== fresh sources: game sprites from packages never trained on and never tuned on")
    print("   (each still once, letterboxed as a check clip shows it; 'called scary' before smoothing)")
    groups = [(p, [r for r in rows if r["package"] == p]) for p in sorted({r["package"] for r in rows})]
    groups.append(("all fresh sources", rows))
    for name, group in groups:
        fr = [r for r in group if r["scary"]]
        be = [r for r in group if not r["scary"]]
        dark = [r for r in be if r["dark"]]
        low, high = auc_interval(group)
        print(f"{name}: {len(fr)} frightening, {len(be)} benign stills;"
              f" ROC area {auc([r['p'] for r in fr], [r['p'] for r in be]):.3f} ({low:.3f} - {high:.3f})")
        for sensitivity in ("high", "normal", "low"):
            t = cuts[sensitivity]
            label = f"p >= {t:.2f}" if t is not None else "most probable"
            print(f"  {sensitivity:6} ({label:13}) frightening called scary {pct(sum(called(r, t) for r in fr), len(fr))}"
                  f"   benign {pct(sum(called(r, t) for r in be), len(be))}"
                  f"   dark benign {pct(sum(called(r, t) for r in dark), len(dark))}")


if __name__ == "__main__":
    main()
