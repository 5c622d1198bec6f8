#!/usr/bin/env bash
# Installs missing packages, configures with warnings as errors, builds and runs the whole test suite.
# Exits non-zero on any failure.
#   scripts/test.sh                       # release preset
#   scripts/test.sh --preset asan-ubsan   # the same suite under AddressSanitizer + UBSan (also: tsan, debug)
#   scripts/test.sh -- -R Compat          # extra arguments after -- go to ctest
# Environment: BRASA_JOBS (build jobs, default: cores), BRASA_TEST_TIMEOUT (whole ctest run, seconds).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

preset=release
ctest_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --preset) preset="$2"; shift 2 ;;
    --preset=*) preset="${1#*=}"; shift ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

source scripts/deps.sh
brasa_install_deps

# Formatting is part of the checks (STYLE.md: .clang-format, checked in CI), and so are the layers:
# no file includes a higher layer's header (docs/contributing.md).
scripts/format.sh --check
python3 scripts/check_layers.py

jobs="$(brasa_jobs)"
# The Python package (docs/python.md) is built and tested (ctest python_tests) in the release
# build: nanobind, its one build requirement outside Debian, comes from PyPI into a venv of the
# build tree that also sees the system's torch, numpy and pytest.
python_args=()
if [[ "$preset" == release ]]; then
  pyvenv=build/python-venv
  [[ -x $pyvenv/bin/python ]] || /usr/bin/python3 -m venv --system-site-packages "$pyvenv"
  "$pyvenv/bin/python" -c "import nanobind" 2>/dev/null || "$pyvenv/bin/pip" install --quiet "nanobind==3.1.0"
  python_args=(-DBRASA_PYTHON=ON "-DPython_EXECUTABLE=$PWD/$pyvenv/bin/python")
fi
cmake --preset "$preset" -DBRASA_WERROR=ON "${python_args[@]}"
cmake --build --preset "$preset" -j "$jobs"
timeout --kill-after=30 "${BRASA_TEST_TIMEOUT:-3600}" \
  ctest --preset "$preset" --output-on-failure -j "$jobs" "${ctest_args[@]}"

# Fuzz smoke run of the file parsers (about 20 s per target; needs the release library, so only then).
if [[ "$preset" == release ]]; then scripts/fuzz.sh --smoke; fi
