#!/usr/bin/env bash
# Multi-host test on one machine (run as root; not part of CI).
#
# The trainer, the inference server, two self-play workers and a Suggest
# client each live in their own network namespace, wired to a bridge in a
# sixth ("hub") namespace by veth pairs, so they talk over real interfaces
# with addresses of their own (10.231.0.0/24, inside the namespaces only):
#
#   trainer 10.231.0.1:7070   TLS, per-worker tokens (w1, w2, server)
#   server  10.231.0.2:50052  TLS, bearer token; follows the trainer's best
#   w1      10.231.0.11       plays with its own copy of the model
#   w2      10.231.0.12       evaluates through the inference server
#   client  10.231.0.21       `renju suggest` through the server
#
# A throwaway CA signs one server certificate whose SANs are the trainer's
# and the server's IPs. During the run it
#   1. cuts w1's link at the hub for CUT_SECONDS (longer than the clients'
#      30 s RPC deadline, so uploads fail and are retried),
#   2. kill -9s the trainer and restarts it on the same run folder,
#   3. waits until the trainer publishes a new generation and the old
#      server instance swaps to it (the server's trainer client reconnected),
#   4. kill -9s the inference server and restarts it while w2 plays
#      through it.
# Checks at the end: every game a worker finished is stored exactly once
# (per worker and in all), no game is left pending on a worker, both workers
# stored games after the trainer's restart, training steps and generations
# advanced after the restart, Suggest worked before and after the server
# restart, the restarted server serves the trainer's newest best model.
#
# Usage: tools/multihost_test.sh [BUILD_DIR]   (default: build)
# Environment: GAMES_W1, GAMES_W2 (games per worker, default 160 and 100:
# w2, which evaluates through the server, is the slower; both must still be
# playing when the trainer restarts), CUT_SECONDS (default 40),
# TIME_LIMIT (seconds for the whole run, default 480), KEEP=1 keeps the
# temporary folder even on success.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
RENJU="$BUILD/renju"
declare -A GAMES=([w1]="${GAMES_W1:-160}" [w2]="${GAMES_W2:-100}")
CUT_SECONDS="${CUT_SECONDS:-40}"
TIME_LIMIT="${TIME_LIMIT:-480}"
NS=rzmh  # namespace prefix
NET=10.231.0
TRAINER_ADDR="$NET.1:7070"
SERVER_ADDR="$NET.2:50052"

if [[ $EUID -ne 0 ]]; then echo "multihost_test: run as root" >&2; exit 2; fi
if [[ ! -x $RENJU ]]; then echo "multihost_test: no $RENJU" >&2; exit 2; fi
for tool in ip openssl sqlite3; do
  command -v $tool >/dev/null || { echo "multihost_test: needs $tool (apt-get install iproute2 openssl sqlite3)" >&2; exit 2; }
done

T="$(mktemp -d /tmp/renju-multihost.XXXXXX)"
START=$SECONDS
declare -A PID   # role -> pid of its renju process
declare -A W_RC  # worker -> exit status
FAILED=0
RESULTS=()

log() { printf '[%4ds] %s\n' $((SECONDS - START)) "$*"; }
check() {  # check NAME CONDITION-STATUS DETAIL
  if [[ $2 -eq 0 ]]; then RESULTS+=("PASS  $1: $3")
  else RESULTS+=("FAIL  $1: $3"); FAILED=1; fi
}

namespaces() { ip netns list | awk '{print $1}' | grep "^$NS-" || true; }

cleanup() {
  for role in "${!PID[@]}"; do kill -9 "${PID[$role]}" 2>/dev/null; done
  for ns in $(namespaces); do
    # Whatever still runs inside our namespaces was started by this script.
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
  done
  wait 2>/dev/null
  if [[ $FAILED -eq 0 && -z ${KEEP:-} ]]; then rm -rf "$T"
  else echo "multihost_test: logs and run folder kept in $T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Seconds left of TIME_LIMIT.
left() { echo $((TIME_LIMIT - (SECONDS - START))); }

# wait_until SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.5 s.
wait_until() {
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  (( end > START + TIME_LIMIT )) && end=$((START + TIME_LIMIT))
  while ! "$@"; do
    if (( SECONDS >= end )); then log "timed out waiting for $what"; return 1; fi
    sleep 0.5
  done
}

abort() {
  log "ABORT: $*"
  FAILED=1
  for f in "$T"/logs/*.log; do echo "--- tail $f"; tail -n 15 "$f"; done
  exit 1
}

# --- network --------------------------------------------------------------
for ns in $(namespaces); do ip netns del "$ns"; done  # a crashed earlier run
setup_network() {
  ip netns add $NS-hub || return 1
  ip -n $NS-hub link set lo up
  ip -n $NS-hub link add br0 type bridge || return 1
  ip -n $NS-hub link set br0 up
  local role host
  for entry in tr:1 srv:2 w1:11 w2:12 cl:21; do
    role=${entry%%:*}; host=${entry##*:}
    ip netns add $NS-$role || return 1
    ip -n $NS-$role link set lo up
    ip -n $NS-hub link add h-$role type veth peer name eth0 netns $NS-$role || return 1
    ip -n $NS-hub link set h-$role master br0
    ip -n $NS-hub link set h-$role up
    ip -n $NS-$role addr add $NET.$host/24 dev eth0
    ip -n $NS-$role link set eth0 up
  done
}
setup_network || abort "cannot build the namespaces"
log "namespaces: $(namespaces | tr '\n' ' ')"

# --- credentials ----------------------------------------------------------
mkdir -p "$T/pki" "$T/logs"
(
  cd "$T/pki" || exit 1
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=renju test CA" \
    -keyout ca.key -out ca.pem
  openssl req -newkey rsa:2048 -nodes -subj "/CN=renju services" \
    -keyout server.key -out server.csr
  printf 'subjectAltName=IP:%s,IP:%s\n' "$NET.1" "$NET.2" > san.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
    -days 1 -extfile san.ext -out server.pem
) >"$T/logs/openssl.log" 2>&1 || abort "openssl failed"
PKI="$T/pki"
W1_TOKEN=$(openssl rand -hex 16)
W2_TOKEN=$(openssl rand -hex 16)
SRV_TRAINER_TOKEN=$(openssl rand -hex 16)
CLIENT_TOKEN=$(openssl rand -hex 16)
cat >"$T/tokens.txt" <<EOF
# worker-id token
w1 $W1_TOKEN
w2 $W2_TOKEN
server $SRV_TRAINER_TOKEN
EOF
chmod 600 "$T/tokens.txt" "$PKI"/*.key

# --- config: tests/data/e2e.textproto with slower games, fewer generations --
sed -e 's/visits: 8$/visits: 24/' \
    -e 's/steps_per_generation: 20/steps_per_generation: 40/' \
    -e 's/^  games: 4$/  games: 2/' \
    "$ROOT/tests/data/e2e.textproto" >"$T/config.textproto"
CONFIG="$T/config.textproto"

# --- processes ------------------------------------------------------------
in_ns() { local ns=$1; shift; ip netns exec "$NS-$ns" "$@"; }

start_trainer() {
  rm -f "$T/trainer.address"
  in_ns tr "$RENJU" trainer --config "$CONFIG" --run-dir "$T/run" \
    --listen "$TRAINER_ADDR" --address-file "$T/trainer.address" \
    --tokens "$T/tokens.txt" --tls-cert "$PKI/server.pem" \
    --tls-key "$PKI/server.key" >>"$T/logs/trainer.log" 2>&1 &
  PID[trainer]=$!
  wait_until 30 "the trainer to listen" test -s "$T/trainer.address"
}

start_server() {
  rm -f "$T/server.address"
  in_ns srv "$RENJU" serve --config "$CONFIG" --trainer "$TRAINER_ADDR" \
    --trainer-token "$SRV_TRAINER_TOKEN" --tls-root-cert "$PKI/ca.pem" \
    --listen "$SERVER_ADDR" --address-file "$T/server.address" \
    --tls-cert "$PKI/server.pem" --tls-key "$PKI/server.key" \
    --token "$CLIENT_TOKEN" --model-dir "$T/server-models" \
    >>"$T/logs/server.log" 2>&1 &
  PID[server]=$!
  wait_until 60 "the server to listen" test -s "$T/server.address"
}

start_worker() {  # start_worker ID TOKEN SEED [extra flags]
  local id=$1 token=$2 seed=$3; shift 3
  in_ns "$id" "$RENJU" selfplay --config "$CONFIG" --trainer "$TRAINER_ADDR" \
    --token "$token" --tls-root-cert "$PKI/ca.pem" --worker-id "$id" \
    --out "$T/$id" --games "${GAMES[$id]}" --seed "$seed" "$@" \
    >>"$T/logs/$id.log" 2>&1 &
  PID[$id]=$!
}

# suggest LABEL: one Suggest through the server from the client namespace;
# prints the generation it was answered with, or nothing.
suggest() {
  in_ns cl "$RENJU" suggest --server "$SERVER_ADDR" --tls-root-cert "$PKI/ca.pem" \
    --token "$CLIENT_TOKEN" --moves "h8 h9 i9" --visits 16 --json \
    --deadline-ms 20000 >"$T/logs/suggest-$1.json" 2>"$T/logs/suggest-$1.err" ||
    return 1
  grep -o '"model_generation":[0-9]*' "$T/logs/suggest-$1.json" | cut -d: -f2
}

sql() { sqlite3 -cmd '.timeout 5000' "$T/run/run.sqlite" "$1" 2>/dev/null; }
best_generation() { sql "select coalesce(max(generation),-1) from models where status='best'"; }
max_generation() { sql "select coalesce(max(generation),-1) from models"; }
stored_by() { sql "select count(*) from games where worker_id='$1'"; }
# The step of the last "train step N" line in the trainer's log.
last_step() { grep -o 'train step [0-9]*' "$T/logs/trainer.log" | tail -n1 | awk '{print $3}'; }
alive() { kill -0 "${PID[$1]}" 2>/dev/null; }

log "starting the trainer"
start_trainer || abort "trainer did not start"
log "starting the inference server"
start_server || abort "server did not start"
GEN_BEFORE_SERVER=$(suggest before)
check "suggest before the server restart" $([[ -n $GEN_BEFORE_SERVER ]]; echo $?) \
  "answered with generation ${GEN_BEFORE_SERVER:-none} ($(cat "$T/logs/suggest-before.err" 2>/dev/null | tail -n1))"

log "starting workers w1 (own model) and w2 (through the server), ${GAMES[w1]} and ${GAMES[w2]} games"
start_worker w1 "$W1_TOKEN" 1
start_worker w2 "$W2_TOKEN" 2 --evaluator "$SERVER_ADDR" \
  --evaluator-token "$CLIENT_TOKEN" --evaluator-tls-root-cert "$PKI/ca.pem"

has_games() { (( $(stored_by w1) >= 4 && $(stored_by w2) >= 4 )); }
wait_until 90 "games from both workers" has_games || abort "no games arrived"
log "games stored: w1 $(stored_by w1), w2 $(stored_by w2)"

# 1. The cut.
log "cutting w1's link for ${CUT_SECONDS}s"
ip -n $NS-hub link set h-w1 down
CUT_STORED=$(stored_by w1)
sleep "$CUT_SECONDS"
CUT_STORED_AFTER=$(stored_by w1)
ip -n $NS-hub link set h-w1 up
log "w1's link is back (w1 stored $CUT_STORED -> $CUT_STORED_AFTER during the cut)"

# 2. The trainer restart.
alive w1 && alive w2 || log "warning: a worker already finished; raise GAMES_W1/GAMES_W2"
GEN_AT_KILL=$(max_generation)
STEP_AT_KILL=$(last_step)
log "kill -9 the trainer at generation $GEN_AT_KILL, step ${STEP_AT_KILL:-0}"
kill -9 "${PID[trainer]}"; wait "${PID[trainer]}" 2>/dev/null
sleep 3
echo "==== restarted ====" >>"$T/logs/trainer.log"
RESTART_MS=$(date +%s%3N)
start_trainer || abort "the trainer did not restart"
log "trainer restarted"

# 3. Training continues; the (old) server follows the new best.
new_generation() { (( $(best_generation) > GEN_AT_KILL )); }
wait_until 150 "a generation after the restart" new_generation
GEN_AFTER_RESTART=$(best_generation)
log "trainer published generation $GEN_AFTER_RESTART after the restart"
server_follows() { local g; g=$(suggest follow) && (( g >= GEN_AFTER_RESTART )); }
wait_until 30 "the server to serve generation $GEN_AFTER_RESTART" server_follows
GEN_FOLLOW=$(suggest follow)
check "server reconnected to the restarted trainer" \
  $([[ -n $GEN_FOLLOW ]] && (( GEN_FOLLOW > GEN_AT_KILL )); echo $?) \
  "serves generation ${GEN_FOLLOW:-none}; trainer had $GEN_AT_KILL at the kill"

# 4. The server restart, while w2 plays through it.
alive w2 || log "warning: w2 already finished; raise GAMES_W1/GAMES_W2"
W2_ALIVE_AT_SERVER_KILL=$(alive w2; echo $?)
log "kill -9 the inference server"
kill -9 "${PID[server]}"; wait "${PID[server]}" 2>/dev/null
sleep 3
SERVER_RESTART_MS=$(date +%s%3N)
start_server || abort "the server did not restart"
GEN_AFTER_SERVER=$(suggest after)
check "suggest after the server restart" $([[ -n $GEN_AFTER_SERVER ]]; echo $?) \
  "answered with generation ${GEN_AFTER_SERVER:-none} ($(tail -n1 "$T/logs/suggest-after.err" 2>/dev/null))"

# Workers end by themselves once every game they played is acknowledged.
log "waiting for the workers to finish"
workers_done() { ! alive w1 && ! alive w2; }
wait_until "$(left)" "the workers to finish" workers_done
for w in w1 w2; do
  if alive "$w"; then W_RC[$w]=timeout; else wait "${PID[$w]}"; W_RC[$w]=$?; fi
done 2>/dev/null
log "workers ended: w1 ${W_RC[w1]}, w2 ${W_RC[w2]}"

# Training went on after the restart: a step beyond the one at the kill and
# a generation beyond the one at the kill.
steps_advanced() {
  local s; s=$(last_step); [[ -n $s ]] && (( s > ${STEP_AT_KILL:-0} ))
}
wait_until 30 "a training step after the restart" steps_advanced
STEP_END=$(last_step)
GEN_END=$(max_generation)
check "training continued after the trainer restart" \
  $(steps_advanced && (( GEN_END > GEN_AT_KILL )); echo $?) \
  "step ${STEP_AT_KILL:-0} -> ${STEP_END:-none}, generation $GEN_AT_KILL -> $GEN_END"

# The restarted server follows the trainer's newest best, too.
sleep 2
FINAL_BEST=$(best_generation)
server_on_best() { local g; g=$(suggest final) && (( g == $(best_generation) )); }
wait_until 20 "the server to serve the newest best" server_on_best
GEN_FINAL=$(suggest final)
check "restarted server serves the newest best" \
  $([[ -n $GEN_FINAL ]] && (( GEN_FINAL == $(best_generation) )); echo $?) \
  "serves ${GEN_FINAL:-none}, trainer's best $(best_generation)"

# Stop the trainer cleanly (saves its state) and the server.
kill -TERM "${PID[trainer]}" "${PID[server]}" 2>/dev/null
wait "${PID[trainer]}" "${PID[server]}" 2>/dev/null
unset 'PID[trainer]' 'PID[server]' 'PID[w1]' 'PID[w2]'

# --- checks ---------------------------------------------------------------
TOTAL=0
for w in w1 w2; do
  line=$(grep -o "$w: finished [0-9]* games, delivered [0-9]*" "$T/logs/$w.log" | tail -n1)
  finished=$(awk '{print $3}' <<<"$line")
  delivered=$(awk '{print $6}' <<<"$line")
  stored=$(stored_by "$w")
  pending=$(find "$T/$w" -maxdepth 1 -name '*.game' 2>/dev/null | wc -l)
  after=$(sql "select count(*) from games where worker_id='$w' and received_unix_ms > $RESTART_MS")
  failed_uploads=$(grep -c 'upload failed' "$T/logs/$w.log")
  check "$w exited by itself" $([[ ${W_RC[$w]} == 0 ]]; echo $?) "exit status ${W_RC[$w]}"
  check "$w's games stored exactly once" \
    $([[ -n $finished && $finished == "${GAMES[$w]}" && $finished == "$stored" && $delivered == "$finished" && $pending == 0 ]]; echo $?) \
    "finished ${finished:-?}, delivered ${delivered:-?}, stored $stored, left pending $pending"
  check "$w delivered after the trainer restart" $(( after > 0 ? 0 : 1 )) \
    "$after games stored after the restart; $failed_uploads failed uploads retried"
  TOTAL=$((TOTAL + ${finished:-0}))
done
read -r COUNT DISTINCT < <(sql "select count(*), count(distinct uid) from games" | tr '|' ' ')
OTHER=$(sql "select count(*) from games where worker_id not in ('w1','w2')")
check "all games stored exactly once" \
  $([[ $COUNT == "$TOTAL" && $DISTINCT == "$COUNT" && $OTHER == 0 ]]; echo $?) \
  "workers finished $TOTAL, stored $COUNT, distinct uids $DISTINCT"
REJECTED=$(sql "select coalesce(sum(games_rejected),0) from workers")
check "no game rejected" $(( REJECTED == 0 ? 0 : 1 )) "$REJECTED rejected"
W1_FAILS=$(grep -c 'upload failed' "$T/logs/w1.log")
check "w1 felt the cut and recovered" $(( W1_FAILS > 0 ? 0 : 1 )) \
  "$W1_FAILS failed uploads, stored $CUT_STORED -> $CUT_STORED_AFTER during the cut"
W2_AFTER_SERVER=$(sql "select count(*) from games where worker_id='w2' and received_unix_ms > $SERVER_RESTART_MS")
check "w2 played through the restarted server" \
  $([[ $W2_ALIVE_AT_SERVER_KILL == 0 ]] && (( W2_AFTER_SERVER > 0 )); echo $?) \
  "$W2_AFTER_SERVER games stored after the server restart"
check "bounded in time" $(( SECONDS - START <= TIME_LIMIT ? 0 : 1 )) \
  "$((SECONDS - START)) s of $TIME_LIMIT"

echo
echo "multi-host test: ${#RESULTS[@]} checks, $((SECONDS - START)) s"
printf '  %s\n' "${RESULTS[@]}"
if [[ $FAILED -eq 0 ]]; then echo "PASS"; else echo "FAIL"; fi
exit $FAILED
