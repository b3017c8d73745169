#!/bin/sh
# One command line: latest and run:N name a run wherever a run is meant;
# diff says = for rows not in effect (exit 0), differs with a case, and when two
# format names are one encoding; a witness says what its words show; the
# "N in all" counts agree with the store or say where the store stops;
# "did you mean" for a mistyped command, preset or rung; history says when
# no run matches; a long exact decimal gets its 2^k beside it; the
# instruction rung on a simulated device says the check does not apply.
. tests/lib.sh

db=$TMP/c.db
run_ladder run recipes/sm90-mma-bf16-f32.yaml --db "$db"
expect_rc cli-setup-run 0
# On a simulated device the SASS check does not apply, and says so.
expect_out cli-sass-sim '^instruction +0 cases +expected HMMA\.16816\.F32\.BF16; does not apply: a simulated device executes no SASS$'
run_ladder run recipes/sm90-mma-bf16-f32.yaml --db "$db"
expect_rc cli-setup-run2 0

# ---- latest and run:N ------------------------------------------------------
# Run 2 is the newest: every spelling of it names the same run.
for spec in latest run:latest 2 run:2; do
    run_ladder show "$spec" --db "$db" --json
    check "cli-run-show-$spec" grep -q '"id": 2,' "$out"
    run_ladder infer "$spec" --db "$db" --no-store --json
    check "cli-run-infer-$spec" grep -q '^{"run": 2,' "$out"
done
run_ladder infer 1 --db "$db"
expect_rc cli-setup-infer1 0
run_ladder infer run:2 --db "$db"
expect_rc cli-setup-infer2 0
for spec in latest run:latest run:2; do
    run_ladder diff "$spec" run:1 --db "$db"
    expect_rc "cli-run-diff-$spec-rc" 0
    expect_out "cli-run-diff-$spec" "^diff $spec run:1$"
    run_ladder report "$spec" --db "$db" --format md -o "$TMP/r.md"
    expect_rc "cli-run-report-$spec-rc" 0
    check "cli-run-report-$spec" grep -q '^# ladder report: run 2$' "$TMP/r.md"
    run_ladder export "$spec" --db "$db" -o "$TMP/e.vec" --rung slice
    expect_rc "cli-run-export-$spec" 0
done
run_ladder validate run:latest --db "$db" --cases 100 -q
expect_rc cli-run-validate-run-latest 0
expect_usage_error cli-run-diff-bad diff run:x sm90-mma-bf16-f32 --db "$db"

# ---- diff: not in effect, one encoding, what a witness shows ---------------
# CDNA3 f16: products of f16 cannot pass f32's range, so prod_inf 128 and
# none compute alike: the canonical forms are identical (=), the row is
# marked '-' and gets no witness search.
run_ladder model show cdna3-mfma-f16-f32
sed 's/^prod_inf: none$/prod_inf: 128/' "$out" >"$TMP/inf128.yaml"
check cli-diff-setup-inf128 grep -q '^prod_inf: 128$' "$TMP/inf128.yaml"
run_ladder diff "$TMP/inf128.yaml" cdna3-mfma-f16-f32
expect_rc cli-diff-not-in-effect-rc 0
expect_out cli-diff-not-in-effect-verdict '^verdict: = \(the canonical models are identical\)$'
expect_out cli-diff-not-in-effect-row '^- prod_inf +128 +none$'
expect_out cli-diff-not-in-effect-line "^not in effect for this shape .*: prod_inf$"
run_ladder diff "$TMP/inf128.yaml" cdna3-mfma-f16-f32 --json
jq() { sqlite3 :memory: "SELECT $1 FROM json_each(json_extract(readfile('$out'), '\$.$2')) WHERE $3"; }
check cli-diff-not-in-effect-json test "$(jq "json_extract(value, '\$.in_effect')" parameters "json_extract(value, '\$.key') = 'prod_inf'")" = 0
check cli-diff-verdict-json test "$(sqlite3 :memory: "SELECT json_extract(readfile('$out'), '\$.verdict.kind')")" = same
# --search checks the canonical form: the same words on every case run
run_ladder diff --search --cases 5000 "$TMP/inf128.yaml" cdna3-mfma-f16-f32
expect_rc cli-diff-search-rc 0
expect_out cli-diff-search-count '^verdict: = \(the canonical models are identical; no case of [0-9]+ separates A and B\)$'
# A real difference: window 22 against 24 differs, exit 1, with the case.
run_ladder model show cdna3-mfma-f16-f32
sed 's/^window: 24$/window: 22/' "$out" >"$TMP/w22.yaml"
check cli-diff-setup-w22 grep -q '^window: 22$' "$TMP/w22.yaml"
run_ladder diff cdna3-mfma-f16-f32 "$TMP/w22.yaml"
expect_rc cli-diff-differs-rc 1
expect_out cli-diff-differs-verdict '^verdict: differs \(window: A and B return other words on the case below\)$'
expect_out cli-diff-differs-case '^    in  [0-9a-f,;]+$'
expect_out cli-diff-differs-a '^    A   [0-9a-f]{8}  '

# f32 written as its spec e8m23: one encoding, no difference.
run_ladder model show sm90-mma-bf16-f32
sed 's/^d: f32$/d: e8m23/' "$out" >"$TMP/e8m23.yaml"
run_ladder diff "$TMP/e8m23.yaml" sm90-mma-bf16-f32
expect_rc cli-diff-same-encoding-rc 0
expect_out cli-diff-same-encoding '^d: e8m23 and f32 are one encoding under two names$'

# Each witness says what its words show: "gives B's word" only when the
# changed datapath's word is the other side's, a third word otherwise.
for pair in "sm80-mma-bf16-f32 sm90-mma-bf16-f32" "sm80-mma-f16-f32 sm90-mma-f16-f32" \
            "cdna1-mfma-bf16-f32-k2 cdna2-mfma-bf16-f32-k2"; do
    set -- $pair
    run_ladder diff "$1" "$2" --json
    n=$(jq "count(*)" witnesses "json_extract(value, '\$.found')")
    # words compared as hex text of equal width (one format per side)
    bad=$(jq "count(*)" witnesses "json_extract(value, '\$.found') AND (
        (json_extract(value, '\$.explains') AND json_extract(value, '\$.changed_result.word') <>
            json_extract(value, CASE json_extract(value, '\$.changed') WHEN 'a' THEN '\$.b_result.word' ELSE '\$.a_result.word' END))
     OR (json_extract(value, '\$.explains') AND json_extract(value, '\$.says') NOT LIKE '%alone explains it')
     OR (NOT json_extract(value, '\$.explains') AND json_extract(value, '\$.says') LIKE '%alone explains it'))")
    check "cli-diff-witness-says-$1" test "$n" -gt 0 -a "$bad" = 0
done
# ... and the text agrees: after "gives B's word", the changed word is B's.
run_ladder diff sm80-mma-bf16-f32 sm90-mma-bf16-f32
awk '/^witness .*gives B.s word/ {w = 1; next}
     w && $1 == "B" {b = $2}
     w && /^    A with/ {getline; if ($1 != b) bad++; w = 0}
     END {exit bad ? 1 : 0}' "$out"
check cli-diff-witness-text test $? = 0
# The anchor_min witness is 8191 * 2^-149 (the f32 word 00001fff, by hand):
# a witness shows it in that form alone, not its 150-digit decimal; B's
# word 00002000 is 2^-136; a short decimal keeps its binary form beside it
# (3f7fffff is 1 - 2^-24 = 16777215*2^-24).
expect_out cli-pow2-witness '^    A +00001fff +8191\*2\^-149$'
expect_out cli-pow2-witness-power '^    B +00002000 +2\^-136$'
expect_out cli-pow2-witness-short '^    B +3f7fffff +0\.999999940395355224609375 \(16777215\*2\^-24\)$'
# show: bf16 0080 is 2^-126, the smallest normal (by hand); C and D are short.
run_ladder show 2 --db "$db" --rung slice
expect_out cli-pow2-show '^    lane 0: a 0080 = 0\.0{37}11754943508[0-9]+ \(2\^-126\), b 7e80 = 85070591730234615865843651857942052864 \(2\^126\)$'
check cli-pow2-show-short test "$(grep -c '(2^0)' "$out")" = 0

# ---- the "N in all" counts ---------------------------------------------------
# infer's count is every deciding case; the store keeps the first 32 ids, and
# infer and the report both say so. Parameter d of run 2:
run_ladder infer 2 --db "$db" --json
decided=$(sqlite3 :memory: "SELECT json_extract(value, '\$.decided_by') FROM json_each(json_extract(readfile('$out'), '\$.parameters')) WHERE json_extract(value, '\$.name') = 'd'")
stored=$(sqlite3 "$db" "SELECT count(*) FROM inference_cases JOIN inferences i ON i.id = inference_id WHERE i.run_id = 2 AND i.parameter = 'd'")
check cli-counts-setup test "$decided" -gt "$stored" -a "$stored" = 32
run_ladder infer 2 --db "$db"
expect_out cli-counts-infer "^d +f32 +fit: $decided stored cases rule out "
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$out")
check cli-infer-100-columns test "$w" -le 100
run_ladder report 2 --db "$db" --format md
expect_out cli-counts-report "param-d\".*\.\.\. \($stored stored; the store keeps at most $stored per parameter\)"
check cli-counts-report-no-false-total test "$(grep -c "($stored in all)" "$out")" = 0

# ---- did you mean ------------------------------------------------------------
run_ladder infr
expect_rc cli-mean-command-rc 2
expect_err cli-mean-command "^ladder: unknown command 'infr'; did you mean 'infer'\?$"
run_ladder help surevy
expect_err cli-mean-help "^ladder: unknown command 'surevy'; did you mean 'survey'\?$"
run_ladder model show sm90-mma-bf16-f33
expect_err cli-mean-preset "^ladder: unknown preset or model file 'sm90-mma-bf16-f33'; did you mean 'sm90-mma-bf16-f32'\?$"
run_ladder validate --model sm90-mma-bf61-f32 --device sim:sm90-mma-bf16-f32 --db "$TMP/v.db"
expect_err cli-mean-preset-validate "did you mean 'sm90-mma-bf16-f32'\?$"
run_ladder model show nothing-like-it
expect_err cli-mean-preset-none "^ladder: unknown preset or model file 'nothing-like-it'$"
sed 's/^  - truncation$/  - truncaton/' recipes/sm90-mma-bf16-f32.yaml >"$TMP/typo.yaml"
run_ladder recipe check "$TMP/typo.yaml"
expect_err cli-mean-rung-recipe "^ladder: .*typo\.yaml:[0-9]+:[0-9]+: unknown rung 'truncaton'; did you mean 'truncation'\?$"
run_ladder run recipes/sm90-mma-bf16-f32.yaml --rungs slice,lanse --db "$TMP/x.db"
expect_err cli-mean-rung-run "^ladder: unknown rung 'lanse'; did you mean 'lanes'\?$"
run_ladder show 2 --db "$db" --rung lane
expect_err cli-mean-rung-show "^ladder: run 2 stored no cases in rung 'lane'; did you mean 'lanes'\? \(its rungs: slice, lanes, truncation, visible, internal, ulp, grouping, zeros, specials, random\)$"
run_ladder show 2 --db "$db" --rung bogus
expect_err cli-show-rung-lists "^ladder: run 2 stored no cases in rung 'bogus'; its rungs: slice, lanes, truncation, visible, internal, ulp, grouping, zeros, specials, random$"

# ---- history -----------------------------------------------------------------
run_ladder history --db "$db" --gpu nothing-here
expect_rc cli-history-none-rc 0
expect_out_eq cli-history-none 'no runs match'

test_done
