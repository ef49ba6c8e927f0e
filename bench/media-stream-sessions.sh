#!/usr/bin/env bash
# Concurrent media-stream sessions through the bridge against the loopback Realtime server:
# per-20 ms-frame latency percentiles for N calls at once, beside one call measured in the same
# run. Build first (swift build --build-tests, or -c release --build-tests).
#
#   bench/media-stream-sessions.sh [SESSIONS (default 1,25,50,100)] [SECONDS per run (default 10)]
set -euo pipefail
cd "$(dirname "$0")/.."
export STORYVOICE_BENCH_MEDIA_STREAMS=1
export STORYVOICE_BENCH_SESSIONS=${1:-1,25,50,100}
export STORYVOICE_BENCH_SECONDS=${2:-10}
swift test --skip-build ${SWIFT_TEST_FLAGS:-} --filter MediaStreamSessionsBench 2>&1 | grep -E "media-stream bench|passed|failed|error"
