#!/bin/sh
# The tutorial docs/tutorials/4-model-numerics.md as written: its python
# blocks in one interpreter, in an empty folder, each block's output against
# the text shown after it; then the claims it makes, on the values it
# computed, and its figure (tests/python/tutorial_check.py).
#
#     make test-torch                # or:
#     LADDER=build/rel/ladder TORCH_VENV=build/torch sh tests/torch/t9110-tutorial-model-numerics.sh
. tests/lib.sh

py=${TORCH_VENV:-build/torch}/bin/python
case $py in /*) ;; *) py=$PWD/$py ;; esac
lib=$PWD/$(dirname "$LADDER")/libladder.so
case $LADDER in /*) lib=$(dirname "$LADDER")/libladder.so ;; esac
if [ ! -x "$py" ] || [ ! -f "$lib" ]; then
    fail tutorial-setup "no '$py' or '$lib' (run through 'make test-torch')"
    test_done
fi
root=$PWD
mkdir "$TMP/work"
(cd "$TMP/work" && PYTHONPATH=$root/python LADDER_LIB=$lib "$py" \
    "$root/tests/python/tutorial_check.py" "$root/docs/tutorials/4-model-numerics.md" \
    "$root/docs/tutorials/4-model-numerics.svg") >"$TMP/checks" 2>"$TMP/py-err"
prc=$?
script_checks "$TMP/checks"
if [ "$prc" -eq 0 ]; then ok tutorial-script; else fail tutorial-script "exit $prc: $(tail -c 300 "$TMP/py-err")"; fi
test_done
