# The two commands: `make run` and `make test`. Each installs what is missing first.
SWIFT ?= swift
OUT ?= out
SAMPLE ?= examples/the-open-window.txt
BIN = .build/release/storyvoice

PORT ?= 8080

.PHONY: run sample test setup build release bench browser-test api-test clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --product storyvoice

# Serve the web app on http://localhost:$(PORT); every new account finds the sample story
# in its library, analysed and ready to play.
run: release
	$(BIN) serve --port $(PORT) --welcome-story $(SAMPLE)

# Narrate the bundled sample story to out/ with local engines, without the server.
sample: release
	@mkdir -p $(OUT)
	$(BIN) narrate $(SAMPLE) -o $(OUT)/sample.m4b
	@echo "Your audiobook is at $(OUT)/sample.m4b (timing map and captions beside it)."

# A throwaway PostgreSQL (scripts/postgres-test) runs for the database tests' PostgreSQL
# variants, and SeaweedFS (scripts/s3-test) for the S3 tests, each stopped afterwards, whether
# the tests pass, fail or are interrupted.
# The browser test (real headless Chromium against a real server) and the API fuzz test
# (schemathesis over Public/openapi.yaml against a real server, fixed seed, bounded in time)
# run first, so that the closing lines of the output are swift test's summary.
# scripts/swift-test stops a run that stalls and names the tests that never finished.
# scripts/check-imports first: each target declares exactly the modules it imports; and
# scripts/check-sources: no UUID(), Process() or Pipe(), which fail when descriptors run out.
test: setup
	SWIFT=$(SWIFT) scripts/check-imports
	scripts/check-sources
	$(SWIFT) build --build-tests
	scripts/browser-test
	scripts/api-test
	@trap 'scripts/postgres-test stop >/dev/null; scripts/s3-test stop >/dev/null' EXIT; trap 'exit 130' INT TERM; \
	url=$$(scripts/postgres-test start) || { echo "PostgreSQL could not be started: its test variants will be skipped." >&2; url=; }; \
	s3=$$(scripts/s3-test start) || { echo "SeaweedFS could not be started: the S3 tests will be skipped." >&2; s3=; }; \
	STORYVOICE_TEST_POSTGRES_URL="$$url" STORYVOICE_TEST_S3_URL="$$s3" SWIFT=$(SWIFT) scripts/swift-test

browser-test: setup
	scripts/browser-test

api-test: setup
	$(SWIFT) build --product storyvoice
	scripts/api-test

bench: release
	bench/run

clean:
	rm -rf .build $(OUT)
