#!/bin/sh
# scripts/slurm/ under a stand-in sbatch (a shell script first on PATH): it
# runs an array job's tasks here, one after the other, with the
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT a cluster sets, and a job
# with --dependency=afterok:J only when job J succeeded. submit.sh's
# 3-shard validation merges into the counts of the unsharded run.
. tests/lib.sh

L=$(cd "$(dirname "$LADDER")" && pwd)/$(basename "$LADDER")
S=$(pwd)/scripts/slurm
P=sm90-mma-bf16-f32
mkdir "$TMP/bin" "$TMP/w"
cat >"$TMP/bin/sbatch" <<'STUB'
#!/bin/sh
# sbatch, as far as scripts/slurm uses it: --parsable, --array=0-M,
# --dependency=afterok:J; jobs run at once, in order.
state=${SBATCH_STUB_DIR:?}
array= dep=
while [ $# -gt 0 ]; do
    case $1 in
    --parsable) ;;
    --array=*) array=${1#--array=} ;;
    --dependency=afterok:*) dep=${1#--dependency=afterok:} ;;
    -*) echo "sbatch stub: unknown option $1" >&2; exit 1 ;;
    *) break ;;
    esac
    shift
done
id=$(( $(cat "$state/last" 2>/dev/null || echo 100) + 1 ))
echo $id >"$state/last"
if [ -n "$dep" ] && [ "$(cat "$state/$dep.rc" 2>/dev/null)" != 0 ]; then
    echo 1 >"$state/$id.rc"   # afterok never satisfied: the job never runs
    echo $id
    exit 0
fi
rc=0
if [ -n "$array" ]; then
    last=${array#0-}
    i=0
    while [ $i -le "$last" ]; do
        SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$((last + 1)) SLURM_ARRAY_JOB_ID=$id \
            sh "$@" >"$state/$id-$i.out" 2>&1 || rc=1
        i=$((i + 1))
    done
else
    sh "$@" >"$state/$id.out" 2>&1 || rc=1
fi
echo $rc >"$state/$id.rc"
echo $id
STUB
chmod +x "$TMP/bin/sbatch"
"$L" model show $P | sed 's/^window: .*/window: 20/' >"$TMP/w/m.yaml"
cd "$TMP/w" || exit 1
export SBATCH_STUB_DIR=$TMP LADDER=$L
PATH=$TMP/bin:$PATH sh "$S/submit.sh" 3 out.db shards validate --model m.yaml \
    --device sim:$P --cases 3001 --seed 4 -q >submit.out 2>&1
check slurm-submit-line grep -q '^shards: job 101 (3 tasks); merge: job 102 into out.db$' submit.out
check slurm-shard-files test -f shards/shard-0.db -a -f shards/shard-1.db -a -f shards/shard-2.db
check slurm-shard-task-2 grep -q '/1001 mismatches .*, shard 2/3$' "$TMP/101-2.out"
check slurm-merge-ran test "$(cat "$TMP/102.rc")" = 0
"$L" validate --model m.yaml --device sim:$P --cases 3001 --seed 4 -q --db full.db >/dev/null
q() { sqlite3 "$1" 'SELECT cases, mismatches FROM validations'; }
check slurm-merged-counts test "$(q out.db)" = "$(q full.db)"
check slurm-merged-nonzero test "$(q out.db | cut -d'|' -f2)" -gt 0

# A failed shard: the merge never runs (afterok), and no out.db appears.
PATH=$TMP/bin:$PATH sh "$S/submit.sh" 2 out2.db shards2 validate --model nope.yaml \
    --device sim:$P --cases 10 >/dev/null 2>&1
check slurm-failed-shard-no-merge test "$(cat "$TMP/104.rc")" = 1 -a ! -e out2.db
PATH=$TMP/bin:$PATH sh "$S/submit.sh" x out3.db d survey >/dev/null 2>"$TMP/e"
check slurm-submit-bad-n grep -q "N must be a number, not 'x'" "$TMP/e"
test_done
