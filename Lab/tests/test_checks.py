"""The checkers of the committed data (footage_check.py, render_check.py) and the fresh sources'
report (fresh-check-report.py)."""
import json
import os
import shutil
import unittest

import support


class DataCheckTests(support.TempCase):
    def test_committed_footage_folders_pass(self):
        for script in ("footage_check.py", "render_check.py"):
            run = support.run(os.path.join(support.SCRIPTS, script), [])
            self.assertEqual(run.returncode, 0, script + ": " + run.stdout + run.stderr)

    def copy(self):
        """A copy of footage_check.py beside a copy of data/footage; the copy's folder."""
        scripts = os.path.join(self.tmp, "Lab", "scripts")
        os.makedirs(scripts)
        shutil.copy(os.path.join(support.SCRIPTS, "footage_check.py"), scripts)
        data = os.path.join(self.tmp, "data", "footage")
        shutil.copytree(os.path.join(support.ROOT, "data", "footage"), data)
        return os.path.join(scripts, "footage_check.py"), data

    def test_a_missing_second_fails(self):
        script, data = self.copy()
        self.assertEqual(support.run(script, []).returncode, 0)
        labels = os.path.join(data, "labels")
        name = sorted(os.listdir(labels))[0]
        with open(os.path.join(labels, name), encoding="utf-8") as f:
            lines = f.read().splitlines()
        support.write(os.path.join(labels, name), "\n".join(lines[:-1]) + "\n")
        run = support.run(script, [])
        self.assertEqual(run.returncode, 1, run.stdout)

    def test_an_unknown_label_fails(self):
        script, data = self.copy()
        labels = os.path.join(data, "labels")
        name = sorted(os.listdir(labels))[0]
        with open(os.path.join(labels, name), encoding="utf-8") as f:
            text = f.read()
        support.write(os.path.join(labels, name), text.replace("\tneutral", "\tspooky", 1))
        self.assertEqual(support.run(script, []).returncode, 1)


class FreshCheckReportTests(support.TempCase):
    def test_stills_called_scary_at_each_sensitivity(self):
        fresh = support.load("fresh-check-report.py")
        self.assertTrue(fresh.called({"p": 0.4, "top": "neutral"}, 0.4))
        self.assertFalse(fresh.called({"p": 0.39, "top": "scary"}, 0.4))
        self.assertTrue(fresh.called({"p": 0.1, "top": "scary"}, None))  # no threshold: top label

        manifest = support.tsv(os.path.join(self.tmp, "manifest.tsv"),
                               ["id", "split", "label", "package", "tags"],
                               [["m1", "fresh", "scary", "angband", ""],
                                ["m2", "fresh", "scary", "angband", ""],
                                ["b1", "fresh", "neutral", "angband", ""],
                                ["b2", "fresh", "happy", "cataclysm", "dark-benign"]])
        probabilities = {"m1": 0.9, "m2": 0.3, "b1": 0.5, "b2": 0.1}
        classified = support.write(os.path.join(self.tmp, "classified.jsonl"), "".join(
            json.dumps({"file": f"/x/{k}.png", "label": "neutral",
                        "probabilities": {"happy": 0.0, "neutral": 1 - p, "scary": p}}) + "\n"
            for k, p in probabilities.items()))
        model = support.write(os.path.join(self.tmp, "model.json"),
                              json.dumps({"card": {"scary_threshold": 0.6}}))
        run = support.run(os.path.join(support.SCRIPTS, "fresh-check-report.py"),
                          [classified, manifest, model])
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        every = lines.index(next(l for l in lines if l.startswith("all fresh sources")))
        self.assertIn("2 frightening, 2 benign stills", lines[every])
        by_name = {l.split()[0]: l for l in lines[every + 1:every + 4]}
        # normal 0.6: m1 only, no benign; high 0.3 (half): m1 and m2, and b1; low 0.8: m1.
        self.assertIn("frightening called scary  50.0 % (1/2)", by_name["normal"])
        self.assertIn("benign   0.0 % (0/2)", by_name["normal"])
        self.assertIn("frightening called scary 100.0 % (2/2)", by_name["high"])
        self.assertIn("benign  50.0 % (1/2)", by_name["high"])
        self.assertIn("dark benign   0.0 % (0/1)", by_name["high"])
        self.assertIn("frightening called scary  50.0 % (1/2)", by_name["low"])


if __name__ == "__main__":
    unittest.main()
