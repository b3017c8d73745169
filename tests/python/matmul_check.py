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

# Floats of another dtype go in by value, each exactly a value of the
# operand's format; the first that is not is named.
half = np.ones((2, 16), np.float16)
half[1, 3] = 1 + 2.0 ** -10   # a float16 value, between two bf16 values
try:
    ladder.matmul(half, np.ones((16, 1), np.float16), datapath="sm90-mma-bf16-f32")
    check("matmul-inexact-refused", False, "1 + 2^-10 was taken as a bf16 value")
except ladder.LadderError as e:
    check("matmul-inexact-refused", str(e).startswith("a[1, 3] = 1.0009765625 is not a "
                                                      "value of bf16"), str(e))

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
                       ("sa-shape", {"sa": s_a[:, :3], "sb": s_b}, "not ... x 3 x 4"),
                       ("none", {}, "pass its scales as sa= (M x K/32) and sb= (K/32 x N)")):
    try:
        ladder.matmul(a4, b4, datapath=SDP, **kw)
        check(f"matmul-scaled-{name}-refused", False, "accepted")
    except ladder.LadderError as e:
        check(f"matmul-scaled-{name}-refused", want in str(e), str(e))


# ---- the NumPy API: datapath required, batches, values in, decode

for fn, args in (("matmul", (np.ones((1, 16)), np.ones((16, 1)))), ("dot", (np.ones(16),) * 2)):
    try:
        getattr(ladder, fn)(*args)
        check(f"{fn}-datapath-required", False, "ran without a datapath")
    except TypeError as e:
        check(f"{fn}-datapath-required", "datapath" in str(e), str(e))

BF = "sm90-mma-bf16-f32"
a3 = rng.standard_normal((3, 8, 32)).astype(ml_dtypes.bfloat16)
b3 = rng.standard_normal((3, 32, 8)).astype(ml_dtypes.bfloat16)
c3 = rng.standard_normal((3, 8, 8)).astype(np.float32)
d3 = ladder.matmul(a3, b3, c3, datapath=BF, threads=2)
slices = [bits(ladder.matmul(a3[i], b3[i], c3[i], datapath=BF, threads=1)) for i in range(3)]
check("matmul-batched", d3.shape == (3, 8, 8) and
      all(np.array_equal(bits(d3[i]), slices[i]) for i in range(3)), str(d3.shape))
check("matmul-batched-threads",
      np.array_equal(bits(ladder.matmul(a3, b3, c3, datapath=BF, threads=1)), bits(d3)) and
      np.array_equal(bits(ladder.matmul(a3, b3, c3, datapath=BF, threads=7)), bits(d3)),
      "the words depend on the threads")
# broadcast: one a against a (2, 3) batch of b, C one row for every row
b23 = rng.standard_normal((2, 3, 32, 8)).astype(ml_dtypes.bfloat16)
row = rng.standard_normal(8).astype(np.float32)
d23 = ladder.matmul(a3[0], b23, row, datapath=BF)
good = d23.shape == (2, 3, 8, 8) and all(
    np.array_equal(bits(d23[i, j]),
                   bits(ladder.matmul(a3[0], b23[i, j], np.tile(row, (8, 1)), datapath=BF)))
    for i in range(2) for j in range(3))
check("matmul-broadcast", good, str(d23.shape))
# a 1-D a is one row, a 1-D b one column, and that dimension is dropped
v1 = ladder.matmul(a3[0, 2], b3[0], datapath=BF)
v2 = ladder.matmul(a3[0], b3[0, :, 5], datapath=BF)
full = bits(ladder.matmul(a3[0], b3[0], datapath=BF))
check("matmul-vector-operands", v1.shape == (8,) and v2.shape == (8,) and
      np.array_equal(bits(v1), full[2]) and np.array_equal(bits(v2), full[:, 5]),
      f"{v1.shape} {v2.shape}")
for name, (x, y), want in (("k", (a3, b3[:, :16]), "K 32 of a is not K 16 of b"),
                           ("batch", (a3, b23[:, :2]), "do not broadcast")):
    try:
        ladder.matmul(x, y, datapath=BF)
        check(f"matmul-{name}-mismatch-refused", False, "accepted")
    except ladder.LadderError as e:
        check(f"matmul-{name}-mismatch-refused", want in str(e), str(e))

# float64 and float32 operands holding exact values: the words of the same
# values given as words
d64 = ladder.matmul(a3.astype(np.float64), b3.astype(np.float32), np.zeros((8, 8)),
                    datapath=BF)
d0 = ladder.matmul(a3, b3, np.zeros((3, 8, 8), np.float32), datapath=BF)
check("matmul-float64-exact", np.array_equal(bits(d64), bits(d0)), "words differ")
e8 = rng.standard_normal((4, 64)).astype(ml_dtypes.float8_e4m3fn)
f8 = rng.standard_normal((64, 4)).astype(ml_dtypes.float8_e4m3fn)
check("matmul-float64-e4m3",
      np.array_equal(bits(ladder.matmul(e8.astype(np.float64), f8.astype(np.float64),
                                        datapath=DP)),
                     bits(ladder.matmul(e8, f8, datapath=DP))), "words differ")

# decode: by hand for a user-defined format (e3m4, bias 5: 0x38 is field 3,
# fraction 8: 1.5 * 2^-2; 0x50 is field 5, fraction 0: 1), and every word of
# the built-in formats against ml_dtypes' own conversion
check("decode-custom", ladder.decode([0x38, 0x50], "e3m4:bias=5").tolist() == [0.375, 1.0],
      str(ladder.decode([0x38, 0x50], "e3m4:bias=5")))
for fmt, dt in (("e4m3", ml_dtypes.float8_e4m3fn), ("e5m2", ml_dtypes.float8_e5m2),
                ("bf16", ml_dtypes.bfloat16), ("f16", np.float16),
                ("e2m1", ml_dtypes.float4_e2m1fn), ("e3m2", ml_dtypes.float6_e3m2fn),
                ("ue8m0", ml_dtypes.float8_e8m0fnu), ("e4m3fnuz", ml_dtypes.float8_e4m3fnuz)):
    n = 1 << (8 * np.dtype(dt).itemsize if fmt not in ("e2m1", "e3m2") else
              {"e2m1": 4, "e3m2": 6}[fmt])
    w = np.arange(n, dtype=np.uint16 if n > 256 else np.uint8)
    got = ladder.decode(w, fmt)
    want = w.view(dt).astype(np.float64) if n > 64 else \
        np.array([np.uint8(x).view(dt).astype(np.float64) for x in w])
    same = (got == want) | np.isnan(got) & np.isnan(want)
    same &= (np.signbit(got) == np.signbit(want)) | np.isnan(want)
    check(f"decode-{fmt}", bool(same.all()),
          f"{np.count_nonzero(~same)} words differ, first {int(w[~same][0]):#x}" if
          not same.all() else "")
r = ladder.round([0.1, 3.0, -0.0, -1e9], "e3m4:bias=5")
check("decode-round-trip", np.array_equal(ladder.round(ladder.decode(r, "e3m4:bias=5"),
                                                       "e3m4:bias=5"), r), str(r))
check("decode-bits-of-dtype",
      ladder.decode(np.array([1.5, -2.0], ml_dtypes.bfloat16), "bf16").tolist() == [1.5, -2.0],
      "")
try:
    ladder.decode([1], "e11m52:bias=0")
    check("decode-too-wide-refused", False, "accepted")
except ladder.LadderError as e:
    check("decode-too-wide-refused", "float64 cannot hold" in str(e), str(e))

# __version__ is the release `ladder --version` prints
out = subprocess.run([LADDER, "--version"], check=True, capture_output=True,
                     text=True).stdout.split()
check("version", out[:2] == ["ladder", ladder.__version__], f"{out} {ladder.__version__}")
