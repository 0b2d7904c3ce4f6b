#!/usr/bin/env bash
# Install the Debian packages nesvm needs to build and test (idempotent).
set -euo pipefail
pkgs=(build-essential cmake pkg-config zlib1g-dev gzip libbz2-dev bzip2 liblzma-dev xz-utils libopenblas-dev liblapacke-dev
      libsvm-tools liblinear-tools
      python3 python3-numpy python3-scipy python3-sklearn
      dataset-fashion-mnist
      libocas-tools python3-matplotlib glpk-utils
      clang libclang-rt-14-dev libomp-14-dev
      python3-dev python3-cffi python3-pytest python3-pandas python3-venv python3-pip
      python3-setuptools python3-wheel
      libopenmpi-dev openmpi-bin)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
