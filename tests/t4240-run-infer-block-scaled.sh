#!/bin/sh
# Blind inference of the block-scaled fp4 kinds (mxf4, mxf4nvf4 with ue8m0
# scales at 2X and 4X, and ue4m3 scales), dense and sparse: the ladder runs
# on the simulated preset (a black box to it), `ladder infer` fits a model
# from the stored words alone, and the model must equal the preset on every
# arithmetic parameter (the scale floor, exact group sums, the C-dominant
# merge and the subnormal group floor among them) and agree with it on
# random cases through `ladder validate`. The expected values are the
# presets' own parameters, which inference never reads. The runs end
# without the decide rung (--no-decide): t4225 is about it, and these
# checks hold from the other rungs alone.
. tests/lib.sh

db=$TMP/l.db
run_id=0
arith() { "$LADDER" model show "$1" | grep -v '^#' | grep -vE '^(name|arch|sass|evidence):'; }
presets="sm100-tcgen05-mxf4-e2m1-f32 sm100-tcgen05-mxf4nvf4-2x-f32 sm100-tcgen05-mxf4nvf4-4x-f32
         sm100-tcgen05-mxf4nvf4-ue4m3-f32 sm100-tcgen05-sp-mxf4-e2m1-f32
         sm100-tcgen05-sp-mxf4nvf4-2x-f32 sm100-tcgen05-sp-mxf4nvf4-4x-f32
         sm100-tcgen05-sp-mxf4nvf4-ue4m3-f32"
# LADDER_TEST_QUICK (the sanitizer build): every other, dense and sparse,
# the scales of each kind once
[ -n "${LADDER_TEST_QUICK:-}" ] && presets="sm100-tcgen05-mxf4-e2m1-f32 sm100-tcgen05-mxf4nvf4-ue4m3-f32
         sm100-tcgen05-sp-mxf4nvf4-2x-f32 sm100-tcgen05-sp-mxf4nvf4-4x-f32"
for p in $presets; do
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 1024 >"$TMP/r.yaml"
    run_ladder run "$TMP/r.yaml" --db "$db" --no-decide
    expect_rc infer-scaled-$p-run-rc 0
    run_id=$((run_id + 1))
    # the budget of targeted probe cases (docs/performance.md)
    n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = $run_id AND rung <> 'random'")
    if [ "$n" -gt 0 ] && [ "$n" -lt 5000 ]; then ok infer-scaled-$p-targeted
    else fail infer-scaled-$p-targeted "$n targeted cases"; fi
    run_ladder infer $run_id --db "$db" -o "$TMP/m.yaml"
    expect_rc infer-scaled-$p-rc 0
    arith "$p" >"$TMP/p.txt"
    arith "$TMP/m.yaml" >"$TMP/i.txt" 2>"$err"
    bad=$(diff "$TMP/p.txt" "$TMP/i.txt" | sed -n 's/^> \([a-z_]*\):.*/\1/p' | tr '\n' ' ')
    if [ -s "$TMP/i.txt" ] && [ -z "$bad" ]; then ok infer-scaled-$p-fields
    else fail infer-scaled-$p-fields "differ: ${bad:-no model}"; fi
    run_ladder validate $run_id --db "$db" --cases 20000 -q
    expect_rc infer-scaled-$p-validate-rc 0
done

# The scaling rung names the cases that show each quantum it measured.
n=$(sqlite3 "$db" "SELECT count(*) FROM observations o JOIN observation_cases c ON c.observation_id = o.id
                   WHERE o.run_id = 1 AND o.rung = 'scaling' AND o.key IN ('floor S=0', 'cdom', 'sub')")
if [ "$n" -ge 3 ]; then ok infer-scaled-observations-name-cases
else fail infer-scaled-observations-name-cases "$n case ids"; fi
test_done
