"""The scripts that build the default recipe's training folders of links: source-weights.py
(each picture linked round(sqrt(N / n)) times, n its group's size, N the largest group's) and
footage-frames.py (the train clips' labelled seconds filed as pictures, with manifest rows)."""
import os
import unittest

import support

PNG = b"\x89PNG\r\n\x1a\n"


class SourceWeightsTests(support.TempCase):
    def picture(self, label, ident):
        path = os.path.join(self.tmp, "frames", label, ident + ".png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(PNG)

    def links(self, out, label):
        names = sorted(os.listdir(os.path.join(out, label)))
        counts = {}
        for name in names:
            ident = name.rsplit("-w", 1)[0]
            counts[ident] = counts.get(ident, 0) + 1
        return names, counts

    def test_each_group_weighted_by_the_square_root_of_its_size(self):
        # Groups (package, label): big/Scary 16 pictures, small/Scary 1, mid/Happy 4, and 2
        # pictures the manifest does not list ("extra", Neutral).
        rows = [[f"big{k}", "scary", "pkg-big"] for k in range(16)]
        rows += [["small0", "scary", "pkg-small"]] + [[f"mid{k}", "happy", "pkg-mid"] for k in range(4)]
        manifest = support.tsv(os.path.join(self.tmp, "manifest.tsv"), ["id", "label", "package"], rows)
        for ident, label, _ in rows:
            self.picture(label.capitalize(), ident)
        self.picture("Neutral", "own1")
        self.picture("Neutral", "own2")
        support.write(os.path.join(self.tmp, "frames", "Scary", "notes.txt"), "not a picture")
        out = os.path.join(self.tmp, "out")
        run = support.run(os.path.join(support.SCRIPTS, "source-weights.py"),
                          [os.path.join(self.tmp, "frames"), manifest, out])
        self.assertEqual(run.returncode, 0, run.stderr)
        names, scary = self.links(out, "Scary")
        self.assertEqual(scary["big0"], 1)      # sqrt(16 / 16)
        self.assertEqual(scary["small0"], 4)    # sqrt(16 / 1)
        self.assertIn("small0-w3.png", names)
        self.assertNotIn("notes", scary)
        _, happy = self.links(out, "Happy")
        self.assertEqual(set(happy.values()), {2})   # sqrt(16 / 4)
        _, neutral = self.links(out, "Neutral")
        self.assertEqual(neutral, {"own1": 3, "own2": 3})  # round(sqrt(8)) = 3
        link = os.path.join(out, "Scary", "small0-w0.png")
        self.assertTrue(os.path.islink(link))
        self.assertEqual(os.readlink(link), os.path.join(self.tmp, "frames", "Scary", "small0.png"))
        self.assertIn("23 pictures in 4 groups (largest 16)", run.stderr)

    def test_no_pictures_is_an_error(self):
        manifest = support.tsv(os.path.join(self.tmp, "manifest.tsv"), ["id", "package"], [])
        run = support.run(os.path.join(support.SCRIPTS, "source-weights.py"),
                          [os.path.join(self.tmp, "empty"), manifest, os.path.join(self.tmp, "out")])
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("no pictures", run.stderr)


class FootageFramesTests(support.TempCase):
    def setUp(self):
        super().setUp()
        self.footage = os.path.join(self.tmp, "footage")
        support.tsv(os.path.join(self.footage, "manifest.tsv"),
                    ["id", "split", "package", "version", "licence"],
                    [["walk", "train", "pkg-walk", "1.0-1", "GPL-2+"],
                     ["exam", "check", "pkg-exam", "2.0", "CC0"]])
        support.tsv(os.path.join(self.footage, "labels", "walk.tsv"), ["second", "label"],
                    [[0, "happy"], [1, "scary"], [2, "neutral"], [3, "scary"]])
        support.tsv(os.path.join(self.footage, "labels", "exam.tsv"), ["second", "label"],
                    [[0, "scary"]])
        self.frames = os.path.join(self.tmp, "frames")

    def frame(self, ident, second):
        path = os.path.join(self.frames, ident, f"{second:06d}.png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(PNG)

    def run_frames(self, *extra):
        out, manifest = os.path.join(self.tmp, "out"), os.path.join(self.tmp, "manifest.tsv")
        run = support.run(os.path.join(support.SCRIPTS, "footage-frames.py"),
                          [self.frames, out, manifest, "--footage", self.footage, *extra])
        return run, out, manifest

    def test_train_seconds_filed_by_label_with_manifest_rows(self):
        for second in range(3):  # the last labelled second (3) has no sample: allowed
            self.frame("walk", second)
        run, out, manifest = self.run_frames()
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(os.listdir(os.path.join(out, "Happy")), ["fr-walk-0000.png"])
        self.assertEqual(os.listdir(os.path.join(out, "Scary")), ["fr-walk-0001.png"])
        self.assertEqual(os.listdir(os.path.join(out, "Neutral")), ["fr-walk-0002.png"])
        with open(manifest, encoding="utf-8") as f:
            written = f.read().splitlines()
        with open(os.path.join(support.ROOT, "data", "real-frames", "manifest.tsv"), encoding="utf-8") as f:
            stills = f.read().splitlines()
        self.assertEqual(written[: len(stills)], stills)  # the stills' manifest, then the frames
        header = stills[0].split("\t")
        added = [dict(zip(header, line.split("\t"))) for line in written[len(stills):]]
        self.assertEqual([r["id"] for r in added], ["fr-walk-0000", "fr-walk-0001", "fr-walk-0002"])
        self.assertEqual({(r["package"], r["version"], r["licence"], r["split"]) for r in added},
                         {("pkg-walk", "1.0-1", "GPL-2+", "train")})
        self.assertEqual(added[1]["label"], "scary")

    def test_every_nth_second(self):
        for second in range(4):
            self.frame("walk", second)
        run, out, _ = self.run_frames("--every", "2")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(os.listdir(os.path.join(out, "Scary")), [])  # seconds 1 and 3 skipped
        self.assertEqual(os.listdir(os.path.join(out, "Neutral")), ["fr-walk-0002.png"])

    def test_a_missing_second_before_the_last_is_an_error(self):
        self.frame("walk", 0)
        run, _, _ = self.run_frames()
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("000001.png: missing", run.stderr)

    def test_no_frames_folder_for_a_train_clip_is_an_error(self):
        run, _, _ = self.run_frames()
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("no frames", run.stderr)


if __name__ == "__main__":
    unittest.main()
