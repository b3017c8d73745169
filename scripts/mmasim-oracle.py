#!/usr/bin/env python3
"""MMA-Sim (PyPI mmasim 2.1.1, MIT) as an exec device for ladder.

    exec-framed:python3 scripts/mmasim-oracle.py --model <preset or model file>

Reads vector lines (docs/vector-format.md), framed `@<n> A;B;C[;sa;sb;meta]`
or bare, and answers each with MMA-Sim's D word in the same frame. Lines are
gathered into batches and every batch is evaluated in one call of the MMA-Sim
operation, because a torch call costs far more than a case: a batch is the
lines ladder writes ahead of the answers (LADDER_EXEC_WINDOW, default 256;
make test-peers sets 8192), or fewer when the input pauses.

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
    # MMA-Sim as the hardware would see it. Words arrive as int64 tensors
    # (an f64 word as the int64 of the same 64 bits).
    def operand(self, w, fmt, dtype):
        torch = self.torch
        if fmt == "f64":
            return w.view(torch.float64)
        if fmt in ("f32", "tf32"):
            return (w - ((w >> 31) << 32)).to(torch.int32).view(torch.float32)
        if fmt in ("f16", "bf16"):
            t = (w - ((w >> 15) << 16)).to(torch.int16)
            return t.view(torch.float16 if fmt == "f16" else torch.bfloat16)
        if dtype == torch.uint8:
            if self.packed:  # two e2m1 per byte, the first lane high
                w = w[:, 0::2] << 4 | w[:, 1::2]
            elif fmt == "e2m1":  # MMA-Sim keeps fp4 in bits 5:2
                w = w << 2
            return w.to(torch.uint8)
        return w.to(torch.uint8).view(dtype)

    def scales(self, w, fmt):
        torch = self.torch
        dt = torch.float8_e4m3fn if fmt == "ue4m3" else torch.float8_e8m0fnu
        return w.to(torch.uint8).view(dt)

    def words(self, d):
        torch = self.torch
        if d.dtype == torch.float64:
            return [w & 0xFFFFFFFFFFFFFFFF for w in d.view(torch.int64).tolist()]
        if d.dtype == torch.float16:
            return (d.view(torch.int16).to(torch.int64) & 0xFFFF).tolist()
        return (d.view(torch.int32).to(torch.int64) & 0xFFFFFFFF).tolist()

    def digits(self):
        """Hex digits of a D word, as ladder writes them."""
        return {"f16": 4, "f64": 16}.get(self.d, 8)

    def evaluate(self, cols):
        """D words of a batch: cols holds int64 tensors A, B (n x k), C (n)
        and, for block-scaled kinds, the scales SA, SB (n x blocks)."""
        op = self.op
        a = self.operand(cols[0], self.a, op.a_type)
        b = self.operand(cols[1], self.b, op.b_type)
        cw = self.operand(cols[2][:, None], self.c, op.c_type)[:, 0]
        if self.block:
            d = op.dpa(a, b, cw, self.scales(cols[3], self.sa),
                       self.scales(cols[4], self.sb))
        else:
            d = op.dpa(a, b, cw)
        return self.words(d)


def hex_column(torch, fields, count, what):
    """The int64 tensor (len(fields) x count) of comma-separated hex words.

    Ladder writes every word with its format's fixed number of digits, so
    the whole column is one bytes.fromhex: the commas are checked to sit
    exactly every digits+1 characters (no word longer or shorter, none
    missing). A column that is not so (hand-written lines, unpadded words)
    is read word by word."""
    n = len(fields)
    digits = fields[0].find(",") if count > 1 else len(fields[0])
    s = ",".join(fields)
    if digits > 0 and len(s) == n * count * (digits + 1) - 1 and \
            s.count(",") == n * count - 1 and \
            s[digits::digits + 1] == "," * (n * count - 1):
        if digits % 2:
            s = "0" + s.replace(",", ",0")
            digits += 1
        try:
            raw = bytearray(bytes.fromhex(s.replace(",", "")))
        except ValueError:
            raw = None
        if raw is not None:
            nb = digits // 2
            t = torch.frombuffer(raw, dtype=torch.uint8).to(torch.int64)
            t = t.view(n, count, nb)
            w = t[:, :, 0]
            for i in range(1, nb):
                w = w << 8 | t[:, :, i]
            return w
    rows = []
    for f in fields:
        try:
            # a 64-bit word >= 2^63 as the int64 of the same bits
            r = [(v ^ 1 << 63) - (1 << 63) for v in (int(x, 16) for x in f.split(","))]
        except ValueError:
            fail("bad %s words '%s'" % (what, f[:80]), 4)
        if len(r) != count:
            fail("%s with %d words, the datapath has %d" % (what, len(r),
                                                            count), 4)
        rows.append(r)
    return torch.tensor(rows, dtype=torch.int64)


def parse(lines, dp):
    """(frames, fields, cols) of a batch of input lines: frames the "@<n>"
    of each line (or None), fields each line's ';' fields, cols the
    tensors Datapath.evaluate takes."""
    frames, fields = [], []
    for line in lines:
        frame = None
        if line.startswith("@"):
            frame, _, line = line.partition(" ")
        f = line.split(";")
        if len(f) not in (3, 6):
            fail("bad line (%d fields): '%s'" % (len(f), line[:80]), 4)
        frames.append(frame)
        fields.append(f)
    torch = dp.torch
    cols = [hex_column(torch, [f[0] for f in fields], dp.k, "A"),
            hex_column(torch, [f[1] for f in fields], dp.k, "B"),
            hex_column(torch, [f[2] for f in fields], 1, "C")[:, 0]]
    if dp.block:
        if any(len(f) != 6 for f in fields):
            fail("a block-scaled datapath needs A;B;C;sa;sb;meta lines", 4)
        # one scale per block of K lanes: as many as the first line has
        sa, sb = [f[3] for f in fields], [f[4] for f in fields]
        cols += [hex_column(torch, sa, sa[0].count(",") + 1, "scale_a"),
                 hex_column(torch, sb, sb[0].count(",") + 1, "scale_b")]
    return frames, fields, cols


def window():
    """Lines ladder writes ahead of the answers (LADDER_EXEC_WINDOW, the
    exec device's setting, inherited): the batch worth waiting for."""
    try:
        return max(1, int(os.environ.get("LADDER_EXEC_WINDOW", "256")))
    except ValueError:
        return 256


def serve(dp, record):
    width = dp.digits()
    fd = sys.stdin.fileno()
    want = window()
    pending = b""
    eof = False
    while not eof:
        # block for the first bytes, then take what follows until a whole
        # window of lines is in or the input pauses (the last lines of a
        # batch): one MMA-Sim call per window, however the pipe splits it
        chunks = [os.read(fd, 1 << 16)]
        nl = chunks[0].count(b"\n") + pending.count(b"\n")
        if not chunks[0]:
            eof = True
        while not eof and nl < want and select.select([fd], [], [], 0.02)[0]:
            c = os.read(fd, 1 << 16)
            if not c:
                eof = True
            chunks.append(c)
            nl += c.count(b"\n")
        data = pending + b"".join(chunks)
        lines = data.split(b"\n")
        pending = lines.pop() if not eof else b""
        if eof and lines and lines[-1] == b"":
            lines.pop()
        lines = [l.decode().rstrip("\r") for l in lines if l.strip()]
        if not lines:
            continue
        frames, fields, cols = parse(lines, dp)
        words = dp.evaluate(cols)
        out = []
        for frame, f, w in zip(frames, fields, words):
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
        width = dp.digits()
        lines = [l.rstrip("\r\n") for l in open(src) if l.strip()]
        _, fields, cols = parse(lines, dp)
        words = dp.evaluate(cols)
        with open(dst, "w") as out:
            for f, w in zip(fields, words):
                dw = "%0*x" % (width, w)
                out.write(";".join(f[:3] + [dw] + f[3:]) + "\n")
        print("done %s: %d cases (%s)" % (spec, len(fields), dp.name), flush=True)


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
