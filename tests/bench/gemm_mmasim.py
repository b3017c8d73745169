"""ladder gemm against MMA-Sim's batched dpa on the same GEMM.

    build/peers/bin/python tests/bench/gemm_mmasim.py LADDER [--size MxNxK] [PRESET...]

For each preset (default: sm90-mma-bf16-f32, sm90-mma-f16-f32,
sm90-wgmma-e4m3-f32, sm89-mma-e4m3-f32 and the block-scaled
sm100-tcgen05-mxf8f6f4-e4m3-f32; MMA-Sim has no sm_90a fp8 mma.sync):
random finite words (exponents within 2^+-4, as `bench gemm` draws them)
for A (M x K) and B (K x N), C = +0, and for a block-scaled kind ue8m0
scales within 2^+-7 (`ladder gemm --sa --sb`). MMA-Sim
(scripts/mmasim-oracle.py's Datapath: the operation ladder's oracle asks)
multiplies them as the chain of the instruction along K, every output
element of a step in one batched `dpa` call; `ladder gemm --threads 1`
multiplies the same arrays (its default program: every MMA chained). The
D words are compared as integers. Rates are multiply-adds per CPU second
of the process doing the work (torch held to one thread), on a GEMM of
--size (default 256x256x2048; MMA-Sim's rate moves with it: at
128x128x1024 its tensors are smaller, ladder's start-up, .npy files and
B's decoding weigh more); ladder's is first measured on a larger GEMM
alone, and both ratios are printed. Every timing is the best of REPEAT
runs (ladder's and MMA-Sim's taking turns on the small GEMM), as timeit
takes the best of its repeats: single runs moved by up to 2x with the
machine's slow minutes.
Runs under the peers venv (`make test-peers` makes it): torch, no numpy,
so the .npy files are written and read here.
"""
import importlib.util
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time

SMALL = (256, 256, 2048)   # both engines, words compared (--size)
LARGE = (512, 512, 4096)   # ladder alone
REPEAT = 3                 # runs of each timing: the best counts


def oracle_module():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "scripts", "mmasim-oracle.py")
    spec = importlib.util.spec_from_file_location("mmasim_oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def npy_write(path, words, shape, width):
    """Words (a flat list of ints) as a C-order uint array of width bits."""
    code = {8: "|u1", 16: "<u2", 32: "<u4"}[width]
    head = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (
        code, shape[0], shape[1])
    pad = 64 - (10 + len(head) + 1) % 64
    head = head + " " * pad + "\n"
    fmt = {8: "B", 16: "H", 32: "I"}[width]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
        f.write(struct.pack("<%d%s" % (len(words), fmt), *words))


def npy_read(path):
    """The words of a uint array ladder wrote, flat, and its item size."""
    with open(path, "rb") as f:
        data = f.read()
    if data[6] == 1:
        hl, off = struct.unpack("<H", data[8:10])[0], 10
    else:
        hl, off = struct.unpack("<I", data[8:12])[0], 12
    head = data[off:off + hl].decode()
    body = data[off + hl:]
    size = int(head.split("'descr': '")[1].split("'")[0][-1])
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
    return list(struct.unpack("<%d%s" % (len(body) // size, fmt), body)), size


def draw(rng, fmt, n):
    """n finite words of fmt whose exponents lie within 2^+-4."""
    ebits, mbits = {"bf16": (8, 7), "f16": (5, 10), "e4m3": (4, 3), "e5m2": (5, 2)}[fmt]
    bias = (1 << (ebits - 1)) - 1
    out = []
    for _ in range(n):
        e = bias + rng.randint(-4, 4)
        out.append(rng.getrandbits(1) << (ebits + mbits) | e << mbits | rng.getrandbits(mbits))
    return out


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ladder_gemm(ladder, preset, a, b, d, scales):
    t0 = child_cpu()
    subprocess.run([ladder, "gemm", "--datapath", preset, a, b, "-o", d, "--threads", "1",
                    "-q"] + scales, check=True)
    return child_cpu() - t0


def bench(ladder, preset, oracle, torch, rng, tmp, small):
    f = oracle.read_model(preset, ladder)
    try:
        dp = oracle.Datapath(f)
    except (oracle.Unmodelled, AssertionError) as e:
        print("%-22s MMA-Sim does not model it: %s" % (preset, str(e).splitlines()[0]))
        return
    op = dp.op
    width = {"bf16": 16, "f16": 16, "e4m3": 8, "e5m2": 8}[dp.a]
    line = []
    rate_large = None
    for (M, N, K), both in ((LARGE, False), (small, True)):
        A = draw(rng, dp.a, M * K)
        B = draw(rng, dp.b, K * N)
        pa, pb, pd, psa, psb = (os.path.join(tmp, x + ".npy") for x in ("a", "b", "d", "sa", "sb"))
        npy_write(pa, A, (M, K), width)
        npy_write(pb, B, (K, N), width)
        scales, nkb = [], K // dp.block if dp.block else 0
        if dp.block:
            SA = [127 + rng.randint(-7, 7) for _ in range(M * nkb)]
            SB = [127 + rng.randint(-7, 7) for _ in range(nkb * N)]
            npy_write(psa, SA, (M, nkb), 8)
            npy_write(psb, SB, (nkb, N), 8)
            scales = ["--sa", psa, "--sb", psb]
        if not both:
            cpu = min(ladder_gemm(ladder, preset, pa, pb, pd, scales) for _ in range(REPEAT))
            line.append("ladder %dx%dx%d %.3g MAC/CPU-s" % (M, N, K, M * N * K / cpu))
            rate_large = M * N * K / cpu
            continue
        At = torch.tensor(A, dtype=torch.int64).reshape(M, K)
        Bt = torch.tensor(B, dtype=torch.int64).reshape(K, N)
        if dp.block:
            SAt = torch.tensor(SA, dtype=torch.int64).reshape(M, nkb)
            SBt = torch.tensor(SB, dtype=torch.int64).reshape(nkb, N)
        cpu = cpu_sim = float("inf")
        for _ in range(REPEAT):
            cpu = min(cpu, ladder_gemm(ladder, preset, pa, pb, pd, scales))
            c = dp.operand(torch.zeros(M * N, dtype=torch.int64), dp.c, op.c_type).reshape(M, N)
            t0 = time.process_time()
            for k0 in range(0, K, op.k):
                a = dp.operand(At[:, k0:k0 + op.k], dp.a, op.a_type)
                b = dp.operand(Bt[k0:k0 + op.k, :].T.contiguous(), dp.b, op.b_type)
                if dp.block:
                    kb, nb = k0 // dp.block, op.k // dp.block
                    sa = dp.scales(SAt[:, kb:kb + nb], dp.sa)
                    sb = dp.scales(SBt[kb:kb + nb, :].T.contiguous(), dp.sb)
                    c = op.dpa(a[:, None, :].expand(M, N, op.k), b[None, :, :].expand(M, N, op.k),
                               c, sa[:, None, :].expand(M, N, nb),
                               sb[None, :, :].expand(M, N, nb))
                    continue
                c = op.dpa(a[:, None, :].expand(M, N, op.k), b[None, :, :].expand(M, N, op.k), c)
            cpu_sim = min(cpu_sim, time.process_time() - t0)
        line.append("ladder %dx%dx%d %.3g MAC/CPU-s" % (M, N, K, M * N * K / cpu))
        rate_ladder = M * N * K / cpu
        Dl, _ = npy_read(pd)
        Ds = dp.words(c.reshape(-1))
        same = sum(x == y for x, y in zip(Dl, Ds))
        rate_sim = M * N * K / cpu_sim
        line.append("MMA-Sim %.3g MAC/CPU-s, %d/%d words the same; ladder/MMA-Sim %.0fx "
                    "on this GEMM, %.0fx at ladder's rate on the larger"
                    % (rate_sim, same, M * N, rate_ladder / rate_sim, rate_large / rate_sim))
    print("%-22s %s" % (preset, "; ".join(line)), flush=True)


def main():
    import random
    import warnings
    warnings.filterwarnings("ignore")  # torch's, about numpy, which it does not need here
    import torch
    torch.set_num_threads(1)
    ladder = os.path.abspath(sys.argv[1])
    args, small = sys.argv[2:], SMALL
    if args[:1] == ["--size"]:
        small = tuple(int(x) for x in args[1].split("x"))
        args = args[2:]
    presets = args or ["sm90-mma-bf16-f32", "sm90-mma-f16-f32", "sm90-wgmma-e4m3-f32",
                                 "sm89-mma-e4m3-f32", "sm100-tcgen05-mxf8f6f4-e4m3-f32"]
    oracle = oracle_module()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        for p in presets:
            bench(ladder, p, oracle, torch, rng, tmp, small)


if __name__ == "__main__":
    main()
