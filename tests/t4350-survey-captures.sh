#!/bin/sh
# Surveys from captured vectors (--device vectors:DIR[/PREFIX]): each .vec
# file fitted, the fitted model checked on the file's words and judged
# against the preset its words match; two GPUs' capture surveys compared
# with diff survey:A survey:B, whose verdicts agree with ladder diff of the
# models ladder fit finds for the same files; the page of the two surveys
# opens with the same counts; a file that cannot be read is a failed row,
# not an abort, and --resume surveys it again once it is mended.
. tests/lib.sh

cap=$TMP/cap
mkdir -p "$cap"
for f in a100-bf16-f32 a100-f16-f32 h100-bf16-f32 h100-f16-f32; do
    cp "vectors/$f.vec" "$cap/"
done
db=$TMP/s.db

# ---- the A100's captures: one row per file, named by its preset ----------
LADDER_PROGRESS=1 run_ladder survey --device "vectors:$cap/a100-" --db "$db"
survey_rc=$rc
expect_out capsurvey-title "^survey 1 on vectors:$cap/a100- \(sm_80, A100\): 2 datapaths$"
expect_out capsurvey-row-bf16 '^sm80-mma-bf16-f32 +5000  .* 0/5000 +0/5000 '
expect_out capsurvey-row-f16 '^sm80-mma-f16-f32 +5000  .* 0/5000 +0/5000 '
expect_err capsurvey-progress '\[1/2\] sm80-mma-bf16-f32: fitting '
# The verdict against the preset, computed apart: ladder fit's model of
# the file against the preset with ladder diff.
"$LADDER" fit -q "$cap/a100-bf16-f32.vec" -o "$TMP/a100-bf16.yaml" >/dev/null
"$LADDER" diff "$TMP/a100-bf16.yaml" sm80-mma-bf16-f32 >"$TMP/d1.out"
case $(sed -n 's/^verdict: \([^ ]*\).*/\1/p' "$TMP/d1.out") in
'=') want='= preset' ;;
'≡') want='≡ preset' ;;
*) want='differs' ;;
esac
check capsurvey-verdict-as-fit grep -Eq "^sm80-mma-bf16-f32 +5000  $want" "$out"
# exit 0 only when every row is = or ≡ with no mismatch
if grep -q 'differs' "$out"; then want_rc=1; else want_rc=0; fi
check capsurvey-rc test "$survey_rc" -eq "$want_rc"
run_ladder show survey:1 --db "$db"
expect_out capsurvey-show '^sm80-mma-f16-f32 +5000 '
run_ladder history --surveys --db "$db"
expect_out capsurvey-history "vectors:"
run_ladder report survey:1 --db "$db" --format md
first=$(grep -v '^#' "$out" | grep -v '^$' | head -n 1)
check capsurvey-report-first test "${first%%:*}" = "Survey 1 on captured vectors of sm_80"

# ---- the H100's, and the two compared ------------------------------------
run_ladder survey --device "vectors:$cap" --only 'h100-*' --db "$db" -q
expect_out capsurvey-only-title '^survey 2 on vectors:.* \(sm_90, H100\): 2 datapaths$'
run_ladder diff survey:1 survey:2 --db "$db"
diff_rc=$rc
cp "$out" "$TMP/sdiff.out"
expect_out capdiff-count '^2 datapaths: [0-9]+ =, [0-9]+ ≡, [0-9]+ differ, 0 only in A, 0 only in B, 0 not compared$'
# each row's verdict as ladder diff gives it for ladder fit's two models
ndiffer=0
for fmt in bf16 f16; do
    "$LADDER" fit -q "$cap/a100-$fmt-f32.vec" -o "$TMP/a.yaml" >/dev/null
    "$LADDER" fit -q "$cap/h100-$fmt-f32.vec" -o "$TMP/h.yaml" >/dev/null
    "$LADDER" diff "$TMP/a.yaml" "$TMP/h.yaml" >"$TMP/d2.out"
    v=$(sed -n 's/^verdict: \([^ ]*\).*/\1/p' "$TMP/d2.out")
    [ "$v" = differs ] && ndiffer=$((ndiffer + 1))
    check "capdiff-row-$fmt" grep -Eq "^sm80-mma-$fmt-f32 / sm90-mma-$fmt-f32 +$v " "$TMP/sdiff.out"
done
if [ "$ndiffer" -gt 0 ]; then want_rc=1; else want_rc=0; fi
check capdiff-rc test "$diff_rc" -eq "$want_rc"
check capdiff-differ-count grep -q " $ndiffer differ," "$TMP/sdiff.out"
run_ladder diff survey:1 survey:2 --db "$db" --json
check capdiff-json test "$(sqlite3 :memory: "SELECT json_extract(readfile('$out'), '\$.differs') || ' ' || json_array_length(json_extract(readfile('$out'), '\$.datapaths'))")" = "$ndiffer 2"

# ---- the page of the two surveys -----------------------------------------
counts=$(sed -n 's/^\(2 datapaths: .*\)$/\1/p' "$TMP/sdiff.out")
run_ladder report survey:1 survey:2 --db "$db" --format md
expect_rc capreport-md-rc 0
first=$(grep -v '^#' "$out" | grep -v '^<a id' | grep -v '^$' | head -n 1)
check capreport-md-verdict-first test "$first" = "$counts."
check capreport-md-heading test "$(grep -m 1 '^## ' "$out")" = '## Verdict'
run_ladder report survey:1 survey:2 --db "$db" -o "$TMP/sdiff.html"
expect_rc capreport-html-rc 0
check capreport-html-verdict grep -q "<p>$counts\." "$TMP/sdiff.html"
if [ "$ndiffer" -gt 0 ]; then
    check capreport-html-witness grep -q 'id="witnesses"' "$TMP/sdiff.html"
fi
expect_usage_error capreport-mixed report survey:1 sm80-mma-bf16-f32 --db "$db"
expect_usage_error capreport-cases-one report survey:1 --cases 10 --db "$db"
expect_usage_error capreport-run-pages report survey:1 survey:2 --run-pages -o "$TMP/x.html" --db "$db"
CHROMIUM=
for c in chromium chromium-browser; do
    command -v "$c" >/dev/null 2>&1 && CHROMIUM=$c && break
done
if [ -n "$CHROMIUM" ]; then
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --window-size=1400,1000 \
        --user-data-dir="$TMP/chrome" --dump-dom "file://$TMP/sdiff.html" \
        >"$TMP/sdiff.dom" 2>/dev/null
    check capreport-chromium-drawn grep -q "$counts" "$TMP/sdiff.dom"
else
    skip capreport-chromium-drawn "chromium is not installed"
fi

# ---- usage -----------------------------------------------------------------
expect_usage_error capsurvey-cases survey --device "vectors:$cap" --cases 10 --db "$db"
expect_usage_error capsurvey-no-decide survey --device "vectors:$cap" --no-decide --db "$db"
expect_usage_error capsurvey-none-match survey --device "vectors:$cap/v100-" --db "$db"
run_ladder survey --device "vectors:$TMP/nothere/x-" --db "$db"
expect_rc capsurvey-no-folder 3

# ---- a file that cannot be read: a failed row; --resume once mended ------
bad=$TMP/bad
mkdir -p "$bad"
cp vectors/a100-f16-f32.vec "$bad/a100-f16-f32.vec"
sed '13s/;[0-9a-f]*$/;zz/' vectors/a100-bf16-f32.vec >"$bad/a100-bf16-f32.vec"
run_ladder survey --device "vectors:$bad" --db "$TMP/b.db" -q
expect_rc capsurvey-bad-rc 1
expect_out capsurvey-bad-failed '^a100-bf16-f32\.vec +0  failed '
expect_out capsurvey-bad-where "a100-bf16-f32\.vec:13:"
expect_out capsurvey-bad-other '^sm80-mma-f16-f32 +5000 '
cp vectors/a100-bf16-f32.vec "$bad/a100-bf16-f32.vec"
run_ladder survey --device "vectors:$bad" --db "$TMP/b.db" --resume
expect_out capsurvey-resumed '^sm80-mma-bf16-f32 +5000 '
check capsurvey-resumed-rows test "$(sqlite3 "$TMP/b.db" "SELECT count(*) FROM survey_datapaths WHERE survey_id = 1 AND status = 'done'")" = 2
test_done
