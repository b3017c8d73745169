#!/bin/sh
# ladder format encode: exact decimal and hex values rounded into words, in
# every mode and overflow rule, against words worked out by hand.
. tests/lib.sh

# encode_is NAME EXPECTED-WORD ARGS...
encode_is() {
    _name=$1
    _want=$2
    shift 2
    run_ladder format encode "$@"
    _got=$(cat "$out")
    if [ "$rc" -eq 0 ] && [ "$_got" = "$_want" ] && [ ! -s "$err" ]; then
        ok "$_name"
    else
        fail "$_name" "exit $rc, got '$_got', expected '$_want' ($(_peek "$err"))"
    fi
}

encode_is format-encode-bf16-1.5 3fc0 bf16 1.5 --round rne
# fnuz: -0 has no word of its own (0x80 is the NaN), overflow is the NaN
encode_is format-encode-e4m3fnuz-neg-zero 00 e4m3fnuz -0
encode_is format-encode-e4m3fnuz-tiny-neg 00 e4m3fnuz -1e-9 --round rne
encode_is format-encode-e4m3fnuz-overflow 80 e4m3fnuz 1000 --round rne
encode_is format-encode-e4m3fnuz-neg-max ff e4m3fnuz -240
encode_is format-encode-bf16-neg-0.1 bdcd bf16 -0.1
encode_is format-encode-bf16-1e-3 3a83 bf16 1e-3
encode_is format-encode-bf16-hex-int 467e bf16 0x3f80
encode_is format-encode-bf16-hex-float 3fc0 bf16 0x1.8p0
encode_is format-encode-bf16-inf 7f80 bf16 inf
encode_is format-encode-bf16-neg-inf ff80 bf16 -inf
encode_is format-encode-bf16-nan 7fff bf16 nan
encode_is format-encode-bf16-neg-zero 8000 bf16 -0
encode_is format-encode-f32-0.1 3dcccccd f32 0.1
encode_is format-encode-f32-0.1-rz 3dcccccc f32 0.1 --round rz
encode_is format-encode-f32-0.1-ru 3dcccccd f32 0.1 --round ru
encode_is format-encode-f32-neg-0.1-ru bdcccccc f32 -0.1 --round ru
encode_is format-encode-f32-neg-0.1-rd bdcccccd f32 -0.1 --round rd
encode_is format-encode-f32-min-sub 00000001 f32 1e-45
encode_is format-encode-f32-below-half-min-sub 00000000 f32 7e-46
encode_is format-encode-f32-below-half-min-sub-ru 00000001 f32 7e-46 --round ru
# f16: 65504 is the largest finite value; 65520 is the tie with 2^16.
encode_is format-encode-f16-max 7bff f16 65504
encode_is format-encode-f16-below-tie 7bff f16 65519.999
encode_is format-encode-f16-tie-overflows 7c00 f16 65520
encode_is format-encode-f16-tie-sat 7bff f16 65520 --overflow sat
encode_is format-encode-f16-tie-rz-ieee 7bff f16 65520 --round rz
encode_is format-encode-f16-tie-rz-inf 7bff f16 65520 --round rz --overflow inf
encode_is format-encode-f16-2p16-rz-inf 7c00 f16 65536 --round rz --overflow inf
encode_is format-encode-f16-2p16-rz-ieee 7bff f16 65536 --round rz
encode_is format-encode-f16-neg-rd-ieee fc00 f16 -65520 --round rd
encode_is format-encode-f16-neg-ru-ieee fbff f16 -65520 --round ru
# 2^-25: half the smallest f16 subnormal.
encode_is format-encode-f16-half-min-sub-rne 0000 f16 2.98023223876953125e-8
encode_is format-encode-f16-half-min-sub-rna 0001 f16 2.98023223876953125e-8 --round rna
encode_is format-encode-f16-half-min-sub-neg-rd 8001 f16 -2.98023223876953125e-8 --round rd
# e4m3: 448 = 0x7e is the largest; 480 would be 0x7f, which is NaN.
encode_is format-encode-e4m3-448 7e e4m3 448
encode_is format-encode-e4m3-tie-even 7e e4m3 464
encode_is format-encode-e4m3-tie-rna-nan 7f e4m3 464 --round rna
encode_is format-encode-e4m3-tie-rna-sat 7e e4m3 464 --round rna --overflow sat
encode_is format-encode-e4m3-above-tie-nan ff e4m3 -465
encode_is format-encode-e4m3-sat 7e e4m3 1e6 --overflow sat
encode_is format-encode-e4m3-inf-is-nan 7f e4m3 inf
encode_is format-encode-e4m3-inf-sat 7e e4m3 inf --overflow sat
# e2m1: values 0 0.5 1 1.5 2 3 4 6, codes 0..7.
encode_is format-encode-e2m1-tie-even 6 e2m1 5
encode_is format-encode-e2m1-tie-rna 7 e2m1 5 --round rna
encode_is format-encode-e2m1-quarter-rne 0 e2m1 0.25
encode_is format-encode-e2m1-quarter-ru 1 e2m1 0.25 --round ru
encode_is format-encode-e2m1-neg-quarter-rd 9 e2m1 -0.25 --round rd
encode_is format-encode-e2m1-big-no-inf 7 e2m1 100
# tf32: the top 10 fraction bits of an f32 word; 1 + 2^-11 is a tie.
encode_is format-encode-tf32-tie-rna 3f802000 tf32 1.00048828125 --round rna
encode_is format-encode-tf32-tie-rne 3f800000 tf32 1.00048828125
# integers: round to an integer, wrap unless saturating.
encode_is format-encode-s8-tie-even 80 s8 -128.5
encode_is format-encode-s8-wrap c8 s8 200
encode_is format-encode-s8-sat 7f s8 200 --overflow sat
encode_is format-encode-u8-neg-sat 00 u8 -1 --overflow sat
encode_is format-encode-s32-half-rna fffffffd s32 -2.5 --round rna
# user-defined format: e3m4 has bias 3, so 1.0 is 0x30.
encode_is format-encode-spec-e3m4 30 e3m4 1
encode_is format-encode-many "3c00
c000" f16 1 -2

run_ladder format encode bf16 1.5 0.1 -v
expect_out format-encode-verbose-exact '^3fc0 1\.5 192\*2\^-7 exact$'
expect_out format-encode-verbose-inexact '^3dcd 0\.10009765625 205\*2\^-11 inexact$'
run_ladder format encode f16 1e6 -v
expect_out format-encode-verbose-overflow '^7c00 inf - inexact,overflow$'

expect_usage_error format-encode-not-a-number encode bf16 abc
expect_usage_error format-encode-two-points encode bf16 1.2.3
expect_usage_error format-encode-bad-round encode bf16 1 --round nearest
expect_usage_error format-encode-bad-overflow encode bf16 1 --overflow wrap
expect_usage_error format-encode-round-needs-value encode bf16 1 --round
expect_usage_error format-encode-no-value encode bf16
expect_usage_error format-encode-nan-without-nan encode e2m1 nan
run_ladder format encode bf16 abc
expect_err format-encode-message "^ladder: 'abc' is not a number$"

# e5m2:nan=none keeps finite values in its top exponent field around its
# infinity (0x7c = 2^16): 0x7d..0x7f are 5, 6, 7 * 2^14 (decode says so),
# and encode gives them back. A value that rounds onto the infinity's code
# goes to a neighbour, 0x7b (57344) or 0x7d (81920), by the rounding mode;
# past 0x7f (114688) is the overflow of the mode, infinity under rne.
encode_is format-encode-e5m2-nonan-7d 7d e5m2:nan=none 81920
encode_is format-encode-e5m2-nonan-7e 7e e5m2:nan=none 98304
encode_is format-encode-e5m2-nonan-7f 7f e5m2:nan=none 114688
encode_is format-encode-e5m2-nonan-neg-7d fd e5m2:nan=none -81920
encode_is format-encode-e5m2-nonan-neg-7f ff e5m2:nan=none -114688
encode_is format-encode-e5m2-nonan-hole-rne 7b e5m2:nan=none 65536 --round rne
encode_is format-encode-e5m2-nonan-hole-rz 7b e5m2:nan=none 65536 --round rz
encode_is format-encode-e5m2-nonan-hole-ru 7d e5m2:nan=none 65536 --round ru
encode_is format-encode-e5m2-nonan-hole-rd-neg fd e5m2:nan=none -65536 --round rd
encode_is format-encode-e5m2-nonan-hole-above 7d e5m2:nan=none 69633 --round rne
encode_is format-encode-e5m2-nonan-tie 7b e5m2:nan=none 69632 --round rne
encode_is format-encode-e5m2-nonan-tie-rna 7d e5m2:nan=none 69632 --round rna
encode_is format-encode-e5m2-nonan-overflow 7c e5m2:nan=none 131072 --round rne
encode_is format-encode-e5m2-nonan-overflow-rz 7f e5m2:nan=none 131072 --round rz
# every finite code of the table encodes back to itself
"$LADDER" format table e5m2:nan=none | awk '$1 !~ /^#/ && $2 != "inf" { print $1, $4 }' >"$TMP/codes"
bad=
while read -r code value; do
    got=$("$LADDER" format encode e5m2:nan=none "$value" 2>&1)
    [ "$got" = "$code" ] || bad="$bad $code:$value->$got"
done <"$TMP/codes"
if [ "$(wc -l <"$TMP/codes")" = 254 ] && [ -z "$bad" ]; then
    ok format-encode-e5m2-nonan-round-trip
else
    fail format-encode-e5m2-nonan-round-trip "$(wc -l <"$TMP/codes") codes;$bad"
fi

# nan=ones beside infinities (e5m2:nan=ones): 7c is the infinity, 7f the
# NaN, and 7d (5*2^14 = 81920), 7e (6*2^14 = 98304) are finite, between
# them. Encoding is decoding's inverse; 65536 (7c's place) rounds to a
# neighbour, 7b = 7*2^13 = 57344 being nearer than 7d.
encode_is format-encode-e5m2-ones-7d 7d e5m2:nan=ones 81920
encode_is format-encode-e5m2-ones-7e 7e e5m2:nan=ones 98304
encode_is format-encode-e5m2-ones-neg-7e fe e5m2:nan=ones -98304
encode_is format-encode-e5m2-ones-hole-rne 7b e5m2:nan=ones 65536 --round rne
encode_is format-encode-e5m2-ones-hole-ru 7d e5m2:nan=ones 65536 --round ru
encode_is format-encode-e5m2-ones-top-tie-even 7e e5m2:nan=ones 106496 --round rne
encode_is format-encode-e5m2-ones-overflow 7c e5m2:nan=ones 110000 --round rne
encode_is format-encode-e5m2-ones-overflow-rz 7e e5m2:nan=ones 131072 --round rz
# e4m3 with an infinity: 78 inf, 79..7e finite (9*2^5 .. 14*2^5), 7f NaN
encode_is format-encode-e4m3-inf-79 79 e4m3:inf=ieee 288
encode_is format-encode-e4m3-inf-7e 7e e4m3:inf=ieee 448
# one fraction bit leaves the top field no finite value: e3m1 (bias 3) ends
# at 0d = 3*2^2 = 12, and 16 overflows to the infinity 0e
encode_is format-encode-e3m1-ones-max 0d e3m1:nan=ones 12
encode_is format-encode-e3m1-ones-overflow 0e e3m1:nan=ones 16
# every finite code of the tables encodes back to itself
for spec in e5m2:nan=ones e4m3:inf=ieee e3m2:nan=ones e3m1:nan=ones; do
    "$LADDER" format table "$spec" | awk '$1 !~ /^#/ && ($2 == "normal" || $2 == "subnormal" || $2 == "zero") { print $1, $4 }' >"$TMP/codes"
    bad=
    while read -r code value; do
        got=$("$LADDER" format encode "$spec" "$value" 2>&1)
        [ "$got" = "$code" ] || bad="$bad $code:$value->$got"
    done <"$TMP/codes"
    if [ "$(wc -l <"$TMP/codes")" -gt 8 ] && [ -z "$bad" ]; then
        ok "format-encode-round-trip-$spec"
    else
        fail "format-encode-round-trip-$spec" "$(wc -l <"$TMP/codes") codes;$bad"
    fi
done
# A key given twice is refused, not the last one taken.
expect_usage_error format-encode-key-twice format encode e2m2:nan=none,nan=none,nan=ones 1
expect_err format-encode-key-twice-says "key 'nan' given twice in format 'e2m2:nan=none,nan=none,nan=ones'"

test_done
