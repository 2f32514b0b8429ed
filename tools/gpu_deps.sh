#!/usr/bin/env bash
# Copies the Debian packages the whole tree needs besides LibTorch into
# DIR/usr, for a GPU host that has PyTorch's LibTorch but no Debian packages
# and no registry (tools/gpu_check.sh builds against it there):
#   - the NN-only build's: Abseil, GoogleTest/GoogleMock, Google Benchmark,
#     nlohmann-json;
#   - the full build's (issue 33): gRPC (libraries, headers, CMake config,
#     grpc_cpp_plugin), Protobuf (with protoc), SQLite, cpp-httplib, OpenSSL,
#     pugixml, and what gRPC's CMake config and httplib's pkg-config file ask
#     for (c-ares, re2, zlib, brotli);
#   - pkgconf, since http/ finds cpp-httplib through pkg-config and the GPU
#     host's image may have none;
#   - Gloo's headers, apart in DIR/gloo/include (its library and CMake
#     config are LibTorch's business): trainer/distributed.cc includes
#     LibTorch's ProcessGroupGloo.hpp, which includes them, and a PyTorch
#     wheel's include/ may lack them. gpu_check.sh adds the folder with
#     -idirafter, last, so a LibTorch that has its own Gloo headers (its
#     Gloo's version) keeps them;
#   - then every shared library those libraries and programs load that is
#     not part of glibc or GCC's runtime (found with ldd, repeated until
#     nothing new turns up), so nothing is looked up on the host but libc and
#     libstdc++.
# To stay well inside the 64 MiB a device call carries (the checkout counts
# too), it leaves out static archives (*.a: the build links the shared
# libraries; Abseil's and gRPC's archives alone are tens of MiB) but those
# a CMake config names (GoogleTest's, pugixml's), docs, man
# pages and lintian files, and strips the ELF files it copies. Symbolic links
# between files of one folder stay links (libfoo.so -> libfoo.so.N), so each
# library is carried once. pkg-config files are rewritten to find their
# prefix from their own place (${pcfiledir}), so DIR can move.
# Prints DIR's size and a gzip tarball's (DIR.tar.gz, beside DIR), which is
# what to carry when the folder itself would not fit.
# Usage: tools/gpu_deps.sh DIR   (run here, on Debian 12, after setup.sh)
set -euo pipefail
dir="${1:?usage: tools/gpu_deps.sh DIR}"
arch=x86_64-linux-gnu
packages=(
  # NN-only (RENJU_NN_ONLY)
  libabsl-dev libabsl20220623 libgtest-dev libgmock-dev
  libbenchmark-dev libbenchmark1debian nlohmann-json3-dev
  # the full tree: gRPC, Protobuf and their compilers
  libgrpc++-dev libgrpc++1.51 libgrpc-dev libgrpc29 protobuf-compiler-grpc
  libprotobuf-dev libprotobuf32 libprotobuf-lite32 libprotoc32 protobuf-compiler
  # what gRPCConfig.cmake finds (find_dependency) besides Abseil/Protobuf
  libc-ares-dev libc-ares2 libre2-dev libre2-9 zlib1g-dev zlib1g
  libssl-dev libssl3
  # trainer/ (SQLite), records/ (pugixml), http/ (cpp-httplib: its .pc
  # requires openssl, zlib and brotli)
  libsqlite3-dev libsqlite3-0 libpugixml-dev libpugixml1v5
  libcpp-httplib-dev libcpp-httplib0.11 libbrotli-dev libbrotli1
  # pkg-config itself
  pkgconf pkgconf-bin libpkgconf3
  # headers ProcessGroupGloo.hpp includes
  libgloo-dev
)
rm -rf "$dir" && mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
lib="$dir/usr/lib/$arch"

# One file of a package: /lib/... (Debian 12's merged /usr) lands under
# DIR/usr/lib like the rest, so one lib folder serves the loader and CMake.
copy_file() {
  local f="$1" dest
  dest="$dir/usr/${f#/usr/}"
  case "$f" in /lib/*) dest="$dir/usr/lib/${f#/lib/}" ;; esac
  mkdir -p "$(dirname "$dest")"
  # A link to a file beside it stays a link; any other is copied through.
  if [ -L "$f" ] && [[ "$(readlink "$f")" != */* ]]; then
    cp -P "$f" "$dest"
  else
    cp -L "$f" "$dest"
  fi
}

for p in "${packages[@]}"; do
  dpkg-query -L "$p" | while read -r f; do
    [ -f "$f" ] || continue  # folders; links to folders
    case "$f" in
      *.a|/usr/share/doc/*|/usr/share/man/*|/usr/share/lintian/*) ;;
      /usr/include/gloo/*)
        mkdir -p "$(dirname "$dir/gloo/${f#/usr/}")"
        cp -L "$f" "$dir/gloo/${f#/usr/}" ;;
      */libgloo*|*/cmake/Gloo/*) ;;
      /usr/include/*|/usr/lib/*|/lib/*|/usr/share/cmake/*|/usr/bin/*)
        copy_file "$f" ;;
      /usr/share/pkgconfig/*.pc) copy_file "$f" ;;
    esac
  done
done

# Static archives that a carried CMake config names (GoogleTest ships only
# those; pugixml's config checks that its pugixml::static file exists even
# when nothing links it) come after all.
grep -rhoE 'lib[A-Za-z0-9_+-]+\.a\b' "$dir" --include='*.cmake' | sort -u |
  while read -r a; do
    if [ -f "/usr/lib/$arch/$a" ]; then copy_file "/usr/lib/$arch/$a"; fi
  done

# Debian puts a few headers in the multiarch folder (OpenSSL's
# openssl/configuration.h and opensslconf.h), which GCC searches only as
# /usr/include/x86_64-linux-gnu: a build against DIR would take them from
# the system here and find none on the GPU host. Merge them into
# DIR/usr/include, the one include folder DIR's configs name.
if [ -d "$dir/usr/include/$arch" ]; then
  cp -a "$dir/usr/include/$arch/." "$dir/usr/include/"
  rm -rf "${dir:?}/usr/include/$arch"
fi

# Links whose target was not copied (a package's .so link to a file of
# another package, say) would dangle on the host: copy the file instead.
find "$dir" -type l | while read -r l; do
  if [ ! -e "$l" ]; then
    orig="/usr/${l#"$dir"/usr/}"
    rm "$l" && cp -L "$orig" "$l"
  fi
done

# The runtime closure: what the carried ELF files load, except glibc and
# GCC's runtime (every host has those; they must not be mixed).
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
# Headers and CMake files are not ELF: only bin/ and lib/ need looking at.
elf_files() {
  find "$dir/usr/bin" "$lib" -maxdepth 1 -type f | while read -r f; do
    if is_elf "$f"; then echo "$f"; fi
  done
}
base='^(linux-vdso|ld-linux-x86-64|libc|libm|libpthread|libdl|librt|libresolv|libutil|libanl|libnsl|libstdc\+\+|libgcc_s)\.so'
added=()
while :; do
  new=0
  while read -r so; do
    name="$(basename "$so")"
    [ -e "$lib/$name" ] && continue
    [[ "$name" =~ $base ]] && continue
    cp -L "$so" "$lib/$name"
    added+=("$name")
    new=1
  done < <(elf_files | while read -r f; do
             LD_LIBRARY_PATH="$lib" ldd "$f" 2>/dev/null |
               awk '$2 == "=>" && $3 ~ /^\// {print $3}'
           done | sort -u)
  [ "$new" = 0 ] && break
done
echo "runtime libraries added by ldd: ${added[*]:-none}"
# Nothing may be missing either.
if elf_files | while read -r f; do
     LD_LIBRARY_PATH="$lib" ldd "$f" 2>/dev/null
   done | grep "not found"; then
  echo "gpu_deps: unresolved libraries (above)" >&2
  exit 1
fi

# Strip what Debian left in (mostly already stripped; cheap to make sure).
elf_files | while read -r f; do strip --strip-unneeded "$f"; done

# pkg-config files: prefix=/usr -> relative to the file's own folder.
find "$dir" -name '*.pc' | while read -r pc; do
  rel="$(dirname "${pc#"$dir"/usr/}" | sed -E 's#[^/]+#..#g')"
  sed -i -E "s#^([A-Za-z_]+)=/usr(/|\$)#\\1=\${pcfiledir}/$rel\\2#" "$pc"
done

# No CMake config or pkg-config file may still name the system's folders
# (CMake's own "/usr move" guard, which compares the config's real folder
# with /usr/lib/..., names them harmlessly).
if grep -rnE '(^|[ ";=])/usr/(include|lib)' "$dir" --include='*.pc' \
     --include='*.cmake' |
   grep -vE ':[0-9]+: *#|_realOrig|set\((_IMPORT_PREFIX|PACKAGE_PREFIX_DIR) "/usr'; then
  echo "gpu_deps: absolute /usr paths left (above)" >&2
  exit 1
fi

du -sh "$dir"
tar -C "$(dirname "$dir")" -czf "$dir.tar.gz" "$(basename "$dir")"
du -sh "$dir.tar.gz"
