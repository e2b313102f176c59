#!/usr/bin/env bash
# `make gate-variation`: builds the measurement programs of `make verify` four more ways that
# change nothing in the algorithms -- GCC at -O1, -O2, -O3, Clang -O2, and -march=native with
# FMA contraction (GCC and Clang) -- runs each into build-var/<name>/data, and compares every
# gated figure with reports/data (the reference build: Clang, -O1, -ffp-contract=off, as CI and
# the baselines since the Makefile's two build trees; GCC -O1 before) through
# tools/gate_variation.py -> reports/data/gate_variation.json.
# About an hour on 2 cores; run it after `make verify`, and when the gate's RATIO_LIMIT or
# ERR_FLOOR_EPS is questioned. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
PROGRAMS="rbdlab_accuracy rbdlab_roundoff_study rbdlab_constraints_study rbdlab_frames_study rbdlab_integration_study"
[ -f reports/data/accuracy.json ] || { echo "gate-variation: run make verify first (reports/data is the reference)"; exit 2; }
args=() describe=()
build_and_run() {  # name compiler optimisation fp-contract extra-flags
  local name=$1 cxx=$2 opt=$3 contract=$4 extra=$5 dir=build-var/$1
  echo "gate-variation: $name ($cxx $opt -ffp-contract=$contract $extra)"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
        -DRBDLAB_CHECK_OPTIMIZATION="$opt" -DRBDLAB_QUICK_PROGRAM_OPTIMIZATION="$opt" -DRBDLAB_FP_CONTRACT="$contract" -DCMAKE_CXX_FLAGS="$extra" > /dev/null
  cmake --build "$dir" -j "$JOBS" --target $PROGRAMS
  rm -rf "$dir/data"
  mkdir -p "$dir/data"
  # A study that fails under these flags writes to data/failed/; that is a finding, not an error.
  for p in $PROGRAMS; do "$dir/verify/$p" "$dir/data" > "$dir/data/$p.log" 2>&1 || echo "  $p exited $? (see $dir/data/$p.log)"; done
  args+=("$name=$dir/data")
  describe+=(--describe "$name=$cxx $opt -ffp-contract=$contract $extra")
}
# CONFIGS picks some of the five (e.g. CONFIGS="gcc-O3-fma clang-O2"); the JSON names those run.
for c in ${CONFIGS:-gcc-O1 gcc-O2 gcc-O3 clang-O2 gcc-O3-fma clang-O3-fma}; do
  case $c in
    gcc-O1) build_and_run gcc-O1 g++ -O1 off "" ;;
    gcc-O2) build_and_run gcc-O2 g++ -O2 off "" ;;
    gcc-O3) build_and_run gcc-O3 g++ -O3 off "" ;;
    clang-O2) build_and_run clang-O2 clang++ -O2 off "" ;;
    gcc-O3-fma) build_and_run gcc-O3-fma g++ -O3 fast "-march=native" ;;
    clang-O3-fma) build_and_run clang-O3-fma clang++ -O3 fast "-march=native" ;;
    *) echo "gate-variation: unknown configuration $c"; exit 2 ;;
  esac
done
/usr/bin/python3 tools/gate_variation.py reports/data "${args[@]}" "${describe[@]}" \
  --describe "ref=clang++ -O1 -ffp-contract=off (make verify)"
