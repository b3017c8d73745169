#!/bin/sh
# docs-commands.sh LADDER [--check]: writes what of docs/commands/ comes
# from the command table (cli/commands.def): README.md, the index of every
# command, and in each <command>.md its usage lines (the block under the
# page's title, as `ladder <command> --help` prints them) and the table of
# its arguments and options, between the two marker lines below (appended
# at the end when a page has none). With --check, writes nothing and exits 1, naming the pages, when
# any differs from what the table makes (tests/t0011-cli-table.sh).
set -eu
ladder=$1
check=${2:-}
begin='<!-- options: made by `make docs-commands` from cli/commands.def -->'
end='<!-- end of options -->'
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ladder-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
stale=0

# put FILE NEW: NEW becomes FILE, or with --check is compared with it.
put() {
    if [ "$check" = --check ]; then
        if ! cmp -s "$1" "$2"; then
            echo "$1: not what cli/commands.def makes; run 'make docs-commands'" >&2
            stale=1
        fi
    elif ! cmp -s "$1" "$2"; then
        cp "$2" "$1"
    fi
}

"$ladder" help --markdown >"$tmp/README.md"
put docs/commands/README.md "$tmp/README.md"
for cmd in $("$ladder" help | awk '/^   [a-z]/ && $1 != "completion" {print $1}'); do
    page=docs/commands/$cmd.md
    [ -f "$page" ] || printf '# ladder %s\n' "$cmd" >"$page"
    "$ladder" help --markdown "$cmd" >"$tmp/table"
    # the usage lines without "usage: " and the indent under it
    "$ladder" "$cmd" --help | awk 'NF == 0 { exit } { print substr($0, 8) }' >"$tmp/usage"
    awk -v b="$begin" -v e="$end" -v t="$tmp/table" -v u="$tmp/usage" '
        function table() { print b; while ((getline l < t) > 0) print l; print e }
        function usage() { print "```"; while ((getline l < u) > 0) print l; print "```" }
        # the first block under the title, fenced or indented, is the usage
        NR == 1 { print; state = 1; next }
        state == 1 && $0 == "" { print; next }
        state == 1 && $0 == "```" { state = 2; next }
        state == 1 && /^    / { state = 3; next }
        state == 1 { usage(); print ""; state = 0 }
        state == 2 { if ($0 == "```") { usage(); state = 0 } next }
        state == 3 { if (/^    /) next; usage(); state = 0 }
        $0 == b { table(); skip = 1; done = 1; next }
        $0 == e { skip = 0; next }
        !skip { print }
        END { if (!done) { print ""; print "## Arguments and options"; print ""; table() } }
    ' "$page" >"$tmp/page"
    put "$page" "$tmp/page"
done
exit $stale
