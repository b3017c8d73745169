#!/bin/sh
# Answers two cases with their C word, then exits with status 3.
n=0
while IFS=';' read -r a b c rest; do
    n=$((n + 1))
    [ $n -gt 2 ] && exit 3
    echo "$c"
done
