#!/bin/sh
# Runs the whole test suite and closes with "N passed, N failed, N skipped"
# alone on the last line; exits 1 when anything failed.
#
#   UNIT=build/rel/unit LADDER=build/rel/ladder sh tests/run.sh [pattern]
#
# Quiet by default: the failed checks, the skipped and known ones, the
# slowest programs and the summary line. LADDER_TEST_VERBOSE=1 (make's
# V=1) shows every line of every program, and every program's time.
# LADDER_TEST_EXCLUDE names programs (unit, t<NNNN>-...) not to run (make
# check leaves the slow ones to make test); the summary says how many.
#
# Order: the reference generators tests/ref/*.py (run with the venv's
# Python, $VENV, default build/venv; each writes build/ref/<name>.txt, again
# whenever the generator is newer than its output), then
# the unit tests ($UNIT), then every tests/t[0-9]*.sh in name order (only
# those whose name contains `pattern` when one is given). LADDER_TEST_JOBS
# programs (default: the CPUs, at most 4) run at once; each one's output is
# shown whole, in that order, as soon as it and every one before it ended.
# Every check line ("ok   ...", "FAIL ...", or "skip ..." and "known ...",
# counted as skipped) counts once. A program that
# exits with an error without printing a FAIL line, or stops before its own
# summary line, counts as one more failure, so a crash never passes
# silently.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${UNIT:?UNIT must name the unit-test binary}"
: "${LADDER:?LADDER must name the ladder binary}"
VENV=${VENV:-build/venv}
REF=${LADDER_REF:-build/ref}
case "$LADDER" in /*) ;; *) LADDER=$PWD/$LADDER ;; esac
case "$UNIT" in /*) ;; *) UNIT=$PWD/$UNIT ;; esac
export LADDER LADDER_REF="$REF"
pattern=${1:-}
verbose=${LADDER_TEST_VERBOSE:-0}
exclude=" ${LADDER_TEST_EXCLUDE:-} "
excluded=0

# included NAME: whether program NAME runs (not in LADDER_TEST_EXCLUDE).
included() {
    case "$exclude" in
    *" $1 "*) excluded=$((excluded + 1)); return 1 ;;
    esac
    return 0
}

LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/ladder-run.XXXXXX")
trap 'rm -rf "$LOGDIR"' EXIT
passed=0
failed=0
skipped=0  # "skip" lines (checks that cannot run here) and "known" lines
           # (known failures): shown, never counted as passed

# account NAME SUMMARY_REGEX: shows the output of the program run as NAME
# (tests/run-one.sh left it in $LOGDIR) and adds its checks to the totals.
account() {
    _log=$LOGDIR/$1.log
    if [ "$verbose" = 1 ]; then
        cat "$_log"
    else
        grep '^FAIL \|^skip \|^known ' "$_log"
    fi
    _rc=$(cat "$LOGDIR/$1.rc")
    _ok=$(grep -c '^ok   ' "$_log")
    _fail=$(grep -c '^FAIL ' "$_log")
    skipped=$((skipped + $(grep -c '^known \|^skip ' "$_log")))
    passed=$((passed + _ok))
    failed=$((failed + _fail))
    if [ "$_rc" -ne 0 ] && [ "$_fail" -eq 0 ]; then
        echo "FAIL $1: exited with status $_rc without a failed check"
        failed=$((failed + 1))
    elif ! grep -Eq "$2" "$_log"; then
        echo "FAIL $1: stopped before its summary line (exit status $_rc)"
        failed=$((failed + 1))
    fi
}

# Reference data from independent implementations. A generator that cannot
# run fails the suite: the comparisons it feeds must not be skipped.
mkdir -p "$REF"
for gen in tests/ref/*.py; do
    [ -e "$gen" ] || continue
    name=$(basename "$gen" .py)
    # Made again only when the generator changed since the last run.
    if [ -s "$REF/$name.txt" ] && [ "$REF/$name.txt" -nt "$gen" ] &&
        "$VENV/bin/python" -c 'import ml_dtypes' 2>/dev/null; then
        [ "$verbose" != 1 ] || echo "ok   ref-$name"
        passed=$((passed + 1))
    elif "$VENV/bin/python" "$gen" "$REF/$name.txt.tmp" >"$LOGDIR/gen" 2>&1 &&
        mv "$REF/$name.txt.tmp" "$REF/$name.txt"; then
        [ "$verbose" != 1 ] || echo "ok   ref-$name"
        passed=$((passed + 1))
    else
        echo "FAIL ref-$name: $(tail -n 1 "$LOGDIR/gen")"
        failed=$((failed + 1))
    fi
done

# The programs, one line each: name, summary regex, command.
: >"$LOGDIR/jobs"
if { [ -z "$pattern" ] || [ "$pattern" = unit ]; } && included unit; then
    printf '%s\t%s\t%s\n' unit '^unit: [0-9]+ passed, [0-9]+ failed$' "$UNIT" >>"$LOGDIR/jobs"
fi
for t in tests/t[0-9]*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    case "$name" in *"$pattern"*) ;; *) continue ;; esac
    included "$name" || continue
    printf '%s\t%s\t%s\n' "$name" "^$name: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped\$" "sh $t" >>"$LOGDIR/jobs"
done

jobs=${LADDER_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case "$jobs" in '' | *[!0-9]*) echo "ladder tests: LADDER_TEST_JOBS must be a number" >&2; exit 2 ;; esac
[ "$jobs" -ge 1 ] || jobs=1
[ -n "${LADDER_TEST_JOBS:-}" ] || [ "$jobs" -le 4 ] || jobs=4
# The longest programs start first (a stale list only packs worse); the
# output still comes in the jobs file's order.
first='t5100-blind-recovery t5000-fit-vectors t4220-run-infer unit t4600-report t4800-tutorials'
awk -F '\t' -v first="$first" '
    BEGIN { n = split(first, f, " "); for (i = 1; i <= n; i++) rank[f[i]] = i }
    { print ($1 in rank ? rank[$1] : n + 1) "\t" NR "\t" $1 "\t" $3 }' "$LOGDIR/jobs" |
    sort -n -k 1,1 -k 2,2 | cut -f 3,4 | tr '\t' '\n' |
    xargs -d '\n' -n 2 -P "$jobs" sh tests/run-one.sh "$LOGDIR" &
runner=$!
while IFS="$(printf '\t')" read -r name summary cmd; do
    # the rc file appears last, when the program's log is complete
    while [ ! -e "$LOGDIR/$name.rc" ]; do
        kill -0 "$runner" 2>/dev/null || [ -e "$LOGDIR/$name.rc" ] || break
        sleep 0.2
    done
    if [ -e "$LOGDIR/$name.rc" ]; then
        account "$name" "$summary"
    else
        echo "FAIL $name: never ran"
        failed=$((failed + 1))
    fi
done <"$LOGDIR/jobs"
wait "$runner"

# The slowest programs (verbose: all), so that a suite that grows shows
# where (wall seconds; programs run LADDER_TEST_JOBS at a time).
[ "$verbose" = 1 ] && shown=100000 || shown=8
for f in "$LOGDIR"/*.time; do
    [ -e "$f" ] && printf '%s %s\n' "$(cat "$f")" "$(basename "$f" .time)"
done | sort -rn | head -n "$shown" | awk '{ printf "time %5d s  %s\n", $1, $2 }'
[ "$excluded" -eq 0 ] ||
    echo "$excluded programs not run here (LADDER_TEST_EXCLUDE): make test runs them"
[ "$skipped" -eq 0 ] ||
    echo "$skipped skipped: checks that cannot run here and known failures (the 'skip' and 'known' lines above)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
