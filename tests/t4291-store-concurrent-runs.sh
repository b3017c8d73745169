#!/bin/sh
# Concurrent writers of one store take turns (docs/store.md): without
# LADDER_BUSY_TIMEOUT_MS a writer waits for the lock as long as another
# holds it (here the sqlite3 shell, for 11 s: longer than the 10 s that
# was once the limit; the waiter is still running then), then completes;
# commands started together all end ok, each run whole; a set limit still
# gives "database is locked"; processes creating one store together all
# open it.
. tests/lib.sh

db=$TMP/l.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm90-mma-bf16-f32 64 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible
expect_rc concurrent-setup-rc 0
want=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1")

# The sqlite3 shell takes the lock and says so through a FIFO; it holds it
# until its input FIFO is closed.
mkfifo "$TMP/sql.in" "$TMP/sql.out"
sqlite3 "$db" <"$TMP/sql.in" >"$TMP/sql.out" &
holder=$!
exec 3>"$TMP/sql.in" 4<"$TMP/sql.out"
echo "BEGIN IMMEDIATE; DELETE FROM builds WHERE 0; SELECT 'held';" >&3
read -r held <&4
check concurrent-holder-holds test "$held" = held
# A run that waits for the lock, its copies of the FIFOs closed (an open
# write end would keep the shell from ever seeing the end of its input).
"$LADDER" run "$TMP/r.yaml" --db "$db" --rungs visible >"$TMP/wait.out" 2>"$TMP/wait.err" 3>&- 4<&- &
waiter=$!
LADDER_BUSY_TIMEOUT_MS=200 run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible
expect_rc concurrent-limit-rc 5
expect_err concurrent-limit-says "database is locked"
# 11 s with the lock held: a waiter with the 10 s limit of old would have
# given up by now; this one is still waiting.
sleep 11
check concurrent-waits-still-waiting kill -0 $waiter
exec 3>&- 4<&-
wait $holder
rc=0
wait $waiter || rc=$?
check concurrent-waits-rc test "$rc" = 0
check concurrent-waits-ok grep -qx 'run 2 ok' "$TMP/wait.out"

# Six runs started together: six ok runs, each with the whole rung.
pids=
for i in 1 2 3 4 5 6; do
    "$LADDER" run "$TMP/r.yaml" --db "$db" --rungs visible >"$TMP/c$i.out" 2>&1 &
    pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
check concurrent-six-exit test "$bad" = 0
check concurrent-six-ok test "$(cat "$TMP"/c?.out | grep -c '^run [0-9]* ok$')" = 6
check concurrent-six-stored test "$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE status = 'ok'")" = 8
check concurrent-six-whole test -z "$(sqlite3 "$db" "SELECT run_id FROM cases GROUP BY run_id HAVING count(*) != $want")"

# Ten processes creating one new store at once, 30 times: every one opens
# it (none reads a store half made as another application's, none fails to
# switch it to WAL) and stores its validation.
refused=0
lost=0
for t in $(seq 30); do
    rm -f "$TMP/n.db" "$TMP/n.db-wal" "$TMP/n.db-shm"
    for i in 1 2 3 4 5 6 7 8 9 10; do
        "$LADDER" validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 \
            --cases 10 --db "$TMP/n.db" -q >/dev/null 2>"$TMP/n$i.err" &
    done
    wait
    for i in 1 2 3 4 5 6 7 8 9 10; do
        if [ -s "$TMP/n$i.err" ]; then
            refused=$((refused + 1))
            cp "$TMP/n$i.err" "$TMP/refused.err"
        fi
    done
    [ "$(sqlite3 "$TMP/n.db" "SELECT count(*) FROM validations WHERE status = 'ok'")" = 10 ] ||
        lost=$((lost + 1))
done
if [ "$refused" = 0 ]; then ok concurrent-create-none-refused
else fail concurrent-create-none-refused "$refused of 300 said: $(cat "$TMP/refused.err")"; fi
check concurrent-create-all-stored test "$lost" = 0
test_done
