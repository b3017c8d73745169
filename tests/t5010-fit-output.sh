#!/bin/sh
# ladder fit -o: the model file is written whole or not at all, and a write
# that fails says why (exit 3, "cannot write '<file>': <reason>") and leaves
# an existing file as it was.
. tests/lib.sh

# Twenty cases of a file the model family reproduces, its header saying so.
head -n 30 vectors/a100-f16-f32.vec | sed "s/^# cases: 5000\$/# cases: 20/" >"$TMP/s.vec"
run_ladder fit "$TMP/s.vec" -o "$TMP/m.yaml"
expect_rc fit-output-rc 0
run_ladder check --model "$TMP/m.yaml" "$TMP/s.vec"
expect_rc fit-output-checks 0
check fit-output-no-temp-left sh -c "[ \$(ls '$TMP' | grep -c '^m\.yaml') = 1 ]"

if [ -w /dev/full ]; then
    run_ladder fit "$TMP/s.vec" -o /dev/full
    expect_rc fit-output-full-rc 3
    expect_err fit-output-full-message "^ladder: cannot write '/dev/full': No space left on device$"
else
    skip fit-output-full-rc "no writable /dev/full here"
    skip fit-output-full-message "no writable /dev/full here"
fi

run_ladder fit "$TMP/s.vec" -o "$TMP/nodir/m.yaml"
expect_rc fit-output-missing-dir-rc 3
expect_err fit-output-missing-dir-message "^ladder: cannot write '$TMP/nodir/m.yaml': No such file or directory$"
expect_err_line fit-output-missing-dir-one-line

# A folder in the way: the rename fails and the temporary file goes.
mkdir "$TMP/dir.yaml"
run_ladder fit "$TMP/s.vec" -o "$TMP/dir.yaml"
expect_rc fit-output-onto-dir-rc 3
expect_err fit-output-onto-dir-message "^ladder: cannot write '$TMP/dir.yaml': "
check fit-output-onto-dir-no-temp sh -c "[ \$(ls '$TMP' | grep -c '^dir\.yaml') = 1 ]"

test_done
