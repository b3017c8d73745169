#!/bin/sh
# ladder diff: one row per registry parameter with both values, differing
# rows marked '*', parameters in effect for neither named on one line; A and
# B as presets, model files or runs; --json; exit 1 when something differs.
. tests/lib.sh

A=sm90-wgmma-e4m3-f32
B=sm100-tcgen05-e4m3-f32
run_ladder diff $A $B
expect_rc diff-table-differs-rc 1
expect_no_err diff-table-no-err
# By hand from the presets' evidence: H100 wgmma e4m3 keeps 13 fraction bits
# below the anchor into an e8m13 result; B200 tcgen05 keeps 25 into f32.
expect_out diff-table-window '^\* window +13 +25$'
expect_out diff-table-d '^\* d +e8m13 +f32$'
expect_out diff-table-k-same '^  k +32 +32$'
expect_out diff-table-a-same '^  a +e4m3 +e4m3$'
expect_out diff-table-neither '^in effect for neither: .*scale_floor'
if grep -q '^[ *] scale_floor ' "$out"; then
    fail diff-table-neither-not-rows "scale_floor has a row"
else
    ok diff-table-neither-not-rows
fi
expect_out diff-table-witness-window '^witness window: A and B differ'

# The same datapath twice: nothing differs, exit 0, no witness.
run_ladder diff $A $A
expect_rc diff-table-same-rc 0
if grep -q '^\*\|^witness' "$out"; then fail diff-table-same-nothing "$(_peek "$out")"; else ok diff-table-same-nothing; fi

# A model file that is the preset with one parameter changed: that row (and
# the name) differ, and the witness names it.
"$LADDER" model show sm90-mma-bf16-f32 | sed 's/^window: .*/window: 20/; s/^name: .*/name: mine/' >"$TMP/m.yaml"
run_ladder diff sm90-mma-bf16-f32 "$TMP/m.yaml"
expect_rc diff-table-file-rc 1
n=$(grep -c '^\*' "$out")
if [ "$n" = 2 ]; then ok diff-table-file-two-rows; else fail diff-table-file-two-rows "$n rows marked"; fi
expect_out diff-table-file-window '^\* window +25 +20$'
expect_out diff-table-file-witness '^witness window: A and B differ'

# Formats differ: no shared inputs, the parameters only.
run_ladder diff sm80-mma-f16-f32 sm80-mma-bf16-f32
expect_rc diff-table-formats-rc 1
expect_out diff-table-formats-a '^\* a +f16 +bf16$'
expect_out diff-table-formats-no-witness '^no witnesses: the instructions cannot share inputs'
run_ladder diff sm80-mma-f16-f32 sm80-mma-bf16-f32 -o "$TMP/x.vec"
expect_rc diff-table-formats-o-rc 3
expect_err diff-table-formats-o-message "^ladder: no witnesses to write to '.*x.vec': the instructions cannot share inputs"

# K differs (4 against 16): cases on the common lanes.
run_ladder diff sm70-mma-f16-f32 sm80-mma-f16-f32
expect_out diff-table-k-differs '^K differs: cases fill the first 4 lanes, the rest are zero$'
expect_out diff-table-k-row '^\* k +4 +16$'

# --json: one document, every registry row.
run_ladder diff $A $B --json
expect_rc diff-table-json-rc 1
python3 - "$out" <<'PY' >"$TMP/j" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["parameters"]}
assert rows["window"]["a"] == "13" and rows["window"]["b"] == "25", rows["window"]
assert rows["window"]["differs"] and rows["window"]["matters"]
assert not rows["k"]["differs"]
assert d["shared_inputs"] is True and d["k"] == 32
w = {x["parameter"]: x for x in d["witnesses"]}
assert w["window"]["found"] and w["window"]["b_differs"]
assert w["window"]["a_result"]["word"] != w["window"]["b_result"]["word"]
print("ok")
PY
if [ "$(cat "$TMP/j")" = ok ]; then ok diff-table-json; else fail diff-table-json "$(tail -1 "$TMP/j")"; fi

# Runs: the inferred model of a run, as run:<id> and as a bare id.
db=$TMP/l.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm90-mma-bf16-f32 256 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db"
run_ladder infer 1 --db "$db"
run_ladder diff run:1 sm90-mma-bf16-f32 --db "$db"
expect_rc diff-table-run-same-rc 0
run_ladder diff 1 "$TMP/m.yaml" --db "$db"
expect_out diff-table-run-bare '^\* window +25 +20$'
run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible
run_ladder diff run:2 sm90-mma-bf16-f32 --db "$db"
expect_rc diff-table-run-no-model-rc 3
expect_err diff-table-run-no-model "^ladder: run 2 has no inferred model; run 'ladder infer 2' first$"
run_ladder diff run:x $A
expect_rc diff-table-bad-run-rc 2
run_ladder diff nosuch $A
expect_rc diff-table-unknown-rc 2
expect_err diff-table-unknown "^ladder: unknown preset or model file 'nosuch'$"
expect_usage_error diff-table-one-arg diff $A

# Inputs that read alike: with ftz_in every subnormal A, B or C reads +0,
# so a format whose field 0 holds zero (sub=flush) is the same input, and
# the search (--search) finds no case between them; without ftz_in the
# subnormals read differently and the two share no inputs.
"$LADDER" model show cdna2-mfma-f16-f32 >"$TMP/ftz.yaml"
sed 's/^a: f16/a: "f16:sub=flush"/; s/^c: f32/c: "f32:sub=flush"/' "$TMP/ftz.yaml" >"$TMP/ftz-flush.yaml"
run_ladder diff "$TMP/ftz.yaml" "$TMP/ftz-flush.yaml" --search --cases 4096
expect_rc diff-table-ftz-flush-rc 0
expect_out diff-table-ftz-flush "^verdict: = \\(the canonical models are identical; no case of [0-9]+ separates A and B\\)$"
sed 's/^ftz_in: true/ftz_in: false/' "$TMP/ftz.yaml" >"$TMP/noftz.yaml"
sed 's/^ftz_in: true/ftz_in: false/' "$TMP/ftz-flush.yaml" >"$TMP/noftz-flush.yaml"
run_ladder diff "$TMP/noftz.yaml" "$TMP/noftz-flush.yaml"
expect_rc diff-table-noftz-flush-rc 1
expect_out diff-table-noftz-flush "^verdict: differs \\(the A, B or C formats differ\\)$"

test_done
