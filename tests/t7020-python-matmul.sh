#!/bin/sh
# ladder.matmul (python/ladder over libladder.so) against `ladder gemm` and
# against chains of `ladder eval` calls, word for word, for bf16, f16, tf32,
# e4m3 and a Blackwell family; fp8 with promotion every 4 MMAs against plain
# chaining, with the error of both measured exactly (tests/python/matmul_check.py).
. tests/lib.sh

py=${VENV:-build/venv}/bin/python
lib=$(dirname "$LADDER")/libladder.so
if [ ! -x "$py" ] || [ ! -f "$lib" ]; then
    fail python-matmul-setup "no '$py' or '$lib' (run through 'make test')"
    test_done
fi
# A sanitized library needs its runtime loaded before Python starts.
case $lib in
*/san/*) LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
         export LD_PRELOAD ASAN_OPTIONS ;;
esac
PYTHONPATH=python LADDER_LIB=$lib "$py" tests/python/matmul_check.py "$LADDER" "$TMP" \
    >"$TMP/checks" 2>"$TMP/py-err"
prc=$?
unset LD_PRELOAD
grep '^#' "$TMP/checks"
script_checks "$TMP/checks"
if [ "$prc" -eq 0 ]; then ok python-matmul-script; else fail python-matmul-script "exit $prc: $(head -c 300 "$TMP/py-err")"; fi
test_done
