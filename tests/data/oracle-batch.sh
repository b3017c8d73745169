#!/bin/sh
# A batching oracle: answers nothing until it holds N lines (or its input
# ends), then answers them all at once with `LADDER eval --model MODEL`, so
# it needs at least N lines written ahead of the answers.
#
#     oracle-batch.sh N LADDER MODEL
n=$1 ladder=$2 model=$3
held=${TMPDIR:-/tmp}/oracle-batch.$$
trap 'rm -f "$held"' EXIT
: >"$held"
i=0
while IFS= read -r line; do
    printf '%s\n' "$line" >>"$held"
    i=$((i + 1))
    if [ $i -eq "$n" ]; then
        "$ladder" eval --model "$model" <"$held" || exit 1
        : >"$held"
        i=0
    fi
done
[ $i -eq 0 ] || "$ladder" eval --model "$model" <"$held"
