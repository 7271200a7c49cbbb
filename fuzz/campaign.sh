#!/usr/bin/env bash
# A long libFuzzer campaign on one target, with a corpus kept between runs.
# Usage: fuzz/campaign.sh TARGET [SECONDS] [JOBS] [BUILD_DIR]
#   TARGET    mlir, onnx or npy (graph-fuzz-TARGET)
#   SECONDS   how long (default 3600); JOBS parallel fuzzing processes
#             (default 1); BUILD_DIR the sanitizer build (build-sanitizers)
# The corpus grows in BUILD_DIR/fuzz-corpus/TARGET; crashes, leaks and
# timeouts are saved in BUILD_DIR/fuzz-artifacts/TARGET/ and listed at the
# end. Prints libFuzzer's final statistics (executions, coverage).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${1:?usage: fuzz/campaign.sh mlir|onnx|npy [SECONDS] [JOBS] [BUILD_DIR]}
SECONDS_TOTAL=${2:-3600}
JOBS=${3:-1}
BUILD_DIR=${4:-build-sanitizers}
FUZZER="$BUILD_DIR/bin/graph-fuzz-$TARGET"
[ -x "$FUZZER" ] || { echo "no $FUZZER: run scripts/test-sanitizers.sh first"; exit 1; }

CORPUS="$BUILD_DIR/fuzz-corpus/$TARGET"
ARTIFACTS="$BUILD_DIR/fuzz-artifacts/$TARGET"
SEEDS="$BUILD_DIR/fuzz-seeds"
mkdir -p "$CORPUS" "$ARTIFACTS"
[ -d "$SEEDS/$TARGET" ] || /usr/bin/python3 fuzz/make_corpus.py "$SEEDS" --only "$TARGET"

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
args=(-max_total_time="$SECONDS_TOTAL" -timeout=30 -rss_limit_mb=4096
      -print_final_stats=1 -artifact_prefix="$ARTIFACTS/")
if [ "$JOBS" -gt 1 ]; then
  args+=(-jobs="$JOBS" -workers="$JOBS")
fi
status=0
"$FUZZER" "${args[@]}" "$CORPUS" "$SEEDS/$TARGET" || status=$?
echo "== artifacts in $ARTIFACTS:"
ls "$ARTIFACTS"
exit "$status"
