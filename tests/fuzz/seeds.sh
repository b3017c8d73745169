#!/bin/sh
# Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/)
# from the repository's own inputs: recipes/, tests/recipes-bad/, vectors/
# and the presets (`ladder model show`). Run from the repository root,
#     LADDER=build/rel/ladder sh tests/fuzz/seeds.sh
# Seeds are small on purpose: a few lines of each vector file, a sample of
# the malformed recipes. The committed corpus also holds the inputs that
# fuzzing runs added coverage with (libFuzzer -merge=1, named by their
# hash); remaking it drops them.
set -eu
: "${LADDER:?LADDER must name the ladder binary}"
C=tests/fuzz/corpus
rm -rf "$C"
mkdir -p "$C/recipe" "$C/modelfile" "$C/vecline" "$C/vecfile" "$C/format" "$C/plan" "$C/npy"

cp recipes/*.yaml "$C/recipe/"
ls tests/recipes-bad | awk 'NR % 8 == 1' | while read -r f; do
    [ "$(wc -c <"tests/recipes-bad/$f")" -le 4096 ] && cp "tests/recipes-bad/$f" "$C/recipe/bad-$f"
done
true

# The preset's index in the table (fuzz_preset picks by a byte modulo the
# count): its line number in `ladder presets`, from 0.
index() {
    "$LADDER" presets | awk -v n="$1" '$1 == n { print NR - 1; exit }'
}
byte() {
    printf "\\$(printf %03o "$(($1 % 256))")"
}

for f in vectors/*.vec; do
    b=$(basename "$f" .vec)
    head -n 14 "$f" >"$C/vecfile/$b.vec"
    name=$("$LADDER" check "$f" | sed -n '1s/.*(\([^;)]*\).*/\1/p')
    i=$(index "$name")
    [ -n "$i" ] || continue
    grep -v '^#' "$f" | head -n 1 >"$C/modelfile.tmp"
    { byte "$i"; byte 0; cat "$C/modelfile.tmp"; } >"$C/vecline/$b"
    # the same line without D, and with only 4 lanes
    { byte "$i"; byte 0; sed 's/;[^;]*$//' "$C/modelfile.tmp"; } >"$C/vecline/$b-nod"
    "$LADDER" model show "$name" >"$C/modelfile/$name.yaml"
    { cat "$C/modelfile/$name.yaml"; byte 0; head -c 300 /dev/urandom; } >"$C/plan/$name"
done
rm -f "$C/modelfile.tmp"
head -n 20 vectors/b200-tcgen05-frozen.txt >"$C/vecfile/frozen.txt"
# presets beyond the captured ones: scaled, sparse, integer, tcgen05
for name in $("$LADDER" presets | awk '/tcgen05|sp-|s8|u8|mxf|nvf/ {print $1}' | awk 'NR % 3 == 1'); do
    "$LADDER" model show "$name" >"$C/modelfile/$name.yaml"
    { cat "$C/modelfile/$name.yaml"; byte 0; head -c 600 /dev/urandom; } >"$C/plan/$name"
done
# format specs where a model file takes a format
printf '%s\n' 'name: made-up' 'a: e3m4:bias=5' 'b: "e4m3:bias=8"' 'd: f32' \
    'c: "e5m2:inf=none,nan=ones,name=myfp8"' 'k: 16' 'acc: e8m13:pad=10' \
    >"$C/modelfile/spec-formats.yaml"
printf '%s\n' 'a: e2m1' 'b: e2m1' 'c: f32' 'd: f32' 'k: 64' 'pass: 64' \
    'sa: "ue8m0:bias=120,name=ue8b"' 'sb: ue4m3' 'scale_block: 32' \
    >"$C/modelfile/spec-scales.yaml"
i=0
for spec in e4m3 e5m2 f16 bf16 tf32 f32 e2m1 e3m2 e2m3 ue8m0 ue4m3 s8 u8 s32 \
    e3m4 e3m4:bias=7 e5m2:inf=none,nan=ones e4m3:sub=flush \
    e8m7:name=mybf16 e4m3:pad=4,width=12 e2m1:sign=0 u4 s4 e1m0 e10m23; do
    printf '%s' "$spec" >"$C/format/$i"
    i=$((i + 1))
done
# .npy arrays: numpy's version 1.0 (and 2.0) layout, a header padded to a
# multiple of 64, then the data; good ones of every dtype the reader takes,
# and headers that lie (sizes that overflow, that the file does not hold,
# 'shape' inside another key's string).
npy() { # NAME VERSION HEADER DATA-BYTES
    h="$3"
    pre=10
    [ "$2" = 2 ] && pre=12
    total=$(( (pre + ${#h} + 1 + 63) / 64 * 64 ))
    len=$((total - pre))
    {
        printf '\223NUMPY'
        byte "$2"; byte 0; byte $((len % 256)); byte $((len / 256))
        [ "$2" = 2 ] && { byte 0; byte 0; }
        printf "%-$((len - 1))s\n" "$h"
        head -c "$4" /dev/urandom
    } >"$C/npy/$1"
}
for t in '|u1 1' '<u2 2' '<u4 4' '<u8 8' '<f2 2' '<f4 4' '<f8 8' '<V2 2' '|V1 1'; do
    set -- $t
    name=$(printf '%s' "$1" | tr '<|' 'lp')
    npy "$name" 1 "{'descr': '$1', 'fortran_order': False, 'shape': (3, 4), }" $((12 * $2))
done
npy vector 1 "{'descr': '<u2', 'fortran_order': False, 'shape': (16,), }" 32
npy scalar 1 "{'descr': '<u4', 'fortran_order': False, 'shape': (), }" 4
npy version2 2 "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 2), }" 8
npy order 1 "{'shape': (2, 3), 'fortran_order': False, 'descr': '<u2', }" 12
npy wrap 1 "{'descr': '<u8', 'fortran_order': False, 'shape': (2147483648, 2147483648), }" 0
npy huge 1 "{'descr': '<u8', 'fortran_order': False, 'shape': (2147483648, 1024), }" 64
npy inner 1 "{'descr': '<u2', 'fortran_order': False, 'x': 'shape: (99, 99)', 'shape': (1, 1), }" 2
npy fortran 1 "{'descr': '<u2', 'fortran_order': True, 'shape': (2, 2), }" 8
npy bigendian 1 "{'descr': '>u2', 'fortran_order': False, 'shape': (2, 2), }" 8
npy short 1 "{'descr': '<u4', 'fortran_order': False, 'shape': (4, 4), }" 10
npy threedim 1 "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 2, 2), }" 16

# Stores (fuzz_migrate, fuzz_merge), their pages cut to 512 bytes: a store
# of the default 4096-byte pages is some 200 KB of mostly empty pages,
# which libFuzzer would mutate in vain.
shrink() {
    sqlite3 "$1" 'PRAGMA journal_mode = DELETE; PRAGMA page_size = 512; VACUUM;' >/dev/null
}
mkdir -p "$C/migrate" "$C/merge"
T=$(mktemp -d)
# schema 1, empty and with the fixture (as t4140 makes it); the current
# schema with the fixture (nothing to migrate); schema 1 in WAL mode
sqlite3 "$T/v1.db" <tests/data/store-schema-v1.sql
shrink "$T/v1.db"
cp "$T/v1.db" "$C/migrate/v1-empty"
sqlite3 "$T/v1.db" <tests/data/store-fixture.sql
sqlite3 "$T/v1.db" 'PRAGMA user_version = 1'
shrink "$T/v1.db"
cp "$T/v1.db" "$C/migrate/v1-fixture"
sqlite3 "$T/v1.db" 'PRAGMA journal_mode = WAL' >/dev/null
cp "$T/v1.db" "$C/migrate/v1-fixture-wal"
sqlite3 "$T/v6.db" <db/schema.sql
sqlite3 "$T/v6.db" <tests/data/store-fixture.sql
shrink "$T/v6.db"
cp "$T/v6.db" "$C/migrate/v6-fixture"
# the shards of a validation of 300 cases, a model with a narrow window so
# that a third mismatch (byte 0: 1 for --partial, then the files)
"$LADDER" model show sm90-mma-bf16-f32 | sed 's/^window: .*/window: 20/' >"$T/m.yaml"
for s in 0/2 1/2; do
    "$LADDER" validate --model "$T/m.yaml" --device sim:sm90-mma-bf16-f32 --cases 300 \
        --seed 7 --shard "$s" --db "$T/s${s%/*}.db" -q >/dev/null || true
    shrink "$T/s${s%/*}.db"
done
"$LADDER" validate --model "$T/m.yaml" --device sim:sm90-mma-bf16-f32 --cases 300 \
    --seed 8 --shard 1/2 --db "$T/seed8.db" -q >/dev/null || true
shrink "$T/seed8.db"
{ byte 0; cat "$T/s0.db" "$T/s1.db"; } >"$C/merge/validation-2-shards"
{ byte 1; cat "$T/s1.db"; } >"$C/merge/validation-partial"
{ byte 0; cat "$T/s0.db"; } >"$C/merge/validation-missing-shard"
{ byte 0; cat "$T/s0.db" "$T/seed8.db"; } >"$C/merge/validation-other-seed"
{ byte 0; cat "$T/v6.db" "$T/s1.db"; } >"$C/merge/no-shard"
rm -rf "$T"
