#!/bin/sh
# Submits a ladder survey or validation cut into N shards, one array task
# each, and the merge that runs when all of them succeeded:
#     sh scripts/slurm/submit.sh N OUT.db DIR survey --device cuda:0 --cases 1000000
#     sh scripts/slurm/submit.sh N OUT.db DIR validate --model m.yaml --device cuda:0
#     sh scripts/slurm/submit.sh --gres none 4 OUT.db DIR survey --cases 1000
# --gres SPEC is what each task asks for (default gpu:1; none: nothing, for
# simulated devices on a cluster without GPUs). Shard stores go to
# DIR/shard-I.db; LADDER names the binary (default: ladder on PATH) and
# travels to the jobs with the environment. A survey without --vectors
# replays the repository's vectors/ (beside scripts/), by its absolute path,
# wherever it is submitted from. Prints the two job ids, and records them
# (with N, OUT.db, DIR and this folder) in DIR/slurm-job, for remerge.sh:
# the merge job again when a failed task kept the first one from running.
set -eu
gres=gpu:1
while [ $# -gt 0 ]; do
    case $1 in
    --gres) [ $# -ge 2 ] || { echo "submit.sh: --gres needs a value" >&2; exit 2; }
        gres=$2; shift 2 ;;
    --gres=*) gres=${1#--gres=}; shift ;;
    *) break ;;
    esac
done
[ $# -ge 4 ] || { echo "usage: submit.sh [--gres SPEC|none] N OUT.db DIR survey|validate ARGS..." >&2; exit 2; }
n=$1 out=$2 dir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
nl='
'
case "$out$dir$(pwd)" in *"$nl"*) echo "submit.sh: a newline in OUT.db, DIR or this folder's path" >&2; exit 2 ;; esac
case $n in '' | *[!0-9]*) echo "submit.sh: N must be a number, not '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "submit.sh: N must be 1 or more" >&2; exit 2; }
if [ "$1" = survey ]; then
    case " $* " in
    *" --vectors "* | *" --vectors="*) ;;
    *) set -- "$@" --vectors "$(cd "$here/../.." && pwd)/vectors" ;;
    esac
fi
g=
[ "$gres" = none ] || g=--gres=$gres
shards=$(sbatch --parsable --array=0-$((n - 1)) $g "$here/shard.sbatch" "$n" "$dir" "$@")
shards=${shards%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$shards" "$here/merge.sbatch" "$dir" "$n" "$out")
merge=${merge%%;*}
mkdir -p "$dir"
printf '%s\n' "# submit.sh's job, for remerge.sh" "n=$n" "out=$out" "dir=$dir" \
    "workdir=$(pwd)" "shards=$shards" "merge=$merge" >"$dir/slurm-job.tmp.$$"
mv "$dir/slurm-job.tmp.$$" "$dir/slurm-job"
echo "shards: job $shards ($n tasks); merge: job $merge into $out"
