#!/usr/bin/env bash
# Installs a tensorx build into a scratch prefix, then configures, builds and runs the outside
# project in this folder against that prefix only (no source tree, no package registry): with
# CMake (CMakeLists.txt, find_package), then with make and pkg-config (Makefile, tensorx.pc).
#   test/install/run.sh BUILD_DIR [extra cmake arguments for the outside project]
set -euo pipefail
build=$(cd "${1:?usage: test/install/run.sh BUILD_DIR [cmake arguments]}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build" --prefix "$scratch/prefix"

# The installed package says whether tensorx was built with CUDA (normalised to ON or OFF).
config=$(find "$scratch/prefix" -name tensorxConfig.cmake)
with_cuda=$(sed -n 's/^set(TENSORX_WITH_CUDA \(ON\|OFF\))$/\1/p' "$config")

# Build with the compilers tensorx was built with, so that both sides share one C++ ABI.
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
compilers=(-DCMAKE_CXX_COMPILER="$(cached CMAKE_CXX_COMPILER)")
make_compilers=(CXX="$(cached CMAKE_CXX_COMPILER)")
if [ "$with_cuda" = ON ]; then
  compilers+=(-DCMAKE_CUDA_COMPILER="$(cached CMAKE_CUDA_COMPILER)")
  make_compilers+=(NVCC="$(cached CMAKE_CUDA_COMPILER)")
fi

cmake -S "$here" -B "$scratch/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  "${compilers[@]}" "${@:2}"

# The same programs from the Makefile, with the flags of the installed tensorx.pc alone. The two
# builds run side by side (each is one long compile, main.cpp, and a short one); each one's output
# is printed whole once both are done.
pc_dir=$(dirname "$(find "$scratch/prefix" -name tensorx.pc)")
mkdir "$scratch/make"
cmake --build "$scratch/build" -j"$(nproc)" > "$scratch/cmake-build.log" 2>&1 &
cmake_build=$!
make_status=0
PKG_CONFIG_PATH="$pc_dir" make -f "$here/Makefile" BUILD="$scratch/make" "${make_compilers[@]}" \
  -j"$(nproc)" > "$scratch/make-build.log" 2>&1 || make_status=$?
cmake_status=0
wait "$cmake_build" || cmake_status=$?
cat "$scratch/cmake-build.log" "$scratch/make-build.log"
if [ "$cmake_status" -ne 0 ] || [ "$make_status" -ne 0 ]; then
  echo "the CMake consumer's build exited $cmake_status, the Makefile consumer's $make_status" >&2
  exit 1
fi

echo "== CMake consumer (find_package)"
"$scratch/build/install_test"
if [ "$with_cuda" = ON ]; then
  "$scratch/build/install_test_cuda"
fi

echo "== Makefile consumer (pkg-config)"
"$scratch/make/install_test"
if [ "$with_cuda" = ON ]; then
  "$scratch/make/install_test_cuda"
fi
