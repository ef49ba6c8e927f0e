# The two commands: `make run` and `make test`. Each installs what is missing first.
SWIFT ?= swift
OUT ?= out
SAMPLE ?= examples/the-open-window.txt
BIN = .build/release/storyvoice

.PHONY: run test setup build release bench clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --product storyvoice

# Narrate the bundled sample story to out/ with local engines.
run: release
	@mkdir -p $(OUT)
	$(BIN) narrate $(SAMPLE) -o $(OUT)/sample.m4b
	@echo "Your audiobook is at $(OUT)/sample.m4b (timing map and captions beside it)."

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: release
	bench/run

clean:
	rm -rf .build $(OUT)
