#!/usr/bin/env bash
# The main job: set up, build, then optimize the seed's demo graph with
# graph-optimize, printing the graph after each pass and the report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
echo
echo "== graph-opt --graph-optimize examples/seed.mlir (IR after each pass)"
build/bin/graph-opt examples/seed.mlir \
  --mlir-print-ir-before=graph-fold-constants \
  --mlir-print-ir-after=graph-fold-constants,graph-fuse,graph-eliminate-dead-code \
  --pass-pipeline='builtin.module(graph-optimize,graph-report)' \
  -o /dev/null 2>&1
