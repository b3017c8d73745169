#!/bin/sh
# ladder validate of every preset MMA-Sim models (the presets with a file in
# vectors/mmasim) against MMA-Sim as an exec device, on PEERS_CASES random
# cases each (default 1,000,000; docs/testing.md gives the time). Each
# preset's mismatches are sorted into the classes that can be told from the
# words alone: both NaN with other payloads (class D of docs/findings.md),
# both zero with other signs (E), and the rest. A preset passes with no
# mismatch, or when docs/findings-mmasim.txt lists it with classes that
# cover what it shows: D for payloads, E for signs, any other class (A, B,
# C, F) for the rest, so the classes stay visible and a new kind of
# disagreement fails. PEERS_ONLY=<regex> limits the presets.
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
    rm -f "$TMP/db"
    t0=$(date +%s)
    run_ladder validate --model "$p" --db "$TMP/db" --cases "$CASES" -q \
        --device "exec-framed:$PY scripts/mmasim-oracle.py --ladder $LADDER --model $p"
    t1=$(date +%s)
    line=$(grep '^validate:' "$out")
    n=$(echo "$line" | sed -n 's/^validate: \([0-9]*\)\/.*/\1/p')
    class=$(awk -v p="$p" '$1 == p { print $3 }' "$LIST")
    if [ -z "$n" ]; then
        fail "$name" "no result: $(head -c 300 "$err")"
        continue
    fi
    # the D format's exponent field and fraction: f16, f64 (its words are
    # stored as the int64 of their bits) or a 32-bit word
    dfmt=$("$LADDER" model show "$p" | sed -n 's/^d: //p')
    if [ "$dfmt" = f16 ]; then
        e=31 es=10 fm=1023 sm=32767
    elif [ "$dfmt" = f64 ]; then
        e=2047 es=52 fm=4503599627370495 sm=9223372036854775807
    else
        e=255 es=23 fm=8388607 sm=2147483647
    fi
    nan="((%s >> $es) & $e) = $e AND (%s & $fm) <> 0"
    q="SELECT
        sum($(printf "$nan" expected expected) AND $(printf "$nan" got got)),
        sum((expected & $sm) = 0 AND (got & $sm) = 0)
        FROM mismatches"
    split=$(sqlite3 -separator ' ' "$TMP/db" "$q")
    x=${split%% *} y=${split##* }
    x=${x:-0} y=${y:-0}
    z=$((n - x - y))
    echo "#    $p: $n/$CASES mismatches (NaN payload $x, sign of zero $y, other $z)${class:+ listed: $class} in $((t1 - t0)) s"
    bad=
    [ "$x" -gt 0 ] && ! echo "$class" | grep -q D && bad="$bad NaN payloads"
    [ "$y" -gt 0 ] && ! echo "$class" | grep -q E && bad="$bad zero signs"
    [ "$z" -gt 0 ] && ! echo "$class" | grep -q '[ABCF]' && bad="$bad other words"
    if [ -z "$bad" ]; then
        ok "$name"
    else
        fail "$name" "$line; not listed in $LIST for:$bad"
    fi
done

test_done
