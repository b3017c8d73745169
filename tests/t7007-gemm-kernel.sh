#!/bin/sh
# ladder gemm's block kernel (model/gemm_kernel.c) against its per-element
# path, through the command: each GEMM runs four times, as lad_gemm chooses
# (the block kernel, AVX-512 or AVX2 where the CPU has it), with
# LADDER_GEMM_AVX2=1 (the kernel's AVX2 build, eight columns a block), with
# LADDER_GEMM_PORTABLE=1 (the kernel's generic build) and with
# LADDER_GEMM_GENERAL=1 (the plan per output element and instruction, the
# reference: itself checked against the exact rational evaluator by the unit
# tests), and the four D files must hold the same words.
#
# Operands: random finite words near 1 (moderate), the same laced with NaN,
# Inf, zeros of both signs, subnormals and the largest and smallest binades
# (specials), and mostly zeros with the largest significands (edges: passes
# with no product, window sums past 2^30). Datapaths: bf16 and f16 into f32
# (mma.sync), e4m3 into f32 on wgmma and on mma.sync (its lane order and C
# added last); sizes that are not multiples of the kernel's 8 or 16
# columns; with and without C; a promoted program; 1 and 2 threads.
. tests/lib.sh

need_venv gemm-kernel-setup

# mk FILE DTYPE ROWS COLS EBITS MBITS KIND SEED: an array of raw words of a
# float format of 1 + EBITS + MBITS bits (bias 2^(EBITS-1) - 1), saved with
# numpy. KIND: moderate, specials or edges.
mk() {
    "$py" - "$@" <<'PY'
import sys, numpy as np
path, dtype, rows, cols, eb, mb, kind, seed = sys.argv[1:]
rows, cols, eb, mb = int(rows), int(cols), int(eb), int(mb)
rng = np.random.default_rng(int(seed))
n = rows * cols
bias, etop = (1 << (eb - 1)) - 1, (1 << eb) - 1
sign = rng.integers(0, 2, n) << (eb + mb)
frac = rng.integers(0, 1 << mb, n)
exp = bias + rng.integers(-4, 5, n)
w = sign | (exp << mb) | frac
if kind == "specials":
    pick = rng.integers(0, 8, n)
    rare = np.choose(rng.integers(0, 7, n), [
        sign,                                   # zero of either sign
        sign | frac,                            # subnormal
        sign | (etop << mb) | frac,             # NaN, or e4m3's finite top
        sign | (etop << mb),                    # Inf
        sign | ((etop - 1) << mb) | ((1 << mb) - 1),  # largest binade
        sign | (1 << mb) | frac,                # smallest normal binade
        rng.integers(0, 1 << (1 + eb + mb), n), # raw bits
    ])
    w = np.where(pick == 0, rare, w)
elif kind == "edges":
    full = ((bias + rng.integers(0, 2, n)) << mb) | ((1 << mb) - 1)
    w = np.where(rng.integers(0, 8, n) == 0, full, sign)
    w = np.where(np.arange(n) < n // 2, np.where(rng.integers(0, 2, n) == 0, full, w), w)
np.save(path, w.astype(dtype).reshape(rows, cols))
PY
}

# same NAME ARGS...: ladder gemm ARGS four ways; ok when all exit 0 and
# the D files are the same bytes.
same() {
    _n=$1
    shift
    for _m in auto avx2 portable general; do
        rc=0
        case $_m in
        auto) "$LADDER" gemm "$@" -o "$TMP/d-$_m.npy" >"$out" 2>"$err" </dev/null || rc=$? ;;
        avx2) env LADDER_GEMM_AVX2=1 "$LADDER" gemm "$@" -o "$TMP/d-$_m.npy" \
                  >"$out" 2>"$err" </dev/null || rc=$? ;;
        portable) env LADDER_GEMM_PORTABLE=1 "$LADDER" gemm "$@" -o "$TMP/d-$_m.npy" \
                      >"$out" 2>"$err" </dev/null || rc=$? ;;
        general) env LADDER_GEMM_GENERAL=1 "$LADDER" gemm "$@" -o "$TMP/d-$_m.npy" \
                     >"$out" 2>"$err" </dev/null || rc=$? ;;
        esac
        if [ "$rc" -ne 0 ]; then
            fail "$_n" "$_m: exit $rc: $(_peek "$err")"
            return
        fi
    done
    if ! cmp -s "$TMP/d-auto.npy" "$TMP/d-general.npy"; then
        fail "$_n" "the kernel's D differs from the general path's"
    elif ! cmp -s "$TMP/d-avx2.npy" "$TMP/d-general.npy"; then
        fail "$_n" "the AVX2 build's D differs from the general path's"
    elif ! cmp -s "$TMP/d-portable.npy" "$TMP/d-general.npy"; then
        fail "$_n" "the generic build's D differs from the general path's"
    else
        ok "$_n"
    fi
}

# NAME PRESET DTYPE EBITS MBITS K
seed=1
while read -r name preset dtype eb mb k; do
    for kind in moderate specials edges; do
        seed=$((seed + 1))
        mk "$TMP/a.npy" "$dtype" 13 "$k" "$eb" "$mb" "$kind" "$seed"
        mk "$TMP/b.npy" "$dtype" "$k" 21 "$eb" "$mb" "$kind" $((seed + 100))
        mk "$TMP/c.npy" uint32 13 21 8 23 "$kind" $((seed + 200))
        same "gemm-kernel-$name-$kind" --datapath "$preset" "$TMP/a.npy" "$TMP/b.npy" \
            --threads 1
        same "gemm-kernel-$name-$kind-c-2threads" --datapath "$preset" "$TMP/a.npy" \
            "$TMP/b.npy" "$TMP/c.npy" --threads 2
    done
done <<'EOF'
bf16 sm90-mma-bf16-f32 uint16 8 7 160
f16 sm90-mma-f16-f32 uint16 5 10 160
e4m3-wgmma sm90-wgmma-e4m3-f32 uint8 4 3 320
e4m3-mma sm90-mma-e4m3-f32 uint8 4 3 320
EOF

# a promoted program over wgmma: chains of 4 MMAs from C = 0
mk "$TMP/a.npy" uint8 13 320 4 3 specials 900
mk "$TMP/b.npy" uint8 320 21 4 3 specials 901
same gemm-kernel-e4m3-wgmma-fp8-promote4 --datapath sm90-wgmma-e4m3-f32 \
    --program fp8-promote4 "$TMP/a.npy" "$TMP/b.npy" --threads 2

test_done
