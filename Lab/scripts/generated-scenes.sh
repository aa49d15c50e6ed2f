# Sourced by Lab/scripts/train-real-head.sh and Lab/scripts/train-default-model.sh: what both check
# before training, and the generated scenes both mix with the real frames, made the same way
# (224 px; varied scenes from SEED, classic ones, the sample videos' look, from SEED + 1).

# require_training_inputs NAME BIN: the leamoji-lab binary and the real frames (make real-frames),
# and REAL_TRAIN set to their folder as an absolute path: $REAL_TRAIN when given (another folder
# of Happy/, Neutral/ and Scary/ pictures, e.g. the real frames plus a trial's extra pictures),
# else .build/real-frames/train.
require_training_inputs() {
  [ -x "$2" ] || { echo "$1: no leamoji-lab binary at $2 (make lab)" >&2; exit 1; }
  REAL_TRAIN=${REAL_TRAIN:-.build/real-frames/train}
  [ -d "$REAL_TRAIN" ] || { echo "$1: no real frames in $REAL_TRAIN: run make real-frames" >&2; exit 1; }
  REAL_TRAIN=$(cd "$REAL_TRAIN" && pwd)
}

# generated_scenes BIN DIR SEED VARIED CLASSIC: VARIED varied and CLASSIC classic scenes per mood
# in DIR/varied and DIR/classic ("Training Data/<Mood>/*.png"); 0 makes none of that kind.
generated_scenes() {
  local bin=$1 dir=$2 seed=$3 varied=$4 classic=$5
  if [ "$varied" -gt 0 ]; then
    "$bin" scenes dataset --set varied --out "$dir/varied" --train-per-class "$varied" \
      --test-per-class 1 --size 224 --seed "$seed" >/dev/null
  fi
  if [ "$classic" -gt 0 ]; then
    "$bin" scenes dataset --set classic --out "$dir/classic" --train-per-class "$classic" \
      --test-per-class 1 --size 224 --seed "$((seed + 1))" >/dev/null
  fi
}
