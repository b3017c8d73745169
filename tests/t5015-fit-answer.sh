#!/bin/sh
# ladder fit gives the whole answer: the rows the file decides, those it
# leaves open (every listed value verified to reproduce the file with
# `ladder check`; a value one step off a decided row verified not to), the
# rows equivalent up to the searched cases and those not in effect; and
# --next writes cases without D words on which each open value gives other
# words than the model (`ladder eval` of both models on them). The -o file
# notes each open row. Every file of vectors/ (about 20 s); two under
# LADDER_TEST_QUICK (the sanitizer build).
. tests/lib.sh

files=$(ls vectors/*.vec | sed 's|vectors/||; s|\.vec$||')
[ -n "${LADDER_TEST_QUICK:-}" ] && files="a100-bf16-f32 h100-e4m3-f32"
for f in $files; do
    vec=vectors/$f.vec
    run_ladder fit "$vec" -q -o "$TMP/$f.yaml" --next "$TMP/$f-next.vec"
    expect_rc "fit-answer-$f-rc" 0
    expect_out "fit-answer-$f-rows" '^rows: [0-9]+ decided, [0-9]+ open, [0-9]+ equivalent, [0-9]+ not in effect$'
    cp "$out" "$TMP/$f.out"
    # The single-row values of the answer, one "kind key value" a line:
    # "open: key: v0|v1|v2; equivalent: v3" gives open v1, open v2 and
    # equivalent v3 (v0 is the model's own; "(others only together with
    # another row)" lists none alone); a range a..b gives a and b.
    awk '/^(open|equivalent): [a-z_0-9]+: / {
        kind = $1; sub(":", "", kind); key = $2; sub(":", "", key)
        rest = $0; sub(/^[a-z]+: [a-z_0-9]+: /, "", rest)
        eq = ""
        if ((i = index(rest, "; equivalent: ")) > 0) { eq = substr(rest, i + 14); rest = substr(rest, 1, i - 1) }
        sub(/ \(.*/, "", rest)
        n = split(rest, v, "|")
        for (j = 2; j <= n; j++) print kind, key, v[j]
        n = split(eq, v, "|")
        for (j = 1; j <= n; j++) print "equivalent", key, v[j]
    }' "$TMP/$f.out" | awk '{ if (index($3, "..")) { split($3, r, /\.\./); print $1, $2, r[1]; print $1, $2, r[2] } else print }' >"$TMP/$f.values"
    # every single-row value listed as open or equivalent reproduces the file
    bad=""
    n=0
    while read -r kind key v; do
        sed "s/^$key: .*/$key: $v/" "$TMP/$f.yaml" >"$TMP/alt.yaml"
        n=$((n + 1))
        "$LADDER" check --model "$TMP/alt.yaml" "$vec" >/dev/null 2>&1 || bad="$bad $key=$v"
    done <"$TMP/$f.values"
    [ "$n" -gt 0 ] && [ -z "$bad" ] && ok "fit-answer-$f-open-fit" ||
        fail "fit-answer-$f-open-fit" "$n values tried; these miss cases:$bad"
    # a decided row one step off does not: the window where it is decided,
    # else the final rounding
    if ! grep -Eq '^(open|equivalent): window:|^not in effect:.* window ' "$TMP/$f.out"; then
        w=$(sed -n 's/^window: //p' "$TMP/$f.yaml")
        alt="window: $((w - 1))"
    elif ! grep -Eq '^(open|equivalent): d_round:|^not in effect:.* d_round ' "$TMP/$f.out"; then
        r=$(sed -n 's/^d_round: //p' "$TMP/$f.yaml")
        [ "$r" = rne ] && alt="d_round: rz" || alt="d_round: rne"
    else
        alt=""
    fi
    if [ -z "$alt" ]; then
        fail "fit-answer-$f-decided-off" "neither window nor d_round is decided"
    else
        sed "s/^${alt%%:*}: .*/$alt/" "$TMP/$f.yaml" >"$TMP/alt.yaml"
        "$LADDER" check --model "$TMP/alt.yaml" "$vec" >/dev/null 2>&1
        check "fit-answer-$f-decided-off" test "$?" = 1
    fi
    # the model file says which rows are open
    check "fit-answer-$f-evidence" grep -Eq "^evidence: \"ladder fit $vec: 0/[0-9]+ mismatches; rows: [0-9]+ decided, [0-9]+ open, " "$TMP/$f.yaml"
    rows=$(sed -n 's/^open: \([a-z0-9_]*\): .*/\1/p' "$TMP/$f.out" | sort -u | tr '\n' ' ')
    noted=$(awk '/^# open: /{o=1; next} o && /^[a-z0-9_]+:/{sub(":.*",""); print; o=0}' \
        "$TMP/$f.yaml" | sort -u | tr '\n' ' ')
    check "fit-answer-$f-notes" test "$rows" = "$noted"
    # --next: cases without D, each open row's first other value separated
    next=$TMP/$f-next.vec
    cases=$(sed -n 's/^# cases: //p' "$next")
    check "fit-answer-$f-next-count" test "$(grep -vc '^#' "$next")" = "$cases"
    check "fit-answer-$f-next-no-d" test "$(grep -v '^#' "$next" | awk -F';' '{print NF}' | sort -u)" = "$( [ "$cases" = 0 ] || echo 3)"
    grep -v '^#' "$next" | "$LADDER" eval --model "$TMP/$f.yaml" >"$TMP/d-model"
    bad=""
    while read -r kind key v; do
        [ "$kind" = open ] || continue
        sed "s/^$key: .*/$key: $v/" "$TMP/$f.yaml" >"$TMP/alt.yaml"
        grep -v '^#' "$next" | "$LADDER" eval --model "$TMP/alt.yaml" >"$TMP/d-alt"
        cmp -s "$TMP/d-model" "$TMP/d-alt" && bad="$bad $key=$v"
    done <"$TMP/$f.values"
    [ -z "$bad" ] && ok "fit-answer-$f-next-separates" ||
        fail "fit-answer-$f-next-separates" "no case of --next separates:$bad"
done
# --next without an exact model is refused
run_ladder fit vectors/a100-bf16-f32.vec -q --model sm80-mma-s8xs8-s32 --next "$TMP/x.vec"
check fit-answer-next-needs-exact test "$rc" != 0
test_done
