#!/bin/sh
# The Python package as a user installs it: python/setup.py builds the
# library beside the package (libladder and the model-file reader), and the
# package, run from outside the source tree, multiplies with a model file or
# a dict of its keys (against `ladder gemm`), lists the presets, rounds into
# built-in formats (against ml_dtypes) and a user-defined one (words by
# hand), and returns a scalar from dot (tests/python/package_check.py).
#
# Quick form (make test): setup.py's build into a folder of $TMP, with the
# test venv's numpy and ml_dtypes. With LADDER_TEST_PIP=1 (make
# test-python): `pip install ./python` into a fresh venv, which fetches
# numpy and ml_dtypes as the package declares them.
. tests/lib.sh

py=${VENV:-build/venv}/bin/python
case $py in /*) ;; *) py=$PWD/$py ;; esac
if [ ! -x "$py" ]; then
    fail python-package-setup "no '$py' (run through 'make test')"
    test_done
fi
root=$PWD
case $LADDER in /*) ;; *) LADDER=$root/$LADDER ;; esac  # run from elsewhere below
if [ "${LADDER_TEST_PIP:-0}" = 1 ]; then
    "$py" -m venv "$TMP/venv" >"$TMP/venv.log" 2>&1 &&
        "$TMP/venv/bin/python" -m pip install -q ./python >"$TMP/pip.log" 2>&1
    prc=$?
    if [ "$prc" -eq 0 ]; then ok python-package-pip-install; else fail python-package-pip-install "$(tail -c 300 "$TMP/pip.log")"; fi
    run_py=$TMP/venv/bin/python
    pkgpath=
    check python-package-declares "$run_py" -c 'import importlib.metadata as m
r = " ".join(m.requires("ladder"))
assert "numpy" in r and "ml_dtypes" in r, r'
    check python-package-version "$run_py" -c 'import importlib.metadata as m, ladder
assert m.version("ladder") == ladder.__version__, (m.version("ladder"), ladder.__version__)'
else
    (cd python && "$py" setup.py -q build_ext --build-lib "$TMP/pkg" \
        --build-temp "$TMP/obj") >"$TMP/build.log" 2>&1
    prc=$?
    cp python/ladder/*.py "$TMP/pkg/ladder/" 2>/dev/null
    if [ "$prc" -eq 0 ]; then ok python-package-build; else fail python-package-build "$(tail -c 300 "$TMP/build.log")"; fi
    run_py=$py
    pkgpath=$TMP/pkg
    grep -q '"numpy", "ml_dtypes"' python/pyproject.toml
    check python-package-declares test $? = 0
fi
mkdir "$TMP/elsewhere"
(cd "$TMP/elsewhere" && env -u LADDER_LIB PYTHONPATH="$pkgpath" "$run_py" \
    "$root/tests/python/package_check.py" "$LADDER" "$TMP") >"$TMP/checks" 2>"$TMP/py-err"
prc=$?
script_checks "$TMP/checks"
if [ "$prc" -eq 0 ]; then ok python-package-script; else fail python-package-script "exit $prc: $(tail -c 300 "$TMP/py-err")"; fi
test_done
