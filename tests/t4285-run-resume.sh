#!/bin/sh
# `ladder run --resume` and `ladder validate --resume`: a run killed at a
# rung's commit (LADDER_CRASH_AT, util/hooks.h) or stopped by SIGTERM goes
# on in its own id and ends with the rungs, cases, words and observations of
# an uninterrupted run; a validation killed after a chunk ends with the
# counts and mismatches of an uninterrupted one. Each refusal: a completed
# run or validation, a changed recipe, a changed model file, another device.
. tests/lib.sh

P=sm90-mma-bf16-f32
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 >"$TMP/r.yaml"
ref=$TMP/ref.db
"$LADDER" run "$TMP/r.yaml" --db "$ref" >/dev/null 2>&1
check resume-reference test "$(sqlite3 "$ref" "SELECT status FROM runs WHERE id = 1")" = ok

# What differs between run $1 of $db and run 1 of the reference: rungs in
# order, every case (in id order within its rung) and every observation.
differs() {
    sqlite3 "$1" "ATTACH '$ref' AS ref;
        SELECT 'rungs', count(*) FROM (
            SELECT name FROM rungs WHERE run_id = 1 ORDER BY id) AS x
        WHERE (SELECT group_concat(name) FROM (SELECT name FROM rungs
               WHERE run_id = 1 ORDER BY id)) IS NOT
              (SELECT group_concat(name) FROM (SELECT name FROM ref.rungs
               WHERE run_id = 1 ORDER BY id));
        SELECT 'cases', count(*) FROM (
            SELECT rung, label, a, b, c, d, sa, sb, meta, series, target, vary,
                   row_number() OVER (PARTITION BY rung ORDER BY id) FROM cases
            WHERE run_id = 1
            EXCEPT SELECT rung, label, a, b, c, d, sa, sb, meta, series, target, vary,
                   row_number() OVER (PARTITION BY rung ORDER BY id) FROM ref.cases
            WHERE run_id = 1);
        SELECT 'ncases', (SELECT count(*) FROM cases WHERE run_id = 1) -
                         (SELECT count(*) FROM ref.cases WHERE run_id = 1);
        SELECT 'observations', count(*) FROM (
            SELECT rung, key, value FROM observations WHERE run_id = 1
            EXCEPT SELECT rung, key, value FROM ref.observations WHERE run_id = 1);
        SELECT 'nobs', (SELECT count(*) FROM observations WHERE run_id = 1) -
                       (SELECT count(*) FROM ref.observations WHERE run_id = 1);" |
        grep -v '|0$'
}

whole() {
    [ "$(sqlite3 "$1" "PRAGMA integrity_check")" = ok ] &&
        [ -z "$(sqlite3 "$1" "PRAGMA foreign_key_check")" ]
}

# Kill at the n-th rung commit, resume, compare with the reference.
for n in 1 4 9; do
    db=$TMP/k$n.db
    LADDER_CRASH_AT=rung:$n "$LADDER" run "$TMP/r.yaml" --db "$db" >/dev/null 2>&1
    before=$(sqlite3 "$db" "SELECT count(*) FROM rungs")
    run_ladder run --resume 1 --db "$db"
    st=$(sqlite3 "$db" "SELECT count(*), group_concat(status) FROM runs")
    d=$(differs "$db")
    if [ "$rc" -ne 0 ]; then
        fail resume-run-rung-$n "exit $rc: $(_peek "$err")"
    elif [ "$before" -ne $((n - 1)) ] || [ "$st" != "1|ok" ]; then
        fail resume-run-rung-$n "$before rungs before, runs '$st' after"
    elif [ -n "$d" ] || ! whole "$db"; then
        fail resume-run-rung-$n "unlike the reference: $d"
    else
        ok resume-run-rung-$n
    fi
done
check resume-run-replays-stored grep -c ' (stored)$' "$out"
check resume-run-last-line grep -qx 'run 1 ok' "$out"

# SIGTERM while a rung runs: an oracle that answers slowly while $TMP/slow
# exists (the resume needs no wait).
cat >"$TMP/slow.sh" <<EOF
#!/bin/sh
while IFS= read -r line; do [ -e "$TMP/slow" ] && sleep 0.002; printf '%s\n' "\$line"; done |
    "$LADDER" eval --model $P
EOF
: >"$TMP/slow"
db=$TMP/term.db
"$LADDER" run "$TMP/r.yaml" --db "$db" --device "exec:sh $TMP/slow.sh" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$(sqlite3 "$db" "SELECT count(*) FROM rungs" 2>/dev/null)" \
        != 3 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -TERM $pid
wait $pid
trc=$?
rm -f "$TMP/slow"
run_ladder run --resume latest --db "$db" --trust-exec
st=$(sqlite3 "$db" "SELECT group_concat(status) FROM runs")
d=$(differs "$db")
if [ $trc -ne 143 ] || [ "$rc" -ne 0 ] || [ "$st" != ok ] || [ -n "$d" ]; then
    fail resume-run-sigterm "exit $trc then $rc ($(_peek "$err")), status '$st': $d"
else
    ok resume-run-sigterm
fi

# Refusals, each one line, leaving the run as it was.
expect_usage_error resume-run-completed run --resume 1 --db "$TMP/k1.db"
expect_err resume-run-completed-says 'run 1 is completed'
db=$TMP/refuse.db
cp "$TMP/r.yaml" "$TMP/r2.yaml"
LADDER_CRASH_AT=rung:3 "$LADDER" run "$TMP/r2.yaml" --db "$db" >/dev/null 2>&1
echo "# changed" >>"$TMP/r2.yaml"
run_ladder run --resume 1 --db "$db"
expect_rc resume-run-recipe-changed 3
expect_err resume-run-recipe-changed-says 'recipe changed since run 1'
expect_err_line resume-run-recipe-changed-line
run_ladder run --resume 1 "$TMP/r.yaml" --db "$db" --device sim:sm90-mma-f16-f32
expect_rc resume-run-other-device 2
expect_err resume-run-other-device-says "run 1 ran on 'sim:$P', not"
run_ladder run --resume 1 "$TMP/r.yaml" --db "$db" --rungs slice
expect_rc resume-run-rungs-refused 2
check resume-run-refusals-leave-it test \
    "$(sqlite3 "$db" "SELECT status || count(*) FROM runs")" = interrupted1
run_ladder run --resume 1 "$TMP/r.yaml" --db "$db"
check resume-run-after-refusals test "$rc" -eq 0 -a -z "$(differs "$db")"

# A sim model file that changed since the run.
"$LADDER" model show $P | grep -v '^#' >"$TMP/m.yaml"
db=$TMP/model.db
LADDER_CRASH_AT=rung:3 "$LADDER" run "$TMP/r.yaml" --device "sim:$TMP/m.yaml" --db "$db" \
    >/dev/null 2>&1
sed 's/^window: 25/window: 24/' "$TMP/m.yaml" >"$TMP/m2.yaml"
cp "$TMP/m.yaml" "$TMP/m.keep"
cp "$TMP/m2.yaml" "$TMP/m.yaml"
run_ladder run --resume 1 --db "$db"
expect_rc resume-run-model-changed 3
expect_err resume-run-model-changed-says "model file '.*m.yaml' of run 1's device changed"
cp "$TMP/m.keep" "$TMP/m.yaml"
run_ladder run --resume 1 --db "$db"
check resume-run-model-restored test "$rc" -eq 0

# Validation: a model unlike the device (window 24 against 25) so that the
# mismatches are compared too; 40000 cases are five chunks of 8192.
V="--model $TMP/m2.yaml --device sim:$P --cases 40000 --seed 7"
vref=$TMP/vref.db
"$LADDER" validate $V --db "$vref" >/dev/null 2>&1
vwant=$(sqlite3 "$vref" "SELECT cases || '/' || mismatches FROM validations")
check resume-validate-reference test -n "$vwant" -a "${vwant#40000/}" != 0
# What differs between validation $2 of $1 and the reference's only one.
vdiffers() {
    sqlite3 "$1" "ATTACH '$vref' AS ref;
        SELECT 'counts' FROM validations AS v, ref.validations AS r WHERE v.id = $2
            AND (v.cases, v.mismatches, v.status) IS NOT (r.cases, r.mismatches, r.status);
        SELECT 'mismatches', count(*) FROM (
            SELECT seq, a, b, c, sa, sb, meta, expected, got FROM mismatches
            WHERE validation_id = $2
            EXCEPT SELECT seq, a, b, c, sa, sb, meta, expected, got FROM ref.mismatches);
        SELECT 'nmismatches', (SELECT count(*) FROM mismatches WHERE validation_id = $2) -
                              (SELECT count(*) FROM ref.mismatches);" | grep -v '|0$'
}
for n in 1 3; do
    db=$TMP/v$n.db
    LADDER_CRASH_AT=validation-chunk:$n "$LADDER" validate $V --db "$db" >/dev/null 2>&1
    was=$(sqlite3 "$db" "SELECT cases FROM validations WHERE id = 1")
    run_ladder validate --resume 1 --db "$db"
    d=$(vdiffers "$db" 1)
    runs=$(sqlite3 "$db" "SELECT count(*) || status FROM runs")
    if [ "$rc" -ne 1 ] || [ "$was" -ne $(((n - 1) * 8192)) ] || [ "$runs" != 1ok ]; then
        fail resume-validate-chunk-$n "exit $rc ($(_peek "$err")), $was cases before, runs $runs"
    elif [ -n "$d" ] || ! whole "$db"; then
        fail resume-validate-chunk-$n "unlike the reference: $d"
    else
        ok resume-validate-chunk-$n
    fi
done
check resume-validate-result-line grep -q "^validate: ${vwant#*/}/40000 mismatches" "$out"

# A run's validation (the model infer stored), killed and resumed: the
# same counts as that run's uninterrupted validation.
db=$TMP/vr.db
cp "$ref" "$db"
"$LADDER" infer 1 --db "$db" >/dev/null 2>&1
"$LADDER" validate 1 --cases 20000 --db "$db" >/dev/null 2>&1
LADDER_CRASH_AT=validation-chunk:2 "$LADDER" validate 1 --cases 20000 --db "$db" \
    >/dev/null 2>&1
run_ladder validate --resume 2 --db "$db"
check resume-validate-of-run test "$rc" -eq 0 -a \
    "$(sqlite3 "$db" "SELECT group_concat(cases || status || mismatches) FROM validations")" \
    = "20000ok0,20000ok0"

# Validation refusals.
run_ladder validate --resume 2 --db "$db"
expect_rc resume-validate-completed 2
expect_err resume-validate-completed-says 'validation 2 is completed'
LADDER_CRASH_AT=validation-chunk:2 "$LADDER" validate 1 --cases 20000 --db "$db" \
    >/dev/null 2>&1
run_ladder validate --resume 3 --db "$db" --device sim:sm90-mma-f16-f32
expect_rc resume-validate-other-device 2
expect_err resume-validate-other-device-says "validation 3 ran on 'sim:$P', not"
expect_usage_error resume-validate-no-cases validate --resume 3 --cases 5 --db "$db"
run_ladder validate --resume 9 --db "$db"
expect_rc resume-validate-none 3
db=$TMP/vm.db
LADDER_CRASH_AT=validation-chunk:2 "$LADDER" validate --model $P --device "sim:$TMP/m.yaml" \
    --cases 20000 --db "$db" >/dev/null 2>&1
cp "$TMP/m2.yaml" "$TMP/m.yaml"
run_ladder validate --resume 1 --db "$db"
expect_rc resume-validate-model-changed 3
expect_err resume-validate-model-changed-says "model file '.*m.yaml' of run 1's device changed"
check resume-validate-refusal-leaves-it test \
    "$(sqlite3 "$db" "SELECT status FROM validations")" = interrupted
cp "$TMP/m.keep" "$TMP/m.yaml"
run_ladder validate --resume 1 --db "$db"
check resume-validate-model-restored test "$rc" -eq 0 -a \
    "$(sqlite3 "$db" "SELECT v.status || v.cases || r.status FROM validations AS v
                      JOIN runs AS r ON r.id = v.run_id")" = ok20000ok

# A resume trusts no count it cannot check: mismatches beyond the cases,
# or unlike the rows stored, is a damaged store (exit 3), left as it was.
db=$TMP/dmg.db
LADDER_CRASH_AT=validation-chunk:2 "$LADDER" validate $V --db "$db" >/dev/null 2>&1
sqlite3 "$db" "UPDATE validations SET mismatches = 9223372036854775807"
run_ladder validate --resume 1 --db "$db"
expect_rc resume-validate-count-huge 3
expect_err resume-validate-count-huge-says "validation 1 counts 9223372036854775807 mismatches in 8192 of 40000 cases and stores [0-9]+: the store is damaged"
sqlite3 "$db" "UPDATE validations SET mismatches = (SELECT count(*) FROM mismatches) + 1"
run_ladder validate --resume 1 --db "$db"
expect_rc resume-validate-count-unstored 3
check resume-validate-count-left test "$(sqlite3 "$db" "SELECT status FROM validations")" = interrupted

# A shard goes on with its own part of the stream: shard 1 of 2 killed after
# its first chunk and resumed stores the mismatches an unbroken shard stores
# (cases 20000..39999 of the stream of 40000), and it cannot be given --shard.
sref=$TMP/sref.db
"$LADDER" validate $V --shard 1/2 --db "$sref" >/dev/null 2>&1
db=$TMP/shard.db
LADDER_CRASH_AT=validation-chunk:2 "$LADDER" validate $V --shard 1/2 --db "$db" >/dev/null 2>&1
run_ladder validate --resume 1 --shard 1/2 --db "$db"
expect_rc resume-validate-shard-option-refused 2
run_ladder validate --resume 1 --db "$db"
q="SELECT status, cases, mismatches, shard_index, shard_count, stream_cases FROM validations;
   SELECT count(*), min(seq) >= 20000 FROM mismatches"
check resume-validate-shard-same test "$rc" -eq 1 -a \
    "$(sqlite3 "$db" "$q")" = "$(sqlite3 "$sref" "$q")" -a \
    -z "$(sqlite3 "$db" "ATTACH '$sref' AS ref; SELECT seq, expected, got FROM mismatches
        EXCEPT SELECT seq, expected, got FROM ref.mismatches")"
check resume-validate-shard-line grep -q ', shard 1/2$' "$out"

test_done
