#!/usr/bin/env python3
"""A pure-Python reference of `ladder eval --model sm90-mma-bf16-f32`.

It reads vector lines (A;B;C, bf16 A and B words, an f32 C word) on stdin
and writes one f32 D word per line, the way docs/model.md describes the
datapath: exact products, one pass of 16, the anchor the largest raw
exponent among the nonzero products and C, floored at -133, every term cut
toward zero 25 bits below it, an exact sum, the sum cut toward zero into
f32 (overflow gives Inf). Integers only, one case at a time, written
straight from the text rather than from ladder's code: it is the speed
reference of `make bench` (tests/bench/eval-io.sh) and checks that
ladder's words are its own.
"""
import sys

WINDOW = 25
ANCHOR_MIN = -133
NAN = 0x7FFFFFFF


def decode(w, ebits, mbits):
    """(kind, sign, m, e, r): kind 0 finite, 1 inf, 2 nan."""
    sign = w >> (ebits + mbits)
    field = (w >> mbits) & ((1 << ebits) - 1)
    frac = w & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if field == (1 << ebits) - 1:
        return (2 if frac else 1), sign, 0, 0, 0
    if field == 0:
        r = 1 - bias
        m = frac
    else:
        r = field - bias
        m = frac | (1 << mbits)
    return 0, sign, m, r - mbits, r


def f32_rz(sign, mag, q):
    """The value (-1)^sign * mag * 2^q cut toward zero into an f32 word."""
    if mag == 0:
        return 0
    lead = q + mag.bit_length() - 1
    if lead > 127:
        return (sign << 31) | 0x7F800000
    if lead >= -126:
        shift = mag.bit_length() - 24
        mant = mag >> shift if shift >= 0 else mag << -shift
        return (sign << 31) | ((lead + 127) << 23) | (mant & 0x7FFFFF)
    s = q + 149
    mant = mag << s if s >= 0 else mag >> -s
    return (sign << 31) | mant if mant else 0


def evaluate(a, b, c):
    terms = []
    nan = False
    inf = set()
    for x, y in zip(a, b):
        ka, sa, ma, ea, ra = decode(x, 8, 7)
        kb, sb, mb, eb, rb = decode(y, 8, 7)
        if ka == 2 or kb == 2:
            nan = True
        elif ka == 1 or kb == 1:
            if (ka == 0 and ma == 0) or (kb == 0 and mb == 0):
                nan = True
            else:
                inf.add(sa ^ sb)
        elif ma and mb:
            terms.append((sa ^ sb, ma * mb, ea + eb, ra + rb))
    kc, sc, mc, ec, rc = decode(c, 8, 23)
    if kc == 2:
        nan = True
    elif kc == 1:
        inf.add(sc)
    if nan or len(inf) == 2:
        return NAN
    if inf:
        return (inf.pop() << 31) | 0x7F800000
    if not terms:
        return f32_rz(sc, mc, ec)
    anchor = max(t[3] for t in terms)
    if mc:
        anchor = max(anchor, rc)
    anchor = max(anchor, ANCHOR_MIN)
    q = anchor - WINDOW
    total = 0
    for s, m, e, _ in terms + ([(sc, mc, ec, rc)] if mc else []):
        v = m << (e - q) if e >= q else m >> (q - e)
        total += -v if s else v
    return f32_rz(1 if total < 0 else 0, abs(total), q)


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fa, fb, fc = line.split(";")[:3]
        a = [int(w, 16) for w in fa.split(",")]
        b = [int(w, 16) for w in fb.split(",")]
        out.write("%08x\n" % evaluate(a, b, int(fc, 16)))


if __name__ == "__main__":
    main()
