#!/usr/bin/env python3
"""Composite training frames made from the real labelled pictures (issue 22).

A frightening creature in a film is one part of a frame: somewhere in it, at some size, over a
scene that is not frightening itself, often between black bars. The real training pictures show
it the other way round: a portrait or a sprite filling the picture. A model trained on those
alone learns the pictures more than the creature (shown letterboxed, Freedoom's imp drops from
p(scary) 1.00 to 0.01 under the default model 2.1). These composites teach it the creature:

  * every cut-out is a training picture with real transparency (a Wesnoth portrait or unit
    sprite, a FreeOrion species, a Tux Paint stamp, a Hedgewars or SuperTux sprite...), cropped
    to what it shows, small sprites enlarged by a whole factor as a game shows them;
  * every background is a neutral training picture without transparency (wallpapers, game
    backgrounds, campaign maps), cropped to fill the frame, sometimes dimmed to night;
  * each frightening cut-out is laid over N backgrounds (label scary), and each of those same
    backgrounds, with the same dimming and framing, gets a neutral cut-out (label neutral): the
    background says nothing about the label, only what stands on it does;
  * sizes from a third of the frame's height to nearly all of it, anywhere in the frame; a
    share of the frames is letterboxed or pillarboxed in black, as films and the check clips are.

Only the training split is used: no check picture, nor any picture of a check package, is read.
Every output file is named after the two manifest ids it is made of, and `composites.tsv` lists
each one with its label, cut-out, background and placement, so every training file traces back
to its source. The same manifest, cache, seed and count give the same files.

Usage: real-composites.py MANIFEST EXTRACTED OUT [--per-scary N] [--seed S] [--size PX]
  EXTRACTED: the unpacked packages (scripts/fetch-real-frames.sh's cache, <package>_<version>/)
  OUT: gets Scary/ and Neutral/ (as `leamoji train` reads them) and composites.tsv
"""

import argparse
import hashlib
import importlib.util
import os
import random
import re
import sys

from PIL import Image, ImageEnhance

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("real_frames", os.path.join(HERE, "real-frames.py"))
real_frames = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(real_frames)

# The frame: 4:3 as the check clips and much TV, or 16:9 as most films.
ASPECTS = [(4, 3), (16, 9)]

# Backgrounds: the neutral training pictures that are scenery with nobody in them (wallpapers,
# game skies and backgrounds, landscape and story paintings), by manifest id.
SCENERY = re.compile(r"^(gnome-|plasma-|hw-.*-sky|stux-(?!credits|menu)|wes-|weshttt-|wesl-|westsg-"
                     r"|westrow-|westtb-|wesdm-httt|mg-loading-indian|crawl-title-white-noise)")


def load_rows(manifest):
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def source_picture(row, extracted):
    """The manifest row's picture as the package holds it (checked against its sha256)."""
    path, inner, kind = real_frames.split_path(row["path"].lstrip("/"))
    src = os.path.join(extracted, f"{row['package']}_{row['version']}", path)
    if inner:
        data, im = (real_frames.wad_picture if kind == ".wad" else real_frames.pk3_member)(src, inner)
    else:
        with open(src, "rb") as f:
            data = f.read()
        im = Image.open(src)
        im.load()
    if hashlib.sha256(data).hexdigest() != row["sha256"]:
        sys.exit(f"{src}: checksum mismatch with the manifest ({row['id']})")
    return im


def cut_out(im):
    """An RGBA cut-out cropped to its opaque part, or None when the picture has no transparency."""
    if im.mode not in ("P", "LA", "PA", "RGBA"):
        return None
    im = im.convert("RGBA")
    alpha = im.getchannel("A")
    if alpha.getextrema()[0] >= 128:
        return None
    box = alpha.point(lambda a: 255 if a >= 32 else 0).getbbox()
    if not box:
        return None
    im = im.crop(box)
    if max(im.size) < real_frames.SPRITE_SIDE:
        im = real_frames.enlarge(im)
    return im


def fill(background, width, height, rng):
    """The background cropped at random to the frame's aspect and scaled to cover it."""
    bw, bh = background.size
    target = width / height
    if bw / bh > target:
        cw, ch = round(bh * target), bh
    else:
        cw, ch = bw, round(bw / target)
    # A crop of 70-100 % of the largest one, anywhere.
    scale = rng.uniform(0.7, 1.0)
    cw, ch = max(8, round(cw * scale)), max(8, round(ch * scale))
    x, y = rng.randint(0, bw - cw), rng.randint(0, bh - ch)
    return background.crop((x, y, x + cw, y + ch)).resize((width, height), Image.BILINEAR)


class Placement:
    """Where and how one cut-out stands on one background: drawn once, used for a pair."""

    def __init__(self, rng, size):
        self.aspect = rng.choice(ASPECTS)
        self.dim = rng.choice([1.0, 1.0, rng.uniform(0.3, 0.7)])  # a third of frames at night
        self.height_share = rng.uniform(0.35, 0.95)
        self.fx, self.fy = rng.random(), rng.random()
        self.bars = rng.random() < 0.35  # letterboxed into the other aspect
        self.flip = rng.random() < 0.5
        self.size = size

    def render(self, background, cut, rng_crop):
        aw, ah = self.aspect
        width = self.size
        height = round(width * ah / aw)
        frame = fill(background, width, height, rng_crop)
        if self.dim < 1.0:
            frame = ImageEnhance.Brightness(frame).enhance(self.dim)
        frame = frame.convert("RGBA")
        c = cut.transpose(Image.FLIP_LEFT_RIGHT) if self.flip else cut
        ch = max(8, round(height * self.height_share))
        cw = max(8, round(c.width * ch / c.height))
        if cw > width * 0.95:
            cw = round(width * 0.95)
            ch = max(8, round(c.height * cw / c.width))
        c = c.resize((cw, ch), Image.LANCZOS)
        if self.dim < 1.0:
            rgb = ImageEnhance.Brightness(c.convert("RGB")).enhance(0.5 + self.dim / 2)
            rgb.putalpha(c.getchannel("A"))
            c = rgb
        x = round((width - cw) * self.fx)
        y = round((height - ch) * self.fy)
        frame.alpha_composite(c, (x, y))
        frame = frame.convert("RGB")
        if self.bars:
            # Shown in the other aspect: 4:3 pictures pillarboxed in 16:9, 16:9 letterboxed in 4:3.
            ow, oh = (16, 9) if self.aspect == (4, 3) else (4, 3)
            outer_w, outer_h = width, round(width * oh / ow)
            scale = min(outer_w / width, outer_h / height)
            inner = frame.resize((max(1, round(width * scale)), max(1, round(height * scale))), Image.BILINEAR)
            boxed = Image.new("RGB", (outer_w, outer_h), (0, 0, 0))
            boxed.paste(inner, ((outer_w - inner.width) // 2, (outer_h - inner.height) // 2))
            frame = boxed
        return frame


def save(image, path):
    tmp = path + ".part"
    image.save(tmp, "PNG")
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest")
    parser.add_argument("extracted")
    parser.add_argument("out")
    parser.add_argument("--per-scary", type=int, default=3, help="backgrounds per frightening cut-out")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--size", type=int, default=320, help="frame width in pixels")
    args = parser.parse_args()

    rows = [r for r in load_rows(args.manifest) if r["split"] == "train"]
    cuts = {"scary": [], "neutral": []}
    backgrounds = []
    for row in sorted(rows, key=lambda r: r["id"]):
        im = source_picture(row, args.extracted)
        cut = cut_out(im)
        if cut is not None and row["label"] in cuts:
            cuts[row["label"]].append((row["id"], cut))
        elif cut is None and row["label"] == "neutral" and SCENERY.match(row["id"]):
            backgrounds.append((row["id"], im.convert("RGB")))
    if not cuts["scary"] or not cuts["neutral"] or not backgrounds:
        sys.exit("real-composites: no cut-outs or no backgrounds in the manifest's training split")

    creatures = [c for c in cuts["neutral"] if not c[0].startswith("tux-")]
    rng = random.Random(args.seed)
    for folder in ("Scary", "Neutral"):
        os.makedirs(os.path.join(args.out, folder), exist_ok=True)
    lines = ["file\tlabel\tcutout\tbackground\taspect\tdim\theight_share\tx\ty\tbars"]
    n = 0
    for scary_id, scary_cut in cuts["scary"]:
        for _ in range(args.per_scary):
            bg_id, bg = rng.choice(backgrounds)
            # Mostly a benign creature or person (so that "a figure stands there" is no cue),
            # sometimes any benign thing (a Tux Paint stamp: a toy, a plant, a house).
            pool = creatures if rng.random() < 0.75 else cuts["neutral"]
            neutral_id, neutral_cut = rng.choice(pool)
            place = Placement(rng, args.size)
            crop_seed = rng.getrandbits(32)
            for label, folder, cut_id, cut in (("scary", "Scary", scary_id, scary_cut),
                                               ("neutral", "Neutral", neutral_id, neutral_cut)):
                name = f"comp-{n:04d}-{cut_id}-on-{bg_id}.png"
                save(place.render(bg, cut, random.Random(crop_seed)), os.path.join(args.out, folder, name))
                lines.append("\t".join([f"{folder}/{name}", label, cut_id, bg_id,
                                        f"{place.aspect[0]}:{place.aspect[1]}", f"{place.dim:.2f}",
                                        f"{place.height_share:.2f}", f"{place.fx:.2f}", f"{place.fy:.2f}",
                                        "yes" if place.bars else "no"]))
            n += 1
    with open(os.path.join(args.out, "composites.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"real-composites: {n} frightening and {n} neutral frames from {len(cuts['scary'])} "
          f"frightening and {len(cuts['neutral'])} neutral cut-outs on {len(backgrounds)} backgrounds")


if __name__ == "__main__":
    main()
