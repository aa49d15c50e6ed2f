# leamoji — the two set-up commands of the README are `make demo` and `make test`.
# Both install the Debian packages they need (with sudo when not root) and then build.

SWIFT ?= swift
# The FFmpeg development libraries leamoji links against.
BUILD_PACKAGES := libavformat-dev libavcodec-dev libswscale-dev libavutil-dev pkg-config
# What the test suite uses on top: the ffmpeg/ffprobe CLIs make and check fixture videos;
# tmux drives the player in a real terminal.
TEST_PACKAGES := ffmpeg tmux
DEMO_VIDEO := SampleVideos/meadow-storm.mp4
DEMO_OUT := out/MovieData.json

SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: all build release deps test-deps demo test model bench-cnn clean

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

# Builds leamoji and analyses a bundled sample video with the shipped model.
demo: release
	@mkdir -p $(dir $(DEMO_OUT))
	$$($(SWIFT) build -c release --show-bin-path)/leamoji analyze $(DEMO_VIDEO) --output $(DEMO_OUT) --vtt
	$$($(SWIFT) build -c release --show-bin-path)/leamoji timeline $(DEMO_VIDEO) --data $(DEMO_OUT)

# Runs the whole test suite.
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Regenerates the training data, the default model and the sample videos (a few minutes).
model: release test-deps
	scripts/regenerate-assets.sh all

# Prints the network's speed: inference at batch 1 and 32, training, convolution GFLOP/s.
bench-cnn: deps
	$(SWIFT) build -c release --product leamoji-bench
	$$($(SWIFT) build -c release --show-bin-path)/leamoji-bench cnn

clean:
	rm -rf .build out
