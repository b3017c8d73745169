#!/bin/sh
# A recipe's or a store's exec device runs a command only when the user
# named it (--device) or trusted it (--trust-exec); a trusted one prints the
# command before it runs (docs/security.md).
. tests/lib.sh

p=sm90-mma-bf16-f32
db=$TMP/l.db
cd "$TMP" || exit 1
sh "$OLDPWD/$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 64 >r.yaml
dev="exec:touch PWNED; $LADDER eval --model $p"
sed "s|^device:.*|device: \"$dev\"|" r.yaml >evil.yaml
check trust-recipe-has-exec grep -q '^device: "exec:touch PWNED' evil.yaml

run_ladder run evil.yaml --db "$db"
expect_rc trust-run-recipe-refused-rc 2
expect_err_line trust-run-recipe-refused-line
expect_err trust-run-recipe-refused-says "recipe 'evil.yaml' names device 'exec:touch PWNED.*runs a command.*--trust-exec"
check trust-run-recipe-inert test ! -e PWNED
check trust-run-recipe-no-run test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 0

run_ladder run evil.yaml --db "$db" --trust-exec
expect_rc trust-run-trusted-rc 0
expect_err trust-run-trusted-prints "^ladder: running the device of recipe 'evil.yaml' \(--trust-exec\): sh -c 'touch PWNED; "
check trust-run-trusted-ran test -e PWNED
rm -f PWNED

run_ladder run evil.yaml --db "$TMP/named.db" --device "$dev"
expect_rc trust-run-named-rc 0
expect_no_err trust-run-named-silent
rm -f PWNED

# The store's device_spec is as inert: validate latest refuses it.
run_ladder infer latest --db "$db"
expect_rc trust-infer-rc 0
run_ladder validate latest --db "$db" --cases 50 -q
expect_rc trust-validate-refused-rc 2
expect_err trust-validate-refused-says "run 1 names device 'exec:touch PWNED"
check trust-validate-inert test ! -e PWNED
run_ladder validate latest --db "$db" --cases 50 -q --trust-exec
expect_rc trust-validate-trusted-rc 0
expect_err trust-validate-trusted-prints "^ladder: running the device of run 1 \(--trust-exec\): sh -c 'touch PWNED"
check trust-validate-trusted-ran test -e PWNED
rm -f PWNED
run_ladder validate latest --db "$db" --cases 50 -q --device sim:$p
expect_rc trust-validate-other-device-rc 0
check trust-validate-other-device-inert test ! -e PWNED

# A resumed run goes on on its stored device: trusted, or named again.
LADDER_CRASH_AT=rung:3 "$LADDER" run evil.yaml --db "$TMP/crash.db" --trust-exec >/dev/null 2>&1
rm -f PWNED
sqlite3 "$TMP/crash.db" "UPDATE runs SET status = 'failed'" 2>/dev/null
run_ladder run --resume 1 --db "$TMP/crash.db"
expect_rc trust-resume-refused-rc 2
expect_err trust-resume-refused-says "run 1 names device 'exec:touch PWNED"
check trust-resume-inert test ! -e PWNED
run_ladder run --resume 1 --db "$TMP/crash.db" --device "$dev"
expect_rc trust-resume-named-rc 0
expect_out trust-resume-named-ok '^run 1 ok$'

# A store holding a trigger (no ladder schema has one) is not opened: a
# trigger on cases could rewrite every word as it is written.
cp "$TMP/named.db" "$TMP/trig.db"
sqlite3 "$TMP/trig.db" "CREATE TRIGGER t AFTER INSERT ON cases BEGIN UPDATE cases SET d = 0 WHERE id = new.id; END"
run_ladder run r.yaml --db "$TMP/trig.db"
expect_rc trust-store-trigger-run-rc 3
expect_err trust-store-trigger-run-says "trig.db' holds 1 trigger, which no ladder schema has"
check trust-store-trigger-no-run test "$(sqlite3 "$TMP/trig.db" 'SELECT count(*) FROM runs')" = 1
run_ladder history --db "$TMP/trig.db"
expect_rc trust-store-trigger-history-rc 3

# Nor one whose schema differs from ladder's: a conflict clause on a
# rebuilt table would delete earlier rows as new ones are written, an index
# of its own could refuse them, a default could change them. Comments and
# white space may differ (a migrated store's ALTERs leave other text than
# db/schema.sql's).
obs=$(sqlite3 "$TMP/named.db" 'SELECT count(*) FROM observations WHERE run_id = 1')
check trust-store-schema-has-observations test "$obs" -gt 0
cp "$TMP/named.db" "$TMP/conf.db"
sqlite3 "$TMP/conf.db" "PRAGMA foreign_keys = OFF; BEGIN;
    CREATE TABLE o2 (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rung TEXT NOT NULL,
        key TEXT NOT NULL, value TEXT NOT NULL, UNIQUE (rung, key, value) ON CONFLICT REPLACE,
        FOREIGN KEY (run_id, rung) REFERENCES rungs(run_id, name)) STRICT;
    INSERT INTO o2 SELECT * FROM observations; DROP TABLE observations;
    ALTER TABLE o2 RENAME TO observations;
    CREATE INDEX observations_run ON observations (run_id); COMMIT"
run_ladder run r.yaml --db "$TMP/conf.db"
expect_rc trust-store-schema-conflict-rc 3
expect_err trust-store-schema-conflict-says "conf.db': table 'observations' is not as ladder creates it"
check trust-store-schema-conflict-kept test "$(sqlite3 "$TMP/conf.db" 'SELECT count(*) FROM observations WHERE run_id = 1')" = "$obs"
check trust-store-schema-conflict-no-run test "$(sqlite3 "$TMP/conf.db" 'SELECT count(*) FROM runs')" = 1
cp "$TMP/named.db" "$TMP/idx.db"
sqlite3 "$TMP/idx.db" "CREATE UNIQUE INDEX mine ON cases (id, rung)"
run_ladder history --db "$TMP/idx.db"
expect_rc trust-store-schema-index-rc 3
expect_err trust-store-schema-index-says "idx.db' holds index 'mine' on 'cases', which no ladder schema has"
cp "$TMP/named.db" "$TMP/default.db"
sqlite3 "$TMP/default.db" "PRAGMA writable_schema = ON;
    UPDATE sqlite_master SET sql = replace(sql, 'DEFAULT ''ok''', 'DEFAULT ''failed''')
        WHERE name = 'validations'"
run_ladder history --db "$TMP/default.db"
expect_rc trust-store-schema-default-rc 3
expect_err trust-store-schema-default-says "table 'validations' is not as ladder creates it"
# The user's own tables, views and their indexes are no part of ladder's.
cp "$TMP/named.db" "$TMP/own.db"
sqlite3 "$TMP/own.db" "CREATE TABLE notes (run INTEGER, text TEXT); CREATE INDEX notes_run ON notes (run);
    CREATE VIEW oks AS SELECT id FROM runs WHERE status = 'ok'"
run_ladder run r.yaml --db "$TMP/own.db"
expect_rc trust-store-schema-own-tables-rc 0

# A recipe's model file is read only when the command line allows it: a
# recipe naming sim:<any file> could otherwise print the file's first key
# in the model reader's error.
printf 'topsecret: hunter2\n' >secret.txt
sed "s|^device:.*|device: \"sim:$TMP/secret.txt\"|" r.yaml >peek.yaml
run_ladder run peek.yaml --db "$TMP/peek.db"
expect_rc trust-recipe-model-file-rc 2
expect_err trust-recipe-model-file-says "recipe 'peek.yaml' names device 'sim:.*secret.txt', which reads the model file '.*secret.txt'; ladder reads a model file a recipe names only when it is named with --device"
check trust-recipe-model-file-not-read test -z "$(grep -l hunter2 "$err" "$out")"
"$LADDER" model show $p >m.yaml
sed "s|^device:.*|device: \"sim:$TMP/m.yaml\"|" r.yaml >own.yaml
run_ladder run own.yaml --db "$TMP/peek.db" --trust-exec
expect_rc trust-recipe-model-file-trusted 0
run_ladder run own.yaml --db "$TMP/peek.db" --device "sim:$TMP/m.yaml"
expect_rc trust-recipe-model-file-named 0
sed "s|^device:.*|device: \"sim:$p\"|" r.yaml >preset.yaml
run_ladder run preset.yaml --db "$TMP/peek.db"
expect_rc trust-recipe-preset-needs-nothing 0
test_done
