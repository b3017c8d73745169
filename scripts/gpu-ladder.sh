#!/bin/sh
# scripts/gpu-ladder.sh: the whole ladder on a GPU, in one command.
#
#     sh scripts/gpu-ladder.sh                 # on a machine with a GPU
#     DEVICE=sim sh scripts/gpu-ladder.sh      # the same on simulated devices
#
# For each datapath of the GPU's generation (Hopper: mma.sync and wgmma with
# f16, bf16, tf32, e4m3 and e5m2 into f32) it climbs the ladder on cuda:0,
# infers the model from the evidence alone, validates the inferred model on
# 1,000,000 random cases, compares the compiled-in preset with the GPU on
# 1,000,000 more, and replays the captured vectors of the same generation that
# are at hand (VECTORS). Everything goes under results/<gpu>/: the database,
# the inferred models, a log per step and table.txt, which is printed last.
# Budget: under 8 minutes on an H100 or H200 (about 2 here, see docs).
#
# Environment: LADDER (default ./ladder, built with `make` when missing),
# DEVICE (cuda:0; `sim` runs each recipe's own simulated device), CASES
# (1000000), VECTORS (vectors), OUT (also copy the results there
# as one archive, for machines whose files are fetched from one folder).
set -u

LADDER=${LADDER:-./ladder}
DEVICE=${DEVICE:-cuda:0}
CASES=${CASES:-1000000}
VECTORS=${VECTORS:-vectors}

[ -x "$LADDER" ] || make -j"$(nproc 2>/dev/null || echo 2)" || exit 2

if [ "$DEVICE" = sim ]; then
    gpu=sim
else
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 |
          awk '{print tolower($NF)}')
    [ -n "$gpu" ] || { echo "gpu-ladder: no GPU visible to nvidia-smi" >&2; exit 4; }
fi
dir=results/$gpu
mkdir -p "$dir/models" "$dir/logs"
db=$dir/ladder.db
rm -f "$db" "$db-wal" "$db-shm"
log=$dir/logs
table=$dir/table.txt

start=$(date +%s)
{
    echo "# ladder on $gpu: $($LADDER --version)"
    date -u '+# %Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,uuid,driver_version,compute_cap --format=csv,noheader 2>/dev/null |
        sed 's/^/# /'
} > "$table"
$LADDER sass > "$log/sass.txt" 2>&1
echo "# sass: $(grep -c . "$log/sass.txt") lines in logs/sass.txt (exit $?)" >> "$table"

case $gpu in
h100|h200|sim) recipes="sm90-mma-f16-f32 sm90-mma-bf16-f32 sm90-mma-tf32-f32
    sm90-mma-e4m3-f32 sm90-mma-e5m2-f32 sm90-wgmma-f16-f32 sm90-wgmma-bf16-f32
    sm90-wgmma-tf32-f32 sm90-wgmma-e4m3-f32 sm90-wgmma-e5m2-f32"
    vecs="h100" ;;
a100) recipes="sm80-mma-f16-f32 sm80-mma-bf16-f32 sm80-mma-tf32-f32 sm80-mma-f16-f16"
    vecs="a100" ;;
*) echo "gpu-ladder: no recipe list for '$gpu' yet" >&2; exit 2 ;;
esac

printf '%-22s %-6s %6s %-28s %-24s %-24s %5s\n' datapath run probes "inferred = preset?" \
    "validate inferred" "validate preset" secs >> "$table"
for r in $recipes; do
    t0=$(date +%s)
    dev=$DEVICE
    [ "$dev" = sim ] && dev=sim:$r
    timeout 150 $LADDER run "recipes/$r.yaml" --device "$dev" --db "$db" > "$log/$r.run.txt" 2>&1
    last=$(tail -n 1 "$log/$r.run.txt")
    id=$(echo "$last" | awk '$1 == "run" {print $2}')
    status=$(echo "$last" | awk '$1 == "run" {print $3}')
    probes=$(grep -v '^random\|^run ' "$log/$r.run.txt" | awk '{s += $2} END {print s + 0}')
    same=-
    vinf=-
    if [ -n "$id" ]; then
        $LADDER infer "$id" --db "$db" -o "$dir/models/$r.yaml" > "$log/$r.infer.txt" 2>&1
        # the inferred model against the preset, parameter by parameter
        if $LADDER model show "$r" | grep -v '^#\|^name\|^evidence\|^sass\|^arch\|^instr\|^shape\|^kind' > "$log/$r.preset.yaml" &&
           $LADDER model show "$dir/models/$r.yaml" | grep -v '^#\|^name\|^evidence\|^sass\|^arch\|^instr\|^shape\|^kind' > "$log/$r.inferred.yaml"; then
            n=$(diff "$log/$r.preset.yaml" "$log/$r.inferred.yaml" | grep -c '^<')
            [ "$n" -eq 0 ] && same=yes || same="no: $n keys differ"
        fi
        timeout 120 $LADDER validate "$id" --db "$db" --cases "$CASES" -q > "$log/$r.validate.txt" 2>&1
        vinf=$(awk '/^validate:/ {print $2}' "$log/$r.validate.txt")
    fi
    timeout 120 $LADDER validate --model "$r" --device "$dev" --cases "$CASES" --db "$db" --seed 2 -q \
        > "$log/$r.preset-validate.txt" 2>&1
    vpre=$(awk '/^validate:/ {print $2}' "$log/$r.preset-validate.txt")
    printf '%-22s %-6s %6s %-28s %-24s %-24s %5s\n' "$r" "${status:-fail}" "$probes" "$same" \
        "${vinf:--}" "${vpre:--}" $(( $(date +%s) - t0 )) >> "$table"
done

# Captured vectors of this generation, replayed here: the header's
# instruction, and mma.sync for the fp8 files whose header says wgmma.
if [ "$DEVICE" != sim ]; then
    for f in "$VECTORS"/$vecs-*.vec; do
        [ -f "$f" ] || continue
        $LADDER check --device "$DEVICE" "$f" >> "$log/replay.txt" 2>&1
        case $f in
        *e4m3-f16.vec|*e5m2-f16.vec)
            fmt=$(basename "$f" .vec | cut -d- -f2)
            $LADDER check --device "$DEVICE" --model "sm90-mma-$fmt-f16" "$f" >> "$log/replay.txt" 2>&1 ;;
        esac
    done
    echo "# replayed on $DEVICE (logs/replay.txt):" >> "$table"
    grep 'mismatches' "$log/replay.txt" | sed 's|^[^ ]*/\([^/ ]*: \)|\1|; s/^/#   /' >> "$table"
fi
echo "# total $(( $(date +%s) - start )) s" >> "$table"

if [ -n "${OUT:-}" ]; then
    tar czf "$OUT/results.tgz" "$dir"
    cp "$table" "$OUT/table.txt"
fi
cat "$table"
