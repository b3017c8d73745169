#!/bin/sh
# model-random.sh LADDER SEED: a random draw from the datapath parameter
# space, as a model file on stdout, for the blind-recovery test
# (tests/t5100-blind-recovery.sh) and the coverage test
# (tests/t5105-random-draws.sh). The seed alone decides the draw (awk's
# srand is portable).
#
# A draw starts from a preset, which gives the instruction (K, sparsity,
# scales) and formats: a family is drawn first (NVIDIA unscaled, fp8
# mma.sync of sm_90a, block-scaled, sparse unscaled, AMD, f64, integer),
# then a preset of it. Then the structure of the sum is drawn, mostly the preset's own, one
# time in four another that fits the formats:
#   window   one window below the anchor (window, align_round, c_anchor,
#            anchor_min, zero_floor, zero_sign), with the lane order of the
#            two-HMMA fp8 mma.sync (order by stride 1 or 2) and C added last
#            (c_last) among the draws;
#   two      the two-level window of CDNA3 (window2, align2_round, norm2,
#            even_odd, c2_drop);
#   exact    exact pass sums rounded once (ieee_zero);
#   tree     products rounded into acc and added pairwise (CDNA2);
#   scaled   the block-scaled kinds' group sums (group, scale_floor,
#            cdom_window, cdom_group, cdom_per_group, group_sub_floor);
#   integer  wrap or saturate.
# Around it every float datapath draws the passes (pass, chain, acc as f32,
# f32 cut to 10..22 fraction bits, f16, bf16 or the result's format,
# acc_round, d_round, d_via_acc), the result format's cut (d), overflow,
# the NaN word, the flushes (ftz_in, ftz_out) and the product overflow
# (prod_inf) where unscaled, and in_round where A or B is cut from a wider
# word. Every row's values come from the parameter registry, as `ladder
# model params --json BASE` gives them for the base: the candidates
# inference tries there (most plausible first) and, where params.def has
# a LAD_USUAL line, the values hardware shows, which come more often than
# the rest. The ways of drawing (the first candidates two times in three,
# the usual values four times in five) and the structure (which rows go
# together, which a structure resets) are written here; so are the cuts
# of d (to 14..22 fraction bits of f32, 6..9 of f16), the first window of
# a two-level sum (16..32, around CDNA3's 24) and the NaN words, which are
# about formats and structures rather than rows. A row this script does
# not draw by name (a new one) is drawn all the same, one time in two, as
# a candidate other than the first: so a row added to model/params.def
# with candidates takes values here with no line of its own. An 8- or
# 6-bit A or B of an unscaled base is
# replaced one time in three by another format: the fnuz pair of e4m3 and
# e5m2, the other OCP fp8, or a user-defined format given as a spec (e3m4,
# e2m5, e4m3 and e5m2 with another bias, flushed subnormals or no
# infinity), which the recipe then declares by name and width only; when
# both are user-defined they are the same one.
L=$1
SEED=$2
t=$(mktemp)
j=$(mktemp)
# family, then preset: rare structures come often enough in a few hundred
# draws whatever the number of presets of each
base=$("$L" presets | awk -v s="$SEED" '
NF {
    p = $1
    if (p ~ /^cdna/) f = 3
    else if (p ~ /-f64-f64/) f = 4
    else if (p ~ /-[su]8x[su]8-/) f = 5
    else if (p ~ /mxf|nvf4/) f = 2
    else if (p ~ /^sm90-mma-e[45]m/) f = 1
    else if (p ~ /-sp-/) f = 6
    else f = 0
    P[f, n[f]++] = p
}
END {
    srand(s); r = rand()
    f = r < 0.26 ? 0 : r < 0.36 ? 1 : r < 0.54 ? 2 : r < 0.62 ? 6 : r < 0.85 ? 3 : r < 0.93 ? 4 : 5
    print P[f, int(rand() * n[f])]
}')
"$L" model show "$base" | grep -v '^#' | grep -v '^evidence:' >"$t"
"$L" model params --json "$base" >"$j"
awk -v s="$SEED" -v base="$base" '
function pick(n) { return int(rand() * n) }
function range(lo, hi) { return lo + pick(hi - lo + 1) }
function chance(n) { return pick(n) == 0 }
function bool(n) { return chance(n) ? "true" : "false" }
# The registry (`ladder model params --json BASE`): row k has NC[k]
# candidates C[k, 0..], most plausible first, default DF[k], and where
# UL[k] is set the usual values UL[k]..UH[k].
function row(line,    k, r, v, u) {
    if (!match(line, /"key": "[^"]*"/)) return
    k = substr(line, RSTART + 8, RLENGTH - 9)
    if (match(line, /"default": "[^"]*"/)) DF[k] = substr(line, RSTART + 12, RLENGTH - 13)
    if (match(line, /"usual": \[-?[0-9]+, -?[0-9]+\]/)) {
        v = substr(line, RSTART + 10, RLENGTH - 11); split(v, u, ", "); UL[k] = u[1] + 0; UH[k] = u[2] + 0
    }
    NC[k] = 0
    if (!match(line, /"candidates": \[/)) return
    ROWS[nrows++] = k
    r = substr(line, RSTART + RLENGTH)
    while (match(r, /^"[^"]*"/)) {
        C[k, NC[k]++] = substr(r, 2, RLENGTH - 2)
        r = substr(r, RLENGTH + 1); sub(/^, /, "", r)
    }
}
# the first two candidates two times in three, else one of the rest (the
# roundings of a pass result and of D: rz, rne often)
function first2(k,    n) { n = NC[k] - 2; return C[k, pick(3) ? pick(2) : 2 + (n > 1 ? pick(n) : 0)] }
# the first candidate two times in three, else one of the rest
function first1(k) { return pick(3) ? C[k, 0] : C[k, NC[k] - 1 - pick(NC[k] - 1)] }
function any(k) { return C[k, pick(NC[k])] }
# a value between the least and the greatest candidate other than the default
function span(k,    i, lo, hi, v) {
    lo = ""; hi = ""
    for (i = 0; i < NC[k]; i++) {
        v = C[k, i]
        if (v == DF[k]) continue
        v += 0
        if (lo == "" || v < lo) lo = v
        if (hi == "" || v > hi) hi = v
    }
    return range(lo, hi)
}
function usual(k) { return UL[k] == UH[k] ? UL[k] : range(UL[k], UH[k]) }
# the fields of a format written as a name or a spec: ebits, mbits, bias
function fmt(f,    m, x, kv, i, nk) {
    FE = 0; FM = 0; FB = 0; FW = 0
    if (f in BE) { FE = BE[f]; FM = BM[f]; FB = BB[f]; FW = BW[f]; return }
    gsub(/"/, "", f)
    split(f, x, ":")
    if (x[1] in BE) { FE = BE[x[1]]; FM = BM[x[1]]; FB = BB[x[1]] }
    else if (match(x[1], /^e[0-9]+m[0-9]+$/)) {
        split(substr(x[1], 2), m, "m"); FE = m[1] + 0; FM = m[2] + 0; FB = 2 ^ (FE - 1) - 1
    }
    nk = split(x[2], kv, ",")
    for (i = 1; i <= nk; i++)
        if (kv[i] ~ /^bias=/) FB = substr(kv[i], 6) + 0
}
function top_exp() { return 2 ^ FE - FB }
function low_exp() { return 1 - FB - FM }
# the bits an exact pass sum can span (model/datapath.c, exact_span)
function exact_span(    hi, lo, e, i, fs) {
    fmt(V["a"]); hi = top_exp(); lo = low_exp()
    fmt(V["b"]); hi += top_exp(); lo += low_exp()
    fs[1] = V["c"]; fs[2] = ("acc" in P) ? P["acc"] : V["acc"]
    for (i = 1; i <= 2; i++) {
        fmt(fs[i])
        if (top_exp() > hi) hi = top_exp()
        if (low_exp() < lo) lo = low_exp()
    }
    return hi - lo + 8
}
function is8(f) { return f == "e4m3" || f == "e5m2" || f == "e4m3fnuz" || f == "e5m2fnuz" }
function is6(f) { return f == "e2m3" || f == "e3m2" }
# another format for an 8- or 6-bit A or B
function other(f,    u) {
    if (is6(f)) {
        u = pick(3)
        if (u == 0) return f == "e2m3" ? "e3m2" : "e2m3"
        if (u == 1) return "e3m2:bias=4,name=e3m2b4"
        return "e2m3:bias=2,sub=flush,name=e2m3ftz"
    }
    u = pick(9)
    if (u == 0) return f == "e4m3" ? "e4m3fnuz" : f == "e5m2" ? "e5m2fnuz" : f == "e4m3fnuz" ? "e4m3" : "e5m2"
    if (u == 1) return f ~ /^e4m3/ ? "e5m2fnuz" : "e4m3fnuz"
    if (u == 2) return f ~ /^e4m3/ ? "e5m2" : "e4m3"
    if (u == 3) return "e3m4:bias=3,inf=none,nan=none"
    if (u == 4) return "e2m5:bias=1,inf=none,nan=none"
    if (u == 5) return "e5m2:bias=16,name=e5m2b16"
    if (u == 6) return "e4m3:bias=8,name=e4m3b8"
    if (u == 7) return "e4m3:sub=flush,name=e4m3ftz"
    return "e5m2:inf=none,nan=ones,name=e5m2fn"
}
NR == FNR { row($0); next }
{
    key = $1; sub(/:$/, "", key)
    val = $0; sub(/^[a-z_0-9]+: */, "", val)
    V[key] = val; K[nk++] = key
}
END {
    split("f32 8 23 127 32 tf32 8 10 127 32 bf16 8 7 127 16 f16 5 10 15 16 e4m3 4 3 7 8 e5m2 5 2 15 8 e2m3 2 3 1 6 e3m2 3 2 3 6 e2m1 2 1 1 4 ue8m0 8 0 127 8 ue4m3 4 3 7 8 e4m3fnuz 4 3 8 8 e5m2fnuz 5 2 16 8 f64 11 52 1023 64", B, " ")
    for (i = 1; i in B; i += 5) { BE[B[i]] = B[i + 1]; BM[B[i]] = B[i + 2]; BB[B[i]] = B[i + 3]; BW[B[i]] = B[i + 4] }
    srand(s * 7919 + 13); pick(2)
    P["name"] = "random-" s
    k = V["k"] + 0
    kp = (V["sparse"] == "none") ? k : k / 2
    integer = V["integer"] == "true"
    scaled = V["scale_block"] + 0 > 0
    f64 = V["a"] == "f64"
    if (integer) {
        P["saturate"] = bool(2)
    } else {
        # the structure of the sum: the base'"'"'s, or one time in four another
        st = scaled ? "scaled" : V["exact"] == "true" ? "exact" : V["tree"] == "true" ? "tree" : V["window2"] + 0 > 0 ? "two" : "window"
        if (!scaled && chance(4)) {
            u = pick(4)
            st = f64 ? (u < 2 ? "exact" : "tree") : u == 0 ? "window" : u == 1 ? "two" : u == 2 ? "exact" : "tree"
        }
        # formats: 8- and 6-bit A and B of unscaled kinds
        if (!scaled && chance(3)) {
            if (is8(V["a"]) || is6(V["a"])) P["a"] = other(V["a"])
            if (is8(V["b"]) || is6(V["b"])) P["b"] = chance(3) && ("a" in P) ? P["a"] : other(V["b"])
            # two user-defined formats share one: the decode rung finds
            # each from a word that squares to 1.0 (probes/rung_decode.c)
            if (("a" in P) && ("b" in P) && P["a"] ~ /:/ && P["b"] ~ /:/) P["b"] = P["a"]
        }
        pa = V["a"]; pb = V["b"]
        if ("a" in P) V["a"] = P["a"]
        if ("b" in P) V["b"] = P["b"]
        if (V["a"] == "tf32" || V["b"] == "tf32") P["in_round"] = first2("in_round")
        # the result: its format cut below its width, rounding, overflow, NaN
        d = V["d"]
        if ((d == "f32" || d == "f16") && chance(10)) {
            m = range(d == "f32" ? 14 : 6, BM[d] - 1)
            P["d"] = "e" BE[d] "m" m ":pad=" BM[d] - m
        }
        P["d_round"] = first2("d_round")
        P["overflow"] = first1("overflow")
        if (chance(8)) {
            w = BW[d]
            if (w == 64) P["nan"] = chance(2) ? "0x7ff8000000000000" : "0xffffffffffffffff"
            else if (w == 16) P["nan"] = chance(2) ? "0x7e00" : "0xffff"
            else P["nan"] = chance(2) ? "0x7fc00000" : "0xffffffff"
        }
        # the passes
        # all of K two times in three (the first candidate), else any
        P["pass"] = (pick(3) ? C["pass", 0] : C["pass", (pick(NC["pass"]) + 1) % NC["pass"]]) + 0
        if (f64 && st == "exact") P["pass"] = 1
        P["chain"] = st == "tree" ? "sum" : pick(4) ? C["chain", 0] : C["chain", 1]
        # acc: f32 (the first candidate), a cut of it, f16, bf16 or the
        # format of the result
        u = pick(10)
        for (i = nc = 0; i < NC["acc"]; i++)
            if (C["acc", i] ~ /^e8m[0-9]+:/ && !(C["acc", i] in iscut)) cut[iscut[C["acc", i]] = ++nc] = C["acc", i]
        if (f64) P["acc"] = "f64"
        else if (u < 5) P["acc"] = C["acc", 0]
        else if (u < 7) P["acc"] = cut[nc - pick(nc)]
        else if (u < 8) P["acc"] = "f16"
        else if (u < 9) P["acc"] = "bf16"
        else P["acc"] = ("d" in P) ? P["d"] : V["acc"]
        P["acc_round"] = first2("acc_round")
        P["d_via_acc"] = bool(4)
        P["c_last"] = st == "tree" ? "false" : bool(5)
        # unscaled: flushes, products that overflow
        if (!scaled) {
            P["ftz_in"] = V["ftz_in"] == "true" ? (chance(4) ? "false" : "true") : bool(6)
            P["ftz_out"] = V["ftz_out"] == "true" ? (chance(4) ? "false" : "true") : bool(6)
            P["prod_inf"] = f64 || pick(4) ? DF["prod_inf"] : pick(2) ? usual("prod_inf") : span("prod_inf")
        }
        # reset the structure rows, then set the drawn one
        P["exact"] = "false"; P["tree"] = "false"; P["ieee_zero"] = "false"
        P["window2"] = 0; P["norm2"] = 0; P["even_odd"] = "false"; P["c2_drop"] = "false"
        P["order"] = "none"
        if (st == "exact") {
            P["exact"] = "true"; P["ieee_zero"] = bool(2)
            while (P["pass"] > 1 && exact_span() > 1152) P["pass"] /= 2
        } else if (st == "tree") {
            P["tree"] = "true"
        } else {
            P["window"] = chance(5) ? span("window") : usual("window")
            P["align_round"] = C["align_round", pick(3) ? 0 : pick(NC["align_round"])]
            P["c_anchor"] = chance(4) ? "false" : "true"
            P["anchor_min"] = pick(3) ? DF["anchor_min"] : span("anchor_min")
            P["zero_floor"] = pick(4) ? DF["zero_floor"] : span("zero_floor")
            P["zero_sign"] = bool(4)
        }
        if (st == "two") {
            P["window"] = range(16, 32)
            P["window2"] = chance(2) ? usual("window2") : span("window2")
            P["align2_round"] = any("align2_round")
            P["norm2"] = pick(3) ? (chance(2) ? usual("norm2") : span("norm2")) : DF["norm2"]
            P["even_odd"] = bool(2)
            P["c2_drop"] = bool(2)
        }
        if (st == "scaled") {
            sb = V["scale_block"] + 0
            # the group sizes that fit the passes
            ng = 0
            for (i = 0; i < NC["group"]; i++)
                if (P["pass"] % C["group", i] == 0 || P["pass"] == kp) gs[ng++] = C["group", i] + 0
            P["group"] = chance(3) ? DF["group"] : gs[pick(ng)]
            P["scale_floor"] = chance(3) ? DF["scale_floor"] : usual("scale_floor")
            P["cdom_window"] = chance(2) ? DF["cdom_window"] : usual("cdom_window")
            P["cdom_group"] = gs[pick(ng)]
            P["cdom_per_group"] = P["cdom_window"] > 0 && P["group"] > 1 ? bool(2) : "false"
            P["group_sub_floor"] = pick(3) ? DF["group_sub_floor"] : span("group_sub_floor")
        }
        # the lane order of the two-HMMA fp8 mma.sync: several passes, no
        # exact group sums
        grouped = st == "scaled" && (P["group"] > 1 || P["cdom_window"] > 0)
        if (P["pass"] < kp && !grouped && (base ~ /^sm90-mma-e/ ? pick(3) : chance(4))) {
            # candidates: physical order, then by stride 1 and 2
            r = NC["order"] > 2 && chance(2) ? 2 : 1
            if (NC["order"] > r && kp > 2 * r) P["order"] = C["order", r]
        }
        if (base ~ /^sm90-mma-e/ && st == "window" && pick(3)) P["c_last"] = "true"
    }
    # the rows not drawn above by name (a row new to the registry): one
    # time in two a candidate other than the first
    split("d in_round saturate window align_round zero_floor anchor_min c_anchor window2 " \
          "align2_round even_odd norm2 c2_drop exact ieee_zero tree prod_inf ftz_in ftz_out " \
          "pass chain acc acc_round d_round d_via_acc c_last zero_sign order overflow nan group " \
          "scale_floor cdom_window cdom_group cdom_per_group group_sub_floor", x, " ")
    for (i = 1; i in x; i++) named[x[i]] = 1
    for (i = 0; i < nrows; i++) {
        key = ROWS[i]
        if (!(key in named) && NC[key] > 1 && chance(2)) P[key] = C[key, 1 + pick(NC[key] - 1)]
    }
    for (i = 0; i < nk; i++) {
        key = K[i]
        print key ": " ((key in P) ? P[key] : V[key])
    }
}' "$j" "$t"
rm -f "$t" "$j"
