#!/bin/sh
# ladder check against MMA-Sim's stored answers (vectors/mmasim, made by
# scripts/mmasim-answers.sh): every file is checked with the preset it names
# and must give exactly the mismatch count docs/findings-mmasim.txt lists for
# it (0 where it lists none). The disagreements stay visible as counts: a
# change to a preset or to MMA-Sim's answers moves one and fails here.
. tests/lib.sh
VEC=vectors/mmasim
LIST=docs/findings-mmasim.txt

# The files of the default generator are vectors/mmasim/<preset>.vec, listed
# as <preset>; those of another generator (scripts/mmasim-answers.sh GEN)
# vectors/mmasim/<gen>/<preset>.vec, listed as <gen>/<preset>.
n=0
for f in "$VEC"/*.vec "$VEC"/*/*.vec; do
    [ -f "$f" ] || continue
    key=${f#"$VEC"/}
    key=${key%.vec}
    p=$(sed -n 's/^# preset: //p' "$f")
    name=check-mmasim-$(echo "$key" | tr / -)
    case "$key" in */*) ;; *) n=$((n + 1)) ;; esac
    want=$(awk -v p="$key" '$1 == p { print $2 }' "$LIST")
    cases=$(sed -n 's/^# cases: //p' "$f")
    run_ladder check --model "$p" "$f"
    line=$(grep -F "$f: " "$out" | head -n 1)
    case "$line" in
    "$f: ${want:-0}/$cases mismatches ($p)") ok "$name" ;;
    "") fail "$name" "no result line: $(head -c 200 "$err")" ;;
    *) fail "$name" "$line (expected ${want:-0} from $LIST)" ;;
    esac
    # a listing that names its class's model (explained: <sed script>):
    # the preset so edited gives every stored answer of the file
    explained=$(awk -v p="$key" '$1 == p && sub(/.*explained: /, "") { print }' "$LIST")
    if [ -n "$explained" ]; then
        "$LADDER" model show "$p" | sed "$explained" > "$TMP/explained.yaml"
        run_ladder check --model "$TMP/explained.yaml" "$f"
        expect_out "$name-explained" ": 0/$cases mismatches"
    fi
done

# every listed preset has its file (a renamed preset must not drop a
# count); a line of another generator with 0 (a class only the peers runs
# show) names a preset that has one
for key in $(grep -v '^#' "$LIST" | awk '{print $1}'); do
    f=$VEC/$key.vec
    case "$key" in
    */*) [ "$(awk -v p="$key" '$1 == p { print $2 }' "$LIST")" = 0 ] && f=$VEC/${key#*/}.vec ;;
    esac
    check "check-mmasim-listed-$(echo "$key" | tr / -)" test -f "$f"
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

# separates NAME PRESET SED CASES WORDS: a model file made from PRESET by
# the sed script SED gives exactly WORDS (MMA-Sim's, one a line) on the
# vector lines in CASES (check NAME-<preset>); PRESET itself gives none of
# them (check NAME-differs-<preset>).
separates() {
    "$LADDER" model show "$2" | sed "$3" > "$TMP/sep.yaml"
    run_ladder eval --model "$TMP/sep.yaml" "$4"
    expect_out_eq "$1-$2" "$5"
    printf '%s\n' "$5" > "$TMP/sep.words"
    run_ladder eval --model "$2" "$4"
    if [ -s "$out" ] && ! grep -Fxq -f "$TMP/sep.words" "$out"; then
        ok "$1-differs-$2"
    else
        fail "$1-differs-$2" "the preset gives $(tr '\n' ' ' < "$out")"
    fi
}

# class B on RTX Blackwell's mma.sync: on the case above (2^-140 and
# -2^-160, zeros elsewhere, C = 0) MMA-Sim 2.1.1 answers 00000200 for
# sm120-mma-bf16-f32 (its word, from the oracle); the preset carries no
# floor and answers 000001ff, and with anchor_min -133 gives MMA-Sim's word.
separates check-mmasim-sm120-floor133 sm120-mma-bf16-f32 's/^anchor_min: .*/anchor_min: -133/' "$TMP/floor.txt" 00000200

# class C: two of 1,000,000 random cases where MMA-Sim 2.1.1's NVFP4 model
# (exact groups of 16) answers 40084938 and c1ab95e3 (its words, from a
# make test-peers run). A model file with group: 16 gives exactly those;
# the preset's groups of 4 (sf-tensor's B200 rule) must give other words.
# RTX Blackwell's mma preset takes the same rule; MMA-Sim gives it the same
# words on these cases.
cat > "$TMP/nvfp4.txt" <<'CASES'
2,2,a,b,9,1,0,9,3,0,2,a,9,c,b,1,1,b,a,b,1,b,9,5,a,9,a,9,b,3,9,a,1,0,9,0,1,b,9,b,f,b,1,9,2,9,b,b,7,1,1,1,9,5,3,3,1,2,a,3,2,1,1,b;9,b,3,a,b,9,7,3,3,1,1,8,9,6,3,2,3,9,a,3,1,2,a,0,a,b,9,3,2,8,8,9,b,b,9,2,a,2,9,0,e,3,9,0,9,2,9,9,d,a,a,1,2,e,1,1,9,a,9,1,1,2,2,3;400943ab;04,7c,02,0f;09,7d,0b,09;
8,9,9,1,9,b,1,1,3,1,2,1,9,1,2,9,1,9,1,a,b,9,3,9,b,1,3,b,1,b,9,a,2,1,9,9,8,2,1,9,1,1,3,9,9,a,a,9,1,1,1,3,2,b,2,1,1,1,1,9,1,1,8,a;3,3,a,3,9,b,b,b,9,a,0,3,3,a,1,1,9,2,3,3,9,3,9,b,2,9,2,b,1,9,3,1,b,1,b,9,3,1,9,3,9,a,9,9,a,2,9,a,9,a,8,1,a,3,b,2,a,9,2,a,b,1,9,3;3f865607;7b,15,09,05;7e,26,09,7c;
CASES
for p in sm100-tcgen05-mxf4nvf4-ue4m3-f32 sm120-mma-mxf4nvf4-ue4m3-f32; do
    separates check-mmasim-nvfp4-group16 $p 's/^group: .*/group: 16/' "$TMP/nvfp4.txt" "40084938
c1ab95e3"
done

# class B on kind::mxf8f6f4: case 569668 of 1,000,000 (scales 2^-122 and
# 2^-26), where MMA-Sim answers 00000001 (its word, from a make test-peers
# run). Its floor of the anchor at -133 gives that word; the preset keeps
# the B200 notes' rule (no floor) and must give another. The same for
# RTX Blackwell's mma preset, where MMA-Sim answers the same word.
printf '%s\n' '07,32,2a,2f,24,28,16,3b,0c,05,0a,01,07,2c,09,27,28,2b,0f,2c,24,0e,2f,05,0d,27,05,09,0b,15,2d,03;86,c2,06,07,0b,8b,14,05,07,ce,86,8b,81,0b,81,86,89,88,0c,09,88,0e,8e,1d,0d,0e,8b,81,03,b0,08,8f;00000000;05;65;' > "$TMP/mxfloor.txt"
for p in sm100-tcgen05-mxf8f6f4-e2m3xe4m3-f32 sm120-mma-mxf8f6f4-e2m3xe4m3-f32; do
    separates check-mmasim-mxf8f6f4-floor133 $p 's/^anchor_min: .*/anchor_min: -133/' "$TMP/mxfloor.txt" 00000001
done

# class G: NVFP4 (ue4m3) where C cancels the top block. Two cases of
# `ladder validate --gen scale-edge --seed 1` (20,000 cases) where MMA-Sim
# 2.1.1 answers bdf43800 and 3d3d0c00 (its words, from a make test-peers
# run). In the first C = -798720.1875 (c9430003, raw 19) cancels block 3
# (scales 7d and 7c, scale pair raw 16, products up to raw 20) and blocks
# 0-2 (scale pairs about 2^-10) leave -0.11925888...: the preset's quantum
# max(20 - 39, 16 - 35) = 2^-19 keeps every bit (bdf43e00, the exact sum
# toward zero), MMA-Sim cuts at C's raw - 35 = 2^-16. The second needs its
# groups of 16 too. A model file with MMA-Sim's rule -- the mxf4 family's:
# exact groups of 16, a group that C outranks cut at C's raw - 35
# (cdom_per_group) -- gives both words (and, as its listing says, all of
# the stored scale-edge answers); the preset (sf-tensor's B200 rule) gives
# neither.
cat > "$TMP/nvfp4g.txt" <<'CASES'
c,c,1,4,9,c,d,d,e,2,5,c,5,5,b,4,d,d,d,a,5,c,9,9,1,1,e,f,9,6,d,2,1,9,c,4,1,6,1,1,4,4,c,e,d,6,6,1,9,e,f,e,a,f,e,b,5,b,d,a,f,c,7,d;c,d,f,e,4,e,5,d,5,6,d,7,6,5,e,e,f,1,1,1,7,c,2,9,9,b,f,a,c,2,e,6,c,6,1,4,6,f,9,c,1,1,c,5,6,b,f,f,3,2,1,4,b,9,e,3,7,d,5,7,9,2,2,6;c9430003;14,10,0f,7d;15,11,04,7c;
f,d,6,9,3,4,1,5,1,e,5,d,f,6,2,7,4,4,6,9,f,2,f,d,e,5,3,1,2,2,7,4,1,4,3,d,b,4,3,9,1,f,b,4,b,f,6,4,b,e,7,7,1,d,7,7,4,3,d,1,e,7,6,7;b,1,6,f,f,1,9,e,6,f,a,4,4,f,b,5,4,7,5,7,f,f,7,c,b,a,5,1,9,2,9,4,7,1,3,b,f,b,6,f,3,1,7,5,7,c,6,9,1,b,d,c,5,1,5,a,1,7,5,5,4,1,a,5;47820003;09,08,0d,7d;0d,0b,05,70;
CASES
G16='s/^group: .*/group: 16/; s/^cdom_per_group: .*/cdom_per_group: true/'
for p in sm100-tcgen05-mxf4nvf4-ue4m3-f32 sm120-mma-mxf4nvf4-ue4m3-f32; do
    separates check-mmasim-nvfp4-cut $p "$G16" "$TMP/nvfp4g.txt" "bdf43800
3d3d0c00"
done

# class F: on the stored answers of the CDNA3 e5m2fnuz presets, the cases
# where ladder and MMA-Sim differ (other than as two NaNs) are exactly
# those where a NaN or Inf addend meets a pass with a product of exponent
# e_a + e_b >= 25 (tests/data/mmasim-class-f.py decodes the words itself).
py=${VENV:-build/venv}/bin/python
for p in cdna3-mfma-e5m2fnuz-f32 cdna3-mfma-e5m2fnuz-f32-k16; do
    grep -v '^#' "$VEC/$p.vec" | cut -d';' -f1-3 > "$TMP/f.txt"
    run_ladder eval --model "$p" "$TMP/f.txt"
    check check-mmasim-class-f-rule-$p "$py" tests/data/mmasim-class-f.py "$VEC/$p.vec" "$out"
done

test_done
