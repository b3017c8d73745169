#!/bin/sh
# The same recipe on the simulated preset and on an external oracle (ladder
# eval over pipes) stores identical cases and D words, rung by rung.
. tests/lib.sh

db=$TMP/l.db
words() {
    sqlite3 "$db" "SELECT rung, label, a, b, c, d, sa, sb, meta FROM cases WHERE run_id = $1 ORDER BY id"
}
i=0
for p in sm90-mma-bf16-f32 sm89-mma-e5m2-f16 sm100-tcgen05-mxf4nvf4-ue4m3-f32; do
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 256 >"$TMP/$p.yaml"
    run_ladder run "$TMP/$p.yaml" --db "$db"
    expect_rc run-exec-$p-sim-rc 0
    run_ladder run "$TMP/$p.yaml" --db "$db" --device "exec:$LADDER eval --model $p"
    expect_rc run-exec-$p-exec-rc 0
    expect_out run-exec-$p-ok '^run [0-9]+ ok$'
    words $((i + 1)) >"$TMP/sim.txt"
    words $((i + 2)) >"$TMP/exec.txt"
    if [ -s "$TMP/sim.txt" ] && cmp -s "$TMP/sim.txt" "$TMP/exec.txt"; then
        ok run-exec-$p-identical
    else
        fail run-exec-$p-identical "$(diff "$TMP/sim.txt" "$TMP/exec.txt" | head -3)"
    fi
    i=$((i + 2))
done
test_done
