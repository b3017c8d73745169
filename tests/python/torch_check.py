"""Checks of ladder with torch: tensors through ladder.matmul, and every op
ladder.torch.emulate intercepts against ladder.matmul word for word.

Run by tests/torch/t9100-torch.sh as: python torch_check.py LADDER (with
PYTHONPATH holding python/ and LADDER_LIB the library), in a venv with
torch. Prints one check line per check ("ok   name" or "FAIL name:
detail").

The references: ladder.matmul on NumPy arrays of the same bits (the
tensor path against the array path), and for the rounded results of
emulate, ladder.matmul with the program's own epilogue rounding into the
result format (program key out, rne), not torch's casts that emulate uses;
torch's own results outside the context.
"""

import subprocess
import sys

import ml_dtypes
import numpy as np

import ladder

LADDER = sys.argv[1]


def check(name, good, detail=""):
    print(f"ok   {name}" if good else f"FAIL {name}: {detail}", flush=True)


# import ladder alone never imports torch
r = subprocess.run([sys.executable, "-c", "import sys, ladder; ladder.matmul; "
                    "print('torch' in sys.modules)"], capture_output=True, text=True)
check("import-ladder-no-torch", r.stdout.strip() == "False", r.stdout + r.stderr)
check("import-ladder-no-torch-here", "torch" not in sys.modules, "")

import torch  # noqa: E402  (after the check above)
import torch.nn.functional as F  # noqa: E402

import ladder.torch  # noqa: E402

gen = torch.Generator().manual_seed(20261206)


def randn(*shape, scale=1.0):
    return torch.randn(*shape, generator=gen) * scale


def words(t):
    """A tensor's elements as unsigned integers of their own size."""
    t = t.detach().contiguous()
    size = t.element_size()
    holder = {1: torch.uint8, 2: torch.int16, 4: torch.int32}[size]
    n = t.view(holder).numpy()
    return n.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[size])


def same(x, y):
    """Whether two tensors (or a tensor and an array) hold the same words."""
    wx = words(x) if isinstance(x, torch.Tensor) else x.view(words_dtype(x))
    wy = words(y) if isinstance(y, torch.Tensor) else y.view(words_dtype(y))
    return wx.shape == wy.shape and np.array_equal(wx, wy)


def words_dtype(a):
    return {1: np.uint8, 2: np.uint16, 4: np.uint32}[a.dtype.itemsize]


# ---- ladder.matmul on tensors: the bits of the NumPy path, a tensor back

CASES = [  # datapath, torch dtype, ml_dtypes/NumPy type of the same bits
    ("sm90-mma-bf16-f32", torch.bfloat16, ml_dtypes.bfloat16),
    ("sm90-mma-f16-f16", torch.float16, np.float16),
    ("sm90-wgmma-e4m3-f32", torch.float8_e4m3fn, ml_dtypes.float8_e4m3fn),
    ("sm90-wgmma-e5m2-f32", torch.float8_e5m2, ml_dtypes.float8_e5m2),
    ("sm90-mma-tf32-f32", torch.float32, np.float32),
]
for dp, tdt, ndt in CASES:
    a, b = randn(2, 16, 64).to(tdt), randn(2, 64, 8).to(tdt)
    c = randn(16, 8).to(torch.float16 if tdt == torch.float16 else torch.float32)
    d = ladder.matmul(a, b, c, datapath=dp)
    na = words(a).view(ndt)
    nb = words(b).view(ndt)
    nd = ladder.matmul(na, nb, c.numpy(), datapath=dp)
    check(f"tensor-{dp}", isinstance(d, torch.Tensor) and same(d, nd),
          f"{type(d).__name__} {getattr(d, 'dtype', '')}")
# a transposed (strided) tensor goes in as it is, without a contiguous copy
a = randn(64, 16).to(torch.bfloat16)
check("tensor-strided", same(ladder.matmul(a.T, a, datapath="sm90-mma-bf16-f32"),
                             ladder.matmul(a.T.contiguous(), a, datapath="sm90-mma-bf16-f32")))
arr = ladder._numpy(a.T, "a")
check("tensor-zero-copy", arr.dtype == ml_dtypes.bfloat16 and
      np.shares_memory(arr, a.view(torch.int16).numpy()), str(arr.dtype))
# uint8 words of a 4-bit format, with their block scales, as tensors
SDP = "sm100-tcgen05-mxf4-e2m1-f32"
g = np.random.default_rng(7)
a4, b4 = g.integers(0, 16, (3, 128), dtype=np.uint8), g.integers(0, 16, (128, 5), dtype=np.uint8)
sa, sb = g.integers(120, 134, (3, 4), dtype=np.uint8), g.integers(120, 134, (4, 5), dtype=np.uint8)
d4 = ladder.matmul(torch.from_numpy(a4), torch.from_numpy(b4), datapath=SDP,
                   sa=torch.from_numpy(sa), sb=torch.from_numpy(sb))
check("tensor-e2m1-words", isinstance(d4, torch.Tensor) and
      same(d4, ladder.matmul(a4, b4, datapath=SDP, sa=sa, sb=sb)), str(type(d4)))
try:
    ladder.matmul(a.to("meta"), a, datapath="sm90-mma-bf16-f32")
    check("tensor-device-refused", False, "a meta tensor was taken")
except ladder.LadderError as e:
    check("tensor-device-refused", "on the CPU" in str(e), str(e))

# ---- emulate: each op against ladder.matmul, rounded by ladder's epilogue

BF = "sm90-wgmma-bf16-f32"


def ref(a, b, c=None, dp=BF, program=None, out=None):
    """ladder.matmul with the epilogue rounding into `out` (rne)."""
    prog = dict(program or {})
    if out:
        prog.update(out=out, out_round="rne")
    return ladder.matmul(a, b, c, datapath=dp, program=prog)


x = randn(4, 6, 64).to(torch.bfloat16)
w = randn(32, 64, scale=0.1).to(torch.bfloat16)
bias = randn(32).to(torch.bfloat16)
lin = torch.nn.Linear(64, 32, dtype=torch.bfloat16)
with torch.no_grad():
    lin.weight.copy_(w)
    lin.bias.copy_(bias)
m2, n2 = x[0], w.T.contiguous()
want_outside = torch.matmul(m2, n2)
with ladder.torch.emulate(BF):
    got = {
        "linear-module": (lin(x), ref(x, w.T, bias.float(), out="bf16")),
        "functional-linear": (F.linear(x, w, bias), ref(x, w.T, bias.float(), out="bf16")),
        "functional-linear-nobias": (F.linear(x, w), ref(x, w.T, out="bf16")),
        "matmul-batched": (torch.matmul(x, w.T), ref(x, w.T, out="bf16")),
        "matmul-operator": (x @ w.T, ref(x, w.T, out="bf16")),
        "matmul-method": (x.matmul(w.T), ref(x, w.T, out="bf16")),
        "matmul-vector": (torch.matmul(x[0, 0], w.T), ref(x[0, 0], w.T, out="bf16")),
        "rmatmul": (torch.Tensor.__rmatmul__(w.T, x), ref(x, w.T, out="bf16")),
        "mm": (torch.mm(m2, n2), ref(m2, n2, out="bf16")),
        "mm-method": (m2.mm(n2), ref(m2, n2, out="bf16")),
        "bmm": (torch.bmm(x, x.transpose(1, 2)), ref(x, x.transpose(1, 2), out="bf16")),
        "addmm": (torch.addmm(bias, m2, n2), ref(m2, n2, bias.float(), out="bf16")),
        "addmm-method": (bias.addmm(m2, n2), ref(m2, n2, bias.float(), out="bf16")),
    }
    inside_other = torch.add(m2, 1)
for name, (g_, r_) in got.items():
    check(f"emulate-{name}", g_.dtype == torch.bfloat16 and same(g_, r_),
          f"{g_.dtype}, {np.count_nonzero(words(g_) != words(r_))} words differ")
# the D words themselves (f32) are ladder.matmul's; the rounding is nearest even
d = ladder.matmul(x, w.T, datapath=BF)
check("emulate-rounding-rne", same(d.to(torch.bfloat16), got["matmul-batched"][0]),
      "torch's own cast of D differs from the epilogue's")
with ladder.torch.emulate(BF, out_dtype=torch.float32):
    kept = x @ w.T
check("emulate-out-dtype-keeps-d", kept.dtype == torch.float32 and same(kept, d), str(kept.dtype))
check("emulate-outside-unchanged", torch.equal(torch.matmul(m2, n2), want_outside), "")
check("emulate-other-ops-torch", torch.equal(inside_other, torch.add(m2, 1)), "")
# torch's own bf16 GEMM may round to the same words: D's dtype shows that
# nn.Linear went through the datapath
with ladder.torch.emulate(BF, out_dtype=torch.float32):
    kept = lin(x)
check("emulate-linear-intercepted", kept.dtype == torch.float32 and
      same(kept, ladder.matmul(x, w.T, bias, datapath=BF)), str(kept.dtype))

# f16 in, f16 D, f16 out; float32 in for tf32
h = randn(8, 64).half()
with ladder.torch.emulate("sm90-mma-f16-f16"):
    hh = h @ h.T
check("emulate-f16", hh.dtype == torch.float16 and same(hh, ref(h, h.T, dp="sm90-mma-f16-f16")), "")
t = randn(8, 64)
with ladder.torch.emulate("sm90-mma-tf32-f32"):
    tt = t @ t.T
check("emulate-tf32", tt.dtype == torch.float32 and
      same(tt, ref(t, t.T, dp="sm90-mma-tf32-f32")), "")

# inputs not of the datapath's formats: refused, or rounded with cast="rne"
try:
    with ladder.torch.emulate("sm90-wgmma-e4m3-f32"):
        lin(x)
    check("emulate-format-refused", False, "bf16 taken on an e4m3 datapath")
except ladder.LadderError as e:
    check("emulate-format-refused", "cast='rne'" in str(e) and "e4m3" in str(e), str(e))
E4 = "sm90-wgmma-e4m3-f32"
with ladder.torch.emulate(E4, cast="rne"):
    y8 = lin(x)
# the rounding by hand: ladder.round (exact, rne) of the values into e4m3
x8 = ladder.round(x.float().numpy().astype(np.float64), "e4m3")
w8 = ladder.round(w.float().numpy().astype(np.float64), "e4m3")
check("emulate-cast-rne", y8.dtype == torch.bfloat16 and
      same(y8, ref(x8, w8.T, bias.float().numpy(), dp=E4, out="bf16")), "")
tf = ladder.round(t.double().numpy(), "tf32")
with ladder.torch.emulate("sm90-mma-tf32-f32", cast="rne"):
    t64 = t.double() @ t.double().T
check("emulate-cast-rne-tf32", t64.dtype == torch.float64 and
      np.array_equal(t64.numpy(), ref(tf, tf.T, dp="sm90-mma-tf32-f32").astype(np.float64)), "")

# fp8: mm of fp8 tensors, and torch._scaled_mm with per-tensor scales
a8, b8 = randn(16, 256).to(torch.float8_e4m3fn), randn(32, 256).to(torch.float8_e4m3fn)
sa_, sb_ = torch.tensor(0.5), torch.tensor(3.0)
for prog in (None, "fp8-promote4"):
    tag = prog or "chain"
    with ladder.torch.emulate(E4, prog):
        s = torch._scaled_mm(a8, b8.t(), sa_, sb_, out_dtype=torch.bfloat16)
        s32 = torch._scaled_mm(a8, b8.t(), sa_, sb_, out_dtype=torch.float32)
        sbias = torch._scaled_mm(a8, b8.t(), sa_, sb_, bias=bias, out_dtype=torch.bfloat16)
        m8 = torch.mm(a8, b8.t())
    base = {} if prog is None else {"preset": prog}
    scaled = dict(base, scale_a=0.5, scale_b=3.0)
    check(f"emulate-scaled-mm-{tag}", s.dtype == torch.bfloat16 and
          same(s, ref(a8, b8.t(), dp=E4, program=scaled, out="bf16")), "")
    f32 = ref(a8, b8.t(), dp=E4, program=scaled)
    check(f"emulate-scaled-mm-f32-{tag}", same(s32, f32), "")
    check(f"emulate-scaled-mm-bias-{tag}",
          same(sbias, (f32 + bias.float()).to(torch.bfloat16)), "")
    check(f"emulate-mm-fp8-{tag}", m8.dtype == torch.float8_e4m3fn and
          same(m8, ref(a8, b8.t(), dp=E4, program=base, out="e4m3")), str(m8.dtype))
try:
    with ladder.torch.emulate(E4):
        torch._scaled_mm(a8, b8.t(), torch.ones(16, 1), torch.ones(1, 32),
                         out_dtype=torch.bfloat16)
    check("emulate-scaled-mm-rowwise-refused", False, "accepted")
except ladder.LadderError as e:
    check("emulate-scaled-mm-rowwise-refused", "per-tensor" in str(e), str(e))
try:
    ladder.torch.emulate(BF, cast="rtz")
    check("emulate-bad-cast-refused", False, "accepted")
except ladder.LadderError as e:
    check("emulate-bad-cast-refused", "rne" in str(e), str(e))
