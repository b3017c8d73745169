"""Checks of the installed ladder package, run outside the source tree.

Run by tests/t7030-python-package.sh as: python package_check.py LADDER TMPDIR
with the package importable (installed by pip, or built by its setup.py)
and the current folder outside the source tree. Prints one check line per
check ("ok   name" or "FAIL name: detail").

The references are independent of the package's code: `ladder gemm` (the
CLI) for model files, ml_dtypes' own casts for the built-in formats, and
words worked out by hand for a user-defined format.
"""

import json
import os
import subprocess
import sys

import ml_dtypes
import numpy as np

import ladder

LADDER, TMP = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(20261201)


def check(name, good, detail=""):
    print(f"ok   {name}" if good else f"FAIL {name}: {detail}", flush=True)


def sh(*args):
    return subprocess.run([LADDER, *args], check=True, capture_output=True, text=True).stdout


# Found outside the source tree, with the library pip built beside it.
here = os.path.dirname(os.path.abspath(ladder.__file__))
check("pkg-outside-tree", not os.path.exists(os.path.join(here, "..", "..", "model")), here)
check("pkg-bundled-lib", any(f.startswith("_libladder") for f in os.listdir(here)),
      str(os.listdir(here)))

# presets(): every compiled-in preset, in `ladder presets` order, one line each.
want = [p["name"] for p in json.loads(sh("presets", "--json"))]
got = ladder.presets()
check("pkg-presets-names", list(got) == want, f"{len(got)} vs {len(want)}")
line = got.get("sm90-mma-bf16-f32", "")
check("pkg-presets-summary",
      line.startswith("mma.sync m16n8k16 bf16 x bf16 + f32 -> f32, K 16 ("), line)

# A model file that is no preset: sm90 bf16 with a 24-bit window, C last.
text = sh("model", "show", "sm90-mma-bf16-f32")
text = text.replace("\nwindow: 25\n", "\nwindow: 24\n").replace("\nc_last: false\n",
                                                                 "\nc_last: true\n")
text = text.replace("\nname: sm90-mma-bf16-f32\n", "\nname: my-bf16\n")
model = os.path.join(TMP, "my-bf16.yaml")
with open(model, "w") as f:
    f.write(text)
M, K, N = 8, 64, 5
a = rng.standard_normal((M, K)).astype(ml_dtypes.bfloat16)
b = rng.standard_normal((K, N)).astype(ml_dtypes.bfloat16)
np.save(os.path.join(TMP, "A.npy"), a.view(np.uint16))
np.save(os.path.join(TMP, "B.npy"), b.view(np.uint16))
sh("gemm", "--datapath", model, os.path.join(TMP, "A.npy"), os.path.join(TMP, "B.npy"),
   "-o", os.path.join(TMP, "D.npy"))
ref = np.load(os.path.join(TMP, "D.npy")).view(np.uint32)
d = ladder.matmul(a, b, datapath=model)
check("pkg-model-file", np.array_equal(d.view(np.uint32), ref),
      f"{np.count_nonzero(d.view(np.uint32) != ref)} words differ from ladder gemm")
pre = ladder.matmul(a, b, datapath="sm90-mma-bf16-f32").view(np.uint32)
check("pkg-model-file-not-preset", not np.array_equal(pre, ref), "the change shows nowhere")

# The same model as a dict of the file's keys (the scalars as text).
keys = {}
for ln in text.splitlines():
    if ln and not ln.startswith("#") and ": " in ln:
        k, v = ln.split(": ", 1)
        keys[k] = "" if v == '""' else v
keys["c_last"] = True       # Python values too
keys["window"] = 24
d2 = ladder.matmul(a, b, datapath=keys)
check("pkg-model-dict", np.array_equal(d2.view(np.uint32), ref), "dict differs from the file")
try:
    ladder.matmul(a, b, datapath=dict(keys, window=99))
    check("pkg-model-dict-bad", False, "window 99 accepted")
except ladder.LadderError as e:
    check("pkg-model-dict-bad", "window" in str(e), str(e))
try:
    ladder.matmul(a, b, datapath="sm90-mma-bf16-f33")
    check("pkg-unknown-preset", False, "accepted")
except ladder.LadderError as e:
    check("pkg-unknown-preset", str(e) == "unknown preset or model file 'sm90-mma-bf16-f33'; "
          "did you mean 'sm90-mma-bf16-f32'?", str(e))

# dot: a scalar, the matmul's word.
x = ladder.dot(a[0], b[:, 0], datapath=model)
check("pkg-dot-scalar", isinstance(x, np.generic) and np.ndim(x) == 0 and
      x.dtype == np.float32, f"{type(x)}")
check("pkg-dot-word", np.float32(x).view(np.uint32) == ref[0, 0], f"{x}")

# round: built-in formats against ml_dtypes' casts (round to nearest even),
# specials and subnormals included.
v = np.concatenate([rng.standard_normal(2000) * 2.0 ** rng.integers(-140, 140, 2000),
                    [0.0, -0.0, np.inf, -np.inf, 1e-45, 3.0e38, 448.0, 464.0, 65504.0]])
for fmt, dt in (("bf16", ml_dtypes.bfloat16), ("f16", np.float16)):
    r = ladder.round(v, fmt)
    bits = 8 * np.dtype(dt).itemsize
    u = {16: np.uint16}[bits]
    check(f"pkg-round-{fmt}", r.dtype == np.dtype(dt) and
          np.array_equal(r.view(u), v.astype(dt).view(u)),
          f"{np.count_nonzero(r.view(u) != v.astype(dt).view(u))} differ")
small = v[np.abs(v) < 400]  # e4m3 (fn) has no Inf: keep to its range
r = ladder.round(small, "e4m3")
check("pkg-round-e4m3", np.array_equal(r.view(np.uint8),
                                       small.astype(ml_dtypes.float8_e4m3fn).view(np.uint8)),
      "words differ from ml_dtypes")
# A user-defined format, words by hand: e3m4 with bias 5, IEEE specials.
# 0.1 = 1.6 * 2^-4: exponent field 1, fraction 9.6/16 -> 10 (rne), 9 (rz);
# 3 = 1.5 * 2^1: field 6, fraction 8; -0 is the sign bit; 1e9 overflows to
# Inf (field 7, fraction 0) under ieee rne, to the largest finite under rz.
r = ladder.round([0.1, 3.0, -0.0, 1e9], "e3m4:bias=5")
check("pkg-round-custom", r.dtype == np.uint8 and
      r.tolist() == [0x1a, 0x68, 0x80, 0x70], str(r.tolist()))
r = ladder.round([0.1, 3.0, -0.0, 1e9], "e3m4:bias=5", rounding="rz")
check("pkg-round-custom-rz", r.tolist() == [0x19, 0x68, 0x80, 0x6f], str(r.tolist()))
# bf16 of 0.1 under rz is 0x3dcc, under rne 0x3dcd (by hand); words=True.
r = ladder.round([0.1], "bf16", rounding="rz", words=True)
check("pkg-round-words", r.dtype == np.uint16 and r.tolist() == [0x3dcc], str(r))
try:
    ladder.round([1.0], "e3m4:bias=5", rounding="up")
    check("pkg-round-bad-mode", False, "accepted")
except ladder.LadderError as e:
    check("pkg-round-bad-mode", "rounding" in str(e), str(e))
