#!/bin/sh
# libladder: `make install PREFIX=...` into a scratch prefix, then a small C
# program built with `pkg-config --cflags --libs ladder` evaluates a preset
# case and a GEMM through the installed header and library.
. tests/lib.sh

prefix=$TMP/prefix
if make -s install PREFIX="$prefix" >"$TMP/make" 2>&1; then
    ok lib-install-make
else
    fail lib-install-make "$(head -c 300 "$TMP/make")"
    test_done
fi
for f in include/ladder/model/ladder.h include/ladder/model/program.h include/ladder/util/err.h lib/libladder.so \
         lib/libladder.a lib/pkgconfig/ladder.pc; do
    check "lib-install-has-$(basename "$f")" test -f "$prefix/$f"
done
# The library holds the model alone: no YAML, no SQLite.
if nm -D "$prefix/lib/libladder.so" | grep -Eq ' U (yaml_|sqlite3_)'; then
    fail lib-install-model-only "libladder.so needs libyaml or SQLite"
else
    ok lib-install-model-only
fi

flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs ladder)
# Under `make SANITIZER=... test` the make above installed the sanitized
# library (make passes SANITIZER down): the program links the same runtime.
[ -n "${SANITIZER:-}" ] && flags="$flags -fsanitize=$SANITIZER"
if ${CC:-cc} -std=c11 -Wall -Werror -o "$TMP/use" tests/data/libladder-use.c \
        $flags -lpthread -Wl,-rpath,"$prefix/lib" 2>"$TMP/cc"; then
    ok lib-install-compile
else
    fail lib-install-compile "$(head -c 300 "$TMP/cc")"
    test_done
fi
rc=0
"$TMP/use" >"$out" 2>"$err" || rc=$?
expect_rc lib-install-run 0
expect_out lib-install-eval '^eval 40400000$'
expect_out lib-install-gemm '^gemm 0 42000000 42000000 42000000 42000000 42000000 42000000$'
test_done
