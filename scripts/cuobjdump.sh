#!/bin/sh
# Finds cuobjdump (and the nvdisasm it runs), or installs them, and prints
# the path of a command that disassembles:
#
#   sh scripts/cuobjdump.sh [BUILD_DIR]      # BUILD_DIR defaults to build
#
# Looks at $CUOBJDUMP, the PATH, $CUDA/bin, /usr/local/cuda/bin and
# BUILD_DIR/cuda-tools. When none has both tools, installs the PyPI wheels
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm (NVIDIA's disassemblers,
# packaged on their own) into BUILD_DIR/cuda-tools with pip. cuobjdump 13
# needs nvdisasm on its PATH, so what is printed is a small wrapper,
# BUILD_DIR/cuda-tools/bin/cuobjdump, that sets the PATH and runs the real
# one. Exit status 0 with the path printed, or 1 with a message on stderr.
set -u
tools=${1:-build}/cuda-tools

if [ -n "${CUOBJDUMP:-}" ] && [ -x "$CUOBJDUMP" ]; then
    printf '%s\n' "$CUOBJDUMP"
    exit 0
fi

# wrap CUOBJDUMP NVDISASM: writes and prints the wrapper.
wrap() {
    mkdir -p "$tools/bin" || return 1
    w=$tools/bin/cuobjdump
    cat > "$w.tmp" <<WRAP || return 1
#!/bin/sh
# Written by scripts/cuobjdump.sh: runs cuobjdump with nvdisasm on the PATH.
PATH='$(dirname "$2")':\$PATH
export PATH
exec '$1' "\$@"
WRAP
    chmod +x "$w.tmp" && mv "$w.tmp" "$w" || return 1
    (cd "$(dirname "$w")" && printf '%s/cuobjdump\n' "$(pwd)")
}

# find_pair DIR...: first directory holding both executables.
find_pair() {
    for d in "$@"; do
        if [ -n "$d" ] && [ -x "$d/cuobjdump" ] && [ -x "$d/nvdisasm" ]; then
            wrap "$d/cuobjdump" "$d/nvdisasm"
            return $?
        fi
    done
    return 1
}

in_tools() {
    [ -d "$tools" ] || return 1
    c=$(find -L "$tools" -type f -name cuobjdump ! -path "$tools/bin/*" 2>/dev/null | head -n 1)
    n=$(find -L "$tools" -type f -name nvdisasm 2>/dev/null | head -n 1)
    [ -n "$c" ] && [ -n "$n" ] || return 1
    chmod +x "$c" "$n" 2>/dev/null
    wrap "$c" "$n"
}

c=$(command -v cuobjdump 2>/dev/null)
n=$(command -v nvdisasm 2>/dev/null)
if [ -n "$c" ] && [ -n "$n" ]; then
    wrap "$c" "$n" && exit 0
fi
find_pair "${CUDA:+$CUDA/bin}" /usr/local/cuda/bin && exit 0
in_tools && exit 0

pip=""
for p in pip3 pip; do
    if command -v "$p" >/dev/null 2>&1; then pip=$p; break; fi
done
if [ -z "$pip" ] && command -v python3 >/dev/null 2>&1 &&
   python3 -m pip --version >/dev/null 2>&1; then
    pip="python3 -m pip"
fi
if [ -z "$pip" ]; then
    echo "cuobjdump: not found, and no pip to install nvidia-cuda-cuobjdump;" \
         "install the CUDA toolkit or set CUOBJDUMP=/path/to/cuobjdump" >&2
    exit 1
fi
echo "cuobjdump: installing nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm" \
     "into $tools" >&2
rm -rf "$tools/nvidia"
if ! $pip install --quiet --disable-pip-version-check --no-deps --upgrade \
        --target "$tools" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >&2; then
    echo "cuobjdump: pip could not install nvidia-cuda-cuobjdump into" \
         "'$tools'; set CUOBJDUMP=/path/to/cuobjdump" >&2
    exit 1
fi
in_tools && exit 0
echo "cuobjdump: the wheels in '$tools' hold no cuobjdump/nvdisasm" >&2
exit 1
