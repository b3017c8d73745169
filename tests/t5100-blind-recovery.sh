#!/bin/sh
# Blind recovery: for every preset and for random draws from the parameter
# space (tests/data/model-random.sh: every structure of the model family,
# AMD, block-scaled, f64 and integer ones, fnuz and user-defined formats
# among them), the full ladder runs against an exec device (`ladder eval
# --model <file>` over pipes: the inference code never sees the model
# behind it), `ladder infer` fits a model from the stored words, and
# `ladder validate` compares that model with the same device on random
# cases. Every one must end with 0 mismatches and a model equal (=) or
# equivalent (≡) to the hidden one (`ladder diff`). A validation's mismatches
# join the run's evidence, so where one finds some, infer runs again and a
# validation on a new seed follows, up to 3 times (tests/data/blind-one.sh;
# docs/inference.md, "Refinement"): the verdict is the last validation's,
# and the models that needed such rounds are counted apart. The recipe says only what an
# experimenter knows: the instruction's names, K, the formats' names and
# widths, scales, sparsity.
#
# Sizes (environment): LADDER_BLIND_PRESETS, every how many presets one is
# taken (1: all; default 32, starting with the first), LADDER_BLIND_DRAWS
# random draws (default 6), LADDER_BLIND_CASES validation cases each
# (default 10000; the first LADDER_BLIND_BIG draws get 1,000,000, default 0),
# LADDER_BLIND_JOBS in parallel (default 2), LADDER_BLIND_EXTRA draws by
# number beyond the first LADDER_BLIND_DRAWS (default 83, a draw whose
# staged sweep ends in a conflict that infer's rescue sweep leaves; 180,
# block-scaled with one scale block, which the wide restarts recover; 532, bf16 in one pass, which the
# neutral swaps recover; 114 and 795 on 100,000 cases, which the sweep
# from the last model and the group of the lanes' and C's cuts recover
# (795 after a refinement round); 7059, gfx942 fp8 with a second level
# cut to 24 bits under an accumulator in bf16, which the shifted roundings
# recover (it needed a refinement round until the decide rung searched as
# deep as ladder diff);
# N:CASES gives draw N its own number of cases;
# docs/inference.md; empty: none),
# LADDER_BLIND_FURTHER=1 the decide rung's further look (below),
# LADDER_BLIND_OLD the draws of the first generator whose recovery once
# failed (tests/data/blind-draws/random-v1-<n>.yaml; default all ten,
# empty: none). `make test-long` runs every preset and 1000 draws on
# 100,000 cases each, the first 3 on 1,000,000, with the further look;
# LADDER_TEST_QUICK (sanitizer builds) a handful. Check names:
# blind-<model>. The work for one model is tests/data/blind-one.sh.
. tests/lib.sh

if [ -n "${LADDER_TEST_QUICK:-}" ]; then
    STRIDE=${LADDER_BLIND_PRESETS:-240}
    DRAWS=${LADDER_BLIND_DRAWS:-1}
    CASES=${LADDER_BLIND_CASES:-2000}
    BIG=${LADDER_BLIND_BIG:-0}
    EXTRA=${LADDER_BLIND_EXTRA:-}
    OLD=${LADDER_BLIND_OLD-}
else
    STRIDE=${LADDER_BLIND_PRESETS:-32}
    DRAWS=${LADDER_BLIND_DRAWS:-6}
    CASES=${LADDER_BLIND_CASES:-10000}
    BIG=${LADDER_BLIND_BIG:-0}
    EXTRA=${LADDER_BLIND_EXTRA-83 180 532 114:100000 795:100000 7059:100000}
    OLD=${LADDER_BLIND_OLD-37 40 64 77 102 125 126 131 158 179}
fi
JOBS=${LADDER_BLIND_JOBS:-2}
# The decide rung's further look (inference/answer.c) is the same search
# on more cases, a third of this program's time at make test's sizes; t4225
# and t4800 check it. Here it runs where LADDER_BLIND_FURTHER=1 (make
# test-long) or the environment sets LADDER_ANSWER_FURTHER; else it is off.
if [ "${LADDER_BLIND_FURTHER:-0}" != 1 ] && [ -z "${LADDER_ANSWER_FURTHER+set}" ]; then
    LADDER_ANSWER_FURTHER=0
    export LADDER_ANSWER_FURTHER
fi

# The work list: every preset, then the random draws.
: >"$TMP/list"
"$LADDER" presets | awk -v stride="$STRIDE" 'NF && n++ % stride == 0 {print $1}' >"$TMP/presets"
while read -r p; do echo "$p $CASES" >>"$TMP/list"; done <"$TMP/presets"
# an f64 NaN word that is not the default: the search takes all 64 bits
echo "$TESTS_DATA/blind-f64-nan.yaml $CASES" >>"$TMP/list"
draw() {  # draw N [CASES]
    f=$TMP/random-$1.yaml
    sh "$TESTS_DATA/model-random.sh" "$LADDER" "$1" >"$f"
    if ! "$LADDER" model check "$f" >/dev/null 2>&1; then
        fail "blind-random-$1-draw" "the draw is not a valid model: $("$LADDER" model check "$f" 2>&1 | head -1)"
    elif [ "$1" -le "$BIG" ]; then
        echo "$f 1000000" >>"$TMP/list"
    else
        echo "$f ${2:-$CASES}" >>"$TMP/list"
    fi
}
i=1
while [ "$i" -le "$DRAWS" ]; do
    draw "$i"
    i=$((i + 1))
done
for i in $EXTRA; do
    n=${i%%:*}
    c=${i#*:}
    [ "$c" = "$i" ] && c=$CASES
    [ "$n" -gt "$DRAWS" ] && draw "$n" "$c"
done
for i in $OLD; do
    echo "$TESTS_DATA/blind-draws/random-v1-$i.yaml $CASES" >>"$TMP/list"
done
[ -s "$TMP/presets" ] && ok blind-presets-listed || fail blind-presets-listed "ladder presets listed nothing"

start=$(date +%s)
xargs -P "$JOBS" -L 1 sh "$TESTS_DATA/blind-one.sh" "$LADDER" "$TMP" <"$TMP/list" >"$TMP/results" 2>&1
end=$(date +%s)
# A failure of a model that tests/data/blind-known.txt lists is shown as
# "known", with the list's reason; a listed model that now recovers says
# so, to be taken off the list.
awk 'NR == FNR { if ($0 !~ /^#/ && NF) { why[$1] = $0; sub(/^[^ ]* */, "", why[$1]) } next }
     /^(FAIL|ok  ) / { tag = $2; sub(/^blind-/, "", tag); sub(/:$/, "", tag) }
     /^FAIL / && (tag in why) { sub(/^FAIL /, "known "); print $0 " (known: " why[tag] ")"; next }
     /^ok   / && (tag in why) { print; print "# " tag " is listed in tests/data/blind-known.txt and now recovers: take it off"; next }
     { print }' "$TESTS_DATA/blind-known.txt" "$TMP/results" >"$TMP/results.k"
mv "$TMP/results.k" "$TMP/results"
cat "$TMP/results"
TEST_PASSED=$((TEST_PASSED + $(grep -c '^ok   ' "$TMP/results")))
TEST_FAILED=$((TEST_FAILED + $(grep -c '^FAIL ' "$TMP/results")))
total=$(wc -l <"$TMP/list")
done_n=$(grep -c -E '^(ok   |FAIL |known )' "$TMP/results")
[ "$done_n" -eq "$total" ] && ok blind-all-reported || fail blind-all-reported "$done_n of $total models reported"
refined=$(grep -c '^ok   .*(refined [0-9]*)$' "$TMP/results")
echo "# $refined of $(grep -c '^ok   ' "$TMP/results") recovered after refinement rounds"
echo "# against the hidden models: $(grep -c '^ok   [^ ]* =\( \|$\)' "$TMP/results") =, $(grep -c '^ok   [^ ]* ≡' "$TMP/results") ≡"
if [ -s "$TMP/targeted" ]; then
    awk '{ s += $2; if ($2 > m) m = $2; n++ } END { printf "# targeted probe cases per datapath: mean %.0f, max %d over %d models; %d s\n", s / n, m, n, '"$((end - start))"' }' "$TMP/targeted"
fi
test_done
