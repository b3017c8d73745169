#!/bin/sh
# ladder validate --gen: the named generators of probes/gen.h draw what they
# claim. The cases each one sends to a device (recorded by an exec device
# that tees its input) are decoded by ml_dtypes (build/venv) and checked
# with exact rationals in Python, independently of ladder's decoder:
#   near-zero  (sm80-mma-bf16-f32, sm100-tcgen05-mxf4-e2m1-f32): finite
#              words only; the largest product (scales included) within
#              2^-180..2^-124; zero lanes in most cases; C zero or below
#              2^-120.
#   scale-edge (sm100-tcgen05-mxf4nvf4-ue4m3-f32): one block's scale pair
#              is the largest; C is minus that block's exact sum within
#              four units of C's last place.
# Also: the generator is stored with the validation, mix is the default
# stream, and wrong uses are usage errors.
. tests/lib.sh
py=${VENV:-build/venv}/bin/python

# record P GEN CASES: the cases `validate --gen GEN` draws for P, in $TMP/P-GEN.in
record() {
    rm -f "$TMP/rec.db"
    run_ladder validate --model "$1" --gen "$2" --cases "$3" --seed 7 -q --db "$TMP/rec.db" \
        --device "exec-framed:tee '$TMP/$1-$2.in' | '$LADDER' eval --model '$1'"
}

cat > "$TMP/check.py" <<'PY'
import sys
from fractions import Fraction as Fr
import numpy as np, ml_dtypes

kind, path = sys.argv[1], sys.argv[2]

def words(field):
    return [int(x, 16) for x in field.split(",")] if field else []

def bf16(w):
    return Fr(float(np.array([w], np.uint16).view(ml_dtypes.bfloat16)[0]))

def f32(w):
    return Fr(float(np.array([w], np.uint32).view(np.float32)[0]))

def e2m1(w):
    return Fr(float(np.array([w], np.uint8).view(ml_dtypes.float4_e2m1fn)[0]))

def ue8m0(w):
    return Fr(float(np.array([w], np.uint8).view(ml_dtypes.float8_e8m0fnu)[0]))

def ue4m3(w):  # bit 7 ignored
    return Fr(float(np.array([w & 0x7F], np.uint8).view(ml_dtypes.float8_e4m3fn)[0]))

def finite32(w):
    return (w >> 23) & 0xFF != 0xFF

cases = []
for line in open(path):
    line = line.strip()
    if line.startswith("@"):
        line = line.split(" ", 1)[1]
    f = line.split(";")
    cases.append((words(f[0]), words(f[1]), int(f[2], 16),
                  words(f[3]) if len(f) > 3 else [], words(f[4]) if len(f) > 4 else []))
bad = []
if kind.startswith("near-zero"):
    dec, sdec, block = (bf16, None, 0) if kind == "near-zero-bf16" else (e2m1, ue8m0, 32)
    withzero = 0
    for i, (a, b, c, sa, sb) in enumerate(cases):
        if kind == "near-zero-bf16" and any((w >> 7) & 0xFF == 0xFF for w in a + b):
            bad.append((i, "a NaN or Inf operand"))
            continue
        if not finite32(c):
            bad.append((i, "C not finite"))
            continue
        prods = []
        for j in range(len(a)):
            p = dec(a[j]) * dec(b[j])
            if block:
                p *= sdec(sa[j // block]) * sdec(sb[j // block])
            prods.append(abs(p))
        withzero += any(p == 0 for p in prods)
        top = max(prods)
        if not Fr(2) ** -180 <= top < Fr(2) ** -124:
            bad.append((i, "largest product %s" % float(top)))
        if abs(f32(c)) >= Fr(2) ** -120:
            bad.append((i, "C = %s" % float(f32(c))))
    if withzero * 2 < len(cases):
        bad.append((-1, "zero lanes in only %d of %d cases" % (withzero, len(cases))))
else:  # scale-edge, NVFP4: blocks of 16, ue4m3 scales
    for i, (a, b, c, sa, sb) in enumerate(cases):
        pairs = [ue4m3(x) * ue4m3(y) for x, y in zip(sa, sb)]
        sums = [sum(e2m1(a[j]) * e2m1(b[j]) for j in range(16 * k, 16 * k + 16)) * pairs[k]
                for k in range(len(pairs))]
        top = max(range(len(pairs)), key=lambda k: pairs[k])
        s = sums[top]
        if s == 0:
            continue
        cv = f32(c)
        # a unit of C's last place, for |C| in [2^e, 2^(e+1)): 2^(e-23)
        e = (c >> 23) & 0xFF
        ulp = Fr(2) ** (max(e, 1) - 150)
        if abs(cv + s) > 4 * ulp:
            bad.append((i, "C %s, top block %s" % (float(cv), float(s))))
print("%d cases, %d bad" % (len(cases), len(bad)))
for x in bad[:5]:
    print("case %d: %s" % x)
sys.exit(1 if bad or not cases else 0)
PY

record sm80-mma-bf16-f32 near-zero 2000
expect_rc validate-gen-near-zero-runs 0
check validate-gen-near-zero-bf16 "$py" "$TMP/check.py" near-zero-bf16 "$TMP/sm80-mma-bf16-f32-near-zero.in"
[ "$(sqlite3 "$TMP/rec.db" 'SELECT generator FROM validations')" = near-zero:raw=0 ] &&
    ok validate-gen-stored || fail validate-gen-stored "$(sqlite3 "$TMP/rec.db" 'SELECT generator FROM validations')"
record sm100-tcgen05-mxf4-e2m1-f32 near-zero 1000
check validate-gen-near-zero-mxf4 "$py" "$TMP/check.py" near-zero-mxf4 "$TMP/sm100-tcgen05-mxf4-e2m1-f32-near-zero.in"
record sm100-tcgen05-mxf4nvf4-ue4m3-f32 scale-edge 1000
check validate-gen-scale-edge-nvfp4 "$py" "$TMP/check.py" scale-edge "$TMP/sm100-tcgen05-mxf4nvf4-ue4m3-f32-scale-edge.in"

# mix is the default stream, stored under its old name
record sm90-mma-bf16-f32 mix 300
rm -f "$TMP/rec.db"
run_ladder validate --model sm90-mma-bf16-f32 --cases 300 --seed 7 -q --db "$TMP/rec.db" \
    --device "exec-framed:tee '$TMP/default.in' | '$LADDER' eval --model sm90-mma-bf16-f32"
check validate-gen-mix-default cmp -s "$TMP/default.in" "$TMP/sm90-mma-bf16-f32-mix.in"
[ "$(sqlite3 "$TMP/rec.db" 'SELECT generator FROM validations')" = gen1:raw=50 ] &&
    ok validate-gen-mix-stored || fail validate-gen-mix-stored "$(sqlite3 "$TMP/rec.db" 'SELECT generator FROM validations')"
# another generator draws other cases
check validate-gen-differs sh -c "! cmp -s '$TMP/default.in' '$TMP/sm80-mma-bf16-f32-near-zero.in'"

expect_usage_error validate-gen-unknown validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --gen nearzero
run_ladder validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --gen scale-edge --db "$TMP/x.db" -q --cases 10
expect_rc validate-gen-refused-rc 2
expect_err validate-gen-refused 'scale-edge draws scales; this datapath is not block-scaled'
expect_usage_error validate-gen-resume validate --resume latest --gen near-zero --db "$TMP/rec.db"

test_done
