#!/bin/sh
# The tutorials of docs/tutorials/ run as written. Every ```sh block of
# every tutorial (in file name order, each file's blocks in order) runs with
# `sh -e` in one empty temporary folder, as the setup of the first tutorial
# has it: the ladder under test on PATH as `ladder`, LADDER_SRC naming the
# checkout (nothing of it is linked into the folder), so a later tutorial
# finds what an earlier one left (ladder.db). A block passes when it exits 0
# and its output (stdout and stderr together) is the ```text block that
# follows it, line for line: the same number of lines, each matching its
# shown line, where `...` stands for any text (a date, a path, a time). A
# block shown with no output must print nothing.
#
# Blocks marked ```sh report use `ladder report`: they run only when
# `ladder help report` succeeds; otherwise each is one FAIL line.
. tests/lib.sh

WORK=$TMP/work
mkdir -p "$WORK" "$TMP/bin" "$TMP/blocks"
ln -s "$LADDER" "$TMP/bin/ladder"
LADDER_SRC=$PWD
export LADDER_SRC

# Splits the tutorials into $TMP/blocks/NNN.sh (first line: "# <file> <kind>")
# and NNN.text, the expected output of block NNN.
for f in docs/tutorials/*.md; do
    [ "$(basename "$f")" = README.md ] && continue
    printf '%s\n' "$f"
done >"$TMP/files"
awk -v dir="$TMP/blocks" '
    FNR == 1 { file = FILENAME }
    inblock && /^```$/ { inblock = 0; close(out); next }
    inblock { print >out; next }
    /^```sh( report)?$/ {
        n++
        out = sprintf("%s/%03d.sh", dir, n)
        kind = $0 ~ /report$/ ? "report" : "sh"
        print "# " file " " kind >out
        inblock = 1; last = n; next
    }
    /^```text$/ && last {
        out = sprintf("%s/%03d.text", dir, last)
        inblock = 1; last = 0; next
    }
    /^```/ { inblock = 1; out = "/dev/null"; last = 0; next }
' $(cat "$TMP/files")

# Whether $2 (output) is $1 (expected) line for line, `...` any text.
shows() {
    awk -v want="$1" '
        BEGIN {
            while ((getline l <want) > 0) {
                gsub(/[][\\^$.|?*+(){}]/, "\\\\&", l)
                gsub(/\\\.\\\.\\\./, ".*", l)
                pat[++n] = "^" l "$"
            }
        }
        { got[++m] = $0 }
        END {
            for (i = 1; i <= n || i <= m; i++) {
                if (i > m) { print "line " i " missing: " pat[i]; exit 1 }
                if (i > n) { print "line " i " not shown: " got[i]; exit 1 }
                if (got[i] !~ pat[i]) { print "line " i " is \"" got[i] "\", not " pat[i]; exit 1 }
            }
        }' "$2"
}

have_report=0
"$LADDER" help report >/dev/null 2>&1 && have_report=1
nblocks=0
for b in "$TMP/blocks"/*.sh; do
    [ -e "$b" ] || continue
    nblocks=$((nblocks + 1))
    set -- $(head -n 1 "$b")
    tut=$(basename "$2" .md)
    name=tutorial-$tut-$(basename "$b" .sh)
    if [ "$3" = report ] && [ "$have_report" = 0 ]; then
        fail "$name" "needs ladder report, which this build lacks"
        continue
    fi
    rc=0
    (cd "$WORK" && PATH=$TMP/bin:$PATH sh -e "$b") >"$TMP/out" 2>&1 || rc=$?
    text=${b%.sh}.text
    [ -e "$text" ] || : >"$text"
    if [ "$rc" != 0 ]; then
        fail "$name" "exit $rc: $(tail -n 3 "$TMP/out" | tr '\n' ' ')"
    elif ! why=$(shows "$text" "$TMP/out"); then
        fail "$name" "$why"
    else
        ok "$name"
    fi
done
check tutorial-blocks-found test "$nblocks" -ge 10
# The setup the blocks assume is the one the first tutorial shows.
check tutorial-setup-path grep -q '^export PATH="$PWD:$PATH" ' docs/tutorials/1-new-format.md
check tutorial-setup-src grep -q '^export LADDER_SRC="$PWD" ' docs/tutorials/1-new-format.md
check tutorial-folder-empty test ! -e "$WORK/recipes" -a ! -e "$WORK/docs"

# The queries the tutorials point to stay true: each file of docs/queries/
# runs on the store the tutorials filled.
for q in docs/queries/*.sql; do
    name=tutorial-query-$(basename "$q" .sql)
    if sqlite3 -bail "$WORK/ladder.db" -cmd '.parameter set :run 1' \
        -cmd ".parameter set :rung 'decode'" -cmd '.parameter set :validation 1' \
        <"$q" >"$TMP/out" 2>&1 && ! grep -q '^\(Error\|Parse error\)' "$TMP/out"; then
        ok "$name"
    else
        fail "$name" "$(head -c 300 "$TMP/out")"
    fi
done
test_done
