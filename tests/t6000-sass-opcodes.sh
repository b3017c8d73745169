#!/bin/sh
# ladder sass: every CUDA kernel built into ladder executes the tensor opcode
# its PTX instruction is known to compile to. Runs with no GPU: it needs
# only the embedded cubins and NVIDIA's disassembler, which
# scripts/cuobjdump.sh finds or installs (PyPI nvidia-cuda-cuobjdump). A
# ladder built without nvcc, or no cuobjdump, is a failure, not a skip.
#
# The expected opcodes are written out here from docs/reference/ptx-notes.md
# section 5 and from cuobjdump listings of ptxas 13.0 output, as rules per
# instruction family, independently of kernels/table.c.
. tests/lib.sh
BUILD=${BUILD:-build/rel}

if CU=$(sh scripts/cuobjdump.sh build 2>"$TMP/cu.err"); then
    ok sass-cuobjdump-found
else
    fail sass-cuobjdump-found "cannot get cuobjdump: $(tail -n 1 "$TMP/cu.err")"
    test_done
fi
export CUOBJDUMP="$CU"

run_ladder sass
if [ "$rc" -ne 0 ] && grep -q 'no CUDA kernels' "$err"; then
    fail sass-kernels-built "this ladder was built without nvcc: $(_peek "$err")"
    test_done
fi
expect_rc sass-rc 0
expect_no_err sass-no-stderr
cp "$out" "$TMP/sass"

up() { printf '%s' "$1" | tr 'a-z' 'A-Z'; }

# want KERNEL TARGET OPCODES...: one expected line.
: >"$TMP/want"
want() {
    _k=$1
    _t=$2
    shift 2
    printf '%s %s %s\n' "$_k" "$_t" "$*" >>"$TMP/want"
}

# mma.sync: HMMA/IMMA on every target; fp8 native QMMA on sm_89 and sm_120a.
for t in sm_80 sm_89 sm_90a sm_100a sm_120a; do
    want lad_mma_m16n8k8_f32_tf32 $t HMMA.1688.F32.TF32
    want lad_mma_m16n8k16_f32_f16 $t HMMA.16816.F32
    want lad_mma_m16n8k16_f32_bf16 $t HMMA.16816.F32.BF16
    want lad_mma_m16n8k16_f16_f16 $t HMMA.16816.F16
    # the half-K shapes
    want lad_mma_m16n8k4_f32_tf32 $t HMMA.1684.F32.TF32
    want lad_mma_m16n8k8_f32_f16 $t HMMA.1688.F32
    want lad_mma_m16n8k8_f32_bf16 $t HMMA.1688.F32.BF16
    want lad_mma_m16n8k8_f16_f16 $t HMMA.1688.F16
    for a in s8 u8; do for b in s8 u8; do
        want lad_mma_m16n8k32_s32_${a}_$b $t "IMMA.16832.$(up $a).$(up $b)"
        want lad_mma_m16n8k32_s32_${a}_${b}_sat $t "IMMA.16832.$(up $a).$(up $b).SAT"
    done; done
done
for acc in f32 f16; do for a in e4m3 e5m2; do for b in e4m3 e5m2; do
    for t in sm_89 sm_120a; do
        want lad_mma_m16n8k32_${acc}_${a}_$b $t "QMMA.16832.$(up $acc).$(up $a).$(up $b)"
        # m16n8k16 fp8 is in the table for sm_89 and sm_120a (emulated elsewhere)
        want lad_mma_m16n8k16_${acc}_${a}_$b $t "QMMA.16816.$(up $acc).$(up $a).$(up $b)"
    done
    # sm_90a and sm_100a: fp8 -> f16 unpacks and two f16 HMMAs
    for t in sm_90a sm_100a; do
        want lad_mma_m16n8k32_${acc}_${a}_$b $t HMMA.16816.$(up $acc) HMMA.16816.$(up $acc)
    done
done; done; done

# sm_120a mma.sync kinds (docs/kernels.md): kind::f8f6f4 is QMMA.16832 with
# both element types, kind::mxf8f6f4 QMMA.SF with E8 (ue8m0) scales,
# mxf4 and mxf4nvf4 2X OMMA.SF ... .E8, mxf4nvf4 4X with ue4m3 .UE4M3.4X.
for a in e4m3 e5m2 e2m3 e3m2 e2m1; do for b in e4m3 e5m2 e2m3 e3m2 e2m1; do
    for acc in f32 f16; do
        want lad_mma_f8f6f4_m16n8k32_${acc}_${a}_$b sm_120a "QMMA.16832.$(up $acc).$(up $a).$(up $b)"
    done
    want lad_mma_mxf8f6f4_m16n8k32_f32_${a}_$b sm_120a "QMMA.SF.16832.F32.$(up $a).$(up $b).E8"
done; done
want lad_mma_mxf4_m16n8k64_f32 sm_120a OMMA.SF.16864.F32.E2M1.E2M1.E8
want lad_mma_mxf4nvf4_2x_m16n8k64_f32 sm_120a OMMA.SF.16864.F32.E2M1.E2M1.E8
want lad_mma_mxf4nvf4_4x_m16n8k64_f32 sm_120a OMMA.SF.16864.F32.E2M1.E2M1.UE4M3.4X

# wgmma, sm_90a only.
want lad_wgmma_m64n8k16_f32_f16 sm_90a HGMMA.64x8x16.F32
want lad_wgmma_m64n8k16_f32_bf16 sm_90a HGMMA.64x8x16.F32.BF16
want lad_wgmma_m64n8k16_f16_f16 sm_90a HGMMA.64x8x16.F16
want lad_wgmma_m64n8k8_f32_tf32 sm_90a HGMMA.64x8x8.F32.TF32
for acc in f32 f16; do for a in e4m3 e5m2; do for b in e4m3 e5m2; do
    want lad_wgmma_m64n8k32_${acc}_${a}_$b sm_90a "QGMMA.64x8x32.$(up $acc).$(up $a).$(up $b)"
done; done; done
for a in s8 u8; do for b in s8 u8; do
    want lad_wgmma_m64n8k32_s32_${a}_$b sm_90a "IGMMA.64x8x32.$(up $a).$(up $b)"
    want lad_wgmma_m64n8k32_s32_${a}_${b}_sat sm_90a "IGMMA.64x8x32.$(up $a).$(up $b).SAT"
done; done

# tcgen05.mma, sm_100a only: the kind picks the opcode.
want lad_tcgen05_tf32 sm_100a UTCHMMA
want lad_tcgen05_f16 sm_100a UTCHMMA
want lad_tcgen05_f8f6f4 sm_100a UTCQMMA
want lad_tcgen05_i8 sm_100a UTCIMMA
want lad_tcgen05_mxf8f6f4 sm_100a UTCQMMA
want lad_tcgen05_mxf4 sm_100a UTCOMMA
want lad_tcgen05_mxf4nvf4_2x sm_100a UTCOMMA
want lad_tcgen05_mxf4nvf4_4x sm_100a UTCOMMA.4X

# Every expected line is printed (columns squeezed), and nothing else.
tr -s ' ' <"$TMP/sass" | sort >"$TMP/got.sorted"
sort "$TMP/want" >"$TMP/want.sorted"
while read -r k t ops; do
    if grep -qx "$k $t $ops" "$TMP/got.sorted"; then
        ok "sass-$k-$t"
    else
        fail "sass-$k-$t" "expected '$ops', got '$(grep "^$k $t " "$TMP/got.sorted" | cut -d' ' -f3-)'"
    fi
done <"$TMP/want.sorted"
extra=$(comm -13 "$TMP/want.sorted" "$TMP/got.sorted" | head -n 3)
if [ -z "$extra" ]; then ok sass-no-unexpected-lines; else
    fail sass-no-unexpected-lines "$extra"; fi

# fp8 mma.sync built for sm_90a is HMMA, never QMMA: checked again straight
# on the cubin with cuobjdump, bypassing ladder's own parsing.
CUBIN=$BUILD/kernels/mma_sync.sm_90a.cubin
if [ -f "$CUBIN" ]; then
    "$CU" -sass "$CUBIN" >"$TMP/sm90a.sass" 2>&1
    awk '/Function : lad_mma_m16n8k32_f32_e4m3_e4m3$/ {on=1; next}
         /Function :/ {on=0} on' "$TMP/sm90a.sass" >"$TMP/fp8.sass"
    if grep -q 'HMMA\.16816\.F32' "$TMP/fp8.sass" && ! grep -q QMMA "$TMP/fp8.sass"; then
        ok sass-fp8-sm90a-not-qmma
    else
        fail sass-fp8-sm90a-not-qmma "$(grep -E 'MMA' "$TMP/fp8.sass" | head -n 2)"
    fi
else
    fail sass-fp8-sm90a-not-qmma "no cubin '$CUBIN' (BUILD=$BUILD)"
fi

# --check agrees with the kernel table; the filters work.
run_ladder sass --check
expect_rc sass-check-rc 0
if grep -q '^FAIL' "$out"; then fail sass-check-all-ok "$(grep '^FAIL' "$out" | head -n 1)"
else ok sass-check-all-ok; fi
run_ladder sass --target sm_89 lad_mma_m16n8k32_f16_e5m2_e4m3
expect_rc sass-filter-rc 0
expect_out_eq sass-filter-one-line "$(printf '%-36s %-8s %s' lad_mma_m16n8k32_f16_e5m2_e4m3 sm_89 QMMA.16832.F16.E5M2.E4M3)"
expect_usage_error sass-unknown-kernel sass lad_no_such_kernel
expect_usage_error sass-unknown-target sass --target sm_75
# the sm_120a target alone lists its 110 kernels
run_ladder sass --target sm_120a
expect_rc sass-sm120a-rc 0
n=$(grep -c ' sm_120a ' "$out")
[ "$n" -eq 110 ] && ok sass-sm120a-kernels || fail sass-sm120a-kernels "$n sm_120a lines, not 110"
test_done
