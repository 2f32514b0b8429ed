#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: answers START with OK and every
# move request with the first empty point in reading order from the top-left,
# remembering the stones it was told about. Writes MESSAGE and DEBUG lines
# before each move, as real engines do.
# Swap2: with arguments ANSWER0 ANSWER3 ANSWER5 it answers SWAP2BOARD after
# 0, 3 and 5 stones with them, verbatim; without, it answers UNKNOWN, as an
# engine that does not know the command.
declare -A taken
size=15
in_board=0
in_swap2=0
swap2_stones=0
swap2_answers=("$@")

reply_move() {
  echo "MESSAGE thinking"
  echo "DEBUG fake engine"
  for ((y = 0; y < size; y++)); do
    for ((x = 0; x < size; x++)); do
      if [[ -z "${taken[$x,$y]}" ]]; then
        taken[$x,$y]=1
        echo "$x,$y"
        return
      fi
    done
  done
}

while IFS= read -r line; do
  line=${line%$'\r'}
  if ((in_swap2)); then
    if [[ $line == DONE ]]; then
      in_swap2=0
      if ((${#swap2_answers[@]} == 0)); then
        echo "UNKNOWN SWAP2BOARD"
      else
        echo "${swap2_answers[swap2_stones / 2]}"
      fi
    else
      ((swap2_stones++))
    fi
    continue
  fi
  if ((in_board)); then
    if [[ $line == DONE ]]; then
      in_board=0
      reply_move
    else
      IFS=, read -r x y field <<<"$line"
      taken[$x,$y]=1
    fi
    continue
  fi
  case $line in
    START*) size=${line#START }; taken=(); echo OK ;;
    BEGIN) reply_move ;;
    TURN*) taken[${line#TURN }]=1; reply_move ;;
    BOARD) taken=(); in_board=1 ;;
    SWAP2BOARD) in_swap2=1; swap2_stones=0 ;;
    ABOUT) echo 'name="fake-legal", version="1.0"' ;;
    END) exit 0 ;;
  esac
done
