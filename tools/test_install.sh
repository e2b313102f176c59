#!/bin/sh
# Issue 18's install test: `cmake --install` rbdlab into a temporary prefix, then configure, build and
# run examples/consumer (a separate project doing only find_package(rbdlab) and
# #include <rbdlab/rbdlab.hpp>) against that prefix, on the shared robots ur5, panda and iiwa14.
# Also checks that nothing installed, and no compile command of the consumer, names the source tree,
# and that the package refuses a version it is not compatible with and an unknown component.
#
#   tools/test_install.sh            (from anywhere; needs what `make deps` installs)
#
# Environment: RBDLAB_SHARED_DIR (default: ../shared beside the clone), CONSUMER_BUILD_TYPE (Release),
# KEEP=1 keeps the temporary folder. Exit status 0 when everything passed.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
shared=${RBDLAB_SHARED_DIR:-$src/../shared}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rbdlab-install.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "test_install: keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
# ccache, with the temporary folder as its base directory, so that a rerun hits the cache although
# the folder's name changes.
launcher=""
if command -v ccache > /dev/null 2>&1; then
  launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  export CCACHE_BASEDIR="$tmp" CCACHE_NOHASHDIR=1
fi
step() { printf 'test_install: %s\n' "$*"; }

# 1. Install. The package is header-only: configuring is enough, nothing is built.
step "configure rbdlab ($src) and install into $tmp/prefix"
cmake -S "$src" -B "$tmp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; exit 1; }
cmake --install "$tmp/build" --prefix "$tmp/prefix" > "$tmp/install.log"
test -f "$tmp/prefix/include/rbdlab/rbdlab/rbdlab.hpp"
test -f "$tmp/prefix/share/cmake/rbdlab/rbdlabConfigVersion.cmake"
if grep -rlF "$src" "$tmp/prefix"; then
  echo "test_install: the installed files above name the source tree $src" >&2; exit 1
fi

# 2. The consumer, against the installed tree only.
step "configure and build examples/consumer against the prefix"
cmake -S "$src/examples/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE="${CONSUMER_BUILD_TYPE:-Release}" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $launcher > "$tmp/consumer.log" 2>&1 ||
  { cat "$tmp/consumer.log"; exit 1; }
if grep '"command"' "$tmp/consumer/compile_commands.json" | sed "s|$src/examples/consumer/main.cpp||g" | grep -qF "$src"; then
  echo "test_install: the consumer's compile command names the source tree:" >&2
  cat "$tmp/consumer/compile_commands.json" >&2; exit 1
fi
cmake --build "$tmp/consumer" -j 2

step "run it on ur5, panda, iiwa14"
set --
for r in ur5 panda iiwa14; do set -- "$@" "$shared/cases/urdf/dynamics_only/$r.urdf"; done
"$tmp/consumer/rbdlab_consumer" "$@"

# 3. The package's refusals: an incompatible version, an unknown component.
step "refusals: find_package(rbdlab 1.0), find_package(rbdlab COMPONENTS nosuch)"
for req in "1.0" "0.1 COMPONENTS nosuch"; do
  mkdir -p "$tmp/refuse"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(refuse NONE)\nfind_package(rbdlab %s QUIET)\nif(rbdlab_FOUND)\n  message(FATAL_ERROR "accepted")\nendif()\n' \
    "$req" > "$tmp/refuse/CMakeLists.txt"
  cmake -S "$tmp/refuse" -B "$tmp/refuse/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/refuse.log" 2>&1 ||
    { cat "$tmp/refuse.log"; echo "test_install: find_package(rbdlab $req) was accepted" >&2; exit 1; }
  rm -rf "$tmp/refuse"
done
step "passed"
