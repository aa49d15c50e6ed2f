#!/usr/bin/env bash
# Prints leamoji's man page (roff, section 1) generated from the commands' own --help text, so
# the page says exactly what `leamoji help COMMAND` says: the top-level help, then one section
# per command and subcommand, then the model search order, the files and the exit statuses.
# Usage: make-manual.sh path/to/leamoji >leamoji.1
set -euo pipefail
bin=${1:?usage: make-manual.sh path/to/leamoji}
export COLUMNS=80

# Help text as roff: no-fill, backslashes doubled, lines that start with . or ' protected.
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
# The names in the SUBCOMMANDS section of a help text (the first word of each entry line).
subcommands() {
  awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^[^ ]/ { on = 0 } on && /^  [a-z]/ { print $1 }'
}
section() { # title, help text
  printf '.SS "%s"\n.nf\n' "$1"
  printf '%s\n' "$2" | roff
  printf '.fi\n'
}

version=$("$bin" --version | head -1)
top=$("$bin" --help)
abstract=$(printf '%s\n' "$top" |
  awk '/^OVERVIEW: / { on = 1; sub(/^OVERVIEW: /, "") } on && /^$/ { exit } on { printf "%s%s", sep, $0; sep = " " }')
cat <<ROFF
.TH LEAMOJI 1 "" "leamoji $version" "User Commands"
.SH NAME
leamoji \\- $(printf '%s' "$abstract" | roff)
.SH SYNOPSIS
.B leamoji
.I command
.RI [ options ]
.SH DESCRIPTION
.nf
$(printf '%s\n' "$top" | roff)
.fi
.SH COMMANDS
ROFF
for command in $(printf '%s\n' "$top" | subcommands); do
  [ "$command" = help ] && continue
  text=$("$bin" help "$command")
  section "leamoji $command" "$text"
  for sub in $(printf '%s\n' "$text" | subcommands); do
    [ "$sub" = help ] && continue
    section "leamoji $command $sub" "$("$bin" help "$command" "$sub")"
  done
done
cat <<'ROFF'
.SH ENVIRONMENT
.TP
.B LEAMOJI_MODEL
The model file used when no --model is given.
.SH FILES
.TP
.I PREFIX/share/leamoji/leamoji.safetensors
The default model, found as ../share/leamoji/leamoji.safetensors from the folder of the
leamoji binary (after $LEAMOJI_MODEL; then Models/leamoji.safetensors in the binary's folder
or one above it, then ./Models/leamoji.safetensors).
.TP
.I MovieData.json
The timeline file analyze writes and timeline, play, list, export and merge read.
.SH EXIT STATUS
0 success; 1 unexpected failure; 64 bad usage; 65 an input file is not usable; 66 an input
file does not exist or cannot be read; 73 an output file could not be written; 128+N ended by
signal N.
ROFF
