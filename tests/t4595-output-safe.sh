#!/bin/sh
# Outputs never destroy what they are made from, and are written whole or
# not at all (util/outfile.h, docs/security.md, docs/robustness.md):
#   - an -o (or --json) that is the store or an input, by any name of the
#     same file, is refused (exit 2) and the file is left as it was;
#   - a write that fails part way (the file size limit stands in for a full
#     disk) leaves the earlier complete file under the name, and no
#     temporary file beside it.
. tests/lib.sh

# npy FILE DESCR ROWS COLS SIZE: a zero array of ROWS x COLS elements of
# SIZE bytes, as numpy's format 1.0 writes it (a header padded to 128).
npy() {
    _h="{'descr': '$2', 'fortran_order': False, 'shape': ($3, $4), }"
    { printf '\223NUMPY\001\000\166\000%-117s\n' "$_h"
      head -c $(($3 * $4 * $5)) /dev/zero; } >"$1"
}
p=sm90-mma-bf16-f32
db=$TMP/x.db
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 64 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db"
expect_rc out-setup-run 0
run_ladder infer latest --db "$db"
expect_rc out-setup-infer 0
sum=$(sha256sum "$db" | cut -d' ' -f1)
ln "$db" "$TMP/hard.db"
ln -s "$db" "$TMP/soft.db"

# clobber NAME ARGS...: ladder ARGS is refused and the store is unchanged.
clobber() {
    _cn=$1
    shift
    expect_usage_error out-refuse-$_cn "$@"
    expect_err out-refuse-$_cn-says "^ladder: output '.*' is the store '.*'; writing it would destroy it"
    check out-refuse-$_cn-intact test "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum"
}
clobber report report 1 --db "$db" -o "$db"
clobber report-md report 1 --db "$db" -o "$TMP/soft.db" --format md
clobber export export 1 --db "$db" -o "$TMP/hard.db"
clobber infer infer 1 --db "$db" -o "$db"
clobber diff diff 1 $p --db "$db" -o "$db"
clobber survey survey --db "$db" --json -o "$db" --only $p --cases 10
run_ladder history --db "$db"
expect_rc out-refuse-store-readable 0
expect_out out-refuse-store-run '^ +1 ok '

# Nor the store's companions, which SQLite keeps beside it under its name
# (x.db-wal, x.db-shm, x.db-journal): SQLite would take the file written for
# its log, or remove it with what it held. Refused by name, whether they
# exist now or not, and for merge's shards too.
db=$TMP/x.db
for side in wal shm journal; do
    expect_usage_error out-refuse-$side report 1 --db "$db" -o "$db-$side"
    expect_err out-refuse-$side-says "^ladder: output '.*x.db-$side' is the store '.*x.db''s $side file; writing it would damage the store"
    check out-refuse-$side-none test ! -e "$db-$side"
done
expect_usage_error out-refuse-wal-export export 1 --db "$db" -o "$TMP/./x.db-wal"
expect_usage_error out-refuse-wal-infer infer 1 --db "$db" -o "$db-wal"
expect_usage_error out-refuse-wal-merge merge "$db-wal" "$db"
check out-refuse-wal-store-intact test "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum"

# An input of gemm or fit is no output either.
run_ladder export 1 --db "$db" -o "$TMP/r.vec"
expect_rc out-export-rc 0
expect_usage_error out-refuse-fit fit "$TMP/r.vec" -o "$TMP/r.vec"
expect_err out-refuse-fit-says "output '.*r.vec' is the vector file"
npy "$TMP/a.npy" '<u2' 32 16 2
npy "$TMP/b.npy" '<u2' 16 32 2
cp "$TMP/a.npy" "$TMP/a.keep"
expect_usage_error out-refuse-gemm gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/a.npy"
expect_err out-refuse-gemm-says "output '.*a.npy' is A '.*a.npy'"
check out-refuse-gemm-intact cmp -s "$TMP/a.npy" "$TMP/a.keep"

# A write that fails part way: RLIMIT_FSIZE (ulimit -f, 512-byte blocks)
# makes the write fail with EFBIG, as a full disk would.
run_ladder gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" -o "$TMP/d.npy"
expect_rc out-gemm-rc 0
check out-gemm-size test "$(wc -c <"$TMP/d.npy")" = $((128 + 32 * 32 * 4))
cp "$TMP/d.npy" "$TMP/d.keep"
(trap '' XFSZ; ulimit -f 2; exec "$LADDER" gemm --datapath $p "$TMP/a.npy" "$TMP/b.npy" \
    -o "$TMP/d.npy") >"$out" 2>"$err"
rc=$?
expect_rc out-gemm-full-rc 3
expect_err out-gemm-full-says "^ladder: cannot write '.*d.npy': File too large"
check out-gemm-full-kept cmp -s "$TMP/d.npy" "$TMP/d.keep"
check out-gemm-full-no-temp test -z "$(ls "$TMP" | grep 'd.npy.tmp')"

# An output through a symbolic link replaces the file the link names, and
# the link stays; a file replaced keeps its permissions, a new file gets
# the umask's.
db=$TMP/x.db
mkdir "$TMP/l" "$TMP/l/sub"
echo keep >"$TMP/l/real.html"
chmod 600 "$TMP/l/real.html"
ln -s real.html "$TMP/l/link.html"
run_ladder report 1 --db "$db" -o "$TMP/l/link.html"
expect_rc out-link-rc 0
check out-link-still-link test -L "$TMP/l/link.html"
check out-link-target-written grep -q '<html' "$TMP/l/real.html"
check out-link-mode-kept test "$(stat -c %a "$TMP/l/real.html")" = 600
check out-link-no-temp test -z "$(ls "$TMP/l" | grep 'tmp-')"
# a relative link in another folder, through a second link, and dangling
ln -s ../link.html "$TMP/l/sub/two.md"
run_ladder report 1 --db "$db" --format md -o "$TMP/l/sub/two.md"
expect_rc out-link-chain-rc 0
check out-link-chain-still-link test -L "$TMP/l/sub/two.md"
check out-link-chain-target grep -q '^# ' "$TMP/l/real.html"
ln -s new.vec "$TMP/l/dangling.vec"
run_ladder export 1 --db "$db" -o "$TMP/l/dangling.vec"
expect_rc out-link-dangling-rc 0
check out-link-dangling-still-link test -L "$TMP/l/dangling.vec"
check out-link-dangling-created test -s "$TMP/l/new.vec"
for mask in 022 077; do
    rm -f "$TMP/l/m.html"
    (umask $mask; exec "$LADDER" report 1 --db "$db" -o "$TMP/l/m.html") >"$out" 2>"$err"
    rc=$?
    expect_rc out-umask-$mask-rc 0
    check out-umask-$mask-mode test "$(stat -c %a "$TMP/l/m.html")" = $(printf '%o' $((0666 & ~0$mask)))
done
# /dev/fd/1 (as /dev/stdout) names a descriptor: written in place, even
# when it is a regular file. (Not /dev/stdout itself: a ladder that replaced
# the file a link names would replace it, as root, with a regular file.)
"$LADDER" report 1 --db "$db" --format md -o /dev/fd/1 >"$TMP/l/so.md" 2>"$err"
rc=$?
expect_rc out-stdout-rc 0
check out-stdout-written grep -q '^# ' "$TMP/l/so.md"

# The same for the outputs read from a store: a copy in a read-only folder,
# which ladder opens read-only and immutable (no -shm file to write), read
# as an unprivileged user when run as root (who could write it anyway).
mkdir "$TMP/ro" "$TMP/w"
cp "$db" "$TMP/ro/j.db"
sqlite3 "$TMP/ro/j.db" "PRAGMA journal_mode = DELETE" >/dev/null
chmod 444 "$TMP/ro/j.db"
chmod 555 "$TMP/ro"
chmod 777 "$TMP/w"
chmod 755 "$TMP"
as_user() {
    if [ "$(id -u)" = 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    else
        "$@"
    fi
}
db=$TMP/ro/j.db
w=$TMP/w
# each output named with the extension its command writes (-o's kind)
for cmd in "report 1 --db $db|html" "report 1 --db $db --format md|md" "export 1 --db $db|vec" \
        "infer 1 --db $db --no-store|yaml"; do
    ext=${cmd#*|}
    cmd=${cmd%|*}
    name=$(echo "$cmd" | cut -d' ' -f1)$(echo "$cmd" | grep -q md && echo -md)
    o=$w/o-$name.$ext
    as_user "$LADDER" $cmd -o "$o" >"$out" 2>"$err"
    rc=$?
    expect_rc out-$name-rc 0
    cp "$o" "$TMP/o.$name.keep"
    check out-$name-big test "$(wc -c <"$o")" -gt 512
    (trap "" XFSZ; ulimit -f 1; as_user "$LADDER" $cmd -o "$o") >"$out" 2>"$err"
    rc=$?
    expect_rc out-$name-full-rc 3
    check out-$name-full-kept cmp -s "$o" "$TMP/o.$name.keep"
    check out-$name-full-no-temp test -z "$(ls "$w" | grep "o-$name.$ext.tmp")"
done
chmod 755 "$TMP/ro"
test_done
