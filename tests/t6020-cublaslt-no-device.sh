#!/bin/sh
# The cublaslt device: where the CUDA toolkit has cublasLt.h, the object is
# built with cuBLASLt support and every call it resolves by name is
# exported by the toolkit's libcublasLt and libcudart (so it would link);
# without a GPU, cublaslt:0 fails with the device exit code (4) and one line
# naming the cause; a bad option is a usage error anywhere.
. tests/lib.sh
DB=$TMP/store.db
obj=$(dirname "$LADDER")/devices/cublaslt.o
cuda=$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")")

if [ -f "$cuda/include/cublasLt.h" ]; then
    if [ -f "$obj" ] && strings "$obj" | grep -qx cublasLtMatmul; then
        ok cublaslt-object-built
    else
        fail cublaslt-object-built "no cuBLASLt calls in '$obj'"
    fi
    missing=
    for f in cublasLtCreate cublasLtDestroy cublasLtGetVersion cublasLtMatmulDescCreate \
             cublasLtMatmulDescDestroy cublasLtMatmulDescSetAttribute cublasLtMatrixLayoutCreate \
             cublasLtMatrixLayoutDestroy cublasLtMatmulPreferenceCreate \
             cublasLtMatmulPreferenceDestroy cublasLtMatmulPreferenceSetAttribute \
             cublasLtMatmulAlgoGetHeuristic cublasLtMatmulAlgoConfigSetAttribute \
             cublasLtMatmulAlgoConfigGetAttribute \
             cublasLtMatmulAlgoCheck cublasLtMatmul; do
        nm -D "$cuda/lib64/libcublasLt.so" 2>/dev/null | grep -Eq " T $f(@.*)?$" || missing="$missing $f"
    done
    for f in cudaGetDeviceCount cudaSetDevice cudaMalloc cudaFree cudaMemcpy \
             cudaDeviceSynchronize cudaGetErrorString cudaDeviceGetAttribute \
             cudaRuntimeGetVersion cudaDriverGetVersion; do
        nm -D "$cuda/lib64/libcudart.so" 2>/dev/null | grep -Eq " T $f(@.*)?$" || missing="$missing $f"
    done
    [ -z "$missing" ] && ok cublaslt-links || fail cublaslt-links "not exported:$missing"
else
    printf '     (not counted: no cublasLt.h under %s)\n' "$cuda"
fi

gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && gpu=1
if [ "$gpu" = 0 ]; then
    run_ladder validate --model sm90-mma-bf16-f32 --device cublaslt:0 --cases 8 --db "$DB"
    expect_rc cublaslt-none-rc 4
    expect_err cublaslt-none-message "^ladder: device 'cublaslt:0': (no CUDA device 0|cannot load|no cuBLASLt device support built)"
    expect_err_line cublaslt-none-one-line
fi
run_ladder validate --model sm90-mma-bf16-f32 --device cublaslt:0:split_k=0 --cases 8 --db "$DB"
expect_rc cublaslt-bad-option-rc 2
expect_err cublaslt-bad-option-message "bad cublaslt option 'split_k=0'"

# ladder gemm --device cublaslt: the whole GEMM on the GPU. Zero arrays in
# .npy (version 1, '<u2'), written here byte for byte.
npy_u2() { # npy_u2 FILE ROWS COLS
    h="{'descr': '<u2', 'fortran_order': False, 'shape': ($2, $3), }"
    pad=$((64 - (10 + ${#h} + 1) % 64))
    { printf '\223NUMPY\001\000'; printf "\\$(printf %03o $(((${#h} + pad + 1) % 256)))\\$(printf %03o $(((${#h} + pad + 1) / 256)))"
      printf '%s%*s\n' "$h" "$pad" ""; head -c $(($2 * $3 * 2)) /dev/zero; } >"$1"
}
npy_u2 "$TMP/a.npy" 2 16
npy_u2 "$TMP/b.npy" 16 3
run_ladder gemm --datapath sm90-mma-bf16-f32 "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d.npy"
expect_rc cublaslt-gemm-arrays-read 0
if [ "$gpu" = 0 ]; then
    run_ladder gemm --datapath sm90-mma-bf16-f32 --device cublaslt:0 "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d2.npy"
    expect_rc cublaslt-gemm-none-rc 4
    expect_err cublaslt-gemm-none-message "^ladder: (no CUDA device 0|cannot load|no cuBLASLt device support built)"
    expect_err_line cublaslt-gemm-none-one-line
    [ ! -e "$TMP/d2.npy" ] && ok cublaslt-gemm-none-no-output || fail cublaslt-gemm-none-no-output "d2.npy written"
fi
expect_usage_error cublaslt-gemm-cuda-device gemm --datapath sm90-mma-bf16-f32 --device cuda:0 "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d3.npy"
expect_usage_error cublaslt-gemm-no-index gemm --datapath sm90-mma-bf16-f32 --device cublaslt: "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d3.npy"
expect_usage_error cublaslt-gemm-with-program gemm --datapath sm90-mma-bf16-f32 --device cublaslt:0 --program mainloop "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d3.npy"
run_ladder gemm --datapath sm90-mma-bf16-f32 --device cublaslt:0:fast_accum=2 "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d3.npy"
expect_rc cublaslt-gemm-bad-option-rc 2
expect_err cublaslt-gemm-bad-option-message "bad cublaslt option 'fast_accum=2'"
test_done
