#!/bin/sh
# ladder infer -o: the model file is written whole or not at all, and a
# write that fails says why (exit 3, "cannot write '<file>': <reason>").
. tests/lib.sh

db=$TMP/l.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm90-mma-bf16-f32 256 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db"
expect_rc infer-output-run-rc 0

run_ladder infer 1 --db "$db" -o "$TMP/m.yaml"
expect_rc infer-output-rc 0
run_ladder model show "$TMP/m.yaml"
expect_rc infer-output-readable 0
check infer-output-no-temp-left sh -c "[ \$(ls '$TMP' | grep -c '^m\.yaml') = 1 ]"

if [ -w /dev/full ]; then
    run_ladder infer 1 --db "$db" -o /dev/full
    expect_rc infer-output-full-rc 3
    expect_err infer-output-full-message "^ladder: cannot write '/dev/full': No space left on device$"
else
    skip infer-output-full-rc "no writable /dev/full here"
    skip infer-output-full-message "no writable /dev/full here"
fi

run_ladder infer 1 --db "$db" -o "$TMP/nodir/m.yaml"
expect_rc infer-output-missing-dir-rc 3
expect_err infer-output-missing-dir-message "^ladder: cannot write '$TMP/nodir/m.yaml': No such file or directory$"
expect_err_line infer-output-missing-dir-one-line

test_done
