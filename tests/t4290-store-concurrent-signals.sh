#!/bin/sh
# Writers at once and writers stopped: infers of one run at the same time
# leave one whole set of inferences; a validation whose device fails keeps
# the cases it compared and ends 'failed'; SIGTERM ends a run or a
# validation 'interrupted' in the file itself, kills the oracle's process
# group and ladder dies of the signal (exit 143).
. tests/lib.sh

db=$TMP/l.db
P=sm90-mma-bf16-f32
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 >"$TMP/r.yaml"
"$LADDER" run "$TMP/r.yaml" --db "$db" >/dev/null 2>&1
"$LADDER" infer 1 --db "$db" >/dev/null 2>&1
ninf=$(sqlite3 "$db" "SELECT count(*) FROM inferences WHERE run_id = 1")
check store-conc-reference test "${ninf:-0}" -gt 2

# Four infers at once: each replaces the set whole, so one set is left.
for i in 1 2 3 4; do
    "$LADDER" infer 1 --db "$db" >"$TMP/inf$i.out" 2>&1 &
done
wait
n=$(sqlite3 "$db" "SELECT count(*) || ' ' || sum(parameter = 'model') FROM inferences WHERE run_id = 1")
check store-conc-infer-one-set test "$n" = "$ninf 1"

# An oracle that answers 8192 cases and then closes: the first chunk
# (8192 cases) was compared and stays; the validation ends 'failed'.
cat >"$TMP/short.sh" <<EOS
#!/bin/sh
head -n 8192 | "$LADDER" eval --model $P
EOS
chmod +x "$TMP/short.sh"
run_ladder validate --model $P --device "exec:$TMP/short.sh" --db "$db" --cases 20000 -q
expect_rc store-fail-validate-rc 4
expect_err_line store-fail-validate-err
v=$(sqlite3 "$db" "SELECT status || ' ' || cases || ' ' || planned FROM validations ORDER BY id DESC LIMIT 1")
check store-fail-validate-kept test "$v" = "failed 8192 20000"
vr=$(sqlite3 "$db" "SELECT run_id FROM validations ORDER BY id DESC LIMIT 1")
run_ladder show "$vr" --db "$db"
expect_out store-fail-validate-show ': failed after 8192 of 20000 cases, 0 mismatches \(0 stored\)$'

# A slow oracle that says who it is, for SIGTERM in the middle.
cat >"$TMP/slow.sh" <<EOS
#!/bin/sh
echo \$\$ >"$TMP/oracle.pid"
while IFS= read -r line; do
    sleep 0.01
    printf '%s\n' "\$line" | "$LADDER" eval --model $P
done
EOS
chmod +x "$TMP/slow.sh"
# Waits until `$1` (SQL) counts more than 0, at most 20 s.
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        n=$(sqlite3 "$db" "$1" 2>/dev/null || echo 0)
        [ "${n:-0}" -gt 0 ] && return 0
        sleep 0.2
        i=$((i + 1))
    done
    return 1
}
rm -f "$TMP/oracle.pid"
sr=$(($(sqlite3 "$db" "SELECT max(id) FROM runs") + 1))
"$LADDER" run "$TMP/r.yaml" --db "$db" --device "exec:$TMP/slow.sh" >"$TMP/run.out" 2>"$TMP/run.err" &
pid=$!
wait_for "SELECT count(*) FROM rungs WHERE run_id = $sr"
# and the oracle said who it is (a loaded machine can store a rung first)
i=0
while [ ! -s "$TMP/oracle.pid" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
kill -TERM $pid
wait $pid
r=$?
check store-sigterm-run-exit test $r = 143
st=$(sqlite3 "$db" "SELECT status || ': ' || message FROM runs WHERE id = $sr")
check store-sigterm-run-interrupted test "$st" = "interrupted: interrupted by signal 15"
check store-sigterm-run-says grep -q "^run $sr interrupted\$" "$TMP/run.out"
opid=$(cat "$TMP/oracle.pid" 2>/dev/null)
sleep 0.2
# gone, or a zombie waiting for its new parent to reap it
ostate=$(awk '{ print $3 }' "/proc/$opid/stat" 2>/dev/null)
if [ -n "$opid" ] && { [ -z "$ostate" ] || [ "$ostate" = Z ]; }; then ok store-sigterm-oracle-gone
else fail store-sigterm-oracle-gone "oracle '$opid' still runs"; fi
# the rung under way was rolled back: every stored rung is whole
n=$(sqlite3 "$db" "SELECT count(*) FROM (SELECT rung, count(*) AS n FROM cases WHERE run_id = $sr
    GROUP BY rung) AS c JOIN (SELECT rung, count(*) AS n FROM cases WHERE run_id = 1
    GROUP BY rung) AS r USING (rung) WHERE c.n <> r.n")
check store-sigterm-run-rungs-whole test "$n" = 0

# validate RUN under SIGTERM: the validation ends interrupted, in the file.
rm -f "$TMP/oracle.pid"
"$LADDER" validate 1 --db "$db" --device "exec:$TMP/slow.sh" --cases 100000 -q >/dev/null 2>&1 &
pid=$!
wait_for "SELECT count(*) FROM validations WHERE run_id = 1 AND status = 'running'"
sleep 0.5
kill -TERM $pid
wait $pid
r=$?
check store-sigterm-validate-exit test $r = 143
v=$(sqlite3 "$db" "SELECT status || ' ' || planned FROM validations WHERE run_id = 1 ORDER BY id DESC LIMIT 1")
check store-sigterm-validate-interrupted test "$v" = "interrupted 100000"
ic=$(sqlite3 "$db" "PRAGMA integrity_check")
check store-sigterm-integrity test "$ic" = ok

test_done
