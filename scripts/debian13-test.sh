#!/usr/bin/env bash
# The Debian 13 (trixie, FFmpeg 7.1) leg of CI: builds leamoji and runs the whole `make test`
# inside a Debian 13 system made with `debootstrap --variant=minbase trixie`, with the host's
# Swift toolchain (/opt/swift) and local Swift package copies bind-mounted in.
#
#   scripts/debian13-test.sh [test]   the leg (default): a fresh system copy, `make test` in it
#   scripts/debian13-test.sh prepare  only make (or check) the cached Debian 13 base system
#   scripts/debian13-test.sh shell    a shell in a fresh copy with the work tree (for a look)
#
# LEAMOJI_DEBIAN13_COMMAND runs another command than `make test` in the work tree, e.g.
# 'make test-deps && swift build --build-tests && swift test --skip-build --filter LeamojiVideoTests'.
#
# Runs as root or as a user with sudo; needs no terminal. The base system is made once and
# cached in $LEAMOJI_DEBIAN13_CACHE (default /var/cache/leamoji): debootstrap plus the Swift
# toolchain's run-time packages. Each run copies it, so `make test` installs the FFmpeg -dev
# packages, ffmpeg, tmux and parallel itself, as on a new machine (the downloaded .deb files are
# cached next to the base). The work tree (tracked and untracked files that git does not ignore,
# no .build) is copied in, so the leg's build never shares the host's .build. All mounts live
# in a private mount namespace (unshare) and are also unmounted on exit; processes left by the
# tests end with the namespace's PID 1; the run's copy is removed on exit, even on failure
# (LEAMOJI_DEBIAN13_KEEP=1 keeps it). The suite's output is copied to
# .build-debian13/test-output.txt, and when the host's .build/test-output.txt exists (CI runs
# the Debian 12 `make test` first) the two runs must count the same tests and skip the same ones.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-test}
case "$mode" in
  test | prepare | shell) ;;
  *)
    echo "debian13-test.sh: unknown mode '$mode' (use test, prepare or shell)" >&2
    exit 64
    ;;
esac

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "debian13-test.sh: needs root or sudo (for debootstrap, mounts and chroot)" >&2
    exit 1
  fi
  SUDO="sudo -n"
fi

cache=${LEAMOJI_DEBIAN13_CACHE:-/var/cache/leamoji}
mirror=${LEAMOJI_DEBIAN13_MIRROR:-http://deb.debian.org/debian}
# The toolchain: /opt/swift, else the one whose bin/swift is on the PATH (<root>/usr/bin/swift).
toolchain=${LEAMOJI_SWIFT_TOOLCHAIN:-/opt/swift}
if [ -z "${LEAMOJI_SWIFT_TOOLCHAIN:-}" ] && [ ! -x "$toolchain/usr/bin/swift" ] &&
  swift=$(command -v swift 2>/dev/null); then
  toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift")")")")
fi
base="$cache/debian13-base"
archives="$cache/debian13-apt-archives"
# The Swift 6.3 toolchain's run-time needs on Debian 13 (the set that worked, issue 25), and
# what running the leg itself needs: git for SwiftPM, make, sudo for a non-root build user.
toolchain_packages="libcurl4t64 libxml2 libedit2 libsqlite3-0 libncurses6 libz3-4 binutils gcc
  libc6-dev libstdc++-14-dev"
leg_packages="ca-certificates git make sudo"
# Changing this recipe (or the package lists) makes the next run build a new base.
recipe="trixie minbase $mirror | $toolchain_packages | $leg_packages | recipe 1"

log() { echo "== debian13: $*"; }

if [ ! -x "$toolchain/usr/bin/swift" ]; then
  echo "debian13-test.sh: no Swift toolchain at $toolchain (set LEAMOJI_SWIFT_TOOLCHAIN)" >&2
  exit 1
fi

# --- the cached base system -------------------------------------------------------------------

prepare_base() {
  if $SUDO test -f "$base/.leamoji-base" &&
    [ "$($SUDO cat "$base/.leamoji-base")" = "$recipe" ]; then
    log "cached base system $base"
    return
  fi
  if ! command -v debootstrap >/dev/null 2>&1 && [ ! -x /usr/sbin/debootstrap ]; then
    log "installing debootstrap"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      debootstrap debian-archive-keyring
  fi
  local started=$SECONDS new="$cache/debian13-base.new.$$"
  log "making the base system (debootstrap --variant=minbase trixie; a few minutes, once)"
  $SUDO mkdir -p "$cache" "$archives"
  partial=$new
  # debootstrap's own mounts (proc, sys) and the package installation run in a private mount
  # namespace: nothing is left mounted whatever happens.
  $SUDO unshare --mount --propagation private env DEBIAN_FRONTEND=noninteractive \
    new="$new" mirror="$mirror" packages="$toolchain_packages $leg_packages" bash -euo pipefail -c '
      debootstrap --variant=minbase trixie "$new" "$mirror" >"$new.log" 2>&1 ||
        { tail -30 "$new.log" >&2; exit 1; }
      cat >"$new/etc/apt/sources.list" <<EOF
deb $mirror trixie main
deb $mirror trixie-updates main
deb http://security.debian.org/debian-security trixie-security main
EOF
      cp /etc/resolv.conf "$new/etc/resolv.conf"
      mount -t proc proc "$new/proc"
      mount --rbind /dev "$new/dev" && mount --make-rslave "$new/dev"
      chroot "$new" apt-get update -qq
      chroot "$new" apt-get install -y -qq --no-install-recommends $packages >/dev/null
      chroot "$new" apt-get clean
      umount -R "$new/dev" "$new/proc"'
  echo "$recipe" | $SUDO tee "$new/.leamoji-base" >/dev/null
  $SUDO rm -rf --one-file-system "$base" "$new.log"
  $SUDO mv "$new" "$base"
  partial=""
  log "base system ready in $((SECONDS - started)) s"
}

# --- one run ------------------------------------------------------------------------------------

run="" partial=""
cleanup() {
  local status=$?
  # A base system left half made (debootstrap failed or was interrupted); its mounts were in
  # the namespace that ended with it.
  if [ -n "$partial" ]; then $SUDO rm -rf --one-file-system "$partial" "$partial.log"; fi
  if [ -n "$run" ] && $SUDO test -d "$run"; then
    # The namespace's mounts are gone with it; anything still mounted under the copy (only
    # possible if unshare was not used) is unmounted before anything is removed.
    local point
    for point in $($SUDO findmnt -rn -o TARGET | grep -F "$run/" | sort -r); do
      $SUDO umount -l "$point" || true
    done
    if [ "${LEAMOJI_DEBIAN13_KEEP:-}" = 1 ]; then
      log "kept $run"
    elif $SUDO findmnt -rn -o TARGET | grep -qF "$run/"; then
      echo "debian13-test.sh: $run still has mounts; not removed" >&2
    else
      $SUDO rm -rf --one-file-system "$run"
    fi
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# git on this machine may read github.com addresses from local copies (url.<dir>.insteadOf);
# the same rules go into the Debian 13 system, and each local folder is mounted there, read-only.
git_rules() {
  git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true
}

run_leg() {
  # One run at a time makes or copies the base (flock works on a descriptor opened to read).
  $SUDO mkdir -p "$cache"
  $SUDO touch "$cache/debian13.lock"
  exec 9<"$cache/debian13.lock"
  flock 9
  prepare_base
  [ "$mode" = prepare ] && return

  local started=$SECONDS
  run=$($SUDO mktemp -d "$cache/debian13-run.XXXXXX")
  log "copying the base system to $run"
  $SUDO cp -a "$base" "$run/root"
  flock -u 9
  local root="$run/root" uid gid user home
  uid=$(id -u)
  gid=$(id -g)
  if [ "$uid" -eq 0 ]; then
    user=root home=/root
  else
    # The same uid, with sudo: `make test` then installs its packages as it would for a user.
    user=builder home=/home/builder
    $SUDO chroot "$root" groupadd -g "$gid" builder 2>/dev/null || true
    $SUDO chroot "$root" useradd -m -u "$uid" -g "$gid" -s /bin/bash builder
    echo "builder ALL=(ALL) NOPASSWD: ALL" | $SUDO tee "$root/etc/sudoers.d/builder" >/dev/null
  fi

  # The work tree: what git tracks or would track, as it is now (uncommitted changes included).
  local work="$home/leamoji"
  $SUDO mkdir -p "$root$work"
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' path; do [ -e "$path" ] && printf '%s\0' "$path"; done |
    tar --null -T - -cf -) | $SUDO tar -xf - -C "$root$work"
  $SUDO chroot "$root" chown -R "$uid:$gid" "$home"

  # git's rules for github.com addresses, and the folders they name.
  local mounts="" gitconfig="[safe]"$'\n\t'"directory = *"$'\n' key value dir
  while read -r key value; do
    [ -n "$key" ] || continue
    dir=${key#url.}
    dir=${dir%.insteadof}
    gitconfig+=$(printf '[url "%s"]\n\tinsteadOf = %s' "$dir" "$value")$'\n'
    case "$dir" in /*) if [ -d "$dir" ]; then mounts="$mounts ${dir%/}"; fi ;; esac
  done <<<"$(git_rules)"
  printf '%s' "$gitconfig" | $SUDO tee "$root/etc/gitconfig" >/dev/null
  mounts=$(printf '%s\n' $mounts | sort -u | tr '\n' ' ')
  $SUDO cp /etc/resolv.conf "$root/etc/resolv.conf"
  $SUDO mkdir -p "$archives"

  local command input=/dev/null
  if [ "$mode" = shell ]; then
    command="cd $work && exec bash -i" input=/dev/stdin
  else
    command="cd $work && ${LEAMOJI_DEBIAN13_COMMAND:-make test}"
  fi
  log "$(cat "$root/etc/debian_version" 2>/dev/null | sed 's/^/Debian /'); running: $command (as $user)"
  local status=0
  $SUDO unshare --mount --pid --fork --propagation private env \
    root="$root" toolchain="$toolchain" archives="$archives" mounts="$mounts" \
    user="$user" home="$home" command="$command" ci="${CI:-true}" term="${TERM:-}" \
    bash -euo pipefail -c '
      unmount_all() { findmnt -rn -o TARGET | grep -F "$root/" | sort -r | xargs -r umount -l; }
      trap unmount_all EXIT
      mount -t proc proc "$root/proc"
      mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
      mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
      mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
      mkdir -p "$root$toolchain" "$root/var/cache/apt/archives"
      mount --bind "$toolchain" "$root$toolchain" && mount -o remount,bind,ro "$root$toolchain"
      mount --bind "$archives" "$root/var/cache/apt/archives"
      for dir in $mounts; do
        mkdir -p "$root$dir"
        mount --bind "$dir" "$root$dir" && mount -o remount,bind,ro "$root$dir"
      done
      path="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
      status=0
      chroot --userspec="$(chroot "$root" id -u "$user"):$(chroot "$root" id -g "$user")" \
        "$root" /usr/bin/env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="$path" \
        LANG=C.UTF-8 CI="$ci" ${term:+TERM="$term"} bash -c "$command" || status=$?
      exit "$status"' <"$input" || status=$?
  $SUDO test -f "$root$work/.build/test-output.txt" && {
    mkdir -p "$repo/.build-debian13"
    $SUDO cat "$root$work/.build/test-output.txt" >"$repo/.build-debian13/test-output.txt"
  }
  log "make test in Debian 13 finished with status $status after $((SECONDS - started)) s"
  [ "$status" -eq 0 ] || return "$status"
  if [ "$mode" = test ] && [ -z "${LEAMOJI_DEBIAN13_COMMAND:-}" ]; then compare_counts; fi
}

# A run's test count (swift-testing's "Test run with N tests in M suites") and the tests it
# skipped ("➜ Test "name" skipped: "reason""), one a line.
summary() {
  grep -aoE 'Test run with [0-9]+ tests? in [0-9]+ suites?' "$1" | tail -1
  grep -aE '^[^ ]+ Test .* skipped(: |\.$)' "$1" | sed -E 's/^[^ ]+ //' | sort
}

compare_counts() {
  local mine="$repo/.build-debian13/test-output.txt" host="$repo/.build/test-output.txt"
  log "Debian 13: $(summary "$mine" | head -1), $(($(summary "$mine" | wc -l) - 1)) skipped"
  [ -f "$host" ] || return 0
  log "this host: $(summary "$host" | head -1), $(($(summary "$host" | wc -l) - 1)) skipped"
  if ! diff <(summary "$host") <(summary "$mine") >&2; then
    echo "debian13-test.sh: Debian 13 ran or skipped other tests than this host's make test" \
      "(< this host, > Debian 13)" >&2
    return 1
  fi
}

run_leg
