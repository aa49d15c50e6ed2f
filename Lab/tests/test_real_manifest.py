"""real_manifest: data/real-frames/manifest.tsv by id."""
import os
import unittest

import support
import real_manifest

HEADER = ["id", "split", "label", "package", "version", "path", "licence", "sha256", "tags", "what"]


class RealManifestTests(support.TempCase):
    def manifest(self, text):
        return support.write(os.path.join(self.tmp, "manifest.tsv"), text)

    def test_rows_by_id_with_every_column(self):
        path = self.manifest("\t".join(HEADER) + "\n"
                             "w-1\ttrain\tscary\twesnoth-data\t1:1.16\tu/a.png\tGPL-2+\tab\t\ta unit\n"
                             "g-2\tcheck\tneutral\tgnome-backgrounds\t43.1-1\tb.webp\tCC-BY-SA-3.0\tcd\tdark-benign\tnight\n")
        rows = real_manifest.rows(path)
        self.assertEqual(set(rows), {"w-1", "g-2"})
        self.assertEqual(rows["w-1"]["package"], "wesnoth-data")
        self.assertEqual(rows["w-1"]["tags"], "")  # an empty field stays a field
        self.assertEqual(rows["w-1"]["what"], "a unit")
        self.assertEqual(rows["g-2"]["tags"], "dark-benign")
        self.assertEqual(rows["g-2"]["what"], "night")  # no trailing newline kept

    def test_blank_lines_are_skipped(self):
        path = self.manifest("id\tpackage\n\na\tp1\n   \nb\tp2\n\n")
        self.assertEqual(real_manifest.packages(path), {"a": "p1", "b": "p2"})

    def test_packages_by_id(self):
        path = self.manifest("id\tlabel\tpackage\nx\tscary\tfreedoom\ny\thappy\tsupertux-data\n")
        self.assertEqual(real_manifest.packages(path), {"x": "freedoom", "y": "supertux-data"})

    def test_committed_manifest(self):
        path = os.path.join(support.ROOT, "data", "real-frames", "manifest.tsv")
        rows = real_manifest.rows(path)
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f.read().splitlines()[1:] if line.strip()]
        self.assertEqual(len(rows), len(lines))  # ids are unique
        for ident, row in rows.items():
            self.assertEqual(set(row), set(HEADER), ident)
            self.assertIn(row["split"], {"train", "check", "fresh"}, ident)
            self.assertIn(row["label"], {"happy", "neutral", "scary"}, ident)
            self.assertTrue(row["package"], ident)


if __name__ == "__main__":
    unittest.main()
