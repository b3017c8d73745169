#!/bin/sh
# ladder diff -o: the witnesses as a .vec file whose D words are B's.
# `ladder check --model B` must pass it and `ladder check --model A` must
# fail on every line; each witness names a parameter and shows both words.
. tests/lib.sh

# said NAME CASE REGEX: the diff output of CASE has a line matching REGEX.
said() {
    if grep -Eq "$3" "$TMP/$2.diff"; then ok "$1"; else fail "$1" "diff output lacks /$3/"; fi
}

# replay NAME A B LINES: diff A B -o, then check both ways; LINES witnesses.
replay() {
    run_ladder diff "$2" "$3" -o "$TMP/$1.vec"
    expect_rc "$1-diff-rc" 1
    cp "$out" "$TMP/$1.diff"
    n=$(grep -vc '^#' "$TMP/$1.vec")
    if [ "$n" = "$4" ]; then ok "$1-lines"; else fail "$1-lines" "$n lines, expected $4"; fi
    run_ladder check --model "$3" "$TMP/$1.vec"
    expect_rc "$1-check-b-rc" 0
    expect_out_eq "$1-check-b" "$TMP/$1.vec: 0/$4 mismatches ($3)"
    run_ladder check --model "$2" "$TMP/$1.vec"
    expect_rc "$1-check-a-rc" 1
    expect_out "$1-check-a-all" "^$TMP/$1.vec: $4/$4 mismatches \\($2\\)\$"
}

# H100 wgmma against B200 tcgen05, e4m3 into f32: window 13 against 25 and
# an e8m13 result against f32 (docs/datapaths.md), one witness each.
replay diff-witness-h100-b200 sm90-wgmma-e4m3-f32 sm100-tcgen05-e4m3-f32 2
said diff-witness-h100-b200-d diff-witness-h100-b200 '^witness d: A and B differ'
said diff-witness-h100-b200-window diff-witness-h100-b200 '^witness window: A and B differ'
if grep -q '^# window$' "$TMP/diff-witness-h100-b200.vec" &&
   grep -q '^# d$' "$TMP/diff-witness-h100-b200.vec"; then
    ok diff-witness-h100-b200-named
else
    fail diff-witness-h100-b200-named "no '# window' and '# d' lines"
fi
grep -q '^# k: 32$' "$TMP/diff-witness-h100-b200.vec" && ok diff-witness-file-k ||
    fail diff-witness-file-k "no '# k: 32'"

# The witness words are the models' own: eval each side on the input line.
grep -v '^#' "$TMP/diff-witness-h100-b200.vec" | sed 's/;[0-9a-f]*$//' >"$TMP/in"
run_ladder_in "$TMP/in" eval --model sm90-wgmma-e4m3-f32
cp "$out" "$TMP/ea"
run_ladder_in "$TMP/in" eval --model sm100-tcgen05-e4m3-f32
if cmp -s "$out" "$TMP/ea"; then fail diff-witness-eval-differ "same words"; else ok diff-witness-eval-differ; fi
grep -v '^#' "$TMP/diff-witness-h100-b200.vec" | sed 's/.*;//' >"$TMP/db"
if cmp -s "$out" "$TMP/db"; then ok diff-witness-d-is-b; else fail diff-witness-d-is-b "D words are not B's"; fi

# A100 against H100 tf32: window, the anchor floor of -133 (only a deep,
# subnormal case shows it) and the pass length.
replay diff-witness-tf32 sm80-mma-tf32-f32 sm90-mma-tf32-f32 3
said diff-witness-tf32-anchor diff-witness-tf32 '^witness anchor_min: A and B differ'

# Ada against H100 fp8 mma.sync: six parameters, the lane order among them.
replay diff-witness-fp8 sm89-mma-e4m3-f32 sm90-mma-e4m3-f32 6
said diff-witness-fp8-order diff-witness-fp8 '^witness order: A and B differ'

# K 4 against 16: the common lanes only, the file says k 4.
replay diff-witness-k sm70-mma-f16-f32 sm80-mma-f16-f32 1
grep -q '^# k: 4$' "$TMP/diff-witness-k.vec" && ok diff-witness-k-header ||
    fail diff-witness-k-header "no '# k: 4'"

# Structured witnesses of block-scaled datapaths (--cases 1: the
# structured cases and one random one). A zero floor of -120 against -117
# on mxf8f6f4 e3m2 (random draw 908): only a deep case whose block scales
# carry most of 2^e puts every product below the floors. A C-dominant
# quantum 26 bits under C against none, with an accumulator of 11 bits
# (draw 96): C at a tie of the accumulator's rounding and a term between
# the two quanta, kept or dropped.
sh "$TESTS_DATA/model-random.sh" "$LADDER" 908 >"$TMP/z.yaml"
sed 's/^zero_floor: -120$/zero_floor: -117/' "$TMP/z.yaml" >"$TMP/z2.yaml"
run_ladder diff "$TMP/z.yaml" "$TMP/z2.yaml" --cases 1
expect_rc diff-structured-deep-scales-rc 1
expect_out diff-structured-deep-scales '^verdict: differs \(zero_floor: '
sh "$TESTS_DATA/model-random.sh" "$LADDER" 96 >"$TMP/t.yaml"
sed 's/^cdom_window: 26$/cdom_window: 0/' "$TMP/t.yaml" >"$TMP/t2.yaml"
run_ladder diff "$TMP/t.yaml" "$TMP/t2.yaml" --cases 1
expect_rc diff-structured-tie-rc 1
expect_out diff-structured-tie '^verdict: differs \(cdom_window: '
expect_out diff-structured-tie-c '^    in  .*;3f800800;'

# Terms at a tie of D's rounding (e3m2 x e5m2 into f16 through an f32
# accumulator, random draw 613): 256 + 2^-2 + 2^-3 - 2^-16, C zero; the
# accumulator's rne keeps the tie (D rounds it to even, up), its rz does
# not. The products reach only 2^-16 from 1, so the series leads at 2^8.
sh "$TESTS_DATA/model-random.sh" "$LADDER" 613 >"$TMP/u.yaml"
sed 's/^acc_round: rne$/acc_round: rz/' "$TMP/u.yaml" >"$TMP/u2.yaml"
run_ladder diff "$TMP/u.yaml" "$TMP/u2.yaml" --cases 1
expect_rc diff-structured-term-tie-rc 1
expect_out diff-structured-term-tie '^verdict: differs \(acc_round: '
expect_out diff-structured-term-tie-words '^    A   5c02  256.5$'

test_done
