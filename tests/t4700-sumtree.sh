#!/bin/sh
# The sumtree rung (FPRev) recovers blind, through exec devices, the order
# of reductions written as small oracles (tests/data/oracle-sum.c: in
# order, pairwise, in blocks of 16), of programs of MMAs run by libladder's
# lad_gemm (tests/data/oracle-gemm.c: chaining, split-K and its reduction),
# and of an instruction on the sim device; it reports numpy's np.dot
# without asserting an order; words that are no sum are a conflict. Every
# expected tree is written out here from the order each oracle is built
# to take, never from ladder's output.
. tests/lib.sh
CC=${CC:-cc}

if ! $CC -std=c11 -O2 -o "$TMP/oracle-sum" tests/data/oracle-sum.c 2>"$TMP/cc"; then
    fail sumtree-oracle-compile "$(head -c 300 "$TMP/cc")"
    test_done
fi
ok sumtree-oracle-compile

# recipe NAME K A-FORMAT DEVICE: a recipe that climbs the sumtree rung alone.
recipe() {
    cat >"$TMP/$1.yaml" <<EOR
recipe: 1
description: the summation order of $1
datapath:
  name: $1
  arch: host
  instr: sum
  a: $3
  b: $3
  c: f32
  d: f32
  k: $2
device: "$4"
rungs:
  - sumtree
EOR
}

# tree NAME K A-FORMAT DEVICE: runs the recipe (its exec device trusted)
# into its own store and infers; $tree is the tree ladder infer printed.
tree() {
    recipe "$1" "$2" "$3" "$4"
    rm -f "$TMP/$1.db"
    run_ladder run "$TMP/$1.yaml" --db "$TMP/$1.db" --trust-exec
    expect_rc "sumtree-$1-run" 0
    run_ladder infer 1 --db "$TMP/$1.db"
    tree=$(sed -n 's/^sumtree  *[0-9]* lanes: //p' "$out")
}

# seq FROM TO: "((FROM+FROM+1)+...)+TO", lanes added one at a time.
seq_tree() {
    t=$1
    i=$(($1 + 1))
    while [ $i -le $2 ]; do t="($t+$i)"; i=$((i + 1)); done
    printf '%s' "$t"
}

# fused FROM TO: "(FROM+...+TO)", one fused addition.
fused() {
    t="($1"
    i=$(($1 + 1))
    while [ $i -le $2 ]; do t="$t+$i"; i=$((i + 1)); done
    printf '%s)' "$t"
}

tree seq 8 f32 "exec:$TMP/oracle-sum seq"
expect_rc sumtree-seq-infer-rc 0
want='(((((((0+1)+2)+3)+4)+5)+6)+7)'
[ "$tree" = "$want" ] && ok sumtree-seq || fail sumtree-seq "got '$tree', want '$want'"
expect_out sumtree-seq-no-model 'of the sumtree rung alone: no model'

tree pairwise 16 f32 "exec:$TMP/oracle-sum pairwise"
want='((((0+1)+(2+3))+((4+5)+(6+7)))+(((8+9)+(10+11))+((12+13)+(14+15))))'
[ "$tree" = "$want" ] && ok sumtree-pairwise || fail sumtree-pairwise "got '$tree', want '$want'"

tree block16 64 f32 "exec-framed:$TMP/oracle-sum block 16"
want="((($(seq_tree 0 15)+$(seq_tree 16 31))+$(seq_tree 32 47))+$(seq_tree 48 63))"
[ "$tree" = "$want" ] && ok sumtree-block16 || fail sumtree-block16 "got '$tree', want '$want'"

# the tree is stored with the run's inference and shown with it
run_ladder show 1 --db "$TMP/block16.db"
expect_out sumtree-show '^  sumtree = \(+0\+1\)\+2\).*\+63\)\)   \(fprev: 2017 cases' 

# words that are no sum (every case answered with its C, +0): the ones do
# not add up, and inference says so instead of shaping a tree
tree noise 8 f32 "exec:sh tests/data/oracle-c.sh"
expect_rc sumtree-noise-rc 1
expect_err sumtree-noise-conflict '^ladder: conflict: sumtree: 8 ones do not sum to 8 exactly'

# An instruction on the sim device: one fused pass of 16 on Hopper's bf16
# mma.sync (docs/datapaths.md), and with the whole ladder the fitted model
# reproduces the sumtree cases too.
sed -e 's/^  - random$/  - sumtree/' -e 's/^  cases: .*/  cases: 1000/' \
    recipes/sm90-mma-bf16-f32.yaml >"$TMP/instr.yaml"
run_ladder run "$TMP/instr.yaml" --db "$TMP/instr.db"
expect_rc sumtree-instr-run 0
run_ladder infer 1 --db "$TMP/instr.db"
expect_rc sumtree-instr-infer 0
want=$(fused 0 15)
expect_out sumtree-instr-tree "^sumtree +16 lanes: $(printf '%s' "$want" | sed 's/[()+]/\\&/g')\$"

# Programs of MMAs (model/program.h) over sm90-mma-bf16-f32, K = 64: four
# MMAs chained; two slices of two MMAs reduced in order; four slices of one
# MMA reduced pairwise.
# Under `make SANITIZER=... test` the library is sanitized: so is the oracle.
san=
[ -n "${SANITIZER:-}" ] && san="-fsanitize=$SANITIZER"
if $CC -std=c11 -I. $san -o "$TMP/oracle-gemm" tests/data/oracle-gemm.c \
        "$(dirname "$LADDER")/libladder.a" -lpthread 2>"$TMP/cc"; then
    ok sumtree-gemm-compile
    m1=$(fused 0 15)
    tree mainloop 64 bf16 "exec:$TMP/oracle-gemm sm90-mma-bf16-f32"
    want="((($m1+16+17+18+19+20+21+22+23+24+25+26+27+28+29+30+31)+32+33+34+35+36+37+38+39+40+41+42+43+44+45+46+47)+48+49+50+51+52+53+54+55+56+57+58+59+60+61+62+63)"
    [ "$tree" = "$want" ] && ok sumtree-gemm-chain || fail sumtree-gemm-chain "got '$tree'"
    tree split2 64 bf16 "exec:$TMP/oracle-gemm sm90-mma-bf16-f32 split=2"
    want="(($m1+16+17+18+19+20+21+22+23+24+25+26+27+28+29+30+31)+($(fused 32 47)+48+49+50+51+52+53+54+55+56+57+58+59+60+61+62+63))"
    [ "$tree" = "$want" ] && ok sumtree-gemm-split2 || fail sumtree-gemm-split2 "got '$tree'"
    tree split4 64 bf16 "exec:$TMP/oracle-gemm sm90-mma-bf16-f32 split=4 reduce=tree"
    want="(($m1+$(fused 16 31))+($(fused 32 47)+$(fused 48 63)))"
    [ "$tree" = "$want" ] && ok sumtree-gemm-split4-tree || fail sumtree-gemm-split4-tree "got '$tree'"
else
    fail sumtree-gemm-compile "$(head -c 300 "$TMP/cc")"
fi

# numpy's np.dot (build/venv): whatever order its BLAS takes, the words
# must form one tree over all 32 lanes; the tree itself is reported only.
py=${VENV:-build/venv}/bin/python
if [ -x "$py" ] && "$py" -c 'import numpy' 2>/dev/null; then
    tree numpy 32 f32 "exec:$py tests/data/oracle-numpy.py dot"
    expect_rc sumtree-numpy-infer 0
    leaves=$(printf '%s' "$tree" | tr -c '0-9' '\n' | grep -c .)
    [ "$leaves" = 32 ] && ok sumtree-numpy-leaves || fail sumtree-numpy-leaves "$leaves leaves in '$tree'"
    printf '     numpy np.dot, 32 lanes: %s\n' "$tree"
else
    printf '     (not counted: no numpy in %s)\n' "$py"
fi
test_done
