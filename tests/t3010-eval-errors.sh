#!/bin/sh
# ladder eval: malformed lines stop it with file:line:col and exit 3, and
# nothing is printed for the bad line.
. tests/lib.sh

good='3c00,0,0,0;3c00,0,0,0;00000000'
printf '%s\n%s\n3c00,0,0,0;3c00,0,0,0;zz\n%s\n' "$good" "$good" "$good" >"$TMP/bad"
run_ladder_in "$TMP/bad" eval --model sm70-mma-f16-f32
expect_rc eval-bad-line-rc 3
expect_out_eq eval-bad-line-stops "3f800000
3f800000"
expect_err eval-bad-line-location '^ladder: <stdin>:3:23: bad hex digit'
expect_err_line eval-bad-line-one-line

run_ladder eval --model sm70-mma-f16-f32 "$TMP/bad"
expect_err eval-bad-line-file-name "^ladder: $TMP/bad:3:23: "

# Each malformed field, at its column.
t() {
    printf '%s\n' "$2" >"$TMP/one"
    run_ladder_in "$TMP/one" eval --model sm70-mma-f16-f32
    if [ "$rc" -eq 3 ] && [ ! -s "$out" ] && grep -Eq -- "^ladder: <stdin>:1:$3: $4" "$err"; then
        ok "$1"
    else
        fail "$1" "rc $rc, stdout '$(_peek "$out")', stderr '$(_peek "$err")'"
    fi
}
t eval-err-fields '3c00,0,0,0;3c00,0,0,0' 22 'expected 3 or 4 fields'
t eval-err-extra-field '3c00,0,0,0;3c00,0,0,0;0;0;0' 27 'expected 3 or 4 fields'
# a scaled line (an export of a block-scaled run) read as an unscaled one
t eval-err-scaled-line '3c00,0,0,0;3c00,0,0,0;0;7f;7f;' 28 \
    "expected 3 or 4 fields .*, got 6: scale_a;scale_b;meta fields need a block-scaled or sparse datapath \(--model\)"
t eval-err-five-no-hint '3c00,0,0,0;3c00,0,0,0;0;0;0' 27 'expected 3 or 4 fields .*, got 5$'
t eval-err-few-words '3c00,0,0;3c00,0,0,0;0' 9 'A has 3 words, expected 4'
t eval-err-many-words '3c00,0,0,0;3c00,0,0,0,0;0' 23 'B has more than 4 words'
t eval-err-wide-word '3c00,0,0,0;13c00,0,0,0;0' 12 "B word '13c00' has 5 hex digits"
t eval-err-empty-word '3c00,,0,0;3c00,0,0,0;0' 6 'empty word in A'
t eval-err-wide-c '3c00,0,0,0;3c00,0,0,0;123456789' 23 "C word '123456789' has 9 hex digits"

# Scaled: the scale fields are required and must be bytes.
zeros31=$(printf ',00%.0s' $(seq 31))
printf '38%s;38%s;00000000\n' "$zeros31" "$zeros31" >"$TMP/mx"
run_ladder_in "$TMP/mx" eval --model sm100-tcgen05-mxf8f6f4-e4m3-f32
expect_rc eval-err-scales-missing-rc 3
expect_err eval-err-scales-missing 'expected 6 or 7 fields'
printf '38%s;38%s;00000000;7f;100;\n' "$zeros31" "$zeros31" >"$TMP/mx"
run_ladder_in "$TMP/mx" eval --model sm100-tcgen05-mxf8f6f4-e4m3-f32
expect_rc eval-err-scale-byte-rc 3
expect_err eval-err-scale-byte "scale_b word '100' has 3 hex digits"

# Model errors.
expect_usage_error eval-no-model eval
run_ladder eval --model no-such-preset "$TMP/bad"
expect_rc eval-unknown-model-rc 2
expect_err eval-unknown-model "'no-such-preset'"
printf 'k: [1, 2\n' >"$TMP/broken.yaml"
run_ladder eval --model "$TMP/broken.yaml" "$TMP/bad"
expect_rc eval-bad-model-file-rc 3
expect_err eval-bad-model-file "^ladder: $TMP/broken.yaml:[0-9]+(:[0-9]+)?: "
run_ladder eval --model sm70-mma-f16-f32 "$TMP/no-such-file"
expect_rc eval-missing-file-rc 3
expect_err eval-missing-file "cannot open '$TMP/no-such-file'"

test_done
