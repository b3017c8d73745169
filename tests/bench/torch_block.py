"""A 1-layer transformer block under ladder.torch.emulate, beside `ladder
gemm` on the same GEMM shapes.

    build/torch/bin/python tests/bench/torch_block.py LADDER [PRESET...]

The block is docs/tutorials/4-model-numerics.md's (pre-norm, attention,
MLP) at T 256 tokens, width 1024, 8 heads, d_ff 4096: 3.36e9 multiply-adds
in its 6 matmul calls (10 GEMM shapes counting the attention's per-head
ones). For each preset (default sm90-wgmma-bf16-f32 and
sm90-wgmma-e4m3-f32 with cast="rne") the block's forward pass runs inside
emulate(preset, threads=1) with torch held to one thread; its rate is the
block's multiply-adds per CPU second of the whole forward pass (the
non-matmul ops, the operand conversions and the rounding of results
included). Beside it, `ladder gemm --threads 1` runs each GEMM shape the
block made once, on random words of the operand format (A, B and C = +0
as .npy files), and its rate is the same multiply-adds (each shape
weighted by how often the block ran it) over the child processes' CPU
seconds, start-up and file I/O included. Every timing is the best of
REPEAT runs. Needs the venv `make test-torch` makes (build/torch).
"""
import collections
import math
import os
import resource
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import ladder  # noqa: E402
import ladder.torch  # noqa: E402

T, D, HEADS, D_FF = 256, 1024, 8, 4096
REPEAT = 3
PRESETS = ["sm90-wgmma-bf16-f32", "sm90-wgmma-e4m3-f32"]
NP_TYPES = {"bf16": "bfloat16", "e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}


def wide(x):
    return x.double() if x.dtype == torch.float64 else x.float()


def norm(x):
    y = wide(x)
    y = (y - y.mean(-1, keepdim=True)) / torch.sqrt(y.var(-1, keepdim=True, unbiased=False) + 1e-5)
    return y.to(x.dtype)


def block(x, W):
    h = F.linear(norm(x), *W["qkv"])
    q, k, v = h.view(T, 3, HEADS, D // HEADS).permute(1, 2, 0, 3)
    s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(D // HEADS)
    p = torch.softmax(wide(s), -1).to(x.dtype)
    x = x + F.linear(torch.matmul(p, v).permute(1, 0, 2).reshape(T, D), *W["out"])
    u = F.gelu(wide(F.linear(norm(x), *W["up"]))).to(x.dtype)
    return x + F.linear(u, *W["down"])


class Counted(ladder.torch.emulate):
    """emulate, counting the (M, N, K) of every 2-D GEMM it computes."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.shapes = collections.Counter()

    def gemm(self, a, b, c=None, **kw):
        batch = math.prod(torch.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        self.shapes[(a.shape[-2], b.shape[-1], a.shape[-1])] += batch
        return super().gemm(a, b, c, **kw)


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    lad = sys.argv[1]
    presets = sys.argv[2:] or PRESETS
    torch.set_num_threads(1)
    rng = np.random.default_rng(20261206)
    w = lambda n_out, n_in: torch.from_numpy(rng.standard_normal((n_out, n_in)) / math.sqrt(n_in))
    b = lambda n: torch.from_numpy(rng.standard_normal(n) * 0.02)
    W = {"qkv": (w(3 * D, D), b(3 * D)), "out": (w(D, D), b(D)),
         "up": (w(D_FF, D), b(D_FF)), "down": (w(D, D_FF), b(D))}
    Wb = {k: (x.bfloat16(), y.bfloat16()) for k, (x, y) in W.items()}
    x = torch.from_numpy(rng.standard_normal((T, D))).bfloat16()
    print(f"torch block under ladder.torch.emulate (T {T}, width {D}, {HEADS} heads, "
          f"d_ff {D_FF}), one thread, against ladder gemm --threads 1 on its GEMMs")
    print(f"{'preset':24} {'MAC':>9} {'emulate MAC/CPU s':>18} {'ladder gemm MAC/CPU s':>22} "
          f"{'ratio':>6}")
    tmp = tempfile.mkdtemp(prefix="ladder-bench-")
    for preset in presets:
        best = None
        for _ in range(REPEAT):
            mode = Counted(preset, cast="rne", threads=1)
            t0 = cpu()
            with torch.no_grad(), mode:
                block(x, Wb)
            t = cpu() - t0
            best = t if best is None else min(best, t)
        shapes = mode.shapes
        macs = sum(m * n * k * count for (m, n, k), count in shapes.items())
        fa = mode.formats["a"].name.decode()
        dt = getattr(__import__("ml_dtypes"), NP_TYPES[fa])
        gemm_cpu = 0.0
        for (m, n, k), count in shapes.items():
            pa, pb, pd = (os.path.join(tmp, f) for f in ("a.npy", "b.npy", "d.npy"))
            np.save(pa, rng.standard_normal((m, k)).astype(dt).view(np.uint8 if fa != "bf16"
                                                                    else np.uint16))
            np.save(pb, rng.standard_normal((k, n)).astype(dt).view(np.uint8 if fa != "bf16"
                                                                    else np.uint16))
            one = None
            for _ in range(REPEAT):
                t0 = child_cpu()
                subprocess.run([lad, "gemm", "--datapath", preset, pa, pb, "-o", pd,
                                "--threads", "1", "-q"], check=True)
                t = child_cpu() - t0
                one = t if one is None else min(one, t)
            gemm_cpu += one * count
        print(f"{preset:24} {macs:9.2e} {macs / best:18.2e} {macs / gemm_cpu:22.2e} "
              f"{(macs / best) / (macs / gemm_cpu):6.2f}", flush=True)
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
