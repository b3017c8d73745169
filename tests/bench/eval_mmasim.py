"""ladder eval against MMA-Sim's batched dpa, family by family, same words.

    build/peers/bin/python tests/bench/eval_mmasim.py LADDER [CASES] [PRESET...]

For each preset (default: one per datapath family MMA-Sim models, below),
CASES random lines (default 400,000; raw bit patterns for A, B and C,
block scales near 2^0) go through `ladder eval --model PRESET` as a text
file, timed by the CPU seconds of that process (its start, parse, model
and output included), and as .npy arrays (`ladder eval --a --b --c
[--sa --sb] -o`: the words as MMA-Sim takes them, in arrays). The same words go to MMA-Sim 2.1.1
(scripts/mmasim-oracle.py's Datapath: the operation ladder's oracle
asks) in batches of 100,000, timed two ways (torch held to one thread):
its batched `dpa` calls alone, and words to words (the Python lists of
words made into tensors, reinterpreted as torch's dtypes, `dpa`, and the
D words taken back as integers: what ladder eval's parse and print do
for it). Each of the four is run REPEAT times, the runs of the three
programs taking turns, and its least CPU time counts (as Python's timeit
takes the best of its repeats): the machine's slow minutes, which move a
single run by up to 2x, then weigh on neither side. The D words of both ladder runs are compared with MMA-Sim's as
integers; the run fails when any differ. Prints cases per CPU second of
each and the ratios: ladder's text lines to MMA-Sim words to words,
ladder's arrays to MMA-Sim's dpa alone (the target: 10x on every family).
Runs under the peers venv (`make test-peers` makes it).
"""
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_mmasim import child_cpu, npy_read, npy_write, oracle_module  # noqa: E402

PRESETS = [
    ("bf16", "sm90-mma-bf16-f32"),
    ("f16", "sm80-mma-f16-f32"),
    ("tf32", "sm80-mma-tf32-f32"),
    ("e4m3 mma.sync", "sm89-mma-e4m3-f32"),
    ("e4m3 wgmma", "sm90-wgmma-e4m3-f32"),
    ("mxf8f6f4 e4m3", "sm100-tcgen05-mxf8f6f4-e4m3-f32"),
    ("mxf4", "sm100-tcgen05-mxf4-e2m1-f32"),
    ("nvf4 (ue4m3)", "sm100-tcgen05-mxf4nvf4-ue4m3-f32"),
    ("cdna3 bf16", "cdna3-mfma-bf16-f32"),
    ("cdna3 fp8", "cdna3-mfma-e4m3fnuz-f32"),
]
BATCH = 100000
REPEAT = 3
WIDTH = {"f64": 64, "f32": 32, "tf32": 32, "f16": 16, "bf16": 16, "e2m1": 4}


def scale_word(rng, fmt):
    """A scale code near 2^0: ue8m0 within 2^+-10, ue4m3 within 2^+-4."""
    if fmt == "ue4m3":
        return (7 + rng.randint(-4, 4)) << 3 | rng.getrandbits(3)
    return 127 + rng.randint(-10, 10)


def draw(rng, dp, n):
    """n cases as lists of words: A, B (n x k), C (n), and the scales."""
    wa, wb, wc = (WIDTH.get(f, 8) for f in (dp.a, dp.b, dp.c))
    A = [[rng.getrandbits(wa) for _ in range(dp.k)] for _ in range(n)]
    B = [[rng.getrandbits(wb) for _ in range(dp.k)] for _ in range(n)]
    C = [rng.getrandbits(wc) for _ in range(n)]
    nb = dp.k // dp.block if dp.block else 0
    SA = [[scale_word(rng, dp.sa) for _ in range(nb)] for _ in range(n)]
    SB = [[scale_word(rng, dp.sb) for _ in range(nb)] for _ in range(n)]
    return A, B, C, SA, SB


def write_lines(path, dp, cases):
    A, B, C, SA, SB = cases
    da, db, dc = ((WIDTH.get(f, 8) + 3) // 4 for f in (dp.a, dp.b, dp.c))
    fa, fb, fc = ("%%0%dx" % d for d in (da, db, dc))
    with open(path, "w") as f:
        for i in range(len(C)):
            line = "%s;%s;%s" % (",".join(fa % w for w in A[i]), ",".join(fb % w for w in B[i]),
                                 fc % C[i])
            if dp.block:
                line += ";%s;%s;" % (",".join("%02x" % w for w in SA[i]),
                                     ",".join("%02x" % w for w in SB[i]))
            f.write(line + "\n")


def write_arrays(tmp, dp, cases):
    """The cases as .npy files; the ladder eval options that read them."""
    A, B, C, SA, SB = cases
    n, args = len(C), []
    for name, rows, width in (("a", A, dp.a), ("b", B, dp.b), ("c", [[w] for w in C], dp.c),
                              ("sa", SA, dp.sa), ("sb", SB, dp.sb)):
        if name in ("sa", "sb") and not dp.block:
            continue
        path = os.path.join(tmp, name + ".npy")
        bits = max(8, WIDTH.get(width, 8))
        npy_write(path, [w for r in rows for w in r], (n, len(rows[0])), bits)
        args += ["--" + name, path]
    return args


def mmasim(dp, torch, cases):
    """(CPU seconds in dpa, CPU seconds words to words, D words) of MMA-Sim
    on the cases, in batches."""
    A, B, C, SA, SB = cases
    op, cpu, out = dp.op, 0.0, []
    all0 = time.process_time()
    for s in range(0, len(C), BATCH):
        e = s + BATCH
        a = dp.operand(torch.tensor(A[s:e], dtype=torch.int64), dp.a, op.a_type)
        b = dp.operand(torch.tensor(B[s:e], dtype=torch.int64), dp.b, op.b_type)
        c = dp.operand(torch.tensor(C[s:e], dtype=torch.int64)[:, None], dp.c, op.c_type)[:, 0]
        if dp.block:
            sa = dp.scales(torch.tensor(SA[s:e], dtype=torch.int64), dp.sa)
            sb = dp.scales(torch.tensor(SB[s:e], dtype=torch.int64), dp.sb)
            t0 = time.process_time()
            d = op.dpa(a, b, c, sa, sb)
        else:
            t0 = time.process_time()
            d = op.dpa(a, b, c)
        cpu += time.process_time() - t0
        out += dp.words(d)
    return cpu, time.process_time() - all0, out


def main():
    import warnings
    warnings.filterwarnings("ignore")  # torch's, about numpy, which it does not need here
    import torch
    torch.set_num_threads(1)
    ladder = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400000
    want = sys.argv[3:]
    rows = [(w, p) for w, p in PRESETS if not want or p in want] + \
        [(p, p) for p in want if p not in dict((q, w) for w, q in PRESETS)]
    oracle = oracle_module()
    rng = random.Random(2026)
    ok = True
    print("ladder eval against MMA-Sim's batched dpa, %d cases a preset, per CPU second "
          "(the best of %d runs each):" % (n, REPEAT))
    print("  %-16s %-34s %12s %12s %7s %12s %12s %7s  %s" % (
        "family", "preset", "eval lines", "MMA-Sim w2w", "ratio", "eval .npy", "MMA-Sim dpa",
        "ratio", "same words"))
    with tempfile.TemporaryDirectory() as tmp:
        for what, preset in rows:
            dp = oracle.Datapath(oracle.read_model(preset, ladder))
            cases = draw(rng, dp, n)
            path = os.path.join(tmp, "lines.txt")
            write_lines(path, dp, cases)
            args = write_arrays(tmp, dp, cases)
            pd = os.path.join(tmp, "d.npy")
            lcpu = ncpu = scpu = wcpu = float("inf")
            for _ in range(REPEAT):
                t0 = child_cpu()
                with open(path) as fin:
                    out = subprocess.run([ladder, "eval", "--model", preset], stdin=fin,
                                         stdout=subprocess.PIPE, check=True).stdout.split()
                lcpu = min(lcpu, child_cpu() - t0)
                t0 = child_cpu()
                subprocess.run([ladder, "eval", "--model", preset, "-q", "-o", pd] + args,
                               check=True)
                ncpu = min(ncpu, child_cpu() - t0)
                nout = npy_read(pd)[0]
                s1, w1, words = mmasim(dp, torch, cases)
                scpu, wcpu = min(scpu, s1), min(wcpu, w1)
            same = sum(int(x, 16) == y for x, y in zip(out, words))
            nsame = sum(x == y for x, y in zip(nout, words))
            ok = ok and same == n and len(out) == n and nsame == n and len(nout) == n
            print("  %-16s %-34s %10.3g/s %10.3g/s %6.1fx %10.3g/s %10.3g/s %6.1fx  %d/%d %d/%d" %
                  (what, preset, n / lcpu, n / wcpu, wcpu / lcpu, n / ncpu, n / scpu,
                   scpu / ncpu, same, n, nsame, n), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
