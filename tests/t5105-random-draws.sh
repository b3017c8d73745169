#!/bin/sh
# The random draws of the blind-recovery test (tests/data/model-random.sh)
# cover the model family: LADDER_DRAWS_N draws (default 300), generation
# only, no inference. Every draw is a valid model (`ladder model check`);
# every row that inference searches (the "searched" column of `ladder model
# params`) takes a value other than its default in some draw; every legal
# value of every enumerated row (and both values of every boolean one)
# appears; and the structures appear: AMD bases, the two-level window,
# exact and tree sums, f64, integer, block scaling with group sums and the
# C-dominant path, the two-HMMA fp8 lane order with C added last, sparsity,
# mixed A and B, fnuz and user-defined formats. The rows come from the
# binary, so a row added without a draw fails here. Check names:
# random-draws-*.
. tests/lib.sh

N=${LADDER_DRAWS_N:-300}

i=1
bad=""
while [ "$i" -le "$N" ]; do
    f=$TMP/draw-$i.yaml
    sh "$TESTS_DATA/model-random.sh" "$LADDER" "$i" >"$f" 2>"$TMP/gen.err"
    if ! "$LADDER" model check "$f" >/dev/null 2>"$TMP/check.err"; then
        bad="$bad $i"
        [ -z "${first:-}" ] && first="draw $i: $(head -n 1 "$TMP/check.err" "$TMP/gen.err" | tr '\n' ' ')"
    fi
    i=$((i + 1))
done
[ -z "$bad" ] && ok random-draws-valid || fail random-draws-valid "invalid draws:$bad; ${first:-}"
# the same seed gives the same draw
sh "$TESTS_DATA/model-random.sh" "$LADDER" 1 >"$TMP/again.yaml"
cmp -s "$TMP/again.yaml" "$TMP/draw-1.yaml" && ok random-draws-seeded ||
    fail random-draws-seeded "draw 1 differs between two runs"
# two seeds, two draws
cmp -s "$TMP/draw-1.yaml" "$TMP/draw-2.yaml" && fail random-draws-differ "draws 1 and 2 are the same" ||
    ok random-draws-differ

# The rows: key, type, searched, from the registry's table. The defaults:
# a model file with only the required keys, written back whole.
"$LADDER" model params | awk -F'|' 'NR > 2 {
    k = $2; gsub(/[ `]/, "", k); t = $3; sub(/^ */, "", t); sub(/ *$/, "", t)
    s = ($5 ~ /yes/) ? "yes" : "no"
    print k "\t" s "\t" t }' >"$TMP/rows"
[ "$(wc -l <"$TMP/rows")" -gt 40 ] && ok random-draws-rows ||
    fail random-draws-rows "ladder model params listed $(wc -l <"$TMP/rows") rows"
printf 'a: f32\nb: f32\nc: f32\nd: f32\nk: 1\n' >"$TMP/min.yaml"
"$LADDER" model show "$TMP/min.yaml" | grep -v '^#' >"$TMP/defaults"
"$LADDER" format list | awk '{print $1}' >"$TMP/builtin"

# every value each row takes: "key<TAB>value", one line per draw and row
pairs() { tr -d '"' | awk '/^[a-z_0-9]+:/ { k = $1; sub(/:$/, "", k); v = $0
                                           sub(/^[a-z_0-9]+: */, "", v); print k "\t" v }'; }
for f in "$TMP"/draw-*.yaml; do grep -v '^#' "$f"; done | pairs | sort -u >"$TMP/values"
pairs <"$TMP/defaults" >"$TMP/dflt"

# searched rows: a value other than the default
while IFS="$(printf '\t')" read -r key searched type; do
    [ "$searched" = yes ] || continue
    d=$(awk -F'\t' -v k="$key" '$1 == k {print $2}' "$TMP/dflt")
    n=$(awk -F'\t' -v k="$key" -v d="$d" '$1 == k && $2 != d' "$TMP/values" | wc -l)
    [ "$n" -gt 0 ] && ok "random-draws-row-$key" ||
        fail "random-draws-row-$key" "no draw gives $key a value other than its default ($d)"
done <"$TMP/rows"

# enumerated and boolean rows: every legal value (the type lists them all
# in backquotes, nothing else), but the legal values inference does not
# search (model/params.c's candidates say why), which no draw takes
OUTSIDE="acc_round-rna d_round-rna"
while IFS="$(printf '\t')" read -r key searched type; do
    vals=$(echo "$type" | awk '{ t = $0; gsub(/`[^`]*`/, "", t); gsub(/[ ,\/]/, "", t)
                                 if (t != "") exit; n = split($0, x, "`")
                                 for (i = 2; i <= n; i += 2) print x[i] }')
    [ -n "$vals" ] || continue
    for v in $vals; do
        case " $OUTSIDE " in *" $key-$v "*) continue ;; esac
        grep -qx "$key	$v" "$TMP/values" && ok "random-draws-$key-$v" ||
            fail "random-draws-$key-$v" "no draw has $key: $v"
    done
done <"$TMP/rows"

# the structures, each in some draw: one line of fields per draw
for f in "$TMP"/draw-*.yaml; do
    grep -v '^#' "$f" | tr -d '"' | awk -v B="$TMP/builtin" '
    BEGIN { while ((getline l < B) > 0) bi[l] = 1 }
    { k = $1; sub(/:$/, "", k); v = $0; sub(/^[a-z_0-9]+: */, "", v); V[k] = v }
    END {
        s = ""
        if (V["arch"] ~ /^gfx/) s = s " amd"
        if (V["window2"] > 0) s = s " two-level"
        if (V["window2"] > 0 && V["even_odd"] == "true" && V["norm2"] > 0 && V["c2_drop"] == "true") s = s " two-level-cdna3"
        if (V["exact"] == "true") s = s " exact"
        if (V["exact"] == "true" && V["ieee_zero"] == "true") s = s " exact-ieee-zero"
        if (V["tree"] == "true") s = s " tree"
        if (V["tree"] == "true" && V["ftz_in"] == "true" && V["ftz_out"] == "true") s = s " tree-ftz"
        if (V["a"] == "f64") s = s " f64"
        if (V["integer"] == "true") s = s " integer"
        if (V["scale_block"] > 0) s = s " scaled"
        if (V["scale_block"] > 0 && V["group"] > 1 && V["cdom_window"] > 0) s = s " scaled-cdom"
        if (V["scale_block"] > 0 && V["sa"] == "ue4m3") s = s " scaled-ue4m3"
        if (V["order"] != "none" && V["c_last"] == "true") s = s " two-hmma"
        if (V["sparse"] != "none") s = s " sparse"
        if (V["a"] != V["b"]) s = s " mixed"
        if (V["a"] ~ /fnuz/ || V["b"] ~ /fnuz/) s = s " fnuz"
        if (V["arch"] !~ /^gfx/ && (V["a"] ~ /fnuz/ || V["b"] ~ /fnuz/)) s = s " fnuz-on-nvidia"
        if (!(V["a"] in bi) || !(V["b"] in bi)) s = s " user-format"
        if (!(V["d"] in bi)) s = s " d-cut"
        print s
    }'
done | tr ' ' '\n' | sort | uniq -c >"$TMP/structures"
for s in amd two-level two-level-cdna3 exact exact-ieee-zero tree tree-ftz f64 integer scaled \
    scaled-cdom scaled-ue4m3 two-hmma sparse mixed fnuz fnuz-on-nvidia user-format d-cut; do
    n=$(awk -v s="$s" '$2 == s {print $1}' "$TMP/structures")
    [ -n "$n" ] && ok "random-draws-has-$s" || fail "random-draws-has-$s" "no draw of $N has it"
done
test_done
