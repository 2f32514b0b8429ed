#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs (only those missing),
# then configures and builds into build/ (Release, gcc) incrementally. Sourced by
# tools/run_main_job.sh and tools/run_tests.sh; run as root on a fresh machine.
set -euo pipefail

RENJU_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RENJU_BUILD="${RENJU_BUILD:-$RENJU_ROOT/build}"

# What the build needs (the tests' and benchmarks' libraries too: configure
# looks for them) and the main job runs with.
packages=(
  build-essential cmake
  libtorch-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev libgtest-dev libbenchmark-dev libsqlite3-dev
  nlohmann-json3-dev libpugixml-dev libgloo-dev libssl-dev gnuplot-nox
  # `renju serve --http` and the run page
  libcpp-httplib-dev
)
# What only the test suite runs; RENJU_SETUP_TEST_PACKAGES=0 (the main job)
# leaves them out, about half of a bare machine's download.
test_packages=(
  # the browser test (tests/web: headless Chromium driven by
  # puppeteer-core, which the test installs with npm)
  chromium
  # the sanitizer builds and the tests' libFuzzer targets
  # (tools/run_sanitizer_tests.sh, tools/run_fuzz.sh)
  clang libclang-rt-14-dev lld
  # the format check (tools/check_format.sh, ctest format_check)
  clang-format
  # the metrics test (tests/e2e/prometheus_test.cc): a real Prometheus
  # server scraping the trainer, the server and a worker, and promtool
  prometheus
)
if [ "${RENJU_SETUP_TEST_PACKAGES:-1}" != 0 ]; then
  packages+=("${test_packages[@]}")
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [ "${RENJU_SETUP_TEST_PACKAGES:-1}" != 0 ]; then
  # Node and npm for the browser test, unless some other package (such as
  # NodeSource's nodejs, which conflicts with Debian's npm) provides them.
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install packages (run with sudo)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# RENJU_SETUP_TEST_PACKAGES=0: only what the build and the main job need.
# RENJU_SETUP_NO_BUILD=1: packages only (the test suite builds its own
# sanitizer trees). RENJU_BUILD_TARGETS: the build targets to make,
# space-separated (the main job: only what it runs); unset or empty: all.
if [ "${RENJU_SETUP_NO_BUILD:-0}" != 1 ]; then
  cmake -S "$RENJU_ROOT" -B "$RENJU_BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  build_targets=()
  for target in ${RENJU_BUILD_TARGETS:-}; do
    build_targets+=(--target "$target")
  done
  cmake --build "$RENJU_BUILD" -j "$(nproc)" "${build_targets[@]}"
fi
