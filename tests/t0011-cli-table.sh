#!/bin/sh
# The command table (cli/commands.def) and what comes of it: for every
# command, the options its source parses are the ones its --help lists and
# its usage lines name, and the reverse; `ladder help` lists every command;
# `ladder completion bash` completes them; docs/commands/ is what the table
# makes. The options a command parses are read here from its source (its
# cli_opt array), not asked of ladder.
. tests/lib.sh

run_ladder help
expect_rc table-help-rc 0
cmds=$(awk '/^   [a-z]/ && $1 != "completion" {print $1}' "$out")
n=$(echo "$cmds" | wc -w)
ncmd=$(ls cli/cmd_*.c | wc -l)
check table-help-every-command test "$n" = "$ncmd"

for c in $cmds; do
    src=cli/cmd_$c.c
    check "table-$c-source" test -f "$src"
    # what the source parses: {"name", 'x' or 0, 0 or 1, &var}
    parsed=$(grep -o '{"[a-z0-9-]*", *\(0\|'"'"'.'"'"'\), *[01], *&' "$src" |
             sed 's/{"\([a-z0-9-]*\)".*/\1/' | sort -u)
    run_ladder "$c" --help
    expect_rc "table-$c-help-rc" 0
    expect_no_err "table-$c-help-quiet"
    expect_out "table-$c-help-usage" "^usage: ladder $c( |\$)"
    # the usage lines: from "usage:" to the first empty line
    awk 'NF == 0 {exit} {print}' "$out" >"$TMP/usage"
    # the option list: "  -x, --name <value>  help" or "  --name" alone
    sed -En 's/^  (-[a-zA-Z], )?--([a-z0-9-]+)( [^ ]+)?( {2,}.*|)$/\2/p' "$out" | sort -u >"$TMP/listed"
    bad=
    for o in $parsed; do
        grep -qx -- "$o" "$TMP/listed" || bad="$bad --$o(not listed)"
        grep -Eq -- "(^|[ [|])--$o([] |=]|\$)" "$TMP/usage" ||
            { s=$(grep -o '{"'"$o"'", *'"'"'.'"'" "$src" | sed "s/.*'\(.\)'/\1/" | head -n 1)
              [ -n "$s" ] && grep -Eq -- "(^|[ [|])-$s([] ]|\$)" "$TMP/usage"; } ||
            bad="$bad --$o(not in usage)"
    done
    for o in $(cat "$TMP/listed"); do
        echo "$parsed" | grep -qx -- "$o" || bad="$bad --$o(listed, not parsed)"
    done
    for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$TMP/usage" | sed 's/^--//' | sort -u); do
        echo "$parsed" | grep -qx -- "$o" || bad="$bad --$o(in usage, not parsed)"
    done
    if [ -z "$bad" ]; then ok "table-$c-options"; else fail "table-$c-options" "$bad"; fi
    # -q everywhere (docs/commands/README.md: the common options)
    check "table-$c-quiet" grep -qx quiet "$TMP/listed"
done

# ---- completion ------------------------------------------------------------
run_ladder completion bash
expect_rc table-completion-rc 0
cp "$out" "$TMP/comp.bash"
complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ladder;
             printf "%s\n" "${COMPREPLY[@]}"' sh "$TMP/comp.bash" "$@" | sort | tr '\n' ' '
}
if command -v bash >/dev/null 2>&1; then
    check table-completion-command test "$(complete_words ladder inf)" = "infer "
    check table-completion-option test "$(complete_words ladder diff --js)" = "--json "
    check table-completion-help test "$(complete_words ladder help sur)" = "survey "
    check table-completion-shells test "$(complete_words ladder completion b)" = "bash "
else
    known table-completion "no bash here"
fi
expect_usage_error table-completion-zsh completion zsh

# ---- docs/commands/ ----------------------------------------------------------
if sh scripts/docs-commands.sh "$LADDER" --check 2>"$TMP/stale"; then
    ok table-docs-up-to-date
else
    fail table-docs-up-to-date "$(head -n 1 "$TMP/stale")"
fi

test_done
