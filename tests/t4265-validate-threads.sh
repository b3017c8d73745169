#!/bin/sh
# ladder validate --threads N: a sim device's batches on N workers store the
# very validation one thread stores (docs/commands/validate.md#threads): the
# same counts, the same mismatch rows in the same order, the same mismatch
# lines; a validation killed or interrupted on N threads resumes on any
# number to the same end.
. tests/lib.sh

P=sm90-mma-bf16-f32
# A model unlike the device (window 24 against 25), so that there are
# mismatches in most batches; 60000 cases are eight batches of 8192, more
# than two workers' four slots hold at once.
"$LADDER" model show $P | grep -v '^#' | sed 's/^window: 25/window: 24/' >"$TMP/m.yaml"
check validate-threads-model-differs grep -q '^window: 24$' "$TMP/m.yaml"
V="--model $TMP/m.yaml --device sim:$P --cases 60000 --seed 7"

# What a validation stored, row by row, without the columns that hold
# times, ids of runs or the process.
rows() {
    sqlite3 "$1" "SELECT model, generator, seed, k, nscale, nmeta, cases, mismatches,
                         status, planned FROM validations ORDER BY id;
                  SELECT id, validation_id, seq, a, b, c, sa, sb, meta, expected, got
                  FROM mismatches ORDER BY id"
}

for n in 1 2 3 default; do
    t="--threads $n"
    [ $n = default ] && t=
    run_ladder validate $V $t --db "$TMP/t$n.db"
    expect_rc validate-threads-$n-rc 1
    cp "$out" "$TMP/t$n.out"
    rows "$TMP/t$n.db" >"$TMP/t$n.rows"
done
bad=$(sqlite3 "$TMP/t1.db" "SELECT mismatches FROM validations")
nrows=$(sqlite3 "$TMP/t1.db" "SELECT count(*) FROM mismatches")
check validate-threads-has-mismatches test "${bad:-0}" -gt 0 -a "$bad" = "$nrows"
# the mismatches' indexes rise, as the stream's cases do
disorder=$(sqlite3 "$TMP/t1.db" "SELECT count(*) FROM mismatches AS x JOIN mismatches AS y
                                 ON y.id = x.id + 1 WHERE y.seq <= x.seq")
check validate-threads-in-order test "$disorder" = 0
for n in 2 3 default; do
    check validate-threads-$n-rows cmp -s "$TMP/t1.rows" "$TMP/t$n.rows"
    check validate-threads-$n-lines cmp -s "$TMP/t1.out" "$TMP/t$n.out"
done

expect_usage_error validate-threads-zero validate $V --threads 0 --db "$TMP/u.db"
expect_usage_error validate-threads-many validate $V --threads 1025 --db "$TMP/u.db"

# Killed before chunk 3 is committed on two threads, resumed on one and on
# three: the validation one thread stores uninterrupted.
for n in 1 3; do
    db=$TMP/k$n.db
    LADDER_CRASH_AT=validation-chunk:3 "$LADDER" validate $V --threads 2 --db "$db" \
        >/dev/null 2>&1
    was=$(sqlite3 "$db" "SELECT cases FROM validations")
    run_ladder validate --resume 1 --threads $n --db "$db"
    rows "$db" >"$TMP/k$n.rows"
    if [ "$was" != 16384 ] || [ "$rc" -ne 1 ]; then
        fail validate-threads-resume-$n "$was cases before the resume, exit $rc"
    else
        check validate-threads-resume-$n cmp -s "$TMP/t1.rows" "$TMP/k$n.rows"
    fi
done

# SIGTERM in the middle of a long validation on two threads: it ends
# 'interrupted' (ladder dies of the signal) with whole chunks committed,
# and what it kept is what one thread stores for that many cases.
db=$TMP/int.db
"$LADDER" validate --model "$TMP/m.yaml" --device sim:$P --cases 1000000000 --seed 7 \
    --threads 2 --db "$db" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ]; do
    n=$(sqlite3 "$db" "SELECT cases FROM validations" 2>/dev/null)
    [ "${n:-0}" -gt 0 ] && break
    sleep 0.1
    i=$((i + 1))
done
kill -TERM $pid
wait $pid 2>/dev/null
irc=$?
st=$(sqlite3 "$db" "SELECT status FROM validations")
cases=$(sqlite3 "$db" "SELECT cases FROM validations")
if [ "$irc" -ne 143 ] || [ "$st" != interrupted ] || [ "${cases:-0}" -le 0 ] ||
    [ $((cases % 8192)) -ne 0 ]; then
    fail validate-threads-sigterm "exit $irc, $st with $cases cases"
else
    ok validate-threads-sigterm
    "$LADDER" validate --model "$TMP/m.yaml" --device sim:$P --cases "$cases" --seed 7 \
        --threads 1 --db "$TMP/prefix.db" >/dev/null 2>&1
    d=$(sqlite3 "$db" "ATTACH '$TMP/prefix.db' AS ref;
        SELECT count(*) FROM (SELECT seq, a, b, c, sa, sb, meta, expected, got
                              FROM mismatches
                              EXCEPT SELECT seq, a, b, c, sa, sb, meta, expected, got
                              FROM ref.mismatches);
        SELECT (SELECT count(*) FROM mismatches) - (SELECT count(*) FROM ref.mismatches);
        SELECT (SELECT mismatches FROM validations) -
               (SELECT mismatches FROM ref.validations)")
    check validate-threads-sigterm-kept test "$(echo $d)" = "0 0 0"
fi

test_done
