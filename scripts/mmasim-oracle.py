#!/usr/bin/env python3
"""An exec-device oracle that answers with MMA-Sim (PyPI mmasim, needs torch).

    ladder validate --model sm120-mma-f8f6f4-e2m1xe3m2-f32 --raw 0 \\
        --device "exec:python3 scripts/mmasim-oracle.py 'RTX Blackwell' \\
                  m16n8k32.kind::f8f6f4.f32.e2m1.e3m2.f32"

ARCH is MMA-Sim's architecture name, SHAPE_AND_TYPE its instruction string
(mmasim/nv_ptx/isa_*.py). Reads one vector line per case (A;B;C, plus
;scale_a;scale_b; for block-scaled kinds) and prints D at its native width.
docs/mmasim.md says what it showed. Nothing in the test suite runs it:
MMA-Sim is not a dependency of ladder.
"""
import sys

import torch
from mmasim.nv_ptx import sim

arch, st = sys.argv[1], sys.argv[2]
q = st.split(".")
stype = None
if q[1].startswith("kind::mx"):
    op = sim.MMABlockScale(arch, st)
    dt, at, bt, ct, stype = q[3:8]
elif q[0].startswith("m64"):
    op = sim.WGMMA(arch, st)
    dt, at, bt = q[1:4]
    ct = dt
else:
    op = sim.MMA(arch, st)
    dt, at, bt, ct = q[-4:]

SCALE = {"ue8m0": torch.float8_e8m0fnu, "ue4m3": torch.float8_e4m3fn}


def signed(w, bits):
    return w - (1 << bits) if w >= 1 << (bits - 1) else w


def tensor(words, t):
    if t in ("f32", "tf32"):
        return torch.tensor([signed(w, 32) for w in words], dtype=torch.int32).view(torch.float32)
    if t in ("f16", "bf16"):
        return torch.tensor([signed(w, 16) for w in words], dtype=torch.int16).view(
            torch.float16 if t == "f16" else torch.bfloat16)
    if t == "e2m1" and "mxf4" in st:  # two codes a byte, the first high
        words = [words[i] << 4 | words[i + 1] for i in range(0, len(words), 2)]
    elif t == "e2m1":  # MMA-Sim reads fp4 from bits 5:2 of its byte
        words = [w << 2 for w in words]
    u = torch.tensor(words, dtype=torch.uint8)
    if t == "e4m3":
        return u.view(torch.float8_e4m3fn)
    if t == "e5m2":
        return u.view(torch.float8_e5m2)
    return u  # fp6 and fp4 codes


def words(field):
    return [int(w, 16) for w in field.split(",")]


for line in sys.stdin:
    f = line.strip().split(";")
    a, b = tensor(words(f[0]), at), tensor(words(f[1]), bt)
    c = tensor([int(f[2], 16)], ct)[0]
    if stype:
        sa = torch.tensor(words(f[3]), dtype=torch.uint8).view(SCALE[stype])
        sb = torch.tensor(words(f[4]), dtype=torch.uint8).view(SCALE[stype])
        d = op.dpa(a, b, c, sa, sb)
    else:
        d = op.dpa(a, b, c)
    if dt == "f32":
        w = int(d.to(torch.float32).view(torch.int32).item()) & 0xffffffff
        print("%08x" % w, flush=True)
    else:
        w = int(d.to(torch.float16).view(torch.int16).item()) & 0xffff
        print("%04x" % w, flush=True)
