#!/bin/sh
# What ladder answers to the campaign's deciding cases (scripts/campaign,
# docs/findings.md "What the GPU campaign would decide"), worked out by
# hand from the rules the presets state:
#   - every zero result is +0, whatever the signs (the -0 terms, the
#     negative products that truncate, the cancellation);
#   - fp8 mma.sync into f16 on sm_90a and sm_100a: a first pass past
#     f16's range is inf (0x7c00), and the second pass cannot bring it back;
#     within one pass 256*256 - 256*256 is 0;
#   - the first pass rounds to f16: 1 + 2^-12 is 1.0, then 1 + 2^-11 ties
#     to 1.0 (0x3c00); the three terms in one pass round once (0x3c01).
# A GPU that answers otherwise shows up in the campaign's README.
. tests/lib.sh
C=scripts/campaign

for f in zero-sign-bf16-f32 zero-sign-tf32-f32; do
    for p in sm90-mma-bf16-f32 sm100-tcgen05-bf16-f32 sm90-wgmma-tf32-f32 sm80-mma-tf32-f32; do
        case "$f.$p" in *bf16*tf32*|*tf32*bf16*) continue ;; esac
        run_ladder eval --model "$p" "$C/$f.vec"
        expect_out_eq "deciding-$f-$p" "$(printf '00000000\n00000000\n00000000\n00000000')"
    done
done
run_ladder eval --model sm90-mma-f16-f16 "$C/zero-sign-f16-f16.vec"
expect_out_eq deciding-zero-sign-f16-f16 "$(printf '0000\n0000\n0000\n0000')"
run_ladder eval --model sm70-mma-f16-f32 "$C/zero-sign-f16-f32.vec"
expect_out_eq deciding-zero-sign-f16-f32 "$(printf '00000000\n00000000')"
for p in sm90-mma-e5m2-f16 sm100-mma-e5m2-f16; do
    run_ladder eval --model "$p" "$C/overflow-between-passes-e5m2-f16.vec"
    expect_out_eq "deciding-overflow-$p" "$(printf '7c00\n7c00\n0000')"
done
run_ladder eval --model sm90-mma-e4m3-f16 "$C/overflow-between-passes-e4m3-f16.vec"
expect_out_eq deciding-overflow-sm90-mma-e4m3-f16 "$(printf '7c00\n7c00\n0000')"
for p in sm90-mma-e4m3-f16 sm100-mma-e4m3-f16; do
    run_ladder eval --model "$p" "$C/class-a-hopper-e4m3-f16.vec"
    expect_out_eq "deciding-class-a-$p" "$(printf '3c00\n3c01')"
done
# every file names only presets that exist
bad=""
for f in "$C"/*.vec; do
    for p in $(sed -n 's/^# presets: //p' "$f"); do
        "$LADDER" model show "$p" >/dev/null 2>&1 || bad="$bad $f:$p"
    done
done
[ -z "$bad" ] && ok deciding-presets-exist || fail deciding-presets-exist "$bad"
test_done
