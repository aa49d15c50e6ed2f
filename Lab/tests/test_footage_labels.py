"""footage_labels: a footage folder's manifest and per-second labels."""
import os
import unittest

import support
import footage_labels

HEADER = ["id", "split", "package", "version", "path", "licence", "sha256", "seconds", "has_audio", "what"]


class ClipsTests(support.TempCase):
    def test_rows_in_order_as_dicts_by_column(self):
        support.tsv(os.path.join(self.tmp, "manifest.tsv"), HEADER, [
            ["b-clip", "check", "pkg-b", "1.0", "x/b.ogg", "GPL-2+", "ab", "12", "yes", "second"],
            ["a-clip", "train", "pkg-a", "2.1-1", "x/a.ogg", "CC0", "cd", "7", "no", "first"],
        ])
        rows = footage_labels.clips(self.tmp)
        self.assertEqual([r["id"] for r in rows], ["b-clip", "a-clip"])  # file order, not sorted
        self.assertEqual(rows[1]["split"], "train")
        self.assertEqual(rows[1]["package"], "pkg-a")
        self.assertEqual(rows[0]["seconds"], "12")
        self.assertEqual(set(rows[0]), set(HEADER))

    def test_quotes_are_kept_verbatim(self):
        # QUOTE_NONE: a description with quotes is one field, quotes included.
        support.tsv(os.path.join(self.tmp, "manifest.tsv"), ["id", "what"],
                    [["q", '"a chase", then a fight']])
        self.assertEqual(footage_labels.clips(self.tmp)[0]["what"], '"a chase", then a fight')

    def test_no_manifest_is_no_clips(self):
        self.assertEqual(footage_labels.clips(self.tmp), [])


class SecondsTests(support.TempCase):
    def test_rows_by_integer_second(self):
        support.tsv(os.path.join(self.tmp, "labels", "c.tsv"), ["second", "label"],
                    [[0, "neutral"], [1, "scary"], [2, "happy"]])
        seconds = footage_labels.seconds(self.tmp, "c")
        self.assertEqual(sorted(seconds), [0, 1, 2])
        self.assertEqual(seconds[1]["label"], "scary")
        self.assertEqual(seconds[2]["label"], "happy")

    def test_optional_jump_column(self):
        support.tsv(os.path.join(self.tmp, "labels", "j.tsv"), ["second", "label", "jump"],
                    [[0, "neutral", ""], [1, "scary", "jump"], [10, "scary", ""]])
        seconds = footage_labels.seconds(self.tmp, "j")
        self.assertEqual(seconds[1]["jump"], "jump")
        self.assertEqual(seconds[0]["jump"], "")
        self.assertEqual(max(seconds), 10)  # keyed by the number, so 10 sorts after 1

    def test_missing_label_file_is_an_error(self):
        with self.assertRaises(FileNotFoundError):
            footage_labels.seconds(self.tmp, "absent")


class CommittedFootageTests(unittest.TestCase):
    """The committed footage folders read as the scripts read them."""

    def test_every_clip_has_one_label_per_second(self):
        for folder in ("footage", "footage-rendered"):
            path = os.path.join(support.ROOT, "data", folder)
            clips = footage_labels.clips(path)
            self.assertTrue(clips, folder)
            for clip in clips:
                seconds = footage_labels.seconds(path, clip["id"])
                self.assertEqual(sorted(seconds), list(range(int(clip["seconds"]))), clip["id"])


if __name__ == "__main__":
    unittest.main()
