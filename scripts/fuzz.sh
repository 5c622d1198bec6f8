#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of fuzz/ (clang, ASan + UBSan) against the release libbrasa.so.
#   scripts/fuzz.sh                      # every target, 60 seconds each
#   scripts/fuzz.sh --time 600 idx       # one target (fuzz/fuzz_idx.cpp), 10 minutes
#   scripts/fuzz.sh --smoke              # CI: 20 s per target + replay of tests/serialize/malformed/**
# Prints per target the executions and the findings (build/fuzz/findings/<name>/crash-*, ...); exits
# non-zero on any finding. Environment: BRASA_BUILD_DIR (a build whose src/libbrasa.so to link,
# default build/release, built with the release preset when missing), BRASA_JOBS (build jobs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

seconds=60
smoke=0
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --time=*) seconds="${1#*=}"; shift ;;
    --smoke) smoke=1; seconds=20; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    *) targets+=("${1#fuzz_}"); shift ;;
  esac
done

# clang and its fuzzer/sanitizer runtimes (libclang_rt.fuzzer-x86_64.a is in libclang-rt-14-dev).
source scripts/deps.sh
BRASA_PACKAGES=(clang libclang-rt-14-dev zlib1g-dev)
brasa_install_deps
jobs="$(brasa_jobs)"

lib_build="${BRASA_BUILD_DIR:-build/release}"
if [[ -z "${BRASA_BUILD_DIR:-}" ]]; then
  [[ -f build/release/build.ninja ]] || cmake --preset release
  cmake --build --preset release --target brasa -j "$jobs"
fi
lib="$root/$lib_build/src/libbrasa.so"
[[ "$lib_build" = /* ]] && lib="$lib_build/src/libbrasa.so"
[[ -f "$lib" ]] || { echo "fuzz.sh: no $lib (build the library first)" >&2; exit 1; }

out="$root/build/fuzz"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S fuzz -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DBRASA_LIB="$lib" "${launcher[@]}" \
  >/dev/null
cmake --build "$out" -j "$jobs"

if [[ ${#targets[@]} -eq 0 ]]; then
  for src in fuzz/fuzz_*.cpp; do
    name="$(basename "$src" .cpp)"
    targets+=("${name#fuzz_}")
  done
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Each target fuzzes in a process of its own, up to $jobs at once (the smoke run's wall time is then
# the total divided by the cores); the results are read afterwards, target by target.
fuzz_one() {
  local name="$1" exe="$out/fuzz_$1" corpus="$out/corpus/$1" findings="$out/findings/$1" rc=0
  "$exe" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$out/fuzz_$name.log" 2>&1 || rc=$?
  echo "$rc" >"$out/fuzz_$name.rc"
}

failed=0
report=()
declare -A before
running=()
for name in "${targets[@]}"; do
  [[ -x "$out/fuzz_$name" ]] || continue
  mkdir -p "$out/corpus/$name" "$out/findings/$name"
  if [[ -d "fuzz/corpus/$name" ]]; then
    cp -rn "fuzz/corpus/$name/." "$out/corpus/$name/"
  else
    echo "fuzz.sh: no seeds in fuzz/corpus/$name; starting from an empty corpus" >&2
  fi
  before[$name]=$(find "$out/findings/$name" -type f | wc -l)
  echo "== fuzz_$name: ${seconds}s"
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
  fuzz_one "$name" &
done
wait

for name in "${targets[@]}"; do
  exe="$out/fuzz_$name"
  if [[ ! -x "$exe" ]]; then
    echo "fuzz.sh: no target fuzz_$name (fuzz/fuzz_$name.cpp)" >&2
    failed=1
    continue
  fi
  findings="$out/findings/$name"
  log="$out/fuzz_$name.log"
  rc=$(cat "$out/fuzz_$name.rc")
  runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
  [[ -n "$runs" ]] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  new=$(($(find "$findings" -type f | wc -l) - before[$name]))
  line="fuzz_$name: ${runs:-?} executions, $new findings"
  if [[ $rc -ne 0 || $new -gt 0 ]]; then
    failed=1
    line+=" (exit $rc; log $log)"
    tail -n 40 "$log" >&2
  fi
  report+=("$line")

  # The committed malformed files of the matching format must be rejected without a crash.
  if [[ $smoke -eq 1 ]]; then
    for dir in tests/serialize/malformed/*/; do
      [[ -d "$dir" ]] || continue
      format="$(basename "$dir")"
      case "$format" in torch|torch_save|pickle) format=pt ;; esac
      [[ "$format" == "$name" ]] || continue
      count=$(find "$dir" -type f | wc -l)
      rc=0
      find "$dir" -type f -print0 | xargs -0 -r "$exe" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -artifact_prefix="$findings/" >"$out/replay_$name.log" 2>&1 || rc=$?
      line="fuzz_$name: replayed $count files of $dir"
      if [[ $rc -ne 0 ]]; then
        failed=1
        line+=" FAILED (log $out/replay_$name.log)"
        tail -n 40 "$out/replay_$name.log" >&2
      fi
      report+=("$line")
    done
  fi
done

echo "== fuzz summary"
printf '%s\n' "${report[@]}"
exit $failed
