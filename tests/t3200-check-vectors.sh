#!/bin/sh
# ladder check against every captured hardware vector file: each must be
# reproduced bit for bit by the preset its header (or each frozen line)
# names. This is the project's acceptance test of the model; it fails, file
# by file, for as long as some datapath is not yet modelled exactly.
. tests/lib.sh
SHARED=${LADDER_SHARED:-../shared}
VEC=$SHARED/vectors

run_ladder check "$VEC"/*.vec "$VEC/b200-tcgen05-frozen.txt"
expect_rc check-vectors-rc 0
expect_no_err check-vectors-no-stderr
for f in "$VEC"/*.vec "$VEC/b200-tcgen05-frozen.txt"; do
    name=check-vectors-$(basename "$f" | sed 's/\.[a-z]*$//')
    n=$(grep -v '^#' "$f" | grep -c .)
    line=$(grep -F "$f: " "$out" | head -n 1)
    case "$line" in
    "$f: 0/$n mismatches ("*) ok "$name" ;;
    "") fail "$name" "no result line" ;;
    *) fail "$name" "$line" ;;
    esac
done

test_done
