#!/bin/sh
# ladder eval --device: the words come from the device, not the model. The
# same f16 operand words read as bf16 by a bf16 device give the bf16 sums
# (worked out by hand): 0x3c00 is 1.0 in f16 but 2^-7 in bf16, so
#   f16:  1*1 + 0 = 1.0 (3f800000); 2*3 + 1 = 7.0 (40e00000)
#   bf16: 2^-7 * 2^-7 = 2^-14 (38800000); 0x4000 * 0x4200 = 2 * 32, + 1 = 65 (42820000)
. tests/lib.sh
z=$(printf ',0000%.0s' $(seq 15))
printf '3c00%s;3c00%s;00000000\n4000%s;4200%s;3f800000\n' "$z" "$z" "$z" "$z" >"$TMP/c.vec"

run_ladder eval --model sm90-mma-f16-f32 "$TMP/c.vec"
expect_out_eq eval-device-none "$(printf '3f800000\n40e00000')"
run_ladder eval --model sm90-mma-f16-f32 --device sim:sm90-mma-f16-f32 "$TMP/c.vec"
expect_out_eq eval-device-sim-same "$(printf '3f800000\n40e00000')"
run_ladder eval --model sm90-mma-f16-f32 --device sim:sm90-mma-bf16-f32 "$TMP/c.vec"
expect_out_eq eval-device-sim-other "$(printf '38800000\n42820000')"
# an exec device answers through its own process
run_ladder eval --model sm90-mma-f16-f32 --device "exec:$LADDER eval --model sm90-mma-bf16-f32" "$TMP/c.vec"
expect_out_eq eval-device-exec "$(printf '38800000\n42820000')"
# no GPU here: the cuda device cannot open, exit 4, one line
if ! command -v nvidia-smi >/dev/null 2>&1; then
    run_ladder eval --model sm90-mma-f16-f32 --device cuda:0 "$TMP/c.vec"
    expect_rc eval-device-cuda-rc 4
    expect_err_line eval-device-cuda-one-line
fi
expect_usage_error eval-device-bad-spec eval --model sm90-mma-f16-f32 --device nosuch:0 "$TMP/c.vec"
test_done
