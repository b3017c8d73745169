#!/bin/sh
# ladder check against every captured hardware vector file: each must be
# reproduced bit for bit by the preset its header (or each frozen line)
# names. This is the project's acceptance test of the model; it fails, file
# by file, for as long as some datapath is not yet modelled exactly. The
# words captured on an H200 (results/h200/captures) are checked the same way.
. tests/lib.sh
VEC=vectors

H200=results/h200/captures
run_ladder check "$VEC"/*.vec "$VEC/b200-tcgen05-frozen.txt" "$H200"/*.vec
expect_rc check-vectors-rc 0
expect_no_err check-vectors-no-stderr
for f in "$VEC"/*.vec "$VEC/b200-tcgen05-frozen.txt" "$H200"/*.vec; do
    name=check-vectors-$(basename "$f" | sed 's/\.[a-z]*$//')
    case $f in "$H200"/*) name=check-vectors-h200-$(basename "$f" .vec) ;; esac
    n=$(grep -v '^#' "$f" | grep -c .)
    line=$(grep -F "$f: " "$out" | head -n 1)
    case "$line" in
    "$f: 0/$n mismatches ("*) ok "$name" ;;
    "") fail "$name" "no result line" ;;
    *) fail "$name" "$line" ;;
    esac
done

# the H100 fp8 files with f16 results name wgmma in their header, but only
# mma.sync (two HMMAs and an HADD2 on sm_90) reproduces them
for fmt in e4m3 e5m2; do
    grep -F "h100-$fmt-f16.vec: 0/5000 mismatches (sm90-mma-$fmt-f16; the header's sm90-wgmma-$fmt-f16 gives" \
        "$out" > /dev/null && ok "check-vectors-h100-$fmt-f16-is-mma-sync" ||
        fail "check-vectors-h100-$fmt-f16-is-mma-sync" "$(grep -F "h100-$fmt-f16" "$out")"
done

test_done
