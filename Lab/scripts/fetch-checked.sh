# Sourced by the scripts that download pinned archives (check-real-footage.sh, fetch-photos.sh).
#
# fetch_checked FOLDER ENTRY...: each ENTRY is "file|sha256|url". A file already in FOLDER with
# the right checksum is kept; otherwise it is downloaded to FOLDER/file.part, checked, and only
# then renamed into place, so an interrupted or tampered download never counts as cached.
fetch_checked() {
  local folder=$1 entry file sum url path
  shift
  command -v curl >/dev/null || { echo "curl is needed: apt-get install curl" >&2; return 1; }
  mkdir -p "$folder"
  for entry in "$@"; do
    IFS='|' read -r file sum url <<<"$entry"
    path="$folder/$file"
    if [ ! -f "$path" ] || ! echo "$sum  $path" | sha256sum -c --quiet - 2>/dev/null; then
      echo "fetching $file" >&2
      curl -fsSL -o "$path.part" "$url"
      echo "$sum  $path.part" | sha256sum -c --quiet - || { echo "$file: checksum mismatch" >&2; return 1; }
      mv "$path.part" "$path"
    fi
  done
}
