#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: answers START with $2 (default
# OK) and every move request with $1, whatever the position, followed by the
# line $3 if given.
while IFS= read -r line; do
  case ${line%$'\r'} in
    START*) echo "${2:-OK}" ;;
    BEGIN | TURN* | DONE) echo "$1"; [[ -n $3 ]] && echo "$3" ;;
    END) exit 0 ;;
  esac
done
