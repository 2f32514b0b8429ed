# Sourced by tools/run_tests.sh and tools/run_sanitizer_tests.sh: a stage
# that a TERM or INT stops at once, with everything it started.
#
# run_stage CMD...: runs CMD in its own process group (setsid) and waits
# for it. Waiting with `wait` rather than running CMD in the foreground
# lets a signal end the script at once: bash holds traps back until a
# foreground command ends.
# stop_stage: kills the running stage's process group, if any; the
# script's EXIT trap calls it.
stage_pid=""

run_stage() {
  setsid "$@" &
  stage_pid=$!
  local status=0
  wait "$stage_pid" || status=$?
  stage_pid=""
  return "$status"
}

stop_stage() {
  [[ -z "$stage_pid" ]] || kill -- -"$stage_pid" 2>/dev/null || true
}
