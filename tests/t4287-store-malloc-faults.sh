#!/bin/sh
# Allocation failures: run, infer and validate with the N-th malloc of the
# process failing (tests/data/failmalloc.c, preloaded), for N spread over
# the whole command. Each must end with exit 0 (the allocation was one whose
# failure is survivable) or one line "ladder: ..." and a documented exit
# code (3 data, 5 store; never a signal), and leave a store that passes
# PRAGMA integrity_check and that the same command, without the fault,
# completes.
. tests/lib.sh

case $LADDER in
*/san/*)
    # ASan's allocator comes before any preloaded one: the shim cannot reach
    # malloc here. The plain build runs these checks.
    printf 'note: allocation faults are injected in the plain build only\n'
    test_done ;;
esac
shim=$TMP/failmalloc.so
if ! ${CC:-cc} -O2 -shared -fPIC -o "$shim" tests/data/failmalloc.c 2>"$TMP/cc-err"; then
    fail malloc-shim-builds "$(_peek "$TMP/cc-err")"
    test_done
fi
R=recipes/sm90-mma-bf16-f32.yaml

# count CMD...: the allocations CMD makes, into $calls.
count() {
    FAILMALLOC_COUNT=$TMP/n LD_PRELOAD=$shim "$@" >/dev/null 2>&1
    calls=$(cat "$TMP/n")
}

# faults NAME SETUP CMD...: CMD with allocation N failing, for N from 1 to
# the count, doubling each time (11 points or more), each in a fresh
# copy of the store SETUP made.
faults() {
    _name=$1 _setup=$2
    shift 2
    cp "$_setup" "$TMP/base.db"
    count "$@" --db "$TMP/base.db"
    _bad=
    _ran=0
    _n=1
    while [ "$_n" -le "$calls" ]; do
        cp "$_setup" "$TMP/f.db"
        rm -f "$TMP/f.db-wal" "$TMP/f.db-shm"
        _rc=0
        FAILMALLOC_AT=$_n LD_PRELOAD=$shim "$@" --db "$TMP/f.db" >/dev/null 2>"$TMP/ferr" || _rc=$?
        _lines=$(wc -l <"$TMP/ferr")
        if [ "$_rc" -ge 128 ] || { [ "$_rc" -ne 0 ] && [ "$_rc" -ne 1 ] && [ "$_rc" -ne 3 ] &&
            [ "$_rc" -ne 5 ]; }; then
            _bad="$_bad N=$_n exit $_rc ($(_peek "$TMP/ferr"));"
        elif [ "$_rc" -gt 1 ] && { [ "$_lines" -ne 1 ] || ! grep -q '^ladder: ' "$TMP/ferr"; }; then
            _bad="$_bad N=$_n: $_lines lines ($(_peek "$TMP/ferr"));"
        elif [ -f "$TMP/f.db" ] &&
            [ "$(sqlite3 "$TMP/f.db" 'PRAGMA integrity_check' 2>&1)" != ok ]; then
            _bad="$_bad N=$_n: integrity_check failed;"
        elif ! "$@" --db "$TMP/f.db" >/dev/null 2>"$TMP/rerr"; then
            _bad="$_bad N=$_n: the rerun failed ($(_peek "$TMP/rerr"));"
        fi
        _ran=$((_ran + 1))
        _n=$((_n * 2 + 1))
    done
    if [ -n "$_bad" ]; then fail "malloc-faults-$_name" "$_bad"
    elif [ "$_ran" -lt 11 ]; then fail "malloc-faults-$_name" "only $_ran points of $calls"
    else ok "malloc-faults-$_name"; fi
}

: >"$TMP/empty.db"
"$LADDER" run "$R" --db "$TMP/ran.db" >/dev/null 2>&1
check malloc-faults-setup test -s "$TMP/ran.db"
faults run "$TMP/empty.db" "$LADDER" run "$R"
faults infer "$TMP/ran.db" "$LADDER" infer 1
faults validate "$TMP/ran.db" "$LADDER" validate --model sm90-mma-bf16-f32 \
    --device sim:sm90-mma-bf16-f32 --cases 20000
test_done
