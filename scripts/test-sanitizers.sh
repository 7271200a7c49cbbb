#!/usr/bin/env bash
# Builds the project with AddressSanitizer, UBSan and the libFuzzer targets
# (clang-22) in its own build directory, then runs the lit suite there, with
# any sanitizer report an error. Ends with "N passed, N failed".
# By default a sampled run, as CI runs it (every run is 3-5x slower under the
# sanitizers): every test of the dialect, the passes, the tools, the
# importer's errors and the fuzzers, one case in 8 of ONNX's backend tests,
# the x86 levels and the random-graph campaign, and the longest end-to-end
# tests left to the default build (test/lit.cfg.py). --full runs everything.
# Usage: scripts/test-sanitizers.sh [--full] [build-dir]
#        (default: build-sanitizers)
set -uo pipefail
cd "$(dirname "$0")/.."
LIT_PARAMS=()
if [ "${1:-}" = --full ]; then
  LIT_PARAMS=(--param sample=1)
  shift
fi
BUILD_DIR=${1:-build-sanitizers}
CLANG_DIR=/usr/lib/llvm-22/bin

# The packages are those of scripts/setup.sh (clang-22 and its runtimes
# included); it installs what is missing and builds the default variant.
if [ ! -x "$CLANG_DIR/clang++" ]; then
  scripts/setup.sh build || { echo "0 passed, 1 failed"; exit 1; }
fi

start=$(date +%s)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== Configuring $BUILD_DIR (address;undefined, fuzzers)"
  cmake -G Ninja -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CLANG_DIR/clang" \
    -DCMAKE_CXX_COMPILER="$CLANG_DIR/clang++" \
    -DGRAPH_ENABLE_SANITIZERS="address;undefined" \
    -DGRAPH_ENABLE_FUZZERS=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DMLIR_LINK_MLIR_DYLIB=ON \
    -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null ||
    { echo "0 passed, 1 failed"; exit 1; }
fi
echo "== Building $BUILD_DIR"
ninja -C "$BUILD_DIR" || { echo "0 passed, 1 failed"; exit 1; }
built=$(date +%s)

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "${LIT_PARAMS[@]}" "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
done_at=$(date +%s)
echo "== Sanitizer variant: build $((built - start)) s, tests $((done_at - built)) s"

count() {
  grep -E "^\s*$1\s*:" "$log" | head -1 | sed -E 's/[^:]*:\s*([0-9]+).*/\1/'
}
passed=$(count Passed); passed=${passed:-0}
failed=0
for kind in Failed Unresolved "Unexpectedly Passed" "Timed Out"; do
  n=$(count "$kind"); failed=$((failed + ${n:-0}))
done
rm -f "$log"
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "$passed passed, $failed failed"
exit "$status"
