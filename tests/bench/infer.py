#!/usr/bin/env python3
"""`make bench`: inference's CPU time, this engine beside a reference one.

    python3 tests/bench/infer.py LADDER [REF_LADDER]

For every preset (every LADDER_BENCH_STRIDE-th, default 1: all), a recipe
from tests/data/recipe-gen.sh (the instruction only, 2,048 random cases)
is run on the simulated preset into a store of its own, and `ladder infer`
is timed on that run: CPU seconds (user + system, the kernel's accounting
of the child), and whether the model it gives reproduces every stored case
(exit 0). With REF_LADDER (a build of an earlier commit; `make bench`
builds the one in tests/bench/ref-engine), every LADDER_BENCH_REF_STRIDE-th
preset (default 8) and each preset named in SLOW below is also inferred
by the reference on the same store, so that both figures come from the
same machine in the same minutes. Then `ladder fit` on every 5,000-case
file of vectors/ (exact or not, CPU seconds), by both engines.

Prints one line per datapath and per file, then the summaries: the median,
90th percentile and maximum CPU seconds of infer, how many runs each
engine explained, and the fits. The targets (docs/performance.md): infer
median <= 0.5 s and max <= 5 s of CPU; every fit exact in <= 5 s.
Nothing here fails on time: a bench reports, the tests judge words.
"""
import glob
import os
import resource
import statistics
import subprocess
import sys
import tempfile

# Presets the engine before decisions took longest on (docs/performance.md),
# always measured by the reference too.
SLOW = ["sm90-mma-e4m3-f32", "sm90-mma-e5m2-f16", "cdna3-mfma-e4m3fnuz-f32",
        "sm100-mma-e4m3-f16"]


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, timeout=None):
    """(exit status, CPU seconds, stdout) of cmd; status 124 on a time-out."""
    t0 = cpu_children()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=timeout, text=True)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        rc, out = 124, ""
    return rc, cpu_children() - t0, out


def verdict(rc, good, bad):
    """The word for an exit status: good (0), TIMEOUT (124) or bad."""
    return good if rc == 0 else "TIMEOUT" if rc == 124 else bad


def summary(name, cpus):
    if not cpus:
        return "%s: none" % name
    s = sorted(cpus)
    p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
    return "%s: %d runs, median %.2f s, p90 %.2f s, max %.2f s of CPU" % (
        name, len(s), statistics.median(s), p90, s[-1])


def main():
    ladder = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) > 2 else None
    stride = int(os.environ.get("LADDER_BENCH_STRIDE", "1"))
    rstride = int(os.environ.get("LADDER_BENCH_REF_STRIDE", "8"))
    limit = float(os.environ.get("LADDER_BENCH_REF_LIMIT", "600"))
    here = os.path.dirname(os.path.abspath(__file__))
    gen = os.path.join(here, "..", "data", "recipe-gen.sh")
    presets = [l.split()[0] for l in subprocess.run(
        [ladder, "presets"], stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines()
        if l.strip()]
    new, old, pairs = [], [], []
    bad_new, bad_old = [], []
    print("infer: CPU seconds per preset's run (this engine, reference)")
    with tempfile.TemporaryDirectory() as tmp:
        for i, p in enumerate(presets):
            if i % stride:
                continue
            recipe = os.path.join(tmp, p + ".yaml")
            with open(recipe, "w") as f:
                subprocess.run(["sh", gen, ladder, p, "2048"], stdout=f, check=True)
            db = os.path.join(tmp, p + ".db")
            rc = subprocess.run([ladder, "run", recipe, "--db", db, "-q"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            if rc != 0:
                print("  %-44s run failed (exit %d)" % (p, rc))
                continue
            rc, cpu, _ = timed([ladder, "infer", "latest", "--db", db, "-q"])
            new.append(cpu)
            if rc != 0:
                bad_new.append(p)
            line = "  %-44s %7.2f s %s" % (p, cpu, verdict(rc, "ok", "CONFLICT"))
            if ref and (i % rstride == 0 or p in SLOW):
                rrc, rcpu, _ = timed([ref, "infer", "latest", "--db", db], timeout=limit)
                old.append(rcpu)
                pairs.append((cpu, rcpu))
                if rrc != 0:
                    bad_old.append(p)
                line += "   ref %7.2f s %s" % (rcpu, verdict(rrc, "ok", "CONFLICT"))
            print(line, flush=True)
        print(summary("infer, this engine", new))
        print("  runs not explained: %d %s" % (len(bad_new), " ".join(bad_new)))
        if ref:
            print(summary("infer, reference, its sample", old))
            print(summary("infer, this engine, the same sample", [a for a, _ in pairs]))
            print("  reference runs not explained: %d %s" % (len(bad_old), " ".join(bad_old)))

        print("fit: every 5,000-case file of vectors/ (CPU seconds, mismatches)")
        top = os.path.join(here, "..", "..", "vectors")
        fits, rfits, inexact = [], [], []
        for v in sorted(glob.glob(os.path.join(top, "*.vec"))):
            with open(v) as f:
                n = sum(1 for l in f if l.strip() and not l.startswith("#"))
            if n != 5000:
                continue
            rc, cpu, out = timed([ladder, "fit", v, "-q", "-o", os.path.join(tmp, "m.yaml")])
            fits.append(cpu)
            if rc != 0:
                inexact.append(os.path.basename(v))
            line = "  %-24s %7.2f s %s" % (os.path.basename(v), cpu, verdict(rc, "exact", "MISSES"))
            if ref:
                rrc, rcpu, _ = timed([ref, "fit", v, "-o", os.path.join(tmp, "r.yaml")],
                                     timeout=limit)
                rfits.append(rcpu)
                line += "   ref %7.2f s %s" % (rcpu, verdict(rrc, "exact", "MISSES"))
            print(line, flush=True)
        print(summary("fit, this engine", fits))
        print("  files not fitted exactly: %d %s" % (len(inexact), " ".join(inexact)))
        if ref:
            print(summary("fit, reference", rfits))


if __name__ == "__main__":
    main()
