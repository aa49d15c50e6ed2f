#!/usr/bin/env bash
# Renders frightening footage with sound from game engines playing the demos that Debian 12's game
# packages ship (issue 37): dsda-doom plays the DEMO lumps inside Freedoom's WADs (check split),
# ioquake3 the demos inside OpenArena's pk3 files and DarkPlaces those inside Nexuiz's data.pk3
# (train split), each captured to video with the sound the engine mixes itself. The clips are listed in data/footage-rendered/manifest.tsv and
# labelled per second in data/footage-rendered/labels/; README.md there says how.
#
#   Lab/scripts/render-footage.sh [OUT]      OUT defaults to $RENDERED, else .build/footage-rendered
#   ONLY='freedoom1-demo1 oa-...' ...    render only these ids
#
# Engines and data are Debian 12 (bookworm) packages at pinned versions: a package missing or at
# another version is installed with apt-get (as root) at the pinned version, whose .deb apt checks
# against the sha256 below (the same as in bookworm's Packages index). Every input file the engines
# read (WADs, demo lumps, pk3 files, game code) is checked against its sha256 before rendering.
# Idempotent: a clip already in OUT/clips is kept. Needs xvfb-run, ffmpeg, python3.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-${RENDERED:-$ROOT/.build/footage-rendered}}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CLIPS=$OUT/clips
WORK=$OUT/work
mkdir -p "$CLIPS" "$WORK"
ONLY=${ONLY:-}

# package  version  sha256 of the .deb (pool/main/...)
PINS='
dsda-doom 0.25.6+dfsg-1 584170d2a6ae56969d7dfe6a547fca8fd6506b59872f9a978b6eaa3fbac9b165
freedoom 0.12.1-2 c5b7cf1aa6dde8c980271981ce75b9b4a9e7b634b9db93d471f54bab7a8e1290
ioquake3 1.36+u20221123.70d07d9+dfsg-1 9e56c77981204b129e9e85131e1bcd4e0e5c1ccffd66cef9bca385bc491531c5
openarena 0.8.8+dfsg-6 75439abb1ef32da311ef68044728f18b4304bab6e7e803b2afb8bd5d2e765b6e
openarena-data 0.8.5split-14 fa68862434f02a826b7ef22008f25f406623abf4e37113c1bfab5460065483c8
openarena-081-maps 0.8.5split-14 dc2584d3af84696366080bc8d54c6c70d82085b7d3220f6cc878caed16aaf7d2
openarena-081-misc 0.8.5split-14 1cc4c96b334e50a54e3b20b6ef0f2e8112b391afc33de024b7d7db3fa6ebf702
openarena-081-players 0.8.5split-14 34b80557c998079689a83b723976eafa7f85c9e36ba6f967e62c55c2a3204b62
openarena-081-players-mature 0.8.5split-14 0fa433f3b734a5b5bb64dfee368e9bd7ff618c8c38324bf9a3badea7864352c3
openarena-081-textures 0.8.5split-14 72bf05abd5286a1523b56ca04e25bceb775813d747f92ecd20749d512361a81f
openarena-085-data 0.8.5split-14 2f43c30736db74dd5e9721520b34f2b7c70766154c6ebed4438d9b936ee15461
openarena-088-data 0.8.8-12 277dd6d46d057d65884596f606c79c7393d9c0e240f6e4c4981706231f4ab00d
darkplaces 0~20180908~beta1-5 e7fded8a22c70f1a280bf93c5e76409b1384418508911139caa394fce3e08ff1
nexuiz 2.5.2+dp-9 0380b3b99b5a724579ac29a56cb0cae51f46abd6aa28d40392fa1e4be31742a1
nexuiz-data 2.5.2-12 5d4a4e293d9382be3b8edf6ec2d9f39d2a16f49467618b2316fbfa400acecf0e
nexuiz-textures 2.5.2-12 d1ebefbcc7c730f9b68c286f11d3430906c111a99e0c3ec60ad25a32de175510
'

# input file  sha256
INPUTS='
/usr/share/games/doom/freedoom1.wad 84c3a912f2973892a8025d09d65f5053b1ee2304968a5a172526d683a185b885
/usr/share/games/doom/freedoom2.wad c72de2af7e2d0c17f6213e751a167e2f1913278aaf37ae6957854fe3cd6588ca
/usr/share/games/openarena/baseoa/pak0.pk3 60789d4ef1e27b8f0806063060be8b93df10696a78b7cc6e48b0232038614870
/usr/share/games/openarena/baseoa/pak1-maps.pk3 76912e8e6dc6895d38555ebf84dfb6d2c01a127b060f04f3ccbce1d31ff55654
/usr/share/games/openarena/baseoa/pak2-players-mature.pk3 0ac9a7bd282b41ebe2464e5bf3e77e9527c37343005fe824f8883de83494cbce
/usr/share/games/openarena/baseoa/pak2-players.pk3 e72348e85b6667fcd59d9074a008e2c76c3dd1fbf3a722bb2566e3e30863e586
/usr/share/games/openarena/baseoa/pak4-textures.pk3 93e33ae57ecdfb335c53c83c46c203b9ae337940d4ed098b8c7537fd4d784495
/usr/share/games/openarena/baseoa/pak5-TA.pk3 9c09d44fcda97849f439ecb6bd1b2dd3da00c6c1c613dadc804d9929a6df2c58
/usr/share/games/openarena/baseoa/pak6-misc.pk3 3c9762006203e34b304c9b64de1d166e375e95314184e99be76624fa24bd1622
/usr/share/games/openarena/baseoa/pak6-patch085.pk3 b859d10e242d6d6390957b6ca5f4c7ccb405ac205dbda26cf3045d57e6404bd9
/usr/share/games/openarena/baseoa/pak6-patch088.pk3 a6f8d951e815b4ac8c7eb0990df7563d84b0249079916bd04b070c9bda63e659
/usr/lib/openarena/baseoa/pak0/cgamex86_64.so a674ffd9635b5b5dbeaffe8acdf8a84c2da8e243dcdf0853cd7c1d9dc3c00876
/usr/lib/openarena/baseoa/pak0/qagamex86_64.so 515ccae839870cc11442594af1746487f464231887aaa37ac26bd083527cfb9c
/usr/lib/openarena/baseoa/pak0/uix86_64.so 41de81bf413cffeff6d62c5c1c5e547ed92cbe52348afe7fc11950471925927c
/usr/share/games/nexuiz/data/data.pk3 43d4657965fc732131abe5b335a956ac48e878afe7e58c44efcf9d6cb13c3c89
/usr/share/games/nexuiz/data/textures.pk3 28e0cff71ce1ee2c3eabbba60181149cdba8bcdf302888533ac10a73319b3060
'

# The clips: id, engine, game data, demo (a WAD lump or a demo inside the pk3 files).
CLIPLIST='
freedoom1-demo1 doom freedoom1 DEMO1
freedoom1-demo2 doom freedoom1 DEMO2
freedoom1-demo3 doom freedoom1 DEMO3
freedoom1-demo4 doom freedoom1 DEMO4
freedoom2-demo1 doom freedoom2 DEMO1
freedoom2-demo2 doom freedoom2 DEMO2
freedoom2-demo3 doom freedoom2 DEMO3
freedoom2-demo4 doom freedoom2 DEMO4
oa-stress-sago oa081 openarena-0.8.1 stress_sago.dm_70
oa-stress-bases3 oa081 openarena-0.8.1 stress_bases3.dm_70
oa-flyby-compromise oa081 openarena-0.8.1 flyby_compromise.dm_70
oa-flyby-hydronex oa081 openarena-0.8.1 flyby_hydronex.dm_70
oa-flyby-oaspirit oa081 openarena-0.8.1 flyby_oaspirit.dm_70
oa-flyby-oa-dm3 oa081 openarena-0.8.1 flyby_oa_dm3.dm_70
oa-flyby-suspended oa081 openarena-0.8.1 flyby_suspended.dm_70
oa-demo088-test1 oa088 openarena-0.8.8 demo088-test1.dm_71
nexuiz-demo1 nexuiz nexuiz-2.5.2 demo1
nexuiz-demo2 nexuiz nexuiz-2.5.2 demo2
nexuiz-demo3 nexuiz nexuiz-2.5.2 demo3
nexuiz-demo4 nexuiz nexuiz-2.5.2 demo4
nexuiz-demo5 nexuiz nexuiz-2.5.2 demo5
nexuiz-piece-o-cake nexuiz nexuiz-2.5.2 piece-o-cake
'

log() { printf 'render-footage: %s\n' "$*" >&2; }

wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }

# --- packages at the pinned versions --------------------------------------------------------
need_install=()
while read -r pkg ver sha; do
  [ -n "$pkg" ] || continue
  have=$(dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null || true)
  if [ "$have" != "install ok installed $ver" ]; then need_install+=("$pkg=$ver"); fi
done <<<"$PINS"
if [ ${#need_install[@]} -gt 0 ]; then
  log "installing ${need_install[*]}"
  [ "$(id -u)" = 0 ] || { log "not root: install these first"; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${need_install[@]}" xvfb xauth ffmpeg libgl1-mesa-dri >/dev/null
  # apt checked each .deb against bookworm's signed index; the pins must match that index too.
  while read -r pkg ver sha; do
    [ -n "$pkg" ] || continue
    got=$(apt-cache show "$pkg=$ver" | awk '/^SHA256:/{print $2; exit}')
    [ "$got" = "$sha" ] || { log "$pkg $ver: index sha256 $got, pinned $sha"; exit 1; }
  done <<<"$PINS"
fi
for tool in xvfb-run ffmpeg ffprobe python3; do
  command -v "$tool" >/dev/null || { log "missing $tool"; exit 1; }
done

# --- input files ---------------------------------------------------------------------------
while read -r file sha; do
  [ -n "$file" ] || continue
  got=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || { log "$file: sha256 $got, expected $sha"; exit 1; }
done <<<"$INPUTS"
log "packages and input files match their pins"

# --- Doom: dsda-doom plays a WAD's DEMOn lump, -viddump pipes frames and mixed sound to ffmpeg ---
render_doom() { # id wad lump
  local id=$1 wad=$2 lump=$3 dir=$WORK/$1
  rm -rf "$dir"; mkdir -p "$dir/home"
  python3 "$ROOT/Lab/scripts/render_wad_lump.py" "/usr/share/games/doom/$wad.wad" "$lump" \
    "$dir/$id.lmp"
  # A config of dsda-doom's defaults with the capture settings changed: 640x480 software render,
  # captured at 35 fps (one frame per game tic), music by the built-in OPL2 emulator (no
  # soundfont), video scaled to 320x240 H.264, sound 44.1 kHz stereo to AAC.
  cat >"$dir/dsda-doom.cfg" <<'EOF'
videomode                      "Software"
screen_resolution              "640x480"
use_fullscreen                 0
uncapped_framerate             0
render_wipescreen              0
snd_midiplayer                 "opl2"
snd_samplerate                 44100
cap_fps                        35
cap_wipescreen                 0
cap_remove_tempfiles           1
cap_tempfile1                  "temp_a.nut"
cap_tempfile2                  "temp_v.nut"
cap_soundcommand               "ffmpeg -loglevel error -f s16le -ar %s -ac 2 -i - -c:a pcm_s16le -y temp_a.nut"
cap_videocommand               "ffmpeg -loglevel error -f rawvideo -pix_fmt rgb24 -r %r -s %wx%h -i - -vf scale=320:240:flags=area -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -threads 1 -y temp_v.nut"
cap_muxcommand                 "ffmpeg -loglevel error -i temp_v.nut -i temp_a.nut -map 0:v -map 1:a -c:v copy -c:a aac -b:a 128k -shortest -map_metadata -1 -fflags +bitexact -y %f"
EOF
  (cd "$dir" && HOME=$dir/home SDL_AUDIODRIVER=dummy \
    xvfb-run -a -s '-screen 0 640x480x24' /usr/games/dsda-doom -config "$dir/dsda-doom.cfg" \
      -iwad "/usr/share/games/doom/$wad.wad" -window \
      -timedemo "$id.lmp" -viddump "$dir/$id.mp4" </dev/null >"$dir/engine.log" 2>&1 || true)
  [ -s "$dir/$id.mp4" ] || { log "$id: no video (see $dir/engine.log)"; return 1; }
  mv "$dir/$id.mp4" "$CLIPS/$id.mp4"
}

# --- OpenArena: ioquake3 plays a demo inside the pk3 files; its `video` command writes an AVI
# with the sound it mixes, one frame per 1/30 s of game time (cl_aviFrameRate fixes the frame
# time), which ffmpeg then encodes.
# oa088: the stock game (/usr/games/openarena: 0.8.8 data and game code, protocol 71).
# oa081: the demos in pak6-misc.pk3 were recorded in 2008 with OpenArena 0.8.1 (protocol 70, game
#   "baseq3-1"). They play with a game folder of the 0.8.1 data only (pak0 … pak6-misc, without the
#   0.8.5 and 0.8.8 patches), the 0.8.1 game code the openarena package builds (pak0/*.so), and
#   protocol 70; the cgame's own name is changed from "baseoa-1" to "baseq3-1" in a copy (8 bytes,
#   same length), which is the only check that refused them.
kill_tree() { # pid: the process and all its descendants
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

oa081_base() {
  local base=$WORK/oa081-base/baseoa
  if [ ! -s "$base/cgamex86_64.so" ]; then
    rm -rf "$WORK/oa081-base"; mkdir -p "$base"
    for f in pak0 pak1-maps pak2-players-mature pak2-players pak4-textures pak5-TA pak6-misc; do
      ln -s "/usr/share/games/openarena/baseoa/$f.pk3" "$base/$f.pk3"
    done
    for s in qagame ui; do cp "/usr/lib/openarena/baseoa/pak0/${s}x86_64.so" "$base/"; done
    python3 - "/usr/lib/openarena/baseoa/pak0/cgamex86_64.so" "$base/cgamex86_64.so" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"baseoa-1\0") == 1
open(sys.argv[2], "wb").write(data.replace(b"baseoa-1\0", b"baseq3-1\0"))
PY
  fi
  echo "$WORK/oa081-base"
}

render_oa() { # id setup demo
  local id=$1 setup=$2 demo=$3 dir=$WORK/$1 name=${3%.dm_*}
  rm -rf "$dir"; mkdir -p "$dir/home"
  local args=(+set r_mode -1 +set r_customwidth 320 +set r_customheight 240 +set r_fullscreen 0
    +set com_hunkMegs 256 +set s_sdlSpeed 44100 +set cl_aviFrameRate 30 +set cl_aviMotionJpeg 0 +set com_maxfps 0
    +set nextdemo quit +demo "$demo" +wait 20 +video "$name")
  local engine home
  if [ "$setup" = oa081 ]; then
    engine=(/usr/lib/ioquake3/ioquake3 +set com_basegame baseoa +set fs_basepath "$(oa081_base)"
      +set com_homepath .oa081 +set com_protocol 70 +set com_legacyprotocol 70)
    home=$dir/home/.oa081
  else
    engine=(/usr/games/openarena)
    home=$dir/home/.openarena
  fi
  (cd "$dir" && HOME=$dir/home SDL_AUDIODRIVER=dummy exec timeout 900 \
    xvfb-run -a -s '-screen 0 640x480x24' "${engine[@]}" "${args[@]}" </dev/null >"$dir/engine.log" 2>&1) &
  local pid=$!
  # A demo that cannot play (a map missing: "ERROR: Couldn't load maps/…") leaves the engine
  # in its menu, and `video` refuses: stop it then rather than at the timeout.
  while kill -0 "$pid" 2>/dev/null; do
    if grep -q -E '^ERROR:|can only be used when playing back demos' "$dir/engine.log" 2>/dev/null; then
      kill_tree "$pid"; break
    fi
    sleep 2
  done
  wait "$pid" || true
  local avi=$home/baseoa/videos/$name.avi
  [ -s "$avi" ] || { log "$id: no video (see $dir/engine.log)"; return 1; }
  ffmpeg -nostdin -loglevel error -i "$avi" -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p \
    -threads 1 -c:a aac -b:a 128k -map_metadata -1 -fflags +bitexact -y "$dir/$id.mp4"
  rm -f "$avi"
  mv "$dir/$id.mp4" "$CLIPS/$id.mp4"
}
render_oa081() { render_oa "$1" oa081 "$3"; }
render_oa088() { render_oa "$1" oa088 "$3"; }

# --- Nexuiz: DarkPlaces plays a demo inside data.pk3; -capturedemo captures it (frames and the
# mixed sound, 30 fps, AVI: I420 + PCM) and quits, ffmpeg then encodes it. No music: the
# nexuiz-music package is not installed.
render_nexuiz() { # id data demo
  local id=$1 demo=$3 dir=$WORK/$1
  rm -rf "$dir"; mkdir -p "$dir/home" "$dir/userdir"
  (cd "$dir" && HOME=$dir/home SDL_AUDIODRIVER=dummy timeout 900 \
    xvfb-run -a -s '-screen 0 640x480x24' /usr/games/nexuiz -userdir "$dir/userdir" \
      +vid_fullscreen 0 +vid_width 320 +vid_height 240 +snd_speed 44100 \
      +cl_capturevideo_fps 30 +cl_capturevideo_ogg 0 -capturedemo "demos/$demo" \
      </dev/null >"$dir/engine.log" 2>&1 || true)
  local avi
  avi=$(find "$dir/userdir" -name '*.avi' | head -1)
  [ -n "$avi" ] && [ -s "$avi" ] || { log "$id: no video (see $dir/engine.log)"; return 1; }
  ffmpeg -nostdin -loglevel error -i "$avi" -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p \
    -threads 1 -c:a aac -b:a 128k -ar 44100 -map_metadata -1 -fflags +bitexact -y "$dir/$id.mp4"
  rm -f "$avi"
  mv "$dir/$id.mp4" "$CLIPS/$id.mp4"
}

for_each_clip() {
  while read -r id engine data demo; do
    [ -n "$id" ] || continue
    wanted "$id" || continue
    if [ -s "$CLIPS/$id.mp4" ]; then log "$id: already there"; continue; fi
    local t0=$SECONDS
    log "$id: rendering ($engine, $data, $demo)"
    if ! "render_$engine" "$id" "$data" "$demo"; then failed+=("$id"); continue; fi
    log "$id: $(ffprobe -v error -show_entries format=duration -of csv=p=0 "$CLIPS/$id.mp4") s of video in $((SECONDS - t0)) s"
  done <<<"$CLIPLIST"
}

failed=()
for_each_clip
log "clips are in $CLIPS"
ls -l "$CLIPS" >&2
if [ ${#failed[@]} -gt 0 ]; then log "failed: ${failed[*]}"; exit 1; fi
