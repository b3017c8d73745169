#!/bin/sh
# exec: speaks the framed protocol: an oracle whose answers slip (two
# swapped, one repeated and a later one dropped: the counts stay right) fails
# the run at the first answer that moved, and every rung it stored holds the
# words of the simulated run; nothing wrong is stored as `ok`. The unframed
# protocol must be asked for by name (exec-unframed:) and says on stderr
# what it cannot detect: there the same oracle ends `ok` with wrong words.
. tests/lib.sh

p=sm90-mma-bf16-f32
db=$TMP/l.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 256 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db" --no-decide
expect_rc framed-sim-rc 0
words() {
    sqlite3 "$db" "SELECT rung, label, a, b, c, d FROM cases WHERE run_id = $1 ORDER BY id"
}
words 1 >"$TMP/sim.txt"

slip() {
    echo "exec:sh $TESTS_DATA/oracle-slip.sh $1 $2 $LADDER $p"
}
run=1
for mode in swap dup; do
    run=$((run + 1))
    run_ladder run "$TMP/r.yaml" --db "$db" --device "$(slip $mode 500)" --no-decide
    expect_rc framed-$mode-rc 4
    expect_out framed-$mode-failed "^run $run failed$"
    if [ $mode = swap ]; then
        expect_err framed-$mode-says "answered case 501 \('@501 [0-9a-f]+'\) where case 500 \(input line 501\) was due"
    else
        expect_err framed-$mode-says "answered case 500 \('@500 [0-9a-f]+'\) where case 501 \(input line 502\) was due"
    fi
    words $run >"$TMP/$mode.txt"
    n=$(wc -l <"$TMP/$mode.txt")
    # the rungs stored before the slip, word for word the simulated run's
    if [ "$n" -gt 0 ] && [ "$n" -le 500 ] && head -n "$n" "$TMP/sim.txt" | cmp -s - "$TMP/$mode.txt"; then
        ok framed-$mode-stored-right
    else
        fail framed-$mode-stored-right "$n cases stored, not a prefix of the simulated run's"
    fi
done

# A validation too: it fails where the answers slip.
run_ladder validate --model $p --device "$(slip dup 300)" --db "$TMP/v.db" --cases 2000 -q
expect_rc framed-validate-dup-rc 4
expect_err framed-validate-dup-says "where case 301 \(input line 302\) was due"

# exec-framed: is the same protocol under its older name.
run_ladder run "$TMP/r.yaml" --db "$db" --device "exec-framed:sh $TESTS_DATA/oracle-slip.sh swap 500 $LADDER $p" --no-decide
expect_rc framed-old-name-rc 4

# Unframed, by name only: a warning, then the swap goes unnoticed (cases
# 501 and 502 have different words).
run_ladder run "$TMP/r.yaml" --db "$db" --device "exec-unframed:sh $TESTS_DATA/oracle-slip.sh swap 501 $LADDER $p" --no-decide
expect_rc unframed-swap-rc 0
expect_err unframed-swap-warns "^ladder: warning: exec-unframed: answers are matched to cases by their order alone"
run=$((run + 2))
words $run >"$TMP/unframed.txt"
bad=$(diff "$TMP/sim.txt" "$TMP/unframed.txt" | grep -c '^>')
check unframed-swap-two-wrong test "$bad" = 2
# A recipe cannot ask for it.
sed "s|^device:.*|device: \"exec-unframed:$LADDER eval --model $p\"|" "$TMP/r.yaml" >"$TMP/u.yaml"
run_ladder run "$TMP/u.yaml" --db "$db" --trust-exec
expect_rc unframed-recipe-refused-rc 3
expect_err unframed-recipe-refused-says "'device' must start with sim:, exec:, exec-framed: or cuda:"
test_done
