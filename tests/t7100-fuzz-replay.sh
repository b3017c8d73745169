#!/bin/sh
# The fuzz targets' kept inputs, replayed without libFuzzer: every seed of
# tests/fuzz/corpus/<target>/ and every crasher of tests/fuzz/crashers/
# <target>/ (an input that once broke the target, kept so the fix stays)
# runs through the target's entry point. The driver is built beside the
# ladder binary (make build/rel/fuzz-replay; `make test` builds it).
. tests/lib.sh

REPLAY=${FUZZ_REPLAY:-$(dirname "$LADDER")/fuzz-replay}
if [ ! -x "$REPLAY" ]; then
    fail fuzz-replay-built "no replay driver at $REPLAY (make $REPLAY)"
    test_done
fi

for t in recipe modelfile vecline vecfile format plan npy merge migrate; do
    for kind in corpus crashers; do
        dir=tests/fuzz/$kind/$t
        name=fuzz-replay-$t-$kind
        set -- "$dir"/*
        if [ ! -e "$1" ]; then
            # every target has seeds; a target may have no crasher yet
            [ "$kind" = crashers ] && continue
            fail "$name" "no inputs in $dir"
            continue
        fi
        rc=0
        "$REPLAY" "$t" "$@" >"$out" 2>"$err" || rc=$?
        if [ "$rc" -eq 0 ] && grep -q "^$t: $# inputs\$" "$out"; then
            ok "$name"
        else
            fail "$name" "exit $rc: $(tail -n 2 "$err" | tr '\n' ' ')"
        fi
    done
done

# The driver says how many inputs it ran, and refuses a target it lacks.
printf 'e4m3' >"$TMP/spec"
rc=0
"$REPLAY" format "$TMP/spec" >"$out" 2>"$err" || rc=$?
if [ "$rc" -eq 0 ] && grep -q '^format: 1 inputs$' "$out"; then
    ok fuzz-replay-counts
else
    fail fuzz-replay-counts "exit $rc"
fi
rc=0
"$REPLAY" nosuch "$TMP/spec" >"$out" 2>"$err" || rc=$?
if [ "$rc" -eq 2 ] && grep -q "unknown target 'nosuch'" "$err"; then
    ok fuzz-replay-unknown-target
else
    fail fuzz-replay-unknown-target "exit $rc"
fi

test_done
