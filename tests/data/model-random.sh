#!/bin/sh
# model-random.sh LADDER SEED: a random draw from the datapath parameter
# space, as a model file on stdout, for the blind-recovery test
# (tests/t5100-blind-recovery.sh). The instruction (formats, K, scales,
# sparsity) comes from a preset picked by the seed; every arithmetic
# parameter the model family has is then drawn: window, pass, chain,
# c_anchor, align_round, acc (f32 or e8mN), acc_round, d_round, d_via_acc,
# anchor_min, zero_floor, in_round (tf32), overflow. One draw in four of the
# 8-bit kinds replaces A and B with a user-defined format (e3m4, e2m5,
# e5m2 with another bias, ...), which the recipe declares by name and
# width only. The seed alone decides the draw (awk's srand is portable).
L=$1
SEED=$2
t=$(mktemp)
presets="sm80-mma-f16-f32 sm80-mma-bf16-f32 sm80-mma-tf32-f32 sm89-mma-e4m3-f32 sm89-mma-e5m2-f16
sm90-mma-f16-f16 sm90-mma-bf16-f32 sm90-wgmma-e4m3-f32 sm100-tcgen05-tf32-f32 sm100-tcgen05-bf16-f32
sm100-tcgen05-f16-f32 sm100-tcgen05-e4m3-f32 sm100-tcgen05-e2m3-f32 sm100-tcgen05-e3m2-f32
sm100-tcgen05-e2m1-f32 sm100-tcgen05-sp-bf16-f32 sm70-mma-f16-f32 sm100-tcgen05-e4m3xe2m1-f32"
base=$(echo $presets | awk -v s="$SEED" '{srand(s); print $(1 + int(rand() * NF))}')
"$L" model show "$base" | grep -v '^#' >"$t"
get() { grep "^$1:" "$t" | head -1 | sed "s/^$1: *//"; }
k=$(get k)
sp=$(get sparse)
a=$(get a)
awk -v s="$SEED" -v k="$k" -v sp="$sp" -v a="$a" -v base="$base" '
function pick(n) { return int(rand() * n) }
function range(lo, hi) { return lo + pick(hi - lo + 1) }
BEGIN {
    srand(s * 7919 + 13); pick(2)
    kp = (sp == "none") ? k : k / 2
    n = 0; for (l = 1; l <= kp; l *= 2) if (kp % l == 0) div[n++] = l
    rn[0] = "rz"; rn[1] = "rne"; rn[2] = "ru"; rn[3] = "rd"
    al[0] = "rz"; al[1] = "rd"; al[2] = "rne"
    P["name"] = "random-" s
    P["window"] = range(13, 40)
    P["pass"] = pick(3) ? div[n - 1] : div[pick(n)]
    P["chain"] = pick(4) ? "chain" : "sum"
    P["c_anchor"] = pick(4) ? "true" : "false"
    P["align_round"] = al[pick(4) ? 0 : pick(3)]
    P["acc_round"] = rn[pick(2) ? 0 : pick(4)]
    P["d_round"] = rn[pick(2) ? 0 : pick(4)]
    P["d_via_acc"] = pick(4) ? "false" : "true"
    if (!pick(4)) P["acc"] = "{name: e8m" (m = range(10, 22)) ", width: 32, pad: " 23 - m ", ebits: 8, mbits: " m ", bias: 127}"
    P["anchor_min"] = pick(3) ? "none" : range(-160, -126)
    P["zero_floor"] = pick(4) ? "none" : range(-160, -126)
    P["overflow"] = pick(3) ? "inf" : "sat"
    if (a == "tf32") P["in_round"] = pick(2) ? "rz" : (pick(2) ? "rne" : "rna")
    # user-defined 8-bit element formats
    if ((a == "e4m3" || a == "e5m2") && base !~ /x/ && !pick(3)) {
        u = pick(4)
        if (u == 0) f = "{name: e3m4, width: 8, ebits: 3, mbits: 4, bias: 3, inf: none, nan: none}"
        if (u == 1) f = "{name: e2m5, width: 8, ebits: 2, mbits: 5, bias: 1, inf: none, nan: none}"
        if (u == 2) f = "{name: e5m2b16, width: 8, ebits: 5, mbits: 2, bias: 16}"
        if (u == 3) f = "{name: e4m3fn, width: 8, ebits: 4, mbits: 3, bias: 8, inf: none, nan: ones}"
        P["a"] = f; P["b"] = f
    }
}
{
    key = $1; sub(/:$/, "", key)
    if (key in P) { print key ": " P[key]; next }
    print
}' "$t"
rm -f "$t"
