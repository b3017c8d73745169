#!/bin/sh
# docs/mmasim.md maps every datapath MMA-Sim 2.1.1 models to presets: each
# row of its table gives a count and preset patterns (shell globs). The
# patterns of a row must match exactly that many presets, each pattern at
# least one, so the page cannot name a preset that is gone or miss one that
# a pattern should hold. Rows with a count of 0 say why ("none: ...").
. tests/lib.sh

run_ladder presets
expect_rc mmasim-map-presets-rc 0
awk 'NF {print $1}' "$out" >"$TMP/names"
sed -n '/^## The table/,/^## /p' docs/mmasim.md | grep '^| [A-Z]' | grep -v '^| MMA-Sim arch' >"$TMP/rows"
[ "$(wc -l <"$TMP/rows")" -ge 30 ] && ok mmasim-map-rows ||
    fail mmasim-map-rows "only $(wc -l <"$TMP/rows") rows in the table of docs/mmasim.md"

# One line per row: the count, then the patterns.
awk -F'|' '{gsub(/ /, "", $6); print $6 "|" $7}' "$TMP/rows" >"$TMP/spec"
bad=""
total=0
set -f  # the patterns are for case, not for the file system
while IFS='|' read -r count pats; do
    case "$count" in *[!0-9]*|"") bad="$bad; count '$count'"; continue ;; esac
    if [ "$count" -eq 0 ]; then
        case "$pats" in *none:*) ;; *) bad="$bad; a 0 row without 'none:'" ;; esac
        continue
    fi
    n=0
    for p in $(echo "$pats" | tr -d '`'); do
        m=0
        while read -r name; do
            # shellcheck disable=SC2254
            case "$name" in $p) m=$((m + 1)) ;; esac
        done <"$TMP/names"
        [ "$m" -gt 0 ] || bad="$bad; '$p' matches no preset"
        n=$((n + m))
    done
    [ "$n" -eq "$count" ] || bad="$bad; '$pats' matches $n presets, the row says $count"
    total=$((total + n))
done <"$TMP/spec"
set +f
[ -z "$bad" ] && ok mmasim-map-counts || fail mmasim-map-counts "${bad#; }"
echo "# $total preset rows mapped"

test_done
