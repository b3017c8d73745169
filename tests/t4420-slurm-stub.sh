#!/bin/sh
# scripts/slurm/ under a stand-in sbatch (a shell script first on PATH): it
# runs an array job's tasks here, one after the other, with the
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT a cluster sets, and a job
# with --dependency=afterok:J only when job J succeeded. submit.sh's
# 3-shard validation merges into the counts of the unsharded run; the GRES
# is submit.sh's option; a task killed half way and requeued resumes its
# own validation; a resubmitted shard is told N.
. tests/lib.sh

L=$(cd "$(dirname "$LADDER")" && pwd)/$(basename "$LADDER")
S=$(pwd)/scripts/slurm
P=sm90-mma-bf16-f32
mkdir "$TMP/bin" "$TMP/w"
cat >"$TMP/bin/sbatch" <<'STUB'
#!/bin/sh
# sbatch, as far as scripts/slurm uses it: --parsable, --array=0-M or a
# list a,b,..., --dependency=afterok:J, --gres=SPEC (recorded in
# $state/<id>.gres); jobs run at once, in order, except one whose
# dependency failed: it stays queued ($state/<id>.queued, what squeue says). STUB_KILL_TASK=I runs task
# I's first attempt with LADDER_CRASH_AT=$STUB_KILL_AT (a node lost half
# way), then requeues it: the same task again, SLURM_RESTART_COUNT=1.
state=${SBATCH_STUB_DIR:?}
array= dep= gres=
while [ $# -gt 0 ]; do
    case $1 in
    --parsable) ;;
    --array=*) array=${1#--array=} ;;
    --dependency=afterok:*) dep=${1#--dependency=afterok:} ;;
    --gres=*) gres=${1#--gres=} ;;
    -*) echo "sbatch stub: unknown option $1" >&2; exit 1 ;;
    *) break ;;
    esac
    shift
done
id=$(( $(cat "$state/last" 2>/dev/null || echo 100) + 1 ))
echo $id >"$state/last"
echo "$gres" >"$state/$id.gres"
if [ -n "$dep" ] && [ "$(cat "$state/$dep.rc" 2>/dev/null)" != 0 ]; then
    echo 1 >"$state/$id.rc"   # afterok never satisfied: the job never runs
    echo "PENDING DependencyNeverSatisfied" >"$state/$id.queued"
    echo $id
    exit 0
fi
rc=0
if [ -n "$array" ]; then
    case $array in
    *-*) tasks=$(seq "${array%-*}" "${array#*-}") ;;
    *) tasks=$(echo "$array" | tr ',' ' ') ;;
    esac
    count=$(echo $tasks | wc -w)
    for i in $tasks; do
        if [ "${STUB_KILL_TASK:-}" = "$i" ]; then
            LADDER_CRASH_AT=$STUB_KILL_AT SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$count \
                SLURM_ARRAY_JOB_ID=$id sh "$@" >>"$state/$id-$i.out" 2>&1
            SLURM_RESTART_COUNT=1 SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$count \
                SLURM_ARRAY_JOB_ID=$id sh "$@" >>"$state/$id-$i.out" 2>&1 || rc=1
            continue
        fi
        SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$count SLURM_ARRAY_JOB_ID=$id \
            sh "$@" >>"$state/$id-$i.out" 2>&1 || rc=1
    done
else
    sh "$@" >"$state/$id.out" 2>&1 || rc=1
fi
echo $rc >"$state/$id.rc"
echo $id
STUB
# squeue -h -j ID -o FORMAT: the queued job's state and reason (%T %r) or
# its id (%i); nothing for a job that ran. scancel ID: it leaves the queue.
cat >"$TMP/bin/squeue" <<'STUB'
#!/bin/sh
state=${SBATCH_STUB_DIR:?}
while [ $# -gt 0 ]; do
    case $1 in -j) id=$2; shift ;; -o) fmt=$2; shift ;; esac
    shift
done
[ -f "$state/$id.queued" ] || exit 0
case $fmt in %i) echo "$id" ;; *) cat "$state/$id.queued" ;; esac
STUB
cat >"$TMP/bin/scancel" <<'STUB'
#!/bin/sh
echo "$1" >>"${SBATCH_STUB_DIR:?}/cancelled"
rm -f "$SBATCH_STUB_DIR/$1.queued"
STUB
chmod +x "$TMP/bin/sbatch" "$TMP/bin/squeue" "$TMP/bin/scancel"
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

# One GPU a task by default; --gres none asks for nothing (a simulated
# survey on a cluster without GPUs); the scripts ask for none themselves.
check slurm-gres-default test "$(cat "$TMP/101.gres")" = gpu:1
check slurm-gres-not-in-script test -z "$(grep -n 'SBATCH --gres' "$S/shard.sbatch")"
check slurm-open-mode-append grep -q '^#SBATCH --open-mode=append$' "$S/shard.sbatch"
check slurm-merge-open-mode-append grep -q '^#SBATCH --open-mode=append$' "$S/merge.sbatch"
cur=$(cat "$TMP/last")
PATH=$TMP/bin:$PATH sh "$S/submit.sh" --gres none 2 sout.db sshards survey --device sim:sm_80 \
    --only 'sm80-mma-*-f32' --cases 200 >/dev/null 2>&1
check slurm-gres-none test -z "$(cat "$TMP/$((cur + 1)).gres")"
check slurm-survey-merged test "$(sqlite3 sout.db 'SELECT count(*) FROM survey_datapaths')" = 3
# the survey replays the repository's vectors wherever it was submitted
check slurm-survey-vectors grep -q -- "^shard 0/2: ladder survey .* --vectors $(cd "$S/../.." && pwd)/vectors$" "$TMP/$((cur + 1))-0.out"
# progress reaches the job's output: the task's lines and the survey's steps
check slurm-progress-task grep -q '^shard 1/2: survey on .*, attempt 1, ' "$TMP/$((cur + 1))-1.out"
check slurm-progress-steps grep -q '^\[1/[0-9]*\] sm80-mma-.*: ' "$TMP/$((cur + 1))-0.out"

# A task lost half way and requeued goes on with its own validation
# (--resume): the merge takes it, with the counts of the unsharded run.
cur=$(cat "$TMP/last")
STUB_KILL_TASK=1 STUB_KILL_AT=validation-chunk:2 PATH=$TMP/bin:$PATH sh "$S/submit.sh" 3 rq.db \
    rqshards validate --model m.yaml --device sim:$P --cases 60000 --seed 5 -q >/dev/null 2>&1
"$L" validate --model m.yaml --device sim:$P --cases 60000 --seed 5 -q --db rqfull.db >/dev/null
check slurm-requeue-attempts grep -q 'attempt 2' "$TMP/$((cur + 1))-1.out"
check slurm-requeue-merged test "$(cat "$TMP/$((cur + 2)).rc")" = 0
check slurm-requeue-one-validation test "$(sqlite3 rqshards/shard-1.db 'SELECT count(*) FROM validations')" = 1
check slurm-requeue-counts test "$(q rq.db)" = "$(q rqfull.db)"

# A resubmission of some shards (--array=1) is told N, not the task count.
rm -f rqshards/shard-1.db
PATH=$TMP/bin:$PATH sbatch --array=1 "$S/shard.sbatch" 3 rqshards validate --model m.yaml \
    --device sim:$P --cases 60000 --seed 5 -q >/dev/null
check slurm-resubmit-shard test "$(sqlite3 rqshards/shard-1.db 'SELECT shard_index, shard_count, cases FROM validations')" = '1|3|20000'

# A task that failed keeps the merge queued for ever (afterok); rerun, it
# succeeds, and remerge.sh submits the merge again, cancelling the stuck
# one: the merged counts are the unsharded run's.
check slurm-submit-record test "$(sed -n 's/^merge=//p' shards/slurm-job)" = 102
mkdir fshards
echo 'not a store' >fshards/shard-1.db
cur=$(cat "$TMP/last")
PATH=$TMP/bin:$PATH sh "$S/submit.sh" 3 f.db fshards validate --model m.yaml \
    --device sim:$P --cases 3001 --seed 4 -q >/dev/null 2>&1
shards=$((cur + 1)) merge=$((cur + 2))
check slurm-failed-task test "$(cat "$TMP/$shards.rc")" = 1
check slurm-failed-merge-stuck grep -q '^PENDING DependencyNeverSatisfied$' "$TMP/$merge.queued"
rm -f fshards/shard-1.db*
PATH=$TMP/bin:$PATH sbatch --array=1 "$S/shard.sbatch" 3 fshards validate --model m.yaml \
    --device sim:$P --cases 3001 --seed 4 -q >/dev/null
(cd / && PATH=$TMP/bin:$PATH sh "$S/remerge.sh" "$TMP/w/fshards") >remerge.out 2>&1
rc=$?
new=$(cat "$TMP/last")
check slurm-remerge-rc test "$rc" = 0
check slurm-remerge-line grep -q "^merge: job $new into f.db (replaces job $merge, PENDING DependencyNeverSatisfied)\$" remerge.out
check slurm-remerge-cancelled test "$(cat "$TMP/cancelled")" = "$merge" -a ! -e "$TMP/$merge.queued"
check slurm-remerge-ran test "$(cat "$TMP/$new.rc")" = 0
check slurm-remerge-counts test "$(q f.db)" = "$(q full.db)"
check slurm-remerge-record test "$(sed -n 's/^merge=//p' fshards/slurm-job)" = "$new"
PATH=$TMP/bin:$PATH sh "$S/remerge.sh" fshards >/dev/null 2>"$TMP/e"
rc=$?
check slurm-remerge-merged-already test "$rc" = 1 -a "$(cat "$TMP/last")" = "$new"
check slurm-remerge-merged-message grep -q "f.db' exists: the shards were merged" "$TMP/e"
PATH=$TMP/bin:$PATH sh "$S/remerge.sh" nosuch >/dev/null 2>"$TMP/e"
rc=$?
check slurm-remerge-no-record test "$rc" = 2
check slurm-remerge-no-record-message grep -q "no 'nosuch/slurm-job'" "$TMP/e"
check slurm-remerge-help sh "$S/remerge.sh" --help
test_done
