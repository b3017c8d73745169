#!/bin/sh
# ladder fit gives the whole answer: the rows the file decides, those it
# leaves open (every listed value verified to reproduce the file with
# `ladder check`; a value one step off a decided row verified not to), the
# rows equivalent up to the searched cases and those not in effect; and
# --next writes cases without D words on which each open value gives other
# words than the model (`ladder eval` of both models on them). The -o file
# notes each open row. Two files; every file of vectors/ with LADDER_FIT_ALL
# (make test-long).
. tests/lib.sh

files="a100-bf16-f32 h100-e4m3-f32"
[ -n "${LADDER_FIT_ALL:-}" ] && files=$(ls vectors/*.vec | sed 's|vectors/||; s|\.vec$||')
for f in $files; do
    vec=vectors/$f.vec
    run_ladder fit "$vec" -q -o "$TMP/$f.yaml" --next "$TMP/$f-next.vec"
    expect_rc "fit-answer-$f-rc" 0
    expect_out "fit-answer-$f-rows" '^rows: [0-9]+ decided, [0-9]+ open, [0-9]+ equivalent, [0-9]+ not in effect$'
    cp "$out" "$TMP/$f.out"
    # every single-row value listed as open or equivalent reproduces the file
    bad=""
    n=0
    for line in $(sed -n 's/^\(open\|equivalent\): \([a-z_0-9]*\): [^|]*|\([^ ]*\).*/\2=\3/p' "$TMP/$f.out"); do
        key=${line%%=*}
        for v in $(echo "${line#*=}" | tr '|' ' '); do
            case "$v" in *..*) v=${v%%..*} ;; esac  # a range: its first value
            sed "s/^$key: .*/$key: $v/" "$TMP/$f.yaml" >"$TMP/alt.yaml"
            n=$((n + 1))
            "$LADDER" check --model "$TMP/alt.yaml" "$vec" >/dev/null 2>&1 || bad="$bad $key=$v"
        done
    done
    [ "$n" -gt 0 ] && [ -z "$bad" ] && ok "fit-answer-$f-open-fit" ||
        fail "fit-answer-$f-open-fit" "$n values tried; these miss cases:$bad"
    # a decided row one step off does not
    if grep -q '^open: window:\|^equivalent: window:' "$TMP/$f.out"; then
        fail "fit-answer-$f-window-decided" "window is not decided"
    else
        w=$(sed -n 's/^window: //p' "$TMP/$f.yaml")
        sed "s/^window: .*/window: $((w - 1))/" "$TMP/$f.yaml" >"$TMP/alt.yaml"
        "$LADDER" check --model "$TMP/alt.yaml" "$vec" >/dev/null 2>&1
        check "fit-answer-$f-window-decided" test "$?" = 1
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
    check "fit-answer-$f-next-no-d" test "$(grep -v '^#' "$next" | awk -F';' '{print NF}' | sort -u)" = 3
    grep -v '^#' "$next" | "$LADDER" eval --model "$TMP/$f.yaml" >"$TMP/d-model"
    bad=""
    for line in $(sed -n 's/^open: \([a-z_0-9]*\): [^|]*|\([^| ]*\).*/\1=\2/p' "$TMP/$f.out"); do
        key=${line%%=*}
        v=${line#*=}
        case "$v" in *..*) v=${v%%..*} ;; esac
        sed "s/^$key: .*/$key: $v/" "$TMP/$f.yaml" >"$TMP/alt.yaml"
        grep -v '^#' "$next" | "$LADDER" eval --model "$TMP/alt.yaml" >"$TMP/d-alt"
        cmp -s "$TMP/d-model" "$TMP/d-alt" && bad="$bad $key=$v"
    done
    [ -z "$bad" ] && ok "fit-answer-$f-next-separates" ||
        fail "fit-answer-$f-next-separates" "no case of --next separates:$bad"
done
# --next without an exact model is refused
run_ladder fit vectors/a100-bf16-f32.vec -q --model sm80-mma-s8xs8-s32 --next "$TMP/x.vec"
check fit-answer-next-needs-exact test "$rc" != 0
test_done
