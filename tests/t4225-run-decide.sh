#!/bin/sh
# The decide rung: on a random draw of the model family where the ladder's
# rungs leave rows open (draw 13: nine rows) (some value of a row reproduces every stored case
# and a case separates it), a run ending with `decide` runs the cases that
# separate them and leaves no row open; the model then inferred is = or ≡
# the draw (ladder diff). The rung's cases carry series "decide" and the
# open rows as their target. Check names: decide-*.
#
# "No row open" is within the answer's reach (inference/answer.h: one row
# changed from the model, or two of one joint group): draw 2 ends with no
# row open and a model that a random case of `ladder diff` still tells from
# the draw (window2, three rows away), so it is not among these draws.
. tests/lib.sh

for i in 13; do
    m=$TMP/m$i.yaml
    sh "$TESTS_DATA/model-random.sh" "$LADDER" "$i" >"$m" 2>/dev/null
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$m" 1024 >"$TMP/r$i.yaml"
    # without the rung: rows open
    "$LADDER" run "$TMP/r$i.yaml" --device "sim:$m" --db "$TMP/a$i.db" -q >/dev/null 2>&1
    run_ladder infer 1 --db "$TMP/a$i.db" -q --no-store
    n=$(sed -n 's/^rows: [0-9]* decided, \([0-9]*\) open.*/\1/p' "$out")
    check "decide-draw-$i-open-before" test "${n:-0}" -gt 0
    # with it: none
    sed 's/random\]/random, decide]/' "$TMP/r$i.yaml" >"$TMP/rd$i.yaml"
    run_ladder run "$TMP/rd$i.yaml" --device "sim:$m" --db "$TMP/d$i.db" -q
    expect_rc "decide-draw-$i-run-rc" 0
    run_ladder infer 1 --db "$TMP/d$i.db" -q -o "$TMP/inf$i.yaml"
    expect_rc "decide-draw-$i-infer-rc" 0
    expect_out "decide-draw-$i-none-open" '^rows: [0-9]+ decided, 0 open, '
    c=$(sqlite3 "$TMP/d$i.db" "SELECT count(*) FROM cases WHERE rung = 'decide' AND series = 'decide' AND target <> ''")
    check "decide-draw-$i-cases" test "$c" -gt 0
    run_ladder diff "$TMP/inf$i.yaml" "$m"
    expect_rc "decide-draw-$i-recovered" 0
done
test_done
