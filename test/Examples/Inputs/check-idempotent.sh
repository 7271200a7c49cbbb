#!/usr/bin/env bash
# Usage: check-idempotent.sh GRAPH_OPT OUT_DIR FILE...
# For each pass, `--p` and `--p --p` must print the same IR.
set -eu
opt=$1 out=$2
shift 2
mkdir -p "$out"
for file in "$@"; do
  name=$(basename "$file" .mlir)
  for pass in graph-fold-constants graph-convert-layout graph-fuse \
              graph-eliminate-dead-code \
              graph-optimize "graph-optimize=opt-level=2"; do
    tag=${pass//[=]/-}
    "$opt" "--$pass" "$file" -o "$out/$name.$tag.once"
    "$opt" "--$pass" "--$pass" "$file" -o "$out/$name.$tag.twice"
    diff -u "$out/$name.$tag.once" "$out/$name.$tag.twice"
    echo "idempotent: $name $pass"
  done
done
