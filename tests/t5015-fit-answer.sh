#!/bin/sh
# ladder fit gives the whole answer: the rows the file decides, those it
# leaves open (every listed value verified to reproduce the file with
# `ladder check`; a value one step off a decided row verified not to), the
# rows equivalent up to the searched cases and those not in effect; and
# --next writes cases without D words on which each open value gives other
# words than the model (`ladder eval` of both models on them); so does
# each alternative of two rows or more apart from the model (--json's
# together: the models far apart, the first four of the others). The -o
# file notes each open row. One `fit --json -o --next` per file of
# vectors/ (two under LADDER_TEST_QUICK, the sanitizer build); the lines
# fit prints without --json are checked against its JSON on two files.
. tests/lib.sh

files=$(ls vectors/*.vec | sed 's|vectors/||; s|\.vec$||')
[ -n "${LADDER_TEST_QUICK:-}" ] && files="a100-bf16-f32 h100-e4m3-f32"
for f in $files; do
    vec=vectors/$f.vec
    run_ladder fit "$vec" -q --json -o "$TMP/$f.yaml" --next "$TMP/$f-next.vec"
    expect_rc "fit-answer-$f-rc" 0
    cp "$out" "$TMP/$f.json"
    # From the JSON answer: "<decided> <open> <equivalent> <not in
    # effect>" into .rows; the single-row values into .values, one "kind
    # key value" a line (a row's "separated" values after the model's own
    # are open, its "not_separated" ones equivalent; a range a..b gives a
    # and b); the open rows into .open; the alternatives of two rows or
    # more into .together, "apart separated sed-script" (each model far
    # apart, and the first four of the others).
    python3 - "$TMP/$f.json" "$TMP/$f" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["answer"]
p = sys.argv[2]
open(p + ".rows", "w").write("%d %d %d %d\n" % (a["decided"], a["open"], a["equivalent"],
                                                 a["not_in_effect"]))
with open(p + ".values", "w") as f:
    for key, r in a["rows"].items():
        for kind, field in (("open", "separated"), ("equivalent", "not_separated")):
            if r["status"] not in ("open", "equivalent") or (kind == "open" and r["status"] != "open"):
                continue
            for v in r[field].split("|")[1:]:
                for e in v.split("..") if ".." in v else [v]:
                    f.write("%s %s %s\n" % (kind, key, e))
open(p + ".open", "w").write(" ".join(sorted(k for k, r in a["rows"].items()
                                            if r["status"] == "open")) + "\n")
near = [t for t in a["together"] if not t["apart"]][:4]
with open(p + ".together", "w") as f:
    for t in [t for t in a["together"] if t["apart"]] + near:
        f.write("%d %d %s\n" % (t["apart"], t["separated"],
                                ";".join("s/^%s: .*/%s: %s/" % kv for kv in
                                         ((k, k, v) for k, v in t["rows"].items()))))
PY
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
    status() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["answer"]["rows"].get(sys.argv[2], {}).get("status", ""))' "$TMP/$f.json" "$1"; }
    if [ "$(status window)" = decided ]; then
        w=$(sed -n 's/^window: //p' "$TMP/$f.yaml")
        alt="window: $((w - 1))"
    elif [ "$(status d_round)" = decided ]; then
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
    # the model file says which rows are open, and counts them
    read -r nd no ne nf <"$TMP/$f.rows"
    check "fit-answer-$f-evidence" grep -Eq "^evidence: \"ladder fit $vec: 0/[0-9]+ mismatches; rows: $nd decided, $no open, $ne equivalent, $nf not in effect" "$TMP/$f.yaml"
    noted=$(awk '/^# open: /{o=1; next} o && /^[a-z0-9_]+:/{sub(":.*",""); print; o=0}' \
        "$TMP/$f.yaml" | sort | tr '\n' ' ' | sed 's/ $//')
    check "fit-answer-$f-notes" test "$(cat "$TMP/$f.open")" = "$noted"
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
    # the alternatives of two rows or more reproduce the file, and a
    # separated one gives another word than the model on a case of --next
    bad=""
    n=0
    napart=0
    while read -r apart sep script; do
        sed "$script" "$TMP/$f.yaml" >"$TMP/alt.yaml"
        n=$((n + 1))
        napart=$((napart + apart))
        "$LADDER" check --model "$TMP/alt.yaml" "$vec" >/dev/null 2>&1 || bad="$bad [$script: misses cases]"
        [ "$sep" = 1 ] || continue
        grep -v '^#' "$next" | "$LADDER" eval --model "$TMP/alt.yaml" >"$TMP/d-alt"
        cmp -s "$TMP/d-model" "$TMP/d-alt" && bad="$bad [$script: no case of --next separates]"
    done <"$TMP/$f.together"
    [ -z "$bad" ] && ok "fit-answer-$f-together" ||
        fail "fit-answer-$f-together" "$n alternatives ($napart apart):$bad"
    echo "$napart" >>"$TMP/aparts"
done
# the models far apart reach rows the pairs do not, in some file; none
# without the further look (LADDER_ANSWER_FURTHER=0, the sanitizer pass)
napart=$(awk '{s += $1} END {print s + 0}' "$TMP/aparts")
if [ "${LADDER_ANSWER_FURTHER:-}" = 0 ]; then
    check fit-answer-apart-none test "$napart" = 0
else
    check fit-answer-apart-found test "$napart" -gt 0
fi
# The lines fit prints: the counts and the open rows of its JSON (with
# --next, which searches deeper for the cases that separate)
for f in a100-bf16-f32 h100-e4m3-f32; do
    run_ladder fit "vectors/$f.vec" -q --next "$TMP/lines-next.vec"
    read -r nd no ne nf <"$TMP/$f.rows"
    expect_out "fit-answer-$f-rows" "^rows: $nd decided, $no open, $ne equivalent, $nf not in effect\$"
    rows=$(sed -n 's/^open: \([a-z0-9_]*\): .*/\1/p' "$out" | sort -u | tr '\n' ' ' | sed 's/ $//')
    check "fit-answer-$f-open-lines" test "$rows" = "$(cat "$TMP/$f.open")"
done
# --next without an exact model is refused
run_ladder fit vectors/a100-bf16-f32.vec -q --model sm90-mma-s8xs8-s32 --next "$TMP/x.vec"
check fit-answer-next-needs-exact test "$rc" != 0
test_done
