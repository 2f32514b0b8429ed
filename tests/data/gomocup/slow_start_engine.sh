#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: a slow start. Takes $1
# seconds over its first move (as an engine loading big weights would), then
# sleeps far past any time limit on every later move.
first=1
while IFS= read -r line; do
  case ${line%$'\r'} in
    START*) echo OK ;;
    BEGIN | TURN* | DONE)
      if ((first)); then
        first=0
        sleep "$1"
        echo 7,7
      else
        sleep 30
      fi
      ;;
    END) exit 0 ;;
  esac
done
