#!/usr/bin/env bash
# Chaos run (issue 32): the local loop under random faults for N minutes.
#
# A trainer, an inference server following it, and two self-play workers
# run on loopback the way an operator starts them by hand: w1 plays with
# its own copy of the model, w2 evaluates through the server. Every 15-60 s
# (drawn from --seed, so a failing schedule replays) one process, drawn at
# random, is either
#   - killed with SIGKILL and restarted 1-5 s later with the same command
#     (the trainer resumes from its run folder; a worker delivers what its
#     folder holds), or, one event in six,
#   - stopped with SIGSTOP for 35-50 s, longer than the clients' 30 s RPC
#     deadlines, and continued.
# Processes that exit by themselves are restarted too, and counted.
#
# Afterwards, with the faults over, it waits for the trainer to publish and
# rate one more generation, stops the workers, restarts each with --games 1
# (a worker with --games ends once its folder is empty, so this delivers
# everything it kept), stops the trainer and the server, and checks from
# the outside:
#   - every game a worker logged as acknowledged (stored or duplicate) is in
#     run.sqlite exactly once, and no game is stored twice;
#   - every game a worker logged as kept is stored or still in its folder
#     (lost: neither), and the folders are empty after the drain;
#   - PRAGMA integrity_check is ok;
#   - every registered model's file has the registry's sha256;
#   - the training state's step never went backwards (sampled at each event)
#     and each restarted trainer resumed at the step of the state it found;
#   - training and rating went on after the last fault.
# and prints one summary line starting "chaos:".
#
# Usage: tools/chaos_test.sh [--minutes N] [--seed S] [--build DIR] [--keep]
#   --minutes N  minutes of faults (default 60); the drain adds a few
#   --seed S     the schedule's seed (default 1)
#   --build DIR  where renju and renju-full are (default build/); copy them
#                elsewhere to rebuild while a long run goes on
#   --keep       keep the temporary folder (logs, run folder) on success
# Needs sqlite3 and sha256sum. Exit status 0 when every check passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MINUTES=60
SEED=1
BUILD="$ROOT/build"
KEEP=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --minutes) MINUTES="${2:-}"; shift 2 ;;
    --seed) SEED="${2:-}"; shift 2 ;;
    --build) BUILD="${2:-}"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "chaos_test: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ $MINUTES =~ ^[0-9]+$ ]] || (( MINUTES < 1 || MINUTES > 10000 )); then
  echo "chaos_test: --minutes wants a whole number of minutes, 1..10000; got '$MINUTES'" >&2
  exit 2
fi
if ! [[ $SEED =~ ^[0-9]+$ ]] || (( ${#SEED} > 9 )); then
  echo "chaos_test: --seed wants a number of up to 9 digits; got '$SEED'" >&2
  exit 2
fi
RENJU="$(cd "$BUILD" 2>/dev/null && pwd)/renju"
if [[ ! -x $RENJU || ! -x $(dirname "$RENJU")/renju-full ]]; then
  echo "chaos_test: no renju and renju-full in '$BUILD'; build them first" \
    "(cmake --build build --target renju renju-full)" >&2
  exit 2
fi
for tool in sqlite3 sha256sum; do
  command -v $tool >/dev/null || { echo "chaos_test: needs $tool" >&2; exit 2; }
done

T="$(mktemp -d /tmp/renju-chaos.XXXXXX)"
RUN="$T/run"
LOGS="$T/logs"
mkdir -p "$LOGS"
START=$SECONDS
ROLES=(trainer server w1 w2)
declare -A PID        # role -> pid of its renju process
declare -A KILLS=([trainer]=0 [server]=0 [w1]=0 [w2]=0)
declare -A PAUSES=([trainer]=0 [server]=0 [w1]=0 [w2]=0)
declare -A EXITS=([trainer]=0 [server]=0 [w1]=0 [w2]=0)  # by themselves
FAILED=0
RESULTS=()
RESTART_FAILURES=0  # restarts that did not come up in time (supervise retries)

log() { printf '[%5ds] %s\n' $((SECONDS - START)) "$*"; }
check() {  # check NAME CONDITION-STATUS DETAIL
  if [[ $2 -eq 0 ]]; then RESULTS+=("PASS  $1: $3")
  else RESULTS+=("FAIL  $1: $3"); FAILED=1; fi
}

cleanup() {
  for role in "${!PID[@]}"; do
    kill -CONT "${PID[$role]}" 2>/dev/null
    kill -9 "${PID[$role]}" 2>/dev/null
  done
  wait 2>/dev/null
  if [[ $FAILED -eq 0 && $KEEP -eq 0 ]]; then rm -rf "$T"
  else echo "chaos_test: logs and run folder kept in $T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The smallest loop (tests/data/e2e.textproto), with a generation every 40
# steps so that publishes and checkpoints both happen between faults.
sed -e 's/steps_per_generation: 20/steps_per_generation: 40/' \
  "$ROOT/tests/data/e2e.textproto" >"$T/config.textproto"
CONFIG="$T/config.textproto"

# wait_until SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.5 s; the
# limit guards against hangs (minutes a working process never needs).
wait_until() {
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  while ! "$@"; do
    if (( SECONDS >= end )); then log "timed out waiting for $what"; return 1; fi
    sleep 0.5
  done
}

sql() { sqlite3 -cmd '.timeout 10000' "$RUN/run.sqlite" "$1" 2>/dev/null; }
alive() { [[ -n ${PID[$1]:-} ]] && kill -0 "${PID[$1]}" 2>/dev/null; }
# The step in the training state's metadata (its text header), or -1.
state_step() {
  local s
  s=$(head -c 65536 "$RUN/trainer/training_state.ckpt" 2>/dev/null |
    grep -a -m1 -o '^step [0-9]*' | awk '{print $2}')
  echo "${s:--1}"
}

TRAINER_ADDR=127.0.0.1:0
SERVER_ADDR=127.0.0.1:0
# Each process runs in a session of its own (setsid; it execs in place, as
# the script's background children lead no process group, so $! stays its
# pid). In the script's group, a process stopped with SIGSTOP would get
# SIGHUP from the kernel once that group is orphaned (the script run in
# the background of a shell that has exited).

start_trainer() {
  rm -f "$T/trainer.address"
  setsid "$RENJU" trainer --config "$CONFIG" --run-dir "$RUN" \
    --listen "$TRAINER_ADDR" --address-file "$T/trainer.address" \
    >>"$LOGS/trainer.log" 2>&1 &
  PID[trainer]=$!
  wait_until 300 "the trainer to listen" test -s "$T/trainer.address" || return 1
  TRAINER_ADDR=$(tr -d '\n' <"$T/trainer.address")  # the port, for restarts
}
start_server() {
  rm -f "$T/server.address"
  setsid "$RENJU" serve --config "$CONFIG" --trainer "$TRAINER_ADDR" \
    --listen "$SERVER_ADDR" --address-file "$T/server.address" \
    --model-dir "$T/server-models" >>"$LOGS/server.log" 2>&1 &
  PID[server]=$!
  wait_until 300 "the server to listen" test -s "$T/server.address" || return 1
  SERVER_ADDR=$(tr -d '\n' <"$T/server.address")
}
start_worker() {  # start_worker ID [extra flags]
  local id=$1; shift
  local seed=1; [[ $id == w2 ]] && seed=2
  local extra=()
  [[ $id == w2 ]] && extra=(--evaluator "$SERVER_ADDR")
  setsid "$RENJU" selfplay --config "$CONFIG" --trainer "$TRAINER_ADDR" \
    --worker-id "$id" --out "$T/$id" --seed "$seed" "${extra[@]}" "$@" \
    >>"$LOGS/$id.log" 2>&1 &
  PID[$id]=$!
}
start_role() {
  case "$1" in
    trainer) start_trainer ;;
    server) start_server ;;
    *) start_worker "$1" --games 0 ;;
  esac
}

# Restarts, and counts, whatever exited by itself.
declare -a RESUMES=()  # "expected:found" per trainer restart
LAST_STATE_STEP=-1
STATE_STEP_BACKWARDS=0
restart_trainer() {  # after it died: it must resume at the step it saved
  local expected; expected=$(state_step)
  echo "==== chaos: restart $(( ${#RESUMES[@]} + 1 )) ====" >>"$LOGS/trainer.log"
  local offset; offset=$(stat -c %s "$LOGS/trainer.log")
  start_trainer || { log "the trainer did not restart"; return 1; }
  local found
  # The resume line this start wrote (Restore logs it before listening);
  # read from where the log ended, as the log grows by megabytes an hour.
  found=$(tail -c +$((offset + 1)) "$LOGS/trainer.log" |
    grep -m1 -o 'resumed training at step [0-9]*' | awk '{print $5}')
  RESUMES+=("$expected:${found:--1}")
}
supervise() {
  local role rc
  for role in "${ROLES[@]}"; do
    alive "$role" && continue
    wait "${PID[$role]}" 2>/dev/null; rc=$?
    EXITS[$role]=$((EXITS[$role] + 1))
    log "$role exited by itself (status $rc); restarting it"
    if [[ $role == trainer ]]; then restart_trainer; else start_role "$role"; fi
  done
}
sample_state_step() {
  local s; s=$(state_step)
  if (( s < LAST_STATE_STEP )); then
    STATE_STEP_BACKWARDS=1
    log "the training state's step went back from $LAST_STATE_STEP to $s"
  fi
  (( s > LAST_STATE_STEP )) && LAST_STATE_STEP=$s
}
# Sleeps SECONDS in steps of one, restarting what exits meanwhile.
supervised_sleep() {
  local end=$((SECONDS + $1))
  while (( SECONDS < end )); do sleep 1; supervise; done
}

fault() {  # one event of the schedule; draws from RANDOM in a fixed order
  local role=${ROLES[RANDOM % 4]} pause=$((RANDOM % 6 == 0))
  local stop_s=$((35 + RANDOM % 16)) down_s=$((1 + RANDOM % 5))
  sample_state_step
  supervise
  if (( pause )); then
    log "SIGSTOP $role for ${stop_s}s"
    PAUSES[$role]=$((PAUSES[$role] + 1))
    kill -STOP "${PID[$role]}"
    sleep "$stop_s"
    kill -CONT "${PID[$role]}"
    return 0
  fi
  log "kill -9 $role; restart in ${down_s}s"
  KILLS[$role]=$((KILLS[$role] + 1))
  kill -9 "${PID[$role]}"
  wait "${PID[$role]}" 2>/dev/null
  sleep "$down_s"
  if [[ $role == trainer ]]; then
    restart_trainer || return 1
  else
    start_role "$role" || return 1
  fi
}

# --- the run ----------------------------------------------------------------
log "chaos run: $MINUTES min, seed $SEED, folder $T"
start_trainer || { check "start" 1 "the trainer did not start"; exit 1; }
start_server || { check "start" 1 "the server did not start"; exit 1; }
start_worker w1 --games 0
start_worker w2 --games 0
log "trainer on $TRAINER_ADDR, server on $SERVER_ADDR"
has_games() { local n; n=$(sql "select count(*) from games"); (( ${n:-0} > 0 )); }
wait_until 600 "the first game" has_games ||
  { check "start" 1 "no game arrived"; exit 1; }

RANDOM=$SEED
END=$((SECONDS + MINUTES * 60))
while (( SECONDS < END )); do
  supervised_sleep $((15 + RANDOM % 46))
  (( SECONDS < END )) || break
  fault || RESTART_FAILURES=$((RESTART_FAILURES + 1))
done
supervise
sample_state_step
log "faults over: kills trainer ${KILLS[trainer]} server ${KILLS[server]} w1 ${KILLS[w1]} w2 ${KILLS[w2]}"

# Training and rating go on: one more generation, published and rated.
GEN_END=$(sql "select coalesce(max(generation),0) from models")
STEP_END=$(state_step)
rated_after() {
  local g; g=$(sql "select coalesce(max(generation_a),-1) from matches")
  (( ${g:--1} > GEN_END ))
}
wait_until 900 "a generation after generation $GEN_END, rated" rated_after
GEN_RATED=$(sql "select coalesce(max(generation_a),-1) from matches")

# Drain: stop the workers, then let each deliver its folder and exit.
for w in w1 w2; do kill -TERM "${PID[$w]}" 2>/dev/null; done
for w in w1 w2; do wait "${PID[$w]}" 2>/dev/null; done
declare -A DRAIN_RC
for w in w1 w2; do start_worker "$w" --games 1; done
worker_done() { ! alive "$1"; }
for w in w1 w2; do
  if wait_until 900 "$w to deliver its games" worker_done "$w"; then
    wait "${PID[$w]}"; DRAIN_RC[$w]=$?
  else
    DRAIN_RC[$w]=timeout
  fi
  unset "PID[$w]"
done
kill -TERM "${PID[trainer]}" "${PID[server]}" 2>/dev/null
wait "${PID[trainer]}"; TRAINER_RC=$?
wait "${PID[server]}" 2>/dev/null
unset 'PID[trainer]' 'PID[server]'
sample_state_step

# --- checks -----------------------------------------------------------------
# Uids as the workers logged them, one per line, sorted.
grep -ho 'acknowledged .*' "$LOGS"/w1.log "$LOGS"/w2.log | tr ' ' '\n' |
  grep '=' >"$T/acks.txt"
grep -E '=(stored|duplicate)$' "$T/acks.txt" | cut -d= -f1 | sort -u >"$T/acked.txt"
REJECTED=$(grep -c '=rejected$' "$T/acks.txt")
grep -ho 'kept game [^ ]*' "$LOGS"/w1.log "$LOGS"/w2.log | awk '{print $3}' |
  sort -u >"$T/kept.txt"
sql "select uid from games" | sort >"$T/stored_all.txt"
sort -u "$T/stored_all.txt" >"$T/stored.txt"
find "$T/w1" "$T/w2" -maxdepth 1 -name '*.game' -printf '%f\n' 2>/dev/null |
  sed 's/\.game$//' | sort -u >"$T/pending.txt"
sort -u "$T/kept.txt" "$T/stored.txt" >"$T/finished.txt"

FINISHED=$(wc -l <"$T/finished.txt")
ACKED=$(wc -l <"$T/acked.txt")
STORED=$(wc -l <"$T/stored_all.txt")
DISTINCT=$(wc -l <"$T/stored.txt")
PENDING=$(wc -l <"$T/pending.txt")
ACKED_MISSING=$(comm -23 "$T/acked.txt" "$T/stored.txt" | wc -l)
LOST=$(sort -u "$T/stored.txt" "$T/pending.txt" | comm -23 "$T/kept.txt" - | wc -l)
check "acknowledged games stored" $(( ACKED_MISSING == 0 ? 0 : 1 )) \
  "$ACKED acknowledged, $ACKED_MISSING of them not in run.sqlite"
check "no game stored twice" $(( STORED == DISTINCT ? 0 : 1 )) \
  "$STORED rows, $DISTINCT distinct uids"
check "no kept game lost" $(( LOST == 0 ? 0 : 1 )) \
  "$(wc -l <"$T/kept.txt") kept, $LOST neither stored nor pending"
check "workers drained their folders" \
  $([[ ${DRAIN_RC[w1]} == 0 && ${DRAIN_RC[w2]} == 0 && $PENDING == 0 ]]; echo $?) \
  "exit w1 ${DRAIN_RC[w1]}, w2 ${DRAIN_RC[w2]}; $PENDING games left pending"
check "every game finished was acknowledged" \
  $(( FINISHED == ACKED && ACKED == DISTINCT ? 0 : 1 )) \
  "finished $FINISHED, acknowledged $ACKED, stored $DISTINCT"
check "no game rejected" $(( REJECTED == 0 ? 0 : 1 )) "$REJECTED rejected"

INTEGRITY=$(sql "PRAGMA integrity_check")
check "integrity_check" $([[ $INTEGRITY == ok ]]; echo $?) "${INTEGRITY:-no answer}"

MODELS=0; MODELS_OK=0
while IFS='|' read -r gen path sha; do
  MODELS=$((MODELS + 1))
  actual=$(sha256sum "$path" 2>/dev/null | awk '{print $1}')
  if [[ $actual == "$sha" ]]; then MODELS_OK=$((MODELS_OK + 1))
  else log "generation $gen: $path has sha256 ${actual:-none}, the registry $sha"; fi
done < <(sql "select generation, path, sha256 from models order by generation")
check "published models match the registry" \
  $(( MODELS > 0 && MODELS == MODELS_OK ? 0 : 1 )) "$MODELS_OK of $MODELS"

RESUME_BAD=0
for r in "${RESUMES[@]}"; do
  expected=${r%%:*} found=${r##*:}
  # No state yet (-1): a fresh start, which logs no resume.
  if (( expected >= 0 && found != expected )); then RESUME_BAD=$((RESUME_BAD + 1)); fi
done
check "trainer steps never went back past a checkpoint" \
  $(( RESUME_BAD == 0 && STATE_STEP_BACKWARDS == 0 ? 0 : 1 )) \
  "${#RESUMES[@]} restarts (saved:resumed ${RESUMES[*]:-none}), $RESUME_BAD resumed elsewhere"
FINAL_STEP=$(state_step)
GEN_FINAL=$(sql "select coalesce(max(generation),0) from models")
check "training and rating went on" \
  $(( FINAL_STEP > STEP_END && GEN_RATED > GEN_END ? 0 : 1 )) \
  "step $STEP_END -> $FINAL_STEP, generation $GEN_END -> $GEN_FINAL (rated up to $GEN_RATED) after the faults"
EXITED=$((EXITS[trainer] + EXITS[server] + EXITS[w1] + EXITS[w2]))
check "no process exited by itself" $(( EXITED == 0 ? 0 : 1 )) \
  "trainer ${EXITS[trainer]}, server ${EXITS[server]}, w1 ${EXITS[w1]}, w2 ${EXITS[w2]} (logs in $LOGS)"
check "restarts came up" $(( RESTART_FAILURES == 0 ? 0 : 1 )) \
  "$RESTART_FAILURES restarts did not listen within 300 s"
check "trainer stopped cleanly" $(( TRAINER_RC == 0 ? 0 : 1 )) "exit status $TRAINER_RC"

echo
echo "chaos test: ${#RESULTS[@]} checks, $((SECONDS - START)) s"
printf '  %s\n' "${RESULTS[@]}"
VERDICT=PASS; (( FAILED )) && VERDICT=FAIL
echo "chaos: $MINUTES min seed $SEED; kills trainer ${KILLS[trainer]} server ${KILLS[server]} w1 ${KILLS[w1]} w2 ${KILLS[w2]}; pauses $((PAUSES[trainer] + PAUSES[server] + PAUSES[w1] + PAUSES[w2])); exits by themselves trainer ${EXITS[trainer]} server ${EXITS[server]} w1 ${EXITS[w1]} w2 ${EXITS[w2]}; games finished $FINISHED / acknowledged $ACKED / stored $STORED / distinct $DISTINCT, lost $LOST; integrity $INTEGRITY; models $MODELS_OK/$MODELS sha256 ok; step $FINAL_STEP, generation $GEN_FINAL; $VERDICT"
exit $FAILED
