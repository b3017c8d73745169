#!/bin/sh
# blind-one.sh LADDER TMPDIR MODEL NCASES: one blind recovery (see
# tests/t5100-blind-recovery.sh): the ladder against `exec:LADDER eval
# --model MODEL`, infer, validate NCASES cases. MODEL is a preset name or a
# model file. Mismatches of a validation join the run's cases (`ladder
# validate`), so while one finds some, up to LADDER_BLIND_ROUNDS times
# (default 3) infer runs again and a validation on a new seed follows
# (docs/inference.md, "Refinement"); the verdict is the last validation's.
# A validated model is then compared with the hidden one (`ladder diff`,
# LADDER_BLIND_DIFF_CASES random cases after the structured ones, default
# 65,536): = or ≡ passes, differs fails. Prints one check line (ok ones
# give the verdict, and "refined N" after N such rounds);
# appends "<model> <targeted cases>" to TMPDIR/targeted.
LADDER=$1
TMP=$2
m=$3
n=$4
tag=$(basename "$m" .yaml)
w=$TMP/w-$tag
mkdir -p "$w"
if [ -f "$m" ]; then mf=$m; else "$LADDER" model show "$m" >"$w/m.yaml"; mf=$w/m.yaml; fi

# The recipe: what an experimenter knows. Formats that are not built in are
# declared by name and width only; the result by its container.
"$LADDER" model show "$mf" | grep -v '^#' >"$w/show"
get() { grep "^$1:" "$w/show" | head -1 | sed "s/^$1: *//" | tr -d '"'; }
"$LADDER" format list | awk '{print $1}' >"$w/builtin"
builtin() { grep -qx -- "$1" "$w/builtin"; }
{
    # a result format cut below its container (e8m13:pad=10) arrives in f32
    # or f16, as the recipe of a preset says (probes/recipe.c)
    d=$(get d)
    builtin "$d" || case "$d" in e8m*) d=f32 ;; *) d=f16 ;; esac
    echo "recipe: 1"
    echo "datapath:"
    for f in name arch instr kind shape sass; do
        v=$(get $f)
        [ -n "$v" ] && [ "$v" != '""' ] && echo "  $f: $v"
    done
    # a user-defined A, B or C (a spec, 16 bits or fewer) by its name and
    # width: the first line of its code table names it and counts its codes
    for f in a b c; do
        v=$(get $f)
        if builtin "$v"; then
            echo "  $f: $v"
        else
            "$LADDER" format table "$v" | head -1 |
                awk -v f="$f" '{ w = 0; for (n = $(NF - 1); n > 1; n /= 2) w++
                                 print "  " f ": {name: " $2 ", width: " w "}" }'
        fi
    done
    echo "  d: $d"
    echo "  k: $(get k)"
    sc=$(get scale_block)
    S=""
    if [ "$sc" != 0 ]; then
        echo "  sa: $(get sa)"
        echo "  sb: $(get sb)"
        echo "  scale_block: $sc"
        S=", scaling"
    fi
    sp=$(get sparse)
    [ "$sp" != none ] && echo "  sparse: $sp"
    echo "rungs: [instruction, slice, lanes, truncation, visible, internal, ulp, grouping, zeros, specials$S, random]"
    echo "random: {cases: 1024, finite: 50, seed: 1}"
} >"$w/r.yaml"

dev="exec:$LADDER eval --model $mf"
db=$w/l.db
why=""
if ! "$LADDER" run "$w/r.yaml" --db "$db" --device "$dev" >"$w/run.out" 2>&1; then
    why="run failed: $(grep -m1 'ladder:' "$w/run.out")"
elif ! "$LADDER" infer latest --db "$db" --no-answer -o "$w/inferred.yaml" >"$w/infer.out" 2>&1; then
    why="infer failed: $(grep -m1 'ladder:' "$w/infer.out")"
else
    round=0
    while :; do
        "$LADDER" validate latest --db "$db" --device "$dev" --cases "$n" \
            --seed $((7 + round)) -q >"$w/val.out" 2>&1
        r=$(grep '^validate:' "$w/val.out")
        case "$r" in
        "validate: 0/$n mismatches"*) why="" ;;
        "") why="validate failed: $(tail -n 1 "$w/val.out")" ;;
        *) why="$r" ;;
        esac
        case "$why" in "validate: "*) ;; *) break ;; esac
        [ "$round" -ge "${LADDER_BLIND_ROUNDS:-3}" ] && break
        round=$((round + 1))
        if ! "$LADDER" infer latest --db "$db" --no-answer -o "$w/inferred.yaml" >"$w/infer.out" 2>&1; then
            why="infer failed after $round refinement round(s): $(grep -m1 'ladder:' "$w/infer.out")"
            break
        fi
    done
fi
# Validated: the model must also be the hidden one up to equivalence, =
# (the same canonical model) or ≡ (no searched case tells them apart).
verdict=
if [ -z "$why" ]; then
    "$LADDER" diff "$mf" "$w/inferred.yaml" -q --cases "${LADDER_BLIND_DIFF_CASES:-65536}" \
        >"$w/diff.out" 2>&1
    drc=$?
    verdict=$(sed -n 's/^verdict: \([^ ]*\).*/\1/p' "$w/diff.out")
    if [ "$drc" -ne 0 ]; then
        why="validated, but not the hidden model: $(grep -m1 '^verdict:\|ladder:' "$w/diff.out")"
    fi
fi
targeted=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE rung <> 'random'" 2>/dev/null)
if [ -z "$why" ] && [ "${round:-0}" -gt 0 ]; then
    echo "ok   blind-$tag $verdict (refined $round)"
elif [ -z "$why" ]; then
    echo "ok   blind-$tag $verdict"
else
    echo "FAIL blind-$tag: $why"
fi
echo "$tag ${targeted:-0}" >>"$TMP/targeted"
rm -rf "$w"
