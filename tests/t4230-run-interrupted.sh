#!/bin/sh
# A ladder run killed with SIGKILL in the middle leaves an interrupted run
# that history reads, with the cases it had stored; the store stays whole.
. tests/lib.sh

db=$TMP/l.db
# an oracle that answers slowly, so the run is surely in the middle
cat >"$TMP/slow.sh" <<EOS
#!/bin/sh
while IFS= read -r line; do
    sleep 0.01
    printf '%s\n' "\$line" | "$LADDER" eval --model sm90-mma-bf16-f32
done
EOS
chmod +x "$TMP/slow.sh"
"$LADDER" run recipes/sm90-mma-bf16-f32.yaml --db "$db" --device "exec:$TMP/slow.sh" >"$TMP/run.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ]; do
    n=$(sqlite3 "$db" "SELECT count(*) FROM cases" 2>/dev/null || echo 0)
    [ "${n:-0}" -gt 0 ] && break
    sleep 0.2
    i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
run_ladder history --db "$db"
expect_rc run-kill-history-rc 0
expect_out run-kill-interrupted '^ +1 interrupted '
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1")
if [ "${n:-0}" -gt 0 ]; then ok run-kill-cases-kept; else fail run-kill-cases-kept "$n cases"; fi
ic=$(sqlite3 "$db" "PRAGMA integrity_check")
if [ "$ic" = ok ]; then ok run-kill-integrity; else fail run-kill-integrity "$ic"; fi
test_done
