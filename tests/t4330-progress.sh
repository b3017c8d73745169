#!/bin/sh
# Progress on stderr (docs/progress.md) through the real binary, stderr a
# file: a stage that lasts over 2 s writes its begin line and its end line
# with the seconds; one that ends sooner writes nothing; LADDER_PROGRESS=1
# writes every stage at once (and the survey's notes); -q writes nothing,
# LADDER_PROGRESS=1 or not; on a terminal (script(1)'s) the live line is
# drawn with carriage returns and wiped, as wide as the terminal. The stage that lasts is made to by
# a device that sleeps 3 s before it answers, so no check rests on how fast
# the machine is; when each line falls due is test_progress's, on a clock
# of its own.
. tests/lib.sh

db=$TMP/p.db
p=sm90-mma-bf16-f32
slow="exec:sleep 3; exec $LADDER eval --model $p"

# Default (stderr a file): a validation slowed past 2 s shows its stage.
unset LADDER_PROGRESS
run_ladder validate --model $p --device "$slow" --cases 2000 --db "$db"
expect_rc progress-slow-rc 0
expect_out progress-slow-result "^validate: 0/2000 mismatches \($p vs exec:"
expect_err progress-slow-begin "^validate $p: 2000 cases$"
expect_err progress-slow-end "^validate $p: 2000 cases: done in [0-9]+\.[0-9] s$"
check progress-slow-two-lines test "$(wc -l <"$err")" = 2
# ... and -q none of it.
run_ladder validate --model $p --device "$slow" --cases 2000 --db "$db" -q
expect_rc progress-slow-quiet-rc 0
expect_no_err progress-slow-quiet

# A short step prints nothing extra.
run_ladder validate --model $p --device sim:$p --cases 100 --db "$db"
expect_rc progress-short-rc 0
expect_no_err progress-short-silent
run_ladder run recipes/$p.yaml --db "$db" --rungs zeros
expect_rc progress-short-run-rc 0
expect_no_err progress-short-run-silent

# LADDER_PROGRESS=1: every stage at once, however short.
LADDER_PROGRESS=1
export LADDER_PROGRESS
run_ladder validate --model $p --device sim:$p --cases 100 --db "$db"
expect_err progress-eager-begin "^validate $p: 100 cases$"
expect_err progress-eager-end "^validate $p: 100 cases: done in [0-9]+\.[0-9] s$"
run_ladder run recipes/$p.yaml --db "$db" --rungs zeros
expect_err progress-eager-run "^run recipes/$p\.yaml: done in "
run=$(sed -n 's/^run \([0-9]*\) ok$/\1/p' "$out")
run_ladder infer "$run" --db "$db" --no-store
expect_err progress-eager-infer "^infer run [0-9]+: [0-9]+ cases$"
sed -n '1,40p' vectors/h100-bf16-f32.vec >"$TMP/some.vec"
run_ladder fit "$TMP/some.vec"
expect_err progress-eager-fit "^fit $TMP/some\.vec: [0-9]+ cases: done in "
expect_err progress-eager-fit-answer "^fit $TMP/some\.vec: the rows the cases leave open: done in "
# A survey's steps and notes, with the datapath's place in front.
run_ladder survey --device sim:sm_90a --only "$p" --cases 100 --db "$TMP/s.db" --vectors none
expect_rc progress-eager-survey-rc 0
expect_err progress-eager-survey-stage "^\[1/1\] $p: validating the preset on 100 cases: done in "
expect_err progress-eager-survey-note "^\[1/1\] $p: inferred = preset$"
# gemm: one stage over the outputs.
python=${VENV:-build/venv}/bin/python
if "$python" -c 'import numpy' 2>/dev/null; then
    "$python" -c "
import numpy as np
np.save('$TMP/a.npy', np.zeros((4, 16), dtype=np.uint16))
np.save('$TMP/b.npy', np.zeros((16, 4), dtype=np.uint16))"
    run_ladder gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d.npy"
    expect_rc progress-eager-gemm-rc 0
    expect_err progress-eager-gemm "^gemm 4 x 4 x 16: 16 outputs: done in "
else
    fail progress-eager-gemm "no numpy in $python to write the matrices"
fi
# -q wins over LADDER_PROGRESS=1, on every command that shows progress.
run_ladder validate --model $p --device sim:$p --cases 100 --db "$db" -q
expect_no_err progress-quiet-validate
run_ladder run recipes/$p.yaml --db "$db" --rungs zeros -q
expect_no_err progress-quiet-run
run_ladder infer "$run" --db "$db" --no-store -q
expect_no_err progress-quiet-infer
run_ladder fit "$TMP/some.vec" -q
expect_no_err progress-quiet-fit
run_ladder survey --device sim:sm_90a --only "$p" --cases 100 --db "$TMP/s.db" --vectors none -q
expect_no_err progress-quiet-survey
run_ladder gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d.npy" -q
expect_no_err progress-quiet-gemm
# LADDER_PROGRESS=0 is -q.
LADDER_PROGRESS=0
run_ladder validate --model $p --device "$slow" --cases 100 --db "$db"
expect_no_err progress-env-off

# --help says -q on each.
for c in run infer fit validate survey gemm; do
    run_ladder $c --help
    expect_out progress-help-$c '^ +-q, --quiet '
done

# On a terminal: the live line, drawn with a carriage return while the
# slow device sleeps, and wiped (spaces, then a carriage return) at the end;
# no stage line.
unset LADDER_PROGRESS
script -qec "$LADDER validate --model $p --device '$slow' --cases 100 --db $db >/dev/null" \
    "$TMP/tty.log" >/dev/null 2>&1 </dev/null
check progress-live-drawn grep -q "$(printf '\r')validate $p: 100 cases: [0-9.]* s so far" "$TMP/tty.log"
check progress-live-wiped grep -q " $(printf '\r')" "$TMP/tty.log"
check progress-live-no-stage-line test "$(grep -c "done in" "$TMP/tty.log")" = 0

# The decide rung's inference shows its steps in the live line, each
# round named ("decide round 1: fitting the ulp cases"); the device sleeps
# before its first answer, so the line is drawn by the time the rung infers.
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm80-mma-tf32-f32 2048 >"$TMP/dr.yaml"
script -qec "$LADDER run $TMP/dr.yaml --db $TMP/dr.db --device 'exec:sleep 1; exec $LADDER eval --model sm80-mma-tf32-f32' >/dev/null" \
    "$TMP/dr.log" >/dev/null 2>&1 </dev/null
check progress-live-decide-round grep -q "run $TMP/dr.yaml: decide round 1: " "$TMP/dr.log"

# As wide as the terminal: on a pty of 200 columns (stty sets its size,
# which ladder asks with TIOCGWINSZ; COLUMNS unset) the live line of a
# validation whose model file has a 100-letter name is longer than 79
# columns, and whole; at 80 columns it is cut to 79. What is measured is
# the widest of the texts between carriage returns that are the line.
wide=$TMP/$(printf 'w%.0s' $(seq 100)).yaml
"$LADDER" model show $p >"$wide"
widest() {
    tr '\r' '\n' <"$1" | grep '^validate ' | sed 's/ *$//' |
        awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'
}
for cols in 200 80; do
    env -u COLUMNS script -qec "stty cols $cols; $LADDER validate --model $wide --device '$slow' --cases 100 --db $db >/dev/null" \
        "$TMP/tty$cols.log" >/dev/null 2>&1 </dev/null
    check "progress-width-$cols-drawn" grep -q "$(printf '\r')validate $TMP/w" "$TMP/tty$cols.log"
done
# "validate <path>: 100 cases: 0.5 s so far", the label cut to 95 bytes
# (progress.h), the counts after it: over 79 columns
w=$(widest "$TMP/tty200.log")
check progress-width-200-wide test "$w" -gt 79 -a "$w" -le 199
w=$(widest "$TMP/tty80.log")
check progress-width-80-cut test "$w" = 79

test_done
