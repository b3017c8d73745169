#!/bin/sh
# ladder run climbs a recipe on the simulated device: every rung prints a
# line, the run ends with `run <id> ok`, every case is stored, and the
# targeted cases (all rungs but random) stay under 5,000 per datapath.
. tests/lib.sh

db=$TMP/l.db
run_ladder run recipes/sm90-mma-bf16-f32.yaml --db "$db"
expect_rc run-sim-bf16-rc 0
expect_out run-sim-bf16-ends '^run 1 ok$'
for r in instruction slice lanes truncation visible internal ulp grouping zeros specials random; do
    expect_out run-sim-bf16-rung-$r "^$r +[0-9]+ cases"
done
expect_out run-sim-bf16-slice-scalar '^slice .*tracks the scalar'
expect_out run-sim-bf16-lanes-exact '^lanes .*each contributes exactly'
expect_out run-sim-bf16-visible-23 '^visible .*through j = 23$'
# random.cases (1000000 here) is validate's; the rung stores 4096 and says so.
expect_out run-sim-bf16-random-capped '^random +6144 cases  4096 random cases .*; validate runs all 1000000\), 2048 of validation.s finite kind$'
n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE run_id = 1")
want=$(awk '/ cases /{s+=$2} END {print s}' "$out")
if [ "$n" = "$want" ] && [ "$n" -gt 1000 ]; then ok run-sim-bf16-stored; else fail run-sim-bf16-stored "$n stored, $want printed"; fi

run_ladder show 1 --db "$db"
expect_rc run-sim-show-rc 0
expect_out run-sim-show-internal 'internal'

# several datapaths: float, f16 result, fp8 with an e8m13 result, integer,
# sparse, block-scaled
for p in sm80-mma-tf32-f32 sm70-mma-f16-f16 sm89-mma-e4m3-f32 sm100-tcgen05-s8xs8-s32-sat \
         sm100-tcgen05-sp-f16-f32 sm100-tcgen05-mxf8f6f4-e2m1-f32; do
    sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" "$p" 256 >"$TMP/$p.yaml"
    run_ladder run "$TMP/$p.yaml" --db "$db"
    expect_rc run-sim-$p-rc 0
    expect_out run-sim-$p-ok '^run [0-9]+ ok$'
    t=$(awk '/ cases / && $1 != "random" {s+=$2} END {print s}' "$out")
    if [ "$t" -lt 5000 ]; then ok run-sim-$p-under-5000; else fail run-sim-$p-under-5000 "$t targeted cases"; fi
done

# --rungs climbs only those, in dependency order
run_ladder run recipes/sm90-mma-bf16-f32.yaml --db "$db" --rungs internal,visible
expect_rc run-sim-rungs-rc 0
first=$(head -1 "$out" | awk '{print $1}')
if [ "$first" = visible ] && [ "$(wc -l <"$out")" = 3 ]; then ok run-sim-rungs-order; else fail run-sim-rungs-order "$(cat "$out")"; fi
expect_usage_error run-sim-rungs-unknown run recipes/sm90-mma-bf16-f32.yaml --db "$db" --rungs nosuch
expect_usage_error run-sim-rungs-empty run recipes/sm90-mma-bf16-f32.yaml --db "$db" --rungs visible,,internal
expect_err run-sim-rungs-empty-message "^ladder: --rungs has an empty rung name in 'visible,,internal'$"
expect_usage_error run-sim-rungs-trailing-comma run recipes/sm90-mma-bf16-f32.yaml --db "$db" --rungs visible,
# decode is a rung (docs/probes.md): alone it climbs the decode and nothing
# else; on a recipe that gives every decode there is nothing for it to find.
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm89-mma-e4m3-f32 256 |
    sed 's/^  a: e4m3/  a: myfp8/; s/^recipe: 1/recipe: 1\nformats:\n  - {name: myfp8, width: 8}/' >"$TMP/u.yaml"
run_ladder run "$TMP/u.yaml" --db "$db" --rungs decode
expect_rc run-sim-rungs-decode-rc 0
if [ "$(awk '/ cases /{print $1}' "$out")" = decode ]; then ok run-sim-rungs-decode-only; else fail run-sim-rungs-decode-only "$(cat "$out")"; fi
expect_usage_error run-sim-rungs-decode-known run recipes/sm90-mma-bf16-f32.yaml --db "$db" --rungs decode
expect_err run-sim-rungs-decode-known-message "rung 'decode' has nothing to find"
expect_usage_error run-sim-no-recipe run --db "$db"
run_ladder run "$TMP/missing.yaml" --db "$db"
expect_rc run-sim-missing-recipe-rc 3
expect_err_line run-sim-missing-recipe-err

# Every target a rung stores is a list of registry keys (model/params.def),
# the keys `ladder model params` lists: a misspelt one would surface only as
# inference blaming the data. The runs above cover every rung but sumtree
# and the two-level series of a CDNA3 datapath; these two add them.
run_ladder run recipes/sm90-mma-bf16-f32.yaml --db "$db" --rungs sumtree
expect_rc run-sim-sumtree-rc 0
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" cdna3-mfma-e4m3fnuz-f32 256 >"$TMP/cdna3.yaml"
run_ladder run "$TMP/cdna3.yaml" --db "$db"
expect_rc run-sim-cdna3-rc 0
"$LADDER" model params | sed -n 's/^| `\([a-z0-9_]*\)` |.*/\1/p' | sort -u >"$TMP/keys"
sqlite3 "$db" "SELECT DISTINCT target FROM cases WHERE target <> ''" | tr ' ;' '\n\n' | grep . |
    sort -u >"$TMP/targets"
bad=$(comm -23 "$TMP/targets" "$TMP/keys" | tr '\n' ' ')
nt=$(wc -l <"$TMP/targets")
if [ -z "$bad" ] && [ "$nt" -gt 20 ]; then ok run-sim-targets-are-keys
else fail run-sim-targets-are-keys "not registry keys: '$bad' ($nt target keys)"; fi
# ... and every rung with targeted series took part
for r in slice lanes truncation visible internal ulp grouping zeros specials \
         scaling sumtree; do
    n=$(sqlite3 "$db" "SELECT count(*) FROM cases WHERE rung = '$r' AND target <> ''")
    if [ "$n" -gt 0 ]; then ok run-sim-targets-rung-$r
    else fail run-sim-targets-rung-$r "no targeted case of rung $r"; fi
done

test_done
