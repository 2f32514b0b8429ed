#!/usr/bin/env bash
# Fails unless the configured and built tree BUILD took its dependencies
# from DEPS (tools/gpu_deps.sh's folder) and LibTorch from TORCH, and from
# the system only the C/C++ runtime, the toolchain and what LibTorch itself
# brings (issue 33). CMAKE_FIND_ROOT_PATH keeps CMake's own searches inside
# DEPS and TORCH, but the compiler still falls back to /usr/include and the
# linker to /usr/lib, silently; so this reads what the build really used:
#   1. the CMake cache: no path under /usr but the toolchain's and those
#      named in TORCH_SIDE below;
#   2. every header of every compiled file (ninja's depfile log): each is
#      under the checkout, BUILD, DEPS or TORCH, or belongs to a C/C++
#      runtime package (glibc's, the kernel's, GCC's);
#   3. every link line (build.ninja): absolute libraries and -L folders
#      under DEPS or TORCH (or TORCH_SIDE), bare -l only for glibc and GCC
#      runtime libraries;
#   4. every program built: with LD_LIBRARY_PATH at DEPS's lib folder (as
#      on the GPU host), each library the loader resolves is DEPS's, the C
#      and C++ runtime's, or one that LibTorch (TORCH's libraries and the
#      TORCH_SIDE libraries) loads anyway, and none is missing.
# Usage: tools/gpu_deps_audit.sh BUILD DEPS TORCH   (a Ninja build tree)
# TORCH_SIDE: system paths that belong to LibTorch on this machine
# (default: Debian's Gloo, which Debian's LibTorch links; a PyTorch wheel
# has Gloo inside libtorch_cpu).
set -euo pipefail
build="$(cd "${1:?usage: tools/gpu_deps_audit.sh BUILD DEPS TORCH}" && pwd)"
deps="$(cd "${2:?usage: tools/gpu_deps_audit.sh BUILD DEPS TORCH}" && pwd)"
torch="$(cd "${3:?usage: tools/gpu_deps_audit.sh BUILD DEPS TORCH}" && pwd)"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
torch_side="${TORCH_SIDE:-/usr/share/cmake/Gloo /usr/lib/libgloo.so.0.5.0}"
arch=x86_64-linux-gnu
status=0
fail() { echo "gpu_deps_audit: $*" >&2; status=1; }
# Paths that are ours: the checkout, the build, the carried folder, LibTorch.
ours() {
  case "$1" in
    "$root"|"$root"/*|"$build"|"$build"/*|"$deps"|"$deps"/*) return 0 ;;
    "$torch"|"$torch"/*) return 0 ;;
  esac
  for p in $torch_side "${torch_targets[@]}"; do
    [[ "$1" == "$p" || "$1" == "$p"/* ]] && return 0
  done
  return 1
}
# TORCH may be links into the system (the stand-in for Debian's LibTorch):
# GCC writes a system header's path resolved through links
# (-fcanonical-system-headers, Debian's default), so a header found through
# TORCH/include/c10 shows as /usr/include/c10: the links' targets count as
# TORCH's.
torch_targets=()
while read -r l; do torch_targets+=("$(realpath "$l")"); done \
  < <(find "$torch" -type l)

# 1. The cache.
n=0
while IFS= read -r line; do
  name="${line%%:*}" value="${line#*=}"
  case "$name" in
    # The toolchain (compiler, binutils, ninja) and install folders are
    # the host's by design, and nothing is found through them.
    CMAKE_CXX_COMPILER|CMAKE_CXX_COMPILER_AR|CMAKE_CXX_COMPILER_RANLIB|\
    CMAKE_AR|CMAKE_RANLIB|CMAKE_NM|CMAKE_LINKER|\
    CMAKE_OBJCOPY|CMAKE_OBJDUMP|CMAKE_STRIP|CMAKE_MAKE_PROGRAM|\
    CMAKE_ADDR2LINE|CMAKE_READELF|CMAKE_DLLTOOL|CMAKE_INSTALL_*) continue ;;
  esac
  IFS=';' read -r -a parts <<<"$value"
  for v in "${parts[@]}"; do
    if [[ "$v" == /* ]] && ! ours "$v"; then
      fail "cache: $name = $v"
    fi
  done
  n=$((n + 1))
done < <(grep -E '^[A-Za-z0-9_.+-]+:(FILEPATH|PATH|STRING|UNINITIALIZED)=/' \
           "$build/CMakeCache.txt")
echo "cache: $n path entries checked"

# 2. Headers. `ninja -t deps` lists each object's headers as the compiler
# reported them (not resolved through links, so TORCH's links to
# /usr/include/torch show as TORCH's).
runtime_pkgs='^(libc6-dev|linux-libc-dev|libcrypt-dev|libstdc\+\+-[0-9]+-dev|libgcc-[0-9]+-dev|gcc-[0-9]+)(:[a-z0-9]+)?$'
foreign=()
while read -r h; do
  ours "$h" || foreign+=("$h")
done < <(ninja -C "$build" -t deps | awk '/^    \//{print $1}' | sort -u)
objects=$(ninja -C "$build" -t deps | grep -c '^[^ ].*: #deps')
# GCC's own headers (/usr/lib/gcc/...) belong to the compiler package.
# One dpkg -S for all of them ("pkg[, pkg]: path" lines; a path no package
# owns gets no line, so it counts as foreign too).
declare -A owner
if ((${#foreign[@]})); then
  while IFS= read -r line; do
    owner["${line#*: }"]="${line%%: *}"
  done < <(dpkg -S "${foreign[@]}" 2>/dev/null || true)
fi
bad=$(for h in "${foreign[@]}"; do
        pkg="${owner[$h]:-}"
        pkg="${pkg%%,*}"
        [[ "$pkg" =~ $runtime_pkgs ]] || echo "$h (${pkg:-no package})"
      done)
echo "headers: ${#foreign[@]} from the C/C++ runtime, $objects objects"
if [ -n "$bad" ]; then
  fail "headers from the system:"
  echo "$bad" | head -40 >&2
fi

# 3. Link lines.
n=0
while read -r tok; do
  n=$((n + 1))
  case "$tok" in
    -L*) ours "$(realpath -m "${tok#-L}")" || fail "link: $tok" ;;
    # A bare -l is glibc's or GCC's, or one DEPS has (pkg-config's -L to
    # DEPS comes with it, and ld searches every -L before its own path).
    -l*) [[ "$tok" =~ ^-l(pthread|dl|m|rt|atomic|stdc\+\+|gcc_s|c)$ ]] ||
           [ -e "$deps/usr/lib/$arch/lib${tok#-l}.so" ] ||
           fail "link: $tok (a bare -l, found on the linker's system path?)" ;;
    /*) ours "$tok" || fail "link: $tok" ;;
  esac
done < <(grep -E '^\s*LINK_LIBRARIES = ' "$build/build.ninja" |
           sed 's/^\s*LINK_LIBRARIES = //' | tr ' ' '\n' | grep -v '^$' |
           grep -v '^-Wl,' | sort -u)
echo "link: $n distinct link-line entries checked"

# 4. What the loader resolves. LibTorch's own closure is whatever its
# libraries and the TORCH_SIDE ones load.
lib="$deps/usr/lib/$arch"
resolve() {
  LD_LIBRARY_PATH="$lib" ldd "$@" 2>/dev/null |
    awk '$2 == "=>" {print $1, $3}'
}
base='^(linux-vdso|ld-linux-x86-64|libc|libm|libpthread|libdl|librt|libresolv|libutil|libanl|libnsl|libstdc\+\+|libgcc_s|libatomic)\.so'
torch_libs=("$torch"/lib/*.so)
for p in $torch_side; do [[ "$p" == *.so* ]] && torch_libs+=("$p"); done
declare -A torch_closure
while read -r name path; do torch_closure["$path"]=1; done \
  < <(resolve "${torch_libs[@]}")
programs=0
declare -A seen
while read -r exe; do
  programs=$((programs + 1))
  while read -r name path; do
    key="$name $path"
    [ -n "${seen[$key]:-}" ] && continue
    seen["$key"]=1
    if [ "$path" = "not" ]; then fail "load: $exe: $name not found"; continue; fi
    case "$path" in "$lib"/*|"$torch"/*) continue ;; esac
    [[ "$name" =~ $base ]] && continue
    [ -n "${torch_closure[$path]:-}" ] && continue
    ours "$(realpath "$path")" && continue  # TORCH's own, through its links
    fail "load: $exe: $name => $path (neither carried nor LibTorch's)"
  done < <(resolve "$exe")
done < <(find "$build" -type f -perm -u+x ! -name '*.so*' ! -name '*.sh' \
           -newer "$build/CMakeCache.txt" -exec sh -c \
           'head -c 4 "$1" | grep -q ELF' _ {} \; -print)
carried=$(for k in "${!seen[@]}"; do echo "$k"; done |
            awk -v l="$lib/" 'index($2, l) == 1 {print $1}' | sort -u | wc -l)
echo "load: $programs programs; $carried distinct libraries resolved from DEPS"
if [ "$status" = 0 ]; then echo "gpu_deps_audit: OK"; fi
exit "$status"
