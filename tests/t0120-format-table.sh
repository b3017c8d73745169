#!/bin/sh
# ladder format table and list; every line of every small format's table
# compared with ml_dtypes (tests/ref/formats.py wrote $LADDER_REF/formats.txt).
. tests/lib.sh

run_ladder format table e2m1
expect_rc format-table-e2m1-rc 0
check format-table-e2m1-lines test "$(grep -vc '^#' "$out")" -eq 16
expect_out format-table-e2m1-max '^7 +normal +\+ +6 +3\*2\^1$'
expect_out format-table-e2m1-header '^# e2m1 = e2m1:bias=1,sub=ieee,inf=none,nan=none: 16 codes$'

run_ladder format table bf16
check format-table-bf16-lines test "$(grep -vc '^#' "$out")" -eq 65536
run_ladder format table ue4m3
check format-table-ue4m3-lines test "$(grep -vc '^#' "$out")" -eq 128
expect_usage_error format-table-too-wide table f32
expect_usage_error format-table-no-format table
expect_usage_error format-table-extra table e2m1 e4m3

run_ladder format list
expect_rc format-list-rc 0
for f in f32 tf32 bf16 f16 e4m3 e5m2 e2m3 e3m2 e2m1 ue8m0 ue4m3 s8 u8 s32; do
    expect_out "format-list-$f" "^$f +"
done
expect_out format-list-tf32-spec '^tf32 +e8m10:bias=127,sub=ieee,inf=ieee,nan=ieee,pad=13,width=32$'

# The table as printed, against the reference: class, sign, the exact
# decimal and the significand*2^exponent column, for every code.
ref=${LADDER_REF:-build/ref}/formats.txt
py=${VENV:-build/venv}/bin/python
if [ ! -s "$ref" ] || [ ! -x "$py" ]; then
    fail format-table-reference "no '$ref' or '$py' (run through 'make test')"
    test_done
fi
for f in bf16 f16 e4m3 e5m2 e2m3 e3m2 e2m1 ue8m0 ue4m3 s8 u8; do
    "$LADDER" format table "$f" >"$TMP/table" 2>&1
    if detail=$("$py" - "$ref" "$f" "$TMP/table" <<'PY'
import sys
from fractions import Fraction
ref, name, table = sys.argv[1:]
want = {}
for line in open(ref):
    p = line.split()
    if p[0] == "D" and p[1] == name:
        want[int(p[2], 16)] = p[3:]
seen = 0
for line in open(table):
    if line.startswith("#"):
        continue
    word, cls, sign, dec, sig = line.split()
    code = int(word, 16)
    rcls, rsign, m, e = want.pop(code)
    exact = Fraction(int(m)) * Fraction(2) ** int(e) * (-1 if rsign == "1" else 1)
    ok = cls == rcls and sign == "+-"[int(rsign)]
    if ok and cls == "nan":
        ok = dec == "nan" and sig == "-"
    elif ok and cls == "inf":
        ok = dec == ("-inf" if rsign == "1" else "inf") and sig == "-"
    elif ok:
        sm, se = sig.split("*2^")
        ok = Fraction(dec) == exact and \
            Fraction(int(sm)) * Fraction(2) ** int(se) == exact and \
            dec.startswith("-") == (rsign == "1")
    if not ok:
        print(f"code {word}: printed '{line.strip()}', reference {rcls} {rsign} {m}*2^{e}")
        sys.exit(1)
    seen += 1
if want or seen == 0:
    print(f"{len(want)} codes missing from the table, {seen} seen")
    sys.exit(1)
PY
    ); then
        ok "format-table-$f-matches-ml-dtypes"
    else
        fail "format-table-$f-matches-ml-dtypes" "$detail"
    fi
done

# A spec whose base names a built-in of another width (ue4m3 is 8 bits)
# prints its width, so that the spec printed parses back to 7 bits (128
# codes), not to the built-in (256).
run_ladder format table ue4m3:width=7
expect_out format-table-user-width "^# ue4m3 = ue4m3:.*,width=7: 128 codes$"
spec=$(sed -n '1s/^# ue4m3 = \([^ ]*\): .*/\1/p' "$out")
run_ladder format table "$spec"
expect_out format-table-user-width-back "^# ue4m3 = .*: 128 codes$"
# Integers have no exponent: bias, sub, inf and nan are refused, not dropped.
run_ladder format table s8:bias=3
expect_err format-table-int-bias "'bias' is not a key of integer format 's8:bias=3'"
test_done
