#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang into build-fuzz/
# (RENJU_FUZZ: only the parsers and the sources they need) and runs each for
# a fixed time, several at once. Prints per target the executions and the
# result; a crash, hang, leak or sanitizer report fails the run and names
# the reproducer, which replays with `build-fuzz/tests/fuzz/<target> <file>`.
#
#   tools/run_fuzz.sh                  # every target for 3 minutes
#   tools/run_fuzz.sh --seconds 5      # the short run CI does
#   tools/run_fuzz.sh --targets sgf_fuzzer,psq_fuzzer --seconds 600
#   tools/run_fuzz.sh --merge          # afterwards, add the inputs that
#                                      # found new coverage to the corpus
#   tools/run_fuzz.sh --build-only     # build the targets, run nothing
#
# The committed seeds (tests/fuzz/corpus/<name>/) are read, never written:
# new inputs go to build-fuzz/corpus/<name>/, crash reproducers to
# build-fuzz/artifacts/<name>/, the full output to build-fuzz/logs/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${RENJU_FUZZ_BUILD:-$ROOT/build-fuzz}"
SEEDS="$ROOT/tests/fuzz/corpus"
ALL_TARGETS=(move_list_fuzzer psq_fuzzer sgf_fuzzer rif_fuzzer jsonl_fuzzer
             config_fuzzer game_record_fuzzer gomocup_fuzzer
             opening_book_fuzzer http_api_fuzzer)

seconds=180
jobs="$(nproc)"
seed=0  # 0: libFuzzer picks one (and prints it)
merge=0
build_only=0
targets=("${ALL_TARGETS[@]}")

usage() {
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  echo "options: --seconds N (180)  --jobs N (nproc)  --seed N (0 = random)"
  echo "         --targets a,b,...  --merge  --build-only"
}

while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --targets) IFS=',' read -r -a targets <<<"$2"; shift 2 ;;
    --merge) merge=1; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run_fuzz: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

CXX_COMPILER="${RENJU_FUZZ_CXX:-clang++}"
if ! command -v "$CXX_COMPILER" >/dev/null; then
  echo "run_fuzz: $CXX_COMPILER not found (Debian packages clang and" \
       "libclang-rt-14-dev; tools/setup.sh installs them)" >&2
  exit 1
fi

build_start=$SECONDS
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
  -DCMAKE_BUILD_TYPE=Release -DRENJU_FUZZ=ON >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target "${targets[@]}"
echo "run_fuzz: built ${#targets[@]} targets in $((SECONDS - build_start)) s"
if ((build_only)); then
  exit 0
fi

mkdir -p "$BUILD/logs"
# Every UBSan check aborts (-fno-sanitize-recover); leaks count as failures.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

# run_target <target>: one libFuzzer run; its output goes to the log, its
# exit status to <log>.status.
run_target() {
  local target="$1" name="${1%_fuzzer}" status=0
  mkdir -p "$BUILD/corpus/$name" "$BUILD/artifacts/$name"
  # -timeout: an input that takes longer is a hang (a failure).
  "$BUILD/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 \
    -max_len=4096 -rss_limit_mb=2048 -seed="$seed" -print_final_stats=1 \
    -artifact_prefix="$BUILD/artifacts/$name/" \
    "$BUILD/corpus/$name" "$SEEDS/$name" >"$BUILD/logs/$target.log" 2>&1 ||
    status=$?
  echo "$status" >"$BUILD/logs/$target.log.status"
  local execs
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' \
             "$BUILD/logs/$target.log" | tail -1)"
  echo "run_fuzz: $target $( ((status == 0)) && echo ok || echo FAILED)," \
       "${execs:-?} executions; $((SECONDS - fuzz_start)) s of about" \
       "$expected s"
}

fuzz_start=$SECONDS
# Targets run in waves of $jobs; each takes $seconds.
expected=$(( (${#targets[@]} + jobs - 1) / jobs * seconds ))
echo "run_fuzz: ${#targets[@]} targets, $seconds s each, $jobs at a time:" \
     "about $expected s"
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait

failed=0
printf '%-22s %12s %10s %8s  %s\n' target executions exec/s corpus result
for target in "${targets[@]}"; do
  log="$BUILD/logs/$target.log"
  status="$(cat "$log.status")"
  name="${target%_fuzzer}"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  corpus="$(find "$BUILD/corpus/$name" -type f | wc -l)"
  if ((status == 0)); then
    result=ok
  else
    failed=1
    reproducer="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" |
                  tail -1)"
    result="FAILED (exit $status): ${reproducer:-no reproducer}; log $log"
  fi
  printf '%-22s %12s %10s %8s  %s\n' "$target" "${execs:-?}" "${rate:-?}" \
    "$corpus" "$result"
done
echo "run_fuzz: fuzzed for $((SECONDS - fuzz_start)) s," \
     "$seconds s per target, $jobs at a time"

if ((failed)); then
  for target in "${targets[@]}"; do
    log="$BUILD/logs/$target.log"
    if grep -qE '^==[0-9]+==ERROR|^SUMMARY|runtime error|Check failed' "$log"; then
      echo "--- $target: the report ---"
      grep -m 1 -A 30 -E '^==[0-9]+==ERROR|runtime error|Check failed' "$log"
    fi
  done
  exit 1
fi

if ((merge)); then
  # Keeps the committed corpus small: only inputs that add coverage.
  for target in "${targets[@]}"; do
    name="${target%_fuzzer}"
    "$BUILD/tests/fuzz/$target" -merge=1 -max_len=4096 \
      "$SEEDS/$name" "$BUILD/corpus/$name" >"$BUILD/logs/$target.merge.log" 2>&1
    echo "run_fuzz: $name corpus now $(find "$SEEDS/$name" -type f | wc -l) files"
  done
fi
