#!/bin/sh
# Runs the whole test suite and closes with "N passed, N failed" alone on the
# last line; exits 1 when anything failed.
#
#   UNIT=build/rel/unit LADDER=build/rel/ladder sh tests/run.sh [pattern]
#
# Order: the reference generators tests/ref/*.py (run with the venv's
# Python, $VENV, default build/venv; each writes build/ref/<name>.txt, again
# whenever the generator is newer than its output), then
# the unit tests ($UNIT), then every tests/t[0-9]*.sh in name order (only
# those whose name contains `pattern` when one is given). Every check line
# ("ok   ..." or "FAIL ...") counts once. A program that exits with an error
# without printing a FAIL line, or stops before its own summary line, counts
# as one more failure, so a crash never passes silently.
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

LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/ladder-run.XXXXXX")
trap 'rm -rf "$LOGDIR"' EXIT
passed=0
failed=0

# run_one NAME SUMMARY_REGEX CMD...: runs CMD, shows its output as it comes,
# and adds its checks to the totals.
run_one() {
    _name=$1
    _summary=$2
    shift 2
    _log=$LOGDIR/log
    { "$@" 2>&1; echo $? >"$LOGDIR/rc"; } | tee "$_log"
    _rc=$(cat "$LOGDIR/rc")
    _ok=$(grep -c '^ok   ' "$_log")
    _fail=$(grep -c '^FAIL ' "$_log")
    passed=$((passed + _ok))
    failed=$((failed + _fail))
    if [ "$_rc" -ne 0 ] && [ "$_fail" -eq 0 ]; then
        echo "FAIL $_name: exited with status $_rc without a failed check"
        failed=$((failed + 1))
    elif ! grep -Eq "$_summary" "$_log"; then
        echo "FAIL $_name: stopped before its summary line (exit status $_rc)"
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
        echo "ok   ref-$name"
        passed=$((passed + 1))
    elif "$VENV/bin/python" "$gen" "$REF/$name.txt.tmp" >"$LOGDIR/gen" 2>&1 &&
        mv "$REF/$name.txt.tmp" "$REF/$name.txt"; then
        echo "ok   ref-$name"
        passed=$((passed + 1))
    else
        echo "FAIL ref-$name: $(tail -n 1 "$LOGDIR/gen")"
        failed=$((failed + 1))
    fi
done

if [ -z "$pattern" ] || [ "$pattern" = unit ]; then
    run_one unit '^unit: [0-9]+ passed, [0-9]+ failed$' "$UNIT"
fi

for t in tests/t[0-9]*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    case "$name" in *"$pattern"*) ;; *) continue ;; esac
    run_one "$name" "^$name: [0-9]+ passed, [0-9]+ failed\$" sh "$t"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
