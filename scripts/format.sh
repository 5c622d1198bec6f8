#!/usr/bin/env bash
# Formats C++ files with .clang-format; `--check` only reports files that differ (exit 1 if any).
#   scripts/format.sh [--check] [FILE...]      # default: every tracked .h/.cpp file
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
check=0
[[ "${1:-}" == "--check" ]] && { check=1; shift; }
if [[ $# -gt 0 ]]; then files=("$@"); else mapfile -t files < <(git ls-files '*.h' '*.cpp'); fi
[[ ${#files[@]} -eq 0 ]] && exit 0
if [[ $check -eq 1 ]]; then
  clang-format --dry-run --Werror "${files[@]}"
else
  clang-format -i "${files[@]}"
fi
