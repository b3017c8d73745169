#!/bin/sh
# ladder gemm on block-scaled datapaths (--sa, --sb): each output element
# is the chain of the instruction along K, each MMA taking the scales of
# its row's and column's K blocks. The same chain is built here as `ladder
# eval` lines, one MMA at a time, its C the previous line's D; the GEMM's
# words must be those, as integers. Random words (raw bit patterns, NaN
# among them), a 0xff and a 0 scale, two MMAs along K, 2 rows and 3
# columns of scales, so that a mixed-up index shows; then the errors.
. tests/lib.sh

need_venv gemm-scaled-setup

# gen DIR PRESET M N: A, B, SA, SB (random words of the preset's widths)
# saved as .npy in DIR; prints K
gen() {
    "$py" - "$@" <<'PY'
import os, subprocess, sys
import numpy as np
d, preset, M, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
out = subprocess.run([os.environ["LADDER"], "model", "show", preset], capture_output=True,
                     text=True, check=True).stdout
show = dict(l.split(": ", 1) for l in out.splitlines() if ": " in l and l[0] != "#")
k, blk = int(show["k"]), int(show["scale_block"])
bits = {"e2m1": 4, "e2m3": 6, "e3m2": 6}
K = 2 * k
rng = np.random.default_rng(8)
A = rng.integers(0, 1 << bits.get(show["a"].strip('"'), 8), (M, K), dtype=np.uint8)
B = rng.integers(0, 1 << bits.get(show["b"].strip('"'), 8), (K, N), dtype=np.uint8)
# scales near 2^0 (ue8m0 127, ue4m3 0x38), one 0xff, one 0, one far
base = 0x38 if show["sa"].strip('"') == "ue4m3" else 127
SA = (base + rng.integers(-6, 7, (M, K // blk))).astype(np.uint8)
SB = (base + rng.integers(-6, 7, (K // blk, N))).astype(np.uint8)
SA[0, 0], SB[-1, -1], SA[-1, -1] = 0xff, 0, base + 40
for name, x in (("a", A), ("b", B), ("sa", SA), ("sb", SB)):
    np.save(os.path.join(d, name + ".npy"), x)
print(K)
PY
}

# chain DIR PRESET K: `ladder eval` of every element's MMAs in turn, each
# line's C the D of the one before; prints the last D words row by row
chain() {
    "$py" - "$@" <<'PY'
import os, subprocess, sys
import numpy as np
d, preset, K = sys.argv[1], sys.argv[2], int(sys.argv[3])
ladder = os.environ["LADDER"]
A, B = np.load(d + "/a.npy"), np.load(d + "/b.npy")
SA, SB = np.load(d + "/sa.npy"), np.load(d + "/sb.npy")
out = subprocess.run([ladder, "model", "show", preset], capture_output=True, text=True,
                     check=True).stdout
show = dict(l.split(": ", 1) for l in out.splitlines() if ": " in l and l[0] != "#")
k, blk = int(show["k"]), int(show["scale_block"])
da = 1 if show["a"].strip('"') == "e2m1" else 2
db = 1 if show["b"].strip('"') == "e2m1" else 2
M, N = A.shape[0], B.shape[1]
C = [[0] * N for _ in range(M)]
for k0 in range(0, K, k):
    lines = []
    for i in range(M):
        for j in range(N):
            a = ",".join("%0*x" % (da, v) for v in A[i, k0:k0 + k])
            b = ",".join("%0*x" % (db, v) for v in B[k0:k0 + k, j])
            sa = ",".join("%02x" % v for v in SA[i, k0 // blk:(k0 + k) // blk])
            sb = ",".join("%02x" % v for v in SB[k0 // blk:(k0 + k) // blk, j])
            lines.append("%s;%s;%08x;%s;%s;" % (a, b, C[i][j], sa, sb))
    res = subprocess.run([ladder, "eval", "--model", preset], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.split()
    for n, w in enumerate(res):
        C[n // N][n % N] = int(w, 16)
print(" ".join("%x" % C[i][j] for i in range(M) for j in range(N)))
PY
}

# dwords FILE: the words of a saved array, hex, space separated
dwords() {
    "$py" -c 'import sys, numpy as np; x = np.load(sys.argv[1]); print(" ".join("%x" % v for v in x.reshape(-1).view("u%d" % x.dtype.itemsize)))' "$1"
}

export LADDER
for p in sm100-tcgen05-mxf8f6f4-e4m3-f32 sm100-tcgen05-mxf4-e2m1-f32 \
         sm100-tcgen05-mxf4nvf4-ue4m3-f32 sm120-mma-mxf8f6f4-e2m3xe4m3-f32; do
    d=$TMP/$p
    mkdir -p "$d"
    K=$(gen "$d" "$p" 2 3)
    if [ -z "$K" ]; then
        fail "gemm-scaled-$p" "no arrays made"
        continue
    fi
    run_ladder gemm --datapath "$p" "$d/a.npy" "$d/b.npy" --sa "$d/sa.npy" --sb "$d/sb.npy" \
        -o "$d/d.npy" -q
    if [ "$rc" -ne 0 ]; then
        fail "gemm-scaled-$p" "exit $rc: $(_peek "$err")"
        continue
    fi
    want=$(chain "$d" "$p" "$K")
    got=$(dwords "$d/d.npy")
    if [ -n "$want" ] && [ "$want" = "$got" ]; then
        ok "gemm-scaled-$p"
    else
        fail "gemm-scaled-$p" "gemm gave '$got', the chained eval lines '$want'"
    fi
done

# errors: scales missing, one of the two, a wrong shape, an unscaled datapath
p=sm100-tcgen05-mxf8f6f4-e4m3-f32
d=$TMP/$p
run_ladder gemm --datapath "$p" "$d/a.npy" "$d/b.npy" -o "$d/x.npy"
expect_rc gemm-scaled-needs-scales-rc 3
expect_err gemm-scaled-needs-scales "block-scaled: give its scales with --sa"
expect_usage_error gemm-scaled-sa-alone gemm --datapath "$p" "$d/a.npy" "$d/b.npy" \
    --sa "$d/sa.npy" -o "$d/x.npy"
run_ladder gemm --datapath "$p" "$d/a.npy" "$d/b.npy" --sa "$d/sb.npy" --sb "$d/sb.npy" \
    -o "$d/x.npy"
expect_rc gemm-scaled-sa-shape-rc 3
expect_err gemm-scaled-sa-shape "sb.npy is 2 x 3, not 2 x 2 \(M x K/32\)"
run_ladder gemm --datapath sm100-tcgen05-e4m3-f32 "$d/a.npy" "$d/b.npy" --sa "$d/sa.npy" \
    --sb "$d/sb.npy" -o "$d/x.npy"
expect_rc gemm-scaled-unscaled-rc 3
expect_err gemm-scaled-unscaled "has no block scales"
check gemm-scaled-no-output-left test ! -e "$d/x.npy"

test_done
