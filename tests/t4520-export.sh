#!/bin/sh
# ladder export: a run's stored cases as a .vec file, D the device's words.
# Replayed with `ladder check --model <preset>` a sim run of that preset
# gives 0 mismatches on every case it stored (dense, block-scaled, sparse,
# both); one D word changed in the store gives exactly one mismatch.
. tests/lib.sh

db=$TMP/l.db
i=0
for p in sm90-mma-bf16-f32 sm100-tcgen05-mxf4nvf4-4x-f32 sm100-tcgen05-sp-e4m3-f32 \
         sm100-tcgen05-sp-mxf4nvf4-ue4m3-f32; do
    i=$((i + 1))
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 256 >"$TMP/r.yaml"
    run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible,zeros,random
    expect_rc export-$p-run-rc 0
    run_ladder export $i --db "$db" -o "$TMP/$i.vec"
    expect_rc export-$p-rc 0
    expect_no_err export-$p-no-err
    n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = $i")
    lines=$(grep -vc '^#' "$TMP/$i.vec")
    check export-$p-all-cases test "$lines" = "$n"
    check export-$p-header-cases grep -q "^# cases: $n\$" "$TMP/$i.vec"
    run_ladder check --model $p "$TMP/$i.vec"
    expect_rc export-$p-check-rc 0
    expect_out_eq export-$p-check "$TMP/$i.vec: 0/$n mismatches ($p)"
done
# The scaled and sparse lines carry their scale and metadata fields.
line=$(grep -v '^#' "$TMP/4.vec" | head -1)
fields=$(echo "$line" | awk -F';' '{print NF}')
check export-sparse-scaled-fields test "$fields" = 7

# One D word changed in the store: that case, and only it, mismatches.
sqlite3 "$db" "UPDATE cases SET d = (d | 1) - (d & 1) WHERE id = (SELECT min(id) FROM cases WHERE run_id = 1)"
run_ladder export 1 --db "$db" -o "$TMP/t.vec"
run_ladder check --model sm90-mma-bf16-f32 "$TMP/t.vec"
expect_rc export-tampered-rc 1
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1")
expect_out export-tampered-one "^$TMP/t.vec: 1/$n mismatches"

# One rung, to stdout.
run_ladder export 1 --db "$db" --rung zeros -o -
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1 AND rung = 'zeros'")
lines=$(grep -vc '^#' "$out")
check export-rung-stdout test "$lines" = "$n"

# What a line cannot hold is refused, naming the case.
sqlite3 "$db" "UPDATE cases SET sa = json_array(1, 2), sb = json_array(1, 2) WHERE id = (SELECT min(id) FROM cases WHERE run_id = 1)"
run_ladder export 1 --db "$db" -o "$TMP/x.vec"
expect_rc export-unfit-rc 3
expect_err export-unfit "^ladder: run 1: case [0-9]+ cannot be a line of 'sm90-mma-bf16-f32': more scales than the instruction has scale blocks$"

# a name no rung has is a usage error; a rung the run did not climb is data
run_ladder export 1 --db "$db" --rung nosuch -o "$TMP/x.vec"
expect_rc export-empty-rung-rc 2
expect_err export-empty-rung "^ladder: run 1 stored no cases in rung 'nosuch'$"
run_ladder export 1 --db "$db" --rung validation -o "$TMP/x.vec"
expect_rc export-unclimbed-rung-rc 3
expect_err export-unclimbed-rung "^ladder: run 1 stored no cases in rung 'validation'$"
expect_usage_error export-no-output export 1 --db "$db"
run_ladder export 99 --db "$db" -o "$TMP/x.vec"
expect_rc export-no-run-rc 2

test_done
