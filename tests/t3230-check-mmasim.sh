#!/bin/sh
# ladder check against MMA-Sim's stored answers (vectors/mmasim, made by
# scripts/mmasim-answers.sh): every file is checked with the preset it names
# and must give exactly the mismatch count docs/findings-mmasim.txt lists for
# it (0 where it lists none). The disagreements stay visible as counts: a
# change to a preset or to MMA-Sim's answers moves one and fails here.
. tests/lib.sh
VEC=vectors/mmasim
LIST=docs/findings-mmasim.txt

n=0
for f in "$VEC"/*.vec; do
    p=$(basename "$f" .vec)
    name=check-mmasim-$p
    n=$((n + 1))
    want=$(awk -v p="$p" '$1 == p { print $2 }' "$LIST")
    cases=$(sed -n 's/^# cases: //p' "$f")
    run_ladder check --model "$p" "$f"
    line=$(grep -F "$f: " "$out" | head -n 1)
    case "$line" in
    "$f: ${want:-0}/$cases mismatches ($p)") ok "$name" ;;
    "") fail "$name" "no result line: $(head -c 200 "$err")" ;;
    *) fail "$name" "$line (expected ${want:-0} from $LIST)" ;;
    esac
done

# every listed preset has its file (a renamed preset must not drop a count)
for p in $(grep -v '^#' "$LIST" | awk '{print $1}'); do
    check "check-mmasim-listed-$p" test -f "$VEC/$p.vec"
done
# the files cover what MMA-Sim models: 135 presets at the time of writing
[ "$n" -ge 135 ] && ok check-mmasim-file-count || fail check-mmasim-file-count "$n files"

test_done
