#!/usr/bin/env bash
# Copies the Debian packages the NN-only build needs besides LibTorch
# (Abseil, GoogleTest, Google Benchmark, nlohmann-json: headers, libraries,
# CMake configs) into DIR/usr, for a GPU host that has PyTorch's LibTorch but
# no Debian packages and no registry. tools/gpu_check.sh builds against it.
# Usage: tools/gpu_deps.sh DIR   (run here, on Debian 12, after setup.sh)
set -euo pipefail
dir="${1:?usage: tools/gpu_deps.sh DIR}"
packages=(libabsl-dev libabsl20220623 libgtest-dev libgmock-dev
          libbenchmark-dev libbenchmark1debian nlohmann-json3-dev)
rm -rf "$dir" && mkdir -p "$dir"
for p in "${packages[@]}"; do
  dpkg-query -L "$p" | while read -r f; do
    case "$f" in
      /usr/include/*|/usr/lib/*|/usr/share/cmake/*)
        [ -f "$f" ] && cp -L --parents "$f" "$dir" ;;
    esac
  done
done
du -sh "$dir"
