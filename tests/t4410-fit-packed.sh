#!/bin/sh
# ladder fit keeps a vector file's cases packed at their formats' widths
# (inference/packed.h) rather than a 1,060-byte lad_case each. On 10,000
# bf16 cases whose D words a preset computed (the A;B;C of two captured
# files, answered by `ladder eval`), fit still finds a model with no
# mismatch, which `ladder check` confirms on the same file and on the
# captured h100 file alone.
. tests/lib.sh

P=sm90-mma-bf16-f32
for f in vectors/h100-bf16-f32.vec vectors/b200-bf16-f32.vec; do
    grep -v '^#' "$f" | cut -d';' -f1-3
done >"$TMP/abc"
"$LADDER" eval --model $P "$TMP/abc" >"$TMP/d"
{
    grep '^#' vectors/h100-bf16-f32.vec | grep -v '^# cases'
    paste -d';' "$TMP/abc" "$TMP/d"
} >"$TMP/big.vec"
check fit-packed-cases test "$(grep -vc '^#' "$TMP/big.vec")" = 10000

run_ladder fit "$TMP/big.vec" -o "$TMP/fit.yaml"
expect_rc fit-packed-rc 0
expect_out fit-packed-line "^fit: 0/10000 mismatches \\($TMP/big.vec\\)$"
run_ladder check "$TMP/big.vec" --model "$TMP/fit.yaml"
expect_rc fit-packed-check-rc 0
run_ladder check vectors/h100-bf16-f32.vec --model "$TMP/fit.yaml"
expect_rc fit-packed-check-h100-rc 0
test_done
