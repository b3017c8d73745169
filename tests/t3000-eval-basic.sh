#!/bin/sh
# ladder eval: the model as a filter. Expected words come from the hardware
# (the D column of vectors/ files) or from hand arithmetic.
. tests/lib.sh
V100=vectors/v100-f16-f32.vec

# 1.0 * 1.0 + 0 = 1.0 (f16 3c00 in, f32 3f800000 out), and 2*3 + 0.5 = 6.5.
printf '3c00,0,0,0;3c00,0,0,0;00000000\n4000,0,0,0;4200,0,0,0;3f000000\n' >"$TMP/hand"
run_ladder_in "$TMP/hand" eval --model sm70-mma-f16-f32
expect_rc eval-hand-rc 0
expect_out_eq eval-hand-words "3f800000
40d00000"
expect_no_err eval-hand-no-stderr

# Blank lines and comments are skipped; upper case and short words are fine.
printf '# a comment\n\n3C00,0,0,0;3c00,0000,0,0;0\n' >"$TMP/comments"
run_ladder eval --model sm70-mma-f16-f32 "$TMP/comments"
expect_out_eq eval-comments-skipped "3f800000"

# The first 200 hardware cases of the V100 file, D fields cut off, on stdin:
# the words printed are the hardware's.
grep -v '^#' "$V100" | head -n 200 >"$TMP/cases"
cut -d';' -f1-3 "$TMP/cases" >"$TMP/in"
cut -d';' -f4 "$TMP/cases" >"$TMP/want"
run_ladder_in "$TMP/in" eval --model sm70-mma-f16-f32
expect_rc eval-stdin-rc 0
if cmp -s "$out" "$TMP/want"; then ok eval-stdin-hardware-words; else
    fail eval-stdin-hardware-words "$(diff "$out" "$TMP/want" | head -n 3)"; fi

# The same file given by name, header and D fields included (D is ignored).
head -n 210 "$V100" >"$TMP/withd.vec"
run_ladder eval --model sm70-mma-f16-f32 "$TMP/withd.vec"
expect_rc eval-file-rc 0
if cmp -s "$out" "$TMP/want"; then ok eval-file-hardware-words; else
    fail eval-file-hardware-words "$(diff "$out" "$TMP/want" | head -n 3)"; fi

# Every case of the file (about 250 KB: the reader's 64 KB blocks end inside
# lines many times), with CRLF line ends: the hardware's words, in order.
grep -v '^#' "$V100" | cut -d';' -f1-3 | sed 's/$/\r/' >"$TMP/all"
grep -v '^#' "$V100" | cut -d';' -f4 >"$TMP/allwant"
run_ladder eval --model sm70-mma-f16-f32 "$TMP/all"
expect_rc eval-blocks-rc 0
if [ "$(wc -c <"$TMP/all")" -gt 200000 ] && cmp -s "$out" "$TMP/allwant"; then
    ok eval-blocks-hardware-words; else
    fail eval-blocks-hardware-words "$(diff "$out" "$TMP/allwant" | head -n 3)"; fi

# An f16 result is printed with 4 digits: 1*1 + 1 = 2 (4000).
printf '3c00,0,0,0;3c00,0,0,0;3c00\n' >"$TMP/f16"
run_ladder_in "$TMP/f16" eval --model sm70-mma-f16-f16
expect_out_eq eval-f16-width "4000"

# A block-scaled kind: e4m3 1.0 (38) * 1.0 with scales 2^0 (7f) and 2^1
# (80) on B; the other 31 lanes are zero: 2.0 = 40000000.
zeros31=$(printf ',00%.0s' $(seq 31))
printf '38%s;38%s;00000000;7f;80;\n' "$zeros31" "$zeros31" >"$TMP/mx"
run_ladder_in "$TMP/mx" eval --model sm100-tcgen05-mxf8f6f4-e4m3-f32
expect_rc eval-scaled-rc 0
expect_out_eq eval-scaled-word "40000000"

# A sparse kind: f16, 32 logical lanes, metadata 4 (lanes 0 and 1 of each
# 4 kept). Lanes 0 and 1 hold 1*1 and 2*1; lane 2, dropped, holds 4*1: 3.0.
rest=$(printf ',0%.0s' $(seq 29))
printf '3c00,4000,4400%s;3c00,3c00,3c00%s;00000000;;;44444444\n' "$rest" "$rest" >"$TMP/sp"
run_ladder_in "$TMP/sp" eval --model sm100-tcgen05-sp-f16-f32
expect_rc eval-sparse-rc 0
expect_out_eq eval-sparse-word "40400000"

# Streaming: with the input still open, the answer to the first line is
# already out (answers are flushed when no more input is ready), so eval can
# serve as an exec device.
mkfifo "$TMP/fifo"
"$LADDER" eval --model sm70-mma-f16-f32 <"$TMP/fifo" >"$TMP/stream" 2>&1 &
pid=$!
exec 3>"$TMP/fifo"
printf '3c00,0,0,0;3c00,0,0,0;00000000\n' >&3
i=0
while [ $i -lt 100 ] && ! [ -s "$TMP/stream" ]; do sleep 0.05; i=$((i + 1)); done
if [ "$(cat "$TMP/stream")" = 3f800000 ]; then ok eval-streams-per-line; else
    fail eval-streams-per-line "no answer while the input is open: '$(cat "$TMP/stream")'"; fi
exec 3>&-
wait $pid
rc=$?
expect_rc eval-stream-exit 0

test_done
