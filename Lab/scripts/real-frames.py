#!/usr/bin/env python3
"""Builds the real training frames and check stills of issue 22 from data/real-frames/manifest.tsv.

Called by Lab/scripts/fetch-real-frames.sh once the pinned packages are downloaded and unpacked:

    real-frames.py MANIFEST EXTRACTED OUT
    real-frames.py --files MANIFEST     (the files to unpack from each package, as
                                         <package>_<version> TAB ./<file> lines)

For every manifest row the file EXTRACTED/<package>_<version>/<path> must exist and have the
manifest's sha256 (anything else stops the run with exit status 1, naming the file). It is then
written as an RGB PNG:

    train rows -> OUT/train/<Label>/<id>.png   (Happy/, Neutral/, Scary/, as `leamoji train` reads)
    check rows -> OUT/check/<id>.png           (Lab/scripts/make-check-clips.sh turns them into clips)
    fresh rows -> OUT/fresh/<id>.png           (Lab/scripts/fresh-check.sh scores them)

A path of the form <file>.wad:<LUMP> names one picture lump inside a Doom WAD (Freedoom): its
sha256 is that of the lump's bytes, and it is decoded here (Doom picture format, colours from the
WAD's PLAYPAL) and enlarged by a whole factor with nearest-neighbour pixels to about 240 px, as a
game would show it, before the conversion below. A path of the form <file>.pk3:<member> names one
file inside a Quake-style .pk3 (a zip archive; UFO: Alien Invasion): its sha256 is that of the
member's bytes; a member picture under 150 px is enlarged like a sprite (below). <file>.ff:<member>
names one BMP inside a Dink Smallwood FastFile (Freedink), pure white its transparent colour, and
<file>.pzl:<member> one picture inside a jigzo puzzle file; the sha256 of each is that of the
member's bytes. A path of the form <file>.png@X,Y,W,H names one tile of a tile sheet (Cataclysm: DDA's
and Angband's sprites): the W x H rectangle at X,Y; its sha256 is that of the tile's RGBA pixels
(row by row, 4 bytes per pixel), so it does not depend on how the sheet is compressed. A tile is
shown like any small picture (below).

A picture file or archive member (not a WAD lump) smaller than 150 px on its longer side (a unit
sprite, a face) is shown as a game would show it up close: cropped to its opaque pixels (plus a
2 px margin) and enlarged by a whole factor with nearest-neighbour pixels to about 240 px, before
the conversion below.

Conversion, the same on every machine with Debian 12's python3-pil (Pillow 9.4):
  * transparent pixels (portraits, stamps, sprites) are composited over a flat background picked
    from the id's SHA-256 among black, white, mid grey and a dusk blue, so the background colour
    carries no label and a model cannot learn "black background = scary";
  * the longer side is reduced to at most 640 px (Lanczos); smaller pictures keep their size.
Only Python's standard library and Pillow are used.
"""
import functools
import hashlib
import io
import os
import struct
import sys
import zipfile

try:
    from PIL import Image
except ImportError:
    sys.exit("Pillow is needed: apt-get install python3-pil")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_manifest  # noqa: E402

Image.MAX_IMAGE_PIXELS = None
BACKGROUNDS = [(0, 0, 0), (255, 255, 255), (128, 128, 128), (40, 52, 88)]
MAX_SIDE = 640
FOLDERS = {"happy": "Happy", "neutral": "Neutral", "scary": "Scary"}


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@functools.lru_cache(maxsize=2)
def wad_lumps(path):
    with open(path, "rb") as f:
        data = f.read()
    _, count, offset = struct.unpack("<4sii", data[:12])
    lumps = {}
    for i in range(count):
        pos, size, name = struct.unpack("<ii8s", data[offset + 16 * i : offset + 16 * i + 16])
        lumps.setdefault(name.rstrip(b"\0").decode("ascii"), data[pos : pos + size])
    return lumps


def enlarge(im):
    """Pixel art as a game shows it up close: enlarged by a whole factor to about 240 px, each
    pixel a block (nearest neighbour)."""
    scale = max(1, 240 // max(im.width, im.height))
    return im.resize((im.width * scale, im.height * scale), Image.NEAREST)


def doom_picture(data, palette):
    """A Doom-format picture (columns of posts) as an RGBA image."""
    width, height = struct.unpack("<hh", data[:4])
    columns = struct.unpack("<%dI" % width, data[8 : 8 + 4 * width])
    im = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    px = im.load()
    for x, pos in enumerate(columns):
        top = -1
        while data[pos] != 0xFF:
            delta, length = data[pos], data[pos + 1]
            top = delta if delta > top else top + delta  # tall patches add up
            for k in range(length):
                if 0 <= top + k < height:
                    px[x, top + k] = palette[data[pos + 3 + k]] + (255,)
            pos += length + 4
    return enlarge(im)


def wad_picture(path, lump):
    lumps = wad_lumps(path)
    pal = lumps["PLAYPAL"]
    palette = [tuple(pal[3 * i : 3 * i + 3]) for i in range(256)]
    return lumps[lump], doom_picture(lumps[lump], palette)


def shown(im):
    """A picture file or member as the game shows it: small ones (under SPRITE_SIDE) enlarged like
    sprites."""
    im.load()
    return enlarge_sprite(im) if max(im.size) < SPRITE_SIDE else im


def pk3_member(path, member):
    with zipfile.ZipFile(path) as archive:
        data = archive.read(member)
    return data, shown(Image.open(io.BytesIO(data)))


def ff_member(path, member):
    """One BMP inside a Dink Smallwood FastFile (`dir.ff`: a count, then (offset, 13-byte name)
    entries, the last one only marking the end). Pure white is Dink's transparent colour."""
    with open(path, "rb") as f:
        data = f.read()
    (count,) = struct.unpack("<i", data[:4])
    entries = [struct.unpack("<i13s", data[4 + 17 * i : 21 + 17 * i]) for i in range(count)]
    for (start, name), (end, _) in zip(entries, entries[1:]):
        if name.split(b"\0")[0].decode("ascii") == member:
            bmp = data[start:end]
            im = Image.open(io.BytesIO(bmp)).convert("RGBA")
            im.putdata([(r, g, b, 0 if (r, g, b) == (255, 255, 255) else 255) for r, g, b, _ in im.getdata()])
            return bmp, shown(im)
    raise KeyError(member)


def pzl_member(path, member):
    """One file inside a jigzo puzzle (`.pzl`: four header lines, then name, size and bytes of
    each file in turn)."""
    with open(path, "rb") as f:
        data = f.read()
    pos = sum(len(line) + 1 for line in data.split(b"\n", 4)[:4])
    while pos < len(data):
        name_end = data.index(b"\n", pos)
        size_end = data.index(b"\n", name_end + 1)
        size = int(data[name_end + 1 : size_end])
        if data[pos:name_end].decode("utf-8") == member:
            body = data[size_end + 1 : size_end + 1 + size]
            return body, shown(Image.open(io.BytesIO(body)))
        pos = size_end + 1 + size
    raise KeyError(member)


@functools.lru_cache(maxsize=None)
def sheet_rgba(path):
    """A tile sheet, decoded once as RGBA: hundreds of manifest rows cut their tiles from the same
    few sheets (about 8 million pixels in all)."""
    with Image.open(path) as sheet:
        return sheet.convert("RGBA")


def sheet_tile(path, rectangle):
    """One W x H tile at X,Y of a tile sheet, as RGBA: (its pixel bytes, the picture)."""
    x, y, w, h = (int(v) for v in rectangle.split(","))
    tile = sheet_rgba(path).crop((x, y, x + w, y + h))
    return tile.tobytes(), enlarge_sprite(tile)


def split_path(path):
    """(file in the package, lump, member or tile inside it or "", kind) for a manifest path."""
    for kind, sep in ((".wad", ":"), (".pk3", ":"), (".ff", ":"), (".pzl", ":"), (".png", "@")):
        head, found, inner = path.partition(kind + sep)
        if found:
            return head + kind, inner, kind
    return path, "", ""


SPRITE_SIDE = 150


def enlarge_sprite(im):
    """A small picture cropped to what it shows and enlarged by a whole factor to about 240 px."""
    if im.mode in ("P", "LA", "PA"):
        im = im.convert("RGBA")
    if im.mode == "RGBA":
        box = im.getchannel("A").getbbox()
        if box:
            left, top, right, bottom = box
            im = im.crop((max(0, left - 2), max(0, top - 2), min(im.width, right + 2), min(im.height, bottom + 2)))
    return enlarge(im)


def convert(src, dst, ident, picture=None):
    im = picture if picture is not None else shown(Image.open(src))
    if im.mode in ("P", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
    if im.mode == "RGBA":
        colour = BACKGROUNDS[hashlib.sha256(ident.encode()).digest()[0] % len(BACKGROUNDS)]
        bg = Image.new("RGBA", im.size, colour + (255,))
        bg.alpha_composite(im)
        im = bg
    im = im.convert("RGB")
    if max(im.size) > MAX_SIDE:
        scale = MAX_SIDE / max(im.size)
        im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
    tmp = dst + ".part"
    im.save(tmp, "PNG")
    os.replace(tmp, dst)


MEMBER_READERS = {".wad": wad_picture, ".pk3": pk3_member, ".ff": ff_member, ".pzl": pzl_member, ".png": sheet_tile}


def package_files(rows):
    """The files each package must unpack, as `<package>_<version>\t./<file>` lines (sorted, once
    each): the WAD, archive or tile sheet of a path naming something inside one."""
    return sorted({f"{r['package']}_{r['version']}\t.{split_path(r['path'])[0]}" for r in rows})


def main():
    if sys.argv[1:2] == ["--files"]:
        print("\n".join(package_files(real_manifest.rows(sys.argv[2]).values())))
        return
    manifest, extracted, out = sys.argv[1:4]
    rows = list(real_manifest.rows(manifest).values())
    counts = {}
    bad = 0
    for row in rows:
        path, inner, kind = split_path(row["path"].lstrip("/"))
        src = os.path.join(extracted, f"{row['package']}_{row['version']}", path)
        if not os.path.isfile(src):
            print(f"missing: {row['package']} {row['path']}", file=sys.stderr)
            bad += 1
            continue
        picture = None
        if inner:
            data, picture = MEMBER_READERS[kind](src, inner)
            digest = hashlib.sha256(data).hexdigest()
        else:
            digest = sha256(src)
        if digest != row["sha256"]:
            print(f"checksum mismatch: {row['package']} {row['path']}", file=sys.stderr)
            bad += 1
            continue
        if row["split"] == "train":
            folder = os.path.join(out, "train", FOLDERS[row["label"]])
        else:
            folder = os.path.join(out, row["split"])
        os.makedirs(folder, exist_ok=True)
        dst = os.path.join(folder, row["id"] + ".png")
        stamp = os.path.join(out, ".made-from", row["id"])  # the sha256 the PNG was made from
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        made_from = open(stamp).read() if os.path.exists(stamp) and os.path.exists(dst) else ""
        if made_from != digest:
            convert(src, dst, row["id"], picture)
            with open(stamp, "w") as f:
                f.write(digest)
        key = (row["split"], row["label"])
        counts[key] = counts.get(key, 0) + 1
    # PNGs the manifest no longer names (another label, a dropped picture) go.
    wanted = {os.path.join(out, "train", FOLDERS[r["label"]], r["id"] + ".png") if r["split"] == "train"
              else os.path.join(out, r["split"], r["id"] + ".png") for r in rows}
    for folder in [os.path.join(out, "train", f) for f in FOLDERS.values()] + [os.path.join(out, s) for s in ("check", "fresh")]:
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                path = os.path.join(folder, name)
                if name.endswith(".png") and path not in wanted:
                    os.remove(path)
    if bad:
        sys.exit(f"{bad} file(s) missing or with the wrong checksum; nothing is trustworthy")
    for (split, label), n in sorted(counts.items()):
        print(f"{split:6} {label:8} {n:5}")


if __name__ == "__main__":
    main()
