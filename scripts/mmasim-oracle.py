#!/usr/bin/env python3
"""MMA-Sim (PyPI mmasim 2.1.1, MIT) as an exec device for ladder.

    exec-framed:python3 scripts/mmasim-oracle.py --model <preset or model file>

Reads vector lines (docs/vector-format.md), framed `@<n> A;B;C[;sa;sb;meta]`
or bare, and answers each with MMA-Sim's D word in the same frame. Lines are
read as they come and every batch that is waiting is evaluated in one call of
the MMA-Sim operation, because a torch call costs far more than a case: ladder
writes up to 256 lines ahead, so a batch is usually that many.

The MMA-Sim operation is chosen from the model's fields (arch, instr, kind,
shape, sass, formats, scale_block), never from its name, so a model file or a
preset added later maps the same way. A datapath MMA-Sim does not model is an
error at start (exit 3), naming the field that decided it.

--record FILE also writes every case with its answer as a vector line
(A;B;C;D[;sa;sb;meta]), --fill LIST answers whole files of cases for many datapaths in one process
(torch starts once; scripts/mmasim-answers.sh makes vectors/mmasim/ so).
--describe prints the mapping and exits.
"""
import argparse
import os
import select
import subprocess
import sys


class Unmodelled(Exception):
    """A datapath MMA-Sim has no operation for."""


def fail(msg, code=3):
    sys.stderr.write("mmasim-oracle: %s\n" % msg)
    sys.exit(code)


def read_model(spec, ladder):
    """The model's `key: value` fields, from `ladder model show`, which
    accepts a preset or a model file and resolves both the same way."""
    try:
        out = subprocess.run([ladder, "model", "show", spec], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail("cannot read model '%s' with '%s': %s" % (spec, ladder, e))
    fields = {}
    for line in out.splitlines():
        if line.startswith("#") or ":" not in line:
            continue
        key, val = line.split(":", 1)
        fields[key.strip()] = val.strip().strip('"')
    return fields


def fmt_name(val):
    """A format field is a name or an inline spec `{name: e8m13, ...}`."""
    if val.startswith("{"):
        for part in val.strip("{}").split(","):
            k, _, v = part.partition(":")
            if k.strip() == "name":
                return v.strip()
    return val


NV_ARCH = {70: "Volta", 75: "Turing", 80: "Ampere", 86: "Ampere", 87: "Ampere",
           89: "Ada Lovelace", 90: "Hopper", 100: "Blackwell",
           120: "RTX Blackwell", 121: "RTX Blackwell"}
AMD_ARCH = {"gfx908": "CDNA1", "gfx90a": "CDNA2", "gfx942": "CDNA3"}
# ladder's names for AMD's fp8 formats (OCP names are e4m3/e5m2; the fnuz
# variants AMD uses carry these spellings too)
AMD_FP8 = {"e4m3": "fp8", "e5m2": "bf8", "e4m3fnuz": "fp8", "e5m2fnuz": "bf8",
           "fp8": "fp8", "bf8": "bf8"}


class Datapath:
    """How one ladder datapath is asked of MMA-Sim."""

    def __init__(self, f):
        import torch
        self.torch = torch
        self.a, self.b = fmt_name(f["a"]), fmt_name(f["b"])
        self.c, self.d = fmt_name(f["c"]), fmt_name(f["d"])
        self.k = int(f["k"])
        self.block = int(f.get("scale_block", "0"))
        self.sa, self.sb = f.get("sa", ""), f.get("sb", "")
        if f.get("sparse", "none") != "none":
            raise Unmodelled("sparse datapaths are not modelled by MMA-Sim (sparse: %s)"
                 % f["sparse"])
        if f.get("integer", "false") == "true":
            raise Unmodelled("integer datapaths are not modelled by MMA-Sim")
        arch = f.get("arch", "")
        if arch.startswith("gfx"):
            self.amd = True
            self._amd(f, arch)
        else:
            self.amd = False
            self._nv(f, arch)

    def _nv(self, f, arch):
        from mmasim import nv_ptx
        digits = "".join(ch for ch in arch if ch.isdigit())
        if digits and int(digits) not in NV_ARCH:
            raise Unmodelled("arch '%s' has no MMA-Sim architecture" % arch)
        self.arch = NV_ARCH.get(int(digits or 0))
        if self.arch is None:
            raise Unmodelled("arch '%s' has no MMA-Sim architecture" % arch)
        instr, kind, shape = f["instr"], f.get("kind", ""), f["shape"]
        # D words of an e8m13 datapath sit in an f32 container; MMA-Sim
        # names the type f32 and applies the e8m13 cut itself
        d = "f32" if self.d.startswith("e8m") else self.d
        a, b = self.a, self.b
        self.packed = False
        if instr.startswith("tcgen05"):
            if not kind:
                raise Unmodelled("tcgen05 model without a kind")
            if self.block:
                s = "ue4m3" if self.sa == "ue4m3" else "ue8m0"
                name = "%s.kind::%s.block%d.%s.%s.%s.%s" % (
                    shape, kind, self.block, d, a, b, s)
                self.op = nv_ptx.TCGen05MMABlockScale(self.arch, name)
                self.packed = kind in ("mxf4", "mxf4nvf4")
            else:
                name = "%s.kind::%s.%s.%s.%s" % (shape, kind, d, a, b)
                self.op = nv_ptx.TCGen05MMA(self.arch, name)
        elif instr.startswith("wgmma"):
            name = "%s.%s.%s.%s" % (shape, d, a, b)
            self.op = nv_ptx.WGMMA(self.arch, name)
        elif instr.startswith("mma"):
            if self.block:
                s = "ue4m3" if self.sa == "ue4m3" else "ue8m0"
                name = "%s.kind::%s.block%d.%s.%s.%s.%s.%s" % (
                    shape, kind, self.block, d, a, b, d, s)
                self.op = nv_ptx.MMABlockScale(self.arch, name)
                self.packed = kind in ("mxf4", "mxf4nvf4")
            elif kind:
                name = "%s.kind::%s.%s.%s.%s.%s" % (shape, kind, d, a, b, d)
                self.op = nv_ptx.MMA(self.arch, name)
            else:
                name = "%s.%s.%s.%s.%s" % (shape, d, a, b, d)
                self.op = nv_ptx.MMA(self.arch, name)
        else:
            raise Unmodelled("instr '%s' has no MMA-Sim operation" % instr)
        self.name = "%s %s" % (self.arch, name)
        if self.op.k != self.k:
            raise Unmodelled("MMA-Sim's %s has K=%d, the model k=%d"
                             % (name, self.op.k, self.k))

    def _amd(self, f, arch):
        from mmasim import amd
        from mmasim.amd.isa_mfma import arch_mfma_suffix
        self.arch = AMD_ARCH.get(arch)
        if self.arch is None:
            raise Unmodelled("arch '%s' has no MMA-Sim architecture" % arch)
        suffixes = arch_mfma_suffix[self.arch]
        # the mnemonic names the instruction exactly; else build the suffix
        # from shape and formats in each generation's spelling
        cands = []
        sass = f.get("sass", "")
        if sass.startswith("v_mfma_"):
            cands.append(sass[len("v_mfma_"):])
        sh = f["shape"]
        a = AMD_FP8.get(self.a, self.a)
        b = AMD_FP8.get(self.b, self.b)
        if self.a == "tf32":
            a = b = "xf32"
        cands += ["%s_%s%s" % (self.d, sh, a), "%s_%s%s_1k" % (self.d, sh, a),
                  "%s_%s_%s" % (self.d, sh, a), "%s_%s_%s_%s" % (self.d, sh, a, b)]
        for s in cands:
            if s in suffixes:
                self.op = amd.MFMA(self.arch, s)
                break
        else:
            raise Unmodelled("no %s mfma suffix for sass '%s', shape '%s', "
                             "%s x %s -> %s" % (self.arch, sass, sh, self.a,
                                                self.b, self.d))
        self.name = "%s v_mfma_%s" % (self.arch, s)
        self.packed = False
        if self.op.k != self.k:
            raise Unmodelled("MMA-Sim's v_mfma_%s has K=%d, the model k=%d"
                             % (s, self.op.k, self.k))

    # Words become tensors by reinterpreting their bits (view), never by
    # converting values, so every encoding (NaN payloads, -0) reaches
    # MMA-Sim as the hardware would see it.
    def operand(self, rows, fmt, dtype):
        torch = self.torch
        if fmt in ("f32", "tf32"):
            t = torch.tensor([[w - (1 << 32) if w >> 31 else w for w in r]
                              for r in rows], dtype=torch.int32)
            return t.view(torch.float32)
        if fmt in ("f16", "bf16"):
            t = torch.tensor([[w - (1 << 16) if w >> 15 else w for w in r]
                              for r in rows], dtype=torch.int16)
            return t.view(torch.float16 if fmt == "f16" else torch.bfloat16)
        if dtype == torch.uint8:
            if self.packed:  # two e2m1 per byte, the first lane high
                rows = [[r[i] << 4 | r[i + 1] for i in range(0, len(r), 2)]
                        for r in rows]
            elif fmt == "e2m1":  # MMA-Sim keeps fp4 in bits 5:2
                rows = [[w << 2 for w in r] for r in rows]
            return torch.tensor(rows, dtype=torch.uint8)
        return torch.tensor(rows, dtype=torch.uint8).view(dtype)

    def scales(self, rows, fmt):
        torch = self.torch
        dt = torch.float8_e4m3fn if fmt == "ue4m3" else torch.float8_e8m0fnu
        return torch.tensor(rows, dtype=torch.uint8).view(dt)

    def words(self, d):
        torch = self.torch
        if d.dtype == torch.float16:
            return [w & 0xFFFF for w in d.view(torch.int16).tolist()]
        return [w & 0xFFFFFFFF for w in d.view(torch.int32).tolist()]

    def evaluate(self, cases):
        """D words of the cases (lists of ints: a, b, c, sa, sb)."""
        op, torch = self.op, self.torch
        a = self.operand([c[0] for c in cases], self.a, op.a_type)
        b = self.operand([c[1] for c in cases], self.b, op.b_type)
        cw = self.operand([[c[2]] for c in cases], self.c, op.c_type)[:, 0]
        if self.block:
            sa = self.scales([c[3] for c in cases], self.sa)
            sb = self.scales([c[4] for c in cases], self.sb)
            d = op.dpa(a, b, cw, sa, sb)
        else:
            d = op.dpa(a, b, cw)
        return self.words(d)


def parse(line, dp):
    """(frame or None, case) from one input line."""
    frame = None
    if line.startswith("@"):
        frame, _, line = line.partition(" ")
    f = line.split(";")
    if len(f) not in (3, 6):
        fail("bad line (%d fields): '%s'" % (len(f), line[:80]), 4)
    a = [int(w, 16) for w in f[0].split(",")]
    b = [int(w, 16) for w in f[1].split(",")]
    if len(a) != dp.k or len(b) != dp.k:
        fail("line with %d/%d words, the datapath has k=%d" % (len(a), len(b),
                                                                dp.k), 4)
    case = [a, b, int(f[2], 16)]
    if len(f) == 6:
        case += [[int(w, 16) for w in f[3].split(",")],
                 [int(w, 16) for w in f[4].split(",")]]
    return frame, case, f


def serve(dp, record):
    width = 4 if dp.d == "f16" else 8
    fd = sys.stdin.fileno()
    pending = b""
    eof = False
    while not eof:
        # block for the first bytes, then take everything already written
        chunks = [os.read(fd, 1 << 16)]
        if not chunks[0]:
            eof = True
        while not eof and select.select([fd], [], [], 0)[0]:
            c = os.read(fd, 1 << 16)
            if not c:
                eof = True
            chunks.append(c)
        data = pending + b"".join(chunks)
        lines = data.split(b"\n")
        pending = lines.pop() if not eof else b""
        if eof and lines and lines[-1] == b"":
            lines.pop()
        batch = [parse(l.decode().rstrip("\r"), dp) for l in lines if l.strip()]
        if not batch:
            continue
        words = dp.evaluate([c for _, c, _ in batch])
        out = []
        for (frame, _, f), w in zip(batch, words):
            dw = "%0*x" % (width, w)
            out.append("%s %s" % (frame, dw) if frame else dw)
            if record:
                record.write(";".join(f[:3] + [dw] + f[3:]) + "\n")
        sys.stdout.write("\n".join(out) + "\n")
        sys.stdout.flush()


def datapath(spec, ladder):
    """The Datapath of a preset or model file; Unmodelled when MMA-Sim has
    no operation for it (its constructors assert on unknown instructions)."""
    try:
        return Datapath(read_model(spec, ladder))
    except AssertionError as e:
        raise Unmodelled(str(e).split("\n")[0])


def fill(listfile, ladder):
    """Answers whole files of cases, many datapaths in one process (torch
    starts once): each line of listfile is `spec input output`; input holds
    vector lines (framed or bare), output gets them back with MMA-Sim's D.
    A datapath MMA-Sim does not model is reported and gets no output."""
    for line in open(listfile):
        if not line.strip():
            continue
        spec, src, dst = line.split()
        try:
            dp = datapath(spec, ladder)
        except Unmodelled as e:
            print("skip %s: %s" % (spec, e), flush=True)
            continue
        width = 4 if dp.d == "f16" else 8
        batch = [parse(l.rstrip("\r\n"), dp) for l in open(src) if l.strip()]
        words = dp.evaluate([c for _, c, _ in batch])
        with open(dst, "w") as out:
            for (_, _, f), w in zip(batch, words):
                dw = "%0*x" % (width, w)
                out.write(";".join(f[:3] + [dw] + f[3:]) + "\n")
        print("done %s: %d cases (%s)" % (spec, len(batch), dp.name), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="preset or model file")
    ap.add_argument("--ladder", default=os.environ.get("LADDER", "ladder"),
                    help="the ladder binary (default $LADDER, else ladder)")
    ap.add_argument("--record", help="also write case;D lines to this file")
    ap.add_argument("--describe", action="store_true",
                    help="print the MMA-Sim operation and exit")
    ap.add_argument("--fill", metavar="LIST",
                    help="answer files of cases: lines 'spec input output'")
    args = ap.parse_args()
    if not args.model and not args.fill:
        fail("give --model or --fill", 2)
    try:
        import warnings
        warnings.filterwarnings("ignore")
        import torch  # noqa: F401
    except ImportError as e:
        fail("torch is missing (make test-peers builds build/peers): %s" % e)
    if args.fill:
        fill(args.fill, args.ladder)
        return
    try:
        dp = datapath(args.model, args.ladder)
    except Unmodelled as e:
        fail("MMA-Sim does not model '%s': %s" % (args.model, e))
    if args.describe:
        print(dp.name)
        return
    record = open(args.record, "w") if args.record else None
    try:
        serve(dp, record)
    finally:
        if record:
            record.close()


if __name__ == "__main__":
    main()
