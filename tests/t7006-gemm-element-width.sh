#!/bin/sh
# ladder gemm takes each operand's words only in elements of the width its
# format's words need (docs/commands/gemm.md): an fp8 array (1-byte opaque,
# as numpy saves ml_dtypes' float8) given to a bf16 datapath is refused,
# naming the operand, its format and the width it needs, instead of being
# read as bf16 words that happen to fit. Arrays are made byte by byte.
. tests/lib.sh

# npy FILE DESCR SHAPE DATA-BYTES: numpy's format 1.0, zero data.
npy() {
    _h="{'descr': '$2', 'fortran_order': False, 'shape': $3, }"
    { printf '\223NUMPY\001\000\166\000%-117s\n' "$_h"; head -c "$4" /dev/zero; } >"$1"
}
p=sm90-mma-bf16-f32
npy "$TMP/a8.npy" '|V1' '(1, 16)' 16
npy "$TMP/b8.npy" '|V1' '(16, 1)' 16
npy "$TMP/a16.npy" '<V2' '(1, 16)' 32
npy "$TMP/b16.npy" '<u2' '(16, 1)' 32
npy "$TMP/a32.npy" '<u4' '(1, 16)' 64
npy "$TMP/c16.npy" '<u2' '(1, 1)' 2
npy "$TMP/c32.npy" '<f4' '(1, 1)' 4

run_ladder gemm --datapath $p "$TMP/a8.npy" "$TMP/b8.npy" -o "$TMP/d.npy"
expect_rc width-fp8-as-bf16-rc 3
expect_err width-fp8-as-bf16-says "a8.npy: elements of 1 byte, but A is bf16, whose words need 2-byte elements \(uint16\)$"
check width-fp8-as-bf16-no-output test ! -e "$TMP/d.npy"
run_ladder gemm --datapath $p "$TMP/a16.npy" "$TMP/b8.npy" -o "$TMP/d.npy"
expect_rc width-b-rc 3
expect_err width-b-says "b8.npy: elements of 1 byte, but B is bf16"
run_ladder gemm --datapath $p "$TMP/a32.npy" "$TMP/b16.npy" -o "$TMP/d.npy"
expect_rc width-wider-rc 3
expect_err width-wider-says "a32.npy: elements of 4 bytes, but A is bf16, whose words need 2-byte elements"
run_ladder gemm --datapath $p "$TMP/a16.npy" "$TMP/b16.npy" "$TMP/c16.npy" -o "$TMP/d.npy"
expect_rc width-c-rc 3
expect_err width-c-says "c16.npy: elements of 2 bytes, but C is f32, whose words need 4-byte elements \(uint32 or float32\)$"
run_ladder gemm --datapath $p "$TMP/a16.npy" "$TMP/b16.npy" "$TMP/c32.npy" -o "$TMP/d.npy"
expect_rc width-right-rc 0
check width-right-output test "$(wc -c <"$TMP/d.npy")" = 132
# fp8 arrays for an fp8 datapath (K 32) are right
npy "$TMP/a8.npy" '|V1' '(1, 32)' 32
npy "$TMP/b8.npy" '|V1' '(32, 1)' 32
run_ladder gemm --datapath sm89-mma-e4m3-f32 "$TMP/a8.npy" "$TMP/b8.npy" -o "$TMP/d8.npy"
expect_rc width-fp8-right-rc 0
test_done
