#!/bin/sh
# ladder validate <run> on the run's own device: the first 256 mismatches
# join the run's cases (rung validation, series mismatch, no target, D the
# device's word, label "validation <id> case <index>"), once each, and the
# next `ladder infer` fits them (--no-decide: the joining alone). Another
# device's words, a shard and a --model validation join nothing. Without
# --no-decide the decide rung follows on the run: the stored model then
# explains the joined cases.
. tests/lib.sh

db=$TMP/l.db
P=sm90-mma-bf16-f32
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 |
    sed 's/^random: .*/random: {cases: 300, finite: 100, seed: 9}/' >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db"
expect_rc validate-joins-run-rc 0
run_ladder infer 1 --db "$db"
expect_rc validate-joins-infer-rc 0
before=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1")

# A wrong model in the store: the preset rounds its passes toward zero (rz),
# the stored model now to nearest (rne), so many finite sums differ.
sqlite3 "$db" "UPDATE inferences SET value = replace(value, 'align_round: rz', 'align_round: rne') WHERE run_id = 1 AND parameter = 'model'"
check validate-joins-model-altered sh -c "sqlite3 '$db' \"SELECT value FROM inferences WHERE run_id = 1 AND parameter = 'model'\" | grep -q '^align_round: rne'"

run_ladder validate 1 --db "$db" --cases 2000 --seed 5 --no-decide
expect_rc validate-joins-rc 1
bad=$(sqlite3 "$db" "SELECT mismatches FROM validations ORDER BY id DESC LIMIT 1")
want=$bad
[ "$want" -gt 256 ] && want=256
if [ "$bad" -gt 0 ]; then ok validate-joins-found; else fail validate-joins-found "no mismatch to join"; fi
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung = 'validation'")
if [ "$n" = "$want" ]; then ok validate-joins-count; else fail validate-joins-count "$n cases joined, $bad mismatches"; fi
s=$(printf 'ladder: %s mismatching cases joined run 1'"'"'s evidence (rung validation): '"'"'ladder infer 1'"'"' fits them' "$n")
if grep -qxF "$s" "$err"; then ok validate-joins-said; else fail validate-joins-said "stderr: $(cat "$err")"; fi
# Each joined case is a stored mismatch, with the device's word as D.
odd=$(sqlite3 "$db" "SELECT count(*) FROM cases AS c WHERE c.run_id = 1 AND c.rung = 'validation' AND
      (c.series IS NOT 'mismatch' OR c.target IS NOT NULL OR NOT EXISTS (SELECT 1 FROM mismatches AS m
       WHERE m.validation_id = 1 AND 'validation 1 case ' || m.seq = c.label AND m.a = c.a AND
       m.b = c.b AND m.c = c.c AND m.got = c.d))")
if [ "$odd" = 0 ]; then ok validate-joins-are-mismatches; else fail validate-joins-are-mismatches "$odd joined cases are no mismatch of validation 1"; fi
# The first in case-stream order.
first=$(sqlite3 "$db" "SELECT min(seq) FROM mismatches WHERE validation_id = 1")
if sqlite3 "$db" "SELECT label FROM cases WHERE rung = 'validation'" | grep -qx "validation 1 case $first"; then
    ok validate-joins-first
else
    fail validate-joins-first "case $first of the stream did not join"
fi

# The same seed again: nothing new joins, and nothing is said of it.
run_ladder validate 1 --db "$db" --cases 2000 --seed 5 --json --no-decide
expect_rc validate-joins-again-rc 1
expect_out validate-joins-again-json '"joined": 0,'
n2=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung = 'validation'")
[ "$n2" = "$n" ] && ok validate-joins-once || fail validate-joins-once "$n then $n2"

# Another device (a different preset), a shard, and a --model validation
# join nothing.
run_ladder validate 1 --db "$db" --cases 2000 --seed 6 --device sim:sm90-mma-f16-f32
n3=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung = 'validation'")
[ "$n3" = "$n" ] && ok validate-joins-other-device || fail validate-joins-other-device "$n then $n3"
run_ladder validate 1 --db "$db" --cases 2000 --seed 6 --shard 0/2
expect_rc validate-joins-shard-rc 1
n4=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung = 'validation'")
[ "$n4" = "$n" ] && ok validate-joins-shard || fail validate-joins-shard "$n then $n4"
run_ladder validate --model sm90-mma-f16-f32 --device sim:$P --db "$db" --cases 2000 --seed 6
expect_rc validate-joins-model-rc 1
n5=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE rung = 'validation'")
[ "$n5" = "$n" ] && ok validate-joins-model-form || fail validate-joins-model-form "$n then $n5"

# A new seed on the run's own device, -q: more join, silently.
run_ladder validate 1 --db "$db" --cases 2000 --seed 8 -q --no-decide
expect_no_err validate-joins-quiet
n6=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung = 'validation'")
[ "$n6" -gt "$n" ] && ok validate-joins-new-seed || fail validate-joins-new-seed "$n then $n6"

# infer reads them: every case, the joined ones too, and the preset's
# rounding back.
run_ladder infer 1 --db "$db" -o "$TMP/m.yaml"
expect_rc validate-joins-reinfer-rc 0
expect_out validate-joins-reinfer-all "^run 1: $((before + n6)) cases, model reproduces $((before + n6))$"
check validate-joins-reinfer-model grep -qx 'align_round: rz' "$TMP/m.yaml"
run_ladder validate 1 --db "$db" --cases 2000 --seed 9
expect_out_eq validate-joins-then-none "validate: 0/2000 mismatches (run 1 inferred vs sim:$P)"

# The decide rung after the joining: the wrong model again, a validation
# on a new seed. Its mismatches join, the decide rung infers from every
# case (storing the model it finds) and runs what that model leaves open:
# the stored model is the preset's rounding again, and says so in JSON.
sqlite3 "$db" "UPDATE inferences SET value = replace(value, 'align_round: rz', 'align_round: rne') WHERE run_id = 1 AND parameter = 'model'"
run_ladder validate 1 --db "$db" --cases 2000 --seed 10
expect_rc validate-decide-rc 1
check validate-decide-said grep -q "^ladder: the decide rung on run 1: " "$err"
check validate-decide-model sh -c "sqlite3 '$db' \"SELECT value FROM inferences WHERE run_id = 1 AND parameter = 'model'\" | grep -qx 'align_round: rz'"
run_ladder validate 1 --db "$db" --cases 2000 --seed 11 --json
expect_rc validate-decide-then-none-rc 0
expect_out validate-decide-json-none '"mismatches": 0, "joined": 0, .*"decide": null}$'
sqlite3 "$db" "UPDATE inferences SET value = replace(value, 'align_round: rz', 'align_round: rne') WHERE run_id = 1 AND parameter = 'model'"
run_ladder validate 1 --db "$db" --cases 2000 --seed 12 --json -q
expect_out validate-decide-json '"decide": "[^"]'
run_ladder infer 1 --db "$db" --no-store
expect_rc validate-decide-infer-rc 0

test_done
