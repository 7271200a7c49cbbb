#!/usr/bin/env bash
# The main job: set up and build, then
#  1. optimize the seed's demo graph with graph-optimize, printing the graph
#     before and after each pass, and the report; then write the same steps
#     as one page, build/examples/seed-steps.html (graph-viz);
#  2. compile and run a conv -> batch_norm -> relu block (64 channels, 56x56,
#     constant weights) at -O0 and -O3 with graph-run --compare: Speedup,
#     MemSave, compile time and the break-even number of runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build

echo
echo "== 1. graph-opt --graph-optimize examples/seed.mlir (the IR before and after each pass)"
build/bin/graph-opt examples/seed.mlir \
  --mlir-print-ir-before=graph-fold-constants \
  --mlir-print-ir-after=graph-fold-constants,graph-convert-layout,graph-fuse,graph-eliminate-dead-code \
  --pass-pipeline='builtin.module(graph-optimize,graph-report)' \
  -o /dev/null 2>&1

echo
echo "== 1b. graph-viz examples/seed.mlir: the same steps as a page to step through"
mkdir -p build/examples
build/bin/graph-viz examples/seed.mlir -o build/examples/seed-steps.html
echo "Open $(pwd)/build/examples/seed-steps.html in a browser: one self-contained file"
echo "(previous/next or the arrow keys step through fold -> fuse -> DCE)."

echo
echo "== 2. graph-run --compare: conv -> batch_norm -> relu, 1x64x56x56, 64 -> 64 channels"
/usr/bin/python3 examples/gen_examples.py --channels 64 --size 56 --out build/examples
build/bin/graph-run build/examples/conv_bn_relu.mlir --compare -O3 --bench 20 --seed 0
