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

# class B: A = (2^-70, -2^-80), B = (2^-70, 2^-80), zeros elsewhere: the
# products are 2^-140 and -2^-160. A window floored at -133 (F = 25, last
# bit 2^-158) drops -2^-160 and gives 2^-140 = 0x00000200, as MMA-Sim and the
# H200 and B200 tcgen05 floors say; without the floor the sum truncates to
# 0x000001ff. Blackwell's mma.sync must floor like its tcgen05 and Hopper.
z=0,0,0,0,0,0,0,0,0,0,0,0,0,0
printf '1c80,9780,%s;1c80,1780,%s;00000000\n' $z $z > "$TMP/floor.txt"
for p in sm100-mma-bf16-f32 sm100-tcgen05-bf16-f32 sm90-mma-bf16-f32; do
    run_ladder eval --model "$p" "$TMP/floor.txt"
    expect_out_eq "check-mmasim-floor-$p" 00000200
done

test_done
