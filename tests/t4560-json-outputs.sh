#!/bin/sh
# --json on presets, infer, validate, check, format, model, recipe, run,
# fit and sass: each prints one JSON
# document (read back with Python's json module) holding what the text says.
. tests/lib.sh

# json NAME PYTHON WANT: runs PYTHON on the document in $out (as d).
json() {
    r=$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$2" "$out" 2>&1)
    if [ "$r" = "$3" ]; then ok "$1"; else fail "$1" "got '$r', want '$3'"; fi
}

run_ladder presets --json
expect_rc json-presets-rc 0
n=$("$LADDER" presets | wc -l)
json json-presets-count 'print(len(d))' "$n"
json json-presets-fields 'p = [x for x in d if x["name"] == "sm90-wgmma-e4m3-f32"][0]
print(p["instr"], p["k"], p["formats"]["a"], p["formats"]["d"], p["sparse"])' "wgmma 32 e4m3 e8m13 none"
expect_usage_error json-presets-both presets --json --markdown

P=sm90-mma-bf16-f32
db=$TMP/l.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db"
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1")
run_ladder infer 1 --db "$db" --json
expect_rc json-infer-rc 0
json json-infer-counts 'print(d["run"], d["cases"], d["reproduced"], d["conflict"])' "1 $n $n None"
json json-infer-window 'print([p["value"] for p in d["parameters"] if p["name"] == "window"][0])' 25

run_ladder validate 1 --db "$db" --cases 500 --json
expect_rc json-validate-rc 0
json json-validate 'print(d["model"], d["device"], d["cases"], d["mismatches"], d["first"])' \
    "run 1 inferred sim:$P 500 0 []"
# A model that differs: the first mismatches, as in the text.
run_ladder validate --model sm89-mma-e4m3-f32 --device sim:sm90-mma-e4m3-f32 --cases 500 --db "$db" --json
expect_rc json-validate-bad-rc 1
json json-validate-first 'print(len(d["first"]), d["mismatches"] > 0, d["first"][0]["model"] != d["first"][0]["device"])' "3 True True"

run_ladder check --json --model sm90-wgmma-e4m3-f32 vectors/h100-e4m3-f32.vec vectors/h100-e4m3-f32.vec
expect_rc json-check-rc 0
json json-check 'print(len(d), d[0]["file"], d[0]["cases"], d[0]["mismatches"], d[0]["model"])' \
    "2 vectors/h100-e4m3-f32.vec 5000 0 sm90-wgmma-e4m3-f32"
run_ladder check --json --model sm89-mma-e4m3-f32 vectors/h100-e4m3-f32.vec
expect_rc json-check-bad-rc 1
json json-check-first 'f = d[0]["first"][0]
print(len(d[0]["first"]), f["expected"] != f["got"], len(f["expected"]))' "3 True 8"
run_ladder check --json vectors/h100-e4m3-f32.vec "$TMP/none.vec"
expect_rc json-check-missing-rc 3
if [ -s "$out" ]; then fail json-check-missing-nothing "$(_peek "$out")"; else ok json-check-missing-nothing; fi

# ---- format, model, recipe, run, fit, sass ----------------------------------
# Expected values from the formats' definitions (bf16 3f80 is 1 = 128*2^-7;
# e4m3 1.5 is 3c), the recipe file and the run's own text lines.
run_ladder format decode bf16 3f80 ff80 --json
json json-format-decode 'print(d[0]["word"], d[0]["class"], d[0]["value"], d[0]["significand"], d[0]["exponent"], d[1]["value"])' "3f80 normal 1 128 -7 -inf"
run_ladder format encode e4m3 1.5 1000 --json
json json-format-encode 'print(d[0]["word"], d[0]["inexact"], d[1]["overflow"])' "3c False True"
run_ladder format table e2m1 --json
json json-format-table 'print(d["format"], len(d["codes"]), d["codes"][7]["value"])' "e2m1 16 6"
run_ladder format list --json
json json-format-list 'print([f["name"] for f in d][:3])' "['f32', 'tf32', 'bf16']"
run_ladder model show $P --json
json json-model-show 'print(d["name"], d["a"], d["d"], d["k"], d["window"])' "$P bf16 f32 16 25"
run_ladder model params --json
json json-model-params 'k = {p["key"]: p for p in d}
print([p["key"] for p in d][:2], k["name"]["required"], k["a"]["required"], k["d"]["searched"])' "['name', 'arch'] False True True"
run_ladder recipe check recipes/$P.yaml --json
json json-recipe 'print(d["datapath"]["name"], d["rungs"][0]["rung"], d["random"]["cases"])' "$P instruction 1000000"
run_ladder run "$TMP/r.yaml" --db "$TMP/j.db"
cut -c1-12 "$out" | sed 's/ *$//' | grep -v '^run ' >"$TMP/rungs.txt"
run_ladder run "$TMP/r.yaml" --db "$TMP/j.db" --json
expect_rc json-run-rc 0
json json-run 'print(d["run"], d["status"])' "2 ok"
r=$(python3 -c "import json, sys
print('\n'.join(g['rung'] for g in json.load(open(sys.argv[1]))['rungs']))" "$out")
check json-run-rungs test "$r" = "$(cat "$TMP/rungs.txt")"
run_ladder fit vectors/a100-bf16-f32.vec --json -q
json json-fit 'print(d["cases"], d["mismatches"], d["output"], d["model"]["d"])' "5000 0 None f32"
run_ladder sass --list --json
n=$("$LADDER" sass --list | wc -l)
json json-sass-list 'print(len(d), all(r["expected"] for r in d))' "$n True"

test_done
