#!/usr/bin/env bash
# Side-by-side benchmark: builds and runs the same workloads in brasa, libtorch (C++) and PyTorch
# (Python), at 1 and 2 threads, and prints one table with the brasa/libtorch and brasa/PyTorch ratios.
#
# Usage: scripts/bench.sh
# Environment: THREADS (default 1,2), JOBS (build parallelism, default 2), BUILD_DIR (default
# build-bench),
# REPORT (markdown output, default $BUILD_DIR/bench-report.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
threads="${THREADS:-1,2}"
jobs="${JOBS:-2}"
build="${BUILD_DIR:-build-bench}"
report="${REPORT:-$build/bench-report.md}"
python=/usr/bin/python3

missing=()
for pkg in libtorch-dev python3-torch libopenblas0-pthread; do  # OpenBLAS: the anchor at its best
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "== installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get install -y "${missing[@]}"
fi

echo "== building brasa_bench (Release) in $build"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
[[ -f "$build/CMakeCache.txt" ]] && generator=()
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DBRASA_BUILD_TESTS=OFF \
  -DBRASA_BUILD_EXAMPLES=OFF -DBRASA_WERROR=OFF >/dev/null
cmake --build "$build" --target brasa_bench -j "$jobs"

echo "== building libtorch_bench"
libtorch_bin="$build/bench/libtorch_bench"
mkdir -p "$build/bench"
if [[ ! -x "$libtorch_bin" || bench/libtorch_bench.cpp -nt "$libtorch_bin" ||
      bench/bench_common.h -nt "$libtorch_bin" ]]; then
  g++ -std=c++17 -O2 -DNDEBUG -I/usr/include/torch/csrc/api/include bench/libtorch_bench.cpp \
    -o "$libtorch_bin" -ltorch -ltorch_cpu -lc10
fi

results="$build/results"
mkdir -p "$results"
rm -f "$results"/*.json
echo "== running (threads $threads)"
"$build/bench/brasa_bench" --threads "$threads" --out "$results/brasa.json"
"$libtorch_bin" --threads "$threads" --out "$results/libtorch.json"
"$python" bench/torch_bench.py --threads "$threads" --out "$results/pytorch.json"

echo
"$python" bench/report.py --brasa "$results/brasa.json" --libtorch "$results/libtorch.json" \
  --pytorch "$results/pytorch.json" --md "$report"
echo
echo "report written to $report"
