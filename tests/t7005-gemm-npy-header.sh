#!/bin/sh
# The .npy reader of ladder gemm trusts nothing in the header: sizes that
# overflow, a shape the file does not hold (refused before anything is
# allocated from it), and keys hidden in another key's string are refused
# with the file's name; the dict is read as numpy writes it, keys in any
# order. Arrays are made here byte by byte (numpy's format 1.0).
. tests/lib.sh

p=sm90-mma-bf16-f32
# npy FILE HEADER DATA-BYTES: a file with that header dict, padded to 128
# bytes, then DATA-BYTES zero bytes.
npy() {
    { printf '\223NUMPY\001\000\166\000%-117s\n' "$2"; head -c "$3" /dev/zero; } >"$1"
}
dict() { # DESCR SHAPE
    echo "{'descr': '$1', 'fortran_order': False, 'shape': $2, }"
}
npy "$TMP/b.npy" "$(dict '<u2' '(16, 1)')" 32

# gemm_a NAME RC REGEX HEADER BYTES: A with that header, against B.
gemm_a() {
    npy "$TMP/a.npy" "$4" "$5"
    run_ladder gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d.npy"
    expect_rc npy-$1-rc "$2"
    if [ -n "$3" ]; then
        expect_err npy-$1-says "$3"
    else
        expect_no_err npy-$1-silent
    fi
}
gemm_a good 0 '' "$(dict '<u2' '(1, 16)')" 32
gemm_a key-order 0 '' "{'shape': (1, 16), 'fortran_order': False, 'descr': '<u2', }" 32
gemm_a wraps 3 "a.npy: shape \(2147483648, 2147483648\) is too large" \
    "$(dict '<u8' '(2147483648, 2147483648)')" 64
gemm_a big-dim 3 "a.npy: header: a dimension larger than 2\^31" \
    "$(dict '<u2' '(4294967297, 1)')" 64
gemm_a short 3 "a.npy: data shorter than its shape: 32 bytes for 16 x 16 elements of 2" \
    "$(dict '<u2' '(16, 16)')" 32
gemm_a long 3 "a.npy: 2 bytes after the data of its shape" "$(dict '<u2' '(1, 16)')" 34
gemm_a inner-shape 3 "a.npy: header: unknown key 'note'" \
    "{'descr': '<u2', 'note': \"'shape': (1, 16)\", 'fortran_order': False, 'shape': (9, 9), }" 32
gemm_a twice 3 "a.npy: header: key 'shape' twice" \
    "{'descr': '<u2', 'fortran_order': False, 'shape': (1, 16), 'shape': (1, 16), }" 32
gemm_a no-shape 3 "a.npy: the header lacks descr, fortran_order or shape" \
    "{'descr': '<u2', 'fortran_order': False, }" 32
gemm_a not-dict 3 "a.npy: header: not a dict" "'descr': '<u2'" 32
gemm_a trailing 3 "a.npy: header: text after the dict" "$(dict '<u2' '(1, 16)') x" 32
gemm_a fortran 3 "a.npy: Fortran order is not read" \
    "{'descr': '<u2', 'fortran_order': True, 'shape': (1, 16), }" 32

# A 192-byte file whose header asks for 8 GiB: refused from the file's size,
# before any allocation (the address space is capped well below it).
npy "$TMP/a.npy" "$(dict '<u8' '(1073741824, 1)')" 64
# (Sanitizer builds, LADDER_TEST_QUICK, reserve terabytes of address space
# for their shadow memory: there the cap is left off and the message alone
# is checked.)
cap=400000
[ -n "${LADDER_TEST_QUICK:-}" ] && cap=unlimited
(ulimit -v $cap; exec "$LADDER" gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d.npy") \
    >"$out" 2>"$err"
rc=$?
expect_rc npy-asks-gigabytes-rc 3
expect_err npy-asks-gigabytes-says "a.npy: data shorter than its shape: 64 bytes for 1073741824 x 1 elements of 8"

# K = 0 (A 100000 x 0, B 0 x 100000: two 128-byte files) is refused before
# D's M x N words (80 GB) are allocated, with the address space capped.
npy "$TMP/a.npy" "$(dict '<u2' '(100000, 0)')" 0
npy "$TMP/b0.npy" "$(dict '<u2' '(0, 100000)')" 0
(ulimit -v $cap; exec "$LADDER" gemm --datapath $p "$TMP/a.npy" "$TMP/b0.npy" -o "$TMP/d.npy") \
    >"$out" 2>"$err"
rc=$?
expect_rc npy-k-zero-rc 3
expect_err npy-k-zero-says "a.npy is 100000 x 0: K must be at least 1"
test_done
