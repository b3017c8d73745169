#!/bin/sh
# A store written by schema 1 (tests/data/store-schema-v1.sql, the schema as
# it was, with the hand-written fixture on top) is migrated to schema 2 the
# first time ladder opens it writable: the cases gain series, target and
# vary, derived from the labels where their pattern says so (the decode
# rung's "a code 0x1f": series a-code, target a, vary 31; the scaling rung's
# first word: its family) and NULL otherwise; nothing else changes. The
# migrated store has the columns of a fresh one, in the same order.
. tests/lib.sh

db=$TMP/old.db
sqlite3 "$db" <"$TESTS_DATA/store-schema-v1.sql" && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"
sqlite3 "$db" "PRAGMA user_version = 1;
INSERT INTO rungs (id, run_id, name) VALUES (3, 1, 'decode'), (4, 1, 'scaling');
INSERT INTO cases (id, run_id, rung, label, k, a, b, c, d) VALUES
  (4, 1, 'decode', 'a code 0x1f', 1, '[31]', '[1]', 0, 0),
  (5, 1, 'decode', 'b code 0xFE', 1, '[1]', '[254]', 0, 0),
  (6, 1, 'decode', 'square code 0x3', 1, '[3]', '[3]', 0, 0),
  (7, 1, 'scaling', 'floor S=3 d=2 neg', 1, '[1]', '[1]', 0, 0),
  (8, 1, 'scaling', 'sub carry S=-140 y=-150', 1, '[1]', '[1]', 0, 0),
  (9, 1, 'scaling', 'cdomg lanes 0,1', 1, '[1]', '[1]', 0, 0),
  (10, 1, 'scaling', 'unknown thing', 1, '[1]', '[1]', 0, 0);"
check store-migrate-fixture test "$(sqlite3 "$db" 'PRAGMA user_version')" = 1

# Read-only, an old schema is refused with what to do about it (as an
# unprivileged user when run as root, who could write it anyway).
chmod 444 "$db"
chmod 755 "$TMP"
if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups "$LADDER" history --db "$db" >"$out" 2>"$err"
    rc=$?
else
    run_ladder history --db "$db"
fi
expect_rc store-migrate-readonly-refused-rc 3
expect_err store-migrate-readonly-refused-msg "schema version 1, older than this ladder's 7, and is opened read-only; open it writable once to migrate it"
check store-migrate-readonly-untouched test "$(sqlite3 "$db" 'PRAGMA user_version')" = 1
chmod 644 "$db"

run_ladder history --db "$db"
expect_rc store-migrate-history-rc 0
expect_out store-migrate-history-run '^ +1 ok '
check store-migrate-version test "$(sqlite3 "$db" 'PRAGMA user_version')" = 7

# The survey tables a migration adds are those a fresh store has, column
# for column and constraint for constraint.
fresh=$TMP/fresh-survey.db
sqlite3 "$fresh" <db/schema.sql
# (ALTER TABLE ADD COLUMN writes its columns after the space that closed
# the last line: spaces before ',' and ')' do not count.)
norm_sql() { sed 's/ *--.*//' | tr -s ' \n' ' ' | sed 's/ *\([,)]\)/\1/g'; }
survey_sql() { sqlite3 "$1" "SELECT sql FROM sqlite_master WHERE name LIKE 'survey%' ORDER BY name" | norm_sql; }
check store-migrate-surveys-present test -n "$(survey_sql "$db")"
check store-migrate-surveys-as-fresh test "$(survey_sql "$db")" = "$(survey_sql "$fresh")"

# So are the shard columns of schema 5 and the parts merge records; an old
# validation reads as shard 0 of 1.
shard_sql() { sqlite3 "$1" "SELECT sql FROM sqlite_master WHERE name IN ('validations', 'merge_parts') ORDER BY name" | norm_sql; }
check store-migrate-shards-as-fresh test "$(shard_sql "$db")" = "$(shard_sql "$fresh")"
check store-migrate-shards-old-validation test "$(sqlite3 "$db" 'SELECT shard_index, shard_count FROM validations WHERE id = 1')" = '0|1'

q() { sqlite3 -separator '|' -nullvalue NULL "$db" "$1"; }
expect_row() { # NAME ID WANT: series|target|vary of case ID
    got=$(q "SELECT series, target, vary FROM cases WHERE id = $2")
    if [ "$got" = "$3" ]; then ok "$1"; else fail "$1" "case $2: '$got', want '$3'"; fi
}
expect_row store-migrate-decode-a 4 'a-code|a|31'
expect_row store-migrate-decode-b-upper-hex 5 'b-code|b|254'
expect_row store-migrate-decode-square-null 6 'NULL|NULL|NULL'
expect_row store-migrate-scaling-floor 7 'floor|window scale_floor align_round|NULL'
expect_row store-migrate-scaling-sub 8 'sub|group_sub_floor|NULL'
expect_row store-migrate-scaling-cdomg 9 'cdomg|cdom_window cdom_group cdom_per_group|NULL'
expect_row store-migrate-scaling-unknown-null 10 'NULL|NULL|NULL'
expect_row store-migrate-other-rung-null 1 'NULL|NULL|NULL'
check store-migrate-words-kept test "$(q "SELECT a || b || c || d FROM cases WHERE id = 2")" = \
    '[15360,4294967295,0,0][15360,15360,0,0]21432893442147483647'

# The same columns as a fresh store, in the same order; the file is whole.
fresh=$TMP/fresh.db
sqlite3 "$fresh" <db/schema.sql
cols() { sqlite3 "$1" "SELECT group_concat(name || ':' || type || ':' || \"notnull\", ',') FROM pragma_table_info('cases')"; }
check store-migrate-columns-as-fresh test "$(cols "$db")" = "$(cols "$fresh")"
# Schema 3's device provenance columns of runs, likewise.
rcols() { sqlite3 "$1" "SELECT group_concat(name || ':' || type || ':' || \"notnull\" || ':' || dflt_value, ',') FROM pragma_table_info('runs')"; }
check store-migrate-runs-columns-as-fresh test "$(rcols "$db")" = "$(rcols "$fresh")"
check store-migrate-runs-spec-empty test "$(q "SELECT device_spec || model_file || model_sha256 FROM runs WHERE id = 1")" = ""
check store-migrate-integrity test "$(q 'PRAGMA integrity_check')" = ok

# A migrated store opens again without migrating twice.
run_ladder show 1 --db "$db"
expect_rc store-migrate-reopen-rc 0
expect_out store-migrate-reopen-show '^run 1: ok$'

# A migration that fails part way (a full disk: LADDER_MAX_PAGES) says
# which step failed, why, and what it left: the steps before it committed,
# the store whole at that version; once the cause is gone it completes.
fresh=$TMP/half.db
sqlite3 "$fresh" <"$TESTS_DATA/store-schema-v1.sql" && sqlite3 "$fresh" <"$TESTS_DATA/store-fixture.sql"
sqlite3 "$fresh" "PRAGMA user_version = 1"
LADDER_MAX_PAGES=30 run_ladder infer 1 --db "$fresh"
expect_rc store-migrate-half-rc 5
expect_err_line store-migrate-half-line
expect_err store-migrate-half-says "^ladder: cannot migrate '.*half.db' from schema version 5 to 6: database or disk is full; the store is left whole at schema version 5 \(each step is one transaction\)"
check store-migrate-half-version test "$(sqlite3 "$fresh" 'PRAGMA user_version')" = 5
check store-migrate-half-intact test "$(sqlite3 "$fresh" 'PRAGMA integrity_check')" = ok
run_ladder history --db "$fresh"
expect_rc store-migrate-half-then-rc 0
check store-migrate-half-then-version test "$(sqlite3 "$fresh" 'PRAGMA user_version')" = 7

# Settings out of range are refused, not ignored.
for bad in -1 12345678901234567890 10s; do
    LADDER_BUSY_TIMEOUT_MS=$bad run_ladder history --db "$db"
    expect_rc store-busy-timeout-bad-$bad-rc 2
    expect_err store-busy-timeout-bad-$bad "^ladder: bad LADDER_BUSY_TIMEOUT_MS '$bad' \(expected milliseconds, 0 to 3600000\)$"
done
LADDER_MAX_PAGES=0 run_ladder history --db "$db"
expect_rc store-max-pages-bad-rc 2
expect_err store-max-pages-bad "bad LADDER_MAX_PAGES '0'"
LADDER_BUSY_TIMEOUT_MS=0 run_ladder history --db "$db"
expect_rc store-busy-timeout-zero-rc 0

test_done
