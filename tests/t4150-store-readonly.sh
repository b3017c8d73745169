#!/bin/sh
# A store that cannot be written (a read-only file in a read-only folder) is
# still read: history, show and infer --no-store open it read-only, without
# switching it to WAL or leaving -wal and -shm files beside it; infer that
# would store refuses it and says why. As root, permissions are not
# enforced, so the readers run as the unprivileged uid 65534 (setpriv).
. tests/lib.sh

dir=$TMP/ro
mkdir "$dir"
db=$dir/ladder.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm90-mma-bf16-f32 64 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible
expect_rc store-ro-run-rc 0
before=$(sha256sum "$db" | cut -d' ' -f1)
chmod 755 "$TMP"
chmod 444 "$db"
chmod 555 "$dir"

# as_reader ARGS...: runs $LADDER ARGS as a user who cannot write $dir.
as_reader() {
    if [ "$(id -u)" = 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$LADDER" "$@" >"$out" 2>"$err"
    else
        "$LADDER" "$@" >"$out" 2>"$err"
    fi
    rc=$?
}
# The read-only path is really taken: the reader cannot write the folder.
if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "touch '$dir/x'" 2>/dev/null
else
    touch "$dir/x" 2>/dev/null
fi
check store-ro-folder-unwritable test ! -e "$dir/x"

as_reader history --db "$db"
expect_rc store-ro-history-rc 0
expect_out store-ro-history-run '^ +1 ok +.* sim:sm90-mma-bf16-f32 +sm90-mma-bf16-f32 +run$'
expect_no_err store-ro-history-no-err

as_reader show 1 --db "$db"
expect_rc store-ro-show-rc 0
expect_out store-ro-show-run '^run 1: ok$'
expect_out store-ro-show-rung '^  visible +[0-9]+ cases'

as_reader infer 1 --db "$db" --no-store
expect_rc store-ro-infer-no-store-rc 0
expect_out store-ro-infer-no-store-d '^d +'

as_reader infer 1 --db "$db"
expect_rc store-ro-infer-store-rc 5
expect_err store-ro-infer-store-msg "^ladder: cannot write '.*ladder.db': the file or its folder is read-only$"

# Nothing was written: the same bytes, and no -wal or -shm beside it.
check store-ro-unchanged test "$(sha256sum "$db" | cut -d' ' -f1)" = "$before"
check store-ro-no-wal test ! -e "$db-wal" -a ! -e "$db-shm"

chmod 755 "$dir"
test_done
