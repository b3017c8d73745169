#!/bin/sh
# Answers every case with its C word, with the frame of the line when it has
# one ("@<n> "), but prints the answer to case 1 twice and never answers
# case 3: after case 3 the answers are back in step by count alone.
n=0
while IFS=';' read -r a b c rest; do
    frame=
    case $a in @*) frame="${a%% *} " ;; esac
    # the answer and its copy in one write, so they arrive together
    if [ $n -eq 1 ]; then
        printf '%s\n%s\n' "$frame$c" "$frame$c"
    elif [ $n -ne 3 ]; then
        echo "$frame$c"
    fi
    n=$((n + 1))
done
