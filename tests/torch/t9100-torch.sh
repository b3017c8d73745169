#!/bin/sh
# torch tensors through ladder.matmul (the bits of the NumPy path, a tensor
# back), and every op ladder.torch.emulate intercepts (matmul, @, mm, bmm,
# addmm, linear, nn.Linear, _scaled_mm) against ladder.matmul word for word
# (tests/python/torch_check.py), in the venv with torch that
# `sh scripts/deps.sh torch` makes.
#
#     make test-torch                # or:
#     LADDER=build/rel/ladder TORCH_VENV=build/torch sh tests/torch/t9100-torch.sh
. tests/lib.sh

py=${TORCH_VENV:-build/torch}/bin/python
case $py in /*) ;; *) py=$PWD/$py ;; esac
lib=$(dirname "$LADDER")/libladder.so
if [ ! -x "$py" ] || [ ! -f "$lib" ]; then
    fail torch-setup "no '$py' or '$lib' (run through 'make test-torch')"
    test_done
fi
PYTHONPATH=python LADDER_LIB=$lib "$py" tests/python/torch_check.py "$LADDER" \
    >"$TMP/checks" 2>"$TMP/py-err"
prc=$?
script_checks "$TMP/checks"
if [ "$prc" -eq 0 ]; then ok torch-script; else fail torch-script "exit $prc: $(tail -c 300 "$TMP/py-err")"; fi
test_done
