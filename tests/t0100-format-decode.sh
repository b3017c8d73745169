#!/bin/sh
# ladder format decode: class, sign and exact value of words, against values
# worked out by hand from each format's definition.
. tests/lib.sh

# decode_is NAME FORMAT WORD "CLASS SIGN DECIMAL SIGNIFICAND*2^EXP"
decode_is() {
    run_ladder format decode "$2" "$3"
    _got=$(tr -s ' ' <"$out")
    if [ "$rc" -eq 0 ] && [ "$_got" = "$3 $4" ]; then
        ok "$1"
    else
        fail "$1" "exit $rc, got '$_got', expected '$3 $4'"
    fi
}

decode_is format-decode-e4m3-448 e4m3 7e "normal + 448 14*2^5"
decode_is format-decode-e4m3-nan e4m3 7f "nan + nan -"
decode_is format-decode-e4m3-neg-nan e4m3 ff "nan - nan -"
decode_is format-decode-e4m3-zero e4m3 00 "zero + 0 0*2^-9"
decode_is format-decode-e4m3-neg-zero e4m3 80 "zero - -0 -0*2^-9"
decode_is format-decode-e4m3-min-sub e4m3 01 "subnormal + 0.001953125 1*2^-9"
decode_is format-decode-e4m3-min-normal e4m3 08 "normal + 0.015625 8*2^-9"
decode_is format-decode-e5m2-inf e5m2 7c "inf + inf -"
decode_is format-decode-e5m2-neg-inf e5m2 fc "inf - -inf -"
decode_is format-decode-e5m2-nan e5m2 7d "nan + nan -"
decode_is format-decode-e5m2-max e5m2 7b "normal + 57344 7*2^13"
decode_is format-decode-bf16-1.5 bf16 3fc0 "normal + 1.5 192*2^-7"
decode_is format-decode-bf16-neg bf16 c049 "normal - -3.140625 -201*2^-6"
decode_is format-decode-f16-max f16 7bff "normal + 65504 2047*2^5"
decode_is format-decode-f16-min-sub f16 0001 "subnormal + 0.000000059604644775390625 1*2^-24"
decode_is format-decode-e2m3-max e2m3 1f "normal + 7.5 15*2^-1"
decode_is format-decode-e3m2-max e3m2 1f "normal + 28 7*2^2"
decode_is format-decode-e2m1-neg-max e2m1 f "normal - -6 -3*2^1"
decode_is format-decode-e2m1-half e2m1 1 "subnormal + 0.5 1*2^-1"
decode_is format-decode-ue8m0-one ue8m0 7f "normal + 1 1*2^0"
decode_is format-decode-ue8m0-nan ue8m0 ff "nan + nan -"
decode_is format-decode-ue8m0-max ue8m0 fe "normal + 170141183460469231731687303715884105728 1*2^127"
decode_is format-decode-ue4m3-max ue4m3 7e "normal + 448 14*2^5"
# fnuz (AMD CDNA3): bias 8 / 16, no Inf, no -0: the -0 word is the one NaN
decode_is format-decode-e4m3fnuz-max e4m3fnuz 7f "normal + 240 15*2^4"
decode_is format-decode-e4m3fnuz-neg-max e4m3fnuz ff "normal - -240 -15*2^4"
decode_is format-decode-e4m3fnuz-nan e4m3fnuz 80 "nan - nan -"
decode_is format-decode-e4m3fnuz-min-sub e4m3fnuz 01 "subnormal + 0.0009765625 1*2^-10"
decode_is format-decode-e5m2fnuz-max e5m2fnuz 7f "normal + 57344 7*2^13"
decode_is format-decode-e5m2fnuz-nan e5m2fnuz 80 "nan - nan -"
decode_is format-decode-e5m2fnuz-min-normal e5m2fnuz 04 "normal + 0.000030517578125 4*2^-17"
decode_is format-decode-s8-min s8 80 "normal - -128 -128*2^0"
decode_is format-decode-u8-max u8 ff "normal + 255 255*2^0"
decode_is format-decode-s32-neg-one s32 ffffffff "normal - -1 -1*2^0"
decode_is format-decode-f32-one f32 3f800000 "normal + 1 8388608*2^-23"
decode_is format-decode-tf32-low-bits-ignored tf32 3f801fff "normal + 1 1024*2^-10"
decode_is format-decode-spec-e3m4-one e3m4 30 "normal + 1 16*2^-4"
decode_is format-decode-spec-no-inf 'e5m2:inf=none,nan=ones' 7c "normal + 65536 4*2^14"
decode_is format-decode-spec-no-inf-nan 'e5m2:inf=none,nan=ones' 7f "nan + nan -"
decode_is format-decode-spec-bias 'e4m3:bias=8' 38 "normal + 0.5 8*2^-4"

# Several words at once, one line each; 0x prefix and capitals accepted.
run_ladder format decode f16 0x3C00 3c01
expect_rc format-decode-many-rc 0
check format-decode-many-lines test "$(wc -l <"$out")" -eq 2
expect_out format-decode-many-first '^3c00 +normal +\+ +1 '
expect_out format-decode-many-second '^3c01 +normal +\+ +1\.0009765625 '

# 2^-149, the smallest f32 subnormal: 149 digits after the point.
run_ladder format decode f32 1
_v=$(awk '{print $4}' "$out")
case "$_v" in
0.00000000000000000000000000000000000000000000140129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125)
    ok format-decode-f32-min-sub-exact ;;
*) fail format-decode-f32-min-sub-exact "got '$_v'" ;;
esac

expect_usage_error format-decode-too-wide decode e4m3 1ff
expect_usage_error format-decode-not-hex decode e4m3 zz
expect_usage_error format-decode-empty-hex decode e4m3 0x
expect_usage_error format-decode-unknown-format decode e9m9 00
expect_usage_error format-decode-bad-spec decode 'e4m3:bais=7' 00
expect_usage_error format-decode-no-word decode e4m3
expect_usage_error format-no-subcommand
expect_usage_error format-unknown-subcommand frob e4m3
expect_usage_error format-unknown-option decode e4m3 7e --frob
run_ladder format decode e4m3 1ff
expect_err format-decode-too-wide-message "^ladder: word '1ff' does not fit format 'e4m3' \(8 bits\)$"

test_done
