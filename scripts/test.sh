#!/usr/bin/env bash
# Sets up, builds and runs every test. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build || { echo "0 passed, 1 failed"; exit 1; }

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

count() { # lit prints e.g. "  Passed: 12 (100.00%)" or "  Passed  : 12"
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
