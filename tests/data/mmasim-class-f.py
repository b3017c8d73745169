"""Class F of docs/findings.md on stored MMA-Sim answers of a CDNA3
e5m2fnuz preset (passes of 16 products):

    python3 mmasim-class-f.py FILE LADDER_WORDS

FILE holds vector lines A;B;C;D with MMA-Sim's D; LADDER_WORDS one word of
ladder's per line. The rule: a NaN or Inf addend of a pass (C, or a NaN or
Inf result of the pass before) is dropped when the pass has no NaN lane
and some product whose exponent e_a + e_b (significands in [1, 2),
subnormals at -15) is 25 or more. Prints the counts and exits 1 unless the
cases the rule names are exactly those where the words differ other than
as two NaNs. Decodes e5m2fnuz by its definition (bias 16, 0x80 the one
NaN, no Inf), with integers only."""
import sys


def exponent(w):
    """e of an e5m2fnuz word's value s * 2^e, 1 <= s < 2 (subnormals at
    -15); None for NaN, and for zero (no product)."""
    if w == 0x80:
        return None
    field, frac = (w >> 2) & 31, w & 3
    if field == 0:
        return -15 if frac else None
    return field - 16


def special32(w):
    return (w >> 23) & 0xFF == 0xFF


def nan32(w):
    return special32(w) and w & 0x7FFFFF != 0


def drops(a, b, c):
    """True when the rule drops an addend and nothing after restores a
    special result."""
    special, dropped = special32(c), False
    for p0 in range(0, len(a), 16):
        top, nanlane = None, False
        for x, y in zip(a[p0:p0 + 16], b[p0:p0 + 16]):
            if x == 0x80 or y == 0x80:
                nanlane = True
                continue
            ex, ey = exponent(x), exponent(y)
            if ex is not None and ey is not None and (top is None or ex + ey > top):
                top = ex + ey
        if nanlane:
            special, dropped = True, False
        elif special and top is not None and top >= 25:
            special, dropped = False, True
    return dropped and not special


def main():
    lines = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    words = [int(w, 16) for w in open(sys.argv[2]).read().split()]
    if len(words) != len(lines):
        sys.exit("%d lines, %d ladder words" % (len(lines), len(words)))
    differ = named = wrong = 0
    for line, lw in zip(lines, words):
        f = line.split(";")
        a = [int(x, 16) for x in f[0].split(",")]
        b = [int(x, 16) for x in f[1].split(",")]
        c, d = int(f[2], 16), int(f[3], 16)
        mis = lw != d and not (nan32(lw) and nan32(d))
        rule = drops(a, b, c)
        differ += mis
        named += rule
        wrong += mis != rule
    print("%d cases: %d differ, the rule names %d, %d disagree" % (len(lines), differ, named, wrong))
    sys.exit(1 if wrong else 0)


main()
