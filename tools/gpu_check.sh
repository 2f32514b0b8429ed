#!/usr/bin/env bash
# The GPU checks, for a host with PyTorch's CUDA LibTorch and no Debian
# packages (the device machine): builds base/, rules/, search/, nn/, their
# tests and nn_bench (RENJU_NN_ONLY) against that LibTorch and DEPS (made by
# tools/gpu_deps.sh on a Debian 12 machine), runs the network tests (the
# CUDA ones included: tests/nn/cuda_test.cc) and the GPU benchmarks
# (nn_bench --benchmark_filter=Cuda). Logs and benchmark JSON go to OUT.
# Usage: tools/gpu_check.sh DEPS OUT   (RENJU_GPU_BENCH=0: tests only)
set -uo pipefail
deps="$(cd "${1:?usage: tools/gpu_check.sh DEPS OUT}" && pwd)"
out="${2:?usage: tools/gpu_check.sh DEPS OUT}"
mkdir -p "$out"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-gpu"
log() { echo "[gpu_check $(date +%T)] $*"; }

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda",
      torch.version.cuda, "cxx11_abi", torch._C._GLIBCXX_USE_CXX11_ABI)'
  g++ --version | head -1
  cmake --version | head -1
  nproc
} 2>&1 | tee "$out/host.txt"
torch_dir="$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')"
prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)');$deps/usr"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
configure=(cmake -S "$root" -B "$build" "${generator[@]}"
  -DCMAKE_BUILD_TYPE=Release -DRENJU_NN_ONLY=ON -DCMAKE_PREFIX_PATH="$prefix")

log "configure"
if ! "${configure[@]}" >"$out/configure.log" 2>&1; then
  tail -25 "$out/configure.log"
  log "TorchConfig.cmake failed (above); linking $torch_dir directly"
  rm -rf "$build"
  if ! "${configure[@]}" -DRENJU_TORCH_ROOT="$torch_dir" \
      >>"$out/configure.log" 2>&1; then
    tail -40 "$out/configure.log"
    exit 1
  fi
fi
log "build"
if ! cmake --build "$build" -j "$(nproc)" --target nn_test \
    nn_core_test nn_bench >"$out/build.log" 2>&1; then
  grep -m 30 -A 8 "error" "$out/build.log"
  exit 1
fi
log "tests"
# Abseil's libraries link each other: the loader needs their folder too.
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0
for t in nn_core_test nn_test; do
  "$build/tests/nn/$t" --gtest_brief=1 2>&1 | tee "$out/$t.log" | tail -30
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
if [ "${RENJU_GPU_BENCH:-1}" = 0 ]; then
  log "done (no benchmarks), status $status"
  exit "$status"
fi
log "benchmarks"
"$build/bench/nn_bench" --benchmark_filter=Cuda \
  --benchmark_out="$out/nn_bench_gpu.json" --benchmark_out_format=json \
  2>&1 | tee "$out/nn_bench_gpu.txt" | grep -v "^\*\*\*"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
log "done, status $status"
exit "$status"
