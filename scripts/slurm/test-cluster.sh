#!/bin/sh
# make test-cluster: scripts/slurm on a real one-node SLURM (Debian's
# slurm-wlm and munge), as root, on this machine. It installs the packages
# when they are missing, writes a munge key and a slurm.conf naming this
# host and its CPUs into a fresh folder, starts munged, slurmctld and
# slurmd from there (on ports of their own, nothing of the system's
# configuration touched), submits submit.sh's jobs with simulated devices
# as the unprivileged user nobody (--gres none: the node has no GPU),
# checks the merged stores against unsharded runs, and stops the daemons
# it started, also when a check fails.
#
#     LADDER=build/rel/ladder sh scripts/slurm/test-cluster.sh
#
# Prints one line per check, as the tests do, and exits 1 when one failed.
set -u
: "${LADDER:?LADDER must name the ladder binary}"
[ "$(id -u)" = 0 ] || { echo "test-cluster: run as root (it starts SLURM's daemons)" >&2; exit 2; }
L=$(cd "$(dirname "$LADDER")" && pwd)/$(basename "$LADDER")
S=$(cd "$(dirname "$0")" && pwd)
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends slurm-wlm munge >/dev/null ||
        { echo "test-cluster: cannot install slurm-wlm and munge" >&2; exit 2; }
fi

W=$(mktemp -d /tmp/ladder-cluster.XXXXXX)
chmod 755 "$W"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }
check() { _n=$1; shift; if "$@"; then ok "$_n"; else fail "$_n" "'$*' failed"; fi; }

stop() {
    [ -n "${SLURM_CONF:-}" ] && scontrol shutdown >/dev/null 2>&1
    for f in slurmd slurmctld munged; do
        [ -s "$W/$f.pid" ] && kill "$(cat "$W/$f.pid")" 2>/dev/null
    done
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -s "$W/$f.pid" ] && kill -9 "$(cat "$W/$f.pid")" 2>/dev/null
    done
}
trap 'stop; rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP PIPE

# ---- munge: a key and a socket of our own -----------------------------------
mkdir -p "$W/munge"
chmod 700 "$W/munge"
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$W/munge/munge.key"
munged --force --key-file="$W/munge/munge.key" --socket="$W/munge/munge.sock" \
    --pid-file="$W/munged.pid" --log-file="$W/munge/munged.log" \
    --seed-file="$W/munge/munge.seed" || { echo "test-cluster: munged did not start" >&2; exit 1; }
chmod 755 "$W/munge"

# ---- slurm: one node, this host ---------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
mkdir -p "$W/state" "$W/spool" "$W/log" "$W/jobs"
chmod 777 "$W/jobs"
cat >"$W/slurm.conf" <<EOF
ClusterName=ladder
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/munge/munge.sock
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ladder Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$W/slurm.conf
slurmctld -f "$SLURM_CONF" || { echo "test-cluster: slurmctld did not start" >&2; exit 1; }
slurmd -f "$SLURM_CONF" || { echo "test-cluster: slurmd did not start" >&2; exit 1; }
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        echo "test-cluster: the node never became idle:" >&2
        tail -n 5 "$W/log/slurmctld.log" "$W/log/slurmd.log" >&2
        exit 1
    fi
    sleep 1
done
ok cluster-node-idle

# as_user CMD...: CMD as nobody, in the jobs folder, seeing this SLURM.
as_user() {
    (cd "$W/jobs" && setpriv --reuid=65534 --regid=65534 --clear-groups \
        env SLURM_CONF="$SLURM_CONF" LADDER="$L" HOME="$W/jobs" PATH="$PATH" "$@")
}
# wait_jobs: until nobody's jobs have left the queue (at most 300 s).
wait_jobs() {
    _i=0
    while [ -n "$(squeue -h -u nobody -o %i 2>/dev/null)" ] && [ $_i -lt 300 ]; do
        # a job that can never run stops the wait
        squeue -h -u nobody -o %r | grep -q DependencyNeverSatisfied && return 1
        sleep 1
        _i=$((_i + 1))
    done
    [ -z "$(squeue -h -u nobody -o %i 2>/dev/null)" ]
}
q() { sqlite3 "$1" "$2"; }
P=sm90-mma-bf16-f32
"$L" model show $P | sed 's/^window: .*/window: 20/' >"$W/jobs/m.yaml"

# ---- a validation in 3 shards ------------------------------------------------
as_user sh "$S/submit.sh" --gres none 3 val.db vshards validate --model m.yaml \
    --device sim:$P --cases 30001 --seed 3 -q >"$W/submit.out" 2>&1
check cluster-validate-submitted grep -q '^shards: job [0-9]* (3 tasks); merge: job [0-9]* into val.db$' "$W/submit.out"
check cluster-validate-done wait_jobs
"$L" validate --model "$W/jobs/m.yaml" --device sim:$P --cases 30001 --seed 3 -q \
    --db "$W/vfull.db" >/dev/null
vc='SELECT cases, mismatches FROM validations'
check cluster-validate-merged test -s "$W/jobs/val.db" -a "$(q "$W/jobs/val.db" "$vc")" = "$(q "$W/vfull.db" "$vc")"
check cluster-validate-output grep -q '^shard 2/3: exit [01], ' "$W/jobs"/ladder-shard-*_2.out

# ---- a survey in 2 shards, submitted from another folder --------------------
mkdir -p "$W/jobs/elsewhere"
chmod 777 "$W/jobs/elsewhere"
(cd "$W/jobs/elsewhere" && setpriv --reuid=65534 --regid=65534 --clear-groups \
    env SLURM_CONF="$SLURM_CONF" LADDER="$L" HOME="$W/jobs" PATH="$PATH" \
    sh "$S/submit.sh" --gres none 2 survey.db sshards survey --device sim:sm_80 \
    --only 'sm80-mma-*-f32' --cases 300) >"$W/submit2.out" 2>&1
check cluster-survey-done wait_jobs
"$L" survey --device sim:sm_80 --only 'sm80-mma-*-f32' --cases 300 \
    --vectors "$S/../../vectors" --db "$W/sfull.db" >/dev/null 2>&1
sc='SELECT datapath, status, differ, inferred_mismatches, preset_mismatches, vector_files FROM survey_datapaths ORDER BY datapath'
check cluster-survey-merged test -s "$W/jobs/elsewhere/survey.db" -a \
    "$(q "$W/jobs/elsewhere/survey.db" "$sc")" = "$(q "$W/sfull.db" "$sc")"
check cluster-survey-vectors test "$(q "$W/sfull.db" 'SELECT sum(vector_files) FROM survey_datapaths')" -gt 0

# ---- a task requeued half way ------------------------------------------------
as_user sh "$S/submit.sh" --gres none 2 rq.db rqshards validate --model m.yaml \
    --device sim:$P --cases 400000 --seed 4 -q >"$W/submit3.out" 2>&1
jid=$(sed -n 's/^shards: job \([0-9]*\) .*/\1/p' "$W/submit3.out")
# requeue task 1 once it has committed a chunk
i=0
# (not before the task made the file: sqlite3 would make an empty one of
# root's, which the task could not open)
rq1=$W/jobs/rqshards/shard-1.db
while [ $i -lt 120 ] && { [ ! -s "$rq1" ] ||
    [ "$(q "$rq1" 'SELECT coalesce(max(cases), 0) FROM validations' 2>/dev/null || echo 0)" -lt 8192 ]; }; do
    sleep 0.5
    i=$((i + 1))
done
scontrol requeue "${jid}_1" >/dev/null 2>&1
check cluster-requeue-done wait_jobs
"$L" validate --model "$W/jobs/m.yaml" --device sim:$P --cases 400000 --seed 4 -q \
    --db "$W/rqfull.db" >/dev/null
check cluster-requeue-one-validation test "$(q "$W/jobs/rqshards/shard-1.db" 'SELECT count(*) FROM validations')" = 1
check cluster-requeue-merged test -s "$W/jobs/rq.db" -a "$(q "$W/jobs/rq.db" "$vc")" = "$(q "$W/rqfull.db" "$vc")"
# both attempts in the task's output file (append mode)
check cluster-requeue-attempt-1 grep -q '^shard 1/2: validate on .*, attempt 1, ' "$W/jobs/ladder-shard-${jid}_1.out"
check cluster-requeue-attempt-2 grep -q '^shard 1/2: validate on .*, attempt 2, ' "$W/jobs/ladder-shard-${jid}_1.out"

# ---- a task that failed, requeued; the merge submitted again ----------------
# Shard 1's store is a file nobody can open as one: the task fails, and the
# merge (afterok) is left pending, DependencyNeverSatisfied. With the file
# gone the task is requeued and succeeds, but the merge stays so; remerge.sh
# replaces it, and the merged counts are the unsharded run's.
mkdir -p "$W/jobs/fshards"
chmod 777 "$W/jobs/fshards"
echo 'not a store' >"$W/jobs/fshards/shard-1.db"
as_user sh "$S/submit.sh" --gres none 2 f.db fshards validate --model m.yaml \
    --device sim:$P --cases 30001 --seed 5 -q >"$W/submit4.out" 2>&1
jid=$(sed -n 's/^shards: job \([0-9]*\) .*/\1/p' "$W/submit4.out")
mid=$(sed -n 's/.*; merge: job \([0-9]*\) .*/\1/p' "$W/submit4.out")
# reason: until the merge job's reason says the dependency can never be met
reason() { squeue -h -j "$1" -o %r 2>/dev/null; }
stuck() {
    _i=0
    until [ "$(reason "$mid")" = DependencyNeverSatisfied ] || [ $_i -ge 120 ]; do
        sleep 1
        _i=$((_i + 1))
    done
    [ "$(reason "$mid")" = DependencyNeverSatisfied ]
}
check cluster-failed-merge-stuck stuck
rm -f "$W/jobs/fshards/shard-1.db"*
scontrol requeue "${jid}_1" >/dev/null 2>&1
# until no task of the shard job is left in the queue
i=0
while [ -n "$(squeue -h -j "$jid" -o %i 2>/dev/null)" ] && [ $i -lt 300 ]; do
    sleep 1
    i=$((i + 1))
done
check cluster-failed-requeued-done test "$(q "$W/jobs/fshards/shard-1.db" 'SELECT shard_index, shard_count, cases FROM validations')" = '1|2|15001'
check cluster-failed-merge-still-stuck test "$(reason "$mid")" = DependencyNeverSatisfied
as_user sh "$S/remerge.sh" fshards >"$W/remerge.out" 2>&1
check cluster-remerge-line grep -q "^merge: job [0-9]* into f.db (replaces job $mid, PENDING DependencyNeverSatisfied)\$" "$W/remerge.out"
new=$(sed -n 's/^merge: job \([0-9]*\) .*/\1/p' "$W/remerge.out")
gone() {
    _i=0
    while [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && [ $_i -lt 300 ]; do
        sleep 1
        _i=$((_i + 1))
    done
    [ -n "$1" ] && [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]
}
check cluster-remerge-done gone "$new"
"$L" validate --model "$W/jobs/m.yaml" --device sim:$P --cases 30001 --seed 5 -q \
    --db "$W/ffull.db" >/dev/null
check cluster-remerge-merged test -s "$W/jobs/f.db" -a "$(q "$W/jobs/f.db" "$vc")" = "$(q "$W/ffull.db" "$vc")"
check cluster-remerge-old-gone test -z "$(squeue -h -j "$mid" -o %i 2>/dev/null)"

echo "test-cluster: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
