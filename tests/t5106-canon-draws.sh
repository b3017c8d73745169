#!/bin/sh
# The canonical form keeps every word of the random draws of the model
# family (tests/data/model-random.sh): for draws 1..LADDER_CANON_DRAWS
# (default 40, which hold the blind-recovery test's draws; make test-long
# 300), a draw whose canonical form (`ladder model show --canonical`)
# differs from it gives the same words as that form on the witness
# search's structured cases and 100,000 random ones (`ladder diff --search`
# says =, with the count); the canonical form of the canonical form is
# itself. A wrong "not in effect" rule fails here. Check names:
# canon-draws-*.
. tests/lib.sh

N=${LADDER_CANON_DRAWS:-40}
i=1
moved=0
bad=""
idem=""
while [ "$i" -le "$N" ]; do
    f=$TMP/draw.yaml
    sh "$TESTS_DATA/model-random.sh" "$LADDER" "$i" >"$f" 2>/dev/null
    "$LADDER" model show "$f" | grep -v '^#' >"$TMP/as-given"
    "$LADDER" model show --canonical "$f" >"$TMP/canon.yaml"
    grep -v '^#' "$TMP/canon.yaml" >"$TMP/canon"
    "$LADDER" model show --canonical "$TMP/canon.yaml" | grep -v '^#' >"$TMP/canon2"
    cmp -s "$TMP/canon" "$TMP/canon2" || idem="$idem $i"
    if ! cmp -s "$TMP/as-given" "$TMP/canon"; then
        moved=$((moved + 1))
        "$LADDER" diff --search --cases 100000 "$f" "$TMP/canon.yaml" >"$TMP/d" 2>&1
        rc=$?
        if [ "$rc" != 0 ] || ! grep -Eq '^verdict: = \(the canonical models are identical; no case of [0-9]+ separates A and B\)$' "$TMP/d"; then
            bad="$bad $i ($(sed -n 2p "$TMP/d"))"
        fi
    fi
    i=$((i + 1))
done
[ -z "$bad" ] && ok canon-draws-same-words || fail canon-draws-same-words "draws:$bad"
[ -z "$idem" ] && ok canon-draws-idempotent || fail canon-draws-idempotent "draws:$idem"
# some draws must have rows not in effect, or the check checks nothing
[ "$moved" -ge $((N / 8)) ] && ok canon-draws-moved ||
    fail canon-draws-moved "only $moved of $N draws have rows not in effect"
test_done
