#!/usr/bin/env bash
# The GPU checks, for a host with PyTorch's CUDA LibTorch and no Debian
# packages (the device machine), against DEPS (made by tools/gpu_deps.sh on
# a Debian 12 machine; the folder or its .tar.gz). Logs and benchmark JSON
# go to OUT.
#   default: builds base/, rules/, search/, nn/, their tests and nn_bench
#     (RENJU_NN_ONLY) against that LibTorch into build-gpu, runs the network
#     tests (the CUDA ones included: tests/nn/cuda_test.cc);
#   RENJU_GPU_FULL=1 (issue 33): builds the whole tree instead (gRPC,
#     Protobuf, SQLite, httplib, OpenSSL, pugixml all from DEPS; protoc and
#     grpc_cpp_plugin run from DEPS/usr/bin) into build-gpu-full and runs the
#     network, search, trainer, inference, RPC and end-to-end tests with
#     ctest (RENJU_GPU_TESTS: another ctest -R pattern), then
#     tools/gpu_deps_audit.sh over the tree, as a report only (the host's
#     CUDA folders are LibTorch's, and the audit knows only TORCH_SIDE).
#     tools/gpu_deps_check.sh checks the same build here first, on CPU;
# then, in both, the GPU benchmarks (nn_bench --benchmark_filter=Cuda;
# RENJU_GPU_BENCH=0: none).
# Usage: tools/gpu_check.sh DEPS OUT
set -uo pipefail
deps_arg="${1:?usage: tools/gpu_check.sh DEPS OUT}"
out="${2:?usage: tools/gpu_check.sh DEPS OUT}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
full="${RENJU_GPU_FULL:-0}"
log() { echo "[gpu_check $(date +%T)] $*"; }

# A tarball travels in a third of the folder's size (BENCHMARKS.md):
# unpack it outside the checkout.
if [[ "$deps_arg" == *.tar.gz ]]; then
  mkdir -p /tmp/renju-gpu-deps
  tar -C /tmp/renju-gpu-deps -xzf "$deps_arg" || exit 1
  top="$(tar -tzf "$deps_arg" | head -1)"
  deps_arg="/tmp/renju-gpu-deps/${top%%/*}"
fi
deps="$(cd "$deps_arg" && pwd)" || exit 1
lib="$deps/usr/lib/x86_64-linux-gnu"
# The carried libraries link each other (Abseil's, gRPC's), and protoc and
# grpc_cpp_plugin, which the build runs, load them: the loader needs their
# folder, from configure (FindProtobuf runs protoc --version) on.
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# http/ finds cpp-httplib through pkg-config: DEPS's pkgconf, reading only
# DEPS's .pc files (whose prefix is their own folder).
export PKG_CONFIG_LIBDIR="$lib/pkgconfig:$deps/usr/share/pkgconfig"

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
if [ "$full" = 1 ]; then
  build="$root/build-gpu-full"
  # Gloo's headers last (-idirafter): LibTorch's own, if it has them.
  configure=(cmake -S "$root" -B "$build" "${generator[@]}"
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
    -DPKG_CONFIG_EXECUTABLE="$deps/usr/bin/pkgconf"
    -DCMAKE_CXX_FLAGS="-idirafter $deps/gloo/include")
  targets=()
else
  build="$root/build-gpu"
  configure=(cmake -S "$root" -B "$build" "${generator[@]}"
    -DCMAKE_BUILD_TYPE=Release -DRENJU_NN_ONLY=ON
    -DCMAKE_PREFIX_PATH="$prefix")
  targets=(--target nn_test nn_core_test nn_bench)
fi

log "configure ($( [ "$full" = 1 ] && echo full tree || echo NN-only ))"
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
start=$(date +%s)
if ! cmake --build "$build" -j "$(nproc)" "${targets[@]}" \
    >"$out/build.log" 2>&1; then
  grep -m 30 -A 8 "error" "$out/build.log"
  exit 1
fi
log "build took $(( $(date +%s) - start )) s"
log "tests"
status=0
if [ "$full" = 1 ]; then
  tests="${RENJU_GPU_TESTS:-^(nn_core_test|nn_test|search_test|inference_test|trainer_test|training_test|ratings_test|rpc_test|e2e_test|mtls_test)$}"
  (cd "$build" && ctest -j "$(nproc)" -R "$tests" --output-on-failure) \
    2>&1 | tee "$out/ctest.log" | tail -40
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  log "audit (report only)"
  TORCH_SIDE="/usr/local/cuda /usr/local/nvidia $(dirname "$torch_dir")/nvidia" \
    bash "$root/tools/gpu_deps_audit.sh" "$build" "$deps" "$torch_dir" \
    >"$out/audit.log" 2>&1
  tail -20 "$out/audit.log"
else
  for t in nn_core_test nn_test; do
    "$build/tests/nn/$t" --gtest_brief=1 2>&1 | tee "$out/$t.log" | tail -30
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
fi
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
