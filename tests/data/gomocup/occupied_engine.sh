#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: answers TURN x,y with the same
# point, which the opponent has just taken.
while IFS= read -r line; do
  line=${line%$'\r'}
  case $line in
    START*) echo OK ;;
    BEGIN) echo 7,7 ;;
    TURN*) echo "${line#TURN }" ;;
    END) exit 0 ;;
  esac
done
