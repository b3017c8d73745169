#!/bin/sh
# The framed exec protocol: ladder eval answers "@<n> " lines framed, a run
# on exec-framed:ladder eval stores what the simulated run stores, an oracle
# that slips is an error there, its stderr comes back as one line of the
# error, and a signal to ladder takes the oracle's process group with it.
. tests/lib.sh

db=$TMP/l.db
p=sm90-mma-bf16-f32
# A captured case of h100-bf16-f32.vec (H100's word 3f3a2fc3) without its D,
# framed as case 7.
line=$(grep -v '^#' vectors/h100-bf16-f32.vec | head -n 1)
want=${line##*;}
printf '@7 %s\n%s\n' "${line%;*}" "${line%;*}" >"$TMP/framed.txt"
run_ladder_in "$TMP/framed.txt" eval --model $p
expect_rc eval-framed-rc 0
expect_out_eq eval-framed "@7 $want
$want"
printf '@x %s\n' "${line%;*}" >"$TMP/badframe.txt"
run_ladder_in "$TMP/badframe.txt" eval --model $p
expect_rc eval-bad-frame-rc 3
expect_err eval-bad-frame "^ladder: <stdin>:1:1: bad frame, expected '@<case number> '"

sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 256 >"$TMP/$p.yaml"
run_ladder run "$TMP/$p.yaml" --db "$db"
expect_rc run-framed-sim-rc 0
run_ladder run "$TMP/$p.yaml" --db "$db" --device "exec-framed:$LADDER eval --model $p"
expect_rc run-framed-rc 0
expect_out run-framed-ok '^run [0-9]+ ok$'
words() {
    sqlite3 "$db" "SELECT rung, label, a, b, c, d FROM cases WHERE run_id = $1 ORDER BY id"
}
words 1 >"$TMP/sim.txt"
words 2 >"$TMP/framed.txt"
if [ -s "$TMP/sim.txt" ] && cmp -s "$TMP/sim.txt" "$TMP/framed.txt"; then
    ok run-framed-identical
else
    fail run-framed-identical "$(diff "$TMP/sim.txt" "$TMP/framed.txt" | head -3)"
fi

# LADDER_EXEC_WINDOW lines are written ahead of the answers: an oracle that
# answers only once it holds 1,000 lines needs a window of that many.
v="validate --model $p --db $TMP/v.db --cases 1000 -q"
batch="exec-framed:sh $TESTS_DATA/oracle-batch.sh 1000 $LADDER $p"
LADDER_EXEC_WINDOW=1000 run_ladder $v --device "$batch"
expect_rc exec-window-wide-rc 0
expect_out exec-window-wide '^validate: 0/1000 mismatches'
LADDER_EXEC_TIMEOUT=1 run_ladder $v --device "$batch"
expect_rc exec-window-default-rc 4
expect_err exec-window-default "timed out after 1000 ms waiting for the answer to case 0"
LADDER_EXEC_WINDOW=1 run_ladder $v --device "exec-framed:$LADDER eval --model $p"
expect_rc exec-window-one-rc 0
expect_out exec-window-one '^validate: 0/1000 mismatches'
for bad in 0 65537 8k; do
    LADDER_EXEC_WINDOW=$bad run_ladder $v --device "$batch"
    expect_rc exec-window-bad-$bad-rc 2
    expect_err exec-window-bad-$bad "bad LADDER_EXEC_WINDOW '$bad' \\(expected lines ahead, 1 to 65536\\)"
done

# An oracle that prints an extra line and drops a later one: framed, the
# run fails at the extra line.
run_ladder run "$TMP/$p.yaml" --db "$db" --device "exec-framed:sh $TESTS_DATA/oracle-extra.sh"
expect_rc run-framed-extra-rc 4
expect_err run-framed-extra "answered case 1 .* where case 2 \(input line 3\) was due"

# The oracle's stderr is not ladder's: one error line sums it up.
run_ladder run "$TMP/$p.yaml" --db "$db" --device "exec:sh $TESTS_DATA/oracle-die.sh"
expect_rc run-exec-stderr-rc 4
expect_err_line run-exec-stderr-one-line
expect_err run-exec-stderr-summary "its stderr: 'oracle-die: no more answers after 2 cases' \(2 lines in [^)]*\)"
kept=$(sed -n "s/.*lines in \([^)]*\)).*/\1/p" "$err")
if [ -n "$kept" ] && grep -q '^oracle-die: warming up$' "$kept"; then
    ok run-exec-stderr-file
else
    fail run-exec-stderr-file "no file '$kept' with the oracle's stderr"
fi
[ -n "$kept" ] && rm -f "$kept"
LADDER_EXEC_STDERR=$TMP/oracle.err run_ladder run "$TMP/$p.yaml" --db "$db" \
    --device "exec:sh $TESTS_DATA/oracle-die.sh"
check run-exec-stderr-named grep -q '^oracle-die: warming up$' "$TMP/oracle.err"

# SIGTERM and SIGINT to ladder in the middle of a run kill the oracle's
# process group (the shell and the child it started), then ladder dies of
# the signal. A background job of sh starts with SIGINT ignored (and a
# signal ignored from the start stays so): env gives it back its default.
dflt=
env --default-signal=INT true 2>/dev/null && dflt="env --default-signal=INT"
for sig in TERM INT; do
    rm -f "$TMP/group"
    LADDER_EXEC_TIMEOUT=60 $dflt "$LADDER" run "$TMP/$p.yaml" --db "$TMP/s.db" \
        --device "exec:sh $TESTS_DATA/oracle-group.sh $TMP/group" >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -s "$TMP/group" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 0.3
    kill -$sig $pid
    rc=0
    wait $pid || rc=$?
    group=$(cat "$TMP/group" 2>/dev/null)
    sleep 0.2
    if [ -n "$group" ] && ! kill -0 -- "-$group" 2>/dev/null && [ $rc -gt 128 ]; then
        ok run-exec-sig$sig-group-gone
    else
        fail run-exec-sig$sig-group-gone "ladder exit $rc, group '$group' still there"
        [ -n "$group" ] && kill -9 -- "-$group" 2>/dev/null
    fi
done
# An oracle's stderr is bounded: of 20 MB the file keeps the first MiB
# (1048576 bytes) and the last 64 KiB (65536), with a line between that
# says how much was left out (20000010 - 1048576 - 65536 = 18885898); the
# run itself is unaffected.
LADDER_EXEC_STDERR=$TMP/big.err run_ladder run "$TMP/$p.yaml" --db "$db" \
    --device "exec:yes 0123456789abcdefghi | head -c 20000000 >&2; echo last line >&2; exec $LADDER eval --model $p"
expect_rc run-exec-stderr-big-rc 0
size=$(wc -c <"$TMP/big.err")
check run-exec-stderr-big-capped test "$size" -gt 1114112 -a "$size" -lt 1114400
check run-exec-stderr-big-head test "$(head -c 19 "$TMP/big.err")" = "0123456789abcdefghi"
check run-exec-stderr-big-note grep -q "^\[ladder: 18885898 bytes of this program's stderr left out: the file keeps its first 1048576 and last 65536\]$" "$TMP/big.err"
check run-exec-stderr-big-tail test "$(tail -n 1 "$TMP/big.err")" = "last line"
# the same from an oracle that dies: its summary names the kept file
run_ladder run "$TMP/$p.yaml" --db "$db" --device "exec:yes 0123456789 | head -c 4999995 >&2; echo dying >&2; exit 3"
expect_rc run-exec-stderr-big-die-rc 4
expect_err run-exec-stderr-big-die-says "its stderr: 'dying'"
kept=$(sed -n "s/.*lines in \([^)]*\)).*/\1/p" "$err")
check run-exec-stderr-big-die-capped test -n "$kept" -a "$(wc -c <"$kept")" -lt 1114400
[ -n "$kept" ] && rm -f "$kept"

test_done
