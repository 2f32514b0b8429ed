#!/usr/bin/env bash
# Checks here, on the Debian 12 machine, that the folder tools/gpu_deps.sh
# makes is all the full tree needs besides LibTorch (issue 33), so the GPU
# host's stage (tools/gpu_check.sh with RENJU_GPU_FULL=1) has nothing left
# to discover but CUDA. It builds the whole tree into BUILD against DEPS
# alone, audits the build, and runs the CPU test suite there:
#   - LibTorch comes from a stand-in for a PyTorch install's torch/ folder,
#     TORCH (made here: links to Debian's libtorch-dev headers and
#     libraries, and to the glog/gflags headers Debian's c10 includes), given
#     as RENJU_TORCH_ROOT, the way gpu_check.sh links PyTorch's LibTorch when
#     its TorchConfig.cmake fails. Debian's LibTorch links Debian's libgloo
#     (a PyTorch wheel has Gloo inside libtorch_cpu), so Gloo's CMake config
#     is taken from the system too: it is LibTorch's part here.
#   - Everything else is looked for only under DEPS and TORCH:
#     CMAKE_FIND_ROOT_PATH with every CMAKE_FIND_ROOT_PATH_MODE_* ONLY, so
#     find_package/find_library/find_path/find_program never see /usr; the
#     pkg-config that http/ runs is DEPS's pkgconf, reading only DEPS's .pc
#     files (PKG_CONFIG_LIBDIR); protoc and grpc_cpp_plugin run from DEPS
#     (LD_LIBRARY_PATH at its lib folder, as on the GPU host).
#   - The compiler still searches /usr/include last and the linker
#     /usr/lib, which no CMake setting turns off, so tools/gpu_deps_audit.sh
#     then reads what the build used (every compiled file's headers from
#     the depfiles, every link line, the CMake cache, and what the loader
#     resolves for the binaries) and fails if anything came from the system
#     but the C and C++ runtime and LibTorch.
# Usage: tools/gpu_deps_check.sh DEPS BUILD [ctest arguments...]
#   e.g. tools/gpu_deps_check.sh /tmp/deps /tmp/build-deps -j 2
# RENJU_DEPS_CHECK_STEPS: which of "configure build audit test" to run
# (default all). Keep BUILD and TORCH outside the checkout.
set -euo pipefail
deps="$(cd "${1:?usage: tools/gpu_deps_check.sh DEPS BUILD}" && pwd)"
build="${2:?usage: tools/gpu_deps_check.sh DEPS BUILD}"
shift 2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
steps="${RENJU_DEPS_CHECK_STEPS:-configure build audit test}"
torch="$build.torch"
arch=x86_64-linux-gnu
log() { echo "[gpu_deps_check $(date +%T)] $*"; }
export LD_LIBRARY_PATH="$deps/usr/lib/$arch"
export PKG_CONFIG_LIBDIR="$deps/usr/lib/$arch/pkgconfig:$deps/usr/share/pkgconfig"

# A PyTorch-like torch/ folder (include/, lib/) from Debian's LibTorch.
make_torch_root() {
  rm -rf "$torch" && mkdir -p "$torch/include" "$torch/lib"
  # libtorch-dev's headers, the glog/gflags ones its c10 includes
  # (C10_USE_GLOG, C10_USE_GFLAGS in c10/macros/cmake_macros.h) and the
  # Gloo ones of the Gloo it links (so DEPS's copy, for LibTorches without
  # them, is not used here).
  for d in ATen c10 caffe2 torch glog gflags gloo; do
    ln -s "/usr/include/$d" "$torch/include/$d"
  done
  for l in torch torch_cpu c10; do
    ln -s "/usr/lib/$arch/lib$l.so" "$torch/lib/lib$l.so"
  done
}

if [[ " $steps " == *" configure "* ]]; then
  make_torch_root
  rm -rf "$build"
  generator=()
  # The build tool, compiler and binutils are the host's, named here:
  # PROGRAM mode ONLY would hide them from CMake's own search.
  if command -v ninja >/dev/null; then
    generator=(-G Ninja -DCMAKE_MAKE_PROGRAM="$(command -v ninja)")
  fi
  log "configure"
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$(command -v "${CXX:-c++}")" \
    -DCMAKE_AR="$(command -v ar)" -DCMAKE_RANLIB="$(command -v ranlib)" \
    -DCMAKE_NM="$(command -v nm)" -DCMAKE_LINKER="$(command -v ld)" \
    -DCMAKE_OBJCOPY="$(command -v objcopy)" \
    -DCMAKE_OBJDUMP="$(command -v objdump)" \
    -DCMAKE_STRIP="$(command -v strip)" \
    -DCMAKE_PREFIX_PATH="$deps/usr" \
    -DCMAKE_FIND_ROOT_PATH="$deps;$torch" \
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=ONLY \
    -DPKG_CONFIG_EXECUTABLE="$deps/usr/bin/pkgconf" \
    -DRENJU_TORCH_ROOT="$torch" \
    -DGloo_DIR=/usr/share/cmake/Gloo
fi
if [[ " $steps " == *" build "* ]]; then
  log "build"
  start=$(date +%s)
  nice -n 5 cmake --build "$build" -j 2
  log "build took $(( $(date +%s) - start )) s"
fi
if [[ " $steps " == *" audit "* ]]; then
  log "audit"
  bash "$root/tools/gpu_deps_audit.sh" "$build" "$deps" "$torch"
fi
if [[ " $steps " == *" test "* ]]; then
  log "test"
  (cd "$build" && nice -n 5 ctest --output-on-failure "$@")
fi
