#!/usr/bin/env bash
# Installs the Debian 12 packages brasa needs that are missing (sourced by run.sh and test.sh, or run
# directly). Checks each with dpkg first; runs `apt-get update` once, and only when something is missing.
set -euo pipefail

BRASA_PACKAGES=(
  build-essential cmake ninja-build ccache          # toolchain
  clang-format                                      # formatting check in scripts/test.sh
  libgtest-dev                                      # tests
  libcli11-dev                                      # command lines of the examples and brasarun
  libsleef-dev libdnnl-dev                          # vector math, oneDNN
  liblapack3                                        # decompositions, loaded at first use (Note [LAPACK])
  libfftw3-dev                                      # FFTs (torch::fft)
  zlib1g-dev                                        # gzip-compressed datasets (MNIST)
  python3-torch python3-numpy libtorch-dev          # PyTorch as the test oracle; libtorch to compare
  python3-jsonschema                                # the profiler test validates its Chrome trace
  python3-venv                                      # PyPI readers in the build tree (tensorboard)
  python3-dev python3-pytest pybind11-dev           # the Python package, its tests, binding bench
  dataset-fashion-mnist                             # the main job's data (also its interop test)
  fortunes fortunes-min                             # char_gpt's text (/usr/share/games/fortunes)
  libgloo-dev libopenmpi-dev openmpi-bin            # collectives (Gloo over TCP, MPI)
)

brasa_install_deps() {
  local missing=() pkg
  for pkg in "${BRASA_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  echo "brasa: installing missing packages: ${missing[*]}" >&2
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "brasa: need root (or sudo) to install: ${missing[*]}" >&2; return 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# Parallel build jobs: BRASA_JOBS, else the number of cores.
brasa_jobs() { echo "${BRASA_JOBS:-$(nproc)}"; }

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  brasa_install_deps
fi
