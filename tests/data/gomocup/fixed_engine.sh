#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: answers START with $2 (default
# OK) and every move request with $1, whatever the position, followed by the
# line $3 if given. With $4, a FIFO, it writes a line to the FIFO once all of
# a move's lines are on its output, so a test can wait for them to arrive.
while IFS= read -r line; do
  case ${line%$'\r'} in
    START*) echo "${2:-OK}" ;;
    BEGIN | TURN* | DONE)
      echo "$1"
      [[ -n $3 ]] && echo "$3"
      [[ -n $4 ]] && echo written >"$4"
      ;;
    END) exit 0 ;;
  esac
done
