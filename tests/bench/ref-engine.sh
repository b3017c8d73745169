#!/bin/sh
# ref-engine.sh COMMIT DIR: builds the `ladder` of an earlier commit into
# DIR (DIR/build/rel/ladder), for `make bench` to time beside this one on
# the same stores (tests/bench/infer.py). The tree comes from this
# repository's own history (git archive), so a clone has it; CUDA is left
# out (NVCC=), since only the CPU commands are timed. Built once per
# commit: DIR/.commit says which.
set -e
c=$1
dir=$2
full=$(git rev-parse --verify "$c^{commit}")
if [ -x "$dir/build/rel/ladder" ] && [ "$(cat "$dir/.commit" 2>/dev/null)" = "$full" ]; then
    exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
git archive "$full" | tar -x -C "$dir"
echo "bench: building the reference engine of commit $(git rev-parse --short "$full") in $dir" >&2
make -C "$dir" -j2 NVCC= ladder >"$dir/build.log" 2>&1 || {
    tail -n 20 "$dir/build.log" >&2
    exit 1
}
echo "$full" >"$dir/.commit"
