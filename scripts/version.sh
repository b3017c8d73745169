#!/bin/sh
# scripts/version.sh FILE: writes the commit stamp of this build, as C macros
# for the objects that print it (cli/main.c: --version; db/store.c: the
# builds table), into FILE, and rewrites FILE only when its content changes.
# Like git's GIT-VERSION-FILE: make runs this every time, but only a new
# commit (or a tree that became clean or dirty) rebuilds those objects.
#
# Outside a git work tree (a tarball, no git installed) the commit is
# "unknown" and the tree counts as clean.
set -u
file=${1:?usage: sh scripts/version.sh FILE}
commit=$(git rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
[ -n "$commit" ] || commit=unknown
dirty=0
# Only tracked files count: a stray scratch file does not make a build dirty.
if [ "$commit" != unknown ] &&
   [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    dirty=1
fi
new="/* Made by scripts/version.sh; do not edit. */
#define LADDER_GIT_COMMIT \"$commit\"
#define LADDER_GIT_DIRTY $dirty"
if [ -f "$file" ] && [ "$(cat "$file")" = "$new" ]; then
    exit 0
fi
mkdir -p "$(dirname "$file")"
printf '%s\n' "$new" >"$file.tmp" && mv "$file.tmp" "$file"
