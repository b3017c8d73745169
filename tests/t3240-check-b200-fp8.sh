#!/bin/sh
# fp8 mma.sync on sm_100a: ptxas emits what it emits on sm_90a (fp8->f16
# unpacks, an HMMA.16816 on the low two bytes of each register from zero, a
# chained one on the high two, FADD/HADD2 of C), so the sm100 fp8 mma.sync
# presets are derived from the SASS and the sm90 rule. No B200 fp8
# mma.sync word has been captured; the files in tests/data/b200-fp8 are
# written by hand (values worked out from that SASS, not from ladder) so that
# `ladder check` of a B200 capture names and uses those presets:
#   e4m3-f32 line 1: 1.0 * 2.0 = 2.0 exactly;
#   line 2: 1.5 + C = 2^24: FADD rounds 2^24 + 1.5 to nearest, 2^24 + 2
#     (a window truncated toward zero, as tcgen05, keeps 2^24);
#   line 3: 448*448 in lanes 0 and 2 with opposite signs, 2^-9 in lane 16:
#     the first HMMA holds lanes 0 and 16 (k mod 4 < 2) and drops 2^-9
#     below 2^17's window, the second cancels: +0 (a split of K into lanes
#     0-15 and 16-31 would give 2^-9).
#   e5m2 x e4m3 -> f16: 1.0 * 2.0 = 2.0; 1.5 + C = 2048: HADD2 gives 2050.
. tests/lib.sh
D=tests/data/b200-fp8

run_ladder presets
expect_rc b200-fp8-presets-rc 0
for ab in e4m3 e5m2 e4m3xe5m2 e5m2xe4m3; do for d in f32 f16; do
    p=sm100-mma-$ab-$d
    line=$(awk -v p="$p" '$1 == p' "$out")
    if printf '%s\n' "$line" | grep -q " derived: .*parameters of sm[0-9]*-mma-"; then
        ok "b200-fp8-preset-$ab-$d"
    else
        fail "b200-fp8-preset-$ab-$d" "no derived preset '$p': '$line'"
    fi
done; done

run_ladder check "$D/b200-e4m3-f32.vec" "$D/b200-e5m2xe4m3-f16.vec"
expect_rc b200-fp8-check-rc 0
expect_no_err b200-fp8-check-no-stderr
expect_out b200-fp8-check-e4m3-f32 "^$D/b200-e4m3-f32.vec: 0/3 mismatches \\(sm100-mma-e4m3-f32\\)\$"
expect_out b200-fp8-check-e5m2xe4m3-f16 "^$D/b200-e5m2xe4m3-f16.vec: 0/2 mismatches \\(sm100-mma-e5m2xe4m3-f16\\)\$"

# the file separates the derived rule from its neighbours: tcgen05's window
# (C inside it, toward zero) misses line 2; the contiguous split, line 3
run_ladder check --model sm100-tcgen05-e4m3-f32 "$D/b200-e4m3-f32.vec"
expect_out b200-fp8-tcgen05-misses-c-last "^  line 12: expected 4b800001, got 4b800000"
"$LADDER" model show sm100-mma-e4m3-f32 | sed 's/^order:.*/order: none/; s/^name:.*/name: contiguous/' >"$TMP/contig.yaml"
run_ladder check --model "$TMP/contig.yaml" "$D/b200-e4m3-f32.vec"
expect_out b200-fp8-contiguous-misses-order "^  line 13: expected 00000000, got 3b000000"

# the recipe names the preset and climbs on the simulated device
run_ladder recipe check recipes/sm100-mma-e4m3-f32.yaml
expect_rc b200-fp8-recipe-rc 0

test_done
