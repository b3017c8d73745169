#!/bin/sh
# Injected faults, each one clean error line and an intact store: another
# process holding the write lock past the busy timeout
# (LADDER_BUSY_TIMEOUT_MS, util/hooks.h), output files on /dev/full.
. tests/lib.sh

P=sm90-mma-bf16-f32
db=$TMP/l.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 >"$TMP/r.yaml"
"$LADDER" run "$TMP/r.yaml" --db "$db" >/dev/null 2>&1

whole() {
    [ "$(sqlite3 "$db" "PRAGMA integrity_check")" = ok ] &&
        [ -z "$(sqlite3 "$db" "PRAGMA foreign_key_check")" ] &&
        "$LADDER" history --db "$db" >/dev/null 2>&1
}

# SQLITE_BUSY: the sqlite3 shell holds BEGIN IMMEDIATE while `ladder run`
# starts with a 300 ms timeout. The shell says it holds the lock through a
# FIFO (it prints "held" once the BEGIN went through) and holds it until
# its input, another FIFO, is closed: no sleep, no guess of timing.
mkfifo "$TMP/sql.in" "$TMP/sql.out"
sqlite3 "$db" <"$TMP/sql.in" >"$TMP/sql.out" &
holder=$!
exec 3>"$TMP/sql.in" 4<"$TMP/sql.out"
echo "BEGIN IMMEDIATE; DELETE FROM builds WHERE 0; SELECT 'held';" >&3
read -r held <&4
check fault-busy-held test "$held" = held
rc=0
LADDER_BUSY_TIMEOUT_MS=300 "$LADDER" run "$TMP/r.yaml" --db "$db" >"$out" 2>"$err" || rc=$?
expect_rc fault-busy-rc 5
expect_err fault-busy-says "^ladder: cannot write '.*l.db': database is locked$"
expect_err_line fault-busy-line
exec 3>&- 4<&-
wait $holder
check fault-busy-store-whole whole
check fault-busy-nothing-written test "$(sqlite3 "$db" "SELECT count(*) FROM runs")" = 1
run_ladder run "$TMP/r.yaml" --db "$db"
check fault-busy-rerun test "$rc" -eq 0

# A damaged store is bad input (exit 3), however SQLite says so: a schema
# format number it does not know ("unsupported file format") as a damaged
# page ("database disk image is malformed"). Read, written or merged.
cp "$db" "$TMP/fmt.db"
printf '\005' | dd of="$TMP/fmt.db" bs=1 seek=47 conv=notrunc 2>/dev/null
for cmd in "history" "show 1" "infer 1" "run $TMP/r.yaml"; do
    name=fault-damaged-format-$(echo "$cmd" | cut -d' ' -f1)
    run_ladder $cmd --db "$TMP/fmt.db"
    expect_rc $name-rc 3
    expect_err $name-says "^ladder: cannot read '.*fmt.db': unsupported file format$"
done
rm -f "$TMP/m.db"
run_ladder merge "$TMP/m.db" "$TMP/fmt.db"
expect_rc fault-damaged-format-merge-rc 3
check fault-damaged-format-merge-no-output test ! -e "$TMP/m.db"

# Output files on a full disk: one line naming the file and the reason,
# exit 3 (an output file that cannot be written, docs/exit-codes.md), the
# store as it was.
"$LADDER" infer 1 --db "$db" >/dev/null 2>&1
ninf=$(sqlite3 "$db" "SELECT count(*) FROM inferences")
for cmd in "infer 1" "export 1" "report 1"; do
    name=fault-full-$(echo "$cmd" | cut -d' ' -f1)
    run_ladder $cmd --db "$db" -o /dev/full
    if [ "$rc" -ne 3 ] || ! grep -q "^ladder: .*'/dev/full': No space left on device" "$err"; then
        fail $name "exit $rc: $(_peek "$err")"
    else
        ok $name
    fi
    expect_err_line $name-line
    check $name-store-whole whole
done
check fault-full-inferences-kept test "$(sqlite3 "$db" "SELECT count(*) FROM inferences")" = "$ninf"

# A full disk under the store (LADDER_MAX_PAGES, util/hooks.h, caps the
# file at 60 pages of 4 KB, where a full ladder needs about 650): exit 5 with
# one line, the run marked failed with the rungs it committed, the store
# whole, and `run --resume` without the cap finishes the run.
db=$TMP/full.db
rc=0
LADDER_MAX_PAGES=60 "$LADDER" run recipes/sm90-mma-bf16-f32.yaml --db "$db" >"$out" 2>"$err" ||
    rc=$?
check fault-disk-full-rc test "$rc" -eq 5
expect_err fault-disk-full-says "database or disk is full"
expect_err_line fault-disk-full-line
check fault-disk-full-store-whole whole
check fault-disk-full-run-failed test "$(sqlite3 "$db" "SELECT status FROM runs")" = failed
run_ladder run --resume 1 --db "$db"
check fault-disk-full-resumed test "$rc" -eq 0 -a \
    "$(sqlite3 "$db" "SELECT status FROM runs")" = ok

test_done
