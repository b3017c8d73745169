#!/bin/sh
# ladder check: mismatches are reported with the hardware and model words
# (exit 1); malformed files stop it with a location (exit 3) and print no
# result for that file; --model and the frozen file's per-line presets.
. tests/lib.sh
VEC=vectors
FROZEN=$VEC/b200-tcgen05-frozen.txt

# The header and first 10 cases of a file the model reproduces (its header
# saying so), and a copy whose 3rd case has its D word changed from 4087925b
# to 4087925a.
head -n 20 "$VEC/a100-f16-f32.vec" | sed 's/^# cases: 5000$/# cases: 10/' >"$TMP/good.vec"
grep -q '^# cases: 10$' "$TMP/good.vec" || fail check-data "a100-f16-f32.vec has no '# cases: 5000' line"
sed -n 13p "$TMP/good.vec" | grep -q ';4087925b$' || fail check-data "a100-f16-f32.vec line 13 changed"
sed '13s/;4087925b$/;4087925a/' "$TMP/good.vec" >"$TMP/bad.vec"

run_ladder check "$TMP/good.vec"
expect_rc check-good-rc 0
expect_out_eq check-good-line "$TMP/good.vec: 0/10 mismatches (sm80-mma-f16-f32)"

run_ladder check "$TMP/good.vec" "$TMP/bad.vec"
expect_rc check-mismatch-rc 1
expect_out check-mismatch-count "^$TMP/bad.vec: 1/10 mismatches \(sm80-mma-f16-f32\)$"
expect_out check-mismatch-words '^  line 13: expected 4087925a, got 4087925b: '
expect_out check-good-still-0 "^$TMP/good.vec: 0/10 mismatches"

# --model: the same file against a model that differs (f16 D cannot even
# read the f32 words), and against the right one by name.
run_ladder check --model sm80-mma-f16-f32 "$TMP/good.vec"
expect_out check-model-named "^$TMP/good.vec: 0/10 mismatches \(sm80-mma-f16-f32\)$"
run_ladder check --model sm70-mma-f16-f32 "$TMP/good.vec"
expect_rc check-model-k-rc 3
expect_err check-model-k "k 8 is more than model 'sm70-mma-f16-f32' has"

# Malformed lines: exit 3 with a location, no result line for the file.
sed '12s/;/;;/' "$TMP/good.vec" >"$TMP/broken.vec"
run_ladder check "$TMP/good.vec" "$TMP/broken.vec"
expect_rc check-broken-rc 3
expect_err check-broken-location "^ladder: $TMP/broken.vec:12:[0-9]+: "
expect_out check-broken-earlier-file "^$TMP/good.vec: 0/10"
if grep -q "broken.vec:" "$out"; then fail check-broken-no-result "$(cat "$out")"; else ok check-broken-no-result; fi

grep -v '^# arch' "$TMP/good.vec" >"$TMP/noarch.vec"
run_ladder check "$TMP/noarch.vec"
expect_rc check-no-header-rc 3
expect_err check-no-header "no '# arch:' header line"
sed 's/^# arch: sm_80/# arch: sm_42/' "$TMP/good.vec" >"$TMP/sm42.vec"
run_ladder check "$TMP/sm42.vec"
expect_rc check-no-preset-rc 3
expect_err check-no-preset "no preset 'sm42-mma-f16-f32'"
grep -v '^[0-9a-f]' "$TMP/good.vec" >"$TMP/nod.vec"
grep '^[0-9a-f]' "$TMP/good.vec" | cut -d';' -f1-3 >>"$TMP/nod.vec"
run_ladder check "$TMP/nod.vec"
expect_rc check-no-d-rc 3
expect_err check-no-d "nod.vec:11:[0-9]+: no D word to check"

# The frozen file: per-line presets, or only the lines of one model. The
# file holds 7 tf32 lines (5 specials, a low-payload and a floor case).
run_ladder check --model sm100-tcgen05-tf32-f32 "$FROZEN"
expect_out check-frozen-model "^$FROZEN: 0/7 mismatches \(sm100-tcgen05-tf32-f32\)$"
run_ladder check --model sm70-mma-f16-f32 "$FROZEN"
expect_rc check-frozen-no-lines-rc 2
expect_err check-frozen-no-lines "no line is for model 'sm70-mma-f16-f32'"

{ grep '^#' "$FROZEN"; grep '^bf16-nan|' "$FROZEN"; } >"$TMP/frozen.txt"
run_ladder check "$TMP/frozen.txt"
expect_out_eq check-frozen-one "$TMP/frozen.txt: 0/1 mismatches (sm100-tcgen05-bf16-f32)"
{ grep '^#' "$FROZEN"; grep '^bf16-nan|' "$FROZEN" | sed 's/|bf16|bf16|/|f16|bf16|/'; } >"$TMP/mixed.txt"
run_ladder check "$TMP/mixed.txt"
expect_rc check-frozen-no-preset-rc 3
expect_err check-frozen-no-preset "mixed.txt:[0-9]+:[0-9]+: no preset 'sm100-tcgen05-f16xbf16-f32'"
{ grep '^#' "$FROZEN"; grep '^bf16-nan|' "$FROZEN" | sed 's/|7FFFFFFF$/|7FFFFFFE/'; } >"$TMP/wrong.txt"
run_ladder check "$TMP/wrong.txt"
expect_rc check-frozen-mismatch-rc 1
expect_out check-frozen-mismatch '^  line [0-9]+: expected 7ffffffe, got 7fffffff: bf16-nan'
{ grep '^#' "$FROZEN"; grep '^tf32-nan|' "$FROZEN" | sed 's/|f32||/|f32|sparse=2|/'; } >"$TMP/opt.txt"
run_ladder check "$TMP/opt.txt"
expect_rc check-frozen-bad-option-rc 3
expect_err check-frozen-bad-option "unknown option 'sparse=2'"

# A file cut short: the header says 5000 cases, 20 lines remain. It is a
# data error at the file's last line unless --partial is given; a file of
# header lines alone has nothing to check, --partial or not.
head -n 30 "$VEC/a100-f16-f32.vec" >"$TMP/cut.vec"
run_ladder check "$TMP/cut.vec"
expect_rc check-cut-rc 3
expect_err check-cut "^ladder: $TMP/cut.vec:30: the file ends after 20 cases, but its header \(line [0-9]+\) says 5000"
check check-cut-no-result test ! -s "$out"
run_ladder check --partial "$TMP/cut.vec"
expect_rc check-cut-partial-rc 0
expect_out_eq check-cut-partial "$TMP/cut.vec: 0/20 mismatches (sm80-mma-f16-f32)"
{ cat "$TMP/good.vec"; sed -n 11p "$VEC/a100-f16-f32.vec"; } >"$TMP/more.vec"
run_ladder check --partial "$TMP/more.vec"
expect_rc check-more-than-header-rc 3
expect_err check-more-than-header "ends after 11 cases, but its header \(line [0-9]+\) says 10$"
grep '^#' "$VEC/a100-f16-f32.vec" >"$TMP/empty.vec"
run_ladder check --partial "$TMP/empty.vec"
expect_rc check-header-only-rc 3
expect_err check-header-only "^ladder: $TMP/empty.vec:[0-9]+: no case to check"

# Lines are read into a bounded buffer: one longer than 8192 bytes is an
# error at its line, however long it goes on.
{ head -n 12 "$TMP/good.vec"; head -c 100000 /dev/zero | tr '\0' 'a'; echo; } >"$TMP/long.vec"
run_ladder check "$TMP/long.vec"
expect_rc check-long-line-rc 3
expect_err check-long-line "^ladder: $TMP/long.vec:13: line longer than 8192 bytes$"

expect_usage_error check-no-files check
test_done
