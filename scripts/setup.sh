#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), configures and builds.
# Usage: scripts/setup.sh [build-dir]        (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}

# ccache: a rebuild of the same sources (a fresh clone in CI) reuses objects.
# lld-22: graph-compile and the compile cache link shared libraries with it.
# libomp-22-dev: the OpenMP runtime that parallel kernels call.
# pybind11-dev, python3-dev: the Python package (python/); python3-pytest its
# tests; python3-torchvision the example in examples/python/.
# libgtest-dev: the unit tests (unittests/, GoogleTest).
PACKAGES=(cmake ninja-build ccache g++ lld lld-22 python3 python3-numpy python3-onnx libonnx-dev libprotobuf-dev
          libomp-22-dev libonnx-testdata python3-torch
          llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
          graphviz fonts-dejavu-core chromium
          clang-22 libclang-rt-22-dev
          pybind11-dev python3-dev python3-pytest python3-torchvision
          libgtest-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== Configuring $BUILD_DIR"
  cmake -G Ninja -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DMLIR_LINK_MLIR_DYLIB=ON \
    -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
fi

echo "== Building $BUILD_DIR"
ninja -C "$BUILD_DIR"
