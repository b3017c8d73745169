"""Checks of ladder.matmul against `ladder gemm` and chains of `ladder eval`.

Run by tests/t7020-python-matmul.sh as: python matmul_check.py LADDER TMPDIR
(with PYTHONPATH holding python/ and LADDER_LIB the library). Prints one
check line per check ("ok   name" or "FAIL name: detail") and a table of
the fp8 error growth, whose lines start with '#'.

The references are independent of lad_gemm: `ladder eval` evaluates one
instruction per line (the chain through C is done here), and the fp8 error
is measured against the exact dot product computed with Python integers.
"""

import subprocess
import sys
from fractions import Fraction

import ml_dtypes
import numpy as np

import ladder

LADDER, TMP = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(20261201)


def check(name, good, detail=""):
    print(f"ok   {name}" if good else f"FAIL {name}: {detail}", flush=True)


def k_of(datapath):
    text = subprocess.run([LADDER, "model", "show", datapath], check=True,
                          capture_output=True, text=True).stdout
    return int(next(l.split()[1] for l in text.splitlines() if l.startswith("k:")))


def raw(x):
    """An array's elements as unsigned words of their own size."""
    x = np.asarray(x)
    return x.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[x.dtype.itemsize])


def bits(x):
    return raw(x).astype(np.uint32)


def eval_chain(datapath, k, a, b, c, digits):
    """D by one `ladder eval` per K step over every element: the D words of
    one step are the C words of the next."""
    A, B, C = bits(a), bits(b), bits(c)
    M, K = A.shape
    N = B.shape[1]
    da, dc = digits
    for t in range(K // k):
        lines = []
        for i in range(M):
            for j in range(N):
                aw = ",".join("%0*x" % (da, w) for w in A[i, t * k:(t + 1) * k])
                bw = ",".join("%0*x" % (da, w) for w in B[t * k:(t + 1) * k, j])
                lines.append(f"{aw};{bw};{C[i, j]:0{dc}x}")
        out = subprocess.run([LADDER, "eval", "--model", datapath], check=True,
                             input="\n".join(lines) + "\n", capture_output=True,
                             text=True).stdout.split()
        C = np.array([int(w, 16) for w in out], np.uint32).reshape(M, N)
    return C


def gemm_cli(datapath, a, b, c, program=None):
    paths = [f"{TMP}/{n}.npy" for n in "abcd"]
    for p, x in zip(paths, (a, b, c)):
        np.save(p, raw(x))
    cmd = [LADDER, "gemm", "--datapath", datapath, *paths[:3], "-o", paths[3], "--threads", "2"]
    if program:
        cmd += ["--program", program]
    subprocess.run(cmd, check=True)
    return bits(np.load(paths[3]))


# Families: (preset, A/B dtype, C dtype, hex digits of A/B and of C words).
FAMILIES = [
    ("sm90-mma-bf16-f32", ml_dtypes.bfloat16, np.float32, (4, 8)),
    ("sm90-mma-f16-f16", np.float16, np.float16, (4, 4)),
    ("sm90-mma-tf32-f32", np.float32, np.float32, (8, 8)),
    ("sm90-wgmma-e4m3-f32", ml_dtypes.float8_e4m3fn, np.float32, (2, 8)),
    ("sm100-tcgen05-bf16-f32", ml_dtypes.bfloat16, np.float32, (4, 8)),
]

for dp, ab, ct, digits in FAMILIES:
    k = k_of(dp)
    M, N, K = 3, 4, 4 * k
    a = (rng.standard_normal((M, K)) * 2).astype(ab)
    b = (rng.standard_normal((K, N)) * 2).astype(ab)
    c = (rng.standard_normal((M, N)) * 4).astype(ct)
    d = ladder.matmul(a, b, c, datapath=dp, threads=2)
    ref = eval_chain(dp, k, a, b, c, digits)
    cli = gemm_cli(dp, a, b, c)
    check(f"matmul-{dp}-eval-chain", np.array_equal(bits(d), ref),
          f"{np.count_nonzero(bits(d) != ref)} of {M * N} words differ")
    check(f"matmul-{dp}-gemm-cli", np.array_equal(bits(d), cli),
          f"{np.count_nonzero(bits(d) != cli)} of {M * N} words differ")
    w = ladder.matmul(bits(a), bits(b), bits(c), datapath=dp, threads=1)
    check(f"matmul-{dp}-raw-words", np.array_equal(bits(w), bits(d)), "raw words differ")
    one = ladder.dot(a[1], b[:, 2], c[1, 2], datapath=dp)
    check(f"dot-{dp}", int(bits(one)) == int(ref[1, 2]),
          f"{int(bits(one)):x} != {int(ref[1, 2]):x}")

try:
    ladder.matmul(np.ones((1, 16), np.float16), np.ones((16, 1), np.float16),
                  datapath="sm90-mma-bf16-f32")
    check("matmul-dtype-refused", False, "a float16 array was taken as bf16 words")
except ladder.LadderError as e:
    check("matmul-dtype-refused", "bf16" in str(e), str(e))

try:
    ladder.matmul(np.full((1, 16), 1 << 32, np.uint64), np.ones((16, 1), np.uint16),
                  datapath="sm90-mma-bf16-f32")
    check("matmul-wide-words-refused", False, "a 33-bit word was taken")
except ladder.LadderError as e:
    check("matmul-wide-words-refused", "wider than bf16" in str(e), str(e))


# ---- fp8: promotion into f32 every 4 MMAs against plain chaining

def e4m3_units(w):
    """An e4m3 word as an integer count of 2^-9 (its smallest subnormal)."""
    s, e, m = w >> 7, (w >> 3) & 15, w & 7
    u = m if e == 0 else (8 + m) << (e - 1)
    return -u if s else u


def f32_value(w):
    s, e, m = w >> 31, (w >> 23) & 255, w & 0x7fffff
    v = Fraction(m, 1 << 23) * Fraction(2) ** -126 if e == 0 else \
        Fraction((1 << 23) + m, 1 << 23) * Fraction(2) ** (e - 127)
    return -v if s else v


DP = "sm90-wgmma-e4m3-f32"
a8 = rng.uniform(0.5, 2.0, (4, 8192)).astype(ml_dtypes.float8_e4m3fn)
b8 = rng.uniform(0.5, 2.0, (8192, 4)).astype(ml_dtypes.float8_e4m3fn)
ua = np.vectorize(e4m3_units)(bits(a8)).astype(object)
ub = np.vectorize(e4m3_units)(bits(b8)).astype(object)
table = []
for K in (128, 512, 2048, 8192):
    exact = ua[:, :K].dot(ub[:K, :])          # Python integers: exact
    row = [K]
    for prog in (None, "fp8-promote4"):
        d = bits(ladder.matmul(a8[:, :K], b8[:K, :], datapath=DP, program=prog))
        err = sum(abs(f32_value(int(d[i, j])) - Fraction(exact[i, j], 1 << 18))
                  / Fraction(exact[i, j], 1 << 18) for i in range(4) for j in range(4)) / 16
        row.append(err)
    table.append(row)
print("#     K   mean relative error: chained    promoted every 4")
for K, chain, promo in table:
    print(f"# {K:5d}   {float(chain):28.3e} {float(promo):16.3e}")
check("matmul-fp8-promote-differs",
      not np.array_equal(bits(ladder.matmul(a8, b8, datapath=DP)),
                         bits(ladder.matmul(a8, b8, datapath=DP, program="fp8-promote4"))),
      "promotion changed no word at K 8192")
check("matmul-fp8-promote-lower-error", table[-1][2] < table[-1][1],
      f"promoted {float(table[-1][2]):.3e} >= chained {float(table[-1][1]):.3e}")
check("matmul-fp8-chain-error-grows", table[-1][1] > table[0][1],
      f"chained error at K 8192 {float(table[-1][1]):.3e} <= at K 128")
cli = gemm_cli(DP, a8[:, :512], b8[:512, :], np.zeros((4, 4), np.float32), "fp8-promote4")
check("matmul-fp8-promote-gemm-cli",
      np.array_equal(cli, bits(ladder.matmul(a8[:, :512], b8[:512, :], datapath=DP,
                                             program="fp8-promote4"))),
      "ladder gemm --program fp8-promote4 differs from ladder.matmul")

# a program as a dict: the same words as the preset, and as a program file
# with the same keys through ladder gemm
a5, b5 = a8[:, :256], b8[:256, :]
check("matmul-program-dict",
      np.array_equal(bits(ladder.matmul(a5, b5, datapath=DP, program={"promote": 4})),
                     bits(ladder.matmul(a5, b5, datapath=DP, program="fp8-promote4"))),
      "program={'promote': 4} differs from fp8-promote4")
d5 = ladder.matmul(a5, b5, datapath=DP, program={"promote": 4, "scale_a": 0.5, "out": "bf16"})
with open(f"{TMP}/p.yaml", "w") as f:
    f.write("program:\n  promote: 4\n  scale_a: 0x3f000000\n  out: bf16\n")
cli = gemm_cli(DP, a5, b5, np.zeros((4, 4), np.float32), f"{TMP}/p.yaml")
check("matmul-program-dict-bf16-dtype", d5.dtype == ml_dtypes.bfloat16, str(d5.dtype))
check("matmul-program-dict-gemm-file", np.array_equal(bits(d5), cli),
      "ladder.matmul with a dict differs from ladder gemm with the program file")

# ---- block-scaled: sa and sb as `ladder gemm --sa --sb` takes them

SDP = "sm100-tcgen05-mxf4-e2m1-f32"  # K 64 an MMA, scale blocks of 32
a4 = rng.integers(0, 16, (3, 128), dtype=np.uint8)
b4 = rng.integers(0, 16, (128, 5), dtype=np.uint8)
s_a = rng.integers(120, 134, (3, 4), dtype=np.uint8)
s_b = rng.integers(120, 134, (4, 5), dtype=np.uint8)
d4 = ladder.matmul(a4, b4, datapath=SDP, sa=s_a, sb=s_b, threads=2)
paths = [f"{TMP}/s{n}.npy" for n in ("a", "b", "sa", "sb", "d")]
for p, x in zip(paths, (a4, b4, s_a, s_b)):
    np.save(p, x)
subprocess.run([LADDER, "gemm", "--datapath", SDP, paths[0], paths[1], "--sa", paths[2],
                "--sb", paths[3], "-o", paths[4], "-q"], check=True)
cli = bits(np.load(paths[4]))
check("matmul-scaled-gemm-cli", np.array_equal(bits(d4), cli),
      f"{np.count_nonzero(bits(d4) != cli)} of 15 words differ from ladder gemm --sa --sb")
# the scales matter: another scale of one block changes that row's words only
s_a2 = s_a.copy()
s_a2[1, 2] += 3
d4b = bits(ladder.matmul(a4, b4, datapath=SDP, sa=s_a2, sb=s_b))
check("matmul-scaled-row-scale",
      np.array_equal(d4b[[0, 2]], bits(d4)[[0, 2]]) and not np.array_equal(d4b[1], bits(d4)[1]),
      "changing row 1's third scale did not change row 1 alone")
for name, kw, want in (("sa-alone", {"sa": s_a}, "go together"),
                       ("sa-shape", {"sa": s_a[:, :3], "sb": s_b}, "not (3, 4)"),
                       ("none", {}, "with their scales")):
    try:
        ladder.matmul(a4, b4, datapath=SDP, **kw)
        check(f"matmul-scaled-{name}-refused", False, "accepted")
    except ladder.LadderError as e:
        check(f"matmul-scaled-{name}-refused", want in str(e), str(e))
