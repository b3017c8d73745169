#!/bin/sh
# ladder gemm: .npy in and out, the program's steps (chaining, promotion,
# split-K in both reduction orders, scales, output rounding) on cases whose
# words are worked out by hand, and its errors.
#
# Datapath sm90-mma-bf16-f32: K 16 per MMA, products truncated (RZ) into
# f32. Near 2^24 an f32 step is 2: 2^24 + 3 truncates to 2^24 + 2
# (0x4b800001) but rounds to nearest even to 2^24 + 4 (0x4b800002), and
# 2^24 + 1 rounds to 2^24 (0x4b800000).
. tests/lib.sh

need_venv gemm-setup
DP=sm90-mma-bf16-f32

# mk FILE DTYPE SHAPE 'i:v i:v ...': a zero array with flat element i set
# to the word v (hex), saved with numpy.
mk() {
    "$py" - "$@" <<'PY'
import sys, numpy as np
path, dtype, shape, sets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
x = np.zeros(tuple(int(n) for n in shape.split("x")), np.dtype(dtype).newbyteorder("<"))
flat = x.reshape(-1).view(np.dtype("u%d" % x.dtype.itemsize).newbyteorder("<"))
for s in " ".join(sets).split():
    i, v = s.split(":")
    flat[int(i)] = int(v, 16)
np.save(path, x)
PY
}

# words FILE: the words of a saved array, hex, space separated, and its dtype.
words() {
    "$py" - "$1" <<'PY'
import sys, numpy as np
x = np.load(sys.argv[1])
w = x.reshape(-1).view("u%d" % x.dtype.itemsize)
print(x.dtype.name, " ".join("%x" % v for v in w))
PY
}

# gemm NAME EXPECTED ARGS...: runs ladder gemm ARGS -o $TMP/d.npy, then
# checks exit 0 and D's words.
gemm() {
    _n=$1 _want=$2
    shift 2
    run_ladder gemm --datapath "$DP" "$@" -o "$TMP/d.npy"
    if [ "$rc" -ne 0 ]; then
        fail "$_n" "exit $rc: $(_peek "$err")"
        return
    fi
    _got=$(words "$TMP/d.npy")
    if [ "$_got" = "$_want" ]; then ok "$_n"; else fail "$_n" "D is '$_got', expected '$_want'"; fi
}

# A: 1 x K (bf16 words), B: K x 1 of ones (0x3f80).
ones() {
    _k=$1
    _s=""
    _i=0
    while [ "$_i" -lt "$_k" ]; do _s="$_s $_i:3f80"; _i=$((_i + 1)); done
    mk "$TMP/b$_k.npy" uint16 "${_k}x1" "$_s"
}
ones 32
ones 64
# 2^24 (0x4b80) in the first MMA, 1.5 * 2 = 3 in the second (B is one: put 3 in A)
mk "$TMP/a32.npy" uint16 1x32 "0:4b80 16:4040"

gemm gemm-chain-truncates 'float32 4b800001' "$TMP/a32.npy" "$TMP/b32.npy"
gemm gemm-program-mainloop 'float32 4b800001' "$TMP/a32.npy" "$TMP/b32.npy" --program mainloop
gemm gemm-split2-rounds-nearest 'float32 4b800002' "$TMP/a32.npy" "$TMP/b32.npy" --program splitk2-serial

printf 'program:\n  promote: 1\n' >"$TMP/p1.yaml"
gemm gemm-promote1-rounds-nearest 'float32 4b800002' "$TMP/a32.npy" "$TMP/b32.npy" --program "$TMP/p1.yaml"
# promotion every 2 MMAs: both MMAs chain first (truncating), then one FADD of 0
printf 'program:\n  promote: 2\n' >"$TMP/p2.yaml"
gemm gemm-promote2-chains-inside 'float32 4b800001' "$TMP/a32.npy" "$TMP/b32.npy" --program "$TMP/p2.yaml"

# four slices 2^24, 1, 1, 1: serial ((2^24 + 1) + 1) + 1 stays 2^24 (every
# tie goes to even), the tree's 2^24 + (1 + 1) + ... gives 2^24 + 2
mk "$TMP/a64.npy" uint16 1x64 "0:4b80 16:3f80 32:3f80 48:3f80"
printf 'program:\n  split: 4\n  reduce: serial\n' >"$TMP/s4.yaml"
gemm gemm-split4-serial 'float32 4b800000' "$TMP/a64.npy" "$TMP/b64.npy" --program "$TMP/s4.yaml"
printf 'program:\n  split: 4\n  reduce: tree\n' >"$TMP/t4.yaml"
gemm gemm-split4-tree 'float32 4b800001' "$TMP/a64.npy" "$TMP/b64.npy" --program "$TMP/t4.yaml"

# C enters the first MMA: 2^24 + C 3.0 (f32 0x40400000) in the chain truncates
mk "$TMP/ac.npy" uint16 1x32 "0:4b80"
mk "$TMP/c.npy" float32 1x1 "0:40400000"
gemm gemm-c-chained 'float32 4b800001' "$TMP/ac.npy" "$TMP/b32.npy" "$TMP/c.npy"
mk "$TMP/c2.npy" float32 1x2 "0:40400000"
err_c="c2.npy is 1 x 2, not 1 x 1"

# epilogue: 3 * (0.5 * 3) = 4.5 (0x40900000)
mk "$TMP/a3.npy" uint16 1x32 "0:4040"
printf 'program:\n  scale_a: 0x3f000000\n  scale_b: 0x40400000\n' >"$TMP/sc.yaml"
gemm gemm-scales 'float32 40900000' "$TMP/a3.npy" "$TMP/b32.npy" --program "$TMP/sc.yaml"
# output rounding: 1 + 2^-8 into bf16 is a tie: rne gives 1.0, ru 1 + 2^-7;
# f16 holds it exactly (0x3c04) and is written as float16
mk "$TMP/at.npy" uint16 1x32 "0:3f80 1:3b80"
printf 'program:\n  out: bf16\n' >"$TMP/o1.yaml"
gemm gemm-out-bf16-rne 'uint16 3f80' "$TMP/at.npy" "$TMP/b32.npy" --program "$TMP/o1.yaml"
printf 'program:\n  out: bf16\n  out_round: ru\n' >"$TMP/o2.yaml"
gemm gemm-out-bf16-ru 'uint16 3f81' "$TMP/at.npy" "$TMP/b32.npy" --program "$TMP/o2.yaml"
printf 'program:\n  out: f16\n' >"$TMP/o3.yaml"
gemm gemm-out-f16-exact 'float16 3c04' "$TMP/at.npy" "$TMP/b32.npy" --program "$TMP/o3.yaml"

# the same product, one thread and many
mk "$TMP/am.npy" uint16 7x32 "0:4b80 16:4040 40:3f80 100:4040 223:3f80"
run_ladder gemm --datapath "$DP" "$TMP/am.npy" "$TMP/b32.npy" -o "$TMP/d1.npy" --threads 1
run_ladder gemm --datapath "$DP" "$TMP/am.npy" "$TMP/b32.npy" -o "$TMP/d7.npy" --threads 7
expect_rc gemm-threads-rc 0
if [ "$(words "$TMP/d1.npy")" = 'float32 4b800001 3f800000 0 40400000 0 0 3f800000' ] &&
   [ "$(words "$TMP/d7.npy")" = "$(words "$TMP/d1.npy")" ]; then
    ok gemm-threads-same
else
    fail gemm-threads-same "$(words "$TMP/d1.npy") / $(words "$TMP/d7.npy")"
fi

# ml_dtypes' bfloat16 arrays as numpy saves them ('<V2'): their bits
"$py" -c "import numpy as np, ml_dtypes; np.save('$TMP/av.npy', np.array([[2.0 ** 24] + [0] * 15 + [3.0] + [0] * 15], ml_dtypes.bfloat16))"
gemm gemm-ml-dtypes-bf16 'float32 4b800001' "$TMP/av.npy" "$TMP/b32.npy"

# ---- errors
expect_usage_error gemm-no-datapath gemm "$TMP/a32.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
expect_usage_error gemm-no-output gemm --datapath "$DP" "$TMP/a32.npy" "$TMP/b32.npy"
expect_usage_error gemm-one-input gemm --datapath "$DP" "$TMP/a32.npy" -o "$TMP/d.npy"
expect_usage_error gemm-bad-threads gemm --datapath "$DP" "$TMP/a32.npy" "$TMP/b32.npy" -o "$TMP/d.npy" --threads x

# err_case NAME REGEX ARGS...: exit 3, one line on stderr matching REGEX
err_case() {
    _n=$1 _re=$2
    shift 2
    run_ladder gemm "$@"
    if [ "$rc" -eq 3 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -Eq -- "$_re" "$err"; then
        ok "$_n"
    else
        fail "$_n" "exit $rc, stderr: $(_peek "$err")"
    fi
}
mk "$TMP/a16.npy" uint16 1x16 "0:3f80"
err_case gemm-err-shape "a16.npy is 1 x 16 but .*b32.npy is 32 x 1: B needs 16 rows" --datapath "$DP" "$TMP/a16.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
err_case gemm-err-c-shape "$err_c" --datapath "$DP" "$TMP/ac.npy" "$TMP/b32.npy" "$TMP/c2.npy" -o "$TMP/d.npy"
mk "$TMP/a17.npy" uint16 1x17 "0:3f80"
mk "$TMP/b17.npy" uint16 17x1 "0:3f80"
err_case gemm-err-k-multiple "K 17 is not a multiple of 16" --datapath "$DP" "$TMP/a17.npy" "$TMP/b17.npy" -o "$TMP/d.npy"
mk "$TMP/af.npy" float16 1x32 "0:3c00"
err_case gemm-err-dtype "a float16 array does not hold bf16 words" --datapath "$DP" "$TMP/af.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
mk "$TMP/aw.npy" uint8 1x64 "3:10"
err_case gemm-err-wide-word "element \[0\]\[3\] = 0x10 is wider than e2m1" --datapath sm100-tcgen05-e2m1-f32 "$TMP/aw.npy" "$TMP/aw.npy" -o "$TMP/d.npy"
printf 'not numpy' >"$TMP/junk.npy"
err_case gemm-err-not-npy "junk.npy: not an .npy file" --datapath "$DP" "$TMP/junk.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
"$py" -c "import numpy as np; np.save('$TMP/fo.npy', np.asfortranarray(np.zeros((2, 32), np.uint16)))"
err_case gemm-err-fortran "fo.npy: Fortran order" --datapath "$DP" "$TMP/fo.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
"$py" -c "import numpy as np; np.save('$TMP/be.npy', np.zeros((1, 32), '>u2'))"
err_case gemm-err-big-endian "be.npy: dtype '>u2'" --datapath "$DP" "$TMP/be.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
"$py" -c "import numpy as np; np.save('$TMP/a3d.npy', np.zeros((1, 1, 32), np.uint16))"
err_case gemm-err-3d "a3d.npy: more than two dimensions" --datapath "$DP" "$TMP/a3d.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
err_case gemm-err-missing "cannot open '.*nothere.npy'" --datapath "$DP" "$TMP/nothere.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
# a name on the command line that names nothing is a usage error
expect_usage_error gemm-err-program gemm --datapath "$DP" --program nope "$TMP/a32.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
expect_err gemm-err-program-msg "unknown program preset or file 'nope'"
printf 'program:\n  promote: 1\n  splitt: 2\n' >"$TMP/bad1.yaml"
err_case gemm-err-program-key "bad1.yaml:3:3: unknown key 'splitt'" --datapath "$DP" --program "$TMP/bad1.yaml" "$TMP/a32.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
printf 'program:\n  reduce: sideways\n' >"$TMP/bad2.yaml"
err_case gemm-err-program-value "bad2.yaml:2:11: 'reduce' must be serial or tree, not 'sideways'" --datapath "$DP" --program "$TMP/bad2.yaml" "$TMP/a32.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
printf 'program:\n  scale_a: 2.0\n' >"$TMP/bad3.yaml"
err_case gemm-err-program-scale "bad3.yaml:2:12: 'scale_a' must be an f32 word" --datapath "$DP" --program "$TMP/bad3.yaml" "$TMP/a32.npy" "$TMP/b32.npy" -o "$TMP/d.npy"
mk "$TMP/a8.npy" uint8 1x32 "0:38"
mk "$TMP/b8.npy" uint8 32x1 "0:38"
err_case gemm-err-scaled "is block-scaled" --datapath sm100-tcgen05-mxf8f6f4-e4m3-f32 "$TMP/a8.npy" "$TMP/b8.npy" -o "$TMP/d.npy"
test_done
