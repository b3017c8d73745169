#!/bin/sh
# Installs what the build and the tests need, and says so when it cannot.
#
#   sh scripts/deps.sh build   Debian packages for compiling ./ladder:
#                              libyaml-dev, libsqlite3-dev, sqlite3, pkg-config.
#                              Missing ones are installed with apt-get when we
#                              run as root; otherwise the script names them and
#                              exits 1.
#   sh scripts/deps.sh test    A Python virtual environment in build/venv with
#                              numpy and ml_dtypes, pinned (below): the
#                              independent implementation that the format
#                              tests compare against; and Pillow, which
#                              decodes t4600's screenshots. A venv holding other
#                              versions is brought to the pinned ones. Failing
#                              to build it fails the test run; the tests never
#                              skip the comparison.
#                              Also Debian's chromium (headless, to draw the
#                              pages of `ladder report` in t4600), installed
#                              like the build packages when run as root;
#                              otherwise a warning, and that test fails.
#   sh scripts/deps.sh peers   A second venv in build/peers (PEERS_VENV) with
#                              MMA-Sim and torch, pinned (below), for
#                              `make test-peers` (tests/peers/) and
#                              scripts/mmasim-answers.sh. Not part of
#                              `make test`: torch is large.
#   sh scripts/deps.sh torch   A third venv in build/torch (TORCH_VENV) with
#                              torch (TORCH_VERSION, as for the peers) and the
#                              test venv's numpy and ml_dtypes, for
#                              `make test-torch` (tests/torch/). Not part of
#                              `make test`: torch is large (by package name
#                              pip picks the default Linux build, with its
#                              CUDA libraries: about 5 GB; the tests use
#                              only its CPU side).
#   sh scripts/deps.sh fuzz    clang and libFuzzer's runtime for `make fuzz`
#                              (Debian: clang-14, libclang-rt-14-dev), installed
#                              like the build packages.
#
# The Makefile runs `build` once (it leaves build/.deps-ok behind) and `test`
# before every test run (cheap once the venv exists). Set VENV to use another
# folder, PYTHON to choose the interpreter the venv is made from.
set -eu

BUILD_PKGS="libyaml-dev libsqlite3-dev sqlite3 pkg-config"
VENV=${VENV:-build/venv}
PYTHON=${PYTHON:-python3}
# The versions the reference data was checked with; a new release changes
# what the tests compare against, so it is taken only on purpose, here.
NUMPY_VERSION=2.4.6
ML_DTYPES_VERSION=0.6.0
PILLOW_VERSION=12.0.0
PY_PKGS="numpy==$NUMPY_VERSION ml_dtypes==$ML_DTYPES_VERSION pillow==$PILLOW_VERSION"
# MMA-Sim's answers in vectors/mmasim were made with these two.
PEERS_VENV=${PEERS_VENV:-build/peers}
MMASIM_VERSION=2.1.1
TORCH_VERSION=2.15.0
TORCH_VENV=${TORCH_VENV:-build/torch}

say() { printf 'deps: %s\n' "$*" >&2; }
die() { printf 'deps: %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" = 0 ]; }

# Prints the Debian packages of $@ that are not installed.
missing_debs() {
    for p in "$@"; do
        st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        case "$st" in
        *" installed") ;;
        *) printf '%s ' "$p" ;;
        esac
    done
}

# apt-get update + install of $@, as root, without questions.
apt_install() {
    is_root || die "missing Debian packages: $*; install them with: sudo apt-get install $*"
    command -v apt-get >/dev/null 2>&1 ||
        die "missing packages: $*, and no apt-get here to install them"
    say "installing $*"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null || die "apt-get update failed"
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends "$@" >/dev/null ||
        die "apt-get install $* failed"
}

deps_build() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        # Not Debian: check what the compiler needs and leave the rest alone.
        for lib in yaml-0.1 sqlite3; do
            pkg-config --exists "$lib" 2>/dev/null ||
                die "cannot find '$lib' with pkg-config; install libyaml and SQLite development files"
        done
        return 0
    fi
    miss=$(missing_debs $BUILD_PKGS)
    [ -z "$miss" ] && return 0
    # shellcheck disable=SC2086
    apt_install $miss
    miss=$(missing_debs $BUILD_PKGS)
    [ -z "$miss" ] || die "still missing after apt-get: $miss"
}

# "<numpy version> <ml_dtypes version> <Pillow version>" of the venv, when
# it imports what the tests need; nothing otherwise.
venv_versions() {
    [ -x "$VENV/bin/python" ] &&
        "$VENV/bin/python" -c 'import numpy, ml_dtypes, PIL; ml_dtypes.float4_e2m1fn; ml_dtypes.float8_e8m0fnu
print(numpy.__version__, ml_dtypes.__version__, PIL.__version__)' 2>/dev/null
}

PINNED="$NUMPY_VERSION $ML_DTYPES_VERSION $PILLOW_VERSION"

# True when the venv holds the pinned versions.
venv_ok() {
    [ "$(venv_versions)" = "$PINNED" ]
}

# Chromium for the report test. Not being root only warns: the test itself
# fails loudly without it, while every other test still runs.
deps_chromium() {
    command -v chromium >/dev/null 2>&1 && return 0
    if is_root && command -v apt-get >/dev/null 2>&1; then
        (apt_install chromium) || say "cannot install chromium: t4600-report will fail"
    else
        say "chromium is missing (run as root to install it): t4600-report will fail"
    fi
}

deps_test() {
    deps_chromium
    have=$(venv_versions || true)
    [ "$have" = "$PINNED" ] && return 0
    if [ -n "$have" ]; then
        # shellcheck disable=SC2086
        set -- $have
        say "$VENV has numpy $1, ml_dtypes $2 and Pillow $3, not $NUMPY_VERSION, $ML_DTYPES_VERSION and $PILLOW_VERSION"
    fi
    command -v "$PYTHON" >/dev/null 2>&1 || {
        if command -v apt-get >/dev/null 2>&1 && is_root; then
            apt_install python3 python3-venv
        else
            die "cannot find '$PYTHON'; the format tests need Python 3 with numpy and ml_dtypes"
        fi
    }
    if [ ! -x "$VENV/bin/python" ]; then
        rm -rf "$VENV"
        mkdir -p "$(dirname "$VENV")"
        if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
            # Debian's python3 ships venv (and ensurepip) separately.
            if command -v apt-get >/dev/null 2>&1 && is_root; then
                rm -rf "$VENV"
                apt_install python3-venv
                "$PYTHON" -m venv "$VENV" || die "cannot create a virtual environment in '$VENV'"
            else
                die "cannot create a virtual environment in '$VENV' (python3-venv missing?)"
            fi
        fi
    fi
    say "installing $PY_PKGS into $VENV"
    # shellcheck disable=SC2086
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check $PY_PKGS ||
        die "pip cannot install $PY_PKGS into '$VENV'; the format tests need them and will not run without them"
    venv_ok || die "'$VENV' still does not import numpy, ml_dtypes and Pillow $PINNED"
}

# "<mmasim version> <torch version>" of the peers venv, when it imports both.
peers_versions() {
    [ -x "$PEERS_VENV/bin/python" ] &&
        "$PEERS_VENV/bin/python" -c 'import importlib.metadata as m, mmasim.nv_ptx, mmasim.amd
print(m.version("mmasim"), m.version("torch").split("+")[0])' 2>/dev/null
}

deps_peers() {
    want="$MMASIM_VERSION $TORCH_VERSION"
    have=$(peers_versions || true)
    [ "$have" = "$want" ] && return 0
    command -v "$PYTHON" >/dev/null 2>&1 || die "cannot find '$PYTHON' to make $PEERS_VENV"
    [ -x "$PEERS_VENV/bin/python" ] || "$PYTHON" -m venv "$PEERS_VENV" ||
        die "cannot create a virtual environment in '$PEERS_VENV'"
    say "installing mmasim==$MMASIM_VERSION torch==$TORCH_VERSION into $PEERS_VENV"
    "$PEERS_VENV/bin/python" -m pip install -q --disable-pip-version-check \
        "mmasim==$MMASIM_VERSION" "torch==$TORCH_VERSION" ||
        die "pip cannot install mmasim $MMASIM_VERSION and torch $TORCH_VERSION into '$PEERS_VENV'"
    [ "$(peers_versions)" = "$want" ] ||
        die "'$PEERS_VENV' still does not import mmasim $MMASIM_VERSION and torch $TORCH_VERSION"
}

# "<torch> <numpy> <ml_dtypes>" versions of the torch venv, when it imports them.
torch_versions() {
    [ -x "$TORCH_VENV/bin/python" ] &&
        "$TORCH_VENV/bin/python" -c 'import importlib.metadata as m, torch, numpy, ml_dtypes
print(m.version("torch").split("+")[0], numpy.__version__, ml_dtypes.__version__)' 2>/dev/null
}

deps_torch() {
    want="$TORCH_VERSION $NUMPY_VERSION $ML_DTYPES_VERSION"
    have=$(torch_versions || true)
    [ "$have" = "$want" ] && return 0
    command -v "$PYTHON" >/dev/null 2>&1 || die "cannot find '$PYTHON' to make $TORCH_VENV"
    [ -x "$TORCH_VENV/bin/python" ] || "$PYTHON" -m venv "$TORCH_VENV" ||
        die "cannot create a virtual environment in '$TORCH_VENV'"
    say "installing torch==$TORCH_VERSION numpy==$NUMPY_VERSION ml_dtypes==$ML_DTYPES_VERSION into $TORCH_VENV"
    "$TORCH_VENV/bin/python" -m pip install -q --disable-pip-version-check \
        "torch==$TORCH_VERSION" "numpy==$NUMPY_VERSION" "ml_dtypes==$ML_DTYPES_VERSION" ||
        die "pip cannot install torch $TORCH_VERSION into '$TORCH_VENV'"
    [ "$(torch_versions)" = "$want" ] ||
        die "'$TORCH_VENV' still does not import torch $TORCH_VERSION, numpy and ml_dtypes"
}

FUZZ_PKGS="clang-14 libclang-rt-14-dev"

# True when ${FUZZ_CC:-clang} links a libFuzzer target.
fuzzer_links() {
    t=$(mktemp -d "${TMPDIR:-/tmp}/ladder-deps.XXXXXX")
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' >"$t/f.c"
    ok=0
    "${FUZZ_CC:-clang}" -fsanitize=fuzzer -o "$t/f" "$t/f.c" >/dev/null 2>&1 && ok=1
    rm -rf "$t"
    [ $ok = 1 ]
}

deps_fuzz() {
    fuzzer_links && return 0
    command -v dpkg-query >/dev/null 2>&1 ||
        die "'${FUZZ_CC:-clang} -fsanitize=fuzzer' does not link; install clang with its libFuzzer runtime"
    # shellcheck disable=SC2086
    apt_install $FUZZ_PKGS
    fuzzer_links || die "'${FUZZ_CC:-clang} -fsanitize=fuzzer' still does not link after installing $FUZZ_PKGS"
}

case "${1:-}" in
build) deps_build ;;
test) deps_test ;;
fuzz) deps_fuzz ;;
peers) deps_peers ;;
torch) deps_torch ;;
*) die "usage: sh scripts/deps.sh build|test|peers|torch|fuzz" ;;
esac
