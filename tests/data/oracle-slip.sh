#!/bin/sh
# An oracle whose answers slip against its cases at case N (counted from 0),
# the right words otherwise (`LADDER eval --model MODEL`, framed as the
# lines are):
#   swap  the answers to cases N and N+1 change places;
#   dup   the answer to case N comes twice, the one to case N+5 never.
# The counts stay right either way.
#
#     oracle-slip.sh swap|dup N LADDER MODEL
mode=$1 n=$2 ladder=$3 model=$4
i=0
held=
"$ladder" eval --model "$model" | while IFS= read -r line; do
    if [ "$mode" = swap ] && [ $i -eq "$n" ]; then
        held=$line
    elif [ "$mode" = dup ] && [ $i -eq $((n + 5)) ]; then
        :
    else
        printf '%s\n' "$line"
        [ "$mode" = swap ] && [ $i -eq $((n + 1)) ] && printf '%s\n' "$held"
        [ "$mode" = dup ] && [ $i -eq "$n" ] && printf '%s\n' "$line"
    fi
    i=$((i + 1))
done
