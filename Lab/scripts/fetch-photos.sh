#!/usr/bin/env bash
# Fetches the real photographs that `leamoji-lab scenes dataset --photos` mixes into training
# scenes (issue 12): 30 benign photos with no mood cue in them — objects, animals at rest,
# landscapes, flowers, textures — from two pinned, checksummed packages. Nothing is committed;
# the photos land in the folder given (default .build/photos) and are cached there.
#
#   from                                                     photos
#   scikit-image 0.26.0 wheel (PyPI), skimage/data/          astronaut, brick, camera, chelsea,
#                                                            clock_motion, coffee, coins, color,
#                                                            grass, gravel, hubble_deep_field,
#                                                            ihc, moon, motorcycle_left/right,
#                                                            page, rocket, text
#   mate-backgrounds 1.26.0-1 (Debian bookworm), nature/     Aqua, Blinds, Dune, FreshFlower,
#                                                            Garden, GreenMeadow, LadyBird,
#                                                            RainDrops, TwoWings, Wood,
#                                                            YellowFlower (not Storm: a storm
#                                                            front is a scary cue), and
#                                                            abstract/Elephants
#
# None of these is footage that Lab/scripts/check-real-footage.sh checks a model on.
# Usage: Lab/scripts/fetch-photos.sh [FOLDER]
set -euo pipefail

cd "$(dirname "$0")/../.."
source Lab/scripts/fetch-checked.sh
OUT=${1:-.build/photos}
CACHE=${PHOTO_CACHE:-.build/photo-archives}
command -v unzip >/dev/null || { echo "unzip is needed: apt-get install unzip" >&2; exit 1; }
command -v dpkg-deb >/dev/null || { echo "dpkg-deb is needed (Debian's dpkg)" >&2; exit 1; }

SKIMAGE=scikit_image-0.26.0-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl
MATE=mate-backgrounds_1.26.0-1_all.deb
# file|sha256|url
ARCHIVES=(
  "$SKIMAGE|74aa5518ccea28121f57a95374581d3b979839adc25bb03f289b1bc9b99c58af|https://files.pythonhosted.org/packages/a5/2a/e71c1a7d90e70da67b88ccc609bd6ae54798d5847369b15d3a8052232f9d/$SKIMAGE"
  "$MATE|7bf4c2209f34b4f61ba6d24c8b58c28b361e82e4b943aae6d42c030169af9e04|https://deb.debian.org/debian/pool/main/m/mate-backgrounds/$MATE"
)
fetch_checked "$CACHE" "${ARCHIVES[@]}"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
for name in astronaut.png brick.png camera.png chelsea.png clock_motion.png coffee.png coins.png \
  color.png grass.png gravel.png hubble_deep_field.jpg ihc.png moon.png motorcycle_left.png \
  motorcycle_right.png page.png rocket.jpg text.png; do
  unzip -q -o -j "$CACHE/$SKIMAGE" "skimage/data/$name" -d "$WORK"
  mv "$WORK/$name" "$OUT/skimage-$name"
done
dpkg-deb -x "$CACHE/$MATE" "$WORK/mate"
for name in nature/Aqua.jpg nature/Blinds.jpg nature/Dune.jpg nature/FreshFlower.jpg \
  nature/Garden.jpg nature/GreenMeadow.jpg nature/LadyBird.jpg nature/RainDrops.jpg \
  nature/TwoWings.jpg nature/Wood.jpg nature/YellowFlower.jpg abstract/Elephants.jpg; do
  cp "$WORK/mate/usr/share/backgrounds/mate/$name" "$OUT/mate-$(basename "$name")"
done
echo "$(find "$OUT" -type f | wc -l) photos in $OUT"
