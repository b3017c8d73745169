#!/bin/sh
# Answers every case with its C word, framed as its line is ("@<n> "), but
# swaps the answers to cases 1 and 2: the counts stay right.
n=0
held=
while IFS=';' read -r a b c rest; do
    frame=
    case $a in @*) frame="${a%% *} " ;; esac
    if [ $n -eq 1 ]; then
        held="$frame$c"
    elif [ $n -eq 2 ]; then
        printf '%s\n%s\n' "$frame$c" "$held"
    else
        echo "$frame$c"
    fi
    n=$((n + 1))
done
