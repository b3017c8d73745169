#!/usr/bin/env python3
"""`make bench`: the CPU time of `ladder infer` to a conflict, on devices
outside the model family, this engine beside a reference one.

    python3 tests/bench/conflict.py LADDER [REF_LADDER]

Each device is an exec oracle around `LADDER eval --model
sm90-mma-bf16-f32` (tests/data/oracle-flip.sh) or of its own: one that
flips the lowest bit of 1% of the answers (two cases with the same inputs
then get two words), one that flips it in every answer, one that
answers every case with its C word (tests/data/oracle-c.sh), and one that
rounds D's ties away from zero (the preset with `d_round: rna`, legal in
a model file and outside every row's candidates: no stored case proves
it outside the family, so its conflict is the whole search). The ladder
of a recipe from tests/data/recipe-gen.sh (8,192 random cases) runs on each
into a store of its own (--no-decide: the conflict is what is timed), and
`ladder infer` is timed on it: CPU seconds (user + system of the child),
its verdict and how many stored cases the nearest model explains. With
REF_LADDER (`make bench` builds the engine of BENCH_CONFLICT_REF), the
reference infers on the same store, within LADDER_BENCH_REF_LIMIT seconds
(default 600). The target (docs/performance.md): a conflict within 5 s
of CPU. Nothing here fails on time.
"""
import os
import re
import resource
import subprocess
import sys
import tempfile


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def infer(ladder, db, timeout=None):
    """(what infer said, CPU seconds) on the store db."""
    t0 = cpu_children()
    try:
        p = subprocess.run([ladder, "infer", "latest", "--db", db], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, text=True)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", cpu_children() - t0
    cpu = cpu_children() - t0
    if p.returncode == 0:
        return "no conflict", cpu
    m = re.search(r"conflict: (fits no model|no model found within reach)", p.stderr)
    near = re.search(r"nearest model +reproduces (\d+) of (\d+)", p.stdout)
    said = m.group(1) if m else "exit %d" % p.returncode
    if near:
        said += ", nearest %s/%s" % near.groups()
    return said, cpu


def main():
    ladder = os.path.abspath(sys.argv[1])
    ref = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    limit = float(os.environ.get("LADDER_BENCH_REF_LIMIT", "600"))
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    preset = "sm90-mma-bf16-f32"
    flip = "sh %s/oracle-flip.sh %%d 1 %s %s" % (data, ladder, preset)
    print("conflicts: CPU seconds of ladder infer to its verdict (%s, 8,192 random cases)"
          % preset)
    with tempfile.TemporaryDirectory() as tmp:
        rna = os.path.join(tmp, "rna.yaml")
        shown = subprocess.run([ladder, "model", "show", preset], stdout=subprocess.PIPE,
                               text=True, check=True).stdout
        with open(rna, "w") as f:
            f.write(re.sub(r"(?m)^d_round: .*$", "d_round: rna", shown))
        devices = [("flips 1% of the words", "exec:" + flip % 1),
                   ("flips every word", "exec:" + flip % 100),
                   ("answers C", "exec:sh %s/oracle-c.sh" % data),
                   ("rounds D's ties away", "exec:%s eval --model %s" % (ladder, rna))]
        recipe = os.path.join(tmp, "r.yaml")
        with open(recipe, "w") as f:
            subprocess.run(["sh", os.path.join(data, "recipe-gen.sh"), ladder, preset, "8192"],
                           stdout=f, check=True)
        for i, (name, dev) in enumerate(devices):
            db = os.path.join(tmp, "%d.db" % i)
            subprocess.run([ladder, "run", recipe, "--db", db, "--device", dev, "--no-decide",
                            "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            said, cpu = infer(ladder, db)
            line = "  %-24s %7.2f s  %s" % (name, cpu, said)
            if ref:
                rsaid, rcpu = infer(ref, db, timeout=limit)
                line += "   ref %7.2f s  %s" % (rcpu, rsaid)
            print(line, flush=True)


if __name__ == "__main__":
    main()
