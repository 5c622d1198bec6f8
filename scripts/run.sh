#!/usr/bin/env bash
# The main job: installs missing packages (Fashion-MNIST from Debian's dataset-fashion-mnist
# included), builds the release preset and trains the CNN of examples/fashion_mnist on it (a few
# minutes on 2 cores), printing test accuracy per epoch and saving a checkpoint. Extra arguments go
# to the trainer (e.g. --model mlp --epochs 3; --help lists them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/deps.sh
brasa_install_deps

cmake --preset release
cmake --build --preset release -j "$(brasa_jobs)"
exec build/release/examples/fashion_mnist "$@"
