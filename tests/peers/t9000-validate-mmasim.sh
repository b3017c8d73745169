#!/bin/sh
# ladder validate of every preset MMA-Sim models (the presets with a file in
# vectors/mmasim) against MMA-Sim as an exec device, on PEERS_CASES random
# cases each (default 1,000,000; docs/testing.md gives the time). A preset
# docs/findings-mmasim.txt does not list must give 0 mismatches; a listed one
# (a known class of docs/findings.md) passes with its count printed, so the
# classes stay visible. PEERS_ONLY=<regex> limits the presets.
#
#     make test-peers                # or:
#     LADDER=build/rel/ladder PEERS=build/peers sh tests/peers/t9000-validate-mmasim.sh
. tests/lib.sh
PY=${PEERS:-build/peers}/bin/python
CASES=${PEERS_CASES:-1000000}
LIST=docs/findings-mmasim.txt
# the oracle starts torch (seconds on a loaded machine) before its first answer
export LADDER_EXEC_TIMEOUT=${LADDER_EXEC_TIMEOUT:-300}
# a whole validation batch written ahead: the oracle answers it in one call
export LADDER_EXEC_WINDOW=${LADDER_EXEC_WINDOW:-8192}

for f in vectors/mmasim/*.vec; do
    p=$(basename "$f" .vec)
    echo "$p" | grep -Eq "${PEERS_ONLY:-.}" || continue
    name=peers-validate-$p
    t0=$(date +%s)
    run_ladder validate --model "$p" --db "$TMP/db" --cases "$CASES" -q \
        --device "exec-framed:$PY scripts/mmasim-oracle.py --ladder $LADDER --model $p"
    t1=$(date +%s)
    line=$(grep '^validate:' "$out")
    n=$(echo "$line" | sed -n 's/^validate: \([0-9]*\)\/.*/\1/p')
    class=$(awk -v p="$p" '$1 == p { print $3 }' "$LIST")
    if [ -z "$n" ]; then
        fail "$name" "no result: $(head -c 300 "$err")"
    elif [ "$n" = 0 ] || [ -n "$class" ]; then
        ok "$name"
        echo "#    $p: $n/$CASES mismatches${class:+ (class $class)} in $((t1 - t0)) s"
    else
        fail "$name" "$line"
    fi
done

test_done
