#!/bin/sh
# ladder eval on the AMD presets: each case isolates one rule of MMA-Sim's
# CDNA models, and its word is worked out by hand (comments give the sums;
# "would be" is the word without that rule).
. tests/lib.sh

# eval_is NAME PRESET CASE WORD
eval_is() {
    printf '%s\n' "$3" >"$TMP/case"
    run_ladder_in "$TMP/case" eval --model "$2"
    if [ "$rc" -eq 0 ] && [ "$(cat "$out")" = "$4" ]; then
        ok "$1"
    else
        fail "$1" "exit $rc, got '$(cat "$out")', expected '$4'"
    fi
}

# CDNA3 f16, two-level window. 1 + 2^-24 + 2^-40: the products keep 2^-40
# (24 bits below their anchor -24), the second level (32 bits below E = 0,
# floor) drops it, and 1 + 2^-24 is a tie: 1.0 (would be 3f800001).
eval_is eval-amd-cdna3-window2-cut cdna3-mfma-f16-f32-k4 \
    '3c00,0c00,0010,0;0000,0c00,0010,0;3f800000' 3f800000
# (2 - 2^-23) + 2^-22 + 2^-31 = 2 + 2^-23 + 2^-31: cut to 31 fraction bits
# below its leading bit (2^1), floor, it is the tie 2 + 2^-23: 2.0 (would be
# 40000001 with one rounding).
eval_is eval-amd-cdna3-norm2 cdna3-mfma-f16-f32-k4 \
    '1000,0100,0,0;1000,0200,0,0;3fffffff' 40000000
# The addend is floored 24 bits below E: -2^-100 under 1.0 takes 2^-24 off.
eval_is eval-amd-cdna3-c-floor cdna3-mfma-f16-f32-k4 \
    '3c00,0,0,0;3c00,0,0,0;8d800000' 3f7fffff
# bf16: 2^128 - 2^127 is finite, but the product 2^128 is already Inf
# (would be 7f000000).
eval_is eval-amd-cdna3-prod-inf cdna3-mfma-bf16-f32-k4 \
    '5f80,df00,0,0;5f80,5f80,0,0;00000000' 7f800000

# CDNA3 fp8 (e4m3fnuz: 0x60 = 16, 0x40 = 1, 0x81 = -2^-10, 0x01 = 2^-10).
# 256 on an even lane, -2^-20 on an odd one: the odd sum is floored 24 bits
# below the larger anchor (8): 256 - 2^-16 (would be 43800000, truncated).
z14=0,0,0,0,0,0,0,0,0,0,0,0,0,0
eval_is eval-amd-cdna3-fp8-even-odd cdna3-mfma-e4m3fnuz-f32-k16 \
    "60,01,$z14;60,81,$z14;00000000" 437fffff
# An addend more than 25 bits below E counts as zero: the f16 path above
# floors -2^-100 to -2^-24; here 1.0 stays (would be 3f7fffff).
eval_is eval-amd-cdna3-fp8-c-drop cdna3-mfma-e4m3fnuz-f32-k16 \
    "40,0,$z14;40,0,$z14;8d800000" 3f800000
# 0x80, the one fnuz NaN, makes the result NaN.
eval_is eval-amd-cdna3-fp8-nan cdna3-mfma-e4m3fnuz-f32-k16 \
    "80,0,$z14;40,0,$z14;00000000" 7fffffff

# CDNA1 f16: exact sums. 2^30 - 2^30 + 2^-48 = 2^-48 (a 60-bit window
# below 2^30 would lose it).
eval_is eval-amd-cdna1-exact cdna1-mfma-f16-f32-k4 \
    '7800,f800,0001,0;7800,7800,0001,0;00000000' 27800000
# bf16 (two lanes a pass): 2^127 * 2 - 2^127 * 2 + 1 = 1, and 2^-133 * 2^-133
# beside 1.0 is lost only in the final rounding.
eval_is eval-amd-cdna1-exact-bf16 cdna1-mfma-bf16-f32-k2 \
    '7f00,ff00;4000,4000;3f800000' 3f800000

# CDNA2 f16: a tree of f32 additions. 1 + 2^-24 rounds to 1 (a tie), then
# + 2^-24 again: 1.0 (would be 3f800001 summed exactly).
eval_is eval-amd-cdna2-tree-rounds cdna2-mfma-f16-f32-k4 \
    '3c00,0c00,0c00,0;3c00,0c00,0c00,0;00000000' 3f800000
# Pairs: (1 + 0) + (2^-24 + 2^-24) = 1 + 2^-23 (lane by lane it would be 1.0).
eval_is eval-amd-cdna2-tree-pairs cdna2-mfma-f16-f32-k4 \
    '3c00,0,0c00,0c00;3c00,0,0c00,0c00;00000000' 3f800001
# Subnormal inputs are +0: 2^-24 * 1 is 0 (would be 33800000) ...
eval_is eval-amd-cdna2-ftz-in cdna2-mfma-f16-f32-k4 \
    '0001,0,0,0;3c00,0,0,0;00000000' 00000000
# ... and so is a subnormal C (would be 00000001).
eval_is eval-amd-cdna2-ftz-in-c cdna2-mfma-f16-f32-k4 \
    '0,0,0,0;0,0,0,0;00000001' 00000000
# bf16: the product 2^-100 * 2^-30 = 2^-130 is an f32 subnormal: 0 (would
# be 00200000).
eval_is eval-amd-cdna2-ftz-out cdna2-mfma-bf16-f32-k2 \
    '0d80,0;3080,0;00000000' 00000000
# A subnormal sum keeps its sign when flushed: C -1.5*2^-126 plus the
# product 2^-126 is -2^-127: -0 (would be 80400000).
eval_is eval-amd-cdna2-ftz-out-sign cdna2-mfma-bf16-f32-k2 \
    '0080,0;3f80,0;80c00000' 80000000

test_done
