#!/bin/sh
# Submits the merge of a submit.sh job again, for when the first one can
# never run: a shard task that failed leaves the merge job (afterok) pending
# with the reason DependencyNeverSatisfied, and it stays so after the task
# is requeued and succeeds (`scontrol update` of its dependency does not
# clear it). Once the shards are done, or while the rerun ones still run:
#     sh scripts/slurm/remerge.sh DIR
# DIR is the shard folder given to submit.sh, which recorded the job in
# DIR/slurm-job. The stuck merge job (still pending) is cancelled, and
# merge.sbatch is submitted again from the folder submit.sh ran in, with the
# same arguments; while some of the shard job's tasks are still queued or
# running it waits for them to end (--dependency=afterany), and `ladder
# merge` refuses, naming the shard, when one did not finish. The record
# then names the new merge job, so that remerge.sh can be run again.
# Prints "merge: job <new> into <out.db> (replaces job <old>)". Exit 0; 2
# usage or no record; 1 when there is nothing to do (the merge runs, or
# <out.db> exists already); sbatch's exit when it refuses.
set -eu
usage="usage: remerge.sh DIR   (the shard folder given to submit.sh)"
case ${1:-} in --help | -h) echo "$usage"; exit 0 ;; esac
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
dir=$1
rec=$dir/slurm-job
[ -f "$rec" ] || {
    echo "remerge.sh: no '$rec': DIR must be the shard folder of a job submit.sh submitted" >&2
    exit 2
}
get() { sed -n "s/^$1=//p" "$rec" | head -n 1; }
n=$(get n) out=$(get out) sdir=$(get dir) workdir=$(get workdir) shards=$(get shards) merge=$(get merge)
for v in "$n" "$shards" "$merge"; do
    case $v in '' | *[!0-9]*) echo "remerge.sh: '$rec' is not submit.sh's record" >&2; exit 2 ;; esac
done
[ -n "$out" ] && [ -n "$sdir" ] && [ -d "$workdir" ] || {
    echo "remerge.sh: '$rec' is not submit.sh's record" >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
case $out in /*) o=$out ;; *) o=$workdir/$out ;; esac
if [ -e "$o" ]; then
    echo "remerge.sh: '$o' exists: the shards were merged (remove it to merge again)" >&2
    exit 1
fi
# The old merge job: pending (stuck, or still waiting), running, or gone.
state=$(squeue -h -j "$merge" -o '%T %r' 2>/dev/null || true)
case $state in
RUNNING* | COMPLETING* | CONFIGURING*)
    echo "remerge.sh: merge job $merge is running ($state); nothing to do" >&2
    exit 1 ;;
esac
# The shard tasks still queued or running (a requeued one): wait for them.
dep=
[ -n "$(squeue -h -j "$shards" -o %i 2>/dev/null || true)" ] && dep=--dependency=afterany:$shards
new=$(cd "$workdir" && sbatch --parsable $dep "$here/merge.sbatch" "$sdir" "$n" "$out")
new=${new%%;*}
case $state in
PENDING*) scancel "$merge" 2>/dev/null || true ;;
esac
sed "s/^merge=.*/merge=$new/" "$rec" >"$rec.tmp.$$" && mv "$rec.tmp.$$" "$rec"
echo "merge: job $new into $out (replaces job $merge${state:+, $state})"
