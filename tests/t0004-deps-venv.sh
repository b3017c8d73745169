#!/bin/sh
# scripts/deps.sh test pins numpy, ml_dtypes and Pillow: a venv that holds other
# versions is noticed and brought to the pinned ones; a venv that holds them
# is left alone. The venv here is a stand-in whose python answers the
# version query from a file and whose "pip install" records its arguments
# and takes the versions they name, so nothing is downloaded and the real
# build/venv is never touched.
. tests/lib.sh

PINS="numpy==2.4.6 ml_dtypes==0.6.0 pillow==12.0.0"
fake_venv() {
    mkdir -p "$1/bin"
    printf '%s\n' "$2" >"$1/versions"
    cat >"$1/bin/python" <<'PY'
#!/bin/sh
dir=$(dirname "$0")/..
case "$1" in
-c) cat "$dir/versions" ;;
-m) shift 2
    echo "$*" >>"$dir/pip.log"
    n= m= p=
    for a in "$@"; do
        case $a in
        numpy==*) n=${a#numpy==} ;;
        ml_dtypes==*) m=${a#ml_dtypes==} ;;
        pillow==*) p=${a#pillow==} ;;
        esac
    done
    [ -n "$n" ] && [ -n "$m" ] && [ -n "$p" ] && echo "$n $m $p" >"$dir/versions" ;;
esac
PY
    chmod +x "$1/bin/python"
}

# Other versions: noticed, named, and replaced by the pins.
fake_venv "$TMP/old" "1.26.4 0.4.0 11.0.0"
VENV=$TMP/old sh scripts/deps.sh test >"$out" 2>"$err"
rc=$?
expect_rc deps-venv-old-rc 0
expect_err deps-venv-old-noticed "has numpy 1\.26\.4, ml_dtypes 0\.4\.0 and Pillow 11\.0\.0, not 2\.4\.6, 0\.6\.0 and 12\.0\.0"
if grep -q -- "install .*numpy==2\.4\.6 ml_dtypes==0\.6\.0 pillow==12\.0\.0" "$TMP/old/pip.log" 2>/dev/null; then
    ok deps-venv-old-pinned-install
else
    fail deps-venv-old-pinned-install "pip was run with: $(cat "$TMP/old/pip.log" 2>/dev/null)"
fi
check deps-venv-old-fixed grep -qx "2.4.6 0.6.0 12.0.0" "$TMP/old/versions"

# The pinned versions: nothing to do, pip never runs.
fake_venv "$TMP/good" "2.4.6 0.6.0 12.0.0"
VENV=$TMP/good sh scripts/deps.sh test >"$out" 2>"$err"
rc=$?
expect_rc deps-venv-good-rc 0
expect_no_err deps-venv-good-quiet
check deps-venv-good-no-pip test ! -e "$TMP/good/pip.log"

# A pip that cannot reach the pins: the run fails, saying so.
fake_venv "$TMP/stuck" "1.26.4 0.4.0 11.0.0"
printf '#!/bin/sh\n[ "$1" = -c ] && echo "1.26.4 0.4.0 11.0.0"; [ "$1" = -c ]\n' >"$TMP/stuck/bin/python"
VENV=$TMP/stuck sh scripts/deps.sh test >"$out" 2>"$err"
rc=$?
expect_rc deps-venv-stuck-rc 1
expect_err deps-venv-stuck-message "^deps: pip cannot install $PINS"

test_done
