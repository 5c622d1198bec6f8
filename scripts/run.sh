#!/usr/bin/env bash
# The main job: installs missing packages, builds the release preset and runs the demo
# (examples/demo: create, compute on and print tensors). Extra arguments go to the demo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/deps.sh
brasa_install_deps

cmake --preset release
cmake --build --preset release -j "$(brasa_jobs)"
exec build/release/examples/demo "$@"
