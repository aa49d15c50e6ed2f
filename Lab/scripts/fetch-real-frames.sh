#!/usr/bin/env bash
# Real labelled frames for issue 22: training images and check stills from pinned Debian 12
# (bookworm, main) packages, every file listed in data/real-frames/manifest.tsv with its package,
# version, path, licence and sha256, and labelled by a person (data/real-frames/README.md).
# Nothing here is committed but the manifest; downloads and unpacked files are cached.
#
#   OUT/train/Happy|Neutral|Scary/<id>.png   training images, as `leamoji train OUT/train` reads
#   OUT/check/<id>.png                       check stills (Lab/scripts/make-check-clips.sh makes clips)
#   OUT/fresh/<id>.png                       fresh-source stills (Lab/scripts/fresh-check.sh scores them)
#
# Every .deb is fetched by exact version from deb.debian.org's pool and its sha256 checked
# (a mismatch stops the run); only the manifest's files are unpacked (dpkg-deb | tar), and each
# is checked against the manifest's sha256 before Lab/scripts/real-frames.py converts it to PNG
# (transparent pictures over a background picked by id, longer side at most 640 px; Freedoom's
# sprites are lumps of its WAD, "freedoom2.wad:TROOA1", and UFO: Alien Invasion's pictures members
# of its .pk3 zip archive, and Cataclysm: DDA's and Angband's sprites tiles of a sheet,
# "32x32.png@96,64,32,32", checked and decoded one by one).
# When bookworm's pool moves on to a newer version, set DEBIAN_POOL to a snapshot, e.g.
# DEBIAN_POOL=https://snapshot.debian.org/archive/debian/20251101T000000Z.
#
# Usage: Lab/scripts/fetch-real-frames.sh [OUT]    (default .build/real-frames)
# Environment: REAL_FRAMES_CACHE (default .build/real-frames-cache), PYTHON (a Python 3 with
# Pillow; default /usr/bin/python3, Debian's python3-pil), DEBIAN_POOL.
# Tools: curl, dpkg-deb, tar, sha256sum, python3 + python3-pil (apt-get install curl dpkg tar
# coreutils python3 python3-pil). About 3 GB of downloads the first time.
set -euo pipefail

cd "$(dirname "$0")/../.."
source Lab/scripts/fetch-checked.sh
OUT=${1:-.build/real-frames}
CACHE=${REAL_FRAMES_CACHE:-.build/real-frames-cache}
MANIFEST=data/real-frames/manifest.tsv
PYTHON=${PYTHON:-/usr/bin/python3}
POOL=${DEBIAN_POOL:-https://deb.debian.org/debian}

for tool in curl dpkg-deb tar sha256sum; do
  command -v $tool >/dev/null || { echo "$tool is needed: apt-get install curl dpkg tar coreutils" >&2; exit 1; }
done
"$PYTHON" -c 'import PIL' 2>/dev/null ||
  { echo "$PYTHON has no Pillow: apt-get install python3-pil (or set PYTHON=)" >&2; exit 1; }

# file|sha256|url, one per package the manifest names.
DEBS=(
  "alienblaster-data_1.1.0-11_all.deb|53516e464d4604da8a72021d1d36a75c66bb3573dd99e20d381fc108994d17ee|$POOL/pool/main/a/alienblaster/alienblaster-data_1.1.0-11_all.deb"
  "angband-data_3.5.1-2.5_all.deb|b0fd778c0824cc2fb684b95d8483a74f7806cfb0ee66955b40eae6473ae29a9f|$POOL/pool/main/a/angband/angband-data_3.5.1-2.5_all.deb"
  "ardentryst_1.71-9_all.deb|7a01180285a4acaa980b18118127c60ac0377f4e2bcd69244b1feb7de5fc566f|$POOL/pool/main/a/ardentryst/ardentryst_1.71-9_all.deb"
  "blobwars-data_2.00-2_all.deb|6b1d2b91038fe2264adc989edebcf8cf46ea25f74972a42bcab67017112f48ec|$POOL/pool/main/b/blobwars/blobwars-data_2.00-2_all.deb"
  "blocks-of-the-undead-data_1.0-7_all.deb|58321a4b0581e8aff78627f91a1ad6cb7e07bc75db863a43da3e227814cdca9f|$POOL/pool/main/b/blocks-of-the-undead/blocks-of-the-undead-data_1.0-7_all.deb"
  "cataclysm-dda-data_0.F-3-9_all.deb|cd0c097169fe364fdb6bcdab77663d24920a063387ce2fbf1b5d3be01c141105|$POOL/pool/main/c/cataclysm-dda/cataclysm-dda-data_0.F-3-9_all.deb"
  "crawl-tiles-data_0.28.0-1.1_all.deb|6eae80f1d2c1ba9d6c9c8e276d1007dd2e900aab58f55427913c20605988fda3|$POOL/pool/main/c/crawl/crawl-tiles-data_0.28.0-1.1_all.deb"
  "cube2-data_1.3-1_all.deb|73c8781495578c1540c483a2e8351fd1fbc6ab67c71dd7d0928af48097b9ecb7|$POOL/pool/main/c/cube2-data/cube2-data_1.3-1_all.deb"
  "endless-sky-data_0.9.8-1.2_all.deb|e45835e05a11e84bb1a890a0ded390246a53b8318f21a25925aa70fa54f80c13|$POOL/pool/main/e/endless-sky/endless-sky-data_0.9.8-1.2_all.deb"
  "flare-game_1.14-1_all.deb|4ab6a8298276013d35a0806257e130d992761af1b749041433b409c3dafec508|$POOL/pool/main/f/flare-game/flare-game_1.14-1_all.deb"
  "freedink-data_1.08.20190120-2_all.deb|5c3f0c22958364460057d9df5318a9a2a0fb84b9174cab57a9d50ad03a73d66c|$POOL/pool/main/f/freedink-data/freedink-data_1.08.20190120-2_all.deb"
  "freedoom_0.12.1-2_all.deb|c5b7cf1aa6dde8c980271981ce75b9b4a9e7b634b9db93d471f54bab7a8e1290|$POOL/pool/main/f/freedoom/freedoom_0.12.1-2_all.deb"
  "freeorion-data_0.4.10.2-1_all.deb|911a15d562f9c2a454eda03d4ed9e9ddc01be850d415652f257fe14660896017|$POOL/pool/main/f/freeorion/freeorion-data_0.4.10.2-1_all.deb"
  "gnome-backgrounds_43.1-1_all.deb|a670dea21572652127d6e55f9cdb3a226d0037854fdbfd037003c7d00ee0dc4e|$POOL/pool/main/g/gnome-backgrounds/gnome-backgrounds_43.1-1_all.deb"
  "hedgewars-data_1.0.2-6_all.deb|722225903a72604403e6e0026e40e9a6953f47a74d94efc5f55504bc05bb4761|$POOL/pool/main/h/hedgewars/hedgewars-data_1.0.2-6_all.deb"
  "holotz-castle-data_1.3.14-12_all.deb|2fb9943863ef48b4b7f79ae340e7d5ef5f5ecd56a8d5b6bc1b04bf5765b60c6f|$POOL/pool/main/h/holotz-castle/holotz-castle-data_1.3.14-12_all.deb"
  "jigzo-data_0.6.1-7.1_all.deb|fd586fef4a099b471b69036b79d347b6ec416ab12588fcb4e68cdb1f0b042c35|$POOL/pool/main/j/jigzo/jigzo-data_0.6.1-7.1_all.deb"
  "megaglest-data_3.13.0-3_all.deb|ed4783d9fc78e201a548b266f7c30325eb16cfd58a20bf4597dd6e622f84a07e|$POOL/pool/main/m/megaglest-data/megaglest-data_3.13.0-3_all.deb"
  "nexuiz-data_2.5.2-12_all.deb|5d4a4e293d9382be3b8edf6ec2d9f39d2a16f49467618b2316fbfa400acecf0e|$POOL/pool/main/n/nexuiz-data/nexuiz-data_2.5.2-12_all.deb"
  "openarena-081-players_0.8.5split-14_all.deb|34b80557c998079689a83b723976eafa7f85c9e36ba6f967e62c55c2a3204b62|$POOL/pool/main/o/openarena-players/openarena-081-players_0.8.5split-14_all.deb"
  "openarena-088-data_0.8.8-12_all.deb|277dd6d46d057d65884596f606c79c7393d9c0e240f6e4c4981706231f4ab00d|$POOL/pool/main/o/openarena-088-data/openarena-088-data_0.8.8-12_all.deb"
  "openclipart-png_0.18+dfsg-19_all.deb|f07f1545a2970c2cf3fa339bc2405da1a95cf2b1827bfa05bf73eb1c20291c02|$POOL/pool/main/o/openclipart/openclipart-png_0.18+dfsg-19_all.deb"
  "palapeli-data_22.12.3-1_all.deb|69a15dce2ac25ed8708ac518cd0cee5f4eb0c70ed15da2fdb8899a19ac0ee058|$POOL/pool/main/p/palapeli/palapeli-data_22.12.3-1_all.deb"
  "plasma-workspace-wallpapers_5.27.5-2_all.deb|32cd18b71c8c938a18b3b351f217c02ac590e323caa3cf322fbb875ce8892f8b|$POOL/pool/main/p/plasma-workspace-wallpapers/plasma-workspace-wallpapers_5.27.5-2_all.deb"
  "supertux-data_0.6.3-2_all.deb|a6ad8865972f1dbb5e7b49f4e1b381dd16a68f3028a3502cfeaca2400285d27f|$POOL/pool/main/s/supertux/supertux-data_0.6.3-2_all.deb"
  "teeworlds-data_0.7.5-2_all.deb|b8672bba1a74d0fee98241766b1415f92545f45cbccff3ea6fbca8bde2dfe2a4|$POOL/pool/main/t/teeworlds/teeworlds-data_0.7.5-2_all.deb"
  "tuxpaint-stamps-default_2022.06.04-1_all.deb|6db6c1bfc870a47f1499d6203b083522eacb57c5f9c87d468f2e92eb6d9d5f34|$POOL/pool/main/t/tuxpaint-stamps/tuxpaint-stamps-default_2022.06.04-1_all.deb"
  "ufoai-data_2.5-2_all.deb|de889e5fe78c054724c3fa584e26591362f3e479488e92c9788ce1cd68b6ac22|$POOL/pool/main/u/ufoai-data/ufoai-data_2.5-2_all.deb"
  "wesnoth-1.16-data_1.16.9-1_all.deb|1012b964bd412a6770685e3324ae3b61e176caff7846192d1ee63d55cd621e26|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-data_1.16.9-1_all.deb"
  "wesnoth-1.16-did_1.16.9-1_all.deb|774619f5aaeb7eb4c848e1cc1758795a8c58e96bd270cceecc9d847dbcc769b3|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-did_1.16.9-1_all.deb"
  "wesnoth-1.16-dm_1.16.9-1_all.deb|1997ad4d91e8de36415db2a3445904288f588a76d75111222d2aace409ace5c6|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-dm_1.16.9-1_all.deb"
  "wesnoth-1.16-dw_1.16.9-1_all.deb|47982e08b2a5d5fd79f400a5453f32c6d7dd56f2ccc10412a9e47dec8a9b3ca4|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-dw_1.16.9-1_all.deb"
  "wesnoth-1.16-ei_1.16.9-1_all.deb|687abe111ee662b7324336ddadc209758f68d2eeb1ccbf630238f27a0e3c6404|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-ei_1.16.9-1_all.deb"
  "wesnoth-1.16-httt_1.16.9-1_all.deb|05b16a3f8f8204278794aae14d8e6a7c95d2b2faef7337c4997c827a146d1bbd|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-httt_1.16.9-1_all.deb"
  "wesnoth-1.16-l_1.16.9-1_all.deb|5383c79046df6121929bc36a8ec3f970ab4cf9c1239ed9b31868201c27f4266d|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-l_1.16.9-1_all.deb"
  "wesnoth-1.16-low_1.16.9-1_all.deb|2f304551b97b7fb76a2adb5ad8ffcac3e78476bc8ade17532c90714065c9bf9f|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-low_1.16.9-1_all.deb"
  "wesnoth-1.16-nr_1.16.9-1_all.deb|13edcf1bdd23708f531ba81c67100c5800363a119f10155c7f9e146fe7dced34|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-nr_1.16.9-1_all.deb"
  "wesnoth-1.16-sof_1.16.9-1_all.deb|b6f1ddffdbd1a977f3965dae944e4fb11c147627471f1cfc71c92d1e69efb555|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-sof_1.16.9-1_all.deb"
  "wesnoth-1.16-sota_1.16.9-1_all.deb|fa44304ff53d259f3c5fe13c03cb8166e55e9c307807d1a5663048c396645ba6|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-sota_1.16.9-1_all.deb"
  "wesnoth-1.16-sotbe_1.16.9-1_all.deb|877a2f4a7fd8df54fd3b4561ffbd5fa95d0390d7c7372f3cb66367c8007918cb|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-sotbe_1.16.9-1_all.deb"
  "wesnoth-1.16-thot_1.16.9-1_all.deb|79d9ec6e43300ea9f41295ccf3fb451e8eeaefc17007123f65d77eb05cb88695|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-thot_1.16.9-1_all.deb"
  "wesnoth-1.16-trow_1.16.9-1_all.deb|b5009e964ac7157a46d50de911e4f56f5bb4389d60b82a513b5f382671d180d7|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-trow_1.16.9-1_all.deb"
  "wesnoth-1.16-tsg_1.16.9-1_all.deb|38b5f564253b8e0d9c093b2b7c58aabfef24f688968d9cbaf42abfc1e76d8288|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-tsg_1.16.9-1_all.deb"
  "wesnoth-1.16-ttb_1.16.9-1_all.deb|d0d45693665305191488553ade8dc1d0aa26ab17d4bffae3bf6969db4a766329|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-ttb_1.16.9-1_all.deb"
  "wesnoth-1.16-utbs_1.16.9-1_all.deb|81e05717bebbfb6348c0bed2cd6ce2560c4fd9205ed419c2e7bc039b4a70e228|$POOL/pool/main/w/wesnoth-1.16/wesnoth-1.16-utbs_1.16.9-1_all.deb"
  "widelands-data_1.1-3_all.deb|0e23d645b15bcfb9e3bcae0de9bc1bdfa75a6ecb36b2e449759d6eb0b4bbd8fb|$POOL/pool/main/w/widelands/widelands-data_1.1-3_all.deb"
)
fetch_checked "$CACHE/debs" "${DEBS[@]}"

# Unpack each package's manifest files into $CACHE/x/<package>_<version>/ (once per manifest:
# the list of wanted paths is kept beside it and compared). real-frames.py names the file each
# manifest path is in (a WAD, an archive, a tile sheet), as it reads them.
mkdir -p "$CACHE/x"
files=$("$PYTHON" Lab/scripts/real-frames.py --files "$MANIFEST")
for entry in "${DEBS[@]}"; do
  IFS='|' read -r file _ _ <<<"$entry"
  pkg=${file%%_*}
  rest=${file#*_}
  version=${rest%%_*}
  dir="$CACHE/x/${pkg}_${version}"
  want=$(awk -F'\t' -v k="${pkg}_${version}" '$1 == k { print $2 }' <<<"$files" | sort -u)
  [ -n "$want" ] || continue
  if [ -f "$dir.list" ] && [ "$(cat "$dir.list")" = "$want" ]; then continue; fi
  echo "unpacking $file" >&2
  rm -rf "$dir" && mkdir -p "$dir"
  dpkg-deb --fsys-tarfile "$CACHE/debs/$file" | tar -x -C "$dir" -T <(printf '%s\n' "$want")
  printf '%s\n' "$want" >"$dir.list"
done

"$PYTHON" Lab/scripts/real-frames.py "$MANIFEST" "$CACHE/x" "$OUT"
echo "training images in $OUT/train, check stills in $OUT/check"
