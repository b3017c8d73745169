#!/bin/sh
# ladder validate <run>: the model infer stored with the run, on the device
# spec stored with the run (its command line's --device, else its recipe's
# device:), with the recipe's random settings (cases, finite, seed) unless
# options say otherwise. A cuda run stays on its own GPU index: without
# that GPU the validation fails with exit 4 and names the device.
. tests/lib.sh

db=$TMP/l.db
P=sm90-mma-bf16-f32
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 |
    sed 's/^random: .*/random: {cases: 300, finite: 100, seed: 9}/' >"$TMP/r.yaml"
check validate-run-recipe-random grep -q '^random: {cases: 300, finite: 100, seed: 9}$' "$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$db"
expect_rc validate-run-run-rc 0
run_ladder infer 1 --db "$db"
expect_rc validate-run-infer-rc 0

# The recipe's settings: 300 cases, all finite (raw 0), seed 9.
run_ladder validate 1 --db "$db"
expect_rc validate-run-rc 0
expect_out_eq validate-run-recipe-cases "validate: 0/300 mismatches (run 1 inferred vs sim:$P)"
row=$(sqlite3 "$db" "SELECT generator, seed, cases FROM validations ORDER BY id DESC LIMIT 1")
if [ "$row" = "gen1:raw=0|9|300" ]; then ok validate-run-recipe-stored; else fail validate-run-recipe-stored "$row"; fi

# Options win over the recipe, one by one.
run_ladder validate 1 --db "$db" --cases 40 --seed 3 --raw 25
expect_out_eq validate-run-options-cases "validate: 0/40 mismatches (run 1 inferred vs sim:$P)"
row=$(sqlite3 "$db" "SELECT generator, seed, cases FROM validations ORDER BY id DESC LIMIT 1")
if [ "$row" = "gen1:raw=25|3|40" ]; then ok validate-run-options-stored; else fail validate-run-options-stored "$row"; fi

# A run climbed with --device on the command line: that spec, as given.
run_ladder run "$TMP/r.yaml" --db "$db" --device "sim:$P"
run_ladder infer 2 --db "$db"
run_ladder validate 2 --db "$db" --cases 8
expect_out_eq validate-run-argv-device "validate: 0/8 mismatches (run 2 inferred vs sim:$P)"
sqlite3 "$db" "UPDATE runs SET argv = json_array('ladder', 'run', 'r.yaml', '--device', 'cuda:3'), device_spec = 'cuda:3' WHERE id = 2"
run_ladder validate 2 --db "$db" --cases 8
expect_rc validate-run-cuda-index-rc 4
expect_err validate-run-cuda-index-named "^ladder: device 'cuda:3': "
expect_err_line validate-run-cuda-index-one-line
run_ladder validate 2 --db "$db" --cases 8 --device "sim:$P"
expect_out_eq validate-run-device-option "validate: 0/8 mismatches (run 2 inferred vs sim:$P)"

# A run stored before schema 3 (no device_spec): the command line's
# --device as above, else the stored recipe's device: line.
sqlite3 "$db" "UPDATE runs SET device_spec = '' WHERE id = 1"
sqlite3 "$db" "UPDATE recipes SET text = replace(text, 'device: sim:$P', 'device: cuda:2')"
run_ladder validate 1 --db "$db" --cases 8
expect_rc validate-run-recipe-cuda-rc 4
expect_err validate-run-recipe-cuda-named "^ladder: device 'cuda:2': "

# A run whose model was never inferred.
run_ladder run "$TMP/r.yaml" --db "$db" --rungs visible
run_ladder validate 3 --db "$db"
expect_rc validate-run-no-model-rc 3
expect_err validate-run-no-model-message "^ladder: run 3 has no inferred model; run 'ladder infer 3' first$"

test_done
