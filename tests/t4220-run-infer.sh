#!/bin/sh
# Blind inference: the ladder runs on the simulated preset (a black box to
# it), `ladder infer` fits a model from the stored words alone, and the model
# must agree with the preset: field by field for the parameters the probes
# decide, and on random cases through `ladder validate`. The expected values
# are the presets' own parameters, which inference never reads. The runs
# end without the decide rung (--no-decide): t4225 is about it, and these
# checks hold from the other rungs alone.
. tests/lib.sh

db=$TMP/l.db
run_id=0
field() { grep "^$1:" "$2" | head -1 | sed "s/^$1: *//"; }
presets="sm80-mma-f16-f32 sm80-mma-tf32-f32 sm89-mma-bf16-f32 sm89-mma-e4m3-f32 sm89-mma-e5m2-f16
         sm90-mma-f16-f16 sm90-mma-bf16-f32 sm90-wgmma-e4m3-f32 sm90-mma-e5m2-f32 sm100-mma-tf32-f32
         sm100-tcgen05-tf32-f32 sm100-tcgen05-e2m1-f32 sm100-tcgen05-sp-f16-f32
         sm100-tcgen05-u8xs8-s32-sat sm100-tcgen05-e4m3xe2m1-f32"
# LADDER_TEST_QUICK (the sanitizer build): every fifth (sm_80 f16, sm_90
# f16 into f16, sm_100 tcgen05 tf32)
[ -n "${LADDER_TEST_QUICK:-}" ] && presets=$(echo $presets | awk '{ for (i = 1; i <= NF; i += 5) print $i }')
for p in $presets; do
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 1024 >"$TMP/r.yaml"
    run_ladder run "$TMP/r.yaml" --db "$db" --no-decide
    expect_rc infer-$p-run-rc 0
    run_id=$((run_id + 1))
    run_ladder infer $run_id --db "$db" -o "$TMP/m.yaml"
    expect_rc infer-$p-rc 0
    "$LADDER" model show "$p" >"$TMP/p.yaml"
    "$LADDER" model show "$TMP/m.yaml" >"$TMP/i.yaml" 2>"$err"
    bad=""
    fields="d window pass chain c_anchor align_round in_round d_round nan anchor_min zero_floor overflow"
    # an integer datapath has one arithmetic parameter; the float ones are unused
    [ "$(field integer "$TMP/p.yaml")" = true ] && fields="integer saturate"
    for f in $fields; do
        [ "$(field $f "$TMP/p.yaml")" = "$(field $f "$TMP/i.yaml")" ] || bad="$bad $f"
    done
    if [ -z "$bad" ]; then ok infer-$p-fields; else fail infer-$p-fields "differ:$bad"; fi
    run_ladder validate $run_id --db "$db" --cases 20000 -q
    expect_rc infer-$p-validate-rc 0
done

# A format declared only by name and width: the decode rung finds it (the
# device is e4m3: 4 exponent bits, 3 fraction bits, bias 7, no Inf, NaN only
# at S.1111.111).
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm89-mma-e4m3-f32 256 |
    sed 's/^  a: e4m3/  a: myfp8/; s/^  b: e4m3/  b: myfp8/; s/^recipe: 1/recipe: 1\nformats:\n  - {name: myfp8, width: 8}/' >"$TMP/u.yaml"
run_ladder run "$TMP/u.yaml" --db "$db"
expect_rc infer-userfmt-run-rc 0
expect_out infer-userfmt-decode-rung '^decode +512 cases'
run_id=$((run_id + 1))
run_ladder infer $run_id --db "$db" -o "$TMP/m.yaml"
expect_rc infer-userfmt-rc 0
a=$(field a "$TMP/m.yaml")
# written as the spec of e4m3's fields under the recipe's name
case "$a" in
'"e4m3:name=myfp8"') ok infer-userfmt-e4m3 ;;
*) fail infer-userfmt-e4m3 "a: $a" ;;
esac
# The decode cases carry their code as evidence (the A word times an exact
# 1.0 in lane 0), and infer reads that, not the label meant for people.
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = $run_id AND series = 'a-code' AND target = 'a' AND vary = json_extract(a, '\$[0]')")
check infer-userfmt-evidence test "$n" = 256
sqlite3 "$db" "UPDATE cases SET label = 'relabelled ' || id WHERE run_id = $run_id"
run_ladder infer $run_id --db "$db" -o "$TMP/m2.yaml"
expect_rc infer-userfmt-relabelled-rc 0
check infer-userfmt-relabelled-same test "$(field a "$TMP/m2.yaml")" = "$a"

# Observations that disagree are named, not guessed: a run whose answers
# come from two different datapaths cannot be fitted.
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm90-mma-bf16-f32 256 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible,internal
run_id=$((run_id + 1))
sqlite3 "$db" "UPDATE cases SET d = d + 1 WHERE run_id = $run_id AND rung = 'internal' AND label LIKE 'p1-p1+p j=3'"
# (one inference answers every check below but the last pair: each costs
# seconds, its conflict being searched out first)
run_ladder infer $run_id --db "$db" -o "$TMP/near.yaml" --nearest
expect_rc infer-conflict-rc 1
# no proof that no model fits: the search's reach is what it says ran out
expect_err infer-conflict-names-case 'conflict: no model found within reach explains [0-9]+ of [0-9]+ cases: .*internal#[0-9]+'
# ... an answer about the device: how far the nearest model gets, and the
# smallest case no model explains, with the device's word as stored
total=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = $run_id")
bad=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = $run_id AND rung = 'internal' AND label LIKE 'p1-p1+p j=3'")
expect_out infer-conflict-nearest "^nearest model +reproduces $((total - bad)) of $total stored cases\$"
id=$(sed -n 's/^smallest case *#\([0-9]*\) (internal).*/\1/p' "$out")
dev=$(sed -n 's/^smallest case .*; device 0x\([0-9a-f]*\), nearest model 0x[0-9a-f]*$/\1/p' "$out")
want=$(sqlite3 "$db" "SELECT printf('%x', d) FROM cases WHERE id = '${id:-0}' AND label LIKE 'p1-p1+p j=3'")
if [ -n "$id" ] && [ -n "$want" ] && [ "$dev" = "$want" ]; then ok infer-conflict-smallest
else fail infer-conflict-smallest "case '${id:-}' device '${dev:-}', stored '${want:-}'"; fi
run_ladder model check "$TMP/near.yaml"
expect_rc infer-conflict-nearest-file 0
# -o writes the nearest model only when asked to
run_ladder infer $run_id --db "$db" -o "$TMP/far.yaml"
expect_rc infer-conflict-o-rc 1
expect_err infer-conflict-o-says "not written \(--nearest writes the nearest model\)"
check infer-conflict-o-nothing test ! -e "$TMP/far.yaml"
expect_out infer-conflict-o-hint "^nearest model +reproduces $((total - bad)) of $total stored cases; --nearest -o <file> writes it\$"

# Two cases with the same input words and different words fit no model of
# any family, and the conflict says so: the truncation rung's C alone with
# bit 0 set is the visible rung's C = 1 + 2^-23.
run_ladder run "$TMP/r.yaml" --db "$db" --rungs truncation,visible
run_id=$((run_id + 1))
sqlite3 "$db" "UPDATE cases SET d = d + 1 WHERE run_id = $run_id AND rung = 'truncation' AND label = 'c bit 0'"
run_ladder infer $run_id --db "$db"
expect_rc infer-not-a-function-rc 1
expect_err infer-not-a-function-says 'conflict: fits no model: truncation#[0-9]+ and visible#[0-9]+ have the same inputs and different words'

# A case every model of the family gives one word (one exact product: the
# lanes rung's 2^-126 x 2^126 in one lane, C +0, is 1.0 in every model)
# and the device's other word prove the conflict before any search: a
# device that answers C gives 0 there.
run_ladder run "$TMP/r.yaml" --db "$db" --rungs lanes,visible --device "exec:sh $TESTS_DATA/oracle-c.sh"
expect_rc infer-exact-product-run-rc 0
run_id=$((run_id + 1))
run_ladder infer $run_id --db "$db"
expect_rc infer-exact-product-rc 1
expect_err infer-exact-product-says 'conflict: fits no model: lanes#[0-9]+ is one exact product, 0x3f800000 in every model of the family, and the device gave 0x0;'
# ... and only that: the device that answers right is explained
run_ladder run "$TMP/r.yaml" --db "$db" --rungs lanes,visible
run_id=$((run_id + 1))
run_ladder infer $run_id --db "$db" --no-answer
expect_rc infer-exact-product-right-rc 0

expect_usage_error infer-no-run infer --db "$db"
run_ladder infer 999 --db "$db"
expect_rc infer-unknown-run-rc 2
test_done
