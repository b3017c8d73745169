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
test_done
