#!/usr/bin/env python3
"""`make bench`: ladder eval's text I/O against the pure-Python reference.

    python3 tests/bench/eval_io.py build/rel/ladder [cases]

Writes `cases` (default 1,000,000) random bf16 K=16 lines (raw bits, a
fixed seed) to a file, runs `ladder eval --model sm90-mma-bf16-f32` on it
and times its CPU (user + system, from the kernel's accounting of the
child), then runs the reference of tests/bench/eval_ref.py on the first
100,000 lines in this process, timed the same way. Prints both rates, the
ratio, and whether the words are the same (they must be: the run fails
otherwise). MMA-Sim on the same kind of lines, family by family, is
tests/bench/eval_mmasim.py's, timed inside its process (a start-up
measured apart and taken off could exceed the run itself).

Then the same count of block-scaled lines (PRESET_SCALED, e2m1 K=64 with
four ue8m0 scales a side, raw bits and scales near 2^0) through ladder
eval, CPU and wall time: the parser's scale fields and the model's scaled
path. Its words have no reference here (test_rational checks that path).
"""
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval_ref  # noqa: E402

PRESET = "sm90-mma-bf16-f32"
PRESET_SCALED = "sm100-tcgen05-mxf4nvf4-4x-f32"
REF_CASES = 100000


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ladder = sys.argv[1]
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bf16.txt")
        lines = []
        with open(path, "w") as f:
            for _ in range(cases):
                a = ",".join("%04x" % rng.getrandbits(16) for _ in range(16))
                b = ",".join("%04x" % rng.getrandbits(16) for _ in range(16))
                line = "%s;%s;%08x" % (a, b, rng.getrandbits(32))
                if len(lines) < REF_CASES:
                    lines.append(line)
                f.write(line + "\n")
        size = os.path.getsize(path)
        t0 = cpu_children()
        w0 = time.monotonic()
        with open(path) as fin:
            out = subprocess.run([ladder, "eval", "--model", PRESET],
                                 stdin=fin, stdout=subprocess.PIPE,
                                 check=True).stdout.split()
        lad_cpu = cpu_children() - t0
        lad_wall = time.monotonic() - w0
        spath = os.path.join(tmp, "mxf4.txt")
        with open(spath, "w") as f:
            for _ in range(cases):
                a = ",".join("%x" % rng.getrandbits(4) for _ in range(64))
                b = ",".join("%x" % rng.getrandbits(4) for _ in range(64))
                sa = ",".join("%02x" % rng.randrange(117, 137) for _ in range(4))
                sb = ",".join("%02x" % rng.randrange(117, 137) for _ in range(4))
                f.write("%s;%s;%08x;%s;%s;\n" % (a, b, rng.getrandbits(32), sa, sb))
        ssize = os.path.getsize(spath)
        t0 = cpu_children()
        w0 = time.monotonic()
        with open(spath) as fin:
            sout = subprocess.run([ladder, "eval", "--model", PRESET_SCALED],
                                  stdin=fin, stdout=subprocess.PIPE,
                                  check=True).stdout.split()
        s_cpu = cpu_children() - t0
        s_wall = time.monotonic() - w0
    t0 = time.process_time()
    ref = []
    for line in lines:
        fa, fb, fc = line.split(";")
        ref.append("%08x" % eval_ref.evaluate(
            [int(w, 16) for w in fa.split(",")],
            [int(w, 16) for w in fb.split(",")], int(fc, 16)))
    ref_cpu = time.process_time() - t0
    same = len(out) == cases and \
        [w.decode() for w in out[:len(ref)]] == ref
    lad_rate = cases / lad_cpu
    ref_rate = len(ref) / ref_cpu
    print("eval text I/O, %s, %d cases (%.0f MB of lines):" %
          (PRESET, cases, size / 1e6))
    print("  ladder eval      %6.2f M cases/s  (%.2f s CPU, %.2f s wall)" %
          (lad_rate / 1e6, lad_cpu, lad_wall))
    print("  pure Python      %6.3f M cases/s  (%d cases, %.2f s CPU)" %
          (ref_rate / 1e6, len(ref), ref_cpu))
    print("  ratio            %6.0fx   same words on %d cases: %s" %
          (lad_rate / ref_rate, len(ref), "yes" if same else "NO"))
    print("eval text I/O, %s, %d block-scaled cases (%.0f MB of lines):" %
          (PRESET_SCALED, cases, ssize / 1e6))
    print("  ladder eval      %6.2f M cases/s  (%.2f s CPU, %.2f s wall; %d answers)" %
          (cases / s_cpu / 1e6, s_cpu, s_wall, len(sout)))
    same = same and len(sout) == cases
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
