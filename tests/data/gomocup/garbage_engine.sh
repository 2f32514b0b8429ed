#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: accepts START, then answers a
# move request with a message and a line that is not a move.
while IFS= read -r line; do
  case ${line%$'\r'} in
    START*) echo OK ;;
    BEGIN | TURN* | DONE) echo "MESSAGE let me think"; echo "I resign, human" ;;
    END) exit 0 ;;
  esac
done
