#!/bin/sh
# Sharded runs and `ladder merge`: the shards I/N of a validation (cases
# [I*S/N, (I+1)*S/N) of one stream) or of a survey (datapaths i % N = I),
# each in its own store, merge into one store whose counts and mismatch
# cases are those of the unsharded run. The model validated is a preset
# with a narrower window, so that about a third of the cases mismatch.
# Merge refuses shards of different streams, a shard twice and a missing
# shard (unless --partial), naming the files.
. tests/lib.sh

L=$(cd "$(dirname "$LADDER")" && pwd)/$(basename "$LADDER")
P=sm90-mma-bf16-f32
LADDER=$L
cd "$TMP" || exit 1
"$L" model show $P | sed 's/^window: .*/window: 20/' >m.yaml
q() { sqlite3 "$1" "$2"; }
val() { # the validation's stored cases: seq and every word, in order
    q "$1" "SELECT seq, a, b, c, sa, sb, meta, expected, got FROM mismatches
            WHERE validation_id = $2 ORDER BY seq"
}

# ---- a validation: 4003 cases (not a multiple of 4) in 4 shards ----------
"$L" validate --model m.yaml --device sim:$P --cases 4003 --seed 7 --db full.db -q >full.out
rc=$?
check merge-validate-full-mismatches test "$rc" = 1
for i in 0 1 2 3; do
    "$L" validate --model m.yaml --device sim:$P --cases 4003 --seed 7 --db s$i.db -q \
        --shard $i/4 >s$i.out
done
check merge-validate-shard-line grep -q '^validate: [0-9]*/1001 mismatches (m.yaml vs sim:sm90-mma-bf16-f32), shard 1/4$' s1.out
check merge-validate-shard-last grep -q '/1001 mismatches .*, shard 3/4$' s3.out
check merge-validate-shard-stored test "$(q s2.db 'SELECT shard_index, shard_count, stream_cases, cases FROM validations')" = '2|4|4003|1001'
# The shards' case indexes are disjoint and cover the stream.
check merge-validate-shard-first-index test "$(q s1.db 'SELECT min(seq) >= 1000 AND max(seq) < 2001 FROM mismatches')" = 1

run_ladder merge out.db s0.db s1.db s2.db s3.db
expect_rc merge-validate-rc 0
full=$(q full.db 'SELECT cases, mismatches FROM validations')
merged=$(q out.db 'SELECT cases, mismatches FROM validations')
check merge-validate-counts-nonzero test "${full#*|}" -gt 0
check merge-validate-counts test "$merged" = "$full"
expect_out merge-validate-line "^merge: validation 1 \\(m.yaml\\): 4 of 4 shards, ${full#*|}/4003 mismatches, stream of 4003 cases$"
expect_out merge-validate-runs '^merge: 4 runs from 4 files into out.db$'
check merge-validate-mismatch-cases test "$(val out.db 1)" = "$(val full.db 1)"
check merge-validate-merged-row test "$(q out.db 'SELECT shard_index, shard_count, stream_cases FROM validations')" = '0|1|4003'
check merge-validate-own-run test "$(q out.db "SELECT r.command FROM validations v JOIN runs r ON r.id = v.run_id")" = merge
check merge-validate-parts test "$(q out.db "SELECT group_concat(source || ':' || shard_index || '/' || shard_count || ':' || cases, ' ') FROM (SELECT * FROM merge_parts ORDER BY shard_index)")" = 's0.db:0/4:1000 s1.db:1/4:1001 s2.db:2/4:1001 s3.db:3/4:1001'
check merge-validate-part-runs test "$(q out.db "SELECT count(DISTINCT p.run_id) FROM merge_parts p JOIN runs r ON r.id = p.run_id WHERE r.command = 'validate' AND r.device_id IS NOT NULL")" = 4
check merge-validate-parts-sum test "$(q out.db 'SELECT sum(mismatches) FROM merge_parts')" = "${full#*|}"
run_ladder show 1 --db out.db
expect_rc merge-validate-show-rc 0
check merge-validate-no-leftover test -z "$(ls | grep merging)"

# A merge killed before its commit leaves its temporary store; the next
# merge into the same name removes it (and its -wal, -shm), but not one of
# a merge whose process still runs (this shell's pid stands in for one).
LADDER_CRASH_AT=merge:1 "$L" merge again.db s0.db s1.db s2.db s3.db >/dev/null 2>&1
crc=$?
check merge-killed-exit test "$crc" = 137
check merge-killed-leaves-temp test -n "$(ls | grep '^again.db.merging-')"
: >"again.db.merging-$(hostname)-$$"
run_ladder merge again.db s0.db s1.db s2.db s3.db
expect_rc merge-after-kill-rc 0
expect_err merge-after-kill-says "^ladder: removed '\./again.db.merging-$(hostname)-[0-9]+', left by merge process [0-9]+, which is gone$"
check merge-after-kill-clean test "$(ls | grep '^again.db.merging-')" = "again.db.merging-$(hostname)-$$"
check merge-after-kill-counts test "$(q again.db 'SELECT cases, mismatches FROM validations')" = "$full"
rm -f "again.db.merging-$(hostname)-$$"

# ---- validate RUN --shard: the shards begin as copies of one store --------
sh "$OLDPWD/$TESTS_DATA/recipe-gen.sh" "$L" $P 256 |
    sed 's/^random: .*/random: {cases: 600, finite: 50, seed: 3}/' >r.yaml
"$L" run r.yaml --db base.db --device sim:m.yaml >/dev/null 2>&1
"$L" infer 1 --db base.db >/dev/null 2>&1
"$L" validate 1 --db base.db -q --device sim:$P >/dev/null
for i in 0 1; do
    cp base.db b$i.db
    "$L" validate 1 --db b$i.db -q --device sim:$P --shard $i/2 >/dev/null
done
run_ladder merge bout.db b0.db b1.db
expect_rc merge-run-rc 0
check merge-run-once test "$(q bout.db "SELECT count(*) FROM runs WHERE command = 'run'")" = 1
check merge-run-cases-once test "$(q bout.db 'SELECT count(*) FROM cases')" = "$(q base.db 'SELECT count(*) FROM cases')"
check merge-run-inferences-once test "$(q bout.db 'SELECT count(*) FROM inferences')" = "$(q base.db 'SELECT count(*) FROM inferences')"
# base.db's own (unsharded) validation is copied once; the merged one equals it.
check merge-run-counts test "$(q bout.db 'SELECT cases, mismatches FROM validations WHERE shard_count = 1 ORDER BY id' | sort -u)" = "$(q base.db 'SELECT cases, mismatches FROM validations')"
check merge-run-merged-nonzero test "$(q bout.db "SELECT mismatches > 0 FROM validations v JOIN runs r ON r.id = v.run_id WHERE r.command = 'merge'")" = 1
check merge-run-mismatch-cases test "$(val bout.db 2)" = "$(val base.db 1)"

# ---- a survey: 3 datapaths in 4 shards (the last has none) ---------------
S="--device sim:sm_80 --only sm80-mma-*-f32 --cases 300 --vectors none"
"$L" survey $S --db sfull.db >sfull.out 2>/dev/null
for i in 0 1 2 3; do "$L" survey $S --db v$i.db --shard $i/4 >v$i.out 2>/dev/null; done
check merge-survey-shard-one grep -q '^survey 1 on sim:sm_80 (sm_80): 1 datapath$' v1.out
check merge-survey-shard-empty grep -q '^survey 1 on sim:sm_80 (sm_80): 0 datapaths$' v3.out
run_ladder merge vout.db v0.db v1.db v2.db v3.db
expect_rc merge-survey-rc 0
expect_out merge-survey-line '^merge: survey 1 \(sim:sm_80 sm_80\): 4 of 4 shards, 3 datapaths, 0 not as their preset$'
dps="SELECT datapath, status, probes, differ, inferred_cases, inferred_mismatches,
     preset_cases, preset_mismatches FROM survey_datapaths ORDER BY datapath"
check merge-survey-three test "$(q vout.db "$dps" | wc -l)" = 3
check merge-survey-datapaths test "$(q vout.db "$dps")" = "$(q sfull.db "$dps")"
check merge-survey-runs test "$(q vout.db "SELECT count(*) FROM runs WHERE command = 'run'")" = 3
check merge-survey-validations test "$(q vout.db 'SELECT count(*), sum(cases) FROM validations')" = '6|1800'
check merge-survey-status test "$(q vout.db 'SELECT status, shard_count FROM surveys')" = 'ok|1'
check merge-survey-parts test "$(q vout.db 'SELECT group_concat(cases) FROM merge_parts')" = '1,1,1,0'
# Two shards of the three: shard 0 holds the 1st and 3rd datapath; the
# merged survey's report lists them in the presets' order all the same.
for i in 0 1; do "$L" survey $S --db w$i.db --shard $i/2 >/dev/null 2>&1; done
run_ladder merge wout.db w0.db w1.db
expect_rc merge-survey-two-rc 0
order() { grep -o 'sm80-mma-[a-z0-9]*-f32' "$1" | awk '!seen[$0]++' | tr '\n' ' '; }
"$L" presets | awk '$1 ~ /^sm80-mma-.*-f32$/ { printf "%s ", $1 }' >want.order
run_ladder report survey:1 --db wout.db -o wout.md
check merge-survey-two-order test "$(order wout.md)" = "$(cat want.order)"

# ---- refusals: each names the files, and leaves no output ------------------
refused() { # NAME REGEX ARGS...: merge refuses (exit 3) with REGEX, no out.db
    _n=$1 _re=$2
    shift 2
    rm -f bad.db
    run_ladder merge bad.db "$@"
    expect_rc "$_n-rc" 3
    expect_err "$_n-msg" "$_re"
    check "$_n-no-output" test ! -e bad.db -a -z "$(ls | grep merging)"
}
"$L" validate --model m.yaml --device sim:$P --cases 4003 --seed 8 --db seed.db -q --shard 1/4 >/dev/null
refused merge-refuse-seed "^ladder: 's0.db' and 'seed.db' are not shards of one validation: seed 7 and 8$" s0.db seed.db s2.db s3.db
"$L" validate --model m.yaml --device sim:$P --cases 4000 --seed 7 --db n.db -q --shard 1/4 >/dev/null
refused merge-refuse-cases "'s0.db' and 'n.db' are not shards of one validation: stream of cases 4003 and 4000" s0.db n.db s2.db s3.db
"$L" validate --model $P --device sim:$P --cases 4003 --seed 7 --db p.db -q --shard 1/4 >/dev/null
refused merge-refuse-model "'s0.db' and 'p.db' are not shards of one validation: model 'm.yaml' and '$P'" s0.db p.db s2.db s3.db
"$L" validate --model m.yaml --device sim:$P --cases 4003 --seed 7 --db c3.db -q --shard 1/3 >/dev/null
refused merge-refuse-count "'s0.db' and 'c3.db' are not shards of one validation: shards of 4 and of 3" s0.db c3.db
cp s1.db s1copy.db
refused merge-refuse-overlap "^ladder: 's1.db' and 's1copy.db' are both shard 1/4 of validation 'm.yaml'$" s0.db s1.db s1copy.db s2.db s3.db
refused merge-refuse-missing "^ladder: validation 'm.yaml': shards 1 3 of 4 missing; give --partial to merge the 2 there are$" s0.db s2.db
refused merge-refuse-same-file "'s0.db' and './s0.db' are one file" s0.db ./s0.db
refused merge-refuse-unsharded "^ladder: 'full.db' holds no shard" full.db
refused merge-refuse-mixed "'s0.db' holds 1 sharded validation and 0 sharded surveys, 'v0.db' 0 and 1" s0.db v0.db
refused merge-refuse-not-store "not a ladder database" s0.db m.yaml
refused merge-refuse-missing-file "cannot open 'nope.db'" s0.db nope.db
# A shard's counts are checked, not trusted: mismatches within its cases,
# and as many as it stores.
cp s0.db big.db
q big.db "UPDATE validations SET mismatches = 9223372036854775807"
refused merge-refuse-count-huge "^ladder: 'big.db': validation 1 counts 9223372036854775807 mismatches in 1000 cases and stores [0-9]+: the file is damaged$" big.db s1.db s2.db s3.db
cp s0.db neg.db
q neg.db "UPDATE validations SET mismatches = -5"
refused merge-refuse-count-negative "'neg.db': validation 1 counts -5 mismatches" neg.db s1.db s2.db s3.db
cp s0.db lost.db
q lost.db "DELETE FROM mismatches WHERE id = (SELECT max(id) FROM mismatches)"
refused merge-refuse-count-unstored "'lost.db': validation 1 counts [0-9]+ mismatches in 1000 cases and stores [0-9]+: the file is damaged" lost.db s1.db s2.db s3.db
run_ladder merge out.db s0.db
expect_rc merge-refuse-exists-rc 3
expect_err merge-refuse-exists-msg "^ladder: 'out.db' exists; merge writes a new store$"

run_ladder merge part.db s0.db s3.db --partial
expect_rc merge-partial-rc 0
check merge-partial-counts test "$(q part.db 'SELECT cases, stream_cases, mismatches FROM validations')" = "2001|4003|$(( $(q s0.db 'SELECT mismatches FROM validations') + $(q s3.db 'SELECT mismatches FROM validations') ))"

# An unfinished shard (killed after its first chunk of 8192 cases) is
# refused as unfinished; --partial skips it, and a shard file that is not
# there, saying each, and merges the others.
for i in 0 1 2; do
    crash=
    [ $i = 1 ] && crash=validation-chunk:2
    LADDER_CRASH_AT=$crash "$L" validate --model m.yaml --device sim:$P --cases 60000 --seed 9 \
        -q --db u$i.db --shard $i/3 >/dev/null 2>&1
done
refused merge-refuse-unfinished "^ladder: 'u1.db': validation 1 \(shard 1/3\) is unfinished: it ran 8192 of its 20000 cases \(of 60000\); let it finish \(validate --resume\) or give --partial to merge the others$" u0.db u1.db u2.db
run_ladder merge upart.db u0.db u1.db u2.db gone.db --partial
expect_rc merge-partial-unfinished-rc 0
expect_out merge-partial-unfinished-says "^merge: skipped 'u1.db': validation 1 \(shard 1/3\) is unfinished"
expect_out merge-partial-gone-says "^merge: skipped 'gone.db': no such file$"
expect_out merge-partial-unfinished-line '^merge: validation 1 \(m.yaml\): 2 of 3 shards, '
check merge-partial-unfinished-parts test "$(q upart.db 'SELECT group_concat(shard_index) FROM merge_parts')" = "0,2"
run_ladder merge none.db u1.db --partial
expect_rc merge-partial-nothing-rc 3
expect_err merge-partial-nothing-says "no shard is finished"

# ---- the shard spec --------------------------------------------------------
for bad in 4/4 1/0 x/2 1/ /2 1/4097 -1/2 1/2x 01/2/3; do
    expect_usage_error "merge-shard-spec-$bad" validate --model $P --device sim:$P --shard "$bad"
done
expect_err merge-shard-spec-msg "^ladder: --shard must be I/N with 0 <= I < N <= 4096, not '01/2/3'$"
expect_usage_error merge-shard-spec-survey survey --device sim:sm_80 --shard 2/2
expect_usage_error merge-usage-one merge out2.db

test_done
