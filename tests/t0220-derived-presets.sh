#!/bin/sh
# A derived preset says "parameters of <preset>": it must compute as that
# preset does. Every parameter `ladder model show` prints is equal between
# the two but the instruction's identity (name, arch, instr, kind, shape,
# sass, evidence), K, L (the source's or the new K, whichever is smaller),
# B for the mixed-format presets (an 'x' in the name) and C for the
# f16-addend ones ('-cf16'), compared in canonical form at the derived K
# (a shorter K can take rows out of effect, which the derived preset then
# writes at their defaults). So a change to a measured preset carries over
# to the presets derived from it, and their evidence stays true.
. tests/lib.sh

run_ladder presets
expect_rc derived-presets-list-rc 0
awk 'NF {print $1}' "$out" >"$TMP/names"
skip='^(name|arch|instr|kind|shape|sass|evidence|k|pass|b|c):'
val() { sed -n "s/^$1: //p" "$2"; }
n=0
bad=""
while read -r p; do
    "$LADDER" model show "$p" | grep -v '^#' >"$TMP/p.yaml"
    src=$(sed -n 's/^evidence: "derived: .*; parameters of \([a-z0-9-]*\)"$/\1/p' "$TMP/p.yaml")
    [ -n "$src" ] || continue
    n=$((n + 1))
    if ! "$LADDER" model show "$src" 2>/dev/null | grep -v '^#' >"$TMP/s.yaml"; then
        bad="$bad; $p: no preset '$src'"
        continue
    fi
    k=$(val k "$TMP/p.yaml")
    sp=$(val pass "$TMP/s.yaml")
    want=$sp
    [ "$k" -lt "$sp" ] && want=$k
    # the source at the derived K, in canonical form (a shorter K can take
    # rows out of effect), against the derived preset
    sed -e "s/^k: .*/k: $k/" -e "s/^pass: .*/pass: $want/" "$TMP/s.yaml" >"$TMP/sk.yaml"
    "$LADDER" model show --canonical "$TMP/sk.yaml" | grep -v '^#' | grep -Ev "$skip" >"$TMP/s.rest"
    grep -Ev "$skip" "$TMP/p.yaml" >"$TMP/p.rest"
    if ! cmp -s "$TMP/p.rest" "$TMP/s.rest"; then
        bad="$bad; $p differs from $src in $(diff "$TMP/p.rest" "$TMP/s.rest" | grep '^<' | head -n 1)"
    fi
    [ "$(val pass "$TMP/p.yaml")" = "$want" ] || bad="$bad; $p: pass $(val pass "$TMP/p.yaml"), not $want"
    case "$p" in *[0-9]xe*) ;; *) [ "$(val b "$TMP/p.yaml")" = "$(val b "$TMP/s.yaml")" ] ||
        bad="$bad; $p: B differs from $src" ;; esac
    case "$p" in *-cf16*) ;; *) [ "$(val c "$TMP/p.yaml")" = "$(val c "$TMP/s.yaml")" ] ||
        bad="$bad; $p: C differs from $src" ;; esac
done <"$TMP/names"
[ "$n" -gt 0 ] && ok derived-presets-found || fail derived-presets-found "no derived preset"
[ -z "$bad" ] && ok derived-presets-follow-source || fail derived-presets-follow-source "${bad#; }"
echo "# $n derived presets compared with their sources"

test_done
