#!/bin/sh
# Surveys as results: a survey stopped by SIGTERM reads "interrupted after
# K of 9 datapaths" in show, history --surveys and its report's first
# line, and --resume finishes it (both with --no-decide: what this tests is
# the stop and the resume, not the rungs); two surveys of one generation compare
# datapath by datapath with diff survey:A survey:B (= everywhere, exit 0);
# AMD datapaths whose inferred rows differ from the preset without any
# case separating them are ≡, and the survey exits 0; diff of two surveys
# pairs two generations' datapaths by their names without the generation.
. tests/lib.sh

db=$TMP/s.db
"$LADDER" survey --device sim:sm_86 --cases 200 --no-decide --db "$db" -q >"$TMP/int.out" 2>&1 &
pid=$!
# wait (at most about 60 s) until two datapaths are stored, then stop it
i=0
while [ "$i" -lt 600 ]; do
    n=$(sqlite3 "$db" "SELECT count(*) FROM survey_datapaths" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 2 ] && break
    sleep 0.1
    i=$((i + 1))
done
kill -TERM "$pid"
wait "$pid"
check survey-int-killed test "$?" -ne 0
k=$(sqlite3 "$db" "SELECT count(*) FROM survey_datapaths")
check survey-int-partial test "$k" -ge 2 -a "$k" -lt 9
run_ladder show survey:1 --db "$db"
expect_rc survey-int-show-rc 0
expect_out survey-int-show-first "^survey 1 on sim:sm_86 \(sm_86\): interrupted after $k of 9 datapaths$"
expect_out survey-int-show-last "^survey 1: $k of $k as their preset .*; interrupted: $((9 - k)) of 9 datapaths not surveyed$"
run_ladder history --surveys --db "$db"
expect_out survey-int-history " sim:sm_86 +sm_86 +$k of $k +interrupted after $k of 9 datapaths$"
run_ladder history --surveys --status interrupted --db "$db" --json
check survey-int-history-json test "$(sqlite3 :memory: "SELECT json_extract(readfile('$out'), '\$[0].planned') || ' ' || json_extract(readfile('$out'), '\$[0].status')")" = "9 interrupted"
run_ladder report survey:1 --db "$db" --format md
first=$(grep -v '^#' "$out" | grep -v '^$' | head -n 1)
check survey-int-report-first test "$first" = "Survey 1 on simulated sm_86: interrupted after $k of 9 datapaths; what follows covers those $k only."

# --resume finishes it: every datapath, ok
run_ladder survey --device sim:sm_86 --cases 200 --no-decide --db "$db" -q --resume
expect_rc survey-int-resume-rc 0
expect_out survey-int-resume-summary '^survey 1: 9 of 9 as their preset'
run_ladder history --surveys --db "$db"
expect_out survey-int-resumed-ok " 9 of 9 +ok$"

# two surveys of one generation: = datapath by datapath
db2=$TMP/two.db
"$LADDER" survey --device sim:sm_70 --cases 200 --db "$db2" -q >/dev/null
"$LADDER" survey --device sim:sm_70 --cases 300 --db "$db2" -q >/dev/null
run_ladder diff survey:1 survey:2 --db "$db2"
expect_rc survey-diff-rc 0
expect_out survey-diff-row '^sm70-mma-f16-f32 +=  ?\(the canonical models are identical\)$'
expect_out survey-diff-count '^3 datapaths: 3 =, 0 ≡, 0 differ, 0 only in A, 0 only in B, 0 not compared$'
run_ladder diff survey:1 survey:9 --db "$db2"
expect_rc survey-diff-missing-rc 3
expect_usage_error survey-diff-mixed diff survey:1 sm70-mma-f16-f32 --db "$db2"

# CDNA2: the inferred models differ from the presets in rows no case
# separates (≡), and the survey is clean
db3=$TMP/amd.db
run_ladder survey --device sim:cdna2 --only 'cdna2-mfma-bf16-f32-k2' --cases 500 --db "$db3" -q
expect_rc survey-equiv-rc 0
expect_out survey-equiv-row '^cdna2-mfma-bf16-f32-k2 +[0-9]+  ≡ preset: [a-z_ ]+ +0/500 +0/500 '
run_ladder diff 1 cdna2-mfma-bf16-f32-k2 --db "$db3"
expect_rc survey-equiv-diff-rc 0
expect_out survey-equiv-diff-verdict '^verdict: ≡ \(.*no case of [0-9]+ separates A and B\)$'
# two generations pair up by name: CDNA2's and CDNA3's f32 FMA
"$LADDER" survey --device sim:cdna3 --only 'cdna3-mfma-f32-f32' --cases 300 --db "$db3" -q >/dev/null
"$LADDER" survey --device sim:cdna2 --only 'cdna2-mfma-f32-f32' --cases 300 --db "$db3" -q >/dev/null
run_ladder diff survey:3 survey:2 --db "$db3"
expect_rc survey-diff-gens-rc 0
expect_out survey-diff-gens-row '^cdna2-mfma-f32-f32 / cdna3-mfma-f32-f32 = '
test_done
