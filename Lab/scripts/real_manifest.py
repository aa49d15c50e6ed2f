"""Reads data/real-frames/manifest.tsv (tab-separated, one header line; data/real-frames/README.md
names its columns) for the scripts that score or weight the real frames. Standard library only.
"""


def rows(path):
    """Every row of the manifest at `path`, by id: a dict of its columns."""
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        table = {}
        for line in f:
            if line.strip():
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                table[row["id"]] = row
        return table


def packages(path):
    """The Debian package of each picture of the manifest at `path`, by id."""
    return {ident: row["package"] for ident, row in rows(path).items()}
