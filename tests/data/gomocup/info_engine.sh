#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: answers BEGIN with the point
# x,0 where x is the last INFO max_node it was told (0 when none), so a test
# sees which node limit reached the engine.
max_node=0
while IFS= read -r line; do
  line=${line%$'\r'}
  case $line in
    START*) echo OK ;;
    "INFO max_node "*) max_node=${line#INFO max_node } ;;
    BEGIN) echo "$max_node,0" ;;
    ABOUT) echo 'name="fake-info", version="1.0"' ;;
    END) exit 0 ;;
  esac
done
