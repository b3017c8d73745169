#!/bin/sh
# recipe-gen.sh LADDER PRESET [RANDOM]: a recipe for PRESET built from what
# `ladder model show` says about the instruction (names, formats, K, scales,
# sparsity), the result declared as its container (an e8m13 result is an f32
# word), with every rung the kind allows. Nothing of the arithmetic is
# copied: that is what the ladder must find.
L=$1
P=$2
N=${3:-512}
t=$(mktemp)
"$L" model show "$P" | grep -v '^#' >"$t"
get() { grep "^$1:" "$t" | head -1 | sed "s/^$1: *//"; }
d=$(get d)
case "$d" in \{*) d=f32 ;; esac
sc=$(get scale_block)
echo "recipe: 1"
echo "datapath:"
for f in name arch instr kind shape sass a b c; do
    v=$(get $f)
    [ -n "$v" ] && [ "$v" != '""' ] && echo "  $f: $v"
done
echo "  d: $d"
echo "  k: $(get k)"
if [ "$sc" != 0 ]; then
    echo "  sa: $(get sa)"
    echo "  sb: $(get sb)"
    echo "  scale_block: $sc"
    S=", scaling"
else
    S=""
fi
sp=$(get sparse)
[ "$sp" != none ] && echo "  sparse: $sp"
echo "device: sim:$P"
echo "rungs: [instruction, slice, lanes, truncation, visible, internal, ulp, grouping, zeros, specials$S, random]"
echo "random: {cases: $N, finite: 50, seed: 1}"
rm -f "$t"
