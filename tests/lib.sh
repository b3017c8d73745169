# Shell-test helpers: sourced by every tests/t<NNNN>-<command>-<detail>.sh.
#
# Conventions for test scripts:
#   - Name: tests/t<NNNN>-<command>-<detail>.sh, e.g. t0100-format-decode.sh;
#     numbers group by command (t00xx: the command table, t01xx: format, ...)
#     and never change once used. Small data files go in tests/data/.
#   - Start with `. tests/lib.sh` (run.sh runs every script from the
#     repository root, with $LADDER set to the binary under test).
#   - Run the binary with `run_ladder <args>`; then assert with the expect_*
#     helpers, each one check with a stable name. Names are
#     <command>-<detail>, lowercase, '-' separated, unique in the suite.
#   - End with `test_done`. It prints "<script>: N passed, N failed,
#     N skipped" and exits 1 when anything failed; run.sh counts the check
#     lines and treats a script that stops without that line as failed.
#   - A check that cannot run here (no /dev/full, no GPU) is `skip NAME
#     WHY`: shown and counted as skipped, never as passed.
#   - Scratch files go in $TMP (a fresh directory, removed at exit).
#   - Never compare with output produced by the code under test: expected
#     values come from the spec, by hand, or from an independent tool.
#
# Every check prints exactly one line:
#     ok   format-decode-e4m3-448
#     FAIL format-decode-e4m3-448: stdout lacks '448'
#     skip infer-output-full-rc: no writable /dev/full here
#
# Helpers:
#   run_ladder ARGS...        runs $LADDER ARGS; sets $rc, $out, $err (file
#                             names of stdout and stderr: $TMP/out, $TMP/err)
#   run_ladder_in FILE ARGS.. same with FILE as standard input
#   ok NAME / fail NAME DETAIL   record a check directly
#   skip NAME WHY             a check that cannot run here, and why
#   check NAME CMD...         ok when CMD exits 0
#   expect_rc NAME CODE       the last run exited with CODE
#   expect_out NAME REGEX     stdout has a line matching the extended regex
#   expect_out_eq NAME TEXT   stdout is exactly TEXT (plus a final newline)
#   expect_err NAME REGEX     stderr has a line matching the regex
#   expect_err_line NAME      stderr is exactly one line starting "ladder: "
#   expect_no_err NAME        stderr is empty
#   expect_usage_error NAME ARGS...  runs $LADDER ARGS and checks that it
#                             exits 2 with one "ladder: " line on stderr and
#                             nothing on stdout (three facts, one check)

set -u
: "${LADDER:?LADDER must name the ladder binary (run through tests/run.sh)}"
# No progress lines (docs/progress.md): a slow machine or a sanitizer
# build would otherwise add stage lines to the stderr that checks compare.
# A test of the progress itself sets LADDER_PROGRESS for its commands.
LADDER_PROGRESS=0
export LADDER_PROGRESS
TEST_NAME=$(basename "$0" .sh)
TEST_PASSED=0
TEST_FAILED=0
TEST_SKIPPED=0
TESTS_DATA=tests/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ladder-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
out=$TMP/out
err=$TMP/err
rc=0

ok() {
    TEST_PASSED=$((TEST_PASSED + 1))
    printf 'ok   %s\n' "$1"
}

fail() {
    TEST_FAILED=$((TEST_FAILED + 1))
    printf 'FAIL %s: %s\n' "$1" "$2"
}

skip() {
    TEST_SKIPPED=$((TEST_SKIPPED + 1))
    printf 'skip %s: %s\n' "$1" "$2"
}

# known NAME WHY: a check that failed as a list of known failures says it
# does (tests/data/blind-known.txt): shown, counted by tests/run.sh as
# skipped, never as passed.
known() {
    printf 'known %s: %s\n' "$1" "$2"
}

run_ladder() {
    rc=0
    "$LADDER" "$@" >"$out" 2>"$err" </dev/null || rc=$?
}

run_ladder_in() {
    _in=$1
    shift
    rc=0
    "$LADDER" "$@" >"$out" 2>"$err" <"$_in" || rc=$?
}

# First line of a file, shortened, for failure details.
_peek() {
    head -c 200 "$1" | head -n 1
}

check() {
    _name=$1
    shift
    if "$@" >/dev/null 2>&1; then ok "$_name"; else fail "$_name" "'$*' failed"; fi
}

expect_rc() {
    if [ "$rc" -eq "$2" ]; then
        ok "$1"
    else
        fail "$1" "exit code $rc, expected $2 (stderr: $(_peek "$err"))"
    fi
}

expect_out() {
    if grep -Eq -- "$2" "$out"; then
        ok "$1"
    else
        fail "$1" "stdout lacks /$2/ (stdout: $(_peek "$out"))"
    fi
}

expect_out_eq() {
    printf '%s\n' "$2" >"$TMP/want"
    if cmp -s "$TMP/want" "$out"; then
        ok "$1"
    else
        fail "$1" "stdout is '$(_peek "$out")', expected '$(_peek "$TMP/want")'"
    fi
}

expect_err() {
    if grep -Eq -- "$2" "$err"; then
        ok "$1"
    else
        fail "$1" "stderr lacks /$2/ (stderr: $(_peek "$err"))"
    fi
}

expect_err_line() {
    _n=$(wc -l <"$err")
    if [ "$_n" -eq 1 ] && grep -q '^ladder: ' "$err"; then
        ok "$1"
    else
        fail "$1" "stderr should be one 'ladder: ' line, has $_n lines: $(_peek "$err")"
    fi
}

expect_no_err() {
    if [ ! -s "$err" ]; then ok "$1"; else fail "$1" "stderr: $(_peek "$err")"; fi
}

expect_usage_error() {
    _name=$1
    shift
    run_ladder "$@"
    _n=$(wc -l <"$err")
    if [ "$rc" -ne 2 ]; then
        fail "$_name" "exit code $rc, expected 2 (stderr: $(_peek "$err"))"
    elif [ "$_n" -ne 1 ] || ! grep -q '^ladder: ' "$err"; then
        fail "$_name" "stderr should be one 'ladder: ' line, has $_n lines"
    elif [ -s "$out" ]; then
        fail "$_name" "stdout should be empty: $(_peek "$out")"
    else
        ok "$_name"
    fi
}

# script_checks FILE: the checks a script (tests/python/) printed to FILE
# as this test's own: each "ok   NAME" line passes, each "FAIL NAME: WHY"
# line fails; other lines are ignored.
script_checks() {
    while IFS= read -r _line; do
        case $_line in
        "ok   "*) ok "${_line#ok   }" ;;
        "FAIL "*) _rest=${_line#FAIL }; fail "${_rest%%:*}" "${_rest#*: }" ;;
        esac
    done <"$1"
}

# need_venv NAME: $py, the test venv's Python (make test makes it); without
# it the check NAME fails and the test ends.
need_venv() {
    py=${VENV:-build/venv}/bin/python
    if [ ! -x "$py" ]; then
        fail "$1" "no '$py' (run through 'make test')"
        test_done
    fi
}

test_done() {
    printf '%s: %d passed, %d failed, %d skipped\n' "$TEST_NAME" "$TEST_PASSED" \
        "$TEST_FAILED" "$TEST_SKIPPED"
    [ "$TEST_FAILED" -eq 0 ]
    exit $?
}
