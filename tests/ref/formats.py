"""Reference data for the number formats, from an independent implementation.

    build/venv/bin/python tests/ref/formats.py build/ref/formats.txt

Writes, for every format of 16 bits or fewer, the meaning of every code as
ml_dtypes and numpy see it, and the expected result of rounding chosen exact
values (ties, the subnormal boundary, overflow, values just above and below
each) in every mode and overflow rule, computed here with exact fractions by
picking among the representable values that ml_dtypes decodes. Nothing here
reads Ladder's code: tests/unit/test_format.c compares Ladder against it.

Lines (fields separated by one space, integers in decimal, words in hex):

    D <format> <code> <class> <sign> <m> <e>
        code decodes to (-1)^sign * m * 2^e, m odd or 0 (e 0 then);
        class zero|subnormal|normal|inf|nan (inf and nan have m = e = 0)
    R <format> <mode> <ovf> <neg> <mag> <exp> <sticky> <word>
        rounding (-1)^neg * (mag * 2^exp + s), 0 < s < 2^exp when sticky,
        gives word; mode rz|rne|ru|rd|rna, ovf inf|sat|ieee
    P <format> <mode> <ovf> <text> <word>
        the decimal text, parsed and rounded, gives word

ue4m3 is e4m3 without its sign bit (7 bits in a byte), so its codes are the
positive codes of float8_e4m3fn. ml_dtypes 0.5 or newer is required.
"""
import bisect
import sys
from fractions import Fraction

import ml_dtypes
import numpy as np

MODES = ["rz", "rne", "ru", "rd", "rna"]
OVFS = ["inf", "sat", "ieee"]


class Fmt:
    """A format as a table of codes: value (Fraction) or 'inf'/'nan'."""

    def __init__(self, name, bits, signed, codes, is_int=False,
                 smallest_normal=None):
        self.name = name
        self.bits = bits
        self.signed = signed
        self.is_int = is_int
        self.codes = codes  # code -> (class, sign, Fraction or None)
        self.smallest_normal = smallest_normal
        self.has_inf = any(c[0] == "inf" for c in codes.values())
        self.has_nan = any(c[0] == "nan" for c in codes.values())
        fin = [(v, s, code) for code, (cls, s, v) in codes.items()
               if cls not in ("inf", "nan")]
        # Magnitudes representable, each with its positive-sign code.
        self.pos = sorted({v: code for v, s, code in fin
                           if s == 0 and v >= 0}.items())
        self.values = [v for v, _ in self.pos]
        self.pos_code = dict(self.pos)
        self.neg_code = {}
        for v, s, code in fin:
            if is_int:
                self.neg_code.setdefault(v, code)
            elif s == 1:
                self.neg_code[-v] = code
        self.inf_code = {s: code for code, (cls, s, v) in codes.items()
                         if cls == "inf"}
        self.nan_pos = min((code for code, (cls, s, v) in codes.items()
                            if cls == "nan" and s == 0), default=None)
        self.nan_neg = min((code for code, (cls, s, v) in codes.items()
                            if cls == "nan" and s == 1), default=None)


def float_table(name, dtype, bits, signed=True, nbits_view=None):
    n = 1 << bits
    raw = np.arange(n, dtype=np.uint16 if bits > 8 else np.uint8)
    vals = raw.view(dtype)
    tiny = Fraction(float(ml_dtypes.finfo(dtype).smallest_normal))
    codes = {}
    isnan = np.isnan(vals.astype(np.float32))
    for code in range(n):
        x = vals[code]
        f = float(x)  # exact: every value of these formats fits a double
        sign = int(np.signbit(x)) if signed else 0
        if isnan[code]:
            codes[code] = ("nan", sign, None)
        elif np.isinf(x):
            codes[code] = ("inf", sign, None)
        else:
            v = Fraction(f)
            if v == 0:
                cls = "zero"
            elif abs(v) < tiny:
                cls = "subnormal"
            else:
                cls = "normal"
            codes[code] = (cls, sign, v)
    return Fmt(name, bits, signed, codes, smallest_normal=tiny)


def ue4m3_table():
    e4m3 = float_table("e4m3", ml_dtypes.float8_e4m3fn, 8)
    codes = {c: e4m3.codes[c] for c in range(128)}
    return Fmt("ue4m3", 7, False, codes, smallest_normal=e4m3.smallest_normal)


def int_table(name, signed):
    raw = np.arange(256, dtype=np.uint8)
    vals = raw.view(np.int8) if signed else raw
    codes = {}
    for code in range(256):
        v = Fraction(int(vals[code]))
        codes[code] = ("zero" if v == 0 else "normal", int(v < 0), v)
    return Fmt(name, 8, signed, codes, is_int=True)


def formats():
    return [
        float_table("bf16", ml_dtypes.bfloat16, 16),
        float_table("f16", np.float16, 16),
        float_table("e4m3", ml_dtypes.float8_e4m3fn, 8),
        float_table("e5m2", ml_dtypes.float8_e5m2, 8),
        float_table("e2m3", ml_dtypes.float6_e2m3fn, 6),
        float_table("e3m2", ml_dtypes.float6_e3m2fn, 6),
        float_table("e2m1", ml_dtypes.float4_e2m1fn, 4),
        float_table("ue8m0", ml_dtypes.float8_e8m0fnu, 8, signed=False),
        ue4m3_table(),
        int_table("s8", True),
        int_table("u8", False),
    ]


def dyadic(v):
    """v = m * 2^e with m odd (or 0, e 0)."""
    v = abs(v)
    if v == 0:
        return 0, 0
    num, den = v.numerator, v.denominator
    assert den & (den - 1) == 0, v
    e = -(den.bit_length() - 1)
    while num % 2 == 0:
        num //= 2
        e += 1
    return num, e


def round_int_unbounded(a, neg, mode):
    """Rounds the magnitude a >= 0 of a value to an integer magnitude."""
    lo = a.numerator // a.denominator
    if lo == a:
        return lo
    hi = lo + 1
    away = (mode == "ru" and not neg) or (mode == "rd" and neg)
    if mode in ("rz", "ru", "rd"):
        return hi if away else lo
    d = a - lo
    if d != Fraction(1, 2):
        return hi if d > Fraction(1, 2) else lo
    if mode == "rna":
        return hi
    return lo if lo % 2 == 0 else hi


def expect_int(f, x, mode, ovf):
    neg = x < 0
    m = round_int_unbounded(abs(x), neg, mode)
    r = -m if neg else m
    lo, hi = (-128, 127) if f.signed else (0, 255)
    if lo <= r <= hi:
        return r & 0xff
    if ovf == "sat":
        return (lo if r < lo else hi) & 0xff
    return r & 0xff  # wrap


def expect_float(f, x, mode, ovf):
    """Expected word for the exact value x (Fraction, sign in `neg_zero`)."""
    neg = x[1]
    a = x[0]
    pos = f.pos
    values = f.values
    vmax, cmax = pos[-1]
    vprev = pos[-2][0]
    ulp = vmax - vprev
    # The grid's step just above the largest value is the step just below
    # it, except when the largest value is a power of two, at the bottom of
    # a binade (ue8m0), where the step doubles.
    if vmax.numerator & (vmax.numerator - 1) == 0 and vmax.denominator == 1 \
            and ulp * 2 == vmax:
        ulp = vmax
    vnext = vmax + ulp
    toward0 = mode == "rz" or (mode == "rd" and not neg) or \
        (mode == "ru" and neg)
    mid = (vmax + vnext) / 2
    if toward0:
        over = a >= vnext
    elif mode in ("ru", "rd"):
        over = a > vmax
    elif mode == "rna":
        over = a >= mid
    else:
        over = a > mid or (a == mid and (cmax % 2 == 1 or f.name == "ue8m0"))

    def word(v):
        return f.neg_code[v] if neg else f.pos_code[v]

    if over:
        sat = ovf == "sat" or (ovf == "ieee" and toward0)
        if sat or (not f.has_inf and not f.has_nan):
            return word(vmax)
        if f.has_inf:
            return f.inf_code[int(neg)]
        return f.nan_neg if neg else f.nan_pos
    i = bisect.bisect_right(values, a)
    lo = values[i - 1]
    if lo == a:
        return word(lo)
    hi = values[i] if i < len(values) else None
    if hi is None:  # above vmax without overflow: only vmax will do
        return word(vmax)
    if toward0:
        r = lo
    elif mode in ("ru", "rd"):
        r = hi
    elif a - lo != hi - a:
        r = lo if a - lo < hi - a else hi
    elif mode == "rna" or f.name == "ue8m0":
        # A tie of a format without fraction bits (ue8m0) goes to the larger
        # power of two, as ml_dtypes' float8_e8m0fnu rounds: the significand
        # of both neighbours is 1, odd, and rounding it up carries.
        r = hi
    else:
        r = lo if f.pos_code[lo] % 2 == 0 else hi
    return word(r)


def interesting(f):
    """Exact magnitudes to round: every representable value and midpoint
    near zero, the smallest normal, one and the top, plus a few beyond."""
    values = [v for v, _ in f.pos]
    n = len(values)
    if n <= 300:
        idx = range(n)
    else:
        tiny = f.smallest_normal
        k = values.index(tiny)
        one = values.index(Fraction(1))
        idx = sorted(set(list(range(0, 12)) + list(range(k - 6, k + 6)) +
                     list(range(one - 4, one + 4)) +
                     list(range(n - 12, n))))
    pts = []
    for i in idx:
        pts.append(values[i])
        if i + 1 < n:
            pts.append((values[i] + values[i + 1]) / 2)
    vmax = values[-1]
    ulp = values[-1] - values[-2]
    for k in (1, 2, 3, 4, 8, 1 << 10, 1 << 40):
        pts.append(vmax + ulp * k / 2)
    if not f.is_int:
        pts.append(values[1] / 2)   # half the smallest nonzero: a tie
        pts.append(values[1] / 4)
        pts.append(values[1] / 1024)
    return sorted(set(p for p in pts if p > 0))


def log2_floor(v):
    """floor(log2(v)) of a positive Fraction."""
    k = v.numerator.bit_length() - v.denominator.bit_length()
    while Fraction(2) ** k > v:
        k -= 1
    while Fraction(2) ** (k + 1) <= v:
        k += 1
    return k


def cases(f):
    """(mag, exp, sticky, exact magnitude) tuples to round."""
    out = []
    values = f.values
    for p in interesting(f):
        m, e = dyadic(p)
        out.append((m, e, 0, p))
        # Just above and just below p: with an exponent E far below the
        # spacing of the grid around p, mag*2^E + s (0 < s < 2^E) lies
        # strictly between p and the next grid point or tie in either
        # direction, so p +- 2^(E-1) stands for every such value.
        i = bisect.bisect_left(values, p)
        gaps = [values[j + 1] - values[j]
                for j in (i - 2, i - 1, i, i + 1) if 0 <= j < len(values) - 1]
        E = min(e, log2_floor(min(gaps))) - 5
        M = p / Fraction(2) ** E
        assert M.denominator == 1
        M = M.numerator
        out.append((M, E, 1, p + Fraction(2) ** (E - 1)))
        out.append((M - 1, E, 1, p - Fraction(2) ** (E - 1)))
    # A bare sticky bit: a tiny positive amount far below everything.
    out.append((0, -200, 1, Fraction(2) ** -201))
    out.append((0, 0, 0, Fraction(0)))
    return out


DECIMALS = ["0", "1", "1.5", "0.1", "0.3", "2.5", "3.5", "1e-3", "1e-10",
            "123.456", "6.1e-5", "65504", "65519", "65520", "65536", "448",
            "464", "465", "480", "500", "57344", "61440", "6", "7", "8",
            "0.25", "0.75", "0.0625", "3.4e38", "1e40", "1e-40", "1e-45",
            "0.5", "127.5", "128.5", "255.5", "256", "1e2", "12e-1", "0x1.8p-3"]


def parse(text):
    """Exact value of a decimal or C hex-float text (float.fromhex is exact
    for the short hex inputs used here)."""
    if "0x" in text:
        return Fraction(float.fromhex(text))
    return Fraction(text)


def main():
    out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
    for f in formats():
        for code in sorted(f.codes):
            cls, sign, v = f.codes[code]
            m, e = dyadic(v) if v is not None else (0, 0)
            out.write(f"D {f.name} {code:x} {cls} {sign} {m} {e}\n")
        for (m, e, sticky, a) in cases(f):
            for neg in (0, 1):
                if neg and not f.signed:
                    continue
                if f.name == "ue8m0" and a < f.pos[0][0]:
                    continue  # below ue8m0's range: no zero to round to
                for mode in MODES:
                    for ovf in OVFS:
                        if f.is_int:
                            w = expect_int(f, -a if neg else a, mode, ovf)
                        else:
                            w = expect_float(f, (a, neg), mode, ovf)
                        out.write(f"R {f.name} {mode} {ovf} {neg} {m} {e} "
                                  f"{sticky} {w:x}\n")
        for text in DECIMALS + ["-" + d for d in DECIMALS]:
            x = parse(text)
            if text[0] == "-" and not f.signed:
                continue
            if f.name == "ue8m0" and abs(x) < f.pos[0][0]:
                continue
            for mode in MODES:
                for ovf in OVFS:
                    if f.is_int:
                        w = expect_int(f, x, mode, ovf)
                    else:
                        w = expect_float(f, (abs(x), x < 0 or text[0] == "-"),
                                         mode, ovf)
                    out.write(f"P {f.name} {mode} {ovf} {text} {w:x}\n")
    out.close()


if __name__ == "__main__":
    main()
