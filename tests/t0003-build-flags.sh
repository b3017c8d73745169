#!/bin/sh
# The build: the commit stamp of `ladder --version` is the tree's own (it
# lives in a generated header that the objects printing it depend on), and
# `make CFLAGS=...` replaces only the user's flags, never the ones the build
# needs. The Makefile is only read (make -n) into a scratch build folder.
. tests/lib.sh

# The stamp as the Makefile makes it (scripts/version.sh): the short commit,
# ", dirty" when a tracked file differs, "unknown" outside a git work tree.
if commit=$(git rev-parse --short=12 HEAD 2>/dev/null); then
    dirty=
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=", dirty"
else
    commit=unknown dirty=
fi
run_ladder --version
expect_rc build-version-rc 0
expect_out_eq build-version-commit "ladder $(sed -n 's/.*LADDER_VERSION "\(.*\)".*/\1/p' cli/cli.h) (commit $commit$dirty)"

# The header is written once and left alone (same time stamp) while its
# content stays the same, so nothing is rebuilt for nothing.
sh scripts/version.sh "$TMP/v/version.h"
check build-version-header-commit grep -q "^#define LADDER_GIT_COMMIT \"$commit\"$" "$TMP/v/version.h"
touch -d '2000-01-01 00:00' "$TMP/v/version.h"
touch -d '2000-01-02 00:00' "$TMP/stamp"
sh scripts/version.sh "$TMP/v/version.h"
check build-version-header-kept test "$TMP/v/version.h" -ot "$TMP/stamp"
printf '#define LADDER_GIT_COMMIT "0"\n' >"$TMP/v/version.h"
sh scripts/version.sh "$TMP/v/version.h"
check build-version-header-rewritten grep -q "\"$commit\"" "$TMP/v/version.h"
check build-version-main-depends sh -c "make -n BUILD='$TMP/b' '$TMP/b/cli/main.o' | grep -q 'version.sh $TMP/b/version.h'"

# The compile line of one object with the default flags and with CFLAGS=-O0:
# the same but for the optimisation.
line() {
    make -n "$@" BUILD="$TMP/b" "$TMP/b/model/format.o" 2>/dev/null | grep ' -c -o .*model/format\.o'
}
line >"$TMP/default"
line CFLAGS=-O0 >"$TMP/o0"
check build-flags-default-std grep -q -- ' -std=c11 .* -I\. ' "$TMP/default"
check build-flags-user-o0 grep -q -- ' -O0 ' "$TMP/o0"
check build-flags-user-std grep -q -- ' -std=c11 ' "$TMP/o0"
check build-flags-user-include grep -q -- ' -I\. ' "$TMP/o0"
check build-flags-user-werror grep -q -- ' -Werror ' "$TMP/o0"
sed 's/ -O2 -g / -O0 /' "$TMP/default" >"$TMP/want"
if cmp -s "$TMP/want" "$TMP/o0"; then
    ok build-flags-user-only-replaced
else
    fail build-flags-user-only-replaced "'$(cat "$TMP/o0")' is not '$(cat "$TMP/want")'"
fi

test_done
