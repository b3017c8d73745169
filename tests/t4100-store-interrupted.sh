#!/bin/sh
# A run whose process was killed reads as interrupted: `ladder history` opens
# the store, sees that the pid recorded by the 'running' run is gone from
# this host, and marks the run 'interrupted' in the file.
#
# The process here is a `sleep` standing for a writer that was killed with
# SIGKILL; the unit test store-sigkill kills a real writer in the middle of
# a batch of cases and checks the file it leaves.
. tests/lib.sh

db=$TMP/ladder.db
sqlite3 "$db" <db/schema.sql && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"
check store-int-fixture test -s "$db"

host=$(uname -n)
sleep 300 &
victim=$!
sqlite3 "$db" "INSERT INTO runs (id, status, started, command, argv, host, pid, pid_start, build_id, recipe_path, datapath, arch, instr, kind, shape, sass, sass_expected, fmt_a, fmt_b, fmt_c, fmt_d) VALUES
  (3, 'running', 1750000200, 'run', '[\"ladder\",\"run\"]', '$host', $victim, 0, 1, '', 'sm90-mma-f16-f32', 'sm_90a', 'mma.sync', '', 'm16n8k16', '', '', 'f16', 'f16', 'f32', 'f32'),
  (4, 'running', 1750000300, 'run', '[\"ladder\",\"run\"]', 'another-host-$host', 1, 0, 1, '', '', '', '', '', '', '', '', '', '', '', '');"

run_ladder history --db "$db"
expect_rc store-int-alive-rc 0
expect_out store-int-alive-running '^ +3 running '

kill -9 "$victim"
wait "$victim" 2>/dev/null

run_ladder history --db "$db"
expect_rc store-int-killed-rc 0
expect_out store-int-killed-interrupted '^ +3 interrupted '
expect_no_err store-int-killed-no-err
# Marked in the file itself, for plain SQL readers.
st=$(sqlite3 "$db" "SELECT status FROM runs WHERE id = 3")
if [ "$st" = interrupted ]; then ok store-int-marked-in-file; else fail store-int-marked-in-file "status '$st'"; fi
# Another host's run is not this host's to judge.
expect_out store-int-other-host-running '^ +4 running '
# The earlier runs are untouched.
expect_out store-int-ok-untouched '^ +1 ok '
expect_out store-int-failed-untouched '^ +2 failed '

run_ladder show 3 --db "$db"
expect_rc store-int-show-rc 0
expect_out store-int-show-status '^run 3: interrupted$'
expect_out store-int-show-message "process $victim on $host ended before the run did"

run_ladder history --db "$db" --json
st=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([x["status"] for x in r if x["id"]==3][0])' "$out" 2>&1)
if [ "$st" = interrupted ]; then ok store-int-json; else fail store-int-json "$st"; fi

# The file is whole.
ic=$(sqlite3 "$db" "PRAGMA integrity_check")
if [ "$ic" = ok ]; then ok store-int-integrity; else fail store-int-integrity "$ic"; fi

test_done
