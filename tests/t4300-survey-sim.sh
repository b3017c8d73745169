#!/bin/sh
# ladder survey on simulated devices: one table row per datapath with the
# ladder's probes, the inferred model against its preset, both validations
# and the captured vectors replayed; the same as JSON (-o FILE, and
# --json on stdout as the other commands' --json); a survey resumed
# with --resume redoes only what is not finished; cuda:0 without a GPU
# exits 4 before any store exists; a bad --device is a usage error.
. tests/lib.sh

db=$TMP/s.db
json=$TMP/s.json
run_ladder survey --device sim:sm_90a --only 'sm90-mma-bf16*32' --cases 2000 --db "$db" -o "$json"
expect_rc survey-sim-rc 0
expect_out survey-sim-header '^survey 1 on sim:sm_90a \(sm_90a\): 1 datapath$'
# The probes are the run's stored cases but the random rung's (counted here
# by sqlite3); the vectors the 5,000 lines of h100-bf16-f32.vec.
probes=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung <> 'random'")
vec=$(grep -vc '^#' vectors/h100-bf16-f32.vec)
expect_out survey-sim-row "^sm90-mma-bf16-f32 +$probes += preset +0/2000 +0/2000 +1: 0/$vec +[0-9.]+$"
expect_out survey-sim-summary '^survey 1: 1 of 1 as their preset \(= or ≡\) with 0 mismatches$'
# history: the run is the survey's, validated twice on 2000 cases, on the
# simulated device named by its spec
run_ladder history --db "$db"
expect_out survey-sim-history '^ +1 ok +[0-9-]+ [0-9:]+ +[0-9]+ 0/2000 0/2000 +sim:sm90-mma-bf16-f32 +sm90-mma-bf16-f32 +survey$'

# The JSON, read back by SQLite's own JSON functions.
jq() { sqlite3 :memory: "SELECT json_extract(readfile('$json'), '$1')"; }
check survey-json-valid test "$(sqlite3 :memory: "SELECT json_valid(readfile('$json'))")" = 1
check survey-json-name test "$(jq '$.datapaths[0].name')" = sm90-mma-bf16-f32
check survey-json-probes test "$(jq '$.datapaths[0].probes')" = "$probes"
check survey-json-same test "$(jq '$.datapaths[0].inferred_equals_preset')" = 1
check survey-json-validate test "$(jq '$.datapaths[0].validate_inferred.cases')/$(jq '$.datapaths[0].validate_preset.mismatches')" = 2000/0
check survey-json-vectors test "$(jq '$.datapaths[0].vectors.cases')" = "$vec"
check survey-json-ok test "$(jq '$.ok')" = 1
# ... and the store keeps the same text.
check survey-json-stored test "$(sqlite3 "$db" 'SELECT result FROM surveys WHERE id = 1')" = "$(cat "$json")"
check survey-json-file-only-json test "$(ls "$TMP" | grep -c '^s\.json')" = 1

# --json is a flag, as for every other command: the document on stdout
# instead of the table (the same text -o wrote, the datapath skipped).
run_ladder survey --device sim:sm_90a --only 'sm90-mma-bf16*32' --cases 2000 --db "$db" --resume --json
expect_rc survey-json-stdout-rc 0
check survey-json-stdout-valid test "$(sqlite3 :memory: "SELECT json_valid(readfile('$out'))")" = 1
check survey-json-stdout-same test "$(cat "$out")" = "$(cat "$json")"
check survey-json-stdout-no-table test "$(grep -c '^survey 1' "$out")" = 0
# ... and takes no file: the old spelling says what to write instead.
expect_usage_error survey-json-no-file survey --device sim:sm_90a --json "$TMP/old.json" --db "$TMP/old.db"
check survey-json-no-file-says grep -q "write the JSON to a file with -o <file>" "$err"
check survey-json-no-file-none test ! -e "$TMP/old.json" -a ! -e "$TMP/old.db"
check survey-stored-row test "$(sqlite3 "$db" "SELECT status || ' ' || run_id || ' ' || differ || '.' FROM survey_datapaths")" = 'done 1 .'
# The runs are the ladder's, with the validations of both models.
check survey-validations test "$(sqlite3 "$db" "SELECT group_concat(model || ':' || cases || ':' || mismatches, ' ') FROM validations WHERE run_id = 1")" = 'run 1 inferred:2000:0 sm90-mma-bf16-f32:2000:0'

# Again with --resume: nothing left to do, no new run, the same row.
run_ladder survey --device sim:sm_90a --only 'sm90-mma-bf16*32' --cases 2000 --db "$db" --resume
expect_rc survey-resume-rc 0
check survey-resume-no-run test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 1
check survey-resume-same-survey test "$(sqlite3 "$db" 'SELECT count(*) FROM surveys')" = 1
expect_out survey-resume-row "^sm90-mma-bf16-f32 +$probes += preset +0/2000 +0/2000 "
# Without --resume a new survey begins in the same store; nothing is deleted.
run_ladder survey --device sim:sm_90a --only 'sm90-mma-bf16*32' --cases 1000 --db "$db"
expect_out survey-new-header '^survey 2 on sim:sm_90a'
check survey-new-keeps test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 2

# An interrupted survey (one datapath finished, the other not recorded)
# resumes with just the missing one.
db2=$TMP/r.db
run_ladder survey --device sim:sm90 --only 'sm90-mma-s8x*-s32' --cases 500 --db "$db2"
expect_out survey-two-rows '^sm90-mma-s8xu8-s32 '
sqlite3 "$db2" "DELETE FROM survey_datapaths WHERE datapath = 'sm90-mma-s8xu8-s32';
                UPDATE surveys SET status = 'running', ended = NULL"
run_ladder survey --device sim:sm90 --only 'sm90-mma-s8x*-s32' --cases 500 --db "$db2" --resume
expect_rc survey-partial-rc 0
check survey-partial-one-run test "$(sqlite3 "$db2" 'SELECT count(*) FROM runs')" = 3
check survey-partial-which test "$(sqlite3 "$db2" 'SELECT datapath FROM runs WHERE id = 3')" = sm90-mma-s8xu8-s32
expect_out survey-partial-both "^sm90-mma-s8xs8-s32 .*= preset"
check survey-partial-ended test "$(sqlite3 "$db2" 'SELECT status FROM surveys')" = ok
# A finished datapath recorded as differing makes the survey answer no.
sqlite3 "$db2" "UPDATE survey_datapaths SET differ = 'window' WHERE datapath = 'sm90-mma-s8xs8-s32'"
run_ladder survey --device sim:sm90 --only 'sm90-mma-s8x*-s32' --cases 500 --db "$db2" --resume
expect_rc survey-differ-rc 1
expect_out survey-differ-row '^sm90-mma-s8xs8-s32 .*differs: window'
check survey-differ-stored test "$(sqlite3 "$db2" 'SELECT status FROM surveys')" = failed

# Replaying needs no vectors: an empty folder replays none.
mkdir "$TMP/novec"
run_ladder survey --device sim:sm_80 --only sm80-mma-u8xu8-s32 --cases 100 --db "$TMP/v.db" --vectors "$TMP/novec"
expect_out survey-no-vectors '^sm80-mma-u8xu8-s32 .* 0/100 +0/100 +- '

# cuda:0: on a machine without a GPU, exit 4, one line, and no store.
gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && gpu=1
if [ "$gpu" = 0 ]; then
    # from an empty folder with the default store: it stays empty
    mkdir "$TMP/empty"
    (cd "$TMP/empty" && "$LADDER" survey --device cuda:0 --cases 10 >"$out" 2>"$err")
    rc=$?
    expect_rc survey-cuda-none-rc 4
    expect_err survey-cuda-none-message "^ladder: device 'cuda:0': "
    expect_err_line survey-cuda-none-one-line
    check survey-cuda-none-nothing-left test -z "$(ls -A "$TMP/empty")"
else
    printf '     (not counted: a GPU is listed, cuda:0 would survey it)\n'
fi

expect_usage_error survey-bad-arch survey --device sim:sm_42 --db "$TMP/bad.db"
expect_usage_error survey-bad-arch-word survey --device sim:hopper --db "$TMP/bad.db"
expect_usage_error survey-bad-device survey --device exec:cat --db "$TMP/bad.db"
expect_usage_error survey-only-nothing survey --device sim:sm_80 --only 'nothing*' --db "$TMP/bad.db"
expect_usage_error survey-bad-cases survey --device sim:sm_80 --cases 0 --db "$TMP/bad.db"
check survey-usage-no-db test ! -e "$TMP/bad.db"

test_done
