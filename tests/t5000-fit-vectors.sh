#!/bin/sh
# ladder fit on every captured vector file: the search, blind to the
# presets' arithmetic, must find a model that reproduces every D word, and
# the model file it writes must say so when checked on its own. A file no
# model explains stays a visible failure here; none is skipped.
. tests/lib.sh

VEC=vectors
# Sanitizer builds (LADDER_TEST_QUICK) fit one file per generation. The
# fits of fp8 words into an f16 result take the search minutes each (0.5 to
# 2 on this machine, against seconds for the others): they run in
# `make test-long` (LADDER_FIT_ALL=1), and `ladder check` replays those
# files with their presets in every run (t3200).
files=$(ls "$VEC"/*.vec)
[ "${LADDER_FIT_ALL:-}" = 1 ] || files=$(ls "$VEC"/*.vec | grep -v -- '-e[45]m[23]-f16\.vec$')
[ -n "${LADDER_TEST_QUICK:-}" ] &&
    files=$(ls "$VEC"/v100-f16-f32.vec "$VEC"/a100-bf16-f32.vec "$VEC"/ada-tf32-f32.vec \
               "$VEC"/h100-f16-f16.vec "$VEC"/b200-f16-f32.vec)
n=0
for f in $files; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    name=$(basename "$f" .vec)
    run_ladder fit "$f" -o "$TMP/$name.yaml"
    expect_rc fit-$name-rc 0
    expect_out fit-$name-zero "^fit: 0/[0-9]+ mismatches"
    # the written model, read back by another command, on the same words
    run_ladder check --model "$TMP/$name.yaml" "$f"
    expect_out fit-$name-check "^.*: 0/[0-9]+ mismatches"
done
[ "$n" -gt 0 ] && ok fit-vectors-found || fail fit-vectors-found "no .vec files under $VEC"

# errors: a frozen file holds many datapaths; a missing file; no argument
run_ladder fit "$VEC/b200-tcgen05-frozen.txt"
expect_rc fit-frozen-refused 2
run_ladder fit "$TMP/none.vec"
expect_rc fit-missing-file 3
expect_usage_error fit-no-file fit
test_done
