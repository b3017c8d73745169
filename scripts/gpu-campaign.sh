#!/bin/sh
# scripts/gpu-campaign.sh: what only a GPU can settle, in one command on a
# GPU machine (meant for one H200 with 16 cores in at most 9 minutes; not
# yet timed on one, see docs/campaign.md):
#
#   1. `ladder sass --check` of the embedded kernels with the toolkit's own
#      cuobjdump, when the machine has one;
#   2. `ladder survey --device cuda:0` of every datapath the GPU runs (on an
#      H200 the sm_90a ones, on a B200 the sm_100a mma.sync and tcgen05
#      suite, on an RTX Blackwell the sm_120a kinds), CASES validation cases
#      each, in JOBS shards at once, merged into one store;
#   3. the deciding cases of scripts/campaign/*.vec (the sign of a zero
#      result, overflow between passes, class A's Hopper analogue) through
#      every preset of this GPU's arch each file names: the GPU's words are
#      captured and compared with ladder's;
#   4. the stored words of every fp8 mma.sync run of the survey exported as
#      captures (`ladder check` replays them; on a B200 they decide the
#      derived sm100 fp8 presets);
#   5. the cublaslt device on the instruction's bf16, f16 and fp8 GEMMs,
#      with the heuristic's algorithm, forced split-K 2 and 4, and fast
#      accumulation for fp8: random cases against the one-MMA program
#      (`ladder validate`), and the sumtree rung's reduction order;
#   6. whole GEMMs at SIZES (64x64x8192, where cuBLASLt tends to split K,
#      and 256x256x1024) through `ladder gemm --device cublaslt:0`, each
#      compared word for word with `ladder gemm --program` of the plain main
#      loop, split-K 2 to 16 with serial or tree reduction, and fp8
#      promotion every 4 MMAs; the README names the programs that match.
#
# Everything goes to RESULTS (default results/<gpu>/campaign, e.g.
# results/h200/campaign): README.md (what ran, the outcome of each step, the
# times), survey.md, ladder.db, captures/*.vec and logs/.
#
#   sh scripts/gpu-campaign.sh            # on the GPU machine
#   DRY=sm_90a sh scripts/gpu-campaign.sh # the same steps on simulated
#                                         # devices, for the tests
#
# Environment: LADDER (default ./ladder; `make` builds it when missing),
# RESULTS, CASES (10000000), JOBS (the CPUs), SURVEY_SECS (330: the survey
# stops there and the shards that finished are merged), ONLY (a glob of
# presets for the survey, default all), LT_CASES (1000000 per cublaslt
# validation), SIZES, PYTHON (python3, with numpy: makes step 6's arrays),
# DRY (an arch: sim:<preset> devices stand in for the GPU and for cuBLASLt,
# a split-4 tree program for cuBLASLt's GEMMs, and the README says so).
# Exit 0 when every step ran; the outcomes (mismatches, disagreements) are
# in the README, not the status.
set -u

LADDER=${LADDER:-./ladder}
CASES=${CASES:-10000000}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
SURVEY_SECS=${SURVEY_SECS:-330}
LT_CASES=${LT_CASES:-1000000}
ONLY=${ONLY:-}
DRY=${DRY:-}
CAMPAIGN=$(dirname "$0")/campaign

[ -x "$LADDER" ] || make -j"$JOBS" || exit 2
start=$(date +%s)
now() { date -u '+%Y-%m-%d %H:%M:%S UTC'; }
secs() { echo $(($(date +%s) - $1)); }
# section TITLE [LINE...]: starts a section's clock ($t) and writes its
# heading, then the lines that introduce it, to the README.
section() {
    t=$(date +%s)
    printf '## %s\n\n' "$1" >>"$README"
    shift
    if [ $# -gt 0 ]; then printf '%s\n' "$@" >>"$README"; fi
}
# took [NOTE]: closes a section with the seconds it took (and NOTE).
took() { printf '\n(%s s%s)\n\n' "$(secs "$t")" "${1:-}" >>"$README"; }

# ---- 0. what this machine is -------------------------------------------------
if [ -n "$DRY" ]; then
    arch=$DRY
    gpu="simulated $DRY (DRY run: sim devices stand in for the GPU and cuBLASLt)"
    tag=dry
else
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        echo "gpu-campaign: no nvidia-smi: not a GPU machine (DRY=<arch> runs the steps on simulated devices)" >&2
        exit 4
    fi
    gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | head -n 1)
    case $(echo "$gpu" | cut -d, -f2 | tr -d ' ') in
    9.0) arch=sm_90a ;;
    10.0) arch=sm_100a ;;
    12.0) arch=sm_120a ;;
    8.9) arch=sm_89 ;;
    8.*) arch=sm_80 ;;
    *) echo "gpu-campaign: no campaign for '$gpu'" >&2; exit 4 ;;
    esac
    tag=$(echo "$gpu" | cut -d, -f1 | awk '{print tolower($NF)}')
fi
num=$(echo "$arch" | tr -cd '0-9')
RESULTS=${RESULTS:-results/$tag/campaign}
mkdir -p "$RESULTS/captures" "$RESULTS/logs" || exit 2
W=$RESULTS/work
rm -rf "$W" && mkdir -p "$W" || exit 2
README=$RESULTS/README.md.tmp
dev_for() { # dev_for PRESET: the device that computes PRESET's instruction
    if [ -n "$DRY" ]; then echo "sim:$1"; else echo cuda:0; fi
}
lt_for() { # lt_for PRESET OPTIONS
    if [ -n "$DRY" ]; then echo "sim:$1"; else echo "cublaslt:0${2:+:$2}"; fi
}
{
    echo "# GPU campaign: $gpu"
    echo
    echo "Written by \`scripts/gpu-campaign.sh\` on $(now), ladder"
    echo "$("$LADDER" --version 2>/dev/null | head -n 1), arch $arch; nothing here is edited by hand."
    [ -n "$DRY" ] && echo "This is a DRY run: no GPU took part, every device is simulated." && echo
} >"$README"

# ---- 1. sass ---------------------------------------------------------------
t=$(date +%s)
if [ -z "$DRY" ] && "$LADDER" sass --check >"$RESULTS/logs/sass.txt" 2>&1; then
    sass="all $(grep -c '^ok' "$RESULTS/logs/sass.txt") kernel/target opcodes as expected"
elif [ -z "$DRY" ]; then
    sass="FAILED or no cuobjdump: $(grep -v '^ok' "$RESULTS/logs/sass.txt" | head -n 3 | tr '\n' ' ')"
else
    sass="skipped (DRY)"
fi
printf '## 1. sass\n\n%s (%s s; logs/sass.txt)\n\n' "$sass" "$(secs "$t")" >>"$README"

# ---- 2. survey, sharded ----------------------------------------------------
t=$(date +%s)
sdev=cuda:0
[ -n "$DRY" ] && sdev=sim:$arch
i=0
pids=
while [ "$i" -lt "$JOBS" ]; do
    shard=
    [ "$JOBS" -gt 1 ] && shard="--shard $i/$JOBS"
    timeout "$SURVEY_SECS" "$LADDER" survey --device "$sdev" --cases "$CASES" \
        $shard --db "$W/shard$i.db" ${ONLY:+--only "$ONLY"} \
        >"$RESULTS/logs/survey-shard$i.txt" 2>&1 &
    pids="$pids $!"
    i=$((i + 1))
done
# A shard that finished exits 0 (all as their preset) or 1; one the time
# limit stopped (124) cannot be merged, and its datapaths are missing.
finished=0
shards=
unfinished=
i=0
for p in $pids; do
    wait "$p"
    src=$?
    if [ "$src" -le 1 ]; then
        finished=$((finished + 1))
        shards="$shards $W/shard$i.db"
    else
        unfinished="$unfinished $i (exit $src)"
    fi
    i=$((i + 1))
done
rm -f "$RESULTS/ladder.db"
if [ "$JOBS" -gt 1 ]; then
    "$LADDER" merge "$RESULTS/ladder.db" $shards --partial >"$RESULTS/logs/merge.txt" 2>&1
    mrc=$?
    sid=$(sed -n 's/^merge: survey \([0-9]*\) .*/\1/p' "$RESULTS/logs/merge.txt" | head -n 1)
else
    # one job: its store is the survey's (survey 1 of a new store)
    cp $shards "$RESULTS/ladder.db" 2>/dev/null && echo "one store, not sharded" >"$RESULTS/logs/merge.txt"
    mrc=$?
    sid=1
fi
if [ "$mrc" = 0 ] && [ -n "$sid" ]; then
    "$LADDER" report "survey:$sid" --db "$RESULTS/ladder.db" --format md \
        -o "$RESULTS/survey.md" >/dev/null 2>"$RESULTS/logs/report.txt"
fi
{
    echo "## 2. survey on $sdev"
    echo
    echo "$CASES validation cases per datapath, $JOBS shards, at most $SURVEY_SECS s:"
    echo "$finished of $JOBS shards finished ($(secs "$t") s)${unfinished:+; not finished, so not merged:$unfinished}."
    echo "Merged: $(head -n 1 "$RESULTS/logs/merge.txt")."
    echo "The table is survey.md; each shard's own table is in logs/survey-shard*.txt."
    echo
    cat "$RESULTS"/logs/survey-shard*.txt | grep -E '^(sm|cdna)[0-9]' | sort | sed 's/^/    /'
    echo
} >>"$README"

# ---- 3. deciding cases -------------------------------------------------------
section "3. deciding cases (scripts/campaign)" \
    "| file | preset | cases | the device's words | ladder's words | ladder agrees |" \
    "|---|---|---|---|---|---|"
for f in "$CAMPAIGN"/*.vec; do
    base=$(basename "$f" .vec)
    for p in $(sed -n 's/^# presets: //p' "$f"); do
        case $p in sm$num-*) ;; *) continue ;; esac
        "$LADDER" presets | awk '{print $1}' | grep -qx "$p" || continue
        cap=$RESULTS/captures/$base.$p.vec
        if ! "$LADDER" eval --model "$p" --device "$(dev_for "$p")" "$f" >"$W/dev.txt" 2>"$W/err.txt"; then
            echo "| $base | $p | - | failed: $(head -n 1 "$W/err.txt") | | |" >>"$README"
            continue
        fi
        "$LADDER" eval --model "$p" "$f" >"$W/model.txt"
        {
            echo "# source: scripts/gpu-campaign.sh on $gpu, $(now); cases $f"
            echo "# gpu: $tag"
            echo "# arch: $arch"
            "$LADDER" model show "$p" | sed -n 's/^instr: /# instruction: /p; s/^shape: /# shape: /p;
                s/^a: /# a: /p; s/^b: /# b: /p; s/^c: /# c: /p'
            d=$("$LADDER" model show "$p" | sed -n 's/^d: //p')
            case $d in e8m13) d=f32 ;; esac
            echo "# d: $d"
            sed -n 's/^# k: /# k: /p' "$f"
            grep -v '^#' "$f" | grep . | paste -d';' - "$W/dev.txt"
        } >"$cap"
        n=$(wc -l <"$W/dev.txt" | tr -d ' ')
        agree=$(paste -d' ' "$W/dev.txt" "$W/model.txt" | awk '$1 == $2' | wc -l | tr -d ' ')
        echo "| $base | $p | $n | $(tr '\n' ' ' <"$W/dev.txt") | $(tr '\n' ' ' <"$W/model.txt") | $agree of $n |" >>"$README"
    done
done
took "; the device's words are in captures/<file>.<preset>.vec"

# ---- 4. fp8 mma.sync words of the survey -------------------------------------
section "4. fp8 mma.sync captures of the survey"
if [ -f "$RESULTS/ladder.db" ]; then
    "$LADDER" history --db "$RESULTS/ladder.db" 2>/dev/null |
        awk '$2 == "ok" && ($NF == "survey" || $NF == "run") && $(NF-1) ~ /-mma-e[45]m[23]/ {print $1, $(NF-1)}' |
        while read -r id p; do
            cap=$RESULTS/captures/survey.$p.vec
            if "$LADDER" export "$id" --rung random -o "$cap" --db "$RESULTS/ladder.db" >/dev/null 2>&1; then
                echo "- $p: $("$LADDER" check --model "$p" "$cap" 2>&1 | head -n 1)" >>"$README"
            fi
        done
fi
took

# ---- 5. cuBLASLt -------------------------------------------------------------
section "5. cuBLASLt against the one-MMA program" \
    "Each case is one row of A and one column of B of a 256 x 256 x K GEMM" \
    "(K the instruction's), C on the diagonal (devices/cublaslt.c). The" \
    "preset is the program of one MMA; a mismatch means cuBLASLt's kernel" \
    "sums otherwise, and the sumtree rung's tree says how." \
    "" \
    "| preset | options | validate | sumtree |" \
    "|---|---|---|---|"
case $num in
90) lt="sm90-mma-bf16-f32 sm90-mma-f16-f32 sm90-wgmma-e4m3-f32" ;;
100) lt="sm100-mma-bf16-f32 sm100-mma-f16-f32 sm100-tcgen05-e4m3-f32" ;;
120) lt="sm120-mma-bf16-f32 sm120-mma-f16-f32 sm120-mma-e4m3-f32" ;;
*) lt="sm${num}-mma-bf16-f32 sm${num}-mma-f16-f32" ;;
esac
for p in $lt; do
    "$LADDER" presets | awk '{print $1}' | grep -qx "$p" || continue
    optsets="- split_k=2 split_k=4"
    case $p in *e4m3*) optsets="$optsets fast_accum=1" ;; esac
    for o in $optsets; do
        [ "$o" = - ] && o=
        dev=$(lt_for "$p" "$o")
        safe=$(echo "$p.${o:-default}" | tr '=' '-')
        "$LADDER" validate --model "$p" --device "$dev" --cases "$LT_CASES" \
            --db "$W/lt.db" >"$RESULTS/logs/cublaslt.$safe.txt" 2>&1
        v=$(grep -iE 'mismatch' "$RESULTS/logs/cublaslt.$safe.txt" | head -n 1)
        [ -n "$v" ] || v="failed: $(tail -n 1 "$RESULTS/logs/cublaslt.$safe.txt")"
        k=$("$LADDER" model show "$p" | sed -n 's/^k: //p')
        {
            echo "recipe: 1"
            echo "description: the summation order of $p through $dev"
            echo "datapath:"
            "$LADDER" model show "$p" | grep -E '^(name|arch|instr|a|b|c|d): ' | sed 's/^/  /; s/: e8m13$/: f32/'
            echo "  k: $k"
            echo "device: \"$dev\""
            echo "rungs:"
            echo "  - sumtree"
        } >"$W/sumtree.yaml"
        rm -f "$W/st.db"
        tree=
        if "$LADDER" run "$W/sumtree.yaml" --db "$W/st.db" >"$RESULTS/logs/sumtree.$safe.txt" 2>&1 &&
            "$LADDER" infer 1 --db "$W/st.db" >>"$RESULTS/logs/sumtree.$safe.txt" 2>&1; then
            tree=$(sed -n 's/^sumtree  *[0-9]* lanes: //p' "$RESULTS/logs/sumtree.$safe.txt" | head -n 1)
        fi
        if [ -z "$tree" ]; then
            why=$(grep -m 1 '^ladder: ' "$RESULTS/logs/sumtree.$safe.txt" | sed 's/^ladder: //')
            tree="no tree: ${why:-see logs/sumtree.$safe.txt}"
        fi
        echo "| $p | ${o:-heuristic} | $v | $tree |" >>"$README"
    done
done
took

# ---- 6. whole GEMMs: cuBLASLt against ladder gemm programs -------------------
# Random A and B (numpy; ml_dtypes not needed), one GEMM per size through
# `ladder gemm --device cublaslt:0` (the heuristic's algorithm; it prints
# what it chose), then `ladder gemm --program` for each program below; the
# README names those whose D is the GPU's, byte for byte.
section "6. whole GEMMs: cuBLASLt against ladder gemm programs" \
    "| preset | M x N x K | cuBLASLt chose | programs that give its D |" \
    "|---|---|---|---|"
PYTHON=${PYTHON:-python3}
SIZES=${SIZES:-64x64x8192 256x256x1024}
mkprog() { # mkprog NAME PROMOTE SPLIT REDUCE
    printf 'program:\n  promote: %s\n  split: %s\n  reduce: %s\n' "$2" "$3" "$4" >"$W/$1.yaml"
}
progs="mainloop splitk2-serial"
for sp in 2 4 8 16; do for r in serial tree; do
    mkprog "split$sp-$r" 0 "$sp" "$r"
    progs="$progs $W/split$sp-$r.yaml"
done; done
for p in $lt; do
    "$LADDER" presets | awk '{print $1}' | grep -qx "$p" || continue
    a=$("$LADDER" model show "$p" | sed -n 's/^a: //p')
    pp=$progs
    case $a in e4m3|e5m2)
        pp="$pp fp8-promote4"
        for sp in 2 4; do mkprog "promote4-split$sp" 4 "$sp" serial; pp="$pp $W/promote4-split$sp.yaml"; done ;;
    esac
    for size in $SIZES; do
        m=${size%%x*}; rest=${size#*x}; n=${rest%%x*}; k=${rest#*x}
        if ! "$PYTHON" - "$W/a.npy" "$W/b.npy" "$a" "$m" "$n" "$k" <<'PY' 2>"$W/py.txt"
import sys, numpy as np
pa, pb, fmt, m, n, k = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:])
rng = np.random.default_rng(1)
def words(shape):
    if fmt in ("e4m3", "e5m2"):
        w = rng.integers(0, 256, shape, dtype=np.uint8)
        nan = (w & 0x7f) == 0x7f if fmt == "e4m3" else (w & 0x7c) == 0x7c
        w[nan] = 0
        return w
    x = rng.standard_normal(shape, dtype=np.float32)
    if fmt == "f16":
        return x.astype(np.float16).view(np.uint16)
    if fmt == "bf16":
        return (x.view(np.uint32) >> 16).astype(np.uint16)
    return x.view(np.uint32) & np.uint32(0xffffe000)  # tf32 in f32 words
np.save(pa, words((m, k)))
np.save(pb, words((k, n)))
PY
        then
            echo "| $p | $size | no arrays: $(tail -n 1 "$W/py.txt") | |" >>"$README"
            continue
        fi
        if [ -n "$DRY" ]; then
            # the stand-in for cuBLASLt: a program the search must name
            chose="DRY: ladder gemm with split 4, tree reduction"
            mkprog truth 0 4 tree
            "$LADDER" gemm --datapath "$p" --program "$W/truth.yaml" "$W/a.npy" "$W/b.npy" \
                -o "$W/gpu.npy" >"$W/lt.txt" 2>&1
        else
            "$LADDER" gemm --datapath "$p" --device cublaslt:0 "$W/a.npy" "$W/b.npy" \
                -o "$W/gpu.npy" >"$W/lt.txt" 2>&1
            chose=$(head -n 1 "$W/lt.txt")
        fi
        if [ ! -s "$W/gpu.npy" ]; then
            echo "| $p | $size | failed: $(tail -n 1 "$W/lt.txt") | |" >>"$README"
            continue
        fi
        cp "$W/gpu.npy" "$RESULTS/captures/gemm.$p.$size.npy"
        same=
        for g in $pp; do
            rm -f "$W/prog.npy"
            "$LADDER" gemm --datapath "$p" --program "$g" "$W/a.npy" "$W/b.npy" \
                -o "$W/prog.npy" >/dev/null 2>&1 || continue
            cmp -s "$W/prog.npy" "$W/gpu.npy" && same="$same $(basename "$g" .yaml)"
        done
        echo "| $p | $size | $chose | ${same:-none of:$(for g in $pp; do printf ' %s' "$(basename "$g" .yaml)"; done)} |" >>"$README"
    done
done
{
    echo
    echo "($(secs "$t") s; the GPU's D of each is captures/gemm.<preset>.<size>.npy.) A"
    echo "program is the main loop, split-K and reduction of docs/commands/gemm.md"
    echo "over the instruction's preset; \"none\" means cuBLASLt's kernel is none of them."
    echo
    echo "Total: $(secs "$start") s."
} >>"$README"
rm -rf "$W"
mv "$README" "$RESULTS/README.md"
cat "$RESULTS/README.md"
exit 0
