#!/bin/sh
# ladder report: a sim run, a preset and a survey, each as HTML and as
# Markdown. The files are written, self-contained (nothing fetched: no
# http:, https:, src=, <link, @import, <script) and hold every section;
# the tables say what the datapath's documented parameters make them say
# (sm90-mma-bf16-f32: window 25, truncation everywhere, one pass of 16);
# every link to a case finds its anchor. Then the pages are drawn in
# headless Chromium: each figure is in the DOM with a box (a script added
# to a copy of the page writes the boxes into it) and the screenshot has
# coloured marks inside every box (the PNG decoded by Pillow in
# build/venv).
# Without Chromium the test fails and says so: it never passes unchecked.
. tests/lib.sh

DB=$TMP/t.db
DP=sm90-mma-bf16-f32
py=${VENV:-build/venv}/bin/python

run_ladder run recipes/$DP.yaml --db "$DB"
expect_rc report-setup-run 0

for what in run preset survey; do
    case $what in
    run) subj=latest ;;
    preset) subj=$DP ;;
    survey)
        # After the run's report: the survey's runs are newer than it.
        run_ladder survey --device sim:sm_90a --only $DP --cases 1000 --db "$DB"
        expect_rc report-setup-survey 0
        subj=survey:$(sqlite3 "$DB" 'SELECT max(id) FROM surveys')
        ;;
    esac
    pages=
    [ $what = survey ] && pages=--run-pages
    for ext in html md; do
        run_ladder report "$subj" --db "$DB" -o "$TMP/$what.$ext" $pages
        if [ "$rc" = 0 ] && [ -s "$TMP/$what.$ext" ] && [ ! -s "$err" ]; then
            ok "report-$what-$ext-written"
        else
            fail "report-$what-$ext-written" "exit $rc, $(head -c 300 "$err")"
        fi
    done
    if grep -Eiq 'https?:|src=|<link|@import|<script' "$TMP/$what.html"; then
        fail "report-$what-self-contained" "$(grep -Eio '.{20}(https?:|src=|<link|@import|<script).{20}' "$TMP/$what.html" | head -n 1)"
    else
        ok "report-$what-self-contained"
    fi
done

# has FILE NAME REGEX...: every extended regex matches a line of FILE.
has() {
    _f=$1 _n=$2
    shift 2
    for _re in "$@"; do
        if ! grep -Eq -- "$_re" "$_f"; then
            fail "$_n" "no line matches '$_re'"
            return
        fi
    done
    ok "$_n"
}

for what in run preset; do
    has "$TMP/$what.html" "report-$what-html-sections" \
        'id="provenance"' 'id="model"' 'id="rounding"' 'id="bits"' 'id="error"' \
        'id="passes"' 'id="recipe"' 'id="cases"' \
        '<figure id="fig-bits"' '<figure id="fig-error"' '<figure id="fig-passes"' '<svg '
    has "$TMP/$what.md" "report-$what-md-sections" \
        '^## Provenance' '^## The model' '^## Rounding truth table' '^## Bit contributions' \
        '^## Error against K' '^## Pass structure' '^## Recipe' '^## Cases linked'
    # The parameters, by hand from the datapath (docs/findings.md).
    has "$TMP/$what.md" "report-$what-model-table" \
        '^\| <a id="param-window"></a>window \| 25 \| ' \
        '^\| <a id="param-align_round"></a>align_round \| rz \| ' \
        '^\| <a id="param-pass"></a>pass \| 16 \| ' \
        '^\| <a id="param-window"></a>window \| 25 \| fit: .*\[[0-9]+\]\(#case-[0-9]+\)'
    # q = 23 is f32's last place near 1: truncation keeps +1 + 1/4 ulp at
    # 1 (+0) and takes -1 + 1/4 ulp one value up, to -(1 - 2^-24) (+1).
    has "$TMP/$what.md" "report-$what-truth-table" '^### q = 23' \
        '^\| \+1/4 \| \[\+0\]\(#case-[0-9]+\) \| \[\+0\]\(#case-[0-9]+\) \| \*\*\[\+1\]\(#case-[0-9]+\)\*\* \|'
    # A survivor 2^-j of a cancelled pair counts for j <= F = 25 only.
    has "$TMP/$what.md" "report-$what-bit-map" '^p1-p1\+c +#{25}\.+$'
    has "$TMP/$what.md" "report-$what-error-table" '^ +1 +64 ' '^ +16 +64 '
    # One product and C, cut twice toward zero: within 2u = 2^-22 of exact.
    k1=$(awk '$1 == 1 && $2 == 64 {print $3}' "$TMP/$what.md")
    if [ -n "$k1" ] && awk -v e="$k1" 'BEGIN {exit !(e > 0 && e <= 2.384186e-07)}'; then
        ok "report-$what-error-k1"
    else
        fail "report-$what-error-k1" "max relative error at K = 1 is '${k1:-none}', not in (0, 2^-22]"
    fi
    has "$TMP/$what.md" "report-$what-passes" '^16 products, 16 per pass, 1 pass \(chain\)$'
    # Every link to a case lands on a case of the page.
    grep -o 'href="#case-[0-9]*"' "$TMP/$what.html" | sed 's/.*case-\([0-9]*\)"/\1/' |
        sort -u >"$TMP/links"
    grep -o 'id="case-[0-9]*"' "$TMP/$what.html" | sed 's/.*case-\([0-9]*\)"/\1/' |
        sort -u >"$TMP/anchors"
    missing=$(comm -23 "$TMP/links" "$TMP/anchors" | head -n 3 | tr '\n' ' ')
    if [ ! -s "$TMP/links" ]; then
        fail "report-$what-case-anchors" "no link to a case"
    elif [ -n "$missing" ]; then
        fail "report-$what-case-anchors" "links without anchors: $missing"
    else
        ok "report-$what-case-anchors"
    fi
done
# A run's page leads with its verdict: the inferred model against its
# preset, the validations, how the rows stand (the whole answer the decide
# rung's inference stored, its lines under the paragraph); the rounding truth table
# states its conclusion, and drops the columns no case fills.
check report-run-verdict-first test "$(grep -m 1 '^## ' "$TMP/run.md")" = '## Verdict'
has "$TMP/run.md" report-run-verdict-line \
    '^The model inferred = the preset sm90-mma-bf16-f32 \(the canonical models are identical\)\. (No validation|Validations: 0 mismatches in [0-9]+ cases)\. Answer: rows: [0-9]+ decided, [0-9]+ open, [0-9]+ equivalent, [0-9]+ not in effect\.$' \
    '^not in effect: '
has "$TMP/run.md" report-run-truth-conclusion \
    '^Conclusion: final rounding toward zero \(d_round: rz\); alignment into the window toward zero \(align_round: rz\)\.$'
check report-run-truth-no-empty-column test "$(sed -n '/^## Rounding/,/^## [EP]/p' "$TMP/run.md" | grep -c '| - |')" = 0
run_ladder report sm80-mma-s8xs8-s32 --format md
expect_out report-integer-passes '^An integer datapath: the 32 products and C are summed exactly, the sum wrapped into s32; no window, no rounding\.$'
has "$TMP/run.md" report-run-provenance '^\| device \| sm90-mma-bf16-f32 \(sim\) \|' \
    '^\| recipe \| ([^ ]*/)?recipes/sm90-mma-bf16-f32.yaml \(sha256 [0-9a-f]{64}\) \|' \
    '^  name: sm90-mma-bf16-f32$'
# The survey page reads as a summary first: the verdict is its first
# section; then a row per datapath with its run (linked to the run's own
# page, written beside), cases, time, validations and vector replays (the
# 5,000 lines of vectors/h100-bf16-f32.vec); parameters constant over the
# survey once, on one line.
sid=$(sqlite3 "$DB" 'SELECT max(id) FROM surveys')
srun=$(sqlite3 "$DB" "SELECT run_id FROM survey_datapaths WHERE survey_id = $sid")
scases=$(sqlite3 "$DB" "SELECT count(*) FROM cases WHERE run_id = $srun")
check report-survey-verdict-first test "$(grep -m 1 '^## ' "$TMP/survey.md")" = '## Verdict'
has "$TMP/survey.md" report-survey-verdict '^1 of 1 datapaths as their preset \(0 of them ≡: rows differ, no case separates the two\), with no mismatch in either validation\.$'
vec=$(grep -vc '^#' vectors/h100-bf16-f32.vec)
has "$TMP/survey.md" report-survey-datapath-row \
    "^\| \[$DP\]\(survey-run$srun\.md\) \| $srun \| $scases \| [0-9]+ \| [0-9]+\.[0-9] \| 0/1000 \| 0/1000 \| 1: 0/$vec \| = preset \|$"
has "$TMP/survey.md" report-survey-constants '^The same in every datapath: .*window 25, .*pass 16, '
has "$TMP/survey.html" report-survey-html-sections 'id="verdict"' 'id="datapaths"' \
    'id="parameters"' '<figure id="fig-window"' "<a href=\"survey-run$srun\.html\">$DP</a>" \
    '@page\{size:A4 landscape'
# Without --run-pages a survey is one page: no file beside it, no link.
mkdir "$TMP/one"
for ext in md html; do
    run_ladder report "survey:$sid" --db "$DB" -o "$TMP/one/s.$ext"
    expect_rc "report-survey-one-page-$ext-rc" 0
    check "report-survey-one-page-$ext" test "$(ls "$TMP/one" | grep -c "^s\.$ext\$")" = 1 \
        -a "$(ls "$TMP/one" | grep -c "run")" = 0
    if grep -q "s-run$srun" "$TMP/one/s.$ext"; then
        fail "report-survey-one-page-$ext-no-link" "links s-run$srun"
    else
        ok "report-survey-one-page-$ext-no-link"
    fi
done
expect_usage_error report-run-pages-needs-survey report latest --db "$DB" -o "$TMP/x.html" --run-pages
expect_usage_error report-ext-refused report latest --db "$DB" -o "$TMP/x.pdf"
expect_err report-ext-refused-names "report -o writes \.html, \.htm or \.md, not '\.pdf'"
expect_usage_error report-ext-format-disagree report latest --db "$DB" -o "$TMP/x.md" --format html
for ext in md html; do
    check "report-survey-run-page-$ext" grep -q "^# ladder report: run $srun ($DP, survey $sid)\|<h1>ladder report: run $srun ($DP, survey $sid)</h1>" "$TMP/survey-run$srun.$ext"
done
if grep -q '^| \[sm90.*\*\*' "$TMP/survey.md"; then
    fail report-survey-no-difference "a cell is marked though the model is its preset"
else
    ok report-survey-no-difference
fi
# A stored model unlike its preset (window 24, by SQL: docs/store.md) gets
# its cell marked, with the preset's value beside it.
srun=$(sqlite3 "$DB" 'SELECT max(run_id) FROM inferences')
sqlite3 "$DB" "UPDATE inferences SET value = replace(value, char(10) || 'window: 25' || char(10),
    char(10) || 'window: 24' || char(10)) WHERE parameter = 'model' AND run_id = $srun"
run_ladder report "survey:$(sqlite3 "$DB" 'SELECT max(id) FROM surveys')" --db "$DB" -o "$TMP/sdiff.md" --run-pages
has "$TMP/sdiff.md" report-survey-difference-marked '\| \*\*24 \(25\)\*\* \|'
has "$TMP/sdiff.md" report-survey-difference-verdict '^0 of 1 datapaths as their preset' \
    "^\| \[$DP\]\(sdiff-run$srun\.md\) \| $srun \| \*\*window 24 \(preset 25\)\*\* \|$"
# In the parameters, window alone is marked.
sed -n '/^## Parameters/,/^## /p' "$TMP/sdiff.md" >"$TMP/sdiff-params"
if [ "$(grep -o '\*\*[^*]*\*\*' "$TMP/sdiff-params" | wc -l)" -eq 1 ]; then
    ok report-survey-difference-alone
else
    fail report-survey-difference-alone "$(grep -o '\*\*[^*]*\*\*' "$TMP/sdiff-params" | head -n 3 | tr '\n' ' ')"
fi
# Under the verdict, the difference's witness as `ladder diff run:<run>
# <preset>` prints it: the same lines, so the same input and D words; B's
# word is the preset's (ladder check replays diff's witness file on it) and
# A's is another.
run_ladder diff "run:$srun" $DP --db "$DB" -o "$TMP/sdiff.vec"
expect_rc report-survey-witness-diff-rc 1
sed -n '/^witness /,$p' "$out" >"$TMP/sdiff-want"
sed -n "/^### $DP\$/,/^## /p" "$TMP/sdiff.md" | sed -n '/^```$/,/^```$/p' | grep -v '^```$' >"$TMP/sdiff-got"
if [ -s "$TMP/sdiff-want" ] && cmp -s "$TMP/sdiff-want" "$TMP/sdiff-got"; then
    ok report-survey-witness-as-diff
else
    fail report-survey-witness-as-diff "page: $(head -n 1 "$TMP/sdiff-got"); diff: $(head -n 1 "$TMP/sdiff-want")"
fi
has "$TMP/sdiff.md" report-survey-witness-window '^witness window: A and B differ'
da=$(sed -n 's/^    A   \([0-9a-f]*\)  .*/\1/p' "$TMP/sdiff-got")
db=$(sed -n 's/^    B   \([0-9a-f]*\)  .*/\1/p' "$TMP/sdiff-got")
vd=$(grep -v '^#' "$TMP/sdiff.vec" | head -n 1 | sed 's/.*;//')
run_ladder check --model $DP "$TMP/sdiff.vec"
if [ "$rc" = 0 ] && [ -n "$db" ] && [ "$db" = "$vd" ] && [ -n "$da" ] && [ "$da" != "$db" ]; then
    ok report-survey-witness-words
else
    fail report-survey-witness-words "A $da, B $db, the witness file's D $vd, check exit $rc"
fi
run_ladder report "survey:$(sqlite3 "$DB" 'SELECT max(id) FROM surveys')" --db "$DB" -o "$TMP/sdiff.html"
has "$TMP/sdiff.html" report-survey-witness-html "^<h3>$DP</h3>\$" '^<pre>witness window: A and B differ'
sqlite3 "$DB" "UPDATE inferences SET value = replace(value, char(10) || 'window: 24' || char(10),
    char(10) || 'window: 25' || char(10)) WHERE parameter = 'model' AND run_id = $srun"

# A survey of every sm_90a datapath (47 rows, made by SQL from the one
# surveyed: each row's run is that run), for the page's width.
cp "$DB" "$TMP/big.db"
run_ladder presets --json
cp "$out" "$TMP/presets.json"
sqlite3 "$TMP/big.db" "INSERT INTO survey_datapaths SELECT d.survey_id, json_extract(p.value, '\$.name'),
    d.status, d.run_id, d.probes, d.differ, d.inferred_cases, d.inferred_mismatches, d.preset_cases,
    d.preset_mismatches, d.vector_files, d.vector_cases, d.vector_mismatches, d.millis, d.message
    FROM survey_datapaths d, json_each(readfile('$TMP/presets.json')) p
    WHERE d.survey_id = $sid AND json_extract(p.value, '\$.arch') = 'sm_90a'
      AND json_extract(p.value, '\$.name') <> d.datapath"
nbig=$(sqlite3 "$TMP/big.db" "SELECT count(*) FROM survey_datapaths WHERE survey_id = $sid")
run_ladder report "survey:$sid" --db "$TMP/big.db" -o "$TMP/big.html"
check report-survey-big-written test "$rc" = 0 -a "$nbig" -ge 47

# After 'ladder infer' the page takes the stored inferences and model.
run_ladder infer 1 --db "$DB"
run_ladder report 1 --db "$DB" -o "$TMP/stored.md"
has "$TMP/stored.md" report-run-stored-inference \
    "^\| model \| The model stored by 'ladder infer 1'\. \|" \
    '^\| <a id="param-window"></a>window \| 25 \| fit: .*\[[0-9]+\]\(#case-[0-9]+\)'

# Programs never parse the label (docs/store.md): with every label of the
# run rewritten, the truth table and the bit map come out the same, read
# off the words and the structured columns.
cp "$DB" "$TMP/relabel.db"
sqlite3 "$TMP/relabel.db" "UPDATE cases SET label = 'relabelled' WHERE run_id = 1"
run_ladder report 1 --db "$TMP/relabel.db" -o "$TMP/relabel.md"
# the two sections, from the truth table to the error's figure
sed -n '/^## Rounding/,/^## [EP]/p' "$TMP/run.md" >"$TMP/part-a"
sed -n '/^## Rounding/,/^## [EP]/p' "$TMP/relabel.md" >"$TMP/part-b"
if grep -q '^p1-p1+c  *#\{25\}\.' "$TMP/part-b" && grep -q '^| +1/4 |' "$TMP/part-b" &&
    cmp -s "$TMP/part-a" "$TMP/part-b"; then
    ok report-run-no-label
else
    fail report-run-no-label "the truth table or the bit map changed when only the labels did"
fi

# A model file is a model too: its cases come from the sim device.
run_ladder model show $DP
cp "$out" "$TMP/m.yaml"
run_ladder report "$TMP/m.yaml" -o "$TMP/file.md"
expect_rc report-model-file 0
has "$TMP/file.md" report-model-file-table '^\| device spec \| sim:.*/m\.yaml \|' \
    '^\| <a id="param-window"></a>window \| 25 \| fit: '

# The run and preset pages: the error chart has a y-axis title, its legend
# draws K*u dashed and sqrt(K)*u dotted as the curves are, and its K axis
# reaches K (32 for Ada's e4m3 QMMA: ticks 1, 4, 8, ... 32); the linked
# cases fold away; a preset's page names no command line or recipe file it
# never had; a value no probe can see is the model's own, not inference's
# default; a two-level window (CDNA3) shows both levels.
has "$TMP/run.html" report-error-y-title '>relative error \|D - exact\| / \|exact\|</text>'
for d in 6,3 2,3; do
    check "report-error-legend-$d" test "$(grep -o "stroke-dasharray=\"$d\"" "$TMP/run.html" | wc -l)" -ge 2
done
run_ladder report sm89-mma-e4m3-f32 -o "$TMP/k32.html"
sed -n '/<figure id="fig-error"/,/<\/figure>/p' "$TMP/k32.html" >"$TMP/k32-error"
has "$TMP/k32-error" report-error-ticks-to-k '>1</text>' '>4</text>' '>28</text>' '>32</text>'
check report-error-ticks-no-29 test "$(grep -c '>29</text>' "$TMP/k32-error")" = 0
has "$TMP/run.html" report-cases-fold '^<details><summary>[0-9]+ cases: show them</summary>$'
has "$TMP/preset.md" report-preset-provenance '^\| command line \| none: the cases were generated for this page \|$' \
    '^\| recipe \| built for this page from the model: '
check report-preset-no-placeholder test "$(grep -c '<report recipe\|command line | \[\]' "$TMP/preset.md")" = 0
# a model file that writes a row not in effect off its canonical value
# (prod_inf 128, which no f16 product reaches): the page keeps the model's
# own value and says why inference lands elsewhere
"$LADDER" model show cdna3-mfma-f16-f32-k4 | sed 's/^prod_inf: none$/prod_inf: 128/' >"$TMP/cdna3.yaml"
check report-preset-own-value-setup grep -q '^prod_inf: 128$' "$TMP/cdna3.yaml"
run_ladder report "$TMP/cdna3.yaml" -o "$TMP/cdna3.md"
has "$TMP/cdna3.md" report-preset-own-value \
    '^\| <a id="param-prod_inf"></a>prod_inf \| 128 \| unobservable: no probe case tells it from its alternatives \(inference keeps its default, none\); the value is the model.s own \|'
check report-preset-no-false-default test "$(grep '^| <a id="param-prod_inf"' "$TMP/cdna3.md" | grep -c 'default kept')" = 0
has "$TMP/cdna3.md" report-passes-two-level \
    'summed exactly; that sum aligned 32 bits below the pass anchor and the addend 24 \(rd\); the exact sum cut to 31 fraction bits \(rd\)$'
run_ladder report cdna3-mfma-f16-f32-k4 -o "$TMP/cdna3.html"
has "$TMP/cdna3.html" report-passes-two-level-figure '>second level: window2 32 bits below the pass anchor, align2 rd, norm2: the exact sum cut to 31 fraction bits</text>'

# An fp8 datapath with a GEMM program: the error against total K to 4,096,
# chained and with fp8-promote4 (computed by lad_gemm, measured exactly);
# the chained error grows with K past the promoted one's (as t7020 finds).
run_ladder report sm90-wgmma-e4m3-f32 -o "$TMP/fp8.md"
has "$TMP/fp8.md" report-gemm-section '^### Error against total K, with and without a GEMM program$' \
    '^    32 +[0-9.e+-]+ +[0-9.e+-]+ +- +-$' '^  4096 '
check report-gemm-promote-helps awk '$1 == 4096 {exit !($2 > 10 * $4 && $4 > 0)} END {}' "$TMP/fp8.md"
check report-gemm-not-bf16 test "$(grep -c 'total K, with and without' "$TMP/run.md")" = 0

expect_usage_error report-usage-format report latest --db "$DB" --format pdf
expect_usage_error report-usage-survey report survey:x --db "$DB"
run_ladder report nosuch-preset -o "$TMP/x.html"
expect_rc report-unknown-model 2
run_ladder report 9999 --db "$DB" -o "$TMP/x.html"
expect_rc report-unknown-run 2
run_ladder help report
expect_out report-help '^usage: ladder report <run>\|<model>\|survey:<id>'

# ---- drawn in Chromium ----------------------------------------------------
CHROMIUM=
for c in chromium chromium-browser; do
    command -v "$c" >/dev/null 2>&1 && CHROMIUM=$c && break
done
if [ -z "$CHROMIUM" ]; then
    printf '%s\n' "t4600-report: CHROMIUM IS NOT INSTALLED: the pages were not drawn;" \
        "  'sh scripts/deps.sh test' installs it when run as root" >&2
    fail report-chromium "chromium is not installed; the figures were not drawn"
    test_done
fi
ok report-chromium

# The boxes of the figures, written into the DOM by a script added to a copy.
boxes_js='<script>(function(){var o="",x=0;document.querySelectorAll(".wide").forEach(function(d){x=Math.max(x,d.scrollWidth-d.clientWidth);});o+="overflow "+document.documentElement.scrollWidth+" "+x+String.fromCharCode(10);document.querySelectorAll("figure").forEach(function(f){var s=f.querySelector("svg");if(!s)return;var r=s.getBoundingClientRect();o+=f.id+" "+Math.round(r.left+scrollX)+" "+Math.round(r.top+scrollY)+" "+Math.round(r.width)+" "+Math.round(r.height)+" "+s.querySelectorAll("rect,polyline,circle,line,text").length+String.fromCharCode(10);});var p=document.createElement("pre");p.id="boxes";p.textContent=o;document.body.appendChild(p);})();</script>'
chrome() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --force-device-scale-factor=1 --user-data-dir="$TMP/chrome" "$@" 2>>"$TMP/chrome.err"
}
for what in run preset survey big; do
    case $what in
    run|preset) figs="fig-bits fig-error fig-passes" ;;
    *) figs=fig-window ;;
    esac
    sed "s|</body>|$boxes_js</body>|" "$TMP/$what.html" >"$TMP/$what-boxes.html"
    chrome --window-size=1400,1000 --dump-dom "file://$TMP/$what-boxes.html" >"$TMP/$what.dom"
    sed -n '/<pre id="boxes">/,/<\/pre>/p' "$TMP/$what.dom" |
        sed 's/.*<pre id="boxes">//; s/<\/pre>.*//' | grep '^fig-' >"$TMP/$what.boxes"
    bad=
    # No horizontal overflow at 1400 px: the page is no wider than the
    # window, and no table box scrolls sideways.
    over=$(sed -n '/<pre id="boxes">/,/<\/pre>/p' "$TMP/$what.dom" | grep -o 'overflow [0-9]* [0-9]*')
    set -- $over
    if [ $# -eq 3 ] && [ "$2" -le 1400 ] && [ "$3" -eq 0 ]; then
        ok "report-$what-no-overflow"
    else
        fail "report-$what-no-overflow" "page width ${2:-?} px, table boxes ${3:-?} px past their width"
    fi
    for fig in $figs; do
        line=$(grep "^$fig " "$TMP/$what.boxes")
        set -- $line
        if [ $# -ne 6 ] || [ "$4" -le 0 ] || [ "$5" -le 0 ] || [ "$6" -le 0 ]; then
            bad="$bad $fig(${line:-absent})"
        fi
    done
    if [ -z "$bad" ]; then
        ok "report-$what-dom-figures"
    else
        fail "report-$what-dom-figures" "figures without a box or marks:$bad"
        continue
    fi
    height=$(awk '{b = $3 + $5; if (b > m) m = b} END {print m + 50}' "$TMP/$what.boxes")
    chrome --window-size=1400,"$height" --screenshot="$TMP/$what.png" "file://$TMP/$what.html" >/dev/null
    if [ ! -s "$TMP/$what.png" ]; then
        fail "report-$what-screenshot" "chromium wrote no screenshot: $(tail -n 2 "$TMP/chrome.err")"
        continue
    fi
    # The marks are coloured (text, axes and frames are grey): coloured
    # pixels, channels more than 20 apart, on at least 0.5% of each box.
    # A map without its cells or a plot without its curves has under 0.1%.
    if "$py" - "$TMP/$what.png" "$TMP/$what.boxes" >"$TMP/pix" 2>&1 <<'PY'
import sys
import numpy as np
from PIL import Image
img = np.asarray(Image.open(sys.argv[1]).convert('RGB'))
h, w = img.shape[:2]
bad = 0
for spec in open(sys.argv[2]):
    name, x, y0, bw, bh, _ = spec.split()
    x, y0, bw, bh = int(x), int(y0), int(bw), int(bh)
    box = img[max(y0, 0):min(y0 + bh, h), max(x, 0):min(x + bw, w)]
    total = box.shape[0] * box.shape[1]
    drawn = int(((box.max(axis=2).astype(int) - box.min(axis=2)) > 20).sum())
    print('%s: %d of %d pixels coloured' % (name, drawn, total))
    if total == 0 or drawn * 200 < total:
        bad += 1
sys.exit(1 if bad else 0)
PY
    then
        ok "report-$what-pixels"
    else
        fail "report-$what-pixels" "$(tr '\n' ';' <"$TMP/pix")"
    fi
done

test_done
