#!/bin/sh
# The inferred model does not depend on the order of the registry's rows:
# ladder built again from a model/params.def whose rows are shuffled infers,
# from the same stored runs, the same model as ladder built from the file as
# it is (compared key by key: a model file lists the keys in row order).
# Occam asks the rows in the order of their keys, and the sweep's groups
# are params.def's LAD_SWEEP lines, whatever the rows' order; the pairs,
# the swaps and the beam's ties of equal scores take the rows in the order
# of their keys too, and no ranking reads a hash (inference/space.h).
#
# The copy is built without CUDA (the kernels do not take part), at -O1
# without debug information (16 s of CPU for the whole copy where a
# default build of it made t5110 take 92 s); its integer arithmetic gives
# the same words at any optimization. make test
# infers two datapaths (one window, two levels); LADDER_ROW_ORDER_SAMPLE=1
# one of each structure (also fp8 in two passes, NVFP4, a tree, f64: run
# on this change, all pass); LADDER_ROW_ORDER_ALL=1 (make test-long) every
# preset.
. tests/lib.sh

src=$TMP/src
mkdir -p "$src"
git ls-files -co --exclude-standard | grep -v '^vectors/\|^results/\|^tests/fuzz/\|^docs/' |
    tar cf - -T - | tar xf - -C "$src"
seed=${LADDER_ROW_ORDER_SEED:-11}
if python3 tests/data/shuffle-params.py "$seed" model/params.def "$src/model/params.def" &&
    ! cmp -s model/params.def "$src/model/params.def" &&
    (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZER \
        make -j2 build/rel/ladder NVCC= CFLAGS='-O1 -g0' CFLAGS_MODEL= >"$TMP/build.log" 2>&1); then
    ok infer-row-order-build
else
    fail infer-row-order-build "$(tail -n 3 "$TMP/build.log" 2>/dev/null)"
    test_done
fi
shuffled=$src/build/rel/ladder
# The shuffled build lists the keys in another order.
"$LADDER" model params | sed -n 's/^| `\([a-z0-9_]*\)`.*/\1/p' >"$TMP/k1"
"$shuffled" model params | sed -n 's/^| `\([a-z0-9_]*\)`.*/\1/p' >"$TMP/k2"
if ! cmp -s "$TMP/k1" "$TMP/k2" && [ "$(sort "$TMP/k1")" = "$(sort "$TMP/k2")" ]; then
    ok infer-row-order-shuffled
else
    fail infer-row-order-shuffled "the copy's rows are not a reordering of the registry's"
fi

if [ "${LADDER_ROW_ORDER_ALL:-}" = 1 ]; then
    presets=$("$LADDER" presets | awk 'NR > 1 && $1 !~ /^-/ {print $1}')
elif [ "${LADDER_ROW_ORDER_SAMPLE:-}" = 1 ]; then
    # one window, fp8 in two passes, block scaling, two levels, a tree, f64
    presets="sm90-mma-bf16-f32 sm90-mma-e4m3-f32 sm100-tcgen05-mxf4nvf4-ue4m3-f32
             cdna3-mfma-f16-f32 cdna2-mfma-1k-bf16-f32 sm90-mma-f64-f64-k16"
else
    presets="sm90-mma-bf16-f32 cdna3-mfma-f16-f32"
fi
db=$TMP/l.db
for p in $presets; do
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 256 >"$TMP/$p.yaml"
    "$LADDER" run "$TMP/$p.yaml" --db "$db" >/dev/null 2>&1
    run=$(sqlite3 "$db" 'SELECT max(id) FROM runs')
    "$LADDER" infer "$run" --db "$db" --no-store --nearest -o "$TMP/a.yaml" >/dev/null 2>&1
    rca=$?
    "$shuffled" infer "$run" --db "$db" --no-store --nearest -o "$TMP/b.yaml" >/dev/null 2>&1
    rcb=$?
    "$LADDER" model show "$TMP/a.yaml" 2>/dev/null | grep -v '^#' | sort >"$TMP/a.txt"
    "$LADDER" model show "$TMP/b.yaml" 2>/dev/null | grep -v '^#' | sort >"$TMP/b.txt"
    if [ "$rca" = "$rcb" ] && [ -s "$TMP/a.txt" ] && cmp -s "$TMP/a.txt" "$TMP/b.txt"; then
        ok "infer-row-order-$p"
    else
        fail "infer-row-order-$p" "exit $rca and $rcb; $(diff "$TMP/a.txt" "$TMP/b.txt" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
    fi
done
test_done
