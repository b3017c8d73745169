#!/bin/sh
# Submits a ladder survey or validation cut into N shards, one array task
# (one GPU) each, and the merge that runs when all of them succeeded:
#     sh scripts/slurm/submit.sh N OUT.db DIR survey --device cuda:0 --cases 1000000
#     sh scripts/slurm/submit.sh N OUT.db DIR validate --model m.yaml --device cuda:0
# Shard stores go to DIR/shard-I.db; LADDER names the binary (default:
# ladder on PATH) and travels to the jobs with the environment. Prints the
# two job ids.
set -eu
[ $# -ge 4 ] || { echo "usage: submit.sh N OUT.db DIR survey|validate ARGS..." >&2; exit 2; }
n=$1 out=$2 dir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
case $n in '' | *[!0-9]*) echo "submit.sh: N must be a number, not '$n'" >&2; exit 2 ;; esac
shards=$(sbatch --parsable --array=0-$((n - 1)) "$here/shard.sbatch" "$dir" "$@")
shards=${shards%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$shards" "$here/merge.sbatch" "$dir" "$n" "$out")
echo "shards: job $shards ($n tasks); merge: job ${merge%%;*} into $out"
