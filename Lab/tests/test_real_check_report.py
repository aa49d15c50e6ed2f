"""real-check-report.py: its ROC area, labels at a second, the sensitivities' thresholds, the
footage check set's truth, and the tuned thresholds (the benign-share rule), run end to end on
small made-up check sets with a stand-in for `leamoji-lab retime`."""
import json
import math
import os
import shutil
import stat
import sys
import unittest

import support

report = support.load("real-check-report.py")


class AucTests(unittest.TestCase):
    def test_separated_reversed_and_tied(self):
        self.assertEqual(report.auc([0.9, 0.8], [0.1, 0.2]), 1.0)
        self.assertEqual(report.auc([0.1, 0.2], [0.9, 0.8]), 0.0)
        self.assertEqual(report.auc([0.5, 0.5], [0.5]), 0.5)  # ties count half

    def test_hand_counted(self):
        # Pairs (pos, neg) with pos > neg: 0.9 beats 3, 0.4 beats 1 (0.3) and ties 0.4: 4.5 of 6.
        self.assertAlmostEqual(report.auc([0.9, 0.4], [0.3, 0.4, 0.6]), 4.5 / 6)

    def test_empty_side_is_nan(self):
        self.assertTrue(math.isnan(report.auc([], [0.1])))
        self.assertTrue(math.isnan(report.auc([0.1], [])))

    def test_interval_is_seeded_and_brackets_the_area(self):
        rows = [(f"i{k}", k % 2 == 0, False, p) for k, p in
                enumerate([0.9, 0.2, 0.7, 0.4, 0.6, 0.5, 0.35, 0.1, 0.8, 0.3])]
        low, high = report.auc_interval(rows)
        self.assertEqual((low, high), report.auc_interval(rows))
        self.assertLessEqual(low, high)
        area = report.auc([r[3] for r in rows if r[1]], [r[3] for r in rows if not r[1]])
        self.assertLessEqual(low, area)
        self.assertGreaterEqual(high, area)

    def test_interval_of_one_kind_of_second_is_nan(self):
        low, high = report.auc_interval([("a", False, False, 0.2), ("b", False, False, 0.4)])
        self.assertTrue(math.isnan(low) and math.isnan(high))


class LabelAndThresholdTests(unittest.TestCase):
    def test_label_at_is_the_last_marker_at_or_before(self):
        markers = [{"second": 0, "label": "happy"}, {"second": 4, "label": "scary"},
                   {"second": 9, "label": "neutral"}]
        self.assertEqual(report.label_at(markers, 0), "happy")
        self.assertEqual(report.label_at(markers, 3), "happy")
        self.assertEqual(report.label_at(markers, 4), "scary")
        self.assertEqual(report.label_at(markers, 12), "neutral")
        self.assertIsNone(report.label_at([{"second": 2, "label": "scary"}], 1))

    def test_thresholds_from_the_card(self):
        self.assertEqual(report.thresholds({"scary_threshold": 0.4}),
                         {"high": 0.2, "normal": 0.4, "low": 0.7})
        self.assertEqual(report.thresholds({"scary_threshold": 0.4, "scary_threshold_high": 0.25,
                                            "scary_threshold_low": 0.6}),
                         {"high": 0.25, "normal": 0.4, "low": 0.6})
        self.assertEqual(report.thresholds({}), {"high": 0.3, "normal": None, "low": 0.7})


class FootageTruthTests(support.TempCase):
    def test_check_clips_only_with_labels_in_second_order(self):
        folder = os.path.join(self.tmp, "footage")
        support.tsv(os.path.join(folder, "manifest.tsv"), ["id", "split", "package"],
                    [["c1", "check", "freedoom"], ["t1", "train", "openarena"]])
        support.tsv(os.path.join(folder, "labels", "c1.tsv"), ["second", "label"],
                    [[2, "scary"], [0, "neutral"], [1, "happy"]])
        truth = report.footage_truth(self.tmp)  # footage-rendered/ absent: no clips from it
        self.assertEqual(truth, {"c1": ("freedoom", ["neutral", "happy", "scary"])})


# A stand-in for `leamoji-lab retime MOVIEDATA --thresholds T1,T2,...`: one JSON line per entry
# with frames and threshold, in that order; a frame is scary when its scary probability reaches
# the threshold (the real tool also smooths; the tuning only reads what it answers).
FAKE_RETIME = '''
import json, sys
path, flag, listed = sys.argv[2], sys.argv[3], sys.argv[4]
assert sys.argv[1] == "retime" and flag == "--thresholds"
thresholds = [None if t == "none" else float(t) for t in listed.split(",")]
for m in json.load(open(path)):
    frames = sorted(m.get("frames", []), key=lambda f: f["second"])
    if not frames:
        continue
    for t in thresholds:
        labels = ["scary" if t is not None and f["probabilities"]["scary"] >= t else "neutral"
                  for f in frames]
        print(json.dumps({"id": m["id"], "threshold": t, "labels": labels}))
'''


class TuningTests(support.TempCase):
    """The tuned thresholds: the most frightening seconds the timeline calls scary while it calls
    at most 5 % (high: 15 %, low: 1.5 %) of benign and 10 % (15 %, 1.5 %) of dark benign seconds
    scary; ties go to the fewer benign seconds, then the higher threshold."""

    def setUp(self):
        super().setUp()
        # A copy of the scripts beside a data/ folder of this test's own, as in the repository.
        self.scripts = os.path.join(self.tmp, "repo", "Lab", "scripts")
        os.makedirs(self.scripts)
        for name in ("real-check-report.py", "footage_labels.py", "real_manifest.py"):
            shutil.copy(os.path.join(support.SCRIPTS, name), self.scripts)
        self.data = os.path.join(self.tmp, "repo", "data")
        self.lab = support.write(os.path.join(self.tmp, "leamoji-lab"),
                                 f"#!{sys.executable}\n" + FAKE_RETIME)
        os.chmod(self.lab, os.stat(self.lab).st_mode | stat.S_IXUSR)
        self.clips = os.path.join(self.tmp, "clips")
        self.movies, self.packages = [], []

    @staticmethod
    def entry(ident, probabilities):
        return {"id": ident, "duration": len(probabilities) - 1, "markers": [],
                "frames": [{"second": s, "probabilities": {"happy": 0.0, "neutral": 1 - p, "scary": p}}
                           for s, p in enumerate(probabilities)]}

    def still(self, ident, label, probabilities, tags=()):
        """A check clip made from one still: its truth file, manifest row and analysed entry."""
        support.write(os.path.join(self.clips, ident + ".truth.json"), json.dumps(
            {"id": ident, "labels": [label] * len(probabilities), "tags": list(tags), "source": ident}))
        self.packages.append([ident, "pkg-" + ident])
        self.movies.append(self.entry(ident, probabilities))

    def run_report(self, extra=()):
        manifest = support.tsv(os.path.join(self.tmp, "manifest.tsv"), ["id", "package"], self.packages)
        data = support.write(os.path.join(self.tmp, "check.json"), json.dumps(self.movies))
        out = {name: os.path.join(self.tmp, name) for name in ("normal", "high", "low")}
        run = support.run(os.path.join(self.scripts, "real-check-report.py"),
                          [data, self.clips, manifest, *extra],
                          env={"LEAMOJI_LAB_BIN": self.lab, "REAL_CHECK_TUNED": out["normal"],
                               "REAL_CHECK_TUNED_HIGH": out["high"], "REAL_CHECK_TUNED_LOW": out["low"]})
        self.assertEqual(run.returncode, 0, run.stderr)
        tuned = {}
        for name, path in out.items():
            with open(path, encoding="utf-8") as f:
                tuned[name] = float(f.read())
        return tuned, run.stdout

    def test_benign_and_dark_shares_bound_each_sensitivity(self):
        self.still("fright-a", "scary", [0.95, 0.8, 0.62, 0.5, 0.42])
        self.still("fright-b", "scary", [0.36, 0.3, 0.26, 0.2, 0.1])
        # 50 benign seconds, 10 of them dark: 5 % allows 2 benign seconds (6 % would allow 3),
        # 10 % 1 dark one.
        self.still("calm-1", "neutral", [0.55, 0.05, 0.05, 0.05, 0.05])
        self.still("calm-2", "neutral", [0.40, 0.33, 0.05, 0.05, 0.05])
        self.still("calm-3", "neutral", [0.28, 0.24, 0.05, 0.05, 0.05])
        for k in range(5):
            self.still(f"calm-{4 + k}", "neutral", [0.05] * 5)
        self.still("night-1", "neutral", [0.45, 0.05, 0.05, 0.05, 0.05], tags=["dark-benign"])
        self.still("night-2", "neutral", [0.05] * 5, tags=["dark-benign"])
        tuned, out = self.run_report()
        # normal: calling 0.55 and 0.45 (1 dark) scary is allowed, 0.40 too is not: from 0.41,
        # and 0.41 and 0.42 both catch 5 frightening seconds, so the higher. (With 0.40 allowed,
        # 0.36 would catch 6.)
        self.assertEqual(tuned["normal"], 0.42)
        # high: 7 benign seconds and 1 dark: every benign second above 0.05; 0.06 to 0.10 all
        # catch the 10 frightening seconds.
        self.assertEqual(tuned["high"], 0.10)
        # low: no benign second at all: above 0.55; 0.56 to 0.62 catch 3.
        self.assertEqual(tuned["low"], 0.62)
        self.assertIn("tuned threshold 0.42", out)
        self.assertIn("12 items, 60 seconds (10 frightening, 50 benign)", out)

    def test_dark_share_alone_can_decide(self):
        self.still("fright", "scary", [0.9, 0.5, 0.3, 0.2, 0.1])
        for k in range(4):
            self.still(f"calm-{k}", "neutral", [0.05] * 5)
        # 5 dark benign seconds: 10 % of them is 0.5, so none may be called scary at normal.
        self.still("night", "neutral", [0.25, 0.05, 0.05, 0.05, 0.05], tags=["dark-benign"])
        tuned, _ = self.run_report()
        self.assertEqual(tuned["normal"], 0.30)  # 0.26 to 0.30 catch 3; 0.25 would call night
        self.assertEqual(tuned["high"], 0.30)    # 15 % of 5 is still under one second
        self.assertEqual(tuned["low"], 0.30)

    def test_footage_check_set_holds_its_own_benign_share(self):
        self.still("fright", "scary", [0.9] * 5)
        for k in range(4):
            self.still(f"calm-{k}", "neutral", [0.05] * 5)
        folder = os.path.join(self.data, "footage")
        support.tsv(os.path.join(folder, "manifest.tsv"), ["id", "split", "package"],
                    [["film", "check", "freedoom"], ["practice", "train", "openarena"]])
        support.tsv(os.path.join(folder, "labels", "film.tsv"), ["second", "label"],
                    [[s, "scary" if s < 5 else "neutral"] for s in range(10)])
        footage = support.write(os.path.join(self.tmp, "footage.json"), json.dumps([
            self.entry("film", [0.8, 0.6, 0.35, 0.25, 0.2, 0.05, 0.05, 0.22, 0.05, 0.05]),
            self.entry("practice", [0.9] * 3)]))  # a train clip: not part of the check set
        tuned, out = self.run_report(["--footage-check", footage])
        # Stills and footage together have 25 benign seconds, of which 5 % (1.25) would let the
        # footage's 0.22 be called scary, and 0.20 would win (10 frightening seconds). The footage
        # alone has 5 benign seconds, 5 % of which is none: above 0.22, and 0.23 to 0.25 catch 9.
        self.assertEqual(tuned["normal"], 0.25)
        self.assertIn("moving footage check set", out)
        self.assertIn("footage: freedoom", out)
        self.assertIn("6 items, 35 seconds (10 frightening, 25 benign)", out)


if __name__ == "__main__":
    unittest.main()
