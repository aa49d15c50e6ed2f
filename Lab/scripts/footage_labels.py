"""Reads a footage folder (data/footage, data/footage-rendered): its manifest.tsv and the truth
per second of each clip, labels/<id>.tsv (header `second<TAB>label`, optionally `jump`), for the
scripts that file, score or tune on the footage. Standard library only.
"""
import csv
import os


def clips(folder):
    """The manifest's rows (dicts by column), in order; [] when the folder has no manifest."""
    path = os.path.join(folder, "manifest.tsv")
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def seconds(folder, ident):
    """Clip `ident`'s label rows by second: {second: row dict}."""
    with open(os.path.join(folder, "labels", ident + ".tsv"), newline="", encoding="utf-8") as f:
        return {int(r["second"]): r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
