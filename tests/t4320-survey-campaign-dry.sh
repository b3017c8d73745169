#!/bin/sh
# scripts/gpu-campaign.sh without a GPU: DRY=<arch> runs every step on
# simulated devices (sim:<preset> for the GPU and for cuBLASLt), so the
# parts that need no GPU are checked on every machine: the sharded survey
# and its store, the deciding cases of scripts/campaign through the
# presets of the arch and their capture files, the export of the survey's
# fp8 mma.sync words, the cuBLASLt table, the whole-GEMM program search
# (a split-4 tree program stands in for cuBLASLt) and the README. On simulated
# devices the device is the model, so every word must agree with ladder's.
. tests/lib.sh
R=$TMP/campaign

py=${VENV:-build/venv}/bin/python
[ -x "$py" ] || py=python3
DRY=sm_120a LADDER=$LADDER RESULTS=$R CASES=1000 JOBS=2 LT_CASES=200 \
    ONLY='sm120-mma-e4m3-f32' PYTHON=$py SIZES=16x8x256 \
    sh scripts/gpu-campaign.sh >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && ok campaign-dry-rc || fail campaign-dry-rc "exit $rc: $(head -c 300 "$TMP/err")"
for f in README.md survey.md ladder.db; do
    [ -s "$R/$f" ] && ok "campaign-dry-$f" || fail "campaign-dry-$f" "no $R/$f"
done
grep -q '^This is a DRY run: no GPU took part' "$R/README.md" && ok campaign-dry-says-dry ||
    fail campaign-dry-says-dry "the README does not say the run was simulated"
n=$(grep -c '^## [1-6]\. ' "$R/README.md")
[ "$n" = 6 ] && ok campaign-dry-sections || fail campaign-dry-sections "$n of 6 sections"

# the survey: one datapath on two shards (one of them empty), merged
grep -q '^Merged: merge: survey 1 (sim:sm_120a sm_120): 2 of 2 shards, 1 datapaths' "$R/README.md" &&
    ok campaign-dry-merged || fail campaign-dry-merged "$(grep '^Merged' "$R/README.md")"
grep -Eq '^    sm120-mma-e4m3-f32 .* 0/1000 +0/1000 ' "$R/README.md" && ok campaign-dry-survey-row ||
    fail campaign-dry-survey-row "$(grep -A3 '^## 2' "$R/README.md" | tail -n 1)"

# deciding cases: one capture per sm120 preset the files name, each
# replaying to 0 mismatches with its preset, the words ladder's own
want=$(for f in scripts/campaign/*.vec; do sed -n 's/^# presets: //p' "$f" | tr ' ' '\n' | grep -c '^sm120-'; done |
       awk '{s += $1} END {print s}')
got=$(ls "$R"/captures/*.sm120-*.vec 2>/dev/null | grep -vc '/survey\.')
[ "$got" = "$want" ] && [ "$want" -ge 4 ] && ok campaign-dry-captures ||
    fail campaign-dry-captures "$got captures, want $want"
bad=""
for c in "$R"/captures/*.vec; do
    p=$(basename "$c" .vec | sed 's/.*\.//')
    r=$("$LADDER" check --model "$p" "$c" 2>&1 | head -n 1)
    case "$r" in *": 0/"*" mismatches ($p)") ;; *) bad="$bad; $r" ;; esac
done
[ -z "$bad" ] && ok campaign-dry-captures-replay || fail campaign-dry-captures-replay "${bad#; }"
rows=$(sed -n '/^## 3/,/^## 4/p' "$R/README.md" | grep -c '^| [a-z0-9-]* | sm120-')
agree=$(sed -n '/^## 3/,/^## 4/p' "$R/README.md" | grep -Ec '\| ([0-9]+) of \1 \|$')
[ "$rows" = "$want" ] && [ "$agree" = "$rows" ] && ok campaign-dry-deciding-table ||
    fail campaign-dry-deciding-table "$agree of $rows rows agree, want $want rows"

# the survey's fp8 mma.sync words, exported; check names the preset itself
c=$R/captures/survey.sm120-mma-e4m3-f32.vec
run_ladder check "$c"
expect_out campaign-dry-fp8-export "^$c: 0/[0-9]+ mismatches \\(sm120-mma-e4m3-f32\\)$"

# cuBLASLt (simulated): 3 presets, 3 or 4 option sets each
n=$(sed -n '/^## 5/,$p' "$R/README.md" | grep -c '^| sm120-.* validate: 0/200 mismatches')
[ "$n" = 10 ] && ok campaign-dry-cublaslt-rows || fail campaign-dry-cublaslt-rows "$n of 10 rows"
grep -q '^| sm120-mma-bf16-f32 | split_k=4 | .* | (0+1+2+3+4+5+6+7+8+9+10+11+12+13+14+15) |$' "$R/README.md" &&
    ok campaign-dry-sumtree || fail campaign-dry-sumtree "$(grep 'bf16-f32 | split_k=4' "$R/README.md")"
# whole GEMMs: the stand-in for cuBLASLt is a split-4 tree program, which
# the search must name (numpy makes the arrays)
if "$py" -c 'import numpy' 2>/dev/null; then
    n=$(grep -Ec '^\| sm120-mma-(bf16|f16)-f32 \| 16x8x256 \| DRY: .* \| .*split4-tree' "$R/README.md")
    [ "$n" = 2 ] && ok campaign-dry-gemm-named || fail campaign-dry-gemm-named \
        "$(sed -n '/^## 6/,$p' "$R/README.md" | grep '^| sm120' | head -n 2)"
    grep -Eq '^\| sm120-mma-bf16-f32 \| 16x8x256 \| .* \|  split4-tree \|$' "$R/README.md" &&
        ok campaign-dry-gemm-only-it || fail campaign-dry-gemm-only-it "another program matched too"
    [ -s "$R/captures/gemm.sm120-mma-f16-f32.16x8x256.npy" ] && ok campaign-dry-gemm-capture ||
        fail campaign-dry-gemm-capture "no GEMM capture"
else
    printf '     (not counted: no numpy for the GEMM step)\n'
fi
[ ! -e "$R/work" ] && [ ! -e "$R/README.md.tmp" ] && ok campaign-dry-no-scratch ||
    fail campaign-dry-no-scratch "scratch left in $R"

# without DRY on a machine without a GPU: exit 4 and one line
if ! command -v nvidia-smi >/dev/null 2>&1; then
    LADDER=$LADDER RESULTS=$TMP/nogpu sh scripts/gpu-campaign.sh >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 4 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && ok campaign-no-gpu ||
        fail campaign-no-gpu "exit $rc: $(cat "$TMP/err")"
fi
test_done
