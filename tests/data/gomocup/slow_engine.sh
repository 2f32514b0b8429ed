#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: accepts START, then sleeps far
# past any time limit when asked for a move.
while IFS= read -r line; do
  case ${line%$'\r'} in
    START*) echo OK ;;
    BEGIN | TURN* | DONE) sleep 30 ;;
    END) exit 0 ;;
  esac
done
